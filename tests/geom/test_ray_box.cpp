// raycast(Ray, Aabb) and raycast(Ray, Obb): scenarios from the contract in raycast.hpp, then
// property tests against an independent double-precision 6-plane clip (in world space for the
// OBB, while the implementation moves the ray into the box's frame).
#include "geom/geom.hpp"
#include "support/ray_test_support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <optional>
#include <vector>

namespace {

using namespace kz;
using namespace kz::raytest;

const Aabb kBox{{-1.0f, -2.0f, -3.0f}, {1.0f, 2.0f, 3.0f}};

glm::vec3 axis(int i, float sign = 1.0f) {
    glm::vec3 e(0.0f);
    e[i] = sign;
    return e;
}

/// True when the hit's normal is one of the candidates (for edges and corners, where either
/// face may be reported as entered).
::testing::AssertionResult normalIsOneOf(const std::optional<RayHit>& hit,
                                         std::initializer_list<glm::vec3> options) {
    if (!hit) return ::testing::AssertionFailure() << "no hit";
    for (const auto& n : options)
        if (glm::length(toD(hit->normal) - toD(n)) <= 1e-5) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "unexpected normal in " << str(*hit);
}

/// A rotation with exactly representable entries: local x -> world y, local y -> world z,
/// local z -> world x.
const glm::mat3 kCyclic{glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f, 0.0f, 1.0f),
                        glm::vec3(1.0f, 0.0f, 0.0f)};

glm::mat3 rotation(float angle, const glm::vec3& around) {
    return glm::mat3_cast(glm::angleAxis(angle, glm::normalize(around)));
}

// =============================================================================================
// AABB scenarios

TEST(RayAabb, RayHitsEachOfTheSixFacesWithThatFacesNormal) {
    for (int i = 0; i < 3; ++i) {
        for (const float sign : {1.0f, -1.0f}) {
            const glm::vec3 e = axis(i, sign);
            glm::vec3 origin{0.5f, 1.0f, 1.5f};
            origin[i] = sign * (kBox.max[i] + 5.0f);
            const Ray ray{origin, -2.0f * e};
            SCOPED_TRACE(str(ray));
            const auto hit = raycast(ray, kBox);
            EXPECT_TRUE(hitsAt(hit, ray, kInf, 2.5f, e, Kind::Solid));
            if (hit) {
                EXPECT_FLOAT_EQ(hit->point[i], sign * kBox.max[i]);
            }
        }
    }
}

TEST(RayAabb, ObliqueRayEntersThroughTheFaceItCrossesFirst) {
    const Ray ray{{-5.0f, 0.0f, 0.0f}, {4.0f, 1.0f, 0.5f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kBox), ray, kInf, 1.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    const Ray fromAbove{{0.0f, 0.0f, 7.0f}, {0.25f, -0.5f, -2.0f}};
    EXPECT_TRUE(hitsAt(raycast(fromAbove, kBox), fromAbove, kInf, 2.0f, {0.0f, 0.0f, 1.0f}, Kind::Solid));
}

TEST(RayAabb, BoxAwayFromTheOriginIsHitWithExactT) {
    const Aabb box{{10.0f, 20.0f, 30.0f}, {12.0f, 24.0f, 33.0f}};
    const Ray ray{{11.0f, 22.0f, 0.0f}, {0.0f, 0.0f, 3.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, box), ray, kInf, 10.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
}

TEST(RayAabb, RayStartingInsideHitsAtZeroFacingBack) {
    const Ray ray{{0.5f, -1.0f, 2.0f}, {3.0f, 0.0f, -4.0f}};
    const auto hit = raycast(ray, kBox);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 0.0f, {-0.6f, 0.0f, 0.8f}, Kind::Solid));
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->t, 0.0f);
    EXPECT_EQ(hit->point, ray.origin);
}

TEST(RayAabb, RayStartingOnAFaceHitsAtZeroWhicheverWayItPoints) {
    for (const glm::vec3 dir : {glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(-1.0f, 0.0f, 0.0f),
                                glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(2.0f, -1.0f, 3.0f)}) {
        const Ray ray{{1.0f, 0.5f, -0.5f}, dir};
        SCOPED_TRACE(str(ray));
        EXPECT_TRUE(hitsAt(raycast(ray, kBox), ray, kInf, 0.0f, insideNormal(dir), Kind::Solid));
    }
}

TEST(RayAabb, RayStartingOnAnEdgeOrACornerHitsAtZero) {
    const Ray edge{{1.0f, 2.0f, 0.0f}, {1.0f, 1.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(edge, kBox), edge, kInf, 0.0f, insideNormal(edge.dir), Kind::Solid));
    const Ray corner{{-1.0f, -2.0f, -3.0f}, {-1.0f, -1.0f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(corner, kBox), corner, kInf, 0.0f, insideNormal(corner.dir), Kind::Solid));
}

TEST(RayAabb, RayStartingInsideWithZeroTMaxStillHitsAtZero) {
    const Ray ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kBox, 0.0f), ray, 0.0f, 0.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
}

