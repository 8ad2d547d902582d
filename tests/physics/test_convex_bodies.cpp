// Tests for capsule, cylinder and hull bodies (issue 36's first step: the world's side): their
// mass properties, elastic gases that keep their energy and stay in, no tunnelling at 200 m/s
// into a wall or a 1 cm thick obstacle, a capsule or a cylinder standing on its end, the rolling
// race's textbook accelerations, a tumbling hull's angular momentum, the same bits on every thread
// count, and picking.
#include "geom/gjk.hpp"
#include "geom/mass_properties.hpp"
#include "physics/explain_advancement.hpp"
#include "physics/hull_body.hpp"
#include "physics/job_system.hpp"
#include "physics/obstacle.hpp"
#include "physics/pick.hpp"
#include "physics/state_hash.hpp"
#include "physics/world.hpp"
#include "support/grid_mesh.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace kz;

constexpr float kStep = 1.0f / 120.0f;
constexpr float kPi = std::numbers::pi_v<float>;

BodyDesc capsuleDesc(const glm::vec3& position, float radius, float halfHeight) {
    BodyDesc d;
    d.name = "capsule";
    d.shape = ShapeType::Capsule;
    d.radius = radius;
    d.halfHeight = halfHeight;
    d.position = position;
    return d;
}

BodyDesc cylinderDesc(const glm::vec3& position, float radius, float halfHeight) {
    BodyDesc d = capsuleDesc(position, radius, halfHeight);
    d.name = "cylinder";
    d.shape = ShapeType::Cylinder;
    return d;
}

/// A hull body of `points` placed as those points lie (makeHullBody's centre and rotation).
BodyDesc hullDesc(const std::vector<glm::vec3>& points, const glm::vec3& position = glm::vec3(0.0f),
                  const glm::quat& orientation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) {
    const HullBody made = makeHullBody(points);
    EXPECT_TRUE(made.hull) << made.error;
    BodyDesc d;
    d.name = "hull";
    d.shape = ShapeType::Hull;
    d.hull = made.hull;
    d.position = position + orientation * made.centre;
    d.orientation = orientation * made.rotation;
    return d;
}

/// An irregular convex blob of `count` points about the origin, `size` across.
std::vector<glm::vec3> blobPoints(unsigned seed, int count, float size) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    std::uniform_real_distribution<float> stretch(0.6f, 1.0f);
    std::vector<glm::vec3> points;
    for (int i = 0; i < count; ++i) {
        const glm::vec3 d = glm::normalize(glm::vec3(normal(rng), normal(rng), normal(rng)));
        points.push_back(0.5f * size * stretch(rng) * glm::vec3(1.0f, 0.7f, 0.5f) * d +
                         glm::vec3(0.1f, 0.0f, 0.0f));
    }
    return points;
}

TEST(ConvexBodies, MassAndInertiaFollowTheShapes) {
    World world(boxRoom(glm::vec3(10.0f)));
    BodyDesc capsule = capsuleDesc(glm::vec3(0.0f), 0.2f, 0.5f);
    BodyDesc cylinder = cylinderDesc(glm::vec3(1.0f, 0.0f, 0.0f), 0.3f, 0.25f);
    capsule.density = cylinder.density = 1000.0f;
    world.addBody(capsule);
    world.addBody(cylinder);
    for (const auto& [i, want] : {std::pair{0, massPropertiesOfCapsule(0.2, 0.5)},
                                  std::pair{1, massPropertiesOfCylinder(0.3, 0.25)}}) {
        const Body& b = world.bodies()[std::size_t(i)];
        EXPECT_NEAR(b.mass, 1000.0 * want.volume, 1e-6 * b.mass) << i;
        for (int k = 0; k < 3; ++k)
            EXPECT_NEAR(b.inertiaLocal[k], 1000.0 * want.inertia[k][k], 1e-6 * b.inertiaLocal[k]) << i;
    }
    EXPECT_FLOAT_EQ(world.bodies()[0].radius, 0.7f * (1.0f + 1e-6f)) << "bounding sphere of the capsule";
    EXPECT_EQ(world.bodies()[0].halfExtents, glm::vec3(0.2f, 0.7f, 0.2f));
    EXPECT_EQ(world.bodies()[1].halfExtents, glm::vec3(0.3f, 0.25f, 0.3f));

    // A box's corners, shifted and turned, as a hull: the box's mass, moments and centre.
    const glm::vec3 half(0.1f, 0.3f, 0.2f), centre(2.0f, 1.0f, -1.0f);
    const glm::quat turn = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1.0f, 2.0f, 0.5f)));
    std::vector<glm::vec3> corners;
    for (int i = 0; i < 8; ++i)
        corners.push_back(centre + turn * (glm::vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1) * half));
    BodyDesc hull = hullDesc(corners);
    hull.density = 500.0f;
    world.addBody(hull);
    const Body& b = world.bodies()[2];
    const MassProperties box = massPropertiesOfBox(glm::dvec3(half));
    EXPECT_NEAR(b.mass, 500.0 * box.volume, 1e-5 * b.mass);
    std::vector<double> got{b.inertiaLocal.x, b.inertiaLocal.y, b.inertiaLocal.z};
    std::vector<double> want{box.inertia[0][0], box.inertia[1][1], box.inertia[2][2]};
    std::sort(want.begin(), want.end());
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(got[std::size_t(k)], 500.0 * want[std::size_t(k)], 1e-4 * got[std::size_t(k)]) << k;
    EXPECT_LT(glm::length(b.position - centre), 1e-5f);
    EXPECT_NEAR(b.radius, glm::length(half), 1e-5f);
    EXPECT_LT(world.maxPenetration(), 1e-6f);
}

