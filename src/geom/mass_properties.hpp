// Mass properties of solid shapes of uniform density: volume, centre of mass and inertia tensor,
// in closed form for the sphere, box, capsule and cylinder, and for a convex hull by summing the
// tetrahedra it splits into (Mirtich 1996 and Eberly's "Polyhedral mass properties" give the same
// integrals face by face; a tetrahedron's covariance is Blow and Binstock's closed form). Per unit
// density: multiply the volume and the tensor by the density. In double. Pure maths: no I/O.
#pragma once

#include "convex_hull.hpp"

#include <glm/glm.hpp>

namespace kz {

/// A solid's mass properties per unit density, in its own frame.
struct MassProperties {
    double volume = 0.0;
    glm::dvec3 centroid{0.0}; ///< The centre of mass.
    glm::dmat3 inertia{0.0};  ///< About the centroid, per unit density (kg m^2 per kg/m^3).
};

/// A sphere of radius r at the origin.
MassProperties massPropertiesOfSphere(double radius);
/// A box with these half extents, centred at the origin along x, y, z.
MassProperties massPropertiesOfBox(const glm::dvec3& half);
/// A capsule (convex.hpp's Capsule) around the segment from -halfHeight to +halfHeight along y:
/// a cylinder of length 2 halfHeight and two hemispherical caps.
MassProperties massPropertiesOfCapsule(double radius, double halfHeight);
/// A solid cylinder around y, from -halfHeight to +halfHeight, with flat caps.
MassProperties massPropertiesOfCylinder(double radius, double halfHeight);
/// A closed convex hull: the tetrahedra from its centroid to each face's fan of triangles.
/// A hull of zero volume (made by hand, flat) gives volume 0 and a zero tensor.
MassProperties massPropertiesOfHull(const ConvexHull& hull);

/// The principal axes of a symmetric tensor: moments[i] about the unit axis axes[i] (a column),
/// tensor = axes diag(moments) axes^T, axes a rotation (det +1), moments in ascending order.
/// Cyclic Jacobi rotations until the off-diagonal is below 1e-15 of the norm (at most 50 sweeps).
struct PrincipalAxes {
    glm::dvec3 moments{0.0};
    glm::dmat3 axes{1.0};
};
PrincipalAxes principalAxes(const glm::dmat3& tensor);

} // namespace kz
