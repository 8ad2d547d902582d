// Internal helpers shared by the geometry queries (not part of the public contract).
#pragma once

#include "types.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

namespace kz::detail {

/// tMax is usable when it is >= 0 (+infinity allowed); a NaN fails the comparison.
inline bool validTMax(float tMax) {
    return tMax >= 0.0f;
}

/// The hit for a ray that starts inside (or on) a solid.
inline RayHit insideHit(const Ray& ray) {
    return {0.0f, ray.origin, -glm::normalize(ray.dir)};
}

/// The last guard of every query: a result with any non-finite field is no hit.
/// Also turns -0 into +0 (x + 0 == +0 for x == -0), so printed results read cleanly.
inline std::optional<RayHit> finiteOrNone(const RayHit& hit) {
    if (!std::isfinite(hit.t) || !isFinite(hit.point) || !isFinite(hit.normal)) return std::nullopt;
    return RayHit{hit.t + 0.0f, hit.point + glm::vec3(0.0f), hit.normal + glm::vec3(0.0f)};
}

/// The largest |component| of v.
inline float maxAbs(const glm::vec3& v) {
    return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)});
}

/// pointInConvexPolygon with the polygon's unit normal already known.
bool insideConvexPolygon(const glm::vec3& p, std::span<const glm::vec3> convexPolygon,
                         const glm::vec3& normal);

} // namespace kz::detail