TEST(ConvexBodies, AHullNotInItsBodyFrameIsRefused) {
    World world(boxRoom(glm::vec3(10.0f)));
    BodyDesc d;
    d.shape = ShapeType::Hull;
    EXPECT_THROW(world.addBody(d), std::invalid_argument) << "no hull";
    const auto off = buildConvexHull(blobPoints(3u, 40, 0.5f)); // off its centroid, unprincipal
    ASSERT_TRUE(off.hull);
    d.hull = std::make_shared<const ConvexHull>(*off.hull);
    EXPECT_THROW(world.addBody(d), std::invalid_argument);
    EXPECT_TRUE(world.bodies().empty());
}

/// `count` bodies of every kind (sphere, box, capsule, cylinder, hull in turn), 0.1 - 0.2 m, at
/// random in a cube room of `room` m on a grid (no overlap), at up to `speed` m/s in random
/// directions, turning up to one turn a second.
std::vector<BodyDesc> mixedBodies(unsigned seed, int count, float room, float speed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f), s(-1.0f, 1.0f);
    const auto unit = [&] {
        glm::vec3 v;
        do {
            v = glm::vec3(s(rng), s(rng), s(rng));
        } while (glm::dot(v, v) > 1.0f || glm::dot(v, v) < 1e-4f);
        return glm::normalize(v);
    };
    const HullBody blob = makeHullBody(blobPoints(seed, 24, 0.35f));
    const int side = int(std::ceil(std::cbrt(double(count))));
    const float cell = room / float(side);
    std::vector<BodyDesc> out;
    for (int i = 0; i < count; ++i) {
        const glm::vec3 at =
            (glm::vec3(i % side, (i / side) % side, i / (side * side)) + 0.5f) * cell - 0.5f * room;
        const float size = 0.1f + 0.1f * u(rng);
        BodyDesc d;
        d.name = "body-" + std::to_string(i);
        switch (i % 5) {
        case 0:
            d.shape = ShapeType::Sphere, d.radius = size;
            break;
        case 1:
            d.shape = ShapeType::Box, d.halfExtents = glm::vec3(size, 0.7f * size, 0.5f * size);
            break;
        case 2:
            d.shape = ShapeType::Capsule, d.radius = 0.5f * size, d.halfHeight = 0.5f * size;
            break;
        case 3:
            d.shape = ShapeType::Cylinder, d.radius = 0.6f * size, d.halfHeight = 0.6f * size;
            break;
        default:
            d.shape = ShapeType::Hull, d.hull = blob.hull;
            break;
        }
        d.position = at;
        d.orientation = glm::angleAxis(kPi * u(rng), unit());
        d.velocity = speed * u(rng) * unit();
        d.angularVelocity = 2.0f * kPi * u(rng) * unit();
        out.push_back(d);
    }
    return out;
}

World makeWorld(float room, const std::vector<BodyDesc>& bodies, WorldSettings settings = {}) {
    World world(boxRoom(glm::vec3(room)), settings);
    for (const BodyDesc& d : bodies)
        world.addBody(d);
    return world;
}

