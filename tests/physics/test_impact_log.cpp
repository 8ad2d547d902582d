// Tests for the impact log (physics/impact_record.hpp, World::impacts, World::explainImpact):
// 1-D scenarios whose impacts are computed by hand (a ball at a wall, two balls head on, the
// classic two-ball set-up's whole event sequence over 10 s) give records with the exact time,
// step, point, normal, speeds before and after (after = -e x before) and impulse (m (1 + e) |v|
// at a wall); a box at a wall is found by conservative advancement, a ball on a mesh names its
// triangle; resting contacts and contacts pushed through give no record; the records are cleared
// each step and keep their capacity; and "Why here?" (explainImpact) gives each record's time to
// the bit with its method's numbers.
#include "geom/closest.hpp"
#include "physics/explain_advancement.hpp"
#include "physics/world.hpp"
#include "support/grid_mesh.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace kz;
using kz::test::gridMesh;

/// The default WorldSettings::timeStep, as the float it is.
const double kH = static_cast<double>(1.0f / 120.0f);

BodyDesc ball(const glm::vec3& position, const glm::vec3& velocity, float mass = 1.0f,
              float restitution = 1.0f, float radius = 0.5f) {
    BodyDesc d;
    d.shape = ShapeType::Sphere;
    d.radius = radius;
    d.position = position;
    d.velocity = velocity;
    d.mass = mass;
    d.restitution = restitution;
    return d;
}

BodyDesc box(const glm::vec3& position, const glm::vec3& velocity, float restitution = 1.0f) {
    BodyDesc d;
    d.shape = ShapeType::Box;
    d.halfExtents = glm::vec3(0.5f);
    d.position = position;
    d.velocity = velocity;
    d.mass = 2.0f;
    d.restitution = restitution;
    return d;
}

/// The wall whose inward normal is closest to `inward` (boxRoom's order is not the test's business).
int wallFacing(const World& world, const glm::vec3& inward) {
    const auto& planes = world.room().planes;
    int best = 0;
    for (int k = 1; k < static_cast<int>(planes.size()); ++k) {
        if (glm::dot(planes[std::size_t(k)].normal, inward) >
            glm::dot(planes[std::size_t(best)].normal, inward))
            best = k;
    }
    return best;
}

/// Steps until a step records an impact (at most `steps`); the records of that step.
std::vector<ImpactRecord> stepToFirstImpact(World& world, int steps = 10000) {
    for (int i = 0; i < steps; ++i) {
        world.step();
        if (!world.impacts().empty()) return world.impacts();
    }
    return {};
}

/// The search behind a record, run again: its time is the record's, bit for bit.
void expectWhyHereIsExact(const World& world, const ImpactRecord& r) {
    const AdvancementTrace why = world.explainImpact(r);
    ASSERT_TRUE(why.valid);
    EXPECT_EQ(why.method, r.method);
    const double again = r.search.time + static_cast<double>(why.time);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(again), std::bit_cast<std::uint64_t>(r.time))
        << "why " << again << " record " << r.time;
}