TEST(RayAabb, RayGrazingAlongAFaceHits) {
    // Lies in the plane z = 3 of the top face (0 / 0 in a naive slab test).
    const Ray alongX{{-5.0f, 0.0f, 3.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(alongX, kBox), alongX, kInf, 4.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    const Ray alongY{{0.5f, -6.0f, -3.0f}, {0.0f, 2.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(alongY, kBox), alongY, kInf, 2.0f, {0.0f, -1.0f, 0.0f}, Kind::Solid));
}

TEST(RayAabb, RayGrazingAlongAnEdgeHits) {
    const Ray ray{{-5.0f, 2.0f, 3.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kBox), ray, kInf, 4.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
}

TEST(RayAabb, RayTouchingOnlyAnEdgeHits) {
    // Crosses the edge y = 2, z = 3 at t = 4 and stays outside before and after.
    const Ray ray{{0.0f, 6.0f, 1.0f}, {0.0f, -1.0f, 0.5f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kBox), ray, kInf, 4.0f, {0.0f, 1.0f, 0.0f}, Kind::Solid));
    // Crossing the edge into the box: either face may be reported.
    const Ray diagonal{{0.0f, 7.0f, 8.0f}, {0.0f, -1.0f, -1.0f}};
    const auto hit = raycast(diagonal, kBox);
    ASSERT_TRUE(hit);
    EXPECT_TRUE(isWellFormedHit(*hit, diagonal, kInf));
    EXPECT_FLOAT_EQ(hit->t, 5.0f);
    EXPECT_TRUE(normalIsOneOf(hit, {{0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}));
}

TEST(RayAabb, RayTouchingOnlyACornerHits) {
    // Passes through the corner (1, 2, 3) at t = 5, outside the box before and after.
    const Ray ray{{6.0f, 7.0f, -2.0f}, {-1.0f, -1.0f, 1.0f}};
    const auto hit = raycast(ray, kBox);
    ASSERT_TRUE(hit);
    EXPECT_TRUE(isWellFormedHit(*hit, ray, kInf));
    EXPECT_FLOAT_EQ(hit->t, 5.0f);
    EXPECT_TRUE(normalIsOneOf(hit, {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}}));
    // Through the corner into the box.
    const Ray inward{{6.0f, 7.0f, 8.0f}, {-1.0f, -1.0f, -1.0f}};
    const auto in = raycast(inward, kBox);
    ASSERT_TRUE(in);
    EXPECT_FLOAT_EQ(in->t, 5.0f);
    EXPECT_TRUE(normalIsOneOf(in, {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}));
}

TEST(RayAabb, RayPassingJustOutsideAFaceEdgeOrCornerMisses) {
    EXPECT_TRUE(misses(raycast(Ray{{-5.0f, 0.0f, 3.001f}, {1.0f, 0.0f, 0.0f}}, kBox)));
    EXPECT_TRUE(misses(raycast(Ray{{-5.0f, 2.001f, 3.0f}, {1.0f, 0.0f, 0.0f}}, kBox)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 6.0f, 1.001f}, {0.0f, -1.0f, 0.5f}}, kBox)));
    EXPECT_TRUE(misses(raycast(Ray{{6.0f, 7.0f, -1.999f}, {-1.0f, -1.0f, 1.0f}}, kBox)));
}

TEST(RayAabb, BoxBehindTheOriginIsNotHit) {
    EXPECT_TRUE(misses(raycast(Ray{{5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kBox)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, -3.5f}, {0.1f, 0.1f, -1.0f}}, kBox)));
}

