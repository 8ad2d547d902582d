// Tests for geom/plane.hpp: signed distance, plane construction, sphere classification, reflect.
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace {

using kz::Plane;
using kz::PlaneSide;
using kz::Sphere;
using namespace kz::test;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr unsigned kSeed = 0x5eedu;

// ---------------------------------------------------------------- signedDistance

TEST(SignedDistance, UnitNormal) {
    const Plane p{{0.0f, 1.0f, 0.0f}, -2.0f}; // y = 2
    EXPECT_FLOAT_EQ(kz::signedDistance(p, {5.0f, 7.0f, 3.0f}), 5.0f);
    EXPECT_FLOAT_EQ(kz::signedDistance(p, {-1.0f, -1.0f, 9.0f}), -3.0f);
    EXPECT_FLOAT_EQ(kz::signedDistance(p, {4.0f, 2.0f, -4.0f}), 0.0f);
}

TEST(SignedDistance, NonUnitNormalIsScaled) {
    const Plane p{{0.0f, 2.0f, 0.0f}, -4.0f}; // still y = 2, normal length 2
    EXPECT_FLOAT_EQ(kz::signedDistance(p, {5.0f, 7.0f, 3.0f}), 10.0f);
    EXPECT_FLOAT_EQ(kz::signedDistance(p, {0.0f, 1.0f, 0.0f}), -2.0f);
}

TEST(SignedDistance, ObliquePlane) {
    const glm::vec3 n = glm::normalize(glm::vec3(1.0f, 2.0f, -2.0f)); // (1,2,-2)/3
    const Plane p{n, -1.0f};
    // Point p0 + 2.5 n with dot(n, p0) = 1 lies 2.5 in front.
    const glm::vec3 p0 = n * 1.0f;
    EXPECT_NEAR(kz::signedDistance(p, p0 + 2.5f * n), 2.5f, 1e-6f);
    EXPECT_NEAR(kz::signedDistance(p, p0 - 0.75f * n), -0.75f, 1e-6f);
}

// ---------------------------------------------------------------- planeFromPointNormal

TEST(PlaneFromPointNormal, NormalisesAndPassesThroughPoint) {
    const auto p = kz::planeFromPointNormal({1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, 5.0f});
    ASSERT_TRUE(p.has_value());
    expectVecNear(p->normal, {0.0f, 0.0f, 1.0f}, 1e-7f);
    EXPECT_FLOAT_EQ(p->d, -3.0f);
    EXPECT_NEAR(kz::signedDistance(*p, {1.0f, 2.0f, 3.0f}), 0.0f, 1e-6f);
    EXPECT_NEAR(kz::signedDistance(*p, {7.0f, -2.0f, 4.0f}), 1.0f, 1e-6f);
}

TEST(PlaneFromPointNormal, KeepsNormalDirection) {
    const auto p = kz::planeFromPointNormal({0.0f, 0.0f, 0.0f}, {0.0f, -0.25f, 0.0f});
    ASSERT_TRUE(p.has_value());
    expectVecNear(p->normal, {0.0f, -1.0f, 0.0f}, 1e-7f);
    EXPECT_NEAR(p->d, 0.0f, 1e-7f);
    EXPECT_GT(kz::signedDistance(*p, {0.0f, -1.0f, 0.0f}), 0.0f);
}

TEST(PlaneFromPointNormal, TinyAndHugeNormalsAreNormalised) {
    const auto tiny = kz::planeFromPointNormal({0.0f, 1.0f, 0.0f}, {1e-6f, 1e-6f, 0.0f});
    ASSERT_TRUE(tiny.has_value());
    EXPECT_NEAR(glm::length(tiny->normal), 1.0f, 1e-6f);
    const auto huge = kz::planeFromPointNormal({0.0f, 1.0f, 0.0f}, {0.0f, 1e18f, 0.0f});
    ASSERT_TRUE(huge.has_value());
    expectVecNear(huge->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(huge->d, -1.0f, 1e-6f);
}

TEST(PlaneFromPointNormal, DegenerateInputIsEmpty) {
    EXPECT_FALSE(kz::planeFromPointNormal({1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, 0.0f}).has_value());
    EXPECT_FALSE(kz::planeFromPointNormal({kNaN, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}).has_value());
    EXPECT_FALSE(kz::planeFromPointNormal({0.0f, 0.0f, 0.0f}, {0.0f, kNaN, 0.0f}).has_value());
    EXPECT_FALSE(kz::planeFromPointNormal({kInf, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}).has_value());
    EXPECT_FALSE(kz::planeFromPointNormal({0.0f, 0.0f, 0.0f}, {0.0f, kInf, 0.0f}).has_value());
}

TEST(PlaneFromPointNormal, RandomPointsLieOnPlane) {
    std::mt19937 rng(kSeed);
    std::uniform_real_distribution<float> scale(0.01f, 100.0f);
    for (int i = 0; i < 10000; ++i) {
        const glm::vec3 point = randomPoint(rng, 10.0f);
        const glm::vec3 n = glm::vec3(randomUnit(rng)) * scale(rng);
        const auto p = kz::planeFromPointNormal(point, n);
        ASSERT_TRUE(p.has_value()) << "seed " << kSeed << " case " << i;
        ASSERT_NEAR(glm::length(p->normal), 1.0f, 1e-6f) << "seed " << kSeed << " case " << i;
        ASSERT_GT(glm::dot(p->normal, n), 0.0f) << "seed " << kSeed << " case " << i;
        ASSERT_NEAR(kz::signedDistance(*p, point), 0.0f, 1e-5f) << "seed " << kSeed << " case " << i;
    }
}

// ---------------------------------------------------------------- planeFromPoints

TEST(PlaneFromPoints, CounterClockwiseSeenFromFront) {
    const auto p = kz::planeFromPoints({0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f});
    ASSERT_TRUE(p.has_value());
    expectVecNear(p->normal, {0.0f, 0.0f, 1.0f}, 1e-7f);
    EXPECT_NEAR(p->d, 0.0f, 1e-7f);
}

TEST(PlaneFromPoints, WindingFlipsNormal) {
    const glm::vec3 a{1.0f, 2.0f, 3.0f}, b{3.0f, 2.0f, 3.0f}, c{1.0f, 2.0f, 1.0f};
    const auto ccw = kz::planeFromPoints(a, b, c); // (2,0,0) x (0,0,-2) = (0,4,0)
    const auto cw = kz::planeFromPoints(a, c, b);
    ASSERT_TRUE(ccw.has_value());
    ASSERT_TRUE(cw.has_value());
    expectVecNear(ccw->normal, {0.0f, 1.0f, 0.0f}, 1e-7f);
    EXPECT_NEAR(ccw->d, -2.0f, 1e-6f);
    expectVecNear(cw->normal, {0.0f, -1.0f, 0.0f}, 1e-7f);
    EXPECT_NEAR(cw->d, 2.0f, 1e-6f);
    // Cyclic permutations keep the orientation.
    const auto rot = kz::planeFromPoints(b, c, a);
    ASSERT_TRUE(rot.has_value());
    expectVecNear(rot->normal, ccw->normal, 1e-7f);
}

TEST(PlaneFromPoints, DegenerateInputIsEmpty) {
    // Collinear.
    EXPECT_FALSE(kz::planeFromPoints({0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, {2.0f, 2.0f, 2.0f}).has_value());
    EXPECT_FALSE(
        kz::planeFromPoints({0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, {-3.0f, 0.0f, 0.0f}).has_value());
    // Coincident (all, or two of them).
    EXPECT_FALSE(kz::planeFromPoints({1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 3.0f}).has_value());
    EXPECT_FALSE(kz::planeFromPoints({1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 3.0f}, {4.0f, 0.0f, 1.0f}).has_value());
    // Non-finite.
    EXPECT_FALSE(kz::planeFromPoints({kNaN, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}).has_value());
    EXPECT_FALSE(kz::planeFromPoints({0.0f, 0.0f, 0.0f}, {1.0f, kNaN, 0.0f}, {0.0f, 1.0f, 0.0f}).has_value());
    EXPECT_FALSE(kz::planeFromPoints({0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, kInf}).has_value());
}

TEST(PlaneFromPoints, RandomTrianglesContainTheirVertices) {
    std::mt19937 rng(kSeed + 1);
    for (int i = 0; i < 10000; ++i) {
        const glm::vec3 a = randomPoint(rng, 10.0f), b = randomPoint(rng, 10.0f), c = randomPoint(rng, 10.0f);
        const glm::dvec3 crossD = glm::cross(glm::dvec3(b) - glm::dvec3(a), glm::dvec3(c) - glm::dvec3(a));
        if (glm::length(crossD) < 1e-2) continue; // nearly degenerate: skip
        const auto p = kz::planeFromPoints(a, b, c);
        ASSERT_TRUE(p.has_value()) << "seed " << kSeed + 1 << " case " << i;
        ASSERT_NEAR(glm::length(p->normal), 1.0f, 1e-6f) << "case " << i;
        const glm::dvec3 want = glm::normalize(crossD);
        ASSERT_NEAR(glm::dot(glm::dvec3(p->normal), want), 1.0, 1e-5)
            << "seed " << kSeed + 1 << " case " << i;
        ASSERT_NEAR(kz::signedDistance(*p, a), 0.0f, 1e-3f) << "case " << i;
        ASSERT_NEAR(kz::signedDistance(*p, b), 0.0f, 1e-3f) << "case " << i;
        ASSERT_NEAR(kz::signedDistance(*p, c), 0.0f, 1e-3f) << "case " << i;
    }
}

// ---------------------------------------------------------------- classifySphere

TEST(ClassifySphere, FrontBackIntersecting) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    auto c = kz::classifySphere({{0.0f, 3.0f, 0.0f}, 1.0f}, ground);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Front);
    EXPECT_FLOAT_EQ(c->distance, 3.0f);

    c = kz::classifySphere({{2.0f, -3.0f, 1.0f}, 1.0f}, ground);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Back);
    EXPECT_FLOAT_EQ(c->distance, -3.0f);

    c = kz::classifySphere({{0.0f, 0.5f, 0.0f}, 1.0f}, ground);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Intersecting);
    EXPECT_FLOAT_EQ(c->distance, 0.5f);

    c = kz::classifySphere({{0.0f, -0.5f, 0.0f}, 1.0f}, ground);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Intersecting);
    EXPECT_FLOAT_EQ(c->distance, -0.5f);
}

