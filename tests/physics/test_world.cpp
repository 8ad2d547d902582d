// Tests for physics/world.hpp: scenarios with exact expectations (velocity exchange, right-angle
// scattering, a 1-D event-driven reference solution), conservation of momentum and energy over
// long runs, settling under gravity, tunnelling at high speed, determinism, the impact preview
// and the fixed-step accumulator. Random set-ups use fixed seeds, printed on failure.
#include "geom/closest.hpp"
#include "geom/contact.hpp"
#include "geom/plane.hpp"
#include "physics/body_bvh.hpp"
#include "physics/job_system.hpp"
#include "physics/state_hash.hpp"
#include "physics/world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using kz::BodyDesc;
using kz::ShapeType;
using kz::World;
using kz::WorldSettings;

constexpr float kStep = 1.0f / 120.0f;
constexpr float kPi = std::numbers::pi_v<float>;

std::string str(const glm::vec3& v) {
    std::ostringstream os;
    os.precision(9);
    os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return os.str();
}

std::string str(const glm::dvec3& v) {
    std::ostringstream os;
    os.precision(12);
    os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return os.str();
}

BodyDesc sphereDesc(const glm::vec3& position, const glm::vec3& velocity, float radius = 0.5f,
                    float mass = 1.0f) {
    BodyDesc d;
    d.name = "sphere";
    d.shape = ShapeType::Sphere;
    d.radius = radius;
    d.position = position;
    d.velocity = velocity;
    d.mass = mass;
    d.restitution = 1.0f;
    d.friction = 0.0f;
    return d;
}

BodyDesc boxDesc(const glm::vec3& position, const glm::vec3& half, const glm::quat& orientation,
                 const glm::vec3& velocity, const glm::vec3& angularVelocity, float mass = 1.0f) {
    BodyDesc d;
    d.name = "box";
    d.shape = ShapeType::Box;
    d.halfExtents = half;
    d.position = position;
    d.orientation = orientation;
    d.velocity = velocity;
    d.angularVelocity = angularVelocity;
    d.mass = mass;
    d.restitution = 1.0f;
    d.friction = 0.0f;
    return d;
}

glm::quat randomRotation(std::mt19937& rng) {
    std::normal_distribution<float> g(0.0f, 1.0f);
    return glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
}

glm::vec3 randomUnit(std::mt19937& rng) {
    std::normal_distribution<float> g(0.0f, 1.0f);
    for (;;) {
        const glm::vec3 v(g(rng), g(rng), g(rng));
        const float length = glm::length(v);
        if (length > 1e-3f) return v / length;
    }
}

struct RandomSetup {
    int count;
    float roomHalf;    ///< The room is boxRoom(2 * roomHalf).
    float minSize;     ///< Sphere radius / box half extent, lower bound.
    float maxSize;     ///< Upper bound.
    float maxSpeed;    ///< Speeds uniform in [0, maxSpeed] (or exactly maxSpeed if fixedSpeed).
    float maxSpin;     ///< Angular speed of boxes, uniform in [0, maxSpin].
    bool fixedSpeed;   ///< Every body at maxSpeed.
    float boxFraction; ///< Share of boxes.
    float mass;        ///< 0: from density.
};

/// Non-overlapping bodies: one per cell of a grid whose cells hold the largest bounding sphere,
/// cells picked at random, centres jittered within the cell's slack.
std::vector<BodyDesc> randomBodies(unsigned seed, const RandomSetup& setup) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const float maxBounding = setup.maxSize * std::sqrt(3.0f);
    const float cell = 2.0f * maxBounding + 0.02f;
    const int perAxis = static_cast<int>((2.0f * setup.roomHalf - 0.1f) / cell);
    std::vector<int> cells(static_cast<std::size_t>(perAxis * perAxis * perAxis));
    for (std::size_t i = 0; i < cells.size(); ++i)
        cells[i] = static_cast<int>(i);
    std::shuffle(cells.begin(), cells.end(), rng);
    if (static_cast<int>(cells.size()) < setup.count) ADD_FAILURE() << "room too small for the set-up";
    const float origin = -0.5f * static_cast<float>(perAxis) * cell;
    std::vector<BodyDesc> bodies;
    for (int i = 0; i < setup.count && i < static_cast<int>(cells.size()); ++i) {
        const int c = cells[static_cast<std::size_t>(i)];
        const glm::ivec3 index(c % perAxis, (c / perAxis) % perAxis, c / (perAxis * perAxis));
        const bool box = unit(rng) < setup.boxFraction;
        const auto size = [&] { return setup.minSize + (setup.maxSize - setup.minSize) * unit(rng); };
        const glm::vec3 half = box ? glm::vec3(size(), size(), size()) : glm::vec3(size());
        const float bounding = glm::length(half) * (box ? 1.0f : 1.0f / std::sqrt(3.0f));
        const float slack = 0.5f * cell - bounding - 0.01f;
        glm::vec3 centre = glm::vec3(origin) + (glm::vec3(index) + 0.5f) * cell;
        centre += slack * (2.0f * glm::vec3(unit(rng), unit(rng), unit(rng)) - 1.0f);
        const float speed = setup.fixedSpeed ? setup.maxSpeed : setup.maxSpeed * unit(rng);
        const glm::vec3 velocity = speed * randomUnit(rng);
        BodyDesc d;
        if (box) {
            d = boxDesc(centre, half, randomRotation(rng), velocity,
                        setup.maxSpin * unit(rng) * randomUnit(rng));
        } else {
            d = sphereDesc(centre, velocity, half.x);
        }
        d.mass = setup.mass;
        bodies.push_back(d);
    }
    return bodies;
}

World makeWorld(const kz::Room& room, const std::vector<BodyDesc>& bodies, WorldSettings settings = {}) {
    World world(room, settings);
    for (const BodyDesc& d : bodies)
        world.addBody(d);
    return world;
}

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// ---------------------------------------------------------------------------------------------
// Two-body hits with exact answers

TEST(World, EqualSpheresMeetingHeadOnElasticallyExchangeVelocities) {
    World world(kz::boxRoom(glm::vec3(100.0f)));
    world.addBody(sphereDesc({-1.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}));
    world.addBody(sphereDesc({1.0f, 0.0f, 0.0f}, {-1.0f, 0.0f, 0.0f}));
    for (int i = 0; i < 120; ++i) // they meet at t = 1/3 s
        world.step();
    const auto bodies = world.bodies();
    EXPECT_NEAR(glm::length(bodies[0].velocity - glm::vec3(-1.0f, 0.0f, 0.0f)), 0.0f, 1e-5f)
        << str(bodies[0].velocity);
    EXPECT_NEAR(glm::length(bodies[1].velocity - glm::vec3(2.0f, 0.0f, 0.0f)), 0.0f, 1e-5f)
        << str(bodies[1].velocity);
    EXPECT_EQ(bodies[0].angularVelocity, glm::vec3(0.0f));
    EXPECT_EQ(bodies[1].angularVelocity, glm::vec3(0.0f));
    // Exact flight: contact at t = 1/3 at x = -1/3 and 2/3, then 2/3 s with swapped velocities.
    EXPECT_NEAR(bodies[0].position.x, -1.0f / 3.0f - 2.0f / 3.0f, 2e-3f);
    EXPECT_NEAR(bodies[1].position.x, 2.0f / 3.0f + 4.0f / 3.0f, 2e-3f);
    EXPECT_EQ(bodies[0].position.y, 0.0f);
    EXPECT_EQ(bodies[1].position.z, 0.0f);
}

