// sweepSphereTriangle: scenarios for each feature (face, edge, corner, already touching, the
// far side, misses), bad input, and a property test against an independent double-precision
// reference: the distance from a moving point to a triangle is convex in t, so the first time it
// drops to r is found by a ternary search for the closest approach and a bisection before it.
#include "geom/closest.hpp"
#include "geom/sweep.hpp"
#include "support/ray_test_support.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace {

using namespace kz;
using namespace kz::raytest;

const Triangle kTri{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}; // in z = 0, normal +z

TEST(SweepSphereTriangle, ASphereFallingOntoTheFaceTouchesItAtHeightR) {
    const auto t = sweepSphereTriangle({{0.5f, 0.5f, 3.0f}, 0.5f}, {0, 0, -1}, kTri);
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 2.5f);
}

TEST(SweepSphereTriangle, TheFaceIsTwoSided) {
    const auto t = sweepSphereTriangle({{0.5f, 0.5f, -3.0f}, 0.5f}, {0, 0, 2}, kTri);
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 1.25f);
}

TEST(SweepSphereTriangle, ASphereCrossingAnEdgeSideOnTouchesTheEdgeNotTheFace) {
    // Centre 0.3 above the plane, moving +y toward the edge y = 0 (from (0,0) to (2,0)): it
    // touches the edge when y^2 + 0.3^2 = 0.5^2, i.e. at y = -0.4, before it is over the face.
    const auto t = sweepSphereTriangle({{1.0f, -2.0f, 0.3f}, 0.5f}, {0, 1, 0}, kTri);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 1.6f, 1e-5f);
    // 0.55 above the plane it passes over the edge and the face without touching.
    EXPECT_FALSE(sweepSphereTriangle({{1.0f, -2.0f, 0.55f}, 0.5f}, {0, 1, 0}, kTri));
}

TEST(SweepSphereTriangle, ASphereApproachingACornerHeadOnTouchesItAtDistanceR) {
    const auto t = sweepSphereTriangle({{-3.0f, -4.0f, 0.0f}, 1.0f}, glm::vec3(3, 4, 0) / 5.0f, kTri);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 4.0f, 1e-5f);
}

TEST(SweepSphereTriangle, AnEdgeHitAlongItsNormalTouchesAtTheRightTime) {
    // Toward the hypotenuse x + y = 2 from outside, in the plane: distance to it is
    // (x + y - 2) / sqrt(2).
    const glm::vec3 start(2.0f, 2.0f, 0.0f); // distance sqrt(2) from the hypotenuse's midpoint
    const auto t = sweepSphereTriangle({start, 0.25f}, glm::normalize(glm::vec3(-1, -1, 0)), kTri);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, std::sqrt(2.0f) - 0.25f, 1e-5f);
}

TEST(SweepSphereTriangle, ATouchingOrOverlappingSphereHitsAtZero) {
    EXPECT_EQ(sweepSphereTriangle({{0.5f, 0.5f, 0.5f}, 0.5f}, {0, 0, 1}, kTri), 0.0f);
    EXPECT_EQ(sweepSphereTriangle({{0.5f, 0.5f, 0.1f}, 0.5f}, {1, 0, 0}, kTri), 0.0f);
    EXPECT_EQ(sweepSphereTriangle({{0.5f, 0.5f, 0.1f}, 0.5f}, glm::vec3(0.0f), kTri), 0.0f);
}

TEST(SweepSphereTriangle, MovingAwayParallelOrTooShortMisses) {
    EXPECT_FALSE(sweepSphereTriangle({{0.5f, 0.5f, 3.0f}, 0.5f}, {0, 0, 1}, kTri));
    EXPECT_FALSE(sweepSphereTriangle({{0.5f, 0.5f, 3.0f}, 0.5f}, {1, 0, 0}, kTri));
    EXPECT_FALSE(sweepSphereTriangle({{0.5f, 0.5f, 3.0f}, 0.5f}, glm::vec3(0.0f), kTri));
    EXPECT_FALSE(sweepSphereTriangle({{0.5f, 0.5f, 3.0f}, 0.5f}, {0, 0, -1}, kTri, 2.4f));
    EXPECT_TRUE(sweepSphereTriangle({{0.5f, 0.5f, 3.0f}, 0.5f}, {0, 0, -1}, kTri, 2.5f));
}

