// Private to kz_physics: free flight of a body between impacts.
//
// Free flight keeps each body's world angular momentum and turns it with the symplectic
// splitting of Dullweber, Leimkuhler and McLachlan (1997): rotations about the principal axes,
// projected back onto the body's rotational energy, so a tumbling box neither gains nor loses
// energy over time.
#pragma once

#include "body.hpp"

#include <algorithm>
#include <cmath>

namespace kz {

inline float boundingRadius(const Body& b) {
    return b.shape == ShapeType::Sphere ? b.radius : glm::length(b.halfExtents);
}

/// Upper bound of the speed at which rotation moves any surface point (0 for a sphere, whose
/// surface does not move when it spins): the farthest point's distance |halfExtents| times the
/// largest angular speed free flight can reach. With body-frame momentum m, |w|^2 = sum m_i^2 /
/// I_i^2, at most |L|^2 / I_min^2 and at most 2 E / I_min (E = sum m_i^2 / 2 I_i, the rotational
/// energy `spinEnergy`, which free flight keeps to far better than the 2% slack given it here).
inline float rotationSpeedBound(const Body& b, double spinEnergy) {
    if (b.shape == ShapeType::Sphere) return 0.0f;
    const float least = std::min(b.inertiaLocal.x, std::min(b.inertiaLocal.y, b.inertiaLocal.z));
    const float byMomentum = glm::length(b.angularMomentum) / least;
    const float byEnergy = static_cast<float>(std::sqrt(2.0 * spinEnergy / static_cast<double>(least)));
    return 1.001f * std::min(byMomentum, 1.01f * byEnergy) * glm::length(b.halfExtents);
}

/// 1/2 L_b . I^-1 L_b with L_b the body-frame angular momentum, in double precision.
double rotationalEnergy(const glm::quat& orientation, const glm::vec3& momentum, const glm::vec3& inertia);

/// Free flight for t seconds: straight line, and the angular momentum turned by the
/// Strang-split principal-axis rotations (DLM). Angular velocity follows from the momentum.
/// `spinEnergy` is the body's rotational energy, which free flight must keep: the world stores
/// it per body and updates it only when an impulse changes the angular momentum, so rounding
/// in one flight cannot shift the level the next one aims at.
void drift(Body& b, float t, double spinEnergy);

/// The conservative advancement's look-ahead: `state` flown on by dt, cheaply (one rotation at the
/// current angular velocity) for a slow spin, with drift() (keeping `spinEnergy`) for a fast one.
void lookAhead(Body& state, float dt, double spinEnergy);

// Each body's clock (World::syncBody) is in world_impl.hpp.

} // namespace kz
