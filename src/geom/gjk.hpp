// GJK (Gilbert, Johnson, Keerthi 1988) on any two convex shapes of convex.hpp: the distance and
// closest points, the boolean overlap test, and the ray cast (van den Bergen 2004).
//
// How it runs (gjk_steps.hpp): GJK walks a simplex inside the Minkowski difference of the two
// shapes' cores (convex_detail.hpp: a sphere's centre, a capsule's segment, the other shapes
// whole) toward the origin. Each iteration takes the support point w of the difference against
// the current nearest point v, which gives a lower bound dot(v, w) / |v| on the distance beside
// the upper bound |v|; the nearest point of the simplex plus w to the origin comes from the signed
// volumes subalgorithm (Montanari, Petrinic and Barbieri 2017, gjk_simplex.hpp), in double. The
// radii are added at the end (as Jolt and Bullet do), so spheres and capsules are exact.
// It stops when the current v's bounds meet within kGjkTolerance (relative to the distance, or
// to the shapes' size for touching pairs; the current v's, so that v is itself a separating
// direction, not only the best bound of all iterations), when the origin is inside the simplex,
// when a support point repeats or the simplex stops coming closer (the numerical floor), or at
// kGjkMaxIterations: each returns the best answer so far with its reason (GjkStatus). No NaN, no
// endless loop, for any valid input. No function allocates, throws or does I/O.
#pragma once

#include "convex.hpp"

#include <cmath>
#include <optional>

namespace kz {

/// GJK's iteration cap (support points taken). Polytope pairs converge exactly in a few (boxes:
/// about 5, at most 11 in the tests); a cylinder's round rims are approached in about 13 (at most
/// about 50 in 100,000 random pairs).
inline constexpr int kGjkMaxIterations = 64;
/// The gap between GJK's upper and lower bound on the distance at which it stops: this times the
/// distance, or times the larger shape's size when that is larger (touching pairs).
inline constexpr double kGjkTolerance = 1e-9;
/// Shapes nearer than this times the larger shape's size count as touching (overlap, distance 0):
/// below float's resolution of the shapes' own coordinates, where the direction between two
/// nearly coincident points means nothing.
inline constexpr double kGjkTouchingTolerance = 1e-7;

/// Why GJK stopped.
enum class GjkStatus {
    Converged,       ///< Upper and lower bounds within kGjkTolerance: the shapes are apart.
    Overlapping,     ///< The cores' difference holds the origin (a full simplex around it, or the
                     ///< nearest point within the tolerance of it): the cores touch or overlap.
    WithinRadii,     ///< Overlap test only: the cores are nearer than the sum of the radii.
    SeparatingAxis,  ///< Overlap test only: a support plane separates the shapes (early exit).
    RepeatedSupport, ///< The new support point was already in the simplex: no closer point exists
                     ///< at this precision (polytopes end here when exactly converged).
    NoProgress,      ///< The new simplex was not nearer the origin (rounding): the previous one is kept.
    IterationCap,    ///< kGjkMaxIterations support points taken: the best answer so far.
    InvalidInput,    ///< A shape failed isValid: no answer (distance = +infinity, points zero).
};

/// GJK's answer for shapes A and B.
struct GjkResult {
    bool overlap;     ///< The shapes share a point (touching, within kGjkTouchingTolerance, counts).
    float distance;   ///< >= 0; 0 when they overlap; +infinity for invalid input.
    glm::vec3 pointA; ///< The point of A nearest B; when they overlap, a point both contain.
    glm::vec3 pointB; ///< The point of B nearest A; when they overlap, the same point as pointA.
    /// Unit, from B toward A along the closest points (pointA - pointB over the distance) when the
    /// cores are apart, which includes round shapes overlapping by less than their radii; zero when
    /// the cores overlap (EPA, epa.hpp, finds a direction then).
    glm::vec3 normal;
    float lowerBound; ///< GJK's certified lower bound on the distance (<= distance, >= 0).
    int iterations;   ///< Support points taken, 0 to kGjkMaxIterations.
    GjkStatus status; ///< Why it stopped.
};

/// The distance and closest points of two convex shapes (GJK with signed volumes, see above).
/// Exact for spheres and capsules (radii added to the cores' answer); within kGjkTolerance of the
/// shapes' size otherwise, in any pose, far from the origin included (double inside).
/// `maxIterations` (1 to kGjkMaxIterations, clamped) lowers the cap, for stepping and for tests.
GjkResult closestPtConvexConvex(const ConvexShape& a, const ConvexShape& b,
                                int maxIterations = kGjkMaxIterations);

/// Whether the shapes share a point (touching, within kGjkTouchingTolerance, counts), the same
/// answer as closestPtConvexConvex's overlap. Shapes without radii (boxes, cylinders, hulls,
/// spheres and capsules of radius 0) run the boolean GJK (gjk_boolean_steps.hpp: no nearest
/// point, as libccd's ccdGJKIntersect), which leaves on a support plane separating them (false) or
/// a simplex around the origin (true); touching pairs it cannot tell apart go to the iteration of
/// closestPtConvexConvex. With radii, that iteration runs from the start, leaving as soon as a
/// support plane separates the shapes by more than the radii (false) or the cores come within
/// the radii (true). Invalid input never overlaps.
bool testConvexConvex(const ConvexShape& a, const ConvexShape& b);

/// Why the ray cast stopped.
enum class RayCastStatus {
    Hit,          ///< The ray point came within the tolerance of the shape: hit at t.
    StartsInside, ///< The origin is inside the shape (or on its surface): hit at t = 0.
    Miss,         ///< A support plane separates the rest of the ray (or t passed tMax).
    IterationCap, ///< kGjkMaxIterations reached: t is the best lower bound, reported as a hit.
    InvalidInput, ///< Invalid ray, shape or tMax: no hit.
};

/// The ray cast's answer with its reason (raycast below keeps only the hit).
struct ConvexRayCast {
    std::optional<RayHit> hit; ///< As every raycast in raycast.hpp.
    int iterations;            ///< Support points taken.
    RayCastStatus status;
};

/// GJK ray cast (van den Bergen, "Ray casting against general convex objects with application to
/// continuous collision detection", 2004; Jolt's GJKClosestPoint::CastRay): the point
/// x = origin + t dir advances t to the support plane of the shape's core (grown by its radius)
/// facing it, which never passes the surface, while GJK finds the core's point nearest x; it ends
/// when x is within the radius (plus kGjkTolerance of the size: a grazing ray's t errs by that over
/// the sine of its angle with the surface) of the core. The normal is x minus that nearest point for round
/// shapes, else the last support plane's normal that stopped x (a supporting plane at the hit).
/// Conventions of raycast.hpp: t in units of dir, inside start at t = 0 with normal
/// -normalize(dir), touching counts, invalid input or tMax < 0 misses.
ConvexRayCast raycastConvex(const Ray& ray, const ConvexShape& shape, float tMax = INFINITY);

/// raycastConvex's hit alone, as the other ray queries.
std::optional<RayHit> raycast(const Ray& ray, const ConvexShape& shape, float tMax = INFINITY);

} // namespace kz
