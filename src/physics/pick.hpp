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
/// surfaces, hit where the ray crosses a triangle. Nearest wins (not first in container order);
/// on equal t a body wins over an obstacle, then the lower index. Empty for an invalid ray or a
/// tMax that is negative or NaN.
///
/// How: the candidates are the bodies whose bounding sphere (boundingRadius) and the obstacles
/// whose world box the ray meets within tMax, taken by entry t (then bodies first, then by
/// index); each gets its exact test until the next one's bound starts beyond the best hit (the
/// Ogre scene query done right). The bodies come from the world's bounding volume hierarchy
/// (World::bodyBvh, body_bvh.hpp), walked front to back: a heap of nodes keyed by where the ray
/// enters their box, in double precision on a box padded by 1e-5 of the coordinates' size, which
/// the float rounding of a bounding sphere's entry t stays well within, so a node's key never
/// exceeds the entry t of a body below it. The candidates thus come in exactly the order a scan
/// of every bound sorts them in, and every answer is pickNearestByScan's, bit for bit; only the
/// nodes and bounds near the ray are tested, not all n (docs/benchmarks.md: BM_Pick). Reads
/// the world only: several threads may pick in one world at once (each has its own scratch).
std::optional<PickHit> pickNearest(const World& world, const Ray& ray, float tMax = INFINITY);

/// Every body and obstacle the ray meets within tMax (each once, at its nearest hit), nearest
/// first; on equal t in pickNearest's candidate order (the bound entered first, then bodies
/// first, then by index). Walks the same hierarchy; the same list as pickAllByScan.
std::vector<PickHit> pickAll(const World& world, const Ray& ray, float tMax = INFINITY);

/// The reference pickNearest: every body's bounding sphere and every obstacle's box tested, the
/// hits sorted, then the same exact tests with the same early exit. O(n) per ray; what
/// pickNearest did before the hierarchy, kept for the tests (same answers, bit for bit) and the
/// benchmark.
std::optional<PickHit> pickNearestByScan(const World& world, const Ray& ray, float tMax = INFINITY);

/// The reference pickAll: pickAll's list from a scan of every bound.
std::vector<PickHit> pickAllByScan(const World& world, const Ray& ray, float tMax = INFINITY);

} // namespace kz
