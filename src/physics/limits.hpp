// The physical ranges Kolize simulates: the scenario loader refuses values outside them, and the
// World's setters (and the app's panel) clamp to them. docs/scenarios.md lists them.
//
// Why they keep every state finite (tests/scenario/test_scenario.cpp, ScenarioLimits, runs the
// extremes): positions stay inside the room (|x| <= kMaxRoomExtent); with restitution <= 1 and
// friction only removing energy, a body's speed stays below sqrt(v0^2 + 2 g d) with d the room's
// diagonal, about 2,800 m/s; masses and inertias lie between about 1e-13 and 1e15 in SI units, so
// every product the solver forms (impulse = effective mass x speed, its square, inverse mass x
// impulse) stays below 1e35, inside a float.
#pragma once

#include <cstddef>

namespace kz::limits {

/// A room lies within this distance of the origin along every axis (m): a box room's `size` is
/// at most twice it.
inline constexpr float kMaxRoomExtent = 1000.0f;
/// The smallest side of a box room (m).
inline constexpr float kMinRoomSize = 0.01f;
/// A sphere's radius and each of a box's half extents (m).
inline constexpr float kMinBodySize = 1e-3f;
inline constexpr float kMaxBodySize = 100.0f;
/// A body's mass, given or from its density times its volume (kg). The default density
/// (1000 kg/m^3) gives every body size in range a mass in range.
inline constexpr float kMinMass = 1e-6f;
inline constexpr float kMaxMass = 1e10f;
/// Length of a body's velocity (m/s) and angular velocity (rad/s).
inline constexpr float kMaxSpeed = 1000.0f;
inline constexpr float kMaxAngularSpeed = 1000.0f;
/// Length of the gravity vector (m/s^2), about 100 g.
inline constexpr float kMaxGravity = 1000.0f;
/// Coulomb friction coefficient (restitution is in [0, 1]).
inline constexpr float kMaxFriction = 10.0f;
/// Rolling resistance coefficient (a ball's resisting torque over radius x load).
inline constexpr float kMaxRollingResistance = 1.0f;
/// A scenario camera's eye and target lie within this distance of the origin along every axis (m):
/// four times the room's reach, so a view from outside can frame the widest room whole (its
/// corners are 1732 m from its centre: 3464 m away at a 60 degree field of view).
inline constexpr float kMaxCameraExtent = 4.0f * kMaxRoomExtent;
/// The least distance between a camera's eye and its target (m): a view direction needs one.
inline constexpr float kMinCameraDistance = 1e-3f;
/// Each component of a mesh obstacle's scale.
inline constexpr float kMinMeshScale = 1e-3f;
inline constexpr float kMaxMeshScale = 1e3f;

} // namespace kz::limits
