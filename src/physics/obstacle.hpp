// Static triangle-mesh obstacles: a shared mesh (vertices, indices and its BVH, in the mesh's own
// frame) placed in the room with a position, a rotation and a non-uniform scale.
//
// Bodies collide with an obstacle's triangles exactly (spheres and boxes, faces, edges and
// corners); the obstacle never moves and has infinite mass, like a wall. Queries run in the
// mesh's frame: a world ray o + t d maps to the local ray M^-1 (o - p) + t M^-1 d with
// M = R S, so t is the same number in both frames, and a world box maps to the local box that
// holds its image.
#pragma once

#include "geom/mesh_bvh.hpp"
#include "geom/types.hpp"

#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kz {

/// A triangle mesh in its own frame, with its BVH. Immutable once made; shared by every
/// obstacle that places it.
struct MeshShape {
    std::string source;                 ///< Where it came from (a file name), for messages and the UI.
    std::vector<glm::vec3> vertices;    ///< Local frame.
    std::vector<std::uint32_t> indices; ///< 3 a triangle.
    MeshBvh bvh;                        ///< Over vertices and indices.

    /// Builds the BVH. Empty with `error` set (one line, prefixed by `source`) when the
    /// indices are malformed or the mesh has no non-degenerate triangle.
    static std::shared_ptr<const MeshShape> make(std::string source, std::vector<glm::vec3> vertices,
                                                 std::vector<std::uint32_t> indices, std::string& error);

    std::size_t triangleCount() const { return indices.size() / 3; }
    /// Triangle i in the local frame (i < triangleCount()).
    Triangle triangle(std::uint32_t i) const {
        return {vertices[indices[3 * i]], vertices[indices[3 * i + 1]], vertices[indices[3 * i + 2]]};
    }
};

/// What a scenario says about an obstacle; World::addObstacle turns it into an Obstacle.
struct ObstacleDesc {
    std::string name;                              ///< Shown in the UI; need not be unique.
    std::shared_ptr<const MeshShape> mesh;         ///< Required.
    glm::vec3 position{0.0f};                      ///< Where the mesh's origin goes.
    glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f}; ///< Unit quaternion (w, x, y, z); normalised on add.
    glm::vec3 scale{1.0f};                         ///< Per local axis, each > 0; applied before the rotation.
    std::uint32_t color = 0xb0a890;                ///< 0xRRGGBB.
};

/// A placed mesh. The transform is local -> world: x_world = position + R (scale * x_local).
struct Obstacle {
    std::string name;
    std::shared_ptr<const MeshShape> mesh;
    glm::vec3 position;
    glm::quat orientation;
    glm::vec3 scale;
    std::uint32_t color;
    glm::mat3 linear;        ///< R S.
    glm::mat3 inverseLinear; ///< S^-1 R^T.
    glm::mat3 normalMatrix;  ///< R S^-1 (the inverse transpose of linear): turns local normals.
    Aabb bounds;             ///< World bounds of the placed mesh.

    glm::vec3 toWorld(const glm::vec3& local) const { return position + linear * local; }
    glm::vec3 toLocal(const glm::vec3& world) const { return inverseLinear * (world - position); }
    /// Triangle i of the mesh, placed in the world.
    Triangle worldTriangle(std::uint32_t i) const {
        const Triangle t = mesh->triangle(i);
        return {toWorld(t.a), toWorld(t.b), toWorld(t.c)};
    }
    /// The local-frame box that holds the image of the world box `box`.
    Aabb localBox(const Aabb& box) const;
    /// A world-frame unit normal from a local-frame normal.
    glm::vec3 worldNormal(const glm::vec3& localNormal) const {
        return glm::normalize(normalMatrix * localNormal);
    }
};

/// Builds an Obstacle from its description: normalises the orientation and computes the
/// transforms and world bounds. Empty with `error` set when the description is invalid (no mesh,
/// a non-finite number, a zero quaternion or a scale that is not > 0).
std::optional<Obstacle> makeObstacle(const ObstacleDesc& desc, std::string& error);

/// Where a ray meets an obstacle: the mesh hit with t in units of the world ray's dir (the same
/// number as in the local frame), the world point and a world unit normal facing the ray origin.
struct ObstacleHit {
    float t;                ///< 0 <= t <= tMax.
    glm::vec3 point;        ///< origin + t dir, world frame.
    glm::vec3 normal;       ///< Unit, world frame, facing the ray origin.
    std::uint32_t triangle; ///< Index of the triangle in the mesh.
    float u;                ///< Barycentric weight of the triangle's second vertex.
    float v;                ///< Barycentric weight of its third vertex.
};

/// The nearest triangle of the placed mesh along the world ray (the ray moved into the mesh's
/// frame, so rotation and non-uniform scale are exact). Empty for an invalid ray or tMax.
std::optional<ObstacleHit> raycast(const Ray& ray, const Obstacle& obstacle, float tMax = INFINITY);

} // namespace kz
