// Fuzz harness support for fuzz_recording, which replays recordings of up to hundreds of ticks:
// the bound that keeps one input to milliseconds.
#pragma once

#include "physics/world.hpp"

#include <algorithm>

namespace kz::fuzz {

/// Worlds whose bodies would cross the room more than this many times per step, all bodies
/// together, are not stepped. World::step flies each body from impact to impact, so a step's time
/// grows with the impacts it holds: one box at 1e6 m/s in a 4 m room bounces about 2,000 times a
/// step (0.27 s a step in a release build, ten times that under the sanitizers). Legitimate, and
/// not what a fuzz execution of milliseconds can afford.
inline constexpr double kMaxRoomCrossingsPerStep = 2.0;

/// How many times the bodies cross the room in one step, all together, at the speed they could
/// reach within `steps` steps (their speed now plus gravity's).
inline double roomCrossingsPerStep(const World& world, int steps) {
    const glm::dvec3 extent = glm::dvec3(world.room().bounds.max) - glm::dvec3(world.room().bounds.min);
    const double width = std::min({extent.x, extent.y, extent.z});
    const double dt = world.settings().timeStep;
    const double gained = glm::length(glm::dvec3(world.settings().gravity)) * dt * steps;
    double distance = 0.0;
    for (const Body& b : world.bodies())
        distance += (glm::length(glm::dvec3(b.velocity)) + gained) * dt;
    return distance / width;
}

} // namespace kz::fuzz
