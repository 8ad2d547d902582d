// Picking: which body or static obstacle a ray meets first (pickNearest), or every one it meets
// (pickAll).
#pragma once

#include "geom/raycast.hpp"
#include "world.hpp"

#include <optional>
#include <vector>

namespace kz {

/// A body or an obstacle hit by a picking ray, tagged by which index is set: exactly one of body
/// and obstacle is >= 0.
struct PickHit {
    int body;          ///< Index into World::bodies(), or -1 when an obstacle was hit.
    RayHit hit;        ///< Where: t in units of the ray's dir, world point, unit normal (see raycast).
    int obstacle = -1; ///< Index into World::obstacles(), or -1 when a body was hit.
    std::uint32_t triangle = 0; ///< Obstacles only: the mesh triangle hit.
    float u = 0.0f;             ///< Obstacles only: barycentric weight of the triangle's second vertex.
    float v = 0.0f;             ///< Obstacles only: barycentric weight of its third vertex.

    bool isBody() const { return body >= 0; }
    bool isObstacle() const { return obstacle >= 0; }
};

/// The nearest body or obstacle along the ray (0 <= t <= tMax), tested in its current pose:
/// spheres exactly, boxes as oriented boxes (the ray moved into the box's frame), obstacles to
/// the triangle (the ray moved into the mesh's frame, rotation and non-uniform scale included; t
/// is the same number in both frames). A ray starting inside a body hits it at t = 0; meshes are
/// surfaces, hit where the ray crosses a triangle. Candidates are first culled and ordered by
/// their bounds (bounding spheres for bodies, world boxes for obstacles) by entry distance, and
/// the exact tests stop once the next candidate's bound starts beyond the best hit (the Ogre
/// scene query done right: nearest wins, not first in container order). On equal t a body wins
/// over an obstacle, then the lower index. Empty for an invalid ray.
std::optional<PickHit> pickNearest(const World& world, const Ray& ray, float tMax = INFINITY);

/// Every body and obstacle the ray meets (each once, at its nearest hit), nearest first.
std::vector<PickHit> pickAll(const World& world, const Ray& ray, float tMax = INFINITY);

} // namespace kz
