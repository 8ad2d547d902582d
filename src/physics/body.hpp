// Rigid bodies: spheres and boxes with mass, inertia, pose and velocity.
#pragma once

#include "geom/types.hpp"

#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <string>

namespace kz {

enum class ShapeType { Sphere, Box };

/// What a scenario says about a body; World::addBody turns it into a Body.
struct BodyDesc {
    std::string name; ///< Shown in the UI and reports; need not be unique.
    ShapeType shape = ShapeType::Sphere;
    float radius = 0.5f;         ///< Sphere radius (> 0).
    glm::vec3 halfExtents{0.5f}; ///< Box half extents (each > 0).
    glm::vec3 position{0.0f};
    glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f}; ///< Unit quaternion (w, x, y, z); normalised on add.
    glm::vec3 velocity{0.0f};                      ///< m/s.
    glm::vec3 angularVelocity{0.0f};               ///< rad/s, world frame.
    float mass = 0.0f;                             ///< kg (> 0); 0 means "from density".
    float density = 1000.0f;                       ///< kg/m^3, used when mass is 0.
    float restitution = 1.0f;                      ///< 0 (plastic) to 1 (elastic).
    float friction = 0.0f;                         ///< Coulomb coefficient, >= 0.
    float rollingResistance = 0.0f;                ///< Rolling resistance coefficient (spheres), >= 0.
    std::uint32_t color = 0xd04040;                ///< 0xRRGGBB.
};

/// A simulated body. Fields are read freely; change velocities through World::setBodyVelocity so
/// the angular momentum stays consistent.
struct Body {
    std::string name;
    ShapeType shape;
    float radius;          ///< Sphere radius; for a box, the radius of its bounding sphere.
    glm::vec3 halfExtents; ///< Box half extents (for a sphere: radius on each axis).
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
    float rollingResistance; ///< Spheres: a rolling contact resists with torque <= this * radius * load.
    std::uint32_t color;
};

/// The body's shape at its current pose.
inline Sphere sphereOf(const Body& b) {
    return {b.position, b.radius};
}
inline Obb obbOf(const Body& b) {
    return {b.position, b.halfExtents, glm::mat3_cast(b.orientation)};
}

/// World-frame inverse inertia tensor R diag(1/I) R^T.
glm::mat3 inverseInertiaWorld(const Body& b);
/// World-frame inertia tensor R diag(I) R^T.
glm::mat3 inertiaWorld(const Body& b);
/// Translational plus rotational kinetic energy, in double precision.
double kineticEnergy(const Body& b);

} // namespace kz
