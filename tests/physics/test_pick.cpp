// Picking: the nearest body or obstacle along a ray, in its current pose (src/physics/pick.hpp).
#include "physics/pick.hpp"

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <string>

namespace {

using kz::BodyDesc;
using kz::Ray;
using kz::ShapeType;
using kz::World;

BodyDesc sphere(const char* name, glm::vec3 position, float radius) {
    BodyDesc d;
    d.name = name;
    d.position = position;
    d.radius = radius;
    return d;
}

BodyDesc box(const char* name, glm::vec3 position, glm::vec3 half, glm::quat orientation = {1, 0, 0, 0}) {
    BodyDesc d;
    d.name = name;
    d.shape = ShapeType::Box;
    d.position = position;
    d.halfExtents = half;
    d.orientation = orientation;
    return d;
}

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

} // namespace
