// The built-in scenarios, run: each keeps the promise its name makes.
#include "physics/world.hpp"
#include "scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

kz::World load(const std::string& name) {
    const kz::ScenarioResult loaded = kz::resolveScenario(name);
    if (!loaded.scenario) throw std::runtime_error(loaded.error);
    kz::InstantiateResult built = kz::instantiate(*loaded.scenario, std::nullopt);
    if (!built.world) throw std::runtime_error(built.error);
    return std::move(*built.world);
}

bool finiteState(const kz::World& world) {
    for (const kz::Body& b : world.bodies()) {
        if (!kz::isFinite(b.position) || !kz::isFinite(b.velocity) || !kz::isFinite(b.angularVelocity) ||
            !std::isfinite(b.orientation.w) || !std::isfinite(b.orientation.x)) {
            return false;
        }
    }
    return true;
}

/// Exact event-driven motion of two equal balls on a line between walls at -wall and +wall:
/// each meets a wall or the other ball and reverses (walls) or swaps velocities (the balls).
void exactTwoBalls(double duration, double radius, double wall, double& xA, double& vA, double& xB,
                   double& vB) {
    double t = 0.0;
    for (int event = 0; event < 100000; ++event) {
        double next = duration - t, *hitA = nullptr, *hitB = nullptr;
        bool balls = false;
        const auto consider = [&](double dt, double* a, double* b, bool isBalls) {
            if (dt > 1e-12 && dt < next) next = dt, hitA = a, hitB = b, balls = isBalls;
        };
        if (vA < 0.0) consider((xA - radius + wall) / -vA, &vA, nullptr, false);
        if (vB > 0.0) consider((wall - radius - xB) / vB, nullptr, &vB, false);
        if (vA > vB) consider((xB - xA - 2.0 * radius) / (vA - vB), &vA, &vB, true);
        xA += vA * next;
        xB += vB * next;
        t += next;
        if (t >= duration) return;
        if (balls) {
            std::swap(vA, vB);
        } else if (hitA) {
            *hitA = -*hitA;
        } else if (hitB) {
            *hitB = -*hitB;
        }
    }
}

TEST(BuiltinRuns, DeterministicFollowsTheExactOneDimensionalSolutionForTenSeconds) {
    kz::World world = load("deterministic");
    ASSERT_EQ(world.bodies().size(), 2u);
    const kz::Body a0 = world.bodies()[0], b0 = world.bodies()[1];
    ASSERT_EQ(a0.mass, b0.mass);
    ASSERT_EQ(a0.radius, b0.radius);
    const double wall = world.room().bounds.max.x;
    double xA = a0.position.x, vA = a0.velocity.x, xB = b0.position.x, vB = b0.velocity.x;
    double worst = 0.0;
    for (int step = 1; step <= 1200; ++step) {
        world.step();
        if (step % 60 == 0) { // every half second along the way, not only at the end
            double ea = a0.position.x, va = a0.velocity.x, eb = b0.position.x, vb = b0.velocity.x;
            exactTwoBalls(step / 120.0, a0.radius, wall, ea, va, eb, vb);
            worst = std::max({worst, std::abs(world.bodies()[0].position.x - ea),
                              std::abs(world.bodies()[1].position.x - eb)});
            if (step == 1140) { // 9.5 s: between impacts, so the velocities are well defined
                EXPECT_NEAR(world.bodies()[0].velocity.x, va, 1e-4);
                EXPECT_NEAR(world.bodies()[1].velocity.x, vb, 1e-4);
            }
        }
    }
    exactTwoBalls(10.0, a0.radius, wall, xA, vA, xB, vB);
    EXPECT_NEAR(world.bodies()[0].position.x, xA, 1e-3);
    EXPECT_NEAR(world.bodies()[1].position.x, xB, 1e-3);
    // At exactly 10 s the balls touch (A at -4, B at -3): which velocities they have at that
    // instant is a matter of convention, so only positions are compared there.
    EXPECT_LT(worst, 1e-3) << "largest position error over the 10 s";
    EXPECT_EQ(world.bodies()[0].position.y, 0.0f);
    EXPECT_EQ(world.bodies()[1].position.z, 0.0f);
}

