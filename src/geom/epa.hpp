// EPA, the expanding polytope algorithm (van den Bergen, "Proximity queries and penetration depth
// computation on 3D game objects", GDC 2001; as Jolt's EPAPenetrationDepth): the penetration depth,
// normal and witness points of two overlapping convex shapes of convex.hpp.
//
// How it runs (epa.cpp): GJK (gjk.hpp) first, on the shapes' cores. When the cores are apart and
// only the radii overlap (a sphere or capsule touching anything shallowly), the depth is exact:
// the radii minus the cores' distance, along the line between the cores' closest points. When the
// cores overlap, EPA starts from GJK's final simplex (blown up to a polytope around the origin when
// it has fewer than 4 points), and repeats: take the polytope's face nearest the origin, the
// support point of the cores' difference along its normal, and replace the faces that point sees
// by a fan to it; the nearest face's distance is a lower bound on the cores' depth and the
// support point's height an upper one. The radii are added to the cores' depth (the support
// function of a rounded shape is its core's plus the radius in every direction, so the direction
// of least depth is the same), which keeps spheres and capsules exact there too.
// It stops when the support point along the nearest face's normal is within kEpaTolerance of the
// shapes' size of that face (so the face's normal, not only the depth, is right), on a degenerate
// step, or at a cap on iterations, vertices or faces: each returns the best face so far with its
// reason (EpaStatus). No NaN, no endless loop; no allocation (fixed-size polytope).
#pragma once

#include "convex.hpp"

namespace kz {

/// EPA's caps: support points taken, polytope vertices, polytope faces (a convex polytope of V
/// vertices has at most 2V - 4 triangles, so the vertex cap binds first).
inline constexpr int kEpaMaxIterations = 100;
inline constexpr int kEpaMaxVertices = 128;
inline constexpr int kEpaMaxFaces = 256;
/// EPA stops when its upper and lower bounds on the depth are this close, times the larger
/// shape's size.
inline constexpr double kEpaTolerance = 1e-7;

/// Why EPA (or the GJK before it) stopped.
enum class EpaStatus {
    Separated,    ///< GJK found the shapes apart: no penetration.
    WithinRadii,  ///< The cores are apart and the radii overlap: exact, without EPA.
    Converged,    ///< The nearest face and the support point along its normal within tolerance.
    Flat,         ///< The cores' difference has no volume at the origin (crossing segments, a
                  ///< point on a segment, coincident points): the cores' depth is 0, the normal
                  ///< the flat set's (towards A's centre where several are as good).
    Degenerate,   ///< A step would make a face without a normal (rounding): the best face so far.
    IterationCap, ///< kEpaMaxIterations support points: the best face so far.
    PolytopeCap,  ///< kEpaMaxVertices or kEpaMaxFaces reached: the best face so far.
    InvalidInput, ///< A shape failed isValid.
};

/// How deep two shapes overlap (contact.hpp's conventions).
struct EpaResult {
    bool overlap; ///< The shapes share a point (touching counts); the fields below are zero if not.
    /// >= 0: moving A by normal * depth (or B by -normal * depth) separates them; 0 when touching.
    float depth;
    glm::vec3 normal; ///< Unit, from B toward A.
    glm::vec3 pointA; ///< A's deepest point into B: pointA = pointB - depth * normal.
    glm::vec3 pointB; ///< B's deepest point into A, on B's surface.
    int iterations;   ///< EPA's support points (0 when GJK settled it).
    EpaStatus status; ///< Why it stopped.
};

/// The penetration of A and B: GJK, then EPA when the cores overlap (see above). Exact for the
/// round shapes' shallow contacts; within kEpaTolerance of the size for polytopes (boxes, hulls);
/// cylinders' rims are approached by the polytope, to the tolerance or a cap.
/// `maxIterations` (1 to kEpaMaxIterations, clamped) lowers EPA's cap, for stepping and tests;
/// when it stops EPA early, the depth is the polytope's nearest face's: a lower bound.
EpaResult penetrationConvexConvex(const ConvexShape& a, const ConvexShape& b,
                                  int maxIterations = kEpaMaxIterations);

} // namespace kz
