// Test support: a small world for the headless runs' tests (test_headless, test_long_run).
#pragma once

#include "physics/room.hpp"
#include "physics/world.hpp"

namespace kz::test {

/// Two balls heading for each other and a spinning box, in a 10 m box room.
inline kz::World smallWorld() {
    kz::World world(kz::boxRoom({10.0f, 10.0f, 10.0f}));
    kz::BodyDesc left;
    left.name = "left";
    left.position = {-2.0f, 0.0f, 0.0f};
    left.velocity = {1.5f, 0.25f, 0.0f};
    world.addBody(left);
    kz::BodyDesc right = left;
    right.name = "right";
    right.position = {2.0f, 0.0f, 0.0f};
    right.velocity = {-1.0f, 0.0f, 0.5f};
    world.addBody(right);
    kz::BodyDesc box;
    box.name = "box";
    box.shape = kz::ShapeType::Box;
    box.halfExtents = {0.5f, 0.25f, 0.4f};
    box.position = {0.0f, 3.0f, 0.0f};
    box.angularVelocity = {0.0f, 1.0f, 0.5f};
    world.addBody(box);
    return world;
}

} // namespace kz::test