TEST(ImpactLog, ABallFlyingAtAWallIsRecordedAtTheExactTimePointAndSpeeds) {
    // Its surface starts 1 cm from the wall x = 5 and closes at 2 m/s: the impact is 5 ms into
    // the first step, at (5, 0, 0), normal -x; with e = 0.5 it leaves at 1 m/s, after an impulse
    // m (1 + e) |v| = 3 kg x 1.5 x 2 m/s = 9 N s.
    World world(boxRoom(glm::vec3(10.0f)));
    world.addBody(ball({4.49f, 0, 0}, {2, 0, 0}, 3.0f, 0.5f));
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    const ImpactRecord& r = world.impacts()[0];
    EXPECT_EQ(r.step, 1u);
    // 4.49 as a float is 4.4899997711181640625: the exact time of that start is 5.000114 ms.
    EXPECT_NEAR(r.time, (4.5 - static_cast<double>(4.49f)) / 2.0, 1e-10);
    EXPECT_EQ(r.body, 0);
    EXPECT_EQ(r.partner, Partner::wall(wallFacing(world, {-1, 0, 0})));
    EXPECT_EQ(r.triangle, 0u);
    EXPECT_NEAR(r.point.x, 5.0f, 1e-5f);
    EXPECT_EQ(r.point.y, 0.0f);
    EXPECT_EQ(r.point.z, 0.0f);
    EXPECT_EQ(r.normal, glm::vec3(-1, 0, 0));
    EXPECT_FLOAT_EQ(r.speedBefore, -2.0f);
    EXPECT_FLOAT_EQ(r.speedAfter, 1.0f); // -e x before
    EXPECT_FLOAT_EQ(r.impulse, 9.0f);
    EXPECT_EQ(r.method, ImpactMethod::SpherePlaneRoot);
    EXPECT_EQ(r.search.time, 0.0);
    EXPECT_EQ(r.search.body.position, glm::vec3(4.49f, 0, 0));
    EXPECT_EQ(r.bodyPose.velocityBefore, glm::vec3(2, 0, 0));
    EXPECT_FLOAT_EQ(r.bodyPose.velocityAfter.x, -1.0f);
    EXPECT_NEAR(r.bodyPose.position.x, 4.5f, 1e-6f); // flown to the impact
    expectWhyHereIsExact(world, r);

    // "Why here?": the linear root d0 / approach = 0.01 m / 2 m/s.
    const AdvancementTrace why = world.explainImpact(r);
    EXPECT_EQ(why.plane.end, SweepRootEnd::Root);
    EXPECT_FLOAT_EQ(why.plane.approach, 2.0f);
    EXPECT_NEAR(why.plane.distance, 0.01f, 1e-6f);
    EXPECT_EQ(why.plane.gap, 0.0f);
    EXPECT_EQ(why.stepCount, 0);
}

TEST(ImpactLog, TwoBallsHeadOnAreOneRecordWithTheTextbookImpulse) {
    // 1 kg at 2 m/s meets 3 kg at -2 m/s, e = 0.8 (the larger of the two): surfaces 2 cm apart,
    // closing at 4 m/s: 5 ms in. J = (1 + e) |v_rel| / (1/m1 + 1/m2) = 1.8 x 4 / (4/3) = 5.4 N s.
    World world(boxRoom(glm::vec3(10.0f)));
    world.addBody(ball({-0.51f, 0, 0}, {2, 0, 0}, 1.0f, 0.8f));
    world.addBody(ball({0.51f, 0, 0}, {-2, 0, 0}, 3.0f, 0.2f));
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    const ImpactRecord& r = world.impacts()[0];
    EXPECT_NEAR(r.time, 0.005, 1e-7);
    EXPECT_EQ(r.body, 0);
    EXPECT_EQ(r.partner, Partner::body(1));
    EXPECT_NEAR(r.point.x, 0.0f, 1e-6f);      // on the partner's surface: where they meet
    EXPECT_EQ(r.normal, glm::vec3(-1, 0, 0)); // from ball 1 toward ball 0
    EXPECT_FLOAT_EQ(r.speedBefore, -4.0f);
    EXPECT_NEAR(r.speedAfter, 3.2f, 1e-5f);
    EXPECT_NEAR(r.impulse, 5.4f, 1e-5f);
    EXPECT_EQ(r.method, ImpactMethod::SphereSphereRoot);
    expectWhyHereIsExact(world, r);
    const AdvancementTrace why = world.explainImpact(r);
    EXPECT_EQ(why.spheres.end, SweepRootEnd::Root);
    EXPECT_FLOAT_EQ(why.spheres.a, 16.0f);  // dv . dv
    EXPECT_FLOAT_EQ(why.spheres.b, -4.08f); // dp . dv
    EXPECT_NEAR(why.spheres.root, 0.005f, 1e-7f);
}

/// One impact of the classic set-up: when, and who (0 A and the left wall, 1 A and B, 2 B and the
/// right wall).
struct ClassicImpact {
    double time;
    int kind;
};

