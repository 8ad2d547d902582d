#include "detail.hpp"
#include "plane.hpp"
#include "raycast.hpp"

namespace kz {

std::optional<RayHit> raycast(const Ray& ray, const Plane& plane, float tMax) {
    if (!isValid(ray) || !isValid(plane) || !detail::validTMax(tMax)) return std::nullopt;

    // dot(n, o + t d) + d0 = 0  =>  t = -(dot(n, o) + d0) / dot(n, d)
    const float nLength = glm::length(plane.normal);
    const float dLength = glm::length(ray.dir);
    const float denom = glm::dot(plane.normal, ray.dir);
    if (std::abs(denom) <= kParallelCosine * nLength * dLength) return std::nullopt; // parallel

    const float distance = signedDistance(plane, ray.origin);
    const float t = -distance / denom + 0.0f; // + 0 turns -0 into +0
    if (!(t >= 0.0f) || t > tMax) return std::nullopt;

    const glm::vec3 unitNormal = plane.normal / nLength;
    const glm::vec3 normal = denom > 0.0f ? -unitNormal : unitNormal; // face the ray origin
    return detail::finiteOrNone({t, ray.origin + t * ray.dir, normal});
}

} // namespace kz
