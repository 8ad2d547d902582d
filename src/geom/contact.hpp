// Contacts between overlapping shapes: a normal, a penetration depth and contact points.
//
// Convention for every contact query f(A, B):
// - normal is unit and points from B toward A: moving A by normal * depth (or B by
//   -normal * depth) separates the shapes; that is the push-out offset.
// - each point lies on B's surface, where A's deepest point presses into it.
// - touching (depth 0) is a contact; no overlap, or invalid input, gives no manifold.
// No query allocates, throws or does I/O.
#pragma once

#include "types.hpp"

#include <array>
#include <optional>

namespace kz {

struct ContactPoint {
    glm::vec3 position; ///< On B's surface.
    float depth;        ///< Penetration at this point along the normal, >= 0.
};

/// Up to four contact points sharing one normal.
struct Manifold {
    glm::vec3 normal; ///< Unit, from B toward A.
    int count;        ///< 1 to 4 points used.
    std::array<ContactPoint, 4> points;
    float depth; ///< The largest point depth.
};

/// Sphere A against the solid half-space behind plane B (dot(n, x) + d <= 0): normal = the
/// plane's unit normal, depth = r - distance (a centre behind the plane is still pushed out
/// along the normal), point = the centre projected on the plane.
std::optional<Manifold> contactSpherePlane(const Sphere& a, const Plane& b);

/// normal = normalize(cA - cB), depth = rA + rB - |cA - cB|. Coincident centres have no
/// defined direction: the normal is then +y.
std::optional<Manifold> contactSphereSphere(const Sphere& a, const Sphere& b);

/// The closest point of box B to the centre of sphere A (Ericson 5.1.4). A centre inside the
/// box is pushed out through the nearest face, so depth = r + distance to that face.
std::optional<Manifold> contactSphereObb(const Sphere& a, const Obb& b);

/// Box A against the solid half-space behind plane B: the corners behind or on the plane, the
/// four deepest when there are more, each projected onto the plane, normal = plane normal.
std::optional<Manifold> contactObbPlane(const Obb& a, const Plane& b);

/// Separating axes (15) pick the axis of least penetration, preferring face axes; a face axis
/// clips the incident face against the reference face's sides (Sutherland-Hodgman, as in
/// Box2D and ODE) and keeps up to 4 points; an edge-edge axis gives the closest point of the
/// two edges. Parallel edges never give a false axis.
std::optional<Manifold> contactObbObb(const Obb& a, const Obb& b);

/// Sphere A against triangle B (two-sided): the closest point on the triangle (so edges and
/// corners push back along the right direction), normal = normalize(c - closest point). A
/// centre exactly on the triangle is pushed along the face normal (b - a) x (c - a). A
/// zero-area triangle gives no contact.
std::optional<Manifold> contactSphereTriangle(const Sphere& a, const Triangle& b);

/// Box A against triangle B (two-sided: the triangle is a thin sheet, the box a solid), for boxes
/// on static triangle meshes. Separating axes (13, Akenine-Möller's triangle-box test; Ericson
/// 5.2.9; Gottschalk's OBBTree): the triangle normal, the box's 3 face axes and the 9 products
/// box axis x triangle edge. Along each axis the normal points the shorter way out, which is from
/// the triangle toward the box centre; a box centre exactly on the triangle's plane goes along
/// the face normal (b - a) x (c - a). The axis of least penetration wins, preferring the triangle
/// normal, then the box faces, over the next axis unless that one penetrates clearly less (as in
/// contactObbObb), so resting boxes keep the mesh's face normal:
/// - triangle normal: the box face most anti-parallel to it, clipped (Sutherland-Hodgman) to the
///   triangle's three side planes; its points below the plane, projected onto it (so a box on a
///   big triangle gets its 4 bottom corners, one over a small triangle the triangle's corners);
/// - box face: the triangle clipped to that face's four side planes; its points behind the face,
///   as they are (they lie on the triangle);
/// - edge-edge: the point of the triangle's edge closest to the box's edge; depth = the overlap
///   along the axis.
/// Five to seven clipped points are reduced to 4 (the deepest, then the widest spread). The depth
/// is then the least penetration, or up to 5% + 0.005 * the largest half extent more when a
/// preferred axis was kept. Edge axes within sin 1e-5 of parallel (a box edge along a triangle
/// edge) are skipped, so they never give a false axis; the other axes decide those poses (to
/// within about 1e-5 of the size). No contact for a zero-area triangle, non-finite input or
/// negative half extents (a zero half extent is a flat box, as in isValid).
std::optional<Manifold> contactObbTriangle(const Obb& a, const Triangle& b);

/// The largest separation of box A and triangle B over contactObbTriangle's axes (the same
/// 13, the same skipped near-parallel ones): > 0 when they are apart, and then at most their
/// distance (a gap along any unit axis is no larger than the true gap), so it is a safe step for
/// conservative advancement; <= 0 when they overlap or touch, and then minus the least
/// penetration over those axes. contactObbTriangle gives a manifold exactly when this is <= 0.
/// Invalid input (as for contactObbTriangle), or an overflow to NaN, gives +INFINITY: "never
/// collides", as degenerate triangles are skipped everywhere else.
float separationObbTriangle(const Obb& a, const Triangle& b);

/// The largest separation of boxes A and B over the 15 separating axes (Ericson 4.4.1), each
/// gap divided by its axis's length: > 0 when they are apart, and then at most their distance
/// (a lower bound, a safe step for conservative advancement); <= 0 when they overlap or touch.
/// Edge axes a_i x b_j within sin^2 1e-6 of parallel are skipped (the face axes cover those
/// poses). No validity checks: the caller passes valid boxes.
float separationObbObb(const Obb& a, const Obb& b);
/// The same, and the axis that separation is along: a unit vector from A towards B (their
/// separation along it is the value returned), which conservative advancement projects the
/// relative velocity on.
float separationObbObb(const Obb& a, const Obb& b, glm::vec3& axis);

} // namespace kz