TEST(BuiltinRuns, HighSpeedNeverEscapesOrPassesThroughInOneHundredThousandSteps) {
    kz::World world = load("high-speed");
    float smallest = INFINITY;
    for (const kz::Body& b : world.bodies()) {
        smallest = std::min(smallest, b.shape == kz::ShapeType::Sphere
                                          ? b.radius
                                          : std::min({b.halfExtents.x, b.halfExtents.y, b.halfExtents.z}));
        ASSERT_GE(glm::length(b.velocity), 140.0f) << b.name;
    }
    float deepest = 0.0f;
    for (int step = 1; step <= 100000; ++step) {
        world.step();
        ASSERT_EQ(world.escapedCount(), 0) << "at step " << step;
        if (step % 10 == 0) {
            deepest = std::max(deepest, world.maxPenetration());
            // A pass-through would show as a deep overlap on the way: none may reach 1 cm.
            ASSERT_LT(deepest, 0.01f) << "at step " << step;
        }
    }
    EXPECT_TRUE(finiteState(world));
    EXPECT_LT(deepest, 0.05f * smallest);
}

TEST(BuiltinRuns, EveryBuiltinRunsTenSecondsInsideItsRoom) {
    for (const std::string& name : kz::builtinScenarioNames()) {
        SCOPED_TRACE(name);
        kz::World world = load(name);
        const bool elastic =
            std::all_of(world.bodies().begin(), world.bodies().end(),
                        [](const kz::Body& b) { return b.restitution == 1.0f && b.friction == 0.0f; }) &&
            world.settings().gravity == glm::vec3(0.0f);
        const double e0 = world.kineticEnergy();
        for (int step = 0; step < 1200; ++step)
            world.step();
        EXPECT_EQ(world.escapedCount(), 0);
        EXPECT_LT(world.maxPenetration(), 0.01f);
        EXPECT_TRUE(finiteState(world));
        if (elastic) {
            EXPECT_NEAR(world.kineticEnergy() / e0, 1.0, 1e-3);
        }
    }
}

TEST(BuiltinRuns, GravityPileSettlesWithoutSinkingOrCreeping) {
    kz::World world = load("gravity-pile");
    float smallest = INFINITY;
    for (const kz::Body& b : world.bodies()) {
        smallest = std::min(smallest, b.shape == kz::ShapeType::Sphere
                                          ? b.radius
                                          : std::min({b.halfExtents.x, b.halfExtents.y, b.halfExtents.z}));
    }
    for (int step = 0; step < 1200; ++step)
        world.step();
    std::vector<glm::vec3> settled;
    for (const kz::Body& b : world.bodies())
        settled.push_back(b.position);
    for (int step = 0; step < 120; ++step)
        world.step();
    float moved = 0.0f;
    for (std::size_t i = 0; i < settled.size(); ++i) {
        // Spheres may roll on (nothing stops a ball on a level floor); boxes must not creep.
        if (world.bodies()[i].shape == kz::ShapeType::Box) {
            moved = std::max(moved, glm::length(world.bodies()[i].position - settled[i]));
        }
    }
    EXPECT_LT(moved, 1e-3f) << "a box crept over the last second";
    EXPECT_LT(world.maxPenetration(), 0.01f * smallest);
    const float floor = world.room().bounds.min.y;
    for (const kz::Body& b : world.bodies()) {
        EXPECT_GT(b.position.y - floor,
                  0.9f * (b.shape == kz::ShapeType::Sphere
                              ? b.radius
                              : std::min({b.halfExtents.x, b.halfExtents.y, b.halfExtents.z})))
            << b.name << " sank into the floor";
    }
}

} // namespace
