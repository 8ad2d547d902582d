// The sphere cast: which body, wall or mesh obstacle a sphere moving along a ray touches first
// (Jolt's shape cast, for the window's mouse probe). Picking's twin (pick.hpp) with a radius.
#pragma once

#include "geom/types.hpp"
#include "world.hpp"

#include <cstdint>
#include <optional>

namespace kz {

/// Where a cast sphere first touches something. Exactly one of body, wall and obstacle is >= 0.
struct SphereCastHit {
    float t;           ///< The centre is at origin + t dir when it first touches: 0 <= t <= tMax, in units
                       ///< of dir; 0 when it touches at the start already.
    glm::vec3 center;  ///< origin + t dir.
    glm::vec3 point;   ///< Where it touches: the point of the touched thing nearest the centre.
    glm::vec3 normal;  ///< Unit, from the touched thing toward the centre; -normalize(dir) when the centre
                       ///< starts inside a body (no direction out is defined).
    int body = -1;     ///< Index into World::bodies(), or -1.
    int wall = -1;     ///< Index into the room's planes, or -1.
    int obstacle = -1; ///< Index into World::obstacles(), or -1.
    std::uint32_t triangle = 0; ///< Obstacles only: the mesh triangle touched.
};

/// The first t in [0, tMax] at which the sphere of `radius` centred at ray.origin + t ray.dir
/// touches a body (solid: sweepSphereSphere, sweepSphereObb in its current pose, each within
/// tMax; the bodies near the path found with picking's hierarchy, World::bodyBvh; a body picking
/// skips, with a position or size that is not finite or a negative radius, is never touched), a
/// wall or a mesh obstacle's triangle (sweepSphereTriangle on the triangles its BVH finds near
/// the path, placed with the obstacle's rotation and scale). 0 when it touches at the start. Walls are seen
/// from inside the room, as they are drawn: a wall whose plane the ray origin lies behind is
/// skipped, and a wall counts only where the sphere touches its polygon (from an origin inside
/// the room every first touch does). On equal t a body wins over a wall, a wall over an obstacle,
/// then the lower index. Empty for an invalid ray, a negative or non-finite radius or a negative
/// tMax, and when nothing is touched by tMax. Radius 0 casts a point: pickNearest's t for bodies
/// and obstacles, to rounding.
std::optional<SphereCastHit> sphereCast(const World& world, const Ray& ray, float radius,
                                        float tMax = INFINITY);

/// The reference sphereCast: every body swept, in index order, instead of those the hierarchy
/// finds near the path; kept for the tests (the same answers, bit for bit) and the benchmark
/// (BM_SphereCast).
std::optional<SphereCastHit> sphereCastByScan(const World& world, const Ray& ray, float radius,
                                              float tMax = INFINITY);

} // namespace kz
