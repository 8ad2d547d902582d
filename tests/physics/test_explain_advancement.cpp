// Tests for physics/explain_advancement.hpp: World::explainTimeOfImpact gives the step's time of
// impact to the bit (World::timeOfImpactBetween, the same code without the recorder) on 100,000
// random pairs of boxes, spheres and walls, its iterations add up to its time, and hand-made
// pairs show each way the search ends.
#include "geom/gjk.hpp"
#include "physics/explain_advancement.hpp"
#include "physics/free_flight.hpp" // FlightPath: the free flight the step's bodies take
#include "physics/world.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <optional>
#include <random>
#include <string>

namespace {

using namespace kz;

constexpr int kCases = 100000;

bool sameBits(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

float uniform(std::mt19937& rng, float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
}

glm::vec3 randomVector(std::mt19937& rng, float extent) {
    return {uniform(rng, -extent, extent), uniform(rng, -extent, extent), uniform(rng, -extent, extent)};
}

BodyDesc body(ShapeType shape, const glm::vec3& position, const glm::vec3& velocity,
              const glm::vec3& angularVelocity = glm::vec3(0.0f),
              const glm::quat& orientation = {1, 0, 0, 0}) {
    BodyDesc d;
    d.shape = shape;
    d.radius = 0.5f;
    d.halfExtents = glm::vec3(0.5f);
    d.position = position;
    d.orientation = orientation;
    d.velocity = velocity;
    d.angularVelocity = angularVelocity;
    d.mass = 1.0f;
    return d;
}

/// The iterations follow one another and end as the trace says, at its time.
void expectIterationsAddUp(const AdvancementTrace& t, float remaining, const std::string& label) {
    ASSERT_GE(t.stepCount, 1) << label;
    ASSERT_EQ(t.steps[0].time, 0.0f) << label;
    ASSERT_TRUE(sameBits(t.steps[0].distance, t.initialDistance)) << label;
    ASSERT_TRUE(sameBits(t.steps[0].bound, t.bound)) << label;
    for (int k = 0; k < t.stepCount; ++k) {
        const AdvancementStep& s = t.steps[std::size_t(k)];
        const bool last = k + 1 == t.stepCount;
        if (k == t.jumpStep) {
            // The last advance of the first budget flew on further, to where the bounding spheres
            // could first come within the target.
            ASSERT_EQ(k, kz::kAdvanceIterations - 1) << label;
            ASSERT_GT(s.advance, (s.distance - t.target) / s.bound) << k << " " << label;
        } else if (!last || t.end != AdvancementEnd::Converged) {
            ASSERT_TRUE(sameBits(s.advance, (s.distance - t.target) / s.bound)) << k << " " << label;
        }
        if (!last) {
            ASSERT_TRUE(sameBits(t.steps[std::size_t(k + 1)].time, s.time + s.advance)) << k << " " << label;
        }
    }
    const AdvancementStep& last = t.steps[std::size_t(t.stepCount - 1)];
    switch (t.end) {
    case AdvancementEnd::Converged:
        ASSERT_LE(last.distance, t.target + t.tolerance) << label;
        ASSERT_TRUE(sameBits(t.time, last.time)) << label;
        break;
    case AdvancementEnd::BeyondRemaining:
        ASSERT_GT(last.time + last.advance, remaining) << label;
        ASSERT_EQ(t.time, INFINITY) << label;
        break;
    case AdvancementEnd::IterationLimit:
        ASSERT_EQ(t.stepCount, (t.jumpStep >= 0 ? 2 : 1) * kz::kAdvanceIterations) << label;
        ASSERT_TRUE(sameBits(t.time, last.time + last.advance)) << label;
        break;
    }
}

TEST(ExplainAdvancementPropertyTest, AgreesWithTheStepsTimeOfImpactToTheBit) {
    constexpr unsigned kSeed = 9090u;
    std::mt19937 rng(kSeed);
    int methods[6] = {}, ends[3] = {};
    for (int i = 0; i < kCases; ++i) {
        // Mostly two boxes, some a box and a sphere, two spheres, or a body and a wall.
        const ShapeType first = i % 7 == 0 ? ShapeType::Sphere : ShapeType::Box;
        const ShapeType second = i % 5 == 0 ? ShapeType::Sphere : ShapeType::Box;
        const float spin = i % 3 == 0 ? 0.0f : i % 11 == 0 ? 200.0f : 6.0f;
        World world(boxRoom(glm::vec3(10.0f)));
        const glm::vec3 p = randomVector(rng, 3.0f), q = p + randomVector(rng, 2.5f);
        const glm::quat turn = glm::normalize(glm::quat(uniform(rng, -1, 1), randomVector(rng, 1.0f)));
        const glm::vec3 va = randomVector(rng, 8.0f), vb = randomVector(rng, 8.0f);
        const glm::vec3 wa = randomVector(rng, spin), wb = randomVector(rng, spin);
        if (i % 13 == 0) { // two boxes at rest, touching or nearly
            world.addBody(body(ShapeType::Box, p, glm::vec3(0.0f)));
            world.addBody(body(ShapeType::Box, p + glm::vec3(1.0f + uniform(rng, -0.01f, 0.01f), 0, 0),
                               glm::vec3(0.0f)));
        } else {
            world.addBody(body(first, p, va, wa, turn));
            world.addBody(body(second, q, vb, wb));
        }
        const Partner partner = i % 9 == 0 ? Partner::wall(i % 6) : Partner::body(1);
        const float remaining = i % 4 == 0 ? 1.0f / 120.0f : uniform(rng, 0.0f, 1.0f);
        const std::string label = "seed " + std::to_string(kSeed) + ", case " + std::to_string(i);

        const AdvancementTrace t = world.explainTimeOfImpact(0, partner, remaining);
        ASSERT_TRUE(sameBits(t.time, world.timeOfImpactBetween(0, partner, remaining))) << label;
        ASSERT_TRUE(t.valid) << label;
        ++methods[int(t.method)];
        if (t.method != ImpactMethod::Conservative) {
            ASSERT_EQ(t.stepCount, 0) << label;
            const bool root =
                t.method == ImpactMethod::SpherePlaneRoot || t.method == ImpactMethod::SphereSphereRoot;
            ASSERT_TRUE(root || t.time == INFINITY) << label;
            if (root) {
                const std::optional<float> rootTime =
                    t.method == ImpactMethod::SpherePlaneRoot ? t.plane.time : t.spheres.time;
                ASSERT_TRUE(sameBits(rootTime.value_or(INFINITY), t.time)) << label;
            }
            continue;
        }
        ++ends[int(t.end)];
        expectIterationsAddUp(t, remaining, label);
    }
    for (const ImpactMethod m :
         {ImpactMethod::BoundingSpheresApart, ImpactMethod::SpherePlaneRoot, ImpactMethod::SphereSphereRoot,
          ImpactMethod::NotApproaching, ImpactMethod::Conservative})
        EXPECT_GT(methods[int(m)], 50) << "method " << int(m);
    for (int k = 0; k < 3; ++k)
        EXPECT_GT(ends[k], 100) << "end " << k;
}

/// The true distance of two bodies (GJK), 0 when they touch or overlap.
float trueDistance(const Body& a, const Body& b) {
    const auto shape = [](const Body& body) -> ConvexShape {
        if (body.shape == ShapeType::Sphere) return sphereOf(body);
        return obbOf(body);
    };
    const GjkResult r = closestPtConvexConvex(shape(a), shape(b));
    return r.overlap ? 0.0f : r.distance;
}

/// Body 0, a ball (radius 0.3 m) or a box turned at random, thrown at 5-40 m/s towards body 1, a
/// box of 0.1-0.5 m half extents 1.2-2.5 m away coming back at up to 20 m/s, both spinning at up
/// to `spin` rad/s, in a 20 m room.
World thrownPair(std::mt19937& rng, ShapeType first, float spin) {
    const glm::vec3 p = randomVector(rng, 3.0f);
    const glm::vec3 q = p + glm::normalize(randomVector(rng, 1.0f)) * uniform(rng, 1.2f, 2.5f);
    const glm::vec3 towards = glm::normalize(q - p);
    const float speed = uniform(rng, 5.0f, 40.0f);
    const glm::vec3 va = towards * speed + randomVector(rng, 0.3f * speed);
    const glm::vec3 vb = -towards * uniform(rng, 0.0f, 20.0f) + randomVector(rng, 5.0f);
    const glm::quat turn = glm::normalize(glm::quat(uniform(rng, -1, 1), randomVector(rng, 1.0f)));
    World world(boxRoom(glm::vec3(20.0f)));
    BodyDesc a = body(first, p, va, randomVector(rng, spin), turn);
    BodyDesc b = body(ShapeType::Box, q, vb, randomVector(rng, spin));
    a.radius = 0.3f;
    b.halfExtents = glm::vec3(uniform(rng, 0.1f, 0.5f), uniform(rng, 0.1f, 0.5f), uniform(rng, 0.1f, 0.5f));
    world.addBody(a);
    world.addBody(b);
    return world;
}

TEST(ExplainAdvancementPropertyTest, NeverFliesPastTheFirstTimeThePairComesWithinItsTarget) {
    // Boxes and spheres thrown at each other at up to 40 m/s, boxes spinning at up to 300 rad/s.
    // Each advance of the search is safe: flown along the search's own look-ahead to 16 times
    // within each advance (and on to the time left when the search found no impact), the pair's
    // true distance (GJK) never falls below the target less the advancement's tolerance. The
    // bound on the closing speed, taken along the axis of each gap, is what lets an advance be
    // long, and what must not let it pass the target.
    constexpr unsigned kSeed = 9191u;
    std::mt19937 rng(kSeed);
    int impacts = 0, none = 0, fast = 0;
    for (int i = 0; i < 1500; ++i) {
        const ShapeType first = i % 4 == 0 ? ShapeType::Sphere : ShapeType::Box;
        const float spin = i % 3 == 0 ? 300.0f : i % 3 == 1 ? 60.0f : 6.0f;
        World world = thrownPair(rng, first, spin);
        const float remaining = 1.0f / 30.0f;
        const std::string label = "seed " + std::to_string(kSeed) + ", case " + std::to_string(i);
        const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), remaining);
        if (t.method != ImpactMethod::Conservative || t.initialDistance < 0.01f) continue; // apart at first
        (t.end == AdvancementEnd::Converged ? impacts : none) += 1;
        fast += spin == 300.0f;
        // The flights the search read, flown again from the same states for the same time.
        const Body& a0 = world.bodies()[0];
        const Body& b0 = world.bodies()[1];
        FlightPath pathA, pathB;
        pathA.fly(a0, rotationalEnergy(a0.orientation, a0.angularMomentum, a0.inertiaLocal), remaining);
        pathB.fly(b0, rotationalEnergy(b0.orientation, b0.angularMomentum, b0.inertiaLocal), remaining);
        for (int k = 0; k < t.stepCount; ++k) {
            const AdvancementStep& s = t.steps[std::size_t(k)];
            const bool last = k + 1 == t.stepCount;
            const float span = !last                                      ? s.advance
                               : t.end == AdvancementEnd::BeyondRemaining ? remaining - s.time
                                                                          : 0.0f;
            for (int j = 1; j <= 16; ++j) {
                Body flownA = a0, flownB = b0;
                const float by = span * static_cast<float>(j) / 16.0f;
                pathA.poseAt(s.time + by, flownA);
                pathB.poseAt(s.time + by, flownB);
                ASSERT_GT(trueDistance(flownA, flownB), t.target - t.tolerance)
                    << label << ", iteration " << k << ", " << by << " s on";
            }
        }
    }
    EXPECT_GT(impacts, 300);
    EXPECT_GT(none, 50);
    EXPECT_GT(fast, 300);
}

