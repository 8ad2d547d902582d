// The contact manifold of any two convex shapes of convex.hpp (sphere, box, capsule, cylinder,
// posed hull), as Jolt builds it (CollideConvexVsConvex, then ManifoldBetweenTwoFaces): EPA's
// normal and depth (epa.hpp), each shape's supporting face along that normal, the incident face
// clipped against the reference face's sides, its points behind the reference face, at most 4.
// Conventions of contact.hpp: the normal is unit and points from B toward A, each point lies on
// B's surface with its own depth, touching is a contact, no overlap or invalid input gives no
// manifold. No function allocates, throws or does I/O.
#pragma once

#include "contact.hpp"
#include "convex.hpp"

#include <optional>

namespace kz {

/// A hull face with more corners than this is read at this many of them, evenly spaced around
/// its loop (a convex polygon inside the face: every contact point stays on the surface).
inline constexpr int kMaxSupportingFaceVertices = 64;
/// A cylinder's cap disc is clipped as this regular polygon, inscribed in the rim, its first
/// corner at the rim point deepest along the normal (so a tilted cylinder keeps its deepest point).
inline constexpr int kCylinderCapVertices = 16;
/// A capsule's or cylinder's side counts as lying flat on the other shape when its axis is within
/// this sine of perpendicular to the normal (Jolt's capsule slop, 0.02, made relative): its
/// supporting face is then the segment of its surface facing the other shape.
inline constexpr double kFlatSideSine = 0.02;

/// The contact of A and B, for any two convex shapes (Jolt's ManifoldBetweenTwoFaces):
/// 1. penetrationConvexConvex gives the normal n (EPA's, or the cores' closest-point direction
///    when only the radii overlap), the depth and the witness points; apart or invalid: nullopt.
/// 2. Each shape's supporting face along n (Jolt's GetSupportingFace), radius included: a box's
///    face most anti-parallel to n (its outward normal toward the other shape), a hull's face of
///    that kind (all faces scanned, normals through the inverse transpose of the orientation), a
///    cylinder's cap (a kCylinderCapVertices-gon) or its side segment (Jolt's rule: the side when
///    |n_perp| h > r |n_axis|), a capsule's surface segment when it lies flat (kFlatSideSine),
///    else a point; a sphere is a point.
/// 3. The reference face is the polygon more parallel to n (A's on a tie, as contactObbObb); a
///    polygon is the reference against a segment; of two segments (only when parallel within
///    kFlatSideSine, else the witness point), A's, its end planes clipping B's. A reference face within 1e-5
///    rad of n gives its exact normal to the manifold (EPA reaches it only to its tolerance).
/// 4. The incident face is clipped (Sutherland-Hodgman) against the planes through the reference
///    face's edges along n; each clipped point x is carried along n onto the reference plane, and
///    kept when behind it (depth >= 0; up to 1e-6 of the size in front counts as touching): its
///    depth is that distance along n (never more than EPA's depth: both points lie in their
///    faces), its position the point on B's face.
/// 5. More than 4 points are reduced to the deepest, the farthest from it, the largest triangle
///    and the point farthest outside it (contactObbObb's reduction; Jolt's PruneContactPoints
///    keeps the same spread, weighting by depth and distance to the centre of mass). When the faces give no
///    point (a vertex or an edge touching, a single-point feature, a degenerate face), or only points
///    shallower than EPA's depth by more than 1e-5 of the size, EPA's witness point is used (added).
/// Consistent with the closed forms: sphere-sphere and sphere-box give contactSphereSphere's and
/// contactSphereObb's point, normal and depth; box-box face contacts contactObbObb's normal and
/// points wherever that one picks the axis of least penetration (it prefers face axes within 5%).
/// Time: EPA's, plus a scan of a hull's faces, plus the clipping (at most 64 x 64 corners).
std::optional<Manifold> contactConvexConvex(const ConvexShape& a, const ConvexShape& b);

/// The same with a speculative reach, as Jolt's CollideShapeSettings::mMaxSeparationDistance:
/// shapes apart by at most `maxSeparation` give a manifold too, so that a solver sees a contact
/// coming (a physics world's contact margin). Apart: GJK's closest points give the normal (from
/// B toward A), each shape's supporting face along it is clipped as above, and the points at most
/// maxSeparation in front of the reference face are kept with negative depths (minus their gap);
/// the closest points' pair (depth minus the distance) when the faces give none or miss it.
/// Overlapping: contactConvexConvex's manifold, its face points up to maxSeparation in front kept
/// with their negative depths rather than dropped. The manifold's depth is its deepest point's.
/// maxSeparation <= 0 (or NaN) is contactConvexConvex(a, b).
std::optional<Manifold> contactConvexConvex(const ConvexShape& a, const ConvexShape& b, float maxSeparation);

/// Convex shape A against the solid half-space behind plane B (dot(n, x) + d <= 0), as
/// contactObbPlane: the normal is the plane's (unit), the points are A's supporting face toward
/// the plane (a box's face, a hull's, a cylinder's cap polygon or side, a capsule's side when it
/// lies flat, as contactConvexConvex takes them), each within maxSeparation (>= 0) in front of the
/// plane, projected onto it, depth minus its height; A's support point joins them when they miss
/// it, and is the only point of a sphere, a capsule on its end or a corner. At most 4 points
/// (contactObbPlane's reduction). Invalid input or a shape farther than maxSeparation: none.
std::optional<Manifold> contactConvexPlane(const ConvexShape& a, const Plane& b, float maxSeparation);

} // namespace kz