TEST(ConvexBodies, AnElasticGasOfThreeHundredMixedShapesKeepsItsEnergyForTenSeconds) {
    World world = makeWorld(6.0f, mixedBodies(36u, 300, 6.0f, 4.0f));
    ASSERT_LT(world.maxPenetration(), 1e-6f) << "overlapping start";
    const double e0 = world.kineticEnergy();
    double worst = 0.0;
    long impacts = 0;
    for (int i = 0; i < 1200; ++i) {
        world.step();
        impacts += world.lastStepImpacts();
        worst = std::max(worst, std::abs(world.kineticEnergy() - e0) / e0);
    }
    EXPECT_LT(worst, 1e-4) << "energy drift, E0 " << e0 << ", now " << world.kineticEnergy();
    EXPECT_EQ(world.escapedCount(), 0);
    EXPECT_LT(world.maxPenetration(), 0.01f);
    EXPECT_GT(impacts, 1000);
    std::cout << "  300 mixed bodies, 1200 steps: " << impacts << " impacts, worst energy drift " << worst
              << "\n";
}

/// A 1 cm thick wall of `side` m across at x = 0, facing x.
Obstacle thinWall(float side) {
    std::string error;
    ObstacleDesc d;
    d.name = "thin wall";
    d.mesh = test::cubeMesh();
    d.scale = glm::vec3(0.01f, side, side);
    auto o = makeObstacle(d, error);
    EXPECT_TRUE(o) << error;
    return *o;
}

TEST(ConvexBodies, NothingPassesAThinWallOrTheRoomsAt200MetresASecond) {
    const std::vector<glm::vec3> blob = blobPoints(9u, 30, 0.3f);
    for (int kind = 0; kind < 3; ++kind) {
        for (const float angle : {0.0f, 0.6f, 1.3f}) {
            SCOPED_TRACE("kind " + std::to_string(kind) + " angle " + std::to_string(angle));
            World world(boxRoom(glm::vec3(8.0f)));
            world.addObstacle(thinWall(7.95f)); // across the 8 m room: nothing goes round it
            const glm::vec3 start(-2.0f, 0.3f * angle, 0.2f);
            const glm::quat turn = glm::angleAxis(angle, glm::normalize(glm::vec3(0.3f, 0.2f, 1.0f)));
            BodyDesc d = kind == 0   ? capsuleDesc(start, 0.05f, 0.1f)
                         : kind == 1 ? cylinderDesc(start, 0.08f, 0.05f)
                                     : hullDesc(blob, start, turn);
            if (kind != 2) d.orientation = turn;
            d.velocity = glm::vec3(200.0f, 0.0f, 0.0f);
            d.angularVelocity = glm::vec3(0.0f, 30.0f * angle, 50.0f);
            const int i = world.addBody(d);
            float largestX = -INFINITY;
            for (int s = 0; s < 120; ++s) {
                world.step();
                largestX = std::max(largestX, world.bodies()[std::size_t(i)].position.x);
            }
            EXPECT_LT(largestX, 0.0f) << "passed the 1 cm wall at x = 0";
            EXPECT_EQ(world.escapedCount(), 0);
            EXPECT_NEAR(world.kineticEnergy(), kineticEnergy(world.bodies()[0]), 0.0);
            const double e = world.kineticEnergy();
            World fresh(boxRoom(glm::vec3(8.0f)));
            fresh.addBody(d);
            EXPECT_NEAR(e, fresh.kineticEnergy(), 1e-3 * e)
                << "elastic bounces keep the energy (spins reach 2,000 rad/s)";
        }
    }
}

WorldSettings gravity(const glm::vec3& g) {
    WorldSettings s;
    s.gravity = g;
    return s;
}

