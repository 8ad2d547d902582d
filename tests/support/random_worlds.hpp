// Random worlds and rays for the property tests of the queries that walk the bodies' hierarchy
// against their scans (test_pick.cpp, test_sphere_cast.cpp).
#pragma once

#include "physics/world.hpp"
#include "support/grid_mesh.hpp"

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kz::test {

inline BodyDesc sphere(const char* name, glm::vec3 position, float radius) {
    BodyDesc d;
    d.name = name;
    d.position = position;
    d.radius = radius;
    return d;
}

inline BodyDesc box(const char* name, glm::vec3 position, glm::vec3 half,
                    glm::quat orientation = {1, 0, 0, 0}) {
    BodyDesc d;
    d.name = name;
    d.shape = ShapeType::Box;
    d.position = position;
    d.halfExtents = half;
    d.orientation = orientation;
    return d;
}

inline std::string describe(const Ray& ray, float tMax) {
    std::ostringstream os;
    os.precision(9);
    os << "ray (" << ray.origin.x << ", " << ray.origin.y << ", " << ray.origin.z << ") + t (" << ray.dir.x
       << ", " << ray.dir.y << ", " << ray.dir.z << "), tMax " << tMax;
    return os.str();
}

/// A random world in a 40 m room: bodies of mixed sizes (mostly 5 cm to 1 m, some of 1 to 10 mm,
/// some of 5 to 30 m), overlapping at random, some exact copies of an earlier body (ties) or
/// centred on one; half of them moving; and a few placed grid meshes.
inline World randomWorld(std::mt19937& rng, int bodies, int obstacles) {
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), u01(0.0f, 1.0f);
    World world(kz::boxRoom(glm::vec3(40.0f)));
    for (int i = 0; i < obstacles; ++i) {
        kz::ObstacleDesc d;
        d.name = "grid";
        d.mesh = kz::test::gridMesh(1 + static_cast<int>(u01(rng) * 6.0f));
        d.position = {unit(rng) * 12.0f, unit(rng) * 12.0f, unit(rng) * 12.0f};
        d.orientation = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
        d.scale = {0.5f + 3.0f * u01(rng), 1.0f, 0.5f + 3.0f * u01(rng)};
        std::string error;
        const auto obstacle = kz::makeObstacle(d, error);
        EXPECT_TRUE(obstacle) << error;
        world.addObstacle(*obstacle);
    }
    std::vector<BodyDesc> added;
    for (int i = 0; i < bodies; ++i) {
        const float kind = u01(rng);
        if (kind < 0.12f && !added.empty()) { // an exact copy of an earlier body: the same t
            world.addBody(added[static_cast<std::size_t>(u01(rng) * static_cast<float>(added.size() - 1))]);
            continue;
        }
        const float size = kind < 0.22f   ? 1e-3f * std::pow(10.0f, u01(rng))  // tiny
                           : kind < 0.27f ? 5.0f + 25.0f * u01(rng)            // huge
                                          : 0.05f * std::pow(20.0f, u01(rng)); // ordinary
        glm::vec3 at(unit(rng) * 15.0f, unit(rng) * 15.0f, unit(rng) * 15.0f);
        if (kind > 0.9f && !added.empty()) at = added.back().position; // centred on the last one
        const glm::quat q = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
        BodyDesc d = u01(rng) < 0.5f
                         ? sphere("ball", at, size)
                         : box("box", at, size * glm::vec3(0.2f + u01(rng), 0.2f + u01(rng), 1.0f), q);
        if (u01(rng) < 0.5f) d.velocity = {unit(rng) * 5.0f, unit(rng) * 5.0f, unit(rng) * 5.0f};
        if (u01(rng) < 0.3f) d.angularVelocity = {unit(rng) * 3.0f, unit(rng) * 3.0f, unit(rng) * 3.0f};
        world.addBody(d);
        added.push_back(d);
    }
    return world;
}

/// A random world to step: `bodies` bodies apart from each other at the start (one per cell of a
/// grid, so the step does not spend itself on deep overlaps), of sizes from 1 mm to a cell,
/// flying at up to 5 m/s and a few at 30 m/s, spinning; and a few placed grid meshes.
inline World movingWorld(std::mt19937& rng, int bodies, int obstacles) {
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), u01(0.0f, 1.0f);
    World world = randomWorld(rng, 0, obstacles);
    int k = 1;
    while (k * k * k < bodies)
        ++k;
    const float cell = 36.0f / static_cast<float>(k);
    for (int i = 0; i < bodies; ++i) {
        const glm::vec3 index(static_cast<float>(i % k), static_cast<float>((i / k) % k),
                              static_cast<float>(i / (k * k)));
        const glm::vec3 at = (index + 0.5f) * cell - 18.0f;
        const float bound = 0.45f * cell * (u01(rng) < 0.2f ? 0.01f * u01(rng) : 0.2f + 0.8f * u01(rng));
        const glm::quat q = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
        BodyDesc d = u01(rng) < 0.5f ? sphere("ball", at, bound)
                                     : box("box", at, glm::vec3(bound / std::sqrt(3.0f)), q);
        d.velocity = glm::vec3(unit(rng), unit(rng), unit(rng)) * (u01(rng) < 0.05f ? 30.0f : 5.0f);
        d.angularVelocity = {unit(rng) * 3.0f, unit(rng) * 3.0f, unit(rng) * 3.0f};
        world.addBody(d);
    }
    return world;
}

