// Convex shapes described by their support function, the farthest point in a direction: what GJK
// and EPA (gjk.hpp, epa.hpp) need and nothing more. Sphere and Obb (types.hpp) join three shapes
// here: the capsule, the cylinder and the posed convex hull. ConvexShape holds any one of the five.
//
// Poses follow Obb's: a shape is stored in world space (a capsule's segment, a cylinder's axis
// segment), or as a reference to local geometry with a position and a mat3 orientation (a hull).
// The *FromPose helpers turn the usual centre + orientation + half_height (along local y) into
// the world-space segment.
// No function allocates, throws or does I/O.
#pragma once

#include "convex_hull.hpp"
#include "types.hpp"

#include <variant>

namespace kz {

/// The set of points within `radius` of the segment [a, b] (Ericson 4.5.1, a sphere-swept line).
/// a == b is a sphere; radius 0 is a segment.
struct Capsule {
    glm::vec3 a;  ///< One end of the core segment.
    glm::vec3 b;  ///< The other end.
    float radius; ///< >= 0.
};

/// A solid right circular cylinder: the points within `radius` of the axis segment [a, b],
/// between the planes through a and b perpendicular to it (flat caps).
struct Cylinder {
    glm::vec3 a;  ///< Centre of one cap.
    glm::vec3 b;  ///< Centre of the other cap; a != b (the axis direction is b - a).
    float radius; ///< >= 0; 0 is the segment [a, b].
};

/// A convex hull placed in the world: x_world = position + orientation * x_local. The hull is
/// referenced, not copied (many bodies share one hull); it must outlive every query on it.
struct PosedHull {
    const ConvexHull* hull; ///< Its `vertices` (local frame) are all the support function reads.
    glm::vec3 position;
    /// Columns: the hull's local x, y, z axes in the world. Usually a rotation; any finite linear
    /// map (a scale, a shear) keeps the shape convex and the support function exact.
    glm::mat3 orientation;
};

/// Any of the five convex shapes GJK and EPA take.
using ConvexShape = std::variant<Sphere, Obb, Capsule, Cylinder, PosedHull>;

/// The capsule whose segment runs from centre - halfHeight * y to centre + halfHeight * y, y the
/// second column of `axes` (the shape file's {"shape": "capsule", "half_height": h}).
Capsule capsuleFromPose(const glm::vec3& center, const glm::mat3& axes, float halfHeight, float radius);
/// The cylinder whose axis runs from centre - halfHeight * y to centre + halfHeight * y, as above.
Cylinder cylinderFromPose(const glm::vec3& center, const glm::mat3& axes, float halfHeight, float radius);

/// Finite ends, finite radius >= 0.
bool isValid(const Capsule& capsule);
/// Finite ends at a non-zero (and finite) squared distance, finite radius >= 0. A zero-height
/// cylinder has no axis direction, so it is refused (Jolt refuses it too); a disc is a cylinder
/// of tiny height.
bool isValid(const Cylinder& cylinder);
/// A hull with at least one vertex, every vertex, the position and the orientation finite.
/// Reads every vertex (O(n)); the half-edges are not checked (see support(PosedHull)).
bool isValid(const PosedHull& hull);
/// The held shape's isValid.
bool isValid(const ConvexShape& shape);

/// support(shape, d): a point p of the shape with dot(d, p) maximal, d any length. Each is exact
/// in any pose (computed in double, rounded once). A zero (or non-finite) d gives some point of
/// the shape: the direction only picks which one.
glm::vec3 support(const Sphere& sphere, const glm::vec3& d);
/// The corner center + sum_i +-half_i axes_i with the sign of dot(d, axes_i) (+ on a tie).
glm::vec3 support(const Obb& box, const glm::vec3& d);
/// The end of the segment farther along d (a on a tie), plus radius * d / |d|.
glm::vec3 support(const Capsule& capsule, const glm::vec3& d);
/// The cap centre farther along d, plus radius times the unit part of d perpendicular to the
/// axis (nothing when d is along the axis: the cap's centre, one of its farthest points).
glm::vec3 support(const Cylinder& cylinder, const glm::vec3& d);
/// The vertex farthest along orientation^T d: a linear scan of `vertices` (the first of equal
/// ones; in float over the hull's vertexLanes when it has them, the near-best then compared in
/// double, which gives the same vertex), or, for hulls of more than kHullClimbMinVertices
/// vertices whose half-edges are filled (vertexEdge and edges sized for them), a hill climb from
/// octantVertex over the edges, which stops at a vertex no neighbour beats: on a convex
/// polyhedron that is a farthest vertex (the simplex method's argument), in O(sqrt n) steps on
/// round hulls. Inconsistent half-edge indices fall back to the scan.
glm::vec3 support(const PosedHull& hull, const glm::vec3& d);
glm::vec3 support(const ConvexShape& shape, const glm::vec3& d);

/// Hulls with more vertices than this (and filled half-edges) climb rather than scan.
inline constexpr std::size_t kHullClimbMinVertices = 32;

/// One support point of the Minkowski difference A - B: w = support(A, d) - support(B, -d).
struct SupportPoint {
    glm::vec3 pointA; ///< support(A, d).
    glm::vec3 pointB; ///< support(B, -d).
    glm::vec3 w;      ///< pointA - pointB, the farthest point of A - B along d.
};
SupportPoint supportDifference(const ConvexShape& a, const ConvexShape& b, const glm::vec3& d);

} // namespace kz