TEST(ExplainAdvancementPropertyTest, AnImpactFoundIsWhereTheStepsFreeFlightTakesThePair) {
    // Such pairs, spinning at 6, 60 and 300 rad/s: flown to the time a search found along their
    // flight paths, as a step flies a body to an impact, the pair is within the advancement's
    // tolerance of its 1 mm target. The search and the step read the same path: a chain of short
    // flights ends where one long flight does. (When each look-ahead flew on from the last, the
    // splitting's error put pairs at 60 rad/s 0.5 mm and at 300 rad/s 1 mm nearer than the search
    // had them; when the look-ahead held a tumbling box's angular velocity fixed, some touched.)
    constexpr unsigned kSeed = 9292u;
    std::mt19937 rng(kSeed);
    int impacts = 0;
    float worst = INFINITY;
    for (int i = 0; i < 1500; ++i) {
        const ShapeType first = i % 4 == 0 ? ShapeType::Sphere : ShapeType::Box;
        const float spin = i % 3 == 0 ? 300.0f : i % 3 == 1 ? 60.0f : 6.0f;
        World world = thrownPair(rng, first, spin);
        const float remaining = 1.0f / 30.0f;
        const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), remaining);
        if (t.method != ImpactMethod::Conservative || t.initialDistance < 0.01f) continue; // apart at first
        if (t.end != AdvancementEnd::Converged) continue;
        ++impacts;
        Body pa = world.bodies()[0], pb = world.bodies()[1];
        FlightPath pathA, pathB;
        pathA.fly(pa, rotationalEnergy(pa.orientation, pa.angularMomentum, pa.inertiaLocal), remaining);
        pathB.fly(pb, rotationalEnergy(pb.orientation, pb.angularMomentum, pb.inertiaLocal), remaining);
        pathA.poseAt(t.time, pa);
        pathB.poseAt(t.time, pb);
        const float below = trueDistance(pa, pb) - t.target;
        worst = std::min(worst, below);
        ASSERT_GT(below, -t.tolerance) << "seed " << kSeed << ", case " << i << ", spin " << spin;
    }
    EXPECT_GT(impacts, 500);
    std::printf("the nearest a pair came below its target at the impact: %g m\n", static_cast<double>(worst));
}