TEST(SweepSphereTriangle, BadInputGivesNoHitAndNoNaN) {
    const Triangle flat{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    EXPECT_FALSE(sweepSphereTriangle({{0, 0, 3}, 0.5f}, {0, 0, -1}, flat));
    EXPECT_FALSE(sweepSphereTriangle({{0, 0, 3}, -0.5f}, {0, 0, -1}, kTri));
    EXPECT_FALSE(sweepSphereTriangle({{kNaN, 0, 3}, 0.5f}, {0, 0, -1}, kTri));
    EXPECT_FALSE(sweepSphereTriangle({{0, 0, 3}, 0.5f}, {0, kInf, -1}, kTri));
    EXPECT_FALSE(
        sweepSphereTriangle({{0, 0, 3}, 0.5f}, {0, 0, -1}, Triangle{{kNaN, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
    EXPECT_FALSE(sweepSphereTriangle({{0, 0, 3}, 0.5f}, {0, 0, -1}, kTri, kNaN));
}

/// Distance from p to the triangle in double precision (the triangle's closest point by
/// Ericson's regions, computed on doubles).
double distance(const glm::dvec3& p, const Triangle& tri) {
    const glm::dvec3 a = toD(tri.a), b = toD(tri.b), c = toD(tri.c);
    const glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
    const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return glm::length(p - a);
    const glm::dvec3 bp = p - b;
    const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return glm::length(p - b);
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return glm::length(p - (a + d1 / (d1 - d3) * ab));
    const glm::dvec3 cp = p - c;
    const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return glm::length(p - c);
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return glm::length(p - (a + d2 / (d2 - d6) * ac));
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
        return glm::length(p - (b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b)));
    const double denom = 1.0 / (va + vb + vc);
    return glm::length(p - (a + ab * (vb * denom) + ac * (vc * denom)));
}

TEST(SweepSpherePropertyTest, AgreesWithAConvexDistanceSearchInDoublePrecision) {
    const std::uint32_t seed = kSeed + 500u;
    Random rng(seed);
    int hits = 0, compared = 0;
    for (int i = 0; i < 20000; ++i) {
        const Triangle tri{rng.inBoxF(1.0), rng.inBoxF(1.0), rng.inBoxF(1.0)};
        if (!isValid(tri)) continue;
        const glm::vec3 c(rng.unitVector() * rng.uniform(1.0, 3.0));
        const float r = static_cast<float>(rng.uniform(0.05, 0.8));
        const glm::vec3 aim(rng.inBox(1.0));
        const glm::vec3 v = (aim - c) * static_cast<float>(rng.uniform(0.3, 3.0));
        const float tMax = 2.0f;
        const auto got = sweepSphereTriangle({c, r}, v, tri, tMax);
        const auto at = [&](double t) { return distance(toD(c) + t * toD(v), tri); };
        // Closest approach on [0, tMax] by ternary search (distance is convex along a line).
        double lo = 0.0, hi = tMax;
        for (int k = 0; k < 200; ++k) {
            const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
            (at(m1) < at(m2) ? hi : lo) = (at(m1) < at(m2) ? m2 : m1);
        }
        const double closest = at(lo);
        ++compared;
        // Skip grazing cases where float rounding decides hit or miss.
        if (std::abs(closest - r) < 1e-4 || std::abs(at(0.0) - r) < 1e-4) continue;
        if (closest > r) {
            ASSERT_FALSE(got) << "seed " << seed << " case " << i << ": got t " << *got;
            continue;
        }
        ASSERT_TRUE(got) << "seed " << seed << " case " << i;
        double a = 0.0, b = lo; // at(a) > r >= at(b)
        if (at(0.0) <= r) b = 0.0;
        for (int k = 0; k < 100 && b > 0.0; ++k) {
            const double m = 0.5 * (a + b);
            (at(m) > r ? a : b) = m;
        }
        ++hits;
        ASSERT_NEAR(*got, b, 1e-4 * (1.0 + glm::length(toD(v)))) << "seed " << seed << " case " << i;
    }
    EXPECT_GT(hits, 3000);
    EXPECT_GT(compared, 15000);
}

} // namespace