/// Two equal balls between walls at +-5 (radius 0.5), elastic, on the x axis: every impact up to
/// `end`, in double.
std::vector<ClassicImpact> classicImpacts(double xA, double vA, double xB, double vB, double end) {
    double now = 0.0;
    std::vector<ClassicImpact> out;
    while (true) {
        const double toLeft = vA < 0.0 ? (-4.5 - xA) / vA : INFINITY;
        const double toRight = vB > 0.0 ? (4.5 - xB) / vB : INFINITY;
        const double toBall = vA > vB ? ((xB - xA) - 1.0) / (vA - vB) : INFINITY;
        const double dt = std::min({toLeft, toRight, toBall});
        if (now + dt > end) return out;
        now += dt;
        xA += vA * dt;
        xB += vB * dt;
        const int kind = dt == toBall ? 1 : dt == toLeft ? 0 : 2;
        out.push_back({now, kind});
        if (kind == 1) std::swap(vA, vB);
        if (kind == 0) vA = -vA;
        if (kind == 2) vB = -vB;
    }
}

TEST(ImpactLog, TheClassicTwoBallSetUpRecordsEveryImpactOfTheExactEventSequence) {
    // The `deterministic` scenario (A at -2 at 3 m/s, B at 2 at 1 m/s), nudged by 1/256 and
    // 1/1024 m so that no impact falls on a step's end, with steps of 1/128 s: every position and
    // time up to the first impact is a float exactly, so the impacts' times are the exact ones to
    // within the rounding of the few impact times that are not (those divided by 3 or 6).
    WorldSettings settings;
    settings.timeStep = 1.0f / 128.0f;
    World world(boxRoom(glm::vec3(10.0f)), settings);
    const double xA = -2.0 + 1.0 / 256.0, xB = 2.0 + 1.0 / 1024.0;
    world.addBody(ball({static_cast<float>(xA), 0, 0}, {3, 0, 0}));
    world.addBody(ball({static_cast<float>(xB), 0, 0}, {1, 0, 0}));
    const int left = wallFacing(world, {1, 0, 0}), right = wallFacing(world, {-1, 0, 0});
    const double h = 1.0 / 128.0;
    std::vector<ImpactRecord> records;
    for (int i = 0; i < 1280; ++i) {
        world.step();
        for (const ImpactRecord& r : world.impacts()) {
            EXPECT_EQ(r.step, world.stepCount());
            EXPECT_GT(r.time, 0.0);
            EXPECT_LT(r.time, h);
            records.push_back(r);
        }
    }
    const std::vector<ClassicImpact> exact = classicImpacts(xA, 3.0, xB, 1.0, 10.0);
    ASSERT_EQ(records.size(), exact.size());
    ASSERT_EQ(exact.size(), 10u);
    double worst = 0.0;
    for (std::size_t k = 0; k < exact.size(); ++k) {
        const ImpactRecord& r = records[k];
        const double t = static_cast<double>(r.step - 1) * h + r.time;
        worst = std::max(worst, std::abs(t - exact[k].time));
        EXPECT_NEAR(t, exact[k].time, 1e-9) << "impact " << k;
        EXPECT_EQ(r.step, static_cast<std::uint64_t>(std::ceil(exact[k].time / h))) << "impact " << k;
        const Partner expected = exact[k].kind == 1   ? Partner::body(1)
                                 : exact[k].kind == 0 ? Partner::wall(left)
                                                      : Partner::wall(right);
        EXPECT_EQ(r.partner, expected) << "impact " << k;
        EXPECT_EQ(r.body, exact[k].kind == 2 ? 1 : 0) << "impact " << k;
        // Elastic: the normal speed turns round; equal unit masses: the impulse is 2 |v| (a wall) or
        // |v_rel| (two balls, reduced mass 1/2).
        EXPECT_NEAR(r.speedAfter, -r.speedBefore, 1e-5f) << "impact " << k;
        EXPECT_LT(r.speedBefore, 0.0f) << "impact " << k;
        EXPECT_NEAR(r.impulse, (exact[k].kind == 1 ? 1.0f : 2.0f) * -r.speedBefore, 1e-5f) << "impact " << k;
        expectWhyHereIsExact(world, r);
    }
    std::printf("%zu impacts in 10 s, largest time error %.3g s\n", records.size(), worst);
    // The first is exact: A and B close 2.99609375 m - 1 m at 2 m/s.
    EXPECT_EQ(static_cast<double>(records[0].step - 1) * h + records[0].time, exact[0].time);
}