TEST(ExplainAdvancement, TwoBoxesClosingHeadOnAdvanceOnceAndStopHalfAMarginApart) {
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(body(ShapeType::Box, {-2, 0, 0}, {1, 0, 0}));
    world.addBody(body(ShapeType::Box, {2, 0, 0}, {0, 0, 0}));
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), 10.0f);
    EXPECT_EQ(t.method, ImpactMethod::Conservative);
    EXPECT_FLOAT_EQ(t.initialDistance, 3.0f);
    EXPECT_FLOAT_EQ(t.bound, 1.0f); // no spin: the relative speed
    ASSERT_EQ(t.stepCount, 2);      // no spin: the first advance is exact
    EXPECT_FLOAT_EQ(t.steps[0].advance, 3.0f - t.target);
    EXPECT_EQ(t.end, AdvancementEnd::Converged);
    EXPECT_FLOAT_EQ(t.time, 3.0f - t.target);
    EXPECT_GT(t.target, 0.0f);
}

TEST(ExplainAdvancement, ASpinningBoxCreepsUpOnTheImpactInSeveralSteps) {
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(body(ShapeType::Box, {-2, 0, 0}, {1, 0, 0}, {0, 0, 0.5f}));
    world.addBody(body(ShapeType::Box, {2, 0, 0}, {0, 0, 0}));
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), 10.0f);
    EXPECT_GT(t.bound, 1.0f);
    EXPECT_GT(t.stepCount, 3);
    EXPECT_EQ(t.end, AdvancementEnd::Converged);
    for (int k = 1; k < t.stepCount; ++k)
        EXPECT_GT(t.steps[std::size_t(k)].time, t.steps[std::size_t(k - 1)].time) << k;
    EXPECT_TRUE(sameBits(t.time, world.timeOfImpactBetween(0, Partner::body(1), 10.0f)));
}

