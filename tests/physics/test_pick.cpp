// Picking: the nearest body or obstacle along a ray, in its current pose (src/physics/pick.hpp);
// the hierarchy's walk against the reference scan of every bound, bit for bit, over random worlds,
// rays, steps and every way of changing a body.
#include "physics/pick.hpp"
#include "support/random_worlds.hpp"
#include "support/same_bits.hpp"

#include <cmath>
#include <functional>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using kz::BodyDesc;
using kz::Ray;
using kz::ShapeType;
using kz::World;
using kz::test::box;
using kz::test::describe;
using kz::test::movingWorld;
using kz::test::randomRay;
using kz::test::randomWorld;
using kz::test::sphere;

TEST(Pick, NearerOfTwoBodiesOnTheSameLineOfSightWinsWhateverTheirOrder) {
    for (int order = 0; order < 2; ++order) {
        World world(kz::boxRoom(glm::vec3(20.0f)));
        const BodyDesc far = sphere("far", {0, 0, -6}, 1.0f), near = box("near", {0, 0, -2}, glm::vec3(0.5f));
        if (order == 0) {
            world.addBody(far);
            world.addBody(near);
        } else {
            world.addBody(near);
            world.addBody(far);
        }
        const auto hit = kz::pickNearest(world, Ray{{0, 0, 5}, {0, 0, -1}});
        ASSERT_TRUE(hit);
        EXPECT_EQ(world.bodies()[hit->body].name, "near");
        EXPECT_FLOAT_EQ(hit->hit.t, 6.5f);
        EXPECT_EQ(hit->hit.normal, glm::vec3(0, 0, 1));
    }
}

TEST(Pick, BigBoundingSphereInFrontDoesNotHideASmallerNearerHitBehindIt) {
    // A long thin box whose bounding sphere starts first but which the ray misses, then a ball.
    World world(kz::boxRoom(glm::vec3(40.0f)));
    world.addBody(box("slab", {3, 0, 0}, {0.1f, 5.0f, 0.1f}));
    world.addBody(sphere("ball", {0, 0, -2}, 0.5f));
    const auto hit = kz::pickNearest(world, Ray{{0, 0, 10}, {0, 0, -1}});
    ASSERT_TRUE(hit);
    EXPECT_EQ(world.bodies()[hit->body].name, "ball");
}

TEST(Pick, RotatedBoxIsPickedByItsTrueShapeNotItsBounds) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(
        box("diamond", {0, 0, 0}, glm::vec3(1.0f), glm::angleAxis(0.78539816f, glm::vec3(0, 0, 1))));
    // Through the corner region of the unrotated box, outside the rotated one: a miss.
    EXPECT_FALSE(kz::pickNearest(world, Ray{{0.9f, 0.9f, 5}, {0, 0, -1}}));
    // Along x: hits the 45-degree edge at x = -sqrt(2).
    const auto hit = kz::pickNearest(world, Ray{{-5, 0, 0}, {1, 0, 0}});
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->hit.t, 5.0f - std::sqrt(2.0f), 1e-4f);
}

TEST(Pick, RayStartingInsideABodyPicksItAtZero) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(sphere("around", {0, 0, 0}, 2.0f));
    world.addBody(sphere("beyond", {0, 0, -5}, 1.0f));
    const auto hit = kz::pickNearest(world, Ray{{0, 0, 0.5f}, {0, 0, -3}});
    ASSERT_TRUE(hit);
    EXPECT_EQ(world.bodies()[hit->body].name, "around");
    EXPECT_EQ(hit->hit.t, 0.0f);
}

TEST(Pick, BodiesAreTestedWhereTheyAreNowAfterMoving) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    BodyDesc mover = sphere("mover", {-3, 0, 0}, 0.5f);
    mover.velocity = {6, 0, 0};
    world.addBody(mover);
    const Ray ray{{0, 0, 5}, {0, 0, -1}};
    EXPECT_FALSE(kz::pickNearest(world, ray));
    for (int i = 0; i < 60; ++i) // half a second: the ball moved 3 m to the origin
        world.step();
    EXPECT_TRUE(kz::pickNearest(world, ray));
}