TEST(ImpactLog, ABoxHittingAWallIsFoundByConservativeAdvancement) {
    // A 2 kg cube, its face 11 mm from the wall x = 5 at 2 m/s, no spin: advancement stops half
    // the 2 mm margin short, (11 - 1) mm / 2 m/s = 5 ms in, in one exact advance.
    World world(boxRoom(glm::vec3(10.0f)));
    world.addBody(box({4.489f, 0, 0}, {2, 0, 0}));
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    const ImpactRecord& r = world.impacts()[0];
    EXPECT_EQ(r.method, ImpactMethod::Conservative);
    EXPECT_NEAR(r.time, 0.005, 1e-6);
    EXPECT_EQ(r.partner, Partner::wall(wallFacing(world, {-1, 0, 0})));
    EXPECT_NEAR(r.point.x, 5.0f, 1e-5f); // the face's four corners, equally loaded: its centre
    EXPECT_NEAR(r.point.y, 0.0f, 1e-5f);
    EXPECT_NEAR(r.point.z, 0.0f, 1e-5f);
    EXPECT_EQ(r.normal, glm::vec3(-1, 0, 0));
    EXPECT_NEAR(r.speedBefore, -2.0f, 1e-5f);
    EXPECT_NEAR(r.speedAfter, 2.0f, 1e-4f);
    EXPECT_NEAR(r.impulse, 8.0f, 1e-4f); // 2 kg x 2 x 2 m/s
    expectWhyHereIsExact(world, r);

    const AdvancementTrace why = world.explainImpact(r);
    EXPECT_NEAR(why.initialDistance, 0.011f, 1e-6f);
    EXPECT_FLOAT_EQ(why.target, 0.001f);
    EXPECT_FLOAT_EQ(why.bound, 2.0f);
    ASSERT_EQ(why.stepCount, 2);
    EXPECT_NEAR(why.steps[0].advance, 0.005f, 1e-6f);
    EXPECT_EQ(why.end, AdvancementEnd::Converged);
}

TEST(ImpactLog, ASpinningBoxReachesTheWallInSeveralAdvancesThatAddUp) {
    World world(boxRoom(glm::vec3(10.0f)));
    BodyDesc d = box({3.9f, 0.3f, 0}, {6, 0, 0});
    d.angularVelocity = {0, 0, 9};
    world.addBody(d);
    const std::vector<ImpactRecord> records = stepToFirstImpact(world, 120);
    ASSERT_FALSE(records.empty());
    const ImpactRecord& r = records[0];
    EXPECT_EQ(r.method, ImpactMethod::Conservative);
    expectWhyHereIsExact(world, r);
    const AdvancementTrace why = world.explainImpact(r);
    ASSERT_GE(why.stepCount, 3) << "a spin bound makes each advance cover only part of the gap";
    EXPECT_EQ(why.end, AdvancementEnd::Converged);
    for (int k = 0; k + 1 < why.stepCount; ++k) {
        const AdvancementStep& s = why.steps[std::size_t(k)];
        EXPECT_EQ(why.steps[std::size_t(k + 1)].time, s.time + s.advance);
        EXPECT_EQ(s.advance, (s.distance - why.target) / why.bound);
    }
}

/// A world with a 4 x 4 grid floor at y = -2 (32 triangles).
World worldWithGrid() {
    World world(boxRoom(glm::vec3(10.0f)));
    ObstacleDesc d;
    d.name = "grid";
    d.mesh = gridMesh(4);
    d.position = {0, -2, 0};
    std::string error;
    std::optional<Obstacle> grid = makeObstacle(d, error);
    EXPECT_TRUE(grid) << error;
    if (grid) world.addObstacle(std::move(*grid));
    return world;
}