TEST(ExplainAdvancement, FastSpinningBoxesFarApartRunOutOfIterationsAtASafeTime) {
    // The spin bound (their corners at 0.87 m from the centres turn at 30 and 20 rad/s) dwarfs
    // the closing speed: each advance covers a small part of the 0.6 m gap. Their bounding
    // spheres overlap already, so no jump can help.
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(body(ShapeType::Box, {-0.8f, 0, 0}, {1, 0, 0}, {0, 0, 30}));
    world.addBody(body(ShapeType::Box, {0.8f, 0, 0}, {0, 0, 0}, {0, 20, 0}));
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), 10.0f);
    EXPECT_GT(t.bound, 10.0f);
    EXPECT_EQ(t.end, AdvancementEnd::IterationLimit);
    EXPECT_EQ(t.stepCount, 64);
    EXPECT_GT(t.steps[63].distance, t.target + t.tolerance);
    EXPECT_TRUE(sameBits(t.time, t.steps[63].time + t.steps[63].advance));
}

TEST(ExplainAdvancement, AMillimetreBoxSpinningFastBesideAWallJumpsToWhereItsBoundingSphereCouldReachIt) {
    // 4 mm from the wall at x = -10, closing at 0.5 m/s and spinning at 1e5 rad/s: the spin bound
    // (over 500 m/s) makes each advance a few microseconds, but the bounding sphere (1.7 mm) cannot
    // come within the target for 2 ms, so the last advance of the first 64 flies there.
    World world(boxRoom(glm::vec3(20.0f)));
    BodyDesc box = body(ShapeType::Box, {-10.0f + 0.004f, 0, 0}, {-0.5f, 0, 0}, {0, 0, 1e5f});
    box.halfExtents = glm::vec3(0.001f);
    box.mass = 1e-3f;
    world.addBody(box);
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::wall(0), 1.0f / 120.0f);
    ASSERT_EQ(world.room().planes[0].normal, glm::vec3(1, 0, 0));
    EXPECT_EQ(t.method, ImpactMethod::Conservative);
    EXPECT_GT(t.bound, 100.0f);
    ASSERT_EQ(t.jumpStep, kz::kAdvanceIterations - 1);
    const AdvancementStep& jump = t.steps[std::size_t(t.jumpStep)];
    // Where the bounding sphere's gap, 4 - 1.732 mm, closes to the target and tolerance at 0.5 m/s.
    const float sphereGap = 0.004f - glm::length(glm::vec3(0.001f));
    EXPECT_NEAR(jump.time + jump.advance, (sphereGap - t.target - t.tolerance) / 0.5f, 1e-5f);
    EXPECT_GT(jump.advance, 10.0f * (jump.distance - t.target) / t.bound);
    EXPECT_GT(t.stepCount, kz::kAdvanceIterations);
    EXPECT_GE(t.time, jump.time + jump.advance);
    EXPECT_TRUE(sameBits(t.time, world.timeOfImpactBetween(0, Partner::wall(0), 1.0f / 120.0f)));
    expectIterationsAddUp(t, 1.0f / 120.0f, "the spinning box");
}

