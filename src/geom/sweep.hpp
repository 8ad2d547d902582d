// Swept queries: when a moving shape first touches a static one.
#pragma once

#include "types.hpp"

#include <optional>

namespace kz {

/// The first time t in [0, tMax] at which sphere `s`, its centre moving to s.center + t *
/// velocity, touches triangle `tri` (two-sided): the smallest t with dist(centre(t), tri) <=
/// radius. 0 when it touches or overlaps already. Empty when it does not touch by tMax, and for
/// a zero-area triangle, a negative radius or a non-finite input.
/// Solves the ray centre(t) against the triangle grown by the radius: the face's two planes
/// offset by r (hits inside the triangle), the three edge cylinders (hits within the edge) and
/// the three corner spheres (Ericson, Real-Time Collision Detection, 5.5.7).
std::optional<float> sweepSphereTriangle(const Sphere& s, const glm::vec3& velocity, const Triangle& tri,
                                         float tMax = INFINITY);

} // namespace kz