TEST(RayAabb, RayParallelToAFaceOutsideTheSlabMisses) {
    EXPECT_TRUE(misses(raycast(Ray{{-5.0f, 0.0f, 4.0f}, {1.0f, 0.0f, 0.0f}}, kBox)));
    EXPECT_TRUE(misses(raycast(Ray{{-5.0f, 2.5f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kBox)));
    EXPECT_TRUE(misses(raycast(Ray{{-5.0f, -2.5f, -3.5f}, {1.0f, 0.0f, 0.0f}}, kBox)));
}

TEST(RayAabb, HitExactlyAtTMaxCounts) {
    const Ray ray{{-6.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kBox, 5.0f), ray, 5.0f, 5.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    const Ray fast{{-6.0f, 0.0f, 0.0f}, {4.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(fast, kBox, 1.25f), fast, 1.25f, 1.25f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
}

TEST(RayAabb, HitJustBeyondTMaxIsNotReported) {
    const Ray ray{{-6.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(misses(raycast(ray, kBox, 4.999f)));
    EXPECT_TRUE(misses(raycast(ray, kBox, std::nextafter(5.0f, 0.0f))));
    EXPECT_TRUE(misses(raycast(ray, kBox, 0.0f)));
}

TEST(RayAabb, InfiniteTMaxIsAllowedAndNegativeTMaxMisses) {
    const Ray ray{{-6.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kBox, kInf), ray, kInf, 5.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    EXPECT_TRUE(misses(raycast(ray, kBox, -1.0f)));
    EXPECT_TRUE(misses(raycast(ray, kBox, -kInf)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kBox, -1.0f)));
}

TEST(RayAabb, TScalesInverselyWithDirectionLength) {
    const glm::vec3 origin{-4.0f, 5.0f, 9.0f};
    const glm::vec3 unit = glm::normalize(glm::vec3(0.3f, -0.4f, 0.2f) - origin);
    const auto base = raycast(Ray{origin, unit}, kBox);
    ASSERT_TRUE(base);
    for (const float k : {0.01f, 0.5f, 3.0f, 100.0f}) {
        const Ray ray{origin, unit * k};
        SCOPED_TRACE(str(ray));
        const auto hit = raycast(ray, kBox);
        EXPECT_TRUE(hitsAt(hit, ray, kInf, base->t / k, base->normal, Kind::Solid));
        if (hit) {
            EXPECT_TRUE(near(hit->point, base->point, 1e-5));
        }
    }
    const Ray slow{{-6.0f, 0.0f, 0.0f}, {0.25f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(slow, kBox), slow, kInf, 20.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
}

TEST(RayAabb, FlatBoxIsHitFromBothSides) {
    const Aabb flat{{-1.0f, -1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}};
    const Ray above{{0.5f, 0.5f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(above, flat), above, kInf, 5.0f, {0.0f, 0.0f, 1.0f}, Kind::Solid));
    const Ray below{{0.5f, 0.5f, -5.0f}, {0.0f, 0.0f, 2.0f}};
    EXPECT_TRUE(hitsAt(raycast(below, flat), below, kInf, 2.5f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
    EXPECT_TRUE(misses(raycast(Ray{{1.5f, 0.5f, 5.0f}, {0.0f, 0.0f, -1.0f}}, flat)));
}

TEST(RayAabb, RayLyingInAFlatBoxTouchesIt) {
    const Aabb flat{{-1.0f, -1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}};
    const Ray ray{{-5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, flat), ray, kInf, 4.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    const Ray onIt{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(onIt, flat), onIt, kInf, 0.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
}

TEST(RayAabb, PointBoxIsHitWhenTheRayPassesThroughIt) {
    const Aabb point{{1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 3.0f}};
    const Ray ray{{1.0f, 2.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, point), ray, kInf, 3.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
    EXPECT_TRUE(misses(raycast(Ray{{1.0f, 2.001f, 0.0f}, {0.0f, 0.0f, 1.0f}}, point)));
}

TEST(RayAabb, MinGreaterThanMaxIsDegenerateAndMisses) {
    for (int i = 0; i < 3; ++i) {
        Aabb bad = kBox;
        std::swap(bad.min[i], bad.max[i]);
        SCOPED_TRACE(i);
        EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, bad)));
        EXPECT_TRUE(misses(raycast(Ray{{-6.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}}, bad)));
    }
}

TEST(RayAabb, ZeroLengthDirectionMissesEvenFromInside) {
    EXPECT_TRUE(misses(raycast(Ray{{-6.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}, kBox)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}, kBox)));
}

TEST(RayAabb, NaNInAnyInputMisses) {
    const Ray ray{{-6.0f, 0.5f, 0.5f}, {1.0f, 0.0f, 0.0f}};
    ASSERT_TRUE(raycast(ray, kBox));
    for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE(i);
        Ray r = ray;
        r.origin[i] = kNaN;
        EXPECT_TRUE(misses(raycast(r, kBox)));
        r = ray;
        r.dir[i] = kNaN;
        EXPECT_TRUE(misses(raycast(r, kBox)));
        Aabb b = kBox;
        b.min[i] = kNaN;
        EXPECT_TRUE(misses(raycast(ray, b)));
        b = kBox;
        b.max[i] = kNaN;
        EXPECT_TRUE(misses(raycast(ray, b)));
    }
    EXPECT_TRUE(misses(raycast(ray, kBox, kNaN)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {kNaN, 0.0f, 1.0f}}, kBox)));
}

TEST(RayAabb, InfiniteInputMisses) {
    const Ray ray{{-6.0f, 0.5f, 0.5f}, {1.0f, 0.0f, 0.0f}};
    for (int i = 0; i < 3; ++i) {
        for (const float inf : {kInf, -kInf}) {
            SCOPED_TRACE(testing::Message() << i << " " << inf);
            Ray r = ray;
            r.origin[i] = inf;
            EXPECT_TRUE(misses(raycast(r, kBox)));
            r = ray;
            r.dir[i] = inf;
            EXPECT_TRUE(misses(raycast(r, kBox)));
        }
        Aabb b = kBox;
        b.min[i] = -kInf;
        EXPECT_TRUE(misses(raycast(ray, b)));
        b = kBox;
        b.max[i] = kInf;
        EXPECT_TRUE(misses(raycast(ray, b)));
    }
}

TEST(RayAabb, HitWhoseTWouldOverflowIsNoHit) {
    const Aabb far{{1e30f, -1.0f, -1.0f}, {2e30f, 1.0f, 1.0f}};
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {1e-10f, 0.0f, 0.0f}}, far)));
}

// =============================================================================================
// OBB scenarios

TEST(RayObb, ObbWithIdentityAxesMatchesTheAabb) {
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 2.0f, 3.0f}, glm::mat3(1.0f)};
    const Ray rays[] = {
        {{-5.0f, 0.0f, 0.0f}, {4.0f, 1.0f, 0.5f}},  {{0.0f, 0.0f, 7.0f}, {0.25f, -0.5f, -2.0f}},
        {{0.5f, -1.0f, 2.0f}, {3.0f, 0.0f, -4.0f}}, {{5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}},
        {{-5.0f, 0.0f, 3.0f}, {1.0f, 0.0f, 0.0f}},  {{0.0f, 6.0f, 1.0f}, {0.0f, -1.0f, 0.5f}}};
    for (const auto& ray : rays) {
        SCOPED_TRACE(str(ray));
        const auto expected = raycast(ray, kBox);
        const auto got = raycast(ray, box);
        ASSERT_EQ(got.has_value(), expected.has_value()) << str(got);
        if (got) {
            EXPECT_TRUE(hitsAt(got, ray, kInf, expected->t, expected->normal, Kind::Solid));
        }
    }
}

TEST(RayObb, RotatedObbIsHitOnEachFaceWithTheWorldNormal) {
    const glm::mat3 r = rotation(0.7f, {1.0f, 2.0f, 3.0f});
    const Obb box{{3.0f, -1.0f, 2.0f}, {1.0f, 0.5f, 2.0f}, r};
    for (int i = 0; i < 3; ++i) {
        for (const float sign : {1.0f, -1.0f}) {
            glm::vec3 local = 0.3f * box.half;
            local[i] = sign * (box.half[i] + 4.0f);
            const Ray ray{box.center + r * local, r * axis(i, -2.5f * sign)};
            SCOPED_TRACE(str(ray));
            EXPECT_TRUE(hitsAt(raycast(ray, box), ray, kInf, 1.6f, r * axis(i, sign), Kind::Solid));
        }
    }
}

TEST(RayObb, DiamondRotatedAboutZIsHitOnTheSlantedFace) {
    // A unit cube turned 45 degrees about z: in the xy plane a diamond |x| + |y| <= sqrt(2).
    const glm::mat3 r = rotation(glm::radians(45.0f), {0.0f, 0.0f, 1.0f});
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, r};
    const Ray ray{{-5.0f, 0.3f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    const double t = 5.0 - (std::sqrt(2.0) - 0.3);
    const float h = static_cast<float>(std::sqrt(0.5));
    EXPECT_TRUE(hitsAt(raycast(ray, box), ray, kInf, static_cast<float>(t), {-h, h, 0.0f}, Kind::Solid));
    // The same ray below y = 0 enters through the neighbouring face.
    const Ray low{{-5.0f, -0.3f, 0.5f}, {2.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(
        hitsAt(raycast(low, box), low, kInf, static_cast<float>(t / 2.0), {-h, -h, 0.0f}, Kind::Solid));
    // It misses the diamond beyond its tip.
    EXPECT_TRUE(misses(raycast(Ray{{-5.0f, 1.5f, 0.0f}, {1.0f, 0.0f, 0.0f}}, box)));
}

TEST(RayObb, ExactlyRotatedObbIsHitOnEachFace) {
    // kCyclic maps half (1, 2, 3) to world extents x: 3, y: 1, z: 2.
    const Obb box{{10.0f, 0.0f, 0.0f}, {1.0f, 2.0f, 3.0f}, kCyclic};
    const glm::vec3 worldHalf{3.0f, 1.0f, 2.0f};
    for (int i = 0; i < 3; ++i) {
        for (const float sign : {1.0f, -1.0f}) {
            glm::vec3 origin = box.center + glm::vec3(0.5f, 0.25f, 0.75f);
            origin[i] = box.center[i] + sign * (worldHalf[i] + 4.0f);
            const Ray ray{origin, axis(i, -0.5f * sign)};
            SCOPED_TRACE(str(ray));
            EXPECT_TRUE(hitsAt(raycast(ray, box), ray, kInf, 8.0f, axis(i, sign), Kind::Solid));
        }
    }
}

TEST(RayObb, RayStartingInsideARotatedObbHitsAtZeroFacingBack) {
    const glm::mat3 r = rotation(1.1f, {-1.0f, 0.5f, 2.0f});
    const Obb box{{1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 0.5f}, r};
    const Ray ray{box.center + r * glm::vec3(0.5f, -1.5f, 0.25f), {0.0f, -3.0f, 4.0f}};
    const auto hit = raycast(ray, box);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 0.0f, {0.0f, 0.6f, -0.8f}, Kind::Solid));
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->point, ray.origin);
}

TEST(RayObb, RayStartingOnTheSurfaceHitsAtZeroWhicheverWayItPoints) {
    const Obb box{{10.0f, 0.0f, 0.0f}, {1.0f, 2.0f, 3.0f}, kCyclic}; // x in [7, 13]
    for (const glm::vec3 dir : {glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(-1.0f, 0.0f, 0.0f),
                                glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(-2.0f, 1.0f, 3.0f)}) {
        const Ray ray{{7.0f, 0.5f, -0.5f}, dir};
        SCOPED_TRACE(str(ray));
        EXPECT_TRUE(hitsAt(raycast(ray, box), ray, kInf, 0.0f, insideNormal(dir), Kind::Solid));
    }
    const Ray corner{{13.0f, 1.0f, 2.0f}, {1.0f, 1.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(corner, box), corner, kInf, 0.0f, insideNormal(corner.dir), Kind::Solid));
}

TEST(RayObb, RayGrazingAFaceOrAnEdgeOfARotatedObbHits) {
    const Obb box{{10.0f, 0.0f, 0.0f}, {1.0f, 2.0f, 3.0f}, kCyclic}; // [7, 13] x [-1, 1] x [-2, 2]
    const Ray face{{0.0f, 1.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(face, box), face, kInf, 7.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    const Ray edge{{0.0f, -1.0f, 2.0f}, {2.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(edge, box), edge, kInf, 3.5f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    const Ray touch{{10.0f, 5.0f, 2.0f}, {0.0f, -1.0f, -1.0f}}; // touches the edge y = 1, z = -2 at t = 4
    EXPECT_TRUE(hitsAt(raycast(touch, box), touch, kInf, 4.0f, {0.0f, 1.0f, 0.0f}, Kind::Solid));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 1.001f, 0.0f}, {1.0f, 0.0f, 0.0f}}, box)));
}

