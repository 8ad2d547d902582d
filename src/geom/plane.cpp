#include "plane.hpp"

#include <cfloat>

namespace kz {

std::optional<Plane> planeFromPointNormal(const glm::vec3& point, const glm::vec3& normal) {
    const float lengthSq = glm::dot(normal, normal);
    if (!isFinite(point) || !isFinite(normal) || lengthSq < FLT_MIN || !std::isfinite(lengthSq))
        return std::nullopt;
    const glm::vec3 n = normal / std::sqrt(lengthSq);
    const Plane plane{n, -glm::dot(n, point)};
    if (!std::isfinite(plane.d)) return std::nullopt;
    return plane;
}

std::optional<Plane> planeFromPoints(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
    if (!isFinite(a) || !isFinite(b) || !isFinite(c)) return std::nullopt;
    return planeFromPointNormal(a, glm::cross(b - a, c - a));
}

std::optional<SphereClassification> classifySphere(const Sphere& sphere, const Plane& plane) {
    if (!isValid(sphere) || !isValid(plane)) return std::nullopt;
    const float distance = signedDistance(plane, sphere.center) / glm::length(plane.normal);
    if (!std::isfinite(distance)) return std::nullopt;
    if (distance > sphere.radius) return SphereClassification{PlaneSide::Front, distance};
    if (distance < -sphere.radius) return SphereClassification{PlaneSide::Back, distance};
    return SphereClassification{PlaneSide::Intersecting, distance};
}

} // namespace kz