TEST(ClassifySphere, ExactlyTouchingIsIntersecting) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    auto c = kz::classifySphere({{0.0f, 1.0f, 0.0f}, 1.0f}, ground);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Intersecting);
    c = kz::classifySphere({{0.0f, -2.0f, 0.0f}, 2.0f}, ground);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Intersecting);
    // A point sphere (radius 0) on the plane touches it.
    c = kz::classifySphere({{5.0f, 0.0f, -5.0f}, 0.0f}, ground);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Intersecting);
    // ... and one just off it does not.
    c = kz::classifySphere({{5.0f, 0.001f, -5.0f}, 0.0f}, ground);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Front);
}

TEST(ClassifySphere, NonUnitNormalIsNormalised) {
    // Plane y = 2 with normal length 2: the distance must be measured in world units.
    const Plane p{{0.0f, 2.0f, 0.0f}, -4.0f};
    auto c = kz::classifySphere({{0.0f, 5.0f, 0.0f}, 1.0f}, p);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Front);
    EXPECT_NEAR(c->distance, 3.0f, 1e-6f);
    // Distance 0.8 < r = 1 (an unnormalised test would see 1.6 and say Front).
    c = kz::classifySphere({{0.0f, 2.8f, 0.0f}, 1.0f}, p);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Intersecting);
    EXPECT_NEAR(c->distance, 0.8f, 1e-6f);
    // Normal length 0.5: distance 1.5 > r = 1 (unnormalised would see 0.75 and say Intersecting).
    const Plane q{{0.0f, 0.0f, -0.5f}, 1.0f}; // -0.5 z + 1 = 0  ->  z = 2, front is z < 2
    c = kz::classifySphere({{0.0f, 0.0f, 0.5f}, 1.0f}, q);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Front);
    EXPECT_NEAR(c->distance, 1.5f, 1e-6f);
    // Exactly touching through a non-unit (power of two) normal.
    const Plane r{{0.0f, 4.0f, 0.0f}, 0.0f};
    c = kz::classifySphere({{0.0f, 2.0f, 0.0f}, 2.0f}, r);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->side, PlaneSide::Intersecting);
    EXPECT_FLOAT_EQ(c->distance, 2.0f);
}

