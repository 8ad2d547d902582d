// Boolean overlap tests: true when the two shapes share at least one point (touching counts).
// Invalid input (see isValid) never overlaps.
#pragma once

#include "types.hpp"

namespace kz {

/// |signed distance of the centre| <= r: the sphere touches or crosses the plane.
bool testSpherePlane(const Sphere& sphere, const Plane& plane);
/// |c1 - c2|^2 <= (r1 + r2)^2.
bool testSphereSphere(const Sphere& a, const Sphere& b);
/// sqDistPointAabb(c, box) <= r^2 (Ericson 5.2.5).
bool testSphereAabb(const Sphere& sphere, const Aabb& box);
/// sqDistPointObb(c, box) <= r^2 (Ericson 5.2.6).
bool testSphereObb(const Sphere& sphere, const Obb& box);
/// Projected radius: |signed distance of the centre| <= sum_i half_i |dot(axis_i, n)|
/// (Ericson 5.2.3). Same answer as testObbPlaneCorners, with 3 dot products instead of 8.
bool testObbPlane(const Obb& box, const Plane& plane);
/// The classic form: the box's 8 corners do not all lie strictly on one side of the plane.
bool testObbPlaneCorners(const Obb& box, const Plane& plane);
/// Overlap on all three axes (Ericson 4.2.1).
bool testAabbAabb(const Aabb& a, const Aabb& b);
/// Separating-axis test on all 15 axes (3 + 3 face normals, 9 edge cross products) with an
/// epsilon on the rotation terms so that parallel edges (a near-zero cross product) never
/// report a false separation (Ericson 4.4.1).
bool testObbObb(const Obb& a, const Obb& b);

} // namespace kz