TEST(World, OffCentreElasticHitOfEqualFrictionlessSpheresLeavesThemMovingAtRightAngles) {
    const float offsets[] = {0.1f, 0.3f, 0.5f, 0.7f, 0.9f};
    for (float offset : offsets) {
        SCOPED_TRACE("impact parameter " + std::to_string(offset));
        World world(kz::boxRoom(glm::vec3(100.0f)));
        const glm::vec3 v0(3.0f, 0.0f, 0.0f);
        world.addBody(sphereDesc({-2.0f, offset, 0.0f}, v0));
        world.addBody(sphereDesc({0.0f, 0.0f, 0.0f}, glm::vec3(0.0f))); // at rest
        for (int i = 0; i < 120; ++i)
            world.step();
        const glm::vec3 va = world.bodies()[0].velocity, vb = world.bodies()[1].velocity;
        ASSERT_GT(glm::length(va), 0.1f) << str(va);
        ASSERT_GT(glm::length(vb), 0.1f) << str(vb);
        const float cosine = glm::dot(va, vb) / (glm::length(va) * glm::length(vb));
        EXPECT_NEAR(cosine, 0.0f, 1e-5f) << str(va) << " " << str(vb);
        EXPECT_NEAR(glm::dot(va, va) + glm::dot(vb, vb), glm::dot(v0, v0), 1e-4f);
        EXPECT_NEAR(glm::length(va + vb - v0), 0.0f, 1e-5f);
        // B leaves along the line of centres at contact: sin(angle) = offset / (rA + rB).
        const float sine = offset / 1.0f;
        EXPECT_NEAR(std::abs(vb.y) / glm::length(vb), sine, 2e-3f);
        // Frictionless: the impulse passes through both centres, no spin (but for float rounding).
        EXPECT_LT(glm::length(world.bodies()[0].angularVelocity), 1e-5f);
        EXPECT_LT(glm::length(world.bodies()[1].angularVelocity), 1e-5f);
    }
}

// ---------------------------------------------------------------------------------------------
// Conservation

TEST(World, MomentumIsConservedInBodyBodyHitsOfSpheresAndBoxes) {
    struct Material {
        float restitution, friction;
    };
    const Material materials[] = {{1.0f, 0.0f}, {0.5f, 0.5f}, {0.0f, 1.0f}};
    const unsigned seed = 2024u;
    for (const Material& material : materials) {
        SCOPED_TRACE("seed " + std::to_string(seed) + ", restitution " +
                     std::to_string(material.restitution) + ", friction " +
                     std::to_string(material.friction));
        // A crowd of 40 bodies in the middle of a 100 m room, flying at each other.
        std::vector<BodyDesc> bodies =
            randomBodies(seed, {40, 2.5f, 0.15f, 0.3f, 2.0f, 5.0f, false, 0.5f, 0.0f});
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> massOf(0.5f, 5.0f);
        for (BodyDesc& d : bodies) {
            d.velocity -= 0.8f * d.position; // converge on the centre
            d.restitution = material.restitution;
            d.friction = material.friction;
            d.mass = massOf(rng);
        }
        World world = makeWorld(kz::boxRoom(glm::vec3(100.0f)), bodies);
        const glm::dvec3 p0 = world.linearMomentum();
        double scale = 0.0; // sum of |m v|: the momentum scale
        for (const kz::Body& b : world.bodies())
            scale += static_cast<double>(b.mass) * glm::length(glm::dvec3(b.velocity));
        int bodyContacts = 0;
        double worst = 0.0;
        for (int i = 0; i < 600; ++i) {
            world.step();
            for (const kz::ContactInfo& c : world.contacts())
                bodyContacts += c.bodyB >= 0 ? 1 : 0;
            worst = std::max(worst, glm::length(world.linearMomentum() - p0) / scale);
            for (const kz::ContactInfo& c : world.contacts())
                ASSERT_GE(c.bodyB, 0) << "a body reached a wall at step " << i;
        }
        EXPECT_GT(bodyContacts, 40);
        EXPECT_LT(worst, 1e-4) << "p0 " << str(p0) << " now " << str(world.linearMomentum());
    }
}

TEST(World, FreeSpinningAsymmetricBoxKeepsItsAngularMomentumAndEnergy) {
    struct Spin {
        const char* name;
        glm::vec3 angularVelocity; ///< Body frame at the start (the box starts unrotated or not).
        bool rotated;
    };
    // Half extents 0.1, 0.2, 0.4: I_x > I_y > I_z, so y is the unstable (intermediate) axis.
    const Spin spins[] = {
        {"generic", {3.0f, 5.0f, -7.0f}, true},
        {"near the intermediate axis (tumbles)", {0.05f, 6.0f, 0.05f}, false},
        {"fast about the smallest axis", {0.3f, 0.2f, 40.0f}, true},
    };
    for (const Spin& spin : spins) {
        SCOPED_TRACE(spin.name);
        World world(kz::boxRoom(glm::vec3(100.0f)));
        const glm::quat q = spin.rotated ? glm::angleAxis(0.9f, glm::normalize(glm::vec3(1.0f, -2.0f, 0.5f)))
                                         : glm::quat(1, 0, 0, 0);
        world.addBody(
            boxDesc(glm::vec3(0.0f), {0.1f, 0.2f, 0.4f}, q, glm::vec3(0.0f), q * spin.angularVelocity, 3.0f));
        const glm::dvec3 l0 = world.angularMomentum();
        const double e0 = world.kineticEnergy();
        double worstL = 0.0, worstE = 0.0;
        float minBodyY = INFINITY, maxBodyY = -INFINITY;
        for (int i = 0; i < 10000; ++i) {
            world.step();
            worstL = std::max(worstL, glm::length(world.angularMomentum() - l0) / glm::length(l0));
            worstE = std::max(worstE, std::abs(world.kineticEnergy() - e0) / e0);
            const kz::Body& b = world.bodies()[0];
            const float y = (glm::inverse(b.orientation) * b.angularVelocity).y;
            minBodyY = std::min(minBodyY, y);
            maxBodyY = std::max(maxBodyY, y);
        }
        const kz::Body& b = world.bodies()[0];
        EXPECT_LT(worstL, 1e-5) << "L0 " << str(l0) << " now " << str(world.angularMomentum());
        EXPECT_LT(worstE, 1e-4) << "E0 " << e0 << " now " << world.kineticEnergy();
        EXPECT_NEAR(glm::length(b.orientation), 1.0f, 1e-5f);
        EXPECT_EQ(b.position, glm::vec3(0.0f));
        if (spin.angularVelocity.y == 6.0f) {
            // The Dzhanibekov flip: the spin about body y reverses.
            EXPECT_LT(minBodyY, -5.0f);
            EXPECT_GT(maxBodyY, 5.0f);
        }
    }
}

/// Two equal balls on the x axis between walls at +-5 (radius 0.5), elastic: the exact event
/// sequence in double precision. A stays left of B: A only meets the left wall, B the right.
void classicReference(double t, double& xA, double& vA, double& xB, double& vB) {
    constexpr double kLimit = 4.5; // wall minus radius
    constexpr double kReach = 1.0; // rA + rB
    double now = 0.0;
    for (int event = 0; event < 100000; ++event) {
        const double toLeft = vA < 0.0 ? (-kLimit - xA) / vA : INFINITY;
        const double toRight = vB > 0.0 ? (kLimit - xB) / vB : INFINITY;
        const double toBall = vA > vB ? ((xB - xA) - kReach) / (vA - vB) : INFINITY;
        const double dt = std::min({toLeft, toRight, toBall});
        if (now + dt > t) break;
        now += dt;
        xA += vA * dt;
        xB += vB * dt;
        if (dt == toBall) {
            std::swap(vA, vB);
        } else if (dt == toLeft) {
            vA = -vA;
        } else {
            vB = -vB;
        }
    }
    xA += vA * (t - now);
    xB += vB * (t - now);
}

TEST(World, ClassicTwoBallSetUpFollowsTheExactEventDrivenSolution) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc({-2.0f, 0.0f, 0.0f}, {3.0f, 0.0f, 0.0f}));
    world.addBody(sphereDesc({2.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}));
    std::ostringstream log;
    double worst = 0.0;
    for (int i = 1; i <= 1200; ++i) {
        world.step();
        double xA = -2.0, vA = 3.0, xB = 2.0, vB = 1.0;
        classicReference(static_cast<double>(i) / 120.0, xA, vA, xB, vB);
        const double errA = std::abs(static_cast<double>(world.bodies()[0].position.x) - xA);
        const double errB = std::abs(static_cast<double>(world.bodies()[1].position.x) - xB);
        if (i % 120 == 0) {
            log << "t=" << i / 120 << "s A " << world.bodies()[0].position.x << " (exact " << xA << ") B "
                << world.bodies()[1].position.x << " (exact " << xB << ")\n";
        }
        worst = std::max({worst, errA, errB});
    }
    double xA = -2.0, vA = 3.0, xB = 2.0, vB = 1.0;
    classicReference(10.0, xA, vA, xB, vB);
    const kz::Body& a = world.bodies()[0];
    const kz::Body& b = world.bodies()[1];
    EXPECT_EQ(world.stepCount(), 1200u);
    EXPECT_NEAR(a.position.x, xA, 1e-3) << log.str();
    EXPECT_NEAR(b.position.x, xB, 1e-3);
    EXPECT_NEAR(a.velocity.x, vA, 1e-5);
    EXPECT_NEAR(b.velocity.x, vB, 1e-5);
    EXPECT_EQ(a.position.y, 0.0f);
    EXPECT_EQ(b.position.z, 0.0f);
    EXPECT_LT(worst, 1e-3) << "largest error over the 1200 steps";
}