TEST(Pick, EmptySpaceBehindTheOriginAndInvalidRaysPickNothing) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(sphere("ball", {0, 0, 0}, 1.0f));
    EXPECT_FALSE(kz::pickNearest(world, Ray{{0, 5, 5}, {0, 0, -1}}));
    EXPECT_FALSE(kz::pickNearest(world, Ray{{0, 0, 5}, {0, 0, 1}})); // ball behind
    EXPECT_FALSE(kz::pickNearest(world, Ray{{0, 0, 5}, {0, 0, 0}}));
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(kz::pickNearest(world, Ray{{nan, 0, 5}, {0, 0, -1}}));
    EXPECT_FALSE(kz::pickNearest(world, Ray{{0, 0, 5}, {0, 0, -1}}, 3.0f)); // beyond tMax
    EXPECT_FALSE(kz::pickNearest(world, Ray{{0, 0, 5}, {0, 0, -1}}, nan));
}

TEST(Pick, NonUnitDirectionMeasuresTInItsOwnUnits) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(sphere("ball", {0, 0, 0}, 1.0f));
    const auto hit = kz::pickNearest(world, Ray{{0, 0, 5}, {0, 0, -4}});
    ASSERT_TRUE(hit);
    EXPECT_FLOAT_EQ(hit->hit.t, 1.0f);
}

TEST(Pick, PickAllListsEveryBodyOnTheRayNearestFirst) {
    World world(kz::boxRoom(glm::vec3(40.0f)));
    world.addBody(sphere("c", {0, 0, -8}, 1.0f));
    world.addBody(sphere("a", {0, 0, 0}, 1.0f));
    world.addBody(box("b", {0, 0, -4}, glm::vec3(1.0f)));
    world.addBody(sphere("off", {5, 0, -4}, 1.0f));
    const auto hits = kz::pickAll(world, Ray{{0, 0, 10}, {0, 0, -1}});
    ASSERT_EQ(hits.size(), 3u);
    EXPECT_EQ(world.bodies()[hits[0].body].name, "a");
    EXPECT_EQ(world.bodies()[hits[1].body].name, "b");
    EXPECT_EQ(world.bodies()[hits[2].body].name, "c");
}

TEST(PickProperty, NearestHitAgreesWithTestingEveryBody) {
    const unsigned seed = 2024u;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), size(0.1f, 0.6f);
    World world(kz::boxRoom(glm::vec3(20.0f)));
    for (int i = 0; i < 300; ++i) {
        const glm::vec3 p(unit(rng) * 8.0f, unit(rng) * 8.0f, unit(rng) * 8.0f);
        if (i % 2) {
            const glm::quat q = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
            world.addBody(box("box", p, {size(rng), size(rng), size(rng)}, q));
        } else {
            world.addBody(sphere("ball", p, size(rng)));
        }
    }
    int hits = 0;
    for (int k = 0; k < 20000; ++k) {
        const Ray ray{{unit(rng) * 9.0f, unit(rng) * 9.0f, unit(rng) * 9.0f},
                      {unit(rng), unit(rng), unit(rng) + 0.01f}};
        std::optional<kz::RayHit> best;
        int bestBody = -1;
        for (int i = 0; i < static_cast<int>(world.bodies().size()); ++i) {
            const kz::Body& b = world.bodies()[i];
            const auto h = b.shape == ShapeType::Sphere ? kz::raycast(ray, kz::sphereOf(b))
                                                        : kz::raycast(ray, kz::obbOf(b));
            if (h && (!best || h->t < best->t)) best = h, bestBody = i;
        }
        const auto picked = kz::pickNearest(world, ray);
        ASSERT_EQ(picked.has_value(), best.has_value()) << "seed " << seed << " case " << k;
        if (!best) continue;
        ++hits;
        EXPECT_EQ(picked->hit.t, best->t) << "seed " << seed << " case " << k;
        if (picked->body != bestBody) { // only a tie in t may pick the other body
            EXPECT_EQ(picked->hit.t, best->t) << "seed " << seed << " case " << k;
        }
    }
    EXPECT_GT(hits, 2000);
}