TEST(RayObb, RotatedObbBehindTheOriginIsNotHit) {
    const glm::mat3 r = rotation(0.4f, {0.0f, 1.0f, 1.0f});
    const Obb box{{0.0f, 0.0f, 10.0f}, {1.0f, 1.0f, 1.0f}, r};
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, -1.0f}}, box)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 13.0f}, {0.0f, 0.1f, 1.0f}}, box)));
    EXPECT_TRUE(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, box).has_value());
}

TEST(RayObb, HitExactlyAtTMaxCountsAndJustBeyondDoesNot) {
    const Obb box{{10.0f, 0.0f, 0.0f}, {1.0f, 2.0f, 3.0f}, kCyclic}; // x in [7, 13]
    const Ray ray{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, box, 7.0f), ray, 7.0f, 7.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    EXPECT_TRUE(misses(raycast(ray, box, 6.999f)));
    EXPECT_TRUE(misses(raycast(ray, box, std::nextafter(7.0f, 0.0f))));
    EXPECT_TRUE(misses(raycast(ray, box, -1.0f)));
    EXPECT_TRUE(hitsAt(raycast(ray, box, kInf), ray, kInf, 7.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    const Ray inside{{10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(inside, box, 0.0f), inside, 0.0f, 0.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    EXPECT_TRUE(misses(raycast(inside, box, -1.0f)));
}

TEST(RayObb, TScalesInverselyWithDirectionLength) {
    const glm::mat3 r = rotation(2.0f, {3.0f, -1.0f, 1.0f});
    const Obb box{{1.0f, 1.0f, 1.0f}, {2.0f, 1.0f, 0.5f}, r};
    const glm::vec3 origin{-6.0f, 4.0f, 3.0f};
    const glm::vec3 unit = glm::normalize(box.center + glm::vec3(0.1f, 0.2f, -0.1f) - origin);
    const auto base = raycast(Ray{origin, unit}, box);
    ASSERT_TRUE(base);
    for (const float k : {0.01f, 0.5f, 3.0f, 100.0f}) {
        const Ray ray{origin, unit * k};
        SCOPED_TRACE(str(ray));
        const auto hit = raycast(ray, box);
        EXPECT_TRUE(hitsAt(hit, ray, kInf, base->t / k, base->normal, Kind::Solid));
        if (hit) {
            EXPECT_TRUE(near(hit->point, base->point, 1e-5));
        }
    }
}

TEST(RayObb, ObbWithAZeroHalfExtentIsAFlatBoxHitFromBothSides) {
    const glm::mat3 r = rotation(0.9f, {1.0f, -2.0f, 0.5f});
    const Obb flat{{2.0f, 1.0f, -1.0f}, {1.5f, 1.0f, 0.0f}, r};
    const Ray above{flat.center + r * glm::vec3(0.2f, 0.3f, 4.0f), r * glm::vec3(0.0f, 0.0f, -1.0f)};
    EXPECT_TRUE(hitsAt(raycast(above, flat), above, kInf, 4.0f, r[2], Kind::Solid));
    const Ray below{flat.center + r * glm::vec3(-1.2f, -0.7f, -2.0f), r * glm::vec3(0.5f, 0.0f, 1.0f)};
    EXPECT_TRUE(hitsAt(raycast(below, flat), below, kInf, 2.0f, -r[2], Kind::Solid));
    EXPECT_TRUE(misses(raycast(Ray{flat.center + r * glm::vec3(1.6f, 0.0f, 4.0f), -r[2]}, flat)));
    EXPECT_TRUE(misses(raycast(Ray{flat.center + r * glm::vec3(0.0f, -1.1f, -4.0f), r[2]}, flat)));
}

TEST(RayObb, RayLyingInAFlatObbTouchesIt) {
    const Obb flat{{10.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 3.0f}, kCyclic}; // [7, 13] x [-1, 1] x {0}
    const Ray ray{{0.0f, 0.5f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, flat), ray, kInf, 7.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
    const Ray across{{10.0f, 0.0f, 4.0f}, {0.0f, 0.0f, -2.0f}};
    EXPECT_TRUE(hitsAt(raycast(across, flat), across, kInf, 2.0f, {0.0f, 0.0f, 1.0f}, Kind::Solid));
}

TEST(RayObb, NonFiniteOrZeroAxesAreDegenerateAndMiss) {
    const Obb good{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(1.0f)};
    const Ray ray{{-5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    const Ray inside{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    ASSERT_TRUE(raycast(ray, good));
    for (int c = 0; c < 3; ++c) {
        for (int i = 0; i < 3; ++i) {
            for (const float bad : {kNaN, kInf, -kInf}) {
                Obb b = good;
                b.axes[c][i] = bad;
                SCOPED_TRACE(testing::Message() << c << " " << i << " " << bad);
                EXPECT_TRUE(misses(raycast(ray, b)));
                EXPECT_TRUE(misses(raycast(inside, b)));
            }
        }
        Obb zero = good;
        zero.axes[c] = glm::vec3(0.0f);
        EXPECT_TRUE(misses(raycast(ray, zero)));
        EXPECT_TRUE(misses(raycast(inside, zero)));
    }
}

TEST(RayObb, NegativeOrNonFiniteHalfExtentsAndCentreMiss) {
    const Obb good{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(1.0f)};
    const Ray ray{{-5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    for (int i = 0; i < 3; ++i) {
        for (const float bad : {-1.0f, kNaN, kInf}) {
            Obb b = good;
            b.half[i] = bad;
            SCOPED_TRACE(testing::Message() << i << " " << bad);
            EXPECT_TRUE(misses(raycast(ray, b)));
            b = good;
            b.center[i] = bad == -1.0f ? -kInf : bad;
            EXPECT_TRUE(misses(raycast(ray, b)));
        }
    }
}

TEST(RayObb, NonFiniteRayOrTMaxOrZeroDirectionMisses) {
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, rotation(0.3f, {1.0f, 1.0f, 0.0f})};
    const Ray ray{{-5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    ASSERT_TRUE(raycast(ray, box));
    for (int i = 0; i < 3; ++i) {
        for (const float bad : {kNaN, kInf, -kInf}) {
            SCOPED_TRACE(testing::Message() << i << " " << bad);
            Ray r = ray;
            r.origin[i] = bad;
            EXPECT_TRUE(misses(raycast(r, box)));
            r = ray;
            r.dir[i] = bad;
            EXPECT_TRUE(misses(raycast(r, box)));
        }
    }
    EXPECT_TRUE(misses(raycast(ray, box, kNaN)));
    EXPECT_TRUE(misses(raycast(Ray{{-5.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}, box)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}, box)));
}

// =============================================================================================
// Property tests: an independent 6-plane clip in double precision

/// The half-space dot(n, x) <= q, n unit (outward).
struct ClipPlane {
    glm::dvec3 n;
    double q;
};

struct RefHit {
    double t;
    glm::dvec3 normal;
};

struct Reference {
    std::optional<RefHit> hit;
    bool illConditioned = false;
};

/// How close to a boundary a case may come before float may legitimately disagree.
struct Conditioning {
    double originGap;    ///< Minimum distance of the origin from the surface (world units).
    double entryGap;     ///< Minimum distance of the origin from the entered face's plane.
    double grazingGap;   ///< Minimum |entry - exit| and |entry - second entry| (distance along the ray).
    bool relativeToPath; ///< Scale the grazing gap by the distance travelled (for the exact AABB slabs).
};

/// Clips the ray (in distance units along the unit direction) against six half-spaces in
/// double precision (Cyrus-Beck); the origin is inside when it is in all of them.
Reference clipSixPlanes(const Ray& ray, const std::array<ClipPlane, 6>& planes, float tMax,
                        const Conditioning& cond) {
    const glm::dvec3 o = toD(ray.origin);
    const double len = glm::length(toD(ray.dir));
    const glm::dvec3 u = toD(ray.dir) / len;
    Reference ref;
    bool inside = true;
    double minInside = INFINITY, maxOutside = -INFINITY;
    for (const auto& p : planes) {
        const double s = glm::dot(p.n, o) - p.q; // > 0 outside this half-space
        if (s > 0.0) inside = false;
        minInside = std::min(minInside, -s);
        maxOutside = std::max(maxOutside, s);
    }
    if (inside) {
        if (minInside < cond.originGap) ref.illConditioned = true;
        ref.hit = RefHit{0.0, -u};
        return ref;
    }
    if (maxOutside < cond.originGap) ref.illConditioned = true;

    double enter = -INFINITY, secondEnter = -INFINITY, exit = INFINITY;
    int entered = -1;
    bool parallelOutside = false;
    for (int i = 0; i < 6; ++i) {
        const double num = planes[i].q - glm::dot(planes[i].n, o);
        const double den = glm::dot(planes[i].n, u);
        if (den == 0.0) {
            if (num < 0.0) parallelOutside = true;
            continue;
        }
        const double t = num / den;
        if (den < 0.0) {
            if (t > enter) {
                secondEnter = enter;
                enter = t;
                entered = i;
            } else {
                secondEnter = std::max(secondEnter, t);
            }
        } else {
            exit = std::min(exit, t);
        }
    }
    if (parallelOutside || entered < 0) return ref;
    const double path = cond.relativeToPath ? std::max(std::abs(enter), std::abs(exit)) : 1.0;
    if (std::abs(enter - exit) < cond.grazingGap * path) ref.illConditioned = true;
    const double num = std::abs(planes[entered].q - glm::dot(planes[entered].n, o));
    if (num < cond.entryGap) ref.illConditioned = true;
    if (enter > exit || enter < 0.0) return ref;
    if (enter - secondEnter < cond.grazingGap * path)
        ref.illConditioned = true; // near an edge: normal ambiguous
    const double t = enter / len;
    if (std::abs(t - static_cast<double>(tMax)) <= 1e-3 * t) ref.illConditioned = true;
    if (t > static_cast<double>(tMax)) return ref;
    ref.hit = RefHit{t, planes[entered].n};
    return ref;
}

Reference referenceRayAabb(const Ray& ray, const Aabb& box, float tMax) {
    std::array<ClipPlane, 6> planes{};
    for (int i = 0; i < 3; ++i) {
        glm::dvec3 e(0.0);
        e[i] = 1.0;
        planes[2 * i] = {e, static_cast<double>(box.max[i])};
        planes[2 * i + 1] = {-e, -static_cast<double>(box.min[i])};
    }
    // Slab t values are exact to a few ulps relative: only relative margins are needed.
    return clipSixPlanes(ray, planes, tMax, Conditioning{0.0, 0.0, 1e-3, true});
}

/// World-space planes of the box: dot(+-axis_i, x) <= dot(+-axis_i, c) + half_i.
Reference referenceRayObb(const Ray& ray, const Obb& box, float tMax) {
    std::array<ClipPlane, 6> planes{};
    const glm::dvec3 c = toD(box.center);
    double scale = glm::length(toD(ray.origin) - c);
    for (int i = 0; i < 3; ++i) {
        const glm::dvec3 a = glm::normalize(toD(box.axes[i]));
        const double h = box.half[i];
        planes[2 * i] = {a, glm::dot(a, c) + h};
        planes[2 * i + 1] = {-a, -glm::dot(a, c) + h};
        scale += h;
    }
    // Moving the ray into the box frame costs a few ulps of |origin - centre| in absolute terms.
    return clipSixPlanes(ray, planes, tMax, Conditioning{1e-3 * scale, 1e-2 * scale, 1e-3 * scale, false});
}

template <class Describe>
void compareWithReference(CaseStats& stats, int i, const Ray& ray, float tMax,
                          const std::optional<RayHit>& got, const Reference& ref, Describe describeShape) {
    const auto describe = [&] {
        return str(ray) + ", " + describeShape() + ", tMax " + str(tMax) + ": got " + str(got) +
               (ref.hit ? ", expected t " + str(static_cast<float>(ref.hit->t)) + " normal " +
                              str(glm::vec3(ref.hit->normal))
                        : std::string(", expected no hit"));
    };
    if (got) {
        if (const auto ok = isWellFormedHit(*got, ray, tMax); !ok) {
            stats.fail(i, ok.message() + std::string(" ") + describe());
            return;
        }
    }
    if (ref.illConditioned) {
        ++stats.skipped;
        return;
    }
    ++stats.compared;
    stats.hits += ref.hit ? 1 : 0;
    bool ok = got.has_value() == ref.hit.has_value();
    if (ok && got) {
        ok = tAgrees(got->t, ref.hit->t) && glm::length(toD(got->normal) - ref.hit->normal) <= 1e-3;
    }
    if (!ok) stats.fail(i, describe());
}

std::string describe(const Aabb& b) {
    return "Aabb{" + str(b.min) + ", " + str(b.max) + "}";
}
std::string describe(const Obb& b) {
    return "Obb{centre " + str(b.center) + ", half " + str(b.half) + ", axes " + str(b.axes[0]) + " " +
           str(b.axes[1]) + " " + str(b.axes[2]) + "}";
}

/// A ray from a random origin, usually aimed at a point of `target` + (random point of the box
/// [-reach, reach]) mapped by `frame`, sometimes in a random direction; random length.
Ray aimedRay(Random& rng, const glm::vec3& target, const glm::mat3& frame, const glm::vec3& reach,
             glm::dvec3& aim) {
    const glm::vec3 origin = rng.inBoxF(15.0);
    const glm::dvec3 local{rng.uniform(-reach.x, reach.x), rng.uniform(-reach.y, reach.y),
                           rng.uniform(-reach.z, reach.z)};
    aim = toD(target) + glm::dmat3(frame) * local;
    glm::dvec3 unit = aim - toD(origin);
    unit = (rng.chance(0.2) || glm::length(unit) < 1e-6) ? rng.unitVector() : glm::normalize(unit);
    return Ray{origin, rng.scaledDir(unit)};
}

TEST(RayAabbProperty, AgreesWithDoublePrecisionSixPlaneClip) {
    Random rng(kSeed);
    CaseStats stats(kSeed);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const glm::vec3 centre = rng.inBoxF(5.0);
        const glm::vec3 half{rng.uniformF(0.1, 5.0), rng.uniformF(0.1, 5.0), rng.uniformF(0.1, 5.0)};
        const Aabb box{centre - half, centre + half};
        glm::dvec3 aim;
        const Ray ray = aimedRay(rng, centre, glm::mat3(1.0f), 1.3f * half, aim);
        const float tMax = rng.tMax(glm::length(aim - toD(ray.origin)) / glm::length(toD(ray.dir)));
        compareWithReference(stats, i, ray, tMax, raycast(ray, box, tMax), referenceRayAabb(ray, box, tMax),
                             [&] { return describe(box); });
    }
    stats.expectMostlyCompared(kCases, true);
}

TEST(RayObbProperty, AgreesWithDoublePrecisionWorldSpaceClip) {
    Random rng(kSeed + 10u);
    CaseStats stats(kSeed + 10u);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const glm::vec3 half{rng.uniformF(0.1, 5.0), rng.uniformF(0.1, 5.0), rng.uniformF(0.1, 5.0)};
        const Obb box{rng.inBoxF(5.0), half, glm::mat3_cast(rng.rotation())};
        glm::dvec3 aim;
        const Ray ray = aimedRay(rng, box.center, box.axes, 1.3f * half, aim);
        const float tMax = rng.tMax(glm::length(aim - toD(ray.origin)) / glm::length(toD(ray.dir)));
        compareWithReference(stats, i, ray, tMax, raycast(ray, box, tMax), referenceRayObb(ray, box, tMax),
                             [&] { return describe(box); });
    }
    stats.expectMostlyCompared(kCases, true);
}

TEST(RayObbProperty, AxisAlignedObbAgreesWithTheAabb) {
    Random rng(kSeed + 11u);
    CaseStats stats(kSeed + 11u);
    for (int i = 0; i < kCases / 4 && stats.failures < CaseStats::kMaxReported; ++i) {
        const glm::vec3 centre = rng.inBoxF(5.0);
        const glm::vec3 half{rng.uniformF(0.1, 5.0), rng.uniformF(0.1, 5.0), rng.uniformF(0.1, 5.0)};
        const Obb obb{centre, half, glm::mat3(1.0f)};
        const Aabb aabb{centre - half, centre + half};
        glm::dvec3 aim;
        const Ray ray = aimedRay(rng, centre, glm::mat3(1.0f), 1.3f * half, aim);
        const auto a = raycast(ray, aabb);
        const auto b = raycast(ray, obb);
        const Reference ref = referenceRayObb(ray, obb, kInf);
        if (ref.illConditioned) {
            ++stats.skipped;
            continue;
        }
        ++stats.compared;
        stats.hits += a ? 1 : 0;
        bool ok = a.has_value() == b.has_value();
        if (ok && a) ok = tAgrees(b->t, a->t, 1e-4) && near(a->normal, b->normal, 1e-4);
        if (!ok) stats.fail(i, str(ray) + ", " + describe(obb) + ": Aabb " + str(a) + " vs Obb " + str(b));
    }
    stats.expectMostlyCompared(kCases / 4, true);
}

/// A flat OBB (one zero half extent) against an independent rectangle test: the plane of the
/// rectangle in double, then the in-plane coordinates within the half extents.
TEST(RayObbProperty, FlatObbAgreesWithDoublePrecisionRectangle) {
    Random rng(kSeed + 12u);
    CaseStats stats(kSeed + 12u);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const int flatAxis = rng.integer(0, 2);
        glm::vec3 half{rng.uniformF(0.1, 5.0), rng.uniformF(0.1, 5.0), rng.uniformF(0.1, 5.0)};
        half[flatAxis] = 0.0f;
        const Obb box{rng.inBoxF(5.0), half, glm::mat3_cast(rng.rotation())};
        glm::dvec3 aim;
        const Ray ray = aimedRay(rng, box.center, box.axes, 1.3f * half, aim);
        const float tMax = rng.tMax(glm::length(aim - toD(ray.origin)) / glm::length(toD(ray.dir)));
        const auto got = raycast(ray, box, tMax);

        Reference ref;
        const glm::dvec3 o = toD(ray.origin), d = toD(ray.dir), c = toD(box.center);
        const glm::dvec3 n = glm::normalize(toD(box.axes[flatAxis]));
        const double scale = glm::length(o - c) + glm::length(toD(half));
        const double dist = glm::dot(n, o - c);
        const double nd = glm::dot(n, d);
        const double cosine = nd / glm::length(d);
        if (std::abs(cosine) < 1e-2 || std::abs(dist) < 1e-2 * scale) ref.illConditioned = true;
        const double t = -dist / nd;
        if (nd != 0.0 && t >= 0.0) {
            const glm::dvec3 p = o + t * d - c;
            bool within = true;
            for (int k = 0; k < 3; ++k) {
                if (k == flatAxis) continue;
                const double s = std::abs(glm::dot(glm::normalize(toD(box.axes[k])), p)) - half[k];
                if (std::abs(s) < 1e-3 * scale) ref.illConditioned = true;
                if (s > 0.0) within = false;
            }
            if (std::abs(t - static_cast<double>(tMax)) <= 1e-3 * t) ref.illConditioned = true;
            if (within && t <= static_cast<double>(tMax)) ref.hit = RefHit{t, nd > 0.0 ? -n : n};
        }
        compareWithReference(stats, i, ray, tMax, got, ref, [&] { return describe(box); });
    }
    stats.expectMostlyCompared(kCases, true);
}

TEST(RayBoxProperty, ExtremeAndNonFiniteInputNeverGivesNaN) {
    Random rng(kSeed + 13u);
    CaseStats stats(kSeed + 13u);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const Ray ray{rng.mixedVec(10.0), rng.mixedVec(2.0)};
        const glm::vec3 lo = rng.mixedVec(5.0);
        const glm::vec3 size = rng.chance(0.8) ? glm::abs(rng.mixedVec(5.0)) : rng.mixedVec(5.0);
        const Aabb aabb{lo, lo + size};
        glm::mat3 axes = glm::mat3_cast(rng.rotation());
        const bool orthonormal = !rng.chance(0.1);
        if (!orthonormal) axes[rng.integer(0, 2)][rng.integer(0, 2)] = rng.wild();
        const Obb obb{rng.mixedVec(5.0), size, axes};
        const float tMax = rng.wildTMax();
        const bool badRay = !isFinite(ray.origin) || !isFinite(ray.dir) ||
                            glm::dot(toD(ray.dir), toD(ray.dir)) == 0.0 || std::isnan(tMax) || tMax < 0.0f;
        const auto a = raycast(ray, aabb, tMax);
        const auto b = raycast(ray, obb, tMax);
        ++stats.compared;
        stats.hits += (a ? 1 : 0) + (b ? 1 : 0);
        const auto describeCase = [&] {
            return str(ray) + ", " + describe(aabb) + ", " + describe(obb) + ", tMax " + str(tMax) +
                   ": Aabb " + str(a) + ", Obb " + str(b);
        };
        const bool badAabb = badRay || !isFinite(aabb.min) || !isFinite(aabb.max) ||
                             !glm::all(glm::lessThanEqual(aabb.min, aabb.max));
        const bool badObb = badRay || !isFinite(obb.center) || !isFinite(obb.half) || !isFinite(obb.axes) ||
                            !glm::all(glm::greaterThanEqual(obb.half, glm::vec3(0.0f)));
        if ((badAabb && a) || (badObb && b)) stats.fail(i, "invalid input hit: " + describeCase());
        if (a) {
            if (const auto ok = isWellFormedHit(*a, ray, tMax); !ok)
                stats.fail(i, ok.message() + describeCase());
        }
        if (b) {
            // Axes that are not orthonormal break the Obb's precondition: only finiteness is promised.
            if (const auto ok = isWellFormedHit(*b, ray, tMax, orthonormal); !ok)
                stats.fail(i, ok.message() + describeCase());
        }
    }
    stats.expectMostlyCompared(kCases);
}

} // namespace