TEST(World, SphereAndBoxKeepTheirKineticEnergyOverTenThousandSteps) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc({-2.0f, 1.0f, 0.5f}, {3.0f, -1.5f, 2.0f}, 0.5f, 1.0f));
    world.addBody(boxDesc({2.0f, -1.0f, -0.5f}, {0.3f, 0.5f, 0.8f},
                          glm::angleAxis(0.6f, glm::normalize(glm::vec3(1.0f, 1.0f, 0.0f))),
                          {-2.0f, 2.5f, -1.0f}, {2.0f, -3.0f, 1.0f}, 2.0f));
    const double e0 = world.kineticEnergy();
    double worst = 0.0;
    int worstStep = -1, impacts = 0;
    for (int i = 0; i < 10000; ++i) {
        world.step();
        impacts += world.lastStepImpacts();
        const double error = std::abs(world.kineticEnergy() - e0) / e0;
        if (error > worst) {
            worst = error;
            worstStep = i;
        }
    }
    EXPECT_GT(impacts, 100);
    EXPECT_LT(worst, 1e-3) << "at step " << worstStep << ", E0 " << e0 << ", now " << world.kineticEnergy();
    EXPECT_EQ(world.escapedCount(), 0);
}

TEST(World, ThousandMixedBodiesKeepTheirKineticEnergyOverTenThousandSteps) {
    const unsigned seed = 777u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    // Boxes (random orientations and spins) and spheres, sizes 0.1 - 0.2 m, up to 5 m/s, 10 m room.
    const std::vector<BodyDesc> bodies =
        randomBodies(seed, {1000, 5.0f, 0.1f, 0.2f, 5.0f, 10.0f, false, 0.5f, 0.0f});
    ASSERT_EQ(bodies.size(), 1000u);
    World world = makeWorld(kz::boxRoom(glm::vec3(10.0f)), bodies);
    ASSERT_LT(world.maxPenetration(), 1e-6f) << "overlapping start";
    const double e0 = world.kineticEnergy();
    double worst = 0.0;
    int worstStep = -1;
    long impacts = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 10000; ++i) {
        world.step();
        impacts += world.lastStepImpacts();
        const double error = std::abs(world.kineticEnergy() - e0) / e0;
        if (error > worst) {
            worst = error;
            worstStep = i;
        }
        if (i % 1000 == 999) {
            std::cout << "  step " << i + 1 << ": energy error " << (world.kineticEnergy() - e0) / e0
                      << ", impacts so far " << impacts << ", " << seconds(start) << " s\n";
        }
    }
    EXPECT_LT(worst, 1e-3) << "at step " << worstStep << ", E0 " << e0 << ", now " << world.kineticEnergy();
    EXPECT_EQ(world.escapedCount(), 0);
    std::cout << "  1000 bodies x 10000 steps: " << seconds(start) << " s, " << impacts << " impacts\n";
}

// ---------------------------------------------------------------------------------------------
// Gravity: settling

WorldSettings earth() {
    WorldSettings s;
    s.gravity = {0.0f, -9.81f, 0.0f};
    return s;
}

TEST(World, BoxDroppedOnACornerStartsSpinningAndComesToRestFaceDown) {
    const glm::vec3 half(0.4f, 0.25f, 0.3f);
    // Turn the (+,+,+) corner's diagonal to point straight down, then tilt 5 degrees off balance.
    const glm::quat cornerDown = glm::quat(glm::normalize(half), glm::vec3(0.0f, -1.0f, 0.0f));
    const glm::quat q = glm::angleAxis(5.0f * kPi / 180.0f, glm::vec3(0.0f, 0.0f, 1.0f)) * cornerDown;
    World world(kz::boxRoom(glm::vec3(10.0f)), earth());
    BodyDesc d = boxDesc({0.3f, -3.0f, 0.2f}, half, q, glm::vec3(0.0f), glm::vec3(0.0f), 2.0f);
    d.restitution = 0.2f;
    d.friction = 0.5f;
    world.addBody(d);
    float maxSpin = 0.0f;
    for (int i = 0; i < 600; ++i) {
        world.step();
        maxSpin = std::max(maxSpin, glm::length(world.bodies()[0].angularVelocity));
    }
    const kz::Body& b = world.bodies()[0];
    EXPECT_GT(maxSpin, 1.0f) << "it should topple";
    EXPECT_LT(glm::length(b.velocity), 1e-2f) << str(b.velocity);
    EXPECT_LT(glm::length(b.angularVelocity), 1e-2f) << str(b.angularVelocity);
    // One local axis vertical within 1 degree; the centre half that extent above the floor.
    const glm::mat3 axes = glm::mat3_cast(b.orientation);
    int vertical = 0;
    for (int k = 1; k < 3; ++k) {
        if (std::abs(axes[k].y) > std::abs(axes[vertical].y)) vertical = k;
    }
    EXPECT_GT(std::abs(axes[vertical].y), std::cos(1.0f * kPi / 180.0f))
        << "axis " << vertical << " is " << str(axes[vertical]);
    EXPECT_NEAR(b.position.y, -5.0f + half[vertical], 2e-3f) << "resting on axis " << vertical;
}

// ---------------------------------------------------------------------------------------------
// Friction against textbook answers

/// The angle (degrees) by which `now` has turned from `before` about the unit axis `n`.
float turnAbout(const glm::quat& before, const glm::quat& now, const glm::vec3& n) {
    // Compare a body axis that lies (nearly) in the plane normal to n.
    const glm::vec3 local =
        std::abs(glm::dot(before * glm::vec3(1, 0, 0), n)) < 0.7f ? glm::vec3(1, 0, 0) : glm::vec3(0, 0, 1);
    const glm::vec3 a = before * local, b = now * local;
    const glm::vec3 pa = glm::normalize(a - glm::dot(a, n) * n), pb = glm::normalize(b - glm::dot(b, n) * n);
    return std::atan2(glm::dot(glm::cross(pa, pb), n), glm::dot(pa, pb)) * 180.0f / kPi;
}

TEST(World, BoxSlidingDownAnInclineCoversTheTextbookDistanceWithoutTurning) {
    // A 0.5 m cube on a 25 degree incline with friction 0.3 slides (tan 25 > 0.3) with
    // a = g (sin 25 - 0.3 cos 25). Symmetric and sliding straight down, it feels no torque about
    // the slope's normal, so it must not yaw; nor may it drift sideways. Several headings on the
    // slope (the face's four contact points symmetric about the fall line or not).
    const float slope = 25.0f * kPi / 180.0f, mu = 0.3f;
    const glm::vec3 n(std::sin(slope), std::cos(slope), 0.0f);
    const glm::vec3 down(std::cos(slope), -std::sin(slope), 0.0f);
    const glm::vec3 side = glm::cross(n, down);
    const std::vector<kz::Plane> planes = {{n, 0.0f},           {{0, -1, 0}, 20.0f}, {{1, 0, 0}, 20.0f},
                                           {{-1, 0, 0}, 20.0f}, {{0, 0, 1}, 20.0f},  {{0, 0, -1}, 20.0f}};
    const kz::RoomResult room = kz::makeRoom(planes);
    ASSERT_TRUE(room.room) << room.error;
    const float a = 9.81f * (std::sin(slope) - mu * std::cos(slope));
    for (const float headingDeg : {0.0f, 30.0f, 45.0f, 71.0f}) {
        SCOPED_TRACE("heading " + std::to_string(headingDeg) + " degrees");
        World world(*room.room, earth());
        const glm::quat onSlope = glm::angleAxis(headingDeg * kPi / 180.0f, n) *
                                  glm::angleAxis(-slope, glm::vec3(0.0f, 0.0f, 1.0f));
        BodyDesc d = boxDesc(-8.0f * down + 0.25f * n, glm::vec3(0.25f), onSlope, glm::vec3(0.0f),
                             glm::vec3(0.0f), 2.0f);
        d.restitution = 0.0f;
        d.friction = mu;
        world.addBody(d);
        const glm::vec3 start = world.bodies()[0].position;
        float worstYaw = 0.0f, worstSide = 0.0f;
        for (int i = 1; i <= 360; ++i) {
            world.step();
            const kz::Body& b = world.bodies()[0];
            worstYaw = std::max(worstYaw, std::abs(turnAbout(onSlope, b.orientation, n)));
            worstSide = std::max(worstSide, std::abs(glm::dot(b.position - start, side)));
        }
        const float t = 360.0f * kStep;
        const float along = glm::dot(world.bodies()[0].position - start, down);
        // Symplectic Euler (v += a h, then x += v h) covers exactly a t (t + h) / 2.
        EXPECT_NEAR(along, 0.5f * a * t * (t + kStep), 5e-4f * along);
        EXPECT_NEAR(along, 0.5f * a * t * t, 3e-3f * along) << "the textbook distance";
        EXPECT_LT(worstYaw, 0.5f) << "degrees of yaw about the slope's normal";
        EXPECT_LT(worstSide, 1e-3f) << "metres of sideways drift";
    }
}