TEST(ImpactLog, ABallFallingOnAMeshNamesTheTriangleItHit) {
    World world = worldWithGrid();
    world.addBody(ball({0.3f, -1.49f, 0.6f}, {0, -2, 0}, 1.0f, 1.0f));
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    const ImpactRecord& r = world.impacts()[0];
    EXPECT_EQ(r.partner, Partner::obstacle(0));
    EXPECT_EQ(r.method, ImpactMethod::SphereTriangleSweep);
    EXPECT_NEAR(r.time, 0.005, 1e-6);
    EXPECT_NEAR(r.point.x, 0.3f, 1e-5f);
    EXPECT_NEAR(r.point.y, -2.0f, 1e-5f);
    EXPECT_NEAR(r.point.z, 0.6f, 1e-5f);
    EXPECT_NEAR(r.normal.y, 1.0f, 1e-6f);
    EXPECT_NEAR(r.speedAfter, 2.0f, 1e-5f);
    // The recorded triangle is the one under the ball.
    const Triangle hit = world.obstacles()[0].worldTriangle(r.triangle);
    EXPECT_LT(glm::distance(closestPtPointTriangle(r.point, hit), r.point), 1e-5f);
    expectWhyHereIsExact(world, r);
    const AdvancementTrace why = world.explainImpact(r);
    EXPECT_EQ(why.triangle, static_cast<std::int64_t>(r.triangle));
    EXPECT_GE(why.nearTriangles, 1);
    EXPECT_EQ(why.sweep.winner, SweepFeature::Face);
}

TEST(ImpactLog, ABoxFallingOnAMeshIsFoundByAdvancementOverTheTrianglesNearIt) {
    World world = worldWithGrid();
    world.addBody(box({0.3f, -1.489f, 0.6f}, {0, -2, 0}));
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    const ImpactRecord& r = world.impacts()[0];
    EXPECT_EQ(r.partner, Partner::obstacle(0));
    EXPECT_EQ(r.method, ImpactMethod::Conservative);
    EXPECT_NEAR(r.time, 0.005, 1e-6);
    EXPECT_NEAR(r.impulse, 8.0f, 1e-3f);
    expectWhyHereIsExact(world, r);
    const AdvancementTrace why = world.explainImpact(r);
    EXPECT_GE(why.nearTriangles, 2);
    EXPECT_EQ(why.end, AdvancementEnd::Converged);
}

TEST(ImpactLog, RestingContactsGiveNoRecords) {
    // A ball and a box dropped onto the floor without bounce: their first contacts are impacts,
    // then they rest, and a resting contact is no impact.
    WorldSettings settings;
    settings.gravity = {0, -9.81f, 0};
    World world(boxRoom(glm::vec3(10.0f)), settings);
    world.addBody(ball({-2, -4.3f, 0}, {0, 0, 0}, 1.0f, 0.0f));
    world.addBody(box({2, -4.3f, 0}, {0, 0, 0}, 0.0f));
    int early = 0;
    for (int i = 0; i < 240; ++i) {
        world.step();
        early += static_cast<int>(world.impacts().size());
    }
    EXPECT_GE(early, 2) << "each body's landing is an impact";
    for (int i = 0; i < 600; ++i) {
        world.step();
        EXPECT_TRUE(world.impacts().empty())
            << "step " << world.stepCount() << ": body " << world.impacts()[0].body << " at rest";
    }
    // They rest on the floor.
    EXPECT_LT(glm::length(world.bodies()[0].velocity), 0.1f);
    EXPECT_LT(glm::length(world.bodies()[1].velocity), 0.1f);
}

TEST(ImpactLog, AContactPushedThroughByAnImpactIsNoImpact) {
    // Newton's cradle: A hits B, which touches C at rest. Only A and B are an impact.
    World world(boxRoom(glm::vec3(20.0f)));
    world.addBody(ball({-1.02f, 0, 0}, {2, 0, 0}));
    world.addBody(ball({0, 0, 0}, {0, 0, 0}));
    world.addBody(ball({1, 0, 0}, {0, 0, 0}));
    const std::vector<ImpactRecord> records = stepToFirstImpact(world, 10);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].body, 0);
    EXPECT_EQ(records[0].partner, Partner::body(1));
    EXPECT_GT(glm::length(world.bodies()[2].velocity), 0.5f) << "C was pushed through B";
}