TEST(ConvexBodies, ACapsuleOrACylinderStoodOnItsEndStaysUp) {
    for (const bool capsule : {true, false}) {
        SCOPED_TRACE(capsule ? "capsule" : "cylinder");
        World world(boxRoom(glm::vec3(4.0f)), gravity(glm::vec3(0.0f, -9.81f, 0.0f)));
        const float r = 0.1f, h = 0.3f;
        const float centre = -2.0f + h + (capsule ? r : 0.0f);
        BodyDesc d = capsule ? capsuleDesc(glm::vec3(0.3f, centre, -0.2f), r, h)
                             : cylinderDesc(glm::vec3(0.3f, centre, -0.2f), r, h);
        d.friction = 0.5f;
        d.restitution = 0.0f;
        world.addBody(d);
        for (int s = 0; s < 600; ++s)
            world.step();
        const Body& b = world.bodies()[0];
        const glm::vec3 axis = b.orientation * glm::vec3(0.0f, 1.0f, 0.0f);
        EXPECT_GT(std::abs(axis.y), 0.9999f) << "fell over";
        EXPECT_NEAR(b.position.y, centre, 2e-3f) << "sank or jumped";
        EXPECT_LT(glm::length(b.velocity), 1e-2f);
    }
}

TEST(ConvexBodies, TheRollingRaceFollowsTheTextbookAccelerations) {
    // Rolling without slipping down a slope of angle theta: a = g sin(theta) / (1 + k), k = I / (m r^2):
    // 2/5 for a ball, 1/2 for a cylinder, the capsule's own. The slope is the floor with gravity
    // tilted by theta; each body lies with its axis across the fall line (z).
    const float theta = 20.0f * kPi / 180.0f, g = 9.81f;
    const glm::vec3 down(std::sin(theta) * g, -std::cos(theta) * g, 0.0f);
    const float r = 0.15f, h = 0.25f;
    const MassProperties capsule = massPropertiesOfCapsule(r, h);
    const double kCapsule = capsule.inertia[1][1] / (capsule.volume * r * r);
    const glm::quat lying = glm::angleAxis(0.5f * kPi, glm::vec3(1.0f, 0.0f, 0.0f)); // y axis -> z
    struct Racer {
        const char* name;
        BodyDesc desc;
        double k;
    };
    BodyDesc ball;
    ball.shape = ShapeType::Sphere;
    ball.radius = r;
    // In the textbook's order of arrival: the ball, the capsule (k between 2/5 and 1/2), the cylinder.
    std::vector<Racer> racers{{"ball", ball, 0.4},
                              {"capsule", capsuleDesc(glm::vec3(0.0f), r, h), kCapsule},
                              {"cylinder", cylinderDesc(glm::vec3(0.0f), r, h), 0.5}};
    double lastArrival = 0.0;
    for (Racer& racer : racers) {
        SCOPED_TRACE(racer.name);
        World world(boxRoom(glm::vec3(20.0f)), gravity(down));
        racer.desc.position = glm::vec3(-8.0f, -10.0f + r, 0.0f);
        if (racer.desc.shape != ShapeType::Sphere) racer.desc.orientation = lying;
        racer.desc.friction = 1.0f;
        racer.desc.restitution = 0.0f;
        world.addBody(racer.desc);
        for (int s = 0; s < 30; ++s) // settle onto the floor
            world.step();
        const glm::vec3 x0 = world.bodies()[0].position, v0 = world.bodies()[0].velocity;
        const int steps = 120;
        for (int s = 0; s < steps; ++s)
            world.step();
        const double t = steps * double(kStep);
        // Symplectic Euler covers v0 t + a t (t + h) / 2.
        const double a =
            2.0 * (double(world.bodies()[0].position.x - x0.x) - double(v0.x) * t) / (t * (t + kStep));
        const double want = g * std::sin(theta) / (1.0 + racer.k);
        EXPECT_NEAR(a, want, 5e-3 * want) << "k " << racer.k;
        // Each contact point's friction acts along its own slip, so a capsule rocking between its
        // two ends wanders a little across the slope (1.3 cm over the 1.2 m it rolls).
        EXPECT_LT(std::abs(world.bodies()[0].position.z - x0.z), 0.02f) << "rolled sideways";
        EXPECT_NEAR(world.bodies()[0].position.y, x0.y, 1e-3f) << "left the slope";
        // The textbook order: the larger k, the later down the slope.
        const double arrival = 1.0 / std::sqrt(want);
        EXPECT_GT(arrival, lastArrival);
        lastArrival = arrival;
    }
}