TEST(ClassifySphere, InvalidInputIsEmpty) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    EXPECT_FALSE(kz::classifySphere({{0.0f, 0.0f, 0.0f}, -1.0f}, ground).has_value());
    EXPECT_FALSE(kz::classifySphere({{kNaN, 0.0f, 0.0f}, 1.0f}, ground).has_value());
    EXPECT_FALSE(kz::classifySphere({{0.0f, 0.0f, 0.0f}, kNaN}, ground).has_value());
    EXPECT_FALSE(kz::classifySphere({{0.0f, 0.0f, 0.0f}, kInf}, ground).has_value());
    EXPECT_FALSE(kz::classifySphere({{0.0f, kInf, 0.0f}, 1.0f}, ground).has_value());
    EXPECT_FALSE(kz::classifySphere({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{0.0f, 0.0f, 0.0f}, 0.0f}).has_value());
    EXPECT_FALSE(kz::classifySphere({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{0.0f, kNaN, 0.0f}, 0.0f}).has_value());
    EXPECT_FALSE(kz::classifySphere({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{0.0f, 1.0f, 0.0f}, kNaN}).has_value());
    EXPECT_FALSE(kz::classifySphere({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{0.0f, 1.0f, 0.0f}, kInf}).has_value());
}

TEST(ClassifySphere, RandomAgainstDoubleReference) {
    std::mt19937 rng(kSeed + 2);
    std::uniform_real_distribution<float> radius(0.0f, 5.0f), offset(-10.0f, 10.0f), scale(0.1f, 10.0f);
    int compared = 0;
    int failures = 0;
    constexpr int kCases = 100000;
    for (int i = 0; i < kCases; ++i) {
        const glm::vec3 n = glm::vec3(randomUnit(rng)) * scale(rng);
        const Plane plane{n, offset(rng)};
        const Sphere s{randomPoint(rng, 10.0f), radius(rng)};
        const glm::dvec3 nd(plane.normal);
        const double dist = (glm::dot(nd, glm::dvec3(s.center)) + double(plane.d)) / glm::length(nd);
        const auto got = kz::classifySphere(s, plane);
        if (!got.has_value()) {
            if (++failures <= 10) ADD_FAILURE() << "seed " << kSeed + 2 << " case " << i << ": empty result";
            continue;
        }
        if (std::abs(double(got->distance) - dist) > 1e-4 * (1.0 + std::abs(dist))) {
            if (++failures <= 10)
                ADD_FAILURE() << "seed " << kSeed + 2 << " case " << i << ": distance " << got->distance
                              << " want " << dist;
        }
        if (std::abs(std::abs(dist) - double(s.radius)) < 1e-4) continue; // near the boundary
        ++compared;
        const PlaneSide want = std::abs(dist) <= double(s.radius) ? PlaneSide::Intersecting
                               : dist > 0.0                       ? PlaneSide::Front
                                                                  : PlaneSide::Back;
        if (got->side != want && ++failures <= 10)
            ADD_FAILURE() << "seed " << kSeed + 2 << " case " << i << ": side " << int(got->side) << " want "
                          << int(want) << " (dist " << dist << ", r " << s.radius << ")";
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

// ---------------------------------------------------------------- reflect

TEST(Reflect, Basic) {
    expectVecNear(kz::reflect({1.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}), {1.0f, 1.0f, 0.0f}, 0.0f);
    expectVecNear(kz::reflect({0.0f, 0.0f, -3.0f}, {0.0f, 0.0f, 1.0f}), {0.0f, 0.0f, 3.0f}, 0.0f);
    // Tangent directions are unchanged.
    expectVecNear(kz::reflect({2.0f, 0.0f, 5.0f}, {0.0f, 1.0f, 0.0f}), {2.0f, 0.0f, 5.0f}, 0.0f);
    // Normal sign does not matter.
    expectVecNear(kz::reflect({1.0f, -1.0f, 0.0f}, {0.0f, -1.0f, 0.0f}), {1.0f, 1.0f, 0.0f}, 0.0f);
    // Oblique normal: d - 2 (d.n) n.
    const glm::vec3 n = glm::normalize(glm::vec3(1.0f, 1.0f, 0.0f));
    expectVecNear(kz::reflect({-1.0f, 0.0f, 0.0f}, n), {0.0f, 1.0f, 0.0f}, 1e-6f);
}

TEST(Reflect, RandomPreservesLengthAndFlipsNormalComponent) {
    std::mt19937 rng(kSeed + 3);
    std::uniform_real_distribution<float> scale(0.01f, 100.0f);
    for (int i = 0; i < 10000; ++i) {
        const glm::vec3 n(randomUnit(rng));
        const glm::vec3 d = glm::vec3(randomUnit(rng)) * scale(rng);
        const glm::vec3 r = kz::reflect(d, n);
        const glm::dvec3 nd(n), dd(d), rd(r);
        const double len = glm::length(dd);
        ASSERT_NEAR(glm::length(rd), len, 1e-5 * len) << "seed " << kSeed + 3 << " case " << i;
        ASSERT_NEAR(glm::dot(rd, nd), -glm::dot(dd, nd), 1e-5 * len) << "seed " << kSeed + 3 << " case " << i;
        const glm::dvec3 tanD = dd - glm::dot(dd, nd) * nd, tanR = rd - glm::dot(rd, nd) * nd;
        ASSERT_NEAR(glm::length(tanD - tanR), 0.0, 1e-5 * len) << "seed " << kSeed + 3 << " case " << i;
        // Reflecting twice gives the original direction back.
        const glm::dvec3 twice(kz::reflect(r, n));
        ASSERT_NEAR(glm::length(twice - dd), 0.0, 1e-5 * len) << "seed " << kSeed + 3 << " case " << i;
    }
}

} // namespace