// ------------------------------------------------------------ the walk against the scan

using kz::PickHit;
using kz::test::sameBits;

/// The same answer to the bit: what was hit (body or obstacle, triangle, barycentrics), t, point
/// and normal.
bool samePick(const PickHit& a, const PickHit& b) {
    return a.body == b.body && a.obstacle == b.obstacle && a.triangle == b.triangle && sameBits(a.u, b.u) &&
           sameBits(a.v, b.v) && sameBits(a.hit.t, b.hit.t) && sameBits(a.hit.point, b.hit.point) &&
           sameBits(a.hit.normal, b.hit.normal);
}

std::string describe(const std::optional<PickHit>& hit) {
    if (!hit) return "miss";
    std::ostringstream os;
    os.precision(9);
    os << (hit->isBody() ? "body " : "obstacle ") << (hit->isBody() ? hit->body : hit->obstacle) << " t "
       << hit->hit.t;
    return os.str();
}

/// pickNearestByScan's t, for randomRay's tMax at exactly the nearest hit.
std::optional<float> nearestPickT(const World& world, const Ray& ray) {
    if (const auto hit = kz::pickNearestByScan(world, ray)) return hit->hit.t;
    return std::nullopt;
}

/// Counts over a comparison, so the tests can check they met hits, ties and misses.
struct Tally {
    int rays = 0, hits = 0, ties = 0;
};

/// pickNearest and pickAll against the scan on `rays` random rays: the same answers to the bit.
void expectSameAsScan(const World& world, std::mt19937& rng, int rays, const std::string& label,
                      Tally& tally) {
    for (int k = 0; k < rays; ++k) {
        const auto [ray, tMax] = randomRay(rng, world, nearestPickT);
        const std::string where = label + ", ray " + std::to_string(k) + ": " + describe(ray, tMax);
        const auto want = kz::pickNearestByScan(world, ray, tMax);
        const auto got = kz::pickNearest(world, ray, tMax);
        ASSERT_EQ(got.has_value(), want.has_value())
            << where << ": " << describe(got) << ", want " << describe(want);
        if (want) {
            ASSERT_TRUE(samePick(*got, *want))
                << where << ": " << describe(got) << ", want " << describe(want);
        }
        const auto all = kz::pickAll(world, ray, tMax);
        const auto wantAll = kz::pickAllByScan(world, ray, tMax);
        ASSERT_EQ(all.size(), wantAll.size()) << where;
        for (std::size_t i = 0; i < all.size(); ++i)
            ASSERT_TRUE(samePick(all[i], wantAll[i]))
                << where << ", hit " << i << ": " << describe(all[i]) << ", want " << describe(wantAll[i]);
        ++tally.rays;
        tally.hits += want.has_value();
        tally.ties += wantAll.size() >= 2 && wantAll[0].hit.t == wantAll[1].hit.t;
    }
}

