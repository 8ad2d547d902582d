// Ray queries: where a ray R(t) = origin + t * dir, 0 <= t <= tMax, first meets a shape.
//
// Shared meaning of every raycast in Kolize:
// - The hit is the smallest t with 0 <= t <= tMax, in units of dir (dir is not normalised).
//   Nothing behind the origin is ever hit.
// - Solids (sphere, AABB, OBB): an origin inside or on the surface hits at t = 0 with
//   normal = -normalize(dir).
// - Surfaces (plane, triangle, polygon) are two-sided: the normal faces the ray origin,
//   dot(normal, dir) <= 0. A ray parallel to the surface misses, even one lying in it.
// - A zero-length dir, any NaN or infinite input (tMax may be +infinity), a negative tMax or a
//   degenerate shape returns no hit. No query returns a NaN: a result that would not be
//   finite is reported as no hit.
// - Touching counts: a ray that grazes a sphere, a box edge or a triangle edge hits.
// No query allocates, throws or does I/O.
#pragma once

#include "types.hpp"

#include <cmath>
#include <optional>
#include <span>

namespace kz {

/// Solve |o + t d - c|^2 = r^2 for the smaller t >= 0.
/// Uses the perpendicular-distance discriminant and the stable root form (Haines et al.,
/// "Precision Improvements for Ray/Sphere Intersection", Ray Tracing Gems ch. 7) so hits stay
/// exact for small spheres far away and for origins near the surface. Radius 0 is a point.
std::optional<RayHit> raycast(const Ray& ray, const Sphere& sphere, float tMax = INFINITY);

/// Solve dot(n, o + t d) + d0 = 0: t = -(dot(n, o) + d0) / dot(n, d).
/// Parallel means |cos(angle between n and dir)| <= kParallelCosine: such a ray misses.
std::optional<RayHit> raycast(const Ray& ray, const Plane& plane, float tMax = INFINITY);

/// Slab test (Kay-Kajiya; Ericson 5.3.3): the entry t is the largest of the per-axis entries.
/// The normal is the entered face's axis. A flat box (min == max on an axis) can be hit.
std::optional<RayHit> raycast(const Ray& ray, const Aabb& box, float tMax = INFINITY);

/// The ray moved into the box's frame (o' = A^T (o - c), d' = A^T d), then the slab test
/// against [-half, half]; t is unchanged by the rigid change of frame.
std::optional<RayHit> raycast(const Ray& ray, const Obb& box, float tMax = INFINITY);

/// Watertight ray-triangle test (Woop, Benthin, Wald, "Watertight Ray/Triangle Intersection",
/// JCGT 2013): a ray through an edge or vertex shared by two triangles hits at least one of
/// them. Edges and vertices count as inside. A zero-area triangle never hits.
std::optional<RayHit> raycast(const Ray& ray, const Triangle& tri, float tMax = INFINITY);

/// A ray against a convex planar polygon (vertices in order, either winding, >= 3 of them):
/// the polygon's plane by Newell's method, then the point-in-polygon test, edges inclusive.
/// Fewer than 3 vertices, a zero area or a non-finite vertex never hits.
std::optional<RayHit> raycastPolygon(const Ray& ray, std::span<const glm::vec3> convexPlanarPolygon,
                                     float tMax = INFINITY);

/// Barycentric form of a ray-triangle hit (weights of b and c; a's weight is 1 - u - v).
struct TriangleHit {
    float t;          ///< Ray parameter in units of dir, 0 <= t <= tMax.
    float u;          ///< Weight of vertex b, in [0, 1].
    float v;          ///< Weight of vertex c, in [0, 1]; u + v <= 1 (up to rounding).
    glm::vec3 normal; ///< Unit face normal facing the ray origin.
};

/// The same watertight test as raycast(Ray, Triangle), also returning barycentrics.
std::optional<TriangleHit> raycastBarycentric(const Ray& ray, const Triangle& tri, float tMax = INFINITY);

/// Below this |cos| between a plane's normal and a ray, the ray counts as parallel to it.
inline constexpr float kParallelCosine = 1e-6f;

} // namespace kz