/// A random ray and tMax: from far outside, from a random point, from inside a body, aimed at
/// a body or grazing its bounding sphere, along an axis (zero components) through a body's centre
/// or along a face of its bounding box; a dir of any length from 1e-3 to 1e3; tMax infinite,
/// finite, zero, or exactly the nearest hit's t: nearestT(world, ray), a std::optional<float>.
template <class NearestT>
inline std::pair<Ray, float> randomRay(std::mt19937& rng, const World& world, NearestT nearestT) {
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), u01(0.0f, 1.0f);
    const auto randomDir = [&] {
        glm::vec3 d(unit(rng), unit(rng), unit(rng));
        return glm::length(d) > 1e-3f ? glm::normalize(d) : glm::vec3(0, 0, 1);
    };
    const auto bodies = world.bodies();
    const kz::Body* target =
        bodies.empty() ? nullptr
                       : &bodies[static_cast<std::size_t>(u01(rng) * static_cast<float>(bodies.size() - 1))];
    const glm::vec3 aim = target ? target->position : glm::vec3(unit(rng), unit(rng), unit(rng)) * 15.0f;
    const float bound =
        target ? (target->shape == ShapeType::Sphere ? target->radius : glm::length(target->halfExtents))
               : 1.0f;
    Ray ray{};
    const int kind = static_cast<int>(u01(rng) * 7.0f);
    switch (kind) {
    case 0: // from far outside toward the aim
        ray.origin = randomDir() * (30.0f + 50.0f * u01(rng));
        ray.dir = aim - ray.origin;
        break;
    case 1: // from anywhere in the room, anywhere
        ray.origin = glm::vec3(unit(rng), unit(rng), unit(rng)) * 19.0f;
        ray.dir = randomDir();
        break;
    case 2: // from inside the target
        ray.origin = aim + randomDir() * (bound * 0.5f * u01(rng));
        ray.dir = randomDir();
        break;
    case 3: { // grazing the target's bounding sphere, just inside or just outside
        const glm::vec3 d = randomDir();
        glm::vec3 side = glm::cross(d, randomDir());
        side = glm::length(side) > 1e-3f ? glm::normalize(side) : glm::vec3(1, 0, 0);
        const float offset = bound * (1.0f + (u01(rng) - 0.5f) * 1e-5f);
        ray.origin = aim + side * offset - d * (1.0f + 30.0f * u01(rng));
        ray.dir = d;
        break;
    }
    case 4: { // along an axis through the target's centre, or along a face of its box
        const int axis = static_cast<int>(u01(rng) * 3.0f) % 3;
        ray.dir = glm::vec3(0.0f);
        ray.dir[axis] = u01(rng) < 0.5f ? -1.0f : 1.0f;
        ray.origin = aim;
        ray.origin[axis] -= ray.dir[axis] * (bound + 20.0f * u01(rng));
        if (u01(rng) < 0.5f) ray.origin[(axis + 1) % 3] += (u01(rng) < 0.5f ? -bound : bound);
        break;
    }
    case 5: { // two zero components off the axes: a diagonal in one coordinate plane
        const int axis = static_cast<int>(u01(rng) * 3.0f) % 3;
        ray.dir = randomDir();
        ray.dir[axis] = 0.0f;
        ray.origin = aim - ray.dir * (5.0f + 20.0f * u01(rng));
        break;
    }
    default: // a camera at eye height in the room toward the aim
        ray.origin = {unit(rng) * 18.0f, -18.0f + 1.7f, unit(rng) * 18.0f};
        ray.dir = aim - ray.origin;
        break;
    }
    if (glm::length(ray.dir) == 0.0f) ray.dir = {0, 1, 0};
    if (u01(rng) < 0.3f) ray.dir *= std::pow(10.0f, 6.0f * u01(rng) - 3.0f);
    float tMax = INFINITY;
    const float t = u01(rng);
    if (t < 0.2f) {
        tMax = 40.0f * u01(rng) / glm::length(ray.dir);
    } else if (t < 0.25f) {
        tMax = 0.0f;
    } else if (t < 0.35f) { // exactly the nearest t: a hit at tMax counts
        if (const std::optional<float> nearest = nearestT(world, ray)) tMax = *nearest;
    }
    return {ray, tMax};
}

} // namespace kz::test