TEST(World, BoxSlidingAtAnAngleAcrossTheFloorKeepsItsHeadingAndStopsAtTheTextbookDistance) {
    // Thrown across the floor at 20 degrees to its own edges, a box slides straight and stops
    // after v^2 / (2 mu g), without turning.
    const float mu = 0.3f, speed = 3.0f;
    for (const float headingDeg : {0.0f, 20.0f, 45.0f}) {
        SCOPED_TRACE("heading " + std::to_string(headingDeg) + " degrees");
        World world(kz::boxRoom(glm::vec3(20.0f)), earth());
        const glm::quat heading = glm::angleAxis(headingDeg * kPi / 180.0f, glm::vec3(0, 1, 0));
        const glm::vec3 direction = glm::normalize(glm::vec3(std::cos(0.35f), 0.0f, std::sin(0.35f)));
        BodyDesc d = boxDesc({-5.0f, -10.0f + 0.2f, 0.0f}, {0.4f, 0.2f, 0.3f}, heading, speed * direction,
                             glm::vec3(0.0f), 3.0f);
        d.restitution = 0.0f;
        d.friction = mu;
        world.addBody(d);
        const glm::vec3 start = world.bodies()[0].position;
        float worstYaw = 0.0f;
        for (int i = 1; i <= 240; ++i) {
            world.step();
            worstYaw = std::max(
                worstYaw, std::abs(turnAbout(heading, world.bodies()[0].orientation, glm::vec3(0, 1, 0))));
        }
        const kz::Body& b = world.bodies()[0];
        const glm::vec3 travel = b.position - start;
        EXPECT_LT(glm::length(b.velocity), 1e-3f) << str(b.velocity);
        EXPECT_NEAR(glm::dot(travel, direction), speed * speed / (2.0f * mu * 9.81f), 0.02f);
        EXPECT_LT(glm::length(travel - glm::dot(travel, direction) * direction), 2e-3f)
            << "sideways: " << str(travel);
        EXPECT_LT(worstYaw, 0.5f) << "degrees of yaw";
    }
}

TEST(World, BallRollingWithRollingResistanceStopsAtTheTextbookDistance) {
    // A ball rolling without slipping, resisted by a torque c r N, decelerates at
    // a = c g / (1 + I / (m r^2)) = 5/7 c g and stops after v^2 / (2 a). Without rolling
    // resistance it rolls on at its speed, as a rigid ball on a rigid floor does.
    const float radius = 0.3f, speed = 2.0f;
    for (const float c : {0.0f, 0.05f, 0.1f}) {
        SCOPED_TRACE("rolling resistance " + std::to_string(c));
        World world(kz::boxRoom(glm::vec3(40.0f)), earth());
        BodyDesc d = sphereDesc({-15.0f, -20.0f + radius, 0.0f}, {speed, 0.0f, 0.0f}, radius, 2.0f);
        d.angularVelocity = {0.0f, 0.0f, -speed / radius}; // rolling: v = w x (r up)
        d.restitution = 0.0f;
        d.friction = 0.5f;
        d.rollingResistance = c;
        world.addBody(d);
        const float start = world.bodies()[0].position.x;
        for (int i = 1; i <= 1200; ++i)
            world.step();
        const kz::Body& b = world.bodies()[0];
        if (c == 0.0f) {
            EXPECT_NEAR(glm::length(b.velocity), speed, 1e-3f) << str(b.velocity);
            continue;
        }
        const float a = 5.0f / 7.0f * c * 9.81f;
        EXPECT_LT(glm::length(b.velocity), 1e-6f) << "at rest: " << str(b.velocity);
        EXPECT_LT(glm::length(b.angularVelocity), 1e-6f) << "not spinning either: " << str(b.angularVelocity);
        EXPECT_NEAR(b.position.x - start, speed * speed / (2.0f * a), 0.01f * speed * speed / (2.0f * a));
        EXPECT_NEAR(b.position.z, 0.0f, 1e-4f);
    }
}

TEST(World, RollingResistanceStopsABallSpinningInPlace) {
    // A point contact cannot damp a spin about the normal by friction; rolling resistance does.
    World world(kz::boxRoom(glm::vec3(10.0f)), earth());
    BodyDesc d = sphereDesc({0.0f, -5.0f + 0.5f, 0.0f}, glm::vec3(0.0f), 0.5f, 1.0f);
    d.angularVelocity = {0.0f, 10.0f, 0.0f};
    d.friction = 0.5f;
    d.rollingResistance = 0.05f;
    world.addBody(d);
    for (int i = 0; i < 600; ++i)
        world.step();
    EXPECT_LT(glm::length(world.bodies()[0].angularVelocity), 1e-6f)
        << str(world.bodies()[0].angularVelocity);
    EXPECT_LT(glm::length(world.bodies()[0].velocity), 1e-6f) << str(world.bodies()[0].velocity);
}

TEST(World, SetMaterialGivesEveryBodyTheRestitutionFrictionAndRollingResistance) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc({-2.0f, 0.0f, 0.0f}, glm::vec3(0.0f)));
    world.addBody(boxDesc({2.0f, 0.0f, 0.0f}, glm::vec3(0.5f), glm::quat(1, 0, 0, 0), glm::vec3(0.0f),
                          glm::vec3(0.0f)));
    world.setMaterial(0.25f, 0.5f, 0.125f);
    for (const kz::Body& b : world.bodies()) {
        EXPECT_EQ(b.restitution, 0.25f);
        EXPECT_EQ(b.friction, 0.5f);
        EXPECT_EQ(b.rollingResistance, 0.125f);
    }
}

TEST(World, StateHashChangesWithAnyBitOfAnyBodyAndOnlyThen) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc({-2.0f, 0.0f, 0.0f}, {1.0f, 2.0f, 3.0f}));
    world.addBody(boxDesc({2.0f, 0.0f, 0.0f}, glm::vec3(0.5f), glm::quat(1, 0, 0, 0), {0.5f, 0.0f, 0.0f},
                          {0.0f, 1.0f, 0.0f}));
    const World copy = world;
    const std::uint64_t before = kz::stateHash(world);
    EXPECT_EQ(kz::stateHash(copy), before);
    const auto nudged = [&](auto&& change) {
        World changed = world;
        kz::Body body = changed.bodies()[1];
        change(body);
        changed.setBody(1, body);
        return kz::stateHash(changed);
    };
    const auto nextUp = [](float& v) { v = std::nextafter(v, INFINITY); };
    EXPECT_NE(nudged([&](kz::Body& b) { nextUp(b.position.z); }), before);
    EXPECT_NE(nudged([&](kz::Body& b) { nextUp(b.orientation.w); }), before);
    EXPECT_NE(nudged([&](kz::Body& b) { nextUp(b.velocity.y); }), before);
    EXPECT_NE(nudged([&](kz::Body& b) { nextUp(b.angularVelocity.x); }), before);
    EXPECT_NE(nudged([&](kz::Body& b) { b.velocity.y = -0.0f; }), before) << "-0 and +0 differ in bits";
    world.step();
    EXPECT_NE(kz::stateHash(world), before);
}

