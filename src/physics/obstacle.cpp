#include "obstacle.hpp"

#include <cmath>

namespace kz {

std::shared_ptr<const MeshShape> MeshShape::make(std::string source, std::vector<glm::vec3> vertices,
                                                 std::vector<std::uint32_t> indices, std::string& error) {
    auto bvh = MeshBvh::tryBuild(vertices, indices, error);
    if (!bvh) {
        error = source + ": " + error;
        return nullptr;
    }
    if (bvh->triangleCount() == 0) {
        error = source + ": no triangle with a non-zero area";
        return nullptr;
    }
    error.clear();
    auto shape = std::make_shared<MeshShape>(
        MeshShape{std::move(source), std::move(vertices), std::move(indices), std::move(*bvh)});
    return shape;
}

Aabb Obstacle::localBox(const Aabb& box) const {
    // The image of a box under an affine map: centre mapped, half extents through |M^-1|
    // (Arvo, "Transforming Axis-Aligned Bounding Boxes", Graphics Gems 1990).
    const glm::vec3 centre = toLocal(0.5f * (box.min + box.max));
    const glm::vec3 half = 0.5f * (box.max - box.min);
    glm::vec3 reach(0.0f);
    for (int col = 0; col < 3; ++col) {
        for (int row = 0; row < 3; ++row)
            reach[row] += std::abs(inverseLinear[col][row]) * half[col];
    }
    return {centre - reach, centre + reach};
}

std::optional<Obstacle> makeObstacle(const ObstacleDesc& desc, std::string& error) {
    const auto finite = [](const glm::vec3& v) {
        return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    };
    if (!desc.mesh) {
        error = "an obstacle needs a mesh";
        return std::nullopt;
    }
    if (!finite(desc.position)) {
        error = "the position is not finite";
        return std::nullopt;
    }
    if (!(desc.scale.x > 0.0f && desc.scale.y > 0.0f && desc.scale.z > 0.0f) || !finite(desc.scale)) {
        error = "each scale component must be a finite number > 0";
        return std::nullopt;
    }
    const glm::quat q = desc.orientation;
    const float norm = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(norm > 1e-6f) || !std::isfinite(norm)) {
        error = "the orientation is not a non-zero finite quaternion";
        return std::nullopt;
    }
    Obstacle o;
    o.name = desc.name;
    o.mesh = desc.mesh;
    o.position = desc.position;
    o.orientation = q / norm;
    o.scale = desc.scale;
    o.color = desc.color;
    const glm::mat3 rotation = glm::mat3_cast(o.orientation);
    for (int axis = 0; axis < 3; ++axis) {
        o.linear[axis] = rotation[axis] * desc.scale[axis];
        o.normalMatrix[axis] = rotation[axis] / desc.scale[axis];
    }
    o.inverseLinear = glm::transpose(o.normalMatrix); // (R S)^-1 = S^-1 R^T = (R S^-1)^T
    o.bounds = {glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    for (const glm::vec3& v : desc.mesh->vertices) {
        const glm::vec3 w = o.toWorld(v);
        o.bounds.min = glm::min(o.bounds.min, w);
        o.bounds.max = glm::max(o.bounds.max, w);
    }
    if (!finite(o.bounds.min) || !finite(o.bounds.max)) {
        error = "the placed mesh does not fit in float range";
        return std::nullopt;
    }
    error.clear();
    return o;
}

std::optional<ObstacleHit> raycast(const Ray& ray, const Obstacle& obstacle, float tMax) {
    if (!isValid(ray) || !(tMax >= 0.0f)) return std::nullopt;
    const Ray local{obstacle.toLocal(ray.origin), obstacle.inverseLinear * ray.dir};
    const auto hit = obstacle.mesh->bvh.raycast(local, tMax);
    if (!hit) return std::nullopt;
    const glm::vec3 point = ray.origin + hit->t * ray.dir;
    if (!std::isfinite(point.x) || !std::isfinite(point.y) || !std::isfinite(point.z)) return std::nullopt;
    return ObstacleHit{hit->t, point, obstacle.worldNormal(hit->normal), hit->triangle, hit->u, hit->v};
}

} // namespace kz
