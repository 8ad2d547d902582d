// Planes: construction, signed distance and sphere classification.
#pragma once

#include "types.hpp"

#include <optional>

namespace kz {

/// Signed distance from p to the plane: positive in front (the side the normal points to).
/// Exact for a unit normal; for a non-unit normal it is scaled by |normal|.
inline float signedDistance(const Plane& plane, const glm::vec3& p) {
    return glm::dot(plane.normal, p) + plane.d;
}

/// The plane through `point` with the given normal (normalised here).
/// Empty when the normal is zero or anything is non-finite.
std::optional<Plane> planeFromPointNormal(const glm::vec3& point, const glm::vec3& normal);

/// The plane through a, b, c with normal along (b - a) x (c - a): counter-clockwise points
/// seen from the front. Empty when the points are collinear, coincident or non-finite.
std::optional<Plane> planeFromPoints(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c);

enum class PlaneSide { Front, Back, Intersecting };

/// A sphere's place relative to a plane.
struct SphereClassification {
    PlaneSide side; ///< Intersecting when |distance| <= radius (touching counts), else the centre's side.
    float distance; ///< Signed distance from the centre to the plane.
};

/// Classifies a sphere as in front of, behind or intersecting the plane (Ericson 5.2.2);
/// the distance is measured with the plane's normal normalised.
/// Empty for a degenerate sphere or plane (see isValid).
std::optional<SphereClassification> classifySphere(const Sphere& sphere, const Plane& plane);

/// Reflects a direction about a unit normal: d - 2 (d . n) n. Keeps |d| when n is unit.
inline glm::vec3 reflect(const glm::vec3& d, const glm::vec3& n) {
    return d - 2.0f * glm::dot(d, n) * n;
}

} // namespace kz