TEST(World, RestingPileDoesNotSinkOrCreep) {
    World world(kz::boxRoom(glm::vec3(10.0f)), earth());
    const glm::quat none(1.0f, 0.0f, 0.0f, 0.0f);
    std::vector<BodyDesc> bodies;
    // A tower of four slabs, dropped 1 cm apart.
    for (int k = 0; k < 4; ++k) {
        bodies.push_back(boxDesc({-2.0f, -5.0f + 0.26f + 0.51f * static_cast<float>(k), 0.0f},
                                 {0.5f, 0.25f, 0.5f}, none, glm::vec3(0.0f), glm::vec3(0.0f), 2.0f));
    }
    // A pyramid: two cubes and one on top across them.
    bodies.push_back(boxDesc({1.05f, -4.59f, 0.0f}, glm::vec3(0.4f), none, glm::vec3(0.0f), glm::vec3(0.0f)));
    bodies.push_back(boxDesc({1.95f, -4.59f, 0.0f}, glm::vec3(0.4f), none, glm::vec3(0.0f), glm::vec3(0.0f)));
    bodies.push_back(boxDesc({1.5f, -3.78f, 0.0f}, glm::vec3(0.4f), none, glm::vec3(0.0f), glm::vec3(0.0f)));
    // A box dropped tilted, which lands on an edge and falls flat.
    bodies.push_back(boxDesc({0.0f, -3.0f, -3.0f}, {0.3f, 0.3f, 0.5f},
                             glm::angleAxis(0.35f, glm::normalize(glm::vec3(1.0f, 0.0f, 1.0f))),
                             glm::vec3(0.0f), glm::vec3(0.0f), 1.5f));
    // Spheres dropped straight down, one into a corner of the room.
    bodies.push_back(sphereDesc({-2.0f, -3.0f, 3.0f}, glm::vec3(0.0f), 0.3f));
    bodies.push_back(sphereDesc({0.0f, -2.0f, 3.0f}, glm::vec3(0.0f), 0.3f));
    bodies.push_back(sphereDesc({2.0f, -4.0f, 3.0f}, glm::vec3(0.0f), 0.3f));
    bodies.push_back(sphereDesc({4.79f, -3.0f, 4.79f}, glm::vec3(0.0f), 0.2f));
    float smallestSize = INFINITY; // the smallest edge or diameter
    for (BodyDesc& d : bodies) {
        d.restitution = 0.2f;
        d.friction = 0.5f;
        smallestSize = std::min(smallestSize,
                                d.shape == ShapeType::Sphere
                                    ? 2.0f * d.radius
                                    : 2.0f * std::min({d.halfExtents.x, d.halfExtents.y, d.halfExtents.z}));
        world.addBody(d);
    }
    std::vector<glm::vec3> oneSecondBefore;
    float worstLate = 0.0f;
    for (int i = 1; i <= 1200; ++i) {
        world.step();
        if (i == 1080) {
            for (const kz::Body& b : world.bodies())
                oneSecondBefore.push_back(b.position);
        }
        if (i > 1080) worstLate = std::max(worstLate, world.maxPenetration());
    }
    EXPECT_LT(world.maxPenetration(), 0.01f * smallestSize);
    EXPECT_LT(worstLate, 0.01f * smallestSize) << "deepest overlap in the last second";
    for (std::size_t k = 0; k < oneSecondBefore.size(); ++k) {
        const kz::Body& b = world.bodies()[k];
        EXPECT_LT(glm::length(b.position - oneSecondBefore[k]), 1e-3f)
            << "body " << k << " (" << b.name << ") crept from " << str(oneSecondBefore[k]) << " to "
            << str(b.position);
        EXPECT_LT(glm::length(b.velocity), 1e-2f) << "body " << k << " still moves: " << str(b.velocity);
    }
    // Nothing fell through the floor or each other: tower and pyramid tops at their heights.
    EXPECT_NEAR(world.bodies()[3].position.y, -5.0f + 0.25f + 3.0f * 0.5f, 5e-3f);
    EXPECT_NEAR(world.bodies()[6].position.y, -5.0f + 0.4f + 0.8f, 5e-3f);
    EXPECT_EQ(world.escapedCount(), 0);
}

// ---------------------------------------------------------------------------------------------
// Tunnelling

std::string describe(const kz::Body& b, int index) {
    std::ostringstream os;
    os << "body " << index << " (";
    if (b.shape == ShapeType::Sphere) {
        os << "sphere r " << b.radius;
    } else {
        os << "box half " << str(b.halfExtents) << " q " << b.orientation.w << " "
           << str(glm::vec3(b.orientation.x, b.orientation.y, b.orientation.z));
    }
    os << ") at " << str(b.position) << " v " << str(b.velocity) << " w " << str(b.angularVelocity);
    return os.str();
}

/// The deepest overlap (body-wall or body-body) and who is involved, for failure messages.
std::string describeDeepestOverlap(const World& world) {
    float deepest = 0.0f;
    std::string who = "none";
    const auto bodies = world.bodies();
    for (int i = 0; i < static_cast<int>(bodies.size()); ++i) {
        const kz::Body& a = bodies[static_cast<std::size_t>(i)];
        for (int w = 0; w < static_cast<int>(world.room().planes.size()); ++w) {
            const kz::Plane& plane = world.room().planes[static_cast<std::size_t>(w)];
            const auto m = a.shape == ShapeType::Sphere ? kz::contactSpherePlane(kz::sphereOf(a), plane)
                                                        : kz::contactObbPlane(kz::obbOf(a), plane);
            if (m && m->depth > deepest) {
                deepest = m->depth;
                who = describe(a, i) + " through wall " + std::to_string(w);
            }
        }
        for (int j = i + 1; j < static_cast<int>(bodies.size()); ++j) {
            const kz::Body& b = bodies[static_cast<std::size_t>(j)];
            std::optional<kz::Manifold> m;
            if (a.shape == ShapeType::Sphere && b.shape == ShapeType::Sphere) {
                m = kz::contactSphereSphere(kz::sphereOf(a), kz::sphereOf(b));
            } else if (a.shape == ShapeType::Sphere) {
                m = kz::contactSphereObb(kz::sphereOf(a), kz::obbOf(b));
            } else if (b.shape == ShapeType::Sphere) {
                m = kz::contactSphereObb(kz::sphereOf(b), kz::obbOf(a));
            } else {
                m = kz::contactObbObb(kz::obbOf(a), kz::obbOf(b));
            }
            if (m && m->depth > deepest) {
                deepest = m->depth;
                who = describe(a, i) + " into " + describe(b, j);
            }
        }
    }
    return "depth " + std::to_string(deepest) + ": " + who;
}

TEST(World, HighSpeedBodiesNeverEscapeOrPassThroughEachOther) {
    const unsigned seed = 150u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    // 10 spheres and boxes at exactly 150 m/s in random directions (1.25 m per step), spinning boxes.
    const std::vector<BodyDesc> bodies =
        randomBodies(seed, {10, 5.0f, 0.2f, 0.5f, 150.0f, 20.0f, true, 0.5f, 0.0f});
    World world = makeWorld(kz::boxRoom(glm::vec3(10.0f)), bodies);
    int firstEscape = -1, firstOverlap = -1;
    std::string firstOverlapDetail;
    float deepest = 0.0f;
    int deepestStep = -1;
    long impacts = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 100000; ++i) {
        world.step();
        impacts += world.lastStepImpacts();
        if (firstEscape < 0 && world.escapedCount() != 0) firstEscape = i;
        const float penetration = world.maxPenetration();
        if (penetration > deepest) {
            deepest = penetration;
            deepestStep = i;
        }
        if (firstOverlap < 0 && penetration >= 0.01f) {
            firstOverlap = i;
            firstOverlapDetail = describeDeepestOverlap(world);
        }
    }
    EXPECT_EQ(firstEscape, -1) << "first escape at step " << firstEscape;
    EXPECT_EQ(firstOverlap, -1) << "first overlap >= 1 cm at step " << firstOverlap << " (0-based, after "
                                << firstOverlap + 1 << " steps): " << firstOverlapDetail;
    EXPECT_LT(deepest, 0.01f) << "deepest " << deepest << " at step " << deepestStep;
    EXPECT_GT(impacts, 100000);
    std::cout << "  100000 steps: " << seconds(start) << " s, " << impacts << " impacts, deepest overlap "
              << deepest << " m, kinetic energy " << world.kineticEnergy() << "\n";
}

// ---------------------------------------------------------------------------------------------
// Determinism