TEST(ExplainAdvancement, ASpinningBoxWhoseBoundingSphereCannotReachTheWallHasNoImpactAndNoSearch) {
    // Moving away from the wall, 2.3 mm from it: its bounding sphere never comes within the target.
    World world(boxRoom(glm::vec3(20.0f)));
    BodyDesc box = body(ShapeType::Box, {-10.0f + 0.0023f, 0, 0}, {0.5f, 0, 0}, {3e5f, 0, 1e5f});
    box.halfExtents = glm::vec3(0.001f);
    box.mass = 1e-3f;
    world.addBody(box);
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::wall(0), 0.1f);
    EXPECT_EQ(t.method, ImpactMethod::BoundingSpheresApart);
    EXPECT_EQ(t.stepCount, 0);
    EXPECT_EQ(t.time, INFINITY);
}

TEST(ExplainAdvancement, BoxesTooFarApartForTheTimeLeftStopAtTheirBoundingSpheres) {
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(body(ShapeType::Box, {-2, 0, 0}, {1, 0, 0}));
    world.addBody(body(ShapeType::Box, {2, 0, 0}, {0, 0, 0}));
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), 1.0f);
    EXPECT_EQ(t.method, ImpactMethod::BoundingSpheresApart);
    EXPECT_EQ(t.stepCount, 0);
    EXPECT_EQ(t.time, INFINITY);
}

