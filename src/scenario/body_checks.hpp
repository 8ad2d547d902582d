// Checks shared by the loader and instantiate(): is a body inside the room, do two bodies touch.
// Internal to kz_scenario.
#pragma once

#include "geom/types.hpp"
#include "physics/body.hpp"
#include "physics/room.hpp"
#include "scenario.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace kz::scenario_detail {

/// Colours of bodies that name none, listed and random alike, by index in the world.
inline constexpr std::array<std::uint32_t, 8> kBodyPalette{0xd04040, 0x4080d0, 0x40b060, 0xe0a030,
                                                           0x9050c0, 0x30b0b0, 0xd06090, 0x808080};

/// A body's name when it gives none: "ball-<i>", "box-<i>", "capsule-<i>", "cylinder-<i>" or
/// "hull-<i>", i its index in the world.
std::string defaultBodyName(ShapeType shape, std::size_t index);

/// The shortest text that reads back as the same float ("0.1", not "0.100000").
std::string formatFloat(float v);

/// The box of a box body (its orientation normalised).
Obb obbOfDesc(const BodyDesc& body);

/// The radius of the smallest sphere about the centre that holds the body: the radius of a
/// sphere, |halfExtents| of a box, half height plus radius of a capsule, its farthest vertex of a
/// hull (in its body frame).
float boundingRadius(const BodyDesc& body);

/// The body's shape for GJK and EPA, at its pose (its orientation normalised). A hull's refers
/// to the body's hull.
ConvexShape convexOfDesc(const BodyDesc& body);

/// Exact overlap of two bodies (testSphereSphere, testSphereObb, testObbObb; GJK's
/// testConvexConvex when either is a capsule, a cylinder or a hull); touching counts.
bool bodiesOverlap(const BodyDesc& a, const BodyDesc& b);

/// Whether the body touches a triangle of the obstacle (exact: the sphere's distance to each
/// triangle near it, the separating axes of a box and a triangle); touching counts. A body
/// inside a closed mesh without touching it does not count (meshes are surfaces).
bool touchesObstacle(const BodyDesc& body, const Obstacle& obstacle);

/// The first obstacle (index into scenario.obstacles) the body touches, if any.
std::optional<std::size_t> touchedObstacle(const BodyDesc& body,
                                           const std::vector<ListedObstacle>& obstacles);

/// The wall a body crosses most, and by how much (> 0).
struct WallCrossing {
    int plane;   ///< Index into Room::planes.
    float depth; ///< How far the body reaches past the plane.
};

/// Empty when the body lies in the room: a sphere's centre is at least its radius in front of
/// every plane, each of a box's 8 corners, and the support point of any other shape toward each
/// wall, is on or in front of every plane. Touching is inside.
std::optional<WallCrossing> wallCrossing(const Room& room, const BodyDesc& body);

/// "<JSON pointer>: <what>" for the first listed body that is outside the room or touches an
/// earlier one; empty when all are fine.
std::string checkListedBodies(const Scenario& scenario);

} // namespace kz::scenario_detail