testing::AssertionResult bitIdentical(const World& a, const World& b) {
    if (a.bodies().size() != b.bodies().size()) return testing::AssertionFailure() << "body counts differ";
    for (std::size_t i = 0; i < a.bodies().size(); ++i) {
        const kz::Body& x = a.bodies()[i];
        const kz::Body& y = b.bodies()[i];
        const bool same = std::memcmp(&x.position, &y.position, sizeof(glm::vec3)) == 0 &&
                          std::memcmp(&x.orientation, &y.orientation, sizeof(glm::quat)) == 0 &&
                          std::memcmp(&x.velocity, &y.velocity, sizeof(glm::vec3)) == 0 &&
                          std::memcmp(&x.angularVelocity, &y.angularVelocity, sizeof(glm::vec3)) == 0 &&
                          std::memcmp(&x.angularMomentum, &y.angularMomentum, sizeof(glm::vec3)) == 0;
        if (!same) {
            return testing::AssertionFailure()
                   << "body " << i << " differs: " << str(x.position) << " vs " << str(y.position);
        }
    }
    return testing::AssertionSuccess();
}

TEST(World, TwoWorldsBuiltTheSameWayStayBitIdentical) {
    const unsigned seed = 31337u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::vector<BodyDesc> bodies =
        randomBodies(seed, {100, 5.0f, 0.1f, 0.4f, 8.0f, 10.0f, false, 0.5f, 0.0f});
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies[i].restitution = i % 2 ? 0.3f : 0.9f;
        bodies[i].friction = i % 3 ? 0.4f : 0.0f;
    }
    World a = makeWorld(kz::boxRoom(glm::vec3(10.0f)), bodies, earth());
    World b = makeWorld(kz::boxRoom(glm::vec3(10.0f)), bodies, earth());
    for (int i = 0; i < 1000; ++i) {
        a.step();
        b.step();
    }
    EXPECT_TRUE(bitIdentical(a, b));
    // Bodies actually moved and met.
    EXPECT_GT(a.contacts().size(), 0u);
}

TEST(World, CopiedWorldContinuesBitIdentically) {
    const unsigned seed = 4242u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::vector<BodyDesc> bodies =
        randomBodies(seed, {100, 5.0f, 0.15f, 0.4f, 6.0f, 10.0f, false, 0.5f, 0.0f});
    for (BodyDesc& d : bodies) {
        d.restitution = 0.5f;
        d.friction = 0.3f;
    }
    World a = makeWorld(kz::boxRoom(glm::vec3(10.0f)), bodies, earth());
    for (int i = 0; i < 300; ++i)
        a.step(); // a warm-start cache to copy
    World b(a);
    for (int i = 0; i < 500; ++i) {
        a.step();
        b.step();
    }
    EXPECT_TRUE(bitIdentical(a, b));
}

// ---------------------------------------------------------------------------------------------
// Threads: any thread count, the same bits

#if defined(__SANITIZE_ADDRESS__)
constexpr int kThreadCounts[] = {
    4}; // the sanitizers are about 15 times slower: the release suite runs 1 and 2
#else
constexpr int kThreadCounts[] = {1, 2, 4};
#endif

TEST(World, AThousandBodiesStepToTheSameBitsOnOneTwoAndFourThreads) {
    // Large enough that the step's loops run in several chunks with their own chunk sizes: a
    // bouncing gas of 1,000 bodies (impacts, no solver load) and 700 small bodies piling up in a
    // 5 m room under gravity with friction (the solver, resting contacts, the projection).
    const unsigned seed = 2024u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::vector<BodyDesc> gas =
        randomBodies(seed, {1000, 5.0f, 0.1f, 0.2f, 5.0f, 10.0f, false, 0.5f, 0.0f});
    std::vector<BodyDesc> pile =
        randomBodies(seed + 1, {700, 2.5f, 0.05f, 0.1f, 1.0f, 3.0f, false, 0.5f, 0.0f});
    for (BodyDesc& d : pile) {
        d.restitution = 0.3f;
        d.friction = 0.5f;
        d.rollingResistance = 0.05f;
    }
    const std::pair<const char*, World> scenes[] = {
        {"gas", makeWorld(kz::boxRoom(glm::vec3(10.0f)), gas)},
        {"pile", makeWorld(kz::boxRoom(glm::vec3(5.0f)), pile, earth())},
    };
    for (const auto& [name, start] : scenes) {
        SCOPED_TRACE(name);
        World alone(start);
        const auto began = std::chrono::steady_clock::now();
        for (int i = 0; i < 150; ++i)
            alone.step();
        std::cout << "  " << name << ": 150 steps in " << seconds(began) << " s, " << alone.contacts().size()
                  << " contacts at the end\n";
        EXPECT_GT(alone.contacts().size(), 0u);
        for (const int threads : kThreadCounts) {
            SCOPED_TRACE(std::to_string(threads) + " threads");
            World threaded(start);
            threaded.setJobs(std::make_shared<kz::JobSystem>(threads));
            for (int i = 0; i < 150; ++i)
                threaded.step();
            EXPECT_EQ(kz::stateHash(threaded), kz::stateHash(alone));
            EXPECT_EQ(kz::stateDifference(threaded, alone), "");
        }
    }
}

TEST(World, ACopySharesTheThreadsAndStepsAsTheOriginal) {
    std::vector<BodyDesc> bodies =
        randomBodies(99u, {200, 5.0f, 0.15f, 0.4f, 6.0f, 10.0f, false, 0.5f, 0.0f});
    World a = makeWorld(kz::boxRoom(glm::vec3(10.0f)), bodies, earth());
    const auto jobs = std::make_shared<kz::JobSystem>(2, 7);
    a.setJobs(jobs);
    for (int i = 0; i < 100; ++i)
        a.step();
    World b(a);
    EXPECT_EQ(b.jobs(), jobs);
    for (int i = 0; i < 200; ++i) {
        a.step();
        b.step();
    }
    EXPECT_EQ(kz::stateDifference(a, b), "");
}

TEST(World, StateDifferenceNamesTheFirstFieldThatDiffers) {
    const std::vector<BodyDesc> bodies =
        randomBodies(5u, {20, 5.0f, 0.2f, 0.4f, 3.0f, 3.0f, false, 0.5f, 0.0f});
    World a = makeWorld(kz::boxRoom(glm::vec3(10.0f)), bodies);
    for (int i = 0; i < 50; ++i)
        a.step();
    World b(a);
    EXPECT_EQ(kz::stateDifference(a, b), "");
    kz::Body nudged = b.bodies()[3];
    nudged.angularMomentum.y = std::nextafter(nudged.angularMomentum.y, INFINITY);
    b.setBody(3, nudged);
    const std::string difference = kz::stateDifference(a, b);
    EXPECT_EQ(difference.rfind("body 3 angular momentum: ", 0), 0u) << difference;
    EXPECT_EQ(kz::stateHash(a), kz::stateHash(b)) << "the hash leaves the angular momentum out";
    World c(a);
    c.step();
    EXPECT_EQ(kz::stateDifference(a, c).rfind("step count: 50 vs 51", 0), 0u) << kz::stateDifference(a, c);
}

// ---------------------------------------------------------------------------------------------
// Impact preview

TEST(World, ImpactPreviewOfABallMovingAlongXHitsTheFacingWall) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc(glm::vec3(0.0f), {2.0f, 0.0f, 0.0f}, 0.5f));
    const auto preview = world.impactPreview(0);
    ASSERT_TRUE(preview);
    const kz::Plane& plane = world.room().planes[static_cast<std::size_t>(preview->wall)];
    EXPECT_EQ(plane.normal, glm::vec3(-1.0f, 0.0f, 0.0f));
    EXPECT_EQ(preview->point, glm::vec3(5.0f, 0.0f, 0.0f));
    EXPECT_FLOAT_EQ(preview->centreDistance, 5.0f);
    EXPECT_FLOAT_EQ(preview->timeToImpact, (5.0f - 0.5f) / 2.0f);
}

TEST(World, ImpactPreviewOfABoxUsesItsSurface) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(boxDesc({1.0f, 0.0f, 2.0f}, {0.5f, 0.25f, 0.5f}, glm::quat(1, 0, 0, 0), {0.0f, -0.5f, 0.0f},
                          glm::vec3(0.0f)));
    const auto preview = world.impactPreview(0);
    ASSERT_TRUE(preview);
    EXPECT_EQ(world.room().planes[static_cast<std::size_t>(preview->wall)].normal,
              glm::vec3(0.0f, 1.0f, 0.0f));
    EXPECT_EQ(preview->point, glm::vec3(1.0f, -5.0f, 2.0f));
    EXPECT_FLOAT_EQ(preview->centreDistance, 5.0f);
    EXPECT_FLOAT_EQ(preview->timeToImpact, (5.0f - 0.25f) / 0.5f);
}