TEST(ExplainAdvancement, ABoxTurnedAwayArrivesAfterTheTimeLeftAndEndsBeyondIt) {
    // The bounding spheres could meet within the time left, the boxes' faces cannot.
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(body(ShapeType::Box, {-1.2f, 0, 0}, {1, 0, 0}));
    world.addBody(body(ShapeType::Box, {1.2f, 0, 0}, {0, 0, 0}));
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), 1.0f);
    EXPECT_EQ(t.method, ImpactMethod::Conservative);
    EXPECT_EQ(t.end, AdvancementEnd::BeyondRemaining);
    ASSERT_EQ(t.stepCount, 1);
    EXPECT_FLOAT_EQ(t.steps[0].advance, 1.4f - t.target);
    EXPECT_EQ(t.time, INFINITY);
}

TEST(ExplainAdvancement, SpheresMeetExactlyWithoutIterations) {
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(body(ShapeType::Sphere, {-2, 0, 0}, {1, 0, 0}));
    world.addBody(body(ShapeType::Sphere, {2, 0, 0}, {-1, 0, 0}));
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), 10.0f);
    EXPECT_EQ(t.method, ImpactMethod::SphereSphereRoot);
    EXPECT_EQ(t.target, 0.0f);
    EXPECT_EQ(t.stepCount, 0);
    EXPECT_FLOAT_EQ(t.time, 1.5f);
    // |dp + dv t| = 1 with dp = (-4, 0, 0), dv = (2, 0, 0): 4 t^2 - 16 t + 15 = 0, root 1.5.
    EXPECT_EQ(t.spheres.a, 4.0f);
    EXPECT_EQ(t.spheres.b, -8.0f);
    EXPECT_EQ(t.spheres.c, 15.0f);
    EXPECT_EQ(t.spheres.root, 1.5f);
}

TEST(ExplainAdvancement, ABoxFallingOntoTheFloorAdvancesAgainstTheWall) {
    World world(boxRoom(glm::vec3(20.0f))); // the floor is at y = -10
    world.addBody(body(ShapeType::Box, {0, -8, 0}, {0, -3, 0}));
    int floor = -1;
    for (int k = 0; k < int(world.room().planes.size()); ++k) {
        if (world.room().planes[std::size_t(k)].normal.y > 0.5f) floor = k;
    }
    ASSERT_GE(floor, 0);
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::wall(floor), 1.0f);
    EXPECT_EQ(t.method, ImpactMethod::Conservative);
    EXPECT_FLOAT_EQ(t.initialDistance, 1.5f);
    EXPECT_FLOAT_EQ(t.bound, 3.0f);
    EXPECT_EQ(t.end, AdvancementEnd::Converged);
    EXPECT_NEAR(t.time, (1.5f - t.target) / 3.0f, 1e-6f);
}

TEST(ExplainAdvancement, TouchingBoxesAtRestDoNotApproach) {
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(body(ShapeType::Box, {0, 0, 0}, {0, 0, 0}));
    world.addBody(body(ShapeType::Box, {1.0005f, 0, 0}, {0, 0, 0}));
    const AdvancementTrace t = world.explainTimeOfImpact(0, Partner::body(1), 1.0f);
    EXPECT_EQ(t.method, ImpactMethod::NotApproaching);
    EXPECT_EQ(t.bound, 0.0f);
    EXPECT_EQ(t.time, INFINITY);
}

TEST(ExplainAdvancement, ABodyWithItselfOrOutOfRangeIsNotTraced) {
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(body(ShapeType::Box, {0, 0, 0}, {1, 0, 0}));
    for (const Partner p :
         {Partner::body(0), Partner::body(1), Partner::wall(6), Partner::obstacle(0), Partner::wall(-1)}) {
        const AdvancementTrace t = world.explainTimeOfImpact(0, p, 1.0f);
        EXPECT_FALSE(t.valid);
        EXPECT_EQ(t.time, INFINITY);
        EXPECT_EQ(world.timeOfImpactBetween(0, p, 1.0f), INFINITY);
    }
    EXPECT_FALSE(world.explainTimeOfImpact(-1, Partner::wall(0), 1.0f).valid);
}

} // namespace