TEST(ImpactLog, APairTouchingAtTheStepStartWhileClosingIsBouncedThereAndRecorded) {
    // 5 um from the wall, inside the 10 um a sphere's contact reaches: the step start's solve
    // bounces it, before any search.
    World world(boxRoom(glm::vec3(10.0f)));
    world.addBody(ball({4.499995f, 0, 0}, {2, 0, 0}));
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    const ImpactRecord& r = world.impacts()[0];
    EXPECT_EQ(r.method, ImpactMethod::TouchingAtStepStart);
    EXPECT_EQ(r.time, 0.0);
    EXPECT_FLOAT_EQ(r.speedBefore, -2.0f);
    EXPECT_NEAR(r.speedAfter, 2.0f, 1e-5f);
    EXPECT_NEAR(r.impulse, 4.0f, 1e-5f);
    EXPECT_EQ(world.lastStepImpacts(), 0); // no impact event: the step start did it
    const AdvancementTrace why = world.explainImpact(r);
    EXPECT_EQ(why.method, ImpactMethod::TouchingAtStepStart);
    EXPECT_NEAR(why.initialDistance, 5e-6f, 1e-6f);
    EXPECT_LE(why.initialDistance, why.target);
    EXPECT_EQ(why.time, 0.0f);
}

TEST(ImpactLog, RecordsAreClearedEachStepAndKeepTheirCapacity) {
    World world(boxRoom(glm::vec3(10.0f)));
    world.addBody(ball({4.49f, 0, 0}, {2, 0, 0}));
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    const std::size_t capacity = world.impacts().capacity();
    const ImpactRecord* storage = world.impacts().data();
    world.step();
    EXPECT_TRUE(world.impacts().empty());
    EXPECT_EQ(world.impacts().capacity(), capacity);
    EXPECT_EQ(world.impacts().data(), storage);
    EXPECT_EQ(world.lastStepImpacts(), 0);
}

TEST(ImpactLog, TwoWorldsBuiltTheSameWayAndACopyRecordTheSameImpactsBitForBit) {
    const auto build = [] {
        World world(boxRoom(glm::vec3(6.0f)));
        for (int i = 0; i < 12; ++i) {
            const float f = static_cast<float>(i);
            world.addBody(i % 3 == 0 ? box({-2.0f + 0.4f * f, 1.5f * std::sin(f), 0.5f * std::cos(f)},
                                           {3.0f * std::cos(f), 2.0f, -1.0f})
                                     : ball({-2.0f + 0.4f * f, -1.5f * std::sin(f), -1.0f},
                                            {-2.0f, 4.0f * std::sin(f), 3.0f}, 1.0f, 1.0f, 0.15f));
        }
        return world;
    };
    World a = build(), b = build();
    for (int i = 0; i < 150; ++i) {
        a.step();
        b.step();
    }
    World c = a; // a copy continues as the original does
    int compared = 0;
    for (int i = 0; i < 450; ++i) {
        a.step();
        b.step();
        c.step();
        ASSERT_EQ(a.impacts().size(), b.impacts().size());
        ASSERT_EQ(a.impacts().size(), c.impacts().size());
        for (std::size_t k = 0; k < a.impacts().size(); ++k) {
            const ImpactRecord &x = a.impacts()[k], &y = b.impacts()[k], &z = c.impacts()[k];
            for (const ImpactRecord* other : {&y, &z}) {
                EXPECT_EQ(std::memcmp(&x.time, &other->time, sizeof x.time), 0);
                EXPECT_EQ(x.body, other->body);
                EXPECT_EQ(x.partner, other->partner);
                EXPECT_EQ(x.point, other->point);
                EXPECT_EQ(x.impulse, other->impulse);
            }
            expectWhyHereIsExact(a, x);
            ++compared;
        }
    }
    EXPECT_GT(compared, 20);
}

} // namespace