TEST(World, ImpactPreviewOfATouchingBallIsImmediate) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc({4.5f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0.5f));
    const auto preview = world.impactPreview(0);
    ASSERT_TRUE(preview);
    EXPECT_FLOAT_EQ(preview->centreDistance, 0.5f);
    EXPECT_EQ(preview->timeToImpact, 0.0f);
}

TEST(World, ImpactPreviewTowardAnEdgeStillHitsAWall) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc(glm::vec3(0.0f), {1.0f, 1.0f, 0.0f}, 0.5f));
    const auto preview = world.impactPreview(0);
    ASSERT_TRUE(preview);
    EXPECT_NEAR(glm::length(preview->point - glm::vec3(5.0f, 5.0f, 0.0f)), 0.0f, 1e-5f)
        << str(preview->point);
    EXPECT_NEAR(preview->centreDistance, 5.0f * std::sqrt(2.0f), 1e-5f);
    EXPECT_NEAR(preview->timeToImpact, 4.5f, 1e-5f); // either wall: 4.5 m at 1 m/s along its normal
}

TEST(World, ImpactPreviewIsEmptyForABodyAtRestOrAnInvalidIndex) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc(glm::vec3(0.0f), glm::vec3(0.0f)));
    EXPECT_FALSE(world.impactPreview(0));
    EXPECT_FALSE(world.impactPreview(1));
    EXPECT_FALSE(world.impactPreview(-1));
}

TEST(World, ImpactPreviewIsEmptyForABodyRestingWithAResidualCreepAndShownFromOneMillimetrePerSecond) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc(glm::vec3(0.0f), {1e-6f, 2e-6f, 0.0f}));
    EXPECT_FALSE(world.impactPreview(0)) << "micrometres per second: at rest";
    world.setBodyVelocity(0, {1e-3f, 0.0f, 0.0f}, glm::vec3(0.0f));
    const auto preview = world.impactPreview(0);
    ASSERT_TRUE(preview);
    EXPECT_EQ(preview->wall, 1); // the +x wall
}

TEST(World, ImpactPreviewInASlantedRoomLiesOnTheSlantedWallPolygon) {
    std::vector<kz::Plane> planes = {{{1, 0, 0}, 5.0f},  {{-1, 0, 0}, 5.0f}, {{0, 1, 0}, 5.0f},
                                     {{0, -1, 0}, 5.0f}, {{0, 0, 1}, 5.0f},  {{0, 0, -1}, 5.0f}};
    const float length = std::sqrt(1.04f);
    planes[3] = {glm::vec3(0.2f, -1.0f, 0.0f) / length, 3.0f / length}; // ceiling y = 3 + 0.2 x
    const kz::RoomResult room = kz::makeRoom(planes);
    ASSERT_TRUE(room.room) << room.error;
    World world(*room.room);
    const float radius = 0.5f, speed = 2.0f;
    world.addBody(sphereDesc({1.0f, 0.0f, -1.0f}, {0.0f, speed, 0.0f}, radius));
    const auto preview = world.impactPreview(0);
    ASSERT_TRUE(preview);
    EXPECT_EQ(preview->wall, 3);
    const kz::Plane& ceiling = world.room().planes[3];
    EXPECT_NEAR(kz::signedDistance(ceiling, preview->point), 0.0f, 1e-5f);
    EXPECT_TRUE(kz::pointInConvexPolygon(preview->point, world.room().walls[3]));
    EXPECT_NEAR(glm::length(preview->point - glm::vec3(1.0f, 3.2f, -1.0f)), 0.0f, 1e-5f)
        << str(preview->point);
    EXPECT_NEAR(preview->centreDistance, 3.2f, 1e-5f);
    // The surface reaches the plane when the centre's distance 3.2/L falls to r at speed 2/L.
    EXPECT_NEAR(preview->timeToImpact, (3.2f - radius * length) / speed, 1e-5f);

    // Aimed at the slanted wall obliquely: the point is still on that polygon.
    world.setBodyVelocity(0, {1.0f, 2.0f, 0.7f}, glm::vec3(0.0f));
    const auto oblique = world.impactPreview(0);
    ASSERT_TRUE(oblique);
    EXPECT_EQ(oblique->wall, 3);
    EXPECT_NEAR(kz::signedDistance(ceiling, oblique->point), 0.0f, 1e-5f);
    EXPECT_TRUE(kz::pointInConvexPolygon(oblique->point, world.room().walls[3]));
}

// ---------------------------------------------------------------------------------------------
// advance(): the fixed-step accumulator

World restingWorld(int maxSteps = 1000) {
    WorldSettings settings;
    settings.maxStepsPerAdvance = maxSteps;
    World world(kz::boxRoom(glm::vec3(10.0f)), settings);
    world.addBody(sphereDesc(glm::vec3(0.0f), {1.0f, 0.0f, 0.0f}));
    return world;
}

TEST(World, AdvanceTakesTheWholeStepsThatAreDueAndCarriesTheRest) {
    World world = restingWorld();
    EXPECT_EQ(world.advance(0.3f * kStep), 0);
    EXPECT_EQ(world.stepCount(), 0u);
    world = restingWorld();
    // 4.3 steps a frame: 4, 4, 4 (0.9 left over), then 5.
    const int expected[] = {4, 4, 4, 5, 4, 4, 5};
    int total = 0;
    for (int k = 0; k < 7; ++k) {
        const int steps = world.advance(4.3f * kStep);
        EXPECT_EQ(steps, expected[k]) << "frame " << k;
        total += steps;
    }
    EXPECT_EQ(total, 30); // floor(7 x 4.3)
    EXPECT_EQ(world.stepCount(), 30u);
    // Many frames at 60 Hz: two steps each, floor(time / step) in all (one off at most from
    // float rounding in the accumulator).
    world = restingWorld();
    total = 0;
    for (int k = 0; k < 600; ++k)
        total += world.advance(1.0f / 60.0f);
    EXPECT_NEAR(total, 1200, 1);
    EXPECT_EQ(world.stepCount(), static_cast<std::uint64_t>(total));
    // Zero, negative and NaN frame times take no step.
    world = restingWorld();
    EXPECT_EQ(world.advance(0.0f), 0);
    EXPECT_EQ(world.advance(-1.0f), 0);
    EXPECT_EQ(world.advance(std::numeric_limits<float>::quiet_NaN()), 0);
    EXPECT_EQ(world.advance(1.3f * kStep), 1);
}

TEST(World, TimeScaleHalfHalvesTheStepsAndIsClamped) {
    World world = restingWorld();
    world.setTimeScale(0.5f);
    EXPECT_EQ(world.advance(8.6f * kStep), 4); // 4.3 steps of simulated time
    World normal = restingWorld();
    EXPECT_EQ(normal.advance(8.6f * kStep), 8);
    int slow = 0, fast = 0;
    for (int k = 0; k < 600; ++k) {
        slow += world.advance(1.0f / 60.0f);
        fast += normal.advance(1.0f / 60.0f);
    }
    EXPECT_NEAR(slow, 600, 1);
    EXPECT_NEAR(fast, 1200, 1);
    world.setTimeScale(2.0f);
    EXPECT_EQ(world.advance(4.3f * kStep) + world.advance(4.3f * kStep), 17); // 17.2 (+ 0.3 left over)

    world.setTimeScale(10.0f);
    EXPECT_EQ(world.settings().timeScale, 2.0f);
    world.setTimeScale(0.001f);
    EXPECT_EQ(world.settings().timeScale, 0.05f);
    world.setTimeScale(-3.0f);
    EXPECT_EQ(world.settings().timeScale, 0.05f);
    WorldSettings settings;
    settings.timeScale = 7.0f;
    const World fromSettings(kz::boxRoom(glm::vec3(10.0f)), settings);
    EXPECT_EQ(fromSettings.settings().timeScale, 2.0f);
}

TEST(World, NaNTimeScaleStillLeavesAScaleInRangeAndTheClockRunning) {
    World world = restingWorld();
    world.setTimeScale(std::numeric_limits<float>::quiet_NaN());
    const float scale = world.settings().timeScale;
    EXPECT_TRUE(scale >= 0.05f && scale <= 2.0f) << scale;
    world.advance(4.3f * kStep);
    world.setTimeScale(1.0f);
    EXPECT_EQ(world.advance(4.3f * kStep), 4) << "the accumulator must not be poisoned for good";
}