TEST(PickProperty, TheHierarchysAnswersAreTheScansBitForBitOverRandomWorldsAndRays) {
    const unsigned seed = 0x7069636bu;
    std::mt19937 rng(seed);
    Tally tally;
    for (int w = 0; w < 60; ++w) {
        const int bodies = w < 4 ? w : static_cast<int>(rng() % 400u);
        const World world = randomWorld(rng, bodies, static_cast<int>(rng() % 4u));
        expectSameAsScan(world, rng, 300, "seed " + std::to_string(seed) + ", world " + std::to_string(w),
                         tally);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(tally.hits, tally.rays / 3);
    EXPECT_GT(tally.rays - tally.hits, tally.rays / 20);
    EXPECT_GT(tally.ties, 50) << "copies of a body and rays from inside give equal t";
}

TEST(PickProperty, TheHierarchyFollowsTheBodiesThroughStepsAndEveryChange) {
    const unsigned seed = 0x73746570u;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), u01(0.0f, 1.0f);
    Tally tally;
    for (int w = 0; w < 12; ++w) {
        const std::string label = "seed " + std::to_string(seed) + ", world " + std::to_string(w);
        World world = movingWorld(rng, 50 + static_cast<int>(rng() % 300u), static_cast<int>(rng() % 3u));
        const auto check = [&](const World& which, const std::string& after) {
            expectSameAsScan(which, rng, 60, label + " after " + after, tally);
        };
        for (int s = 0; s < 4; ++s) {
            for (int i = 0; i < 15; ++i)
                world.step();
            check(world, std::to_string(15 * (s + 1)) + " steps");
            if (HasFatalFailure()) return;
        }
        const int n = static_cast<int>(world.bodies().size());
        const auto someBody = [&] { return static_cast<int>(u01(rng) * static_cast<float>(n - 1)); };
        world.setBodyPosition(someBody(), {unit(rng) * 18.0f, unit(rng) * 18.0f, unit(rng) * 18.0f});
        check(world, "setBodyPosition");
        world.setBodyVelocity(someBody(), {unit(rng) * 40.0f, 0.0f, 0.0f}, glm::vec3(0.0f));
        for (int i = 0; i < 3; ++i)
            world.step();
        check(world, "setBodyVelocity and steps");
        kz::Body grown = world.bodies()[static_cast<std::size_t>(someBody())];
        grown.shape = ShapeType::Box;
        grown.halfExtents = {6.0f, 0.5f, 2.0f};
        grown.position = {unit(rng) * 10.0f, unit(rng) * 10.0f, unit(rng) * 10.0f};
        const int grownIndex = someBody();
        world.setBody(grownIndex, grown);
        check(world, "setBody (a box grown and moved)");
        world.addBody(sphere("late", {unit(rng) * 10.0f, unit(rng) * 10.0f, unit(rng) * 10.0f}, 2.0f));
        check(world, "addBody");
        const World copy = world;
        check(copy, "a copy");
        World copied(world);
        World moved(std::move(copied));
        moved.step();
        check(moved, "a moved copy and a step");
        check(world, "the copy stepped (the original untouched)");
        kz::Body lost = world.bodies()[static_cast<std::size_t>(someBody())];
        lost.position.x = std::numeric_limits<float>::quiet_NaN();
        world.setBody(someBody(), lost);
        check(world, "setBody with a NaN position");
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(tally.hits, tally.rays / 3);
}

TEST(Pick, TwoIdenticalBodiesInOnePlaceTieAndTheLowerIndexWins) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(sphere("other", {5, 5, 5}, 1.0f));
    world.addBody(box("first", {0, 0, 0}, glm::vec3(1.0f)));
    world.addBody(box("second", {0, 0, 0}, glm::vec3(1.0f)));
    for (const Ray& ray : {Ray{{0, 0, 9}, {0, 0, -1}}, Ray{{0.2f, 0.1f, 0.3f}, {1, 0, 0}}}) {
        const auto hit = kz::pickNearest(world, ray);
        ASSERT_TRUE(hit);
        EXPECT_EQ(hit->body, 1);
        const auto all = kz::pickAll(world, ray);
        ASSERT_EQ(all.size(), 2u);
        EXPECT_EQ(all[0].body, 1);
        EXPECT_EQ(all[1].body, 2);
        EXPECT_EQ(all[0].hit.t, all[1].hit.t);
    }
}

TEST(Pick, AMovedBodyIsPickedWhereItIsNowWithoutAStep) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    for (int i = 0; i < 40; ++i)
        world.addBody(
            sphere("ball", {static_cast<float>(i % 8) - 4.0f, static_cast<float>(i / 8) - 2.0f, -5}, 0.3f));
    const Ray ray{{0, 8, 5}, {0, 0, -1}};
    EXPECT_FALSE(kz::pickNearest(world, ray));
    world.setBodyPosition(17, {0, 8, 0});
    const auto hit = kz::pickNearest(world, ray);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, 17);
    kz::Body away = world.bodies()[17];
    away.position = {0, -8, 0};
    world.setBody(17, away);
    EXPECT_FALSE(kz::pickNearest(world, ray));
}

} // namespace
