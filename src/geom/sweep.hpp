// Swept queries: when a moving sphere first touches a plane, another moving sphere, a triangle or
// an oriented box.
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

/// The first time t in [0, tMax] at which sphere `s`, its centre moving to s.center + t *
/// velocity, touches the solid oriented box `box`: the smallest t with dist(centre(t), box) <=
/// radius. 0 when it touches or overlaps already. Empty when it does not touch by tMax (nor at a
/// finite float time), and for an invalid box (isValid), a negative radius or a non-finite input.
/// The limit only cuts: the touch within tMax is, to the bit, the touch found with no limit when
/// that one is no later than tMax.
/// Solves the ray centre(t) against the box's rounded shape (its Minkowski sum with the sphere),
/// in the box's frame: the box grown by r on every side holds the rounded shape and shares its
/// flat faces, so an entry through a face's flat part is the answer; an entry beside an edge or a
/// corner lies in a pocket between the grown box and the rounded one, which the ray leaves either
/// into an edge cylinder or a corner sphere (the first entry root over the 12 and the 8) or out of
/// the grown box, never to come back (Ericson, Real-Time Collision Detection, 5.5.7).
std::optional<float> sweepSphereObb(const Sphere& s, const glm::vec3& velocity, const Obb& box,
                                    float tMax = INFINITY);

/// The first time t in [0, tMax] at which the surface of sphere `s`, its centre moving to
/// s.center + t * velocity, comes within `gap` of the plane: d(t) = gap with
/// d(t) = dot(n, centre(t)) + d - radius = d0 + dot(n, velocity) t (the plane's normal is unit,
/// as a room's planes are). 0 when it is already that close and approaching. Empty when it does
/// not approach the plane (moving along or away from it, or a non-finite velocity), or when d(t)
/// reaches `gap` only after tMax (or so late that float cannot tell when: t overflows). A negative
/// gap asks when the sphere sinks that deep.
std::optional<float> sweepSpherePlane(const Sphere& s, const glm::vec3& velocity, const Plane& plane,
                                      float tMax = INFINITY, float gap = 0.0f);

/// The first time t in [0, tMax] at which spheres a and b, moving at velocityA and velocityB,
/// come within `gap` of each other: the smaller root of |dp + dv t| = rA + rB + gap, with
/// dp = cA - cB and dv = vA - vB, taken as c / (-b + sqrt(b^2 - a c)) so that it does not cancel
/// (Ericson, Real-Time Collision Detection, 5.5.5). 0 when they are already that close and
/// approaching. Empty when they do not approach (dot(dp, dv) >= 0: resting or separating pairs,
/// even overlapping ones, are a contact solver's business), when they pass each other farther
/// apart, or when they meet after tMax (or so late that float cannot tell when: t overflows).
std::optional<float> sweepSphereSphere(const Sphere& a, const glm::vec3& velocityA, const Sphere& b,
                                       const glm::vec3& velocityB, float tMax = INFINITY, float gap = 0.0f);

} // namespace kz