TEST(ConvexBodies, ATumblingHullKeepsItsAngularMomentumExactly) {
    World world(boxRoom(glm::vec3(50.0f)));
    BodyDesc d = hullDesc(blobPoints(21u, 40, 0.6f));
    d.angularVelocity = glm::vec3(3.0f, -7.0f, 11.0f); // about no principal axis: it tumbles
    world.addBody(d);
    const glm::vec3 momentum = world.bodies()[0].angularMomentum;
    const double e0 = world.kineticEnergy();
    for (int s = 0; s < 1200; ++s)
        world.step();
    EXPECT_EQ(std::memcmp(&momentum, &world.bodies()[0].angularMomentum, sizeof momentum), 0);
    EXPECT_NEAR(world.kineticEnergy(), e0, 1e-6 * e0);
    EXPECT_GT(glm::length(world.bodies()[0].angularVelocity - d.angularVelocity), 0.1f) << "it should tumble";
}

TEST(ConvexBodies, AMixedWorldStepsToTheSameBitsOnOneAndTwoThreads) {
    const std::vector<BodyDesc> bodies = mixedBodies(5u, 400, 5.0f, 3.0f);
    WorldSettings settings = gravity(glm::vec3(0.0f, -9.81f, 0.0f));
    World alone = makeWorld(5.0f, bodies, settings);
    World threaded(alone);
    threaded.setJobs(std::make_shared<JobSystem>(2));
    for (int s = 0; s < 150; ++s) {
        alone.step();
        threaded.step();
    }
    EXPECT_EQ(stateHash(threaded), stateHash(alone));
    EXPECT_EQ(stateDifference(threaded, alone), "");
    EXPECT_GT(alone.contacts().size(), 0u);
}

TEST(ConvexBodies, WhyHereGivesEachImpactOfAMixedGasItsTimeBitForBit) {
    // The impact log's "Why here?" runs a recorded impact's search again: for pairs with capsules,
    // cylinders and hulls, on walls and on each other, the same time to the bit.
    World world = makeWorld(4.0f, mixedBodies(77u, 120, 4.0f, 5.0f));
    int checked = 0;
    for (int s = 0; s < 60; ++s) {
        world.step();
        for (const ImpactRecord& r : world.impacts()) {
            const Body& body = world.bodies()[std::size_t(r.body)];
            const bool convex =
                isConvexShape(body.shape) ||
                (r.partner.isBody() && isConvexShape(world.bodies()[std::size_t(r.partner.index)].shape));
            if (!convex) continue;
            const AdvancementTrace why = world.explainImpact(r);
            ASSERT_TRUE(why.valid) << "step " << s;
            EXPECT_EQ(why.method, r.method);
            const double again = r.search.time + static_cast<double>(why.time);
            EXPECT_EQ(std::bit_cast<std::uint64_t>(again), std::bit_cast<std::uint64_t>(r.time))
                << "step " << s;
            ++checked;
        }
    }
    EXPECT_GT(checked, 50);
}

TEST(ConvexBodies, APickRayHitsCapsulesCylindersAndHullsOnTheirSurface) {
    World world(boxRoom(glm::vec3(10.0f)));
    world.addBody(capsuleDesc(glm::vec3(-2.0f, 0.0f, 0.0f), 0.3f, 0.5f));
    world.addBody(cylinderDesc(glm::vec3(0.0f, 0.0f, 0.0f), 0.3f, 0.5f));
    world.addBody(hullDesc(blobPoints(4u, 30, 0.8f), glm::vec3(2.0f, 0.0f, 0.0f)));
    for (int i = 0; i < 3; ++i) {
        const Body& b = world.bodies()[std::size_t(i)];
        const Ray ray{b.position + glm::vec3(0.05f, 0.1f, 4.0f), glm::vec3(0.0f, 0.0f, -1.0f)};
        const auto hit = pickNearest(world, ray);
        ASSERT_TRUE(hit) << i;
        EXPECT_EQ(hit->body, i);
        const GjkResult onSurface = closestPtConvexConvex(Sphere{hit->hit.point, 0.0f}, convexOf(b));
        EXPECT_LT(onSurface.distance, 1e-4f) << i;
        EXPECT_GT(hit->hit.t, 3.0f) << i;
    }
    // A capsule's round end: the ray along its axis meets the cap at radius + half height.
    const auto end = pickNearest(world, Ray{glm::vec3(-2.0f, 4.0f, 0.0f), glm::vec3(0.0f, -1.0f, 0.0f)});
    ASSERT_TRUE(end);
    EXPECT_NEAR(end->hit.t, 4.0f - 0.8f, 1e-5f);
}

} // namespace
