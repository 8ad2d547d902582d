#include "detail.hpp"
#include "raycast.hpp"

namespace kz {
namespace {

/// The slab test on a box [lo, hi] in the ray's own frame; the origin is known to be outside.
/// Returns the entry t and the entered face's outward axis normal.
std::optional<RayHit> slabs(const glm::vec3& origin, const glm::vec3& dir, const glm::vec3& lo,
                            const glm::vec3& hi, float tMax) {
    float tEnter = 0.0f;
    float tExit = tMax;
    int enteredAxis = -1;
    for (int i = 0; i < 3; ++i) {
        if (dir[i] == 0.0f) {
            // Parallel to this slab: it must already be between the two faces.
            if (origin[i] < lo[i] || origin[i] > hi[i]) return std::nullopt;
            continue;
        }
        // Division rather than a reciprocal: 0 / tiny stays 0, where 0 * inf would be NaN.
        float tNear = (lo[i] - origin[i]) / dir[i];
        float tFar = (hi[i] - origin[i]) / dir[i];
        if (tNear > tFar) std::swap(tNear, tFar);
        if (tNear > tEnter) {
            tEnter = tNear;
            enteredAxis = i;
        }
        tExit = std::min(tExit, tFar);
        if (tEnter > tExit) return std::nullopt;
    }
    RayHit hit{tEnter, origin + tEnter * dir, glm::vec3(0.0f)};
    if (enteredAxis < 0) {
        // The origin is outside by less than the ray can resolve: treat it as a start on the surface.
        hit.normal = -glm::normalize(dir);
        return hit;
    }
    const bool entersFromBelow = dir[enteredAxis] > 0.0f;
    hit.normal[enteredAxis] = entersFromBelow ? -1.0f : 1.0f;
    hit.point[enteredAxis] = entersFromBelow ? lo[enteredAxis] : hi[enteredAxis]; // exactly on the face
    return hit;
}

bool contains(const glm::vec3& p, const glm::vec3& lo, const glm::vec3& hi) {
    return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z;
}

} // namespace

std::optional<RayHit> raycast(const Ray& ray, const Aabb& box, float tMax) {
    if (!isValid(ray) || !isValid(box) || !detail::validTMax(tMax)) return std::nullopt;
    if (contains(ray.origin, box.min, box.max)) return detail::insideHit(ray);
    const auto hit = slabs(ray.origin, ray.dir, box.min, box.max, tMax);
    if (!hit) return std::nullopt;
    return detail::finiteOrNone(*hit);
}

std::optional<RayHit> raycast(const Ray& ray, const Obb& box, float tMax) {
    if (!isValid(ray) || !isValid(box) || !detail::validTMax(tMax)) return std::nullopt;

    // Into the box frame: o' = A^T (o - c), d' = A^T d. A rigid change of frame keeps t.
    const glm::mat3 toLocal = glm::transpose(box.axes);
    const glm::vec3 localOrigin = toLocal * (ray.origin - box.center);
    const glm::vec3 localDir = toLocal * ray.dir;
    if (contains(localOrigin, -box.half, box.half)) return detail::insideHit(ray);

    const auto local = slabs(localOrigin, localDir, -box.half, box.half, tMax);
    if (!local) return std::nullopt;
    if (local->t == 0.0f) return detail::insideHit(ray);
    const glm::vec3 normal = glm::normalize(box.axes * local->normal);
    return detail::finiteOrNone({local->t, ray.origin + local->t * ray.dir, normal});
}

} // namespace kz
