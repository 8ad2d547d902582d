// The ranges a scenario's values must lie in (physics/limits.hpp, docs/scenarios.md), checked
// once for both ways a Scenario comes about: the loader checks each value as it reads it, and
// instantiate() checks a Scenario built in code, field by field in the loader's order, with the
// same messages. Each check fails with a LoadError at the value's JSON pointer (json_values.hpp).
// Internal to kz_scenario.
#pragma once

#include "json_values.hpp"
#include "physics/body.hpp"
#include "physics/obstacle.hpp"
#include "physics/room.hpp"
#include "scenario.hpp"

#include <cstdint>
#include <string>

namespace kz::scenario_detail {

/// The most random bodies a scenario may ask for.
inline constexpr std::int64_t kMaxRandomCount = 20000;

/// A finite number ("must be a finite number, got nan").
void checkFinite(float v, const std::string& p);
/// A vector of finite numbers, each checked at p/i.
void checkFiniteVec3(const glm::vec3& v, const std::string& p);
/// A finite number > 0 within `limit`.
void checkPositive(float v, const std::string& p, const Limit& limit);
/// A number in [0, 1].
void checkUnitInterval(float v, const std::string& p);
/// A material coefficient: >= 0 (said first), then within `limit`.
void checkCoefficient(float v, const std::string& p, const Limit& limit);
/// Three numbers, each > 0 and within `limit`.
void checkPositiveVec3(const glm::vec3& v, const std::string& p, const Limit& limit);
/// Finite components whose length (in double: no overflow) lies in `limit`.
void checkVec3WithLength(const glm::vec3& v, const std::string& p, const Limit& limit);
/// [min, max] with 0 <= min (0 < min when strictlyPositive) <= max, both within `limit`.
void checkRange(const glm::vec2& v, const std::string& p, bool strictlyPositive, const Limit& limit);
/// A non-empty name.
void checkName(const std::string& name, const std::string& p);
/// A description (UTF-8): at most kMaxDescriptionChars characters, none of them a control
/// character (C0, DEL or C1: no line break, no tab). Empty is allowed here (a Scenario built in
/// code without one); the loader refuses an empty "description" itself.
void checkDescription(const std::string& text, const std::string& p);
/// A finite, non-zero quaternion [w, x, y, z] (normalised where it is used).
void checkQuaternion(const glm::quat& q, const std::string& p);
/// The time step, in (0, 0.1] s.
void checkTimeStep(float dt, const std::string& p);

/// The room lies within limits::kMaxRoomExtent of the origin along every axis (at "/planes").
void checkRoomReach(const Room& room);
/// The camera at "/camera": each coordinate of eye and target within limits::kMaxCameraExtent of
/// the origin, the two at least limits::kMinCameraDistance apart, the field of view in (0, 180)
/// degrees.
void checkCamera(const CameraDesc& camera);
/// Every vertex of the placed mesh on or in front of every wall (to 1 mm), at p/position.
void checkObstacleInRoom(const Obstacle& obstacle, const Room& room, const std::string& p);

/// A listed body at `p`, in the order the loader reads its keys: shape and size, name, position,
/// orientation, velocity, angular velocity (and its fastest point), mass or density (mass 0:
/// "from density"), restitution, friction, rolling resistance, colour.
void checkBodySize(const BodyDesc& body, const std::string& p);
/// A random block's "shapes" weights (when given): each in [0, 1000], not all 0.
void checkShapeWeights(const RandomDesc& r, const std::string& p);
/// The body's volume in m^3 (mass_properties.hpp's closed forms, a hull's tetrahedra).
double bodyVolume(const BodyDesc& body);
void checkAngularVelocity(const BodyDesc& body, const std::string& p);
void checkDensity(const BodyDesc& body, const std::string& p);
void checkMaterial(const BodyDesc& body, const std::string& p);
void checkBody(const BodyDesc& body, const std::string& p);

/// The random bodies' description at "/random".
void checkRandom(const RandomDesc& random);

/// No body may fly farther than the room's smallest width in one step, even at the fastest it can
/// get (at "/time_step").
void checkTravelPerStep(const Scenario& s);

/// Every field of a Scenario built in code against the ranges the loader enforces (listed bodies
/// against the room and each other are checkListedBodies's). Throws LoadError at the first.
void checkScenario(const Scenario& s);

} // namespace kz::scenario_detail
