// Rigid bodies: spheres, boxes, capsules, cylinders and convex hulls with mass, inertia, pose and
// velocity.
#pragma once

#include "geom/convex.hpp"
#include "geom/types.hpp"

#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <memory>
#include <string>

namespace kz {

/// A body's shape. Capsules and cylinders stand along their local y axis; a hull is given in the
/// body's frame (hull_body.hpp's makeHullBody puts one there).
enum class ShapeType { Sphere, Box, Capsule, Cylinder, Hull };

/// What a scenario says about a body; World::addBody turns it into a Body.
struct BodyDesc {
    std::string name; ///< Shown in the UI and reports; need not be unique.
    ShapeType shape = ShapeType::Sphere;
    float radius = 0.5f;         ///< Sphere, capsule or cylinder radius (> 0).
    glm::vec3 halfExtents{0.5f}; ///< Box half extents (each > 0).
    float halfHeight = 0.5f; ///< Capsule: half its core segment's length; cylinder: half its height (> 0).
    /// Hull: its vertices, faces and edges in the body's frame, the centre of mass at the origin and
    /// the principal axes of inertia along x, y and z (makeHullBody); shared by the bodies made of it.
    std::shared_ptr<const ConvexHull> hull;
    glm::vec3 position{0.0f};
    glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f}; ///< Unit quaternion (w, x, y, z); normalised on add.
    glm::vec3 velocity{0.0f};                      ///< m/s.
    glm::vec3 angularVelocity{0.0f};               ///< rad/s, world frame.
    float mass = 0.0f;                             ///< kg (> 0); 0 means "from density".
    float density = 1000.0f;                       ///< kg/m^3, used when mass is 0.
    float restitution = 1.0f;                      ///< 0 (plastic) to 1 (elastic).
    float friction = 0.0f;                         ///< Coulomb coefficient, >= 0.
    float rollingResistance = 0.0f; ///< Rolling resistance coefficient (spheres, capsules, cylinders), >= 0.
    std::uint32_t color = 0xd04040; ///< 0xRRGGBB.
};

/// A simulated body. Fields are read freely; change velocities through World::setBodyVelocity so
/// the angular momentum stays consistent.
struct Body {
    std::string name;
    ShapeType shape;
    float radius; ///< Sphere radius; for every other shape, the radius of its bounding sphere.
    /// Box half extents; for the other shapes those of their bounding box in the body's frame
    /// (a sphere's radius on each axis; a capsule's or a cylinder's radius along x and z).
    glm::vec3 halfExtents;
    float halfHeight = 0.0f; ///< Capsule and cylinder (BodyDesc::halfHeight); 0 for the others.
    std::shared_ptr<const ConvexHull> hull; ///< Hull only: in the body's frame (BodyDesc::hull).
    float mass;
    float invMass;
    glm::vec3 inertiaLocal; ///< Principal moments of inertia (body frame), kg m^2.
    glm::vec3 position;
    glm::quat orientation;
    glm::vec3 velocity;
    glm::vec3 angularVelocity; ///< World frame; follows from angularMomentum and the orientation.
    glm::vec3 angularMomentum; ///< World frame, about the centre: the rotational state the world keeps
                               ///< (constant in free flight).
    float restitution;
    float friction;
    float rollingResistance; ///< Round shapes: a rolling contact resists with torque <= this * radius * load.
    std::uint32_t color;
};

/// The body's shape at its current pose.
inline Sphere sphereOf(const Body& b) {
    return {b.position, b.radius};
}
inline Obb obbOf(const Body& b) {
    return {b.position, b.halfExtents, glm::mat3_cast(b.orientation)};
}

/// "sphere", "box", "capsule", "cylinder" or "hull": the scenario's "shape" key.
inline const char* shapeName(ShapeType shape) {
    constexpr const char* kNames[] = {"sphere", "box", "capsule", "cylinder", "hull"};
    return kNames[static_cast<int>(shape)];
}

/// A capsule's or cylinder's radius.
inline float roundRadius(const Body& b) {
    return b.halfExtents.x;
}

/// Whether the body is a capsule, a cylinder or a hull: a shape whose queries run on GJK and EPA.
inline bool isConvexShape(ShapeType shape) {
    return shape == ShapeType::Capsule || shape == ShapeType::Cylinder || shape == ShapeType::Hull;
}

/// A shape of kind `shape` placed at `position` with `axes` (columns), as GJK and EPA take it: the
/// sphere of `radius`, the box of `halfExtents`, the capsule or cylinder of `radius` and
/// `halfHeight` along its y axis, or `hull` (referred to, not copied).
ConvexShape convexShapeAt(ShapeType shape, const glm::vec3& position, const glm::mat3& axes, float radius,
                          const glm::vec3& halfExtents, float halfHeight, const ConvexHull* hull);

/// The body's shape at its current pose (convexShapeAt). A hull body's shape refers to its hull,
/// which it shares.
ConvexShape convexOf(const Body& b);

/// World-frame inverse inertia tensor R diag(1/I) R^T.
glm::mat3 inverseInertiaWorld(const Body& b);
/// World-frame inertia tensor R diag(I) R^T.
glm::mat3 inertiaWorld(const Body& b);
/// Translational plus rotational kinetic energy, in double precision.
double kineticEnergy(const Body& b);

} // namespace kz