TEST(World, PauseStopsTheClockWithoutABacklog) {
    World world = restingWorld();
    world.setPaused(true);
    EXPECT_TRUE(world.paused());
    EXPECT_EQ(world.advance(1.0f), 0);
    EXPECT_EQ(world.advance(1.0f), 0);
    EXPECT_EQ(world.stepCount(), 0u);
    EXPECT_EQ(world.bodies()[0].position, glm::vec3(0.0f));
    world.setPaused(false);
    EXPECT_EQ(world.advance(0.5f * kStep), 0); // no time saved up while paused
    EXPECT_EQ(world.advance(0.6f * kStep), 1);
}

TEST(World, SingleStepWhilePausedTakesExactlyOneStep) {
    World world = restingWorld();
    world.setPaused(true);
    world.requestSingleStep();
    EXPECT_EQ(world.advance(0.0f), 1);
    EXPECT_EQ(world.stepCount(), 1u);
    EXPECT_NEAR(world.bodies()[0].position.x, kStep, 1e-7f); // 1 m/s for one step
    EXPECT_EQ(world.advance(1.0f), 0);
    world.requestSingleStep();
    EXPECT_EQ(world.advance(1.0f), 1); // a long frame still gives one step
    EXPECT_EQ(world.advance(1.0f), 0);
    EXPECT_EQ(world.stepCount(), 2u);
    EXPECT_TRUE(world.paused());
}

TEST(World, MaxStepsPerAdvanceCapsALongFrameAndDropsTheBacklog) {
    World world = restingWorld(8);
    EXPECT_EQ(world.advance(1.0f), 8); // 120 steps due
    EXPECT_EQ(world.stepCount(), 8u);
    EXPECT_LE(world.advance(0.5f * kStep), 1); // not the 112 steps left behind
    EXPECT_LE(world.advance(0.5f * kStep), 1);
    World three = restingWorld(3);
    EXPECT_EQ(three.advance(2.5f * kStep), 2);
    EXPECT_EQ(three.advance(10.0f * kStep), 3);
}

} // namespace

namespace {

TEST(World, BodiesAtTheUiTopSpeedOfTwoHundredMetresPerSecondStayInsideAndApart) {
    // The fastest the UI allows: thin boxes (0.2 m thick) and small balls (0.15 m) move 1.7 m
    // per step, many times their own size, in a 10 m room.
    const unsigned seed = 7u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    World world(kz::boxRoom(glm::vec3(10.0f)));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (int i = 0; i < 12; ++i) {
        BodyDesc d;
        d.position = glm::vec3(-3.0f + 2.0f * static_cast<float>(i % 4),
                               -2.0f + 2.0f * static_cast<float>((i / 4) % 3), 0.0f);
        glm::vec3 dir;
        do {
            dir = glm::vec3(unit(rng), unit(rng), unit(rng));
        } while (glm::length(dir) < 0.2f || glm::length(dir) > 1.0f);
        d.velocity = glm::normalize(dir) * 200.0f;
        if (i % 2) {
            d.shape = kz::ShapeType::Box;
            d.halfExtents = glm::vec3(0.1f, 0.25f, 0.4f);
            d.angularVelocity = glm::vec3(unit(rng), unit(rng), unit(rng)) * 20.0f;
        } else {
            d.radius = 0.15f;
        }
        world.addBody(d);
    }
    float deepest = 0.0f;
    for (int step = 1; step <= 20000; ++step) {
        world.step();
        ASSERT_EQ(world.escapedCount(), 0) << "at step " << step;
        if (step % 5 == 0) deepest = std::max(deepest, world.maxPenetration());
    }
    EXPECT_LT(deepest, 0.01f);
}

TEST(World, ANaNVelocityForcedThroughTheApiHaltsTheWorldBeforeItSpreads) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc({-2, 0, 0}, {1, 0, 0}));
    world.addBody(sphereDesc({2, 0, 0}, {-1, 0, 0}));
    world.step();
    ASSERT_FALSE(world.halted());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    world.setBodyVelocity(1, {nan, 0, 0}, glm::vec3(0.0f));
    const glm::vec3 firstPosition = world.bodies()[0].position;
    for (int i = 0; i < 10; ++i)
        world.step();
    EXPECT_EQ(world.advance(1.0f), 0);
    EXPECT_TRUE(world.halted());
    EXPECT_EQ(world.haltedBody(), 1);
    EXPECT_EQ(world.stepCount(), 1u);
    EXPECT_EQ(world.bodies()[0].position, firstPosition);  // nothing moved
    EXPECT_TRUE(std::isnan(world.bodies()[1].velocity.x)); // the bad value stays visible
}

TEST(World, MemoryBytesCountsThePickingHierarchy) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    for (int i = 0; i < 1000; ++i)
        world.addBody(
            sphereDesc(glm::vec3(i % 10 - 5, (i / 10) % 10 - 5, i / 100 - 5) * 1.6f, {1, 2, 3}, 0.3f));
    const std::size_t tree = world.bodyBvh().memoryBytes();
    EXPECT_GE(tree, 999 * sizeof(kz::BodyBvh::Node)) << "999 inner nodes for 1,000 bodies";
    // Before any step the caches are the bodies' rotational energies and the tree: the tree is
    // larger than the room, the world and its scratch, so it must be counted to pass.
    EXPECT_GE(world.memoryBytes(), 1000 * (sizeof(kz::Body) + sizeof(double)) + tree);
}

TEST(World, AnInfinitePositionWrittenIntoABodyHaltsTheWorldAndCopiesStayHalted) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphereDesc({0, 0, 0}, {0, 0, 0}));
    world.addBody(
        boxDesc({2, 0, 0}, glm::vec3(0.3f), glm::quat(1, 0, 0, 0), glm::vec3(0.0f), glm::vec3(0.0f)));
    kz::Body broken = world.bodies()[1];
    broken.position.y = std::numeric_limits<float>::infinity();
    world.setBody(1, broken);
    world.step();
    EXPECT_EQ(world.haltedBody(), 1);
    const World copy(world);
    EXPECT_TRUE(copy.halted());
}

TEST(World, GravityAndMaterialSettersClampToTheDocumentedRangesAndIgnoreNaN) {
    World world(kz::boxRoom(glm::vec3(10.0f)), WorldSettings{{0.0f, -1e30f, 0.0f}});
    EXPECT_EQ(world.settings().gravity, glm::vec3(0.0f, -kz::limits::kMaxGravity, 0.0f));
    world.addBody(sphereDesc({0, 0, 0}, {0, 0, 0}));
    world.setGravity({3e38f, 3e38f, 0.0f});
    EXPECT_NEAR(glm::length(world.settings().gravity), kz::limits::kMaxGravity, 1e-3f);
    world.setGravity({0.0f, -9.81f, 0.0f});
    const float nan = std::numeric_limits<float>::quiet_NaN();
    world.setGravity({nan, 0.0f, 0.0f});
    EXPECT_EQ(world.settings().gravity, glm::vec3(0.0f, -9.81f, 0.0f));
    world.setMaterial(2.0f, 50.0f, 7.0f);
    EXPECT_EQ(world.bodies()[0].restitution, 1.0f);
    EXPECT_EQ(world.bodies()[0].friction, kz::limits::kMaxFriction);
    EXPECT_EQ(world.bodies()[0].rollingResistance, kz::limits::kMaxRollingResistance);
    world.setMaterial(nan, -1.0f, nan);
    EXPECT_EQ(world.bodies()[0].restitution, 1.0f);
    EXPECT_EQ(world.bodies()[0].friction, 0.0f);
    EXPECT_EQ(world.bodies()[0].rollingResistance, kz::limits::kMaxRollingResistance);
}

TEST(World, AHugeVelocityGivenThroughTheApiIsNeverUndefinedBehaviour) {
    // Its swept box overflows to infinity in the broad phase, its flight may leave the room; run
    // under the sanitizers, the world either stays finite or halts, and never converts a NaN.
    World world(kz::boxRoom(glm::vec3(10.0f)), WorldSettings{{0.0f, -1000.0f, 0.0f}});
    world.addBody(sphereDesc({-2, 0, 0}, {3e38f, 3e38f, 0.0f}));
    world.addBody(sphereDesc({2, 0, 0}, {0, 0, 0}));
    world.addBody(sphereDesc({2, 2, 0}, {0, 0, 0}));
    for (int i = 0; i < 20; ++i)
        world.step();
    const auto finite = [](const glm::vec3& v) {
        return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    };
    bool allFinite = true;
    for (const kz::Body& b : world.bodies())
        allFinite = allFinite && finite(b.position) && finite(b.velocity);
    EXPECT_TRUE(world.halted() || allFinite);
}

} // namespace
