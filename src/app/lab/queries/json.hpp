// How the lab queries write `kolize explain`'s values (each unit's explainResult and explainSteps):
// floats as their shortest round-trip decimal (through shortestDouble and jsonText, as the
// headless report does), doubles as they are, and a value that is not finite (an empty interval's
// infinite end) as null, so the output never holds a NaN.
#pragma once

#include "app/cli/report_numbers.hpp"
#include "geom/contact.hpp"
#include "geom/types.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace kz::explain_json {

using Json = nlohmann::ordered_json;

/// The float, or null when it is not finite.
inline Json number(float v) {
    return std::isfinite(v) ? Json(shortestDouble(v)) : Json(nullptr);
}
/// The double, or null when it is not finite.
inline Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

/// [x, y, z].
inline Json vec(const glm::vec3& v) {
    return Json::array({number(v.x), number(v.y), number(v.z)});
}
inline Json vec(const glm::dvec3& v) {
    return Json::array({number(v.x), number(v.y), number(v.z)});
}

/// An index, or null for a negative one ("none").
inline Json indexOrNull(int i) {
    return i >= 0 ? Json(i) : Json(nullptr);
}

/// {"hit": true, "t", "point", "normal"} or {"hit": false}.
inline Json rayHit(const std::optional<RayHit>& hit) {
    if (!hit) return Json{{"hit", false}};
    return Json{
        {"hit", true}, {"t", number(hit->t)}, {"point", vec(hit->point)}, {"normal", vec(hit->normal)}};
}

/// {"normal", "depth", "points": [{"position", "depth"}, ...]}, or null for no contact.
inline Json manifold(const std::optional<Manifold>& m) {
    if (!m) return nullptr;
    Json points = Json::array();
    for (int i = 0; i < m->count; ++i) {
        const ContactPoint& p = m->points[static_cast<std::size_t>(i)];
        points.push_back(Json{{"position", vec(p.position)}, {"depth", number(p.depth)}});
    }
    return Json{{"normal", vec(m->normal)}, {"depth", number(m->depth)}, {"points", std::move(points)}};
}

/// A sphere against a shape's point `closest` to its centre: {"overlap" (the contact exists),
/// "closest_point", "distance" (from it to the sphere's surface; -radius for a centre inside),
/// "contact"}.
inline Json sphereGap(const Sphere& s, const glm::vec3& closest, const std::optional<Manifold>& contact) {
    return Json{{"overlap", contact.has_value()},
                {"closest_point", vec(closest)},
                {"distance", number(glm::length(s.center - closest) - s.radius)},
                {"contact", manifold(contact)}};
}

/// The name of an enum value from its table, which lists the names in the enum's order.
template <class Enum, std::size_t N>
const char* nameOf(Enum value, const std::array<const char*, N>& names) {
    const auto i = static_cast<std::size_t>(value);
    return i < N ? names[i] : "?";
}

/// Copies the trace object's keys into `out`, but for `skipped` (a key the output already has), so
/// a trace's keys (trace_json.hpp) sit at the top level beside "query" and "result".
inline void addKeys(const Json& trace, Json& out, std::string_view skipped = {}) {
    for (const auto& item : trace.items()) {
        if (item.key() != skipped) out[item.key()] = item.value();
    }
}

} // namespace kz::explain_json
