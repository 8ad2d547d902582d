// sweepSphereTriangle: scenarios for each feature (face, edge, corner, already touching, the
// far side, misses), bad input, and a property test against an independent double-precision
// reference: the distance from a moving point to a triangle is convex in t, so the first time it
// drops to r is found by a ternary search for the closest approach and a bisection before it.
// sweepSphereObb: scenarios (a face, an edge, a corner, a corner pocket it misses, a turned box,
// touching, misses, bad input) and the same kind of property test against the distance to the box,
// and one that a limit only cuts the touch found without one (never drops it at exactly the limit;
// the other sweeps too).
// sweepSpherePlane and sweepSphereSphere: scenarios (head-on, a gap, glancing, overlapping,
// moving apart, tMax, a touch too late for a float time) and property tests against the same roots
// written out in double precision.
#include "geom/closest.hpp"
#include "geom/sweep.hpp"
#include "support/geom_reference.hpp"
#include "support/ray_test_support.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace {

using namespace kz;
using namespace kz::raytest;
using kz::test::ConvexTouch;
using kz::test::refDistObb;
using kz::test::refFirstTouch;

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
        const ConvexTouch want = refFirstTouch(at, tMax, r);
        ++compared;
        // Skip grazing cases where float rounding decides hit or miss.
        if (std::abs(want.closest - r) < 1e-4 || std::abs(want.start - r) < 1e-4) continue;
        if (want.closest > r) {
            ASSERT_FALSE(got) << "seed " << seed << " case " << i << ": got t " << *got;
            continue;
        }
        ASSERT_TRUE(got) << "seed " << seed << " case " << i;
        ++hits;
        ASSERT_NEAR(*got, want.t, 1e-4 * (1.0 + glm::length(toD(v)))) << "seed " << seed << " case " << i;
    }
    EXPECT_GT(hits, 3000);
    EXPECT_GT(compared, 15000);
}

// ------------------------------------------------------------------ sweepSphereObb

const Obb kBox{{0, 0, 0}, {1.0f, 0.5f, 2.0f}, glm::mat3(1.0f)};

TEST(SweepSphereObb, ASphereFlyingAtAFaceTouchesItAtDistanceR) {
    const auto t = sweepSphereObb({{-5.0f, 0.2f, 0.3f}, 0.5f}, {1, 0, 0}, kBox);
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 3.5f); // centre at x = -1.5: the face at -1, r = 0.5
}

TEST(SweepSphereObb, ASphereBesideAnEdgeTouchesTheEdgeCylinderNotTheGrownBox) {
    // Centre moving along -y at x = 1.3, beside the edge x = 1, y = 0.5 (along z): the grown box
    // is entered at y = 1.0, the edge cylinder (radius 0.5) when (y - 0.5)^2 = 0.25 - 0.09.
    const auto t = sweepSphereObb({{1.3f, 3.0f, 0.0f}, 0.5f}, {0, -1, 0}, kBox);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 3.0f - (0.5f + 0.4f), 1e-5f);
}

TEST(SweepSphereObb, ASphereApproachingACornerHeadOnTouchesItAtDistanceR) {
    const glm::vec3 corner{1.0f, 0.5f, 2.0f};
    const glm::vec3 out = glm::normalize(glm::vec3(1, 1, 1));
    const auto t = sweepSphereObb({corner + 3.0f * out, 0.5f}, -out, kBox);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 2.5f, 1e-5f);
}

TEST(SweepSphereObb, APathThroughACornerPocketThatMissesTheRoundedBoxMisses) {
    // Through the grown box's corner region, 0.95 from the edge lines and the corner: no touch.
    EXPECT_FALSE(sweepSphereObb({{1.0f + 0.7f, 0.5f + 0.7f, -5.0f}, 0.9f}, {0, 0, 1}, kBox));
    EXPECT_TRUE(sweepSphereObb({{1.0f + 0.6f, 0.5f + 0.6f, -5.0f}, 0.9f}, {0, 0, 1}, kBox));
}

TEST(SweepSphereObb, ATurnedBoxIsSweptInItsOwnFrame) {
    // The box turned 90 degrees about y: its 2 m half extent now lies along x.
    const Obb turned{
        {0, 0, 0}, kBox.half, glm::mat3_cast(glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 1, 0)))};
    const auto t = sweepSphereObb({{-5.0f, 0.0f, 0.0f}, 0.5f}, {2, 0, 0}, turned);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, (5.0f - 2.5f) / 2.0f, 1e-5f);
}

TEST(SweepSphereObb, ATouchingOrOverlappingSphereHitsAtZero) {
    EXPECT_EQ(sweepSphereObb({{1.5f, 0.0f, 0.0f}, 0.5f}, {1, 0, 0}, kBox), 0.0f);
    EXPECT_EQ(sweepSphereObb({{0.0f, 0.0f, 0.0f}, 0.1f}, {0, 0, 0}, kBox), 0.0f);
}

TEST(SweepSphereObb, MovingAwayParallelTooShortOrBadInputMisses) {
    EXPECT_FALSE(sweepSphereObb({{-5.0f, 0.0f, 0.0f}, 0.5f}, {-1, 0, 0}, kBox));
    EXPECT_FALSE(sweepSphereObb({{-5.0f, 2.0f, 0.0f}, 0.5f}, {1, 0, 0}, kBox));
    EXPECT_FALSE(sweepSphereObb({{-5.0f, 0.0f, 0.0f}, 0.5f}, {1, 0, 0}, kBox, 3.4f));
    EXPECT_TRUE(sweepSphereObb({{-5.0f, 0.0f, 0.0f}, 0.5f}, {1, 0, 0}, kBox, 3.5f));
    EXPECT_FALSE(sweepSphereObb({{-5.0f, 0.0f, 0.0f}, -0.5f}, {1, 0, 0}, kBox));
    EXPECT_FALSE(sweepSphereObb({{-5.0f, 0.0f, 0.0f}, 0.5f}, {kNaN, 0, 0}, kBox));
    EXPECT_FALSE(sweepSphereObb({{-5.0f, 0.0f, 0.0f}, 0.5f}, {1, 0, 0}, kBox, kNaN));
    // So slow that the touch would come after float's largest time: none, not t = infinity.
    EXPECT_FALSE(sweepSphereObb({{-5.0f, 0.0f, 0.0f}, 0.5f}, {1e-40f, 0, 0}, kBox));
    EXPECT_FALSE(
        sweepSphereObb({{-5.0f, 0.0f, 0.0f}, 0.5f}, {1, 0, 0}, {{0, 0, 0}, {-1, 1, 1}, glm::mat3(1)}));
}

/// A random box, and a sphere 1.5-4 from its centre moving toward a point near the box: aimed
/// near its edges and corners as often as at it. The property tests' cases.
struct BoxPath {
    Obb box;
    Sphere sphere;
    glm::vec3 velocity;
};
BoxPath randomBoxPath(Random& rng) {
    const Obb box{rng.inBoxF(0.5),
                  {rng.uniformF(0.05, 1.0), rng.uniformF(0.05, 1.0), rng.uniformF(0.05, 1.0)},
                  glm::mat3_cast(rng.rotation())};
    const glm::vec3 c = box.center + glm::vec3(rng.unitVector() * rng.uniform(1.5, 4.0));
    const float r = rng.uniformF(0.02, 0.6);
    const glm::vec3 aim = box.center + box.axes * (box.half * rng.inBoxF(2.0));
    return {box, {c, r}, (aim - c) * rng.uniformF(0.3, 3.0)};
}

TEST(SweepSphereObbPropertyTest, AgreesWithAConvexDistanceSearchInDoublePrecision) {
    const std::uint32_t seed = kSeed + 550u;
    Random rng(seed);
    int hits = 0, misses = 0, pockets = 0;
    for (int i = 0; i < kCases; ++i) {
        const BoxPath path = randomBoxPath(rng);
        const Obb& box = path.box;
        const glm::vec3 c = path.sphere.center, v = path.velocity;
        const float r = path.sphere.radius;
        const float tMax = rng.chance(0.8) ? 2.0f : rng.uniformF(0.0, 2.0);
        const auto got = sweepSphereObb({c, r}, v, box, tMax);
        const auto at = [&](double t) { return refDistObb(toD(c) + t * toD(v), box); };
        const ConvexTouch want = refFirstTouch(at, tMax, r);
        // Skip grazing cases and touches at the cut-off, where float rounding decides.
        if (std::abs(want.closest - r) < 1e-4 || std::abs(want.start - r) < 1e-4) continue;
        if (want.closest <= r && std::abs(want.t - tMax) < 1e-4) continue;
        if (want.closest > r) {
            ASSERT_FALSE(got) << "seed " << seed << " case " << i << ": got t " << *got;
            ++misses;
            continue;
        }
        ASSERT_TRUE(got) << "seed " << seed << " case " << i << ": want t " << want.t;
        ASSERT_NEAR(*got, want.t, 1e-4 * (1.0 + glm::length(toD(v)))) << "seed " << seed << " case " << i;
        // Touching beside an edge or a corner: the closest box point is not on a face's flat part.
        const glm::dvec3 local =
            glm::transpose(glm::dmat3(box.axes)) * (toD(c) + want.t * toD(v) - toD(box.center));
        int beyond = 0;
        for (int k = 0; k < 3; ++k)
            beyond += std::abs(local[k]) > box.half[k] + 1e-6 ? 1 : 0;
        pockets += beyond >= 2 ? 1 : 0;
        ++hits;
    }
    EXPECT_GT(hits, 50000);
    EXPECT_GT(misses, 20000);
    EXPECT_GT(pockets, 20000);
}

TEST(SweepSphereObbPropertyTest, ALimitOnlyCutsTheTouchFoundWithoutOne) {
    // The touch within tMax is the touch found with no limit when that one is no later than tMax,
    // and none otherwise, to the bit: a limit never drops a touch at exactly the limit, nor moves
    // it. Paths aimed at the edges and corners, where the rounded box's entry is found a rounding
    // error before the grown box's, which the limit used to cut.
    const std::uint32_t seed = kSeed + 551u;
    Random rng(seed);
    int touches = 0, atTheLimit = 0;
    for (int i = 0; i < kCases; ++i) {
        const BoxPath path = randomBoxPath(rng);
        const Obb& box = path.box;
        const Sphere& s = path.sphere;
        const glm::vec3 v = path.velocity;
        const auto free = sweepSphereObb(s, v, box);
        if (!free) {
            ASSERT_FALSE(sweepSphereObb(s, v, box, rng.uniformF(0.0, 10.0)))
                << "seed " << seed << " case " << i;
            continue;
        }
        ++touches;
        const auto atLimit = sweepSphereObb(s, v, box, *free);
        ASSERT_TRUE(atLimit) << "seed " << seed << " case " << i << ": the touch at t " << *free
                             << " is lost with tMax = t";
        ASSERT_EQ(*atLimit, *free) << "seed " << seed << " case " << i;
        ASSERT_EQ(sweepSphereObb(s, v, box, *free * rng.uniformF(1.0, 2.0)), free)
            << "seed " << seed << " case " << i;
        if (*free > 0.0f) {
            ASSERT_FALSE(sweepSphereObb(s, v, box, std::nextafter(*free, 0.0f)))
                << "seed " << seed << " case " << i;
            ++atTheLimit;
        }
    }
    EXPECT_GT(touches, 40000);
    EXPECT_GT(atTheLimit, 40000);
}

TEST(SweepPropertyTest, EverySweepsLimitOnlyCutsTheTouchFoundWithoutOne) {
    // sweepSphereObb's property (above) for the other three sweeps: with tMax = the unlimited
    // touch t the answer is t to the bit, and none with the float before t.
    const std::uint32_t seed = kSeed + 552u;
    Random rng(seed);
    int touches[3] = {0, 0, 0};
    const auto check = [&](int kind, int i, const auto& sweep) {
        const std::optional<float> free = sweep(INFINITY);
        if (!free) return;
        ++touches[kind];
        ASSERT_EQ(sweep(*free), free) << "seed " << seed << " sweep " << kind << " case " << i;
        if (*free > 0.0f) {
            ASSERT_FALSE(sweep(std::nextafter(*free, 0.0f)))
                << "seed " << seed << " sweep " << kind << " case " << i;
        }
    };
    for (int i = 0; i < 100000; ++i) {
        const Triangle tri{rng.inBoxF(1.0), rng.inBoxF(1.0), rng.inBoxF(1.0)};
        const Sphere s{rng.inBoxF(3.0), rng.uniformF(0.0, 0.5)};
        const glm::vec3 aim = (tri.a + tri.b + tri.c) / 3.0f + rng.inBoxF(0.7);
        const glm::vec3 v = (aim - s.center) * rng.uniformF(0.2, 3.0);
        check(0, i, [&](float tMax) { return sweepSphereTriangle(s, v, tri, tMax); });
        const Sphere other{rng.inBoxF(0.5), rng.uniformF(0.0, 0.5)};
        const glm::vec3 otherV = rng.inBoxF(0.2);
        check(1, i, [&](float tMax) { return sweepSphereSphere(s, v, other, otherV, tMax); });
        const Plane plane{glm::vec3(glm::normalize(rng.unitVector())), rng.uniformF(-1.0, 1.0)};
        check(2, i, [&](float tMax) { return sweepSpherePlane(s, v, plane, tMax); });
        if (HasFatalFailure()) return; // the lambda's ASSERTs return from it only
    }
    EXPECT_GT(touches[0], 30000);
    EXPECT_GT(touches[1], 20000);
    EXPECT_GT(touches[2], 40000);
}

// ------------------------------------------------------------------ sweepSpherePlane

const Plane kFloor{{0, 1, 0}, 0.0f}; // y = 0, solid below

TEST(SweepSpherePlane, ASphereFallingOntoTheFloorTouchesItAtHeightR) {
    const auto t = sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {0, -1, 0}, kFloor);
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 2.5f);
}

TEST(SweepSpherePlane, AGapStopsThatFarShortOfThePlane) {
    const auto t = sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {0, -2, 0}, kFloor, INFINITY, 0.1f);
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 1.2f);
}

TEST(SweepSpherePlane, ASphereMovingAlongOrAwayFromThePlaneNeverTouchesIt) {
    EXPECT_FALSE(sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {1, 0, 0}, kFloor));
    EXPECT_FALSE(sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {0, 1, 0}, kFloor));
    EXPECT_FALSE(sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, glm::vec3(0.0f), kFloor));
    EXPECT_FALSE(sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {0, -kNaN, 0}, kFloor));
}

TEST(SweepSpherePlane, ATouchTooLateForAFloatTimeIsNone) {
    // 2.5 m at 1e-40 m/s: t = 2.5e40 overflows float. None, not t = infinity, with no limit too.
    EXPECT_FALSE(sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {0, -1e-40f, 0}, kFloor));
    EXPECT_EQ(sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {0, -1e-30f, 0}, kFloor), 2.5e30f);
}

TEST(SweepSpherePlane, AnOverlappingApproachingSphereTouchesAtZero) {
    EXPECT_EQ(sweepSpherePlane({{0.0f, 0.3f, 0.0f}, 0.5f}, {0, -1, 0}, kFloor), 0.0f);
}

TEST(SweepSpherePlane, AnImpactAfterTMaxIsNone) {
    EXPECT_FALSE(sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {0, -1, 0}, kFloor, 2.0f));
    EXPECT_TRUE(sweepSpherePlane({{0.0f, 3.0f, 0.0f}, 0.5f}, {0, -1, 0}, kFloor, 2.5f));
}

TEST(SweepSpherePlanePropertyTest, AgreesWithTheDistanceLineInDoublePrecision) {
    const std::uint32_t seed = kSeed + 600u;
    Random rng(seed);
    int hits = 0;
    for (int i = 0; i < 20000; ++i) {
        const glm::dvec3 n = rng.unitVector();
        const Plane plane{glm::vec3(n), rng.uniformF(-2.0, 2.0)};
        const Sphere s{rng.inBoxF(3.0), rng.uniformF(0.05, 1.0)};
        const glm::vec3 v = rng.inBoxF(4.0);
        const float gap = rng.chance(0.5) ? 0.0f : rng.uniformF(-0.01, 0.01);
        const float tMax = rng.uniformF(0.0, 3.0);
        const auto got = sweepSpherePlane(s, v, plane, tMax, gap);
        // d(t) = dot(n, c + t v) + d - r, with the plane's float normal, in double.
        const glm::dvec3 nf = toD(plane.normal);
        const double d0 = glm::dot(nf, toD(s.center)) + plane.d - s.radius;
        const double rate = glm::dot(nf, toD(v));
        const double scale = 1.0 + std::abs(d0) + std::abs(rate);
        if (std::abs(rate) < 1e-3) continue; // nearly parallel: float rounding decides
        if (rate > 0.0) {
            EXPECT_FALSE(got) << "seed " << seed << " case " << i;
            continue;
        }
        const double want = std::max(0.0, (gap - d0) / rate);
        if (std::abs(want - tMax) < 1e-4 * scale / -rate) continue; // at the cut-off
        if (want > tMax) {
            EXPECT_FALSE(got) << "seed " << seed << " case " << i << ": got t " << *got;
            continue;
        }
        ASSERT_TRUE(got) << "seed " << seed << " case " << i;
        EXPECT_NEAR(*got, want, 1e-5 * scale / -rate) << "seed " << seed << " case " << i;
        ++hits;
    }
    EXPECT_GT(hits, 2000);
}

// ------------------------------------------------------------------ sweepSphereSphere

TEST(SweepSphereSphere, ASphereFlyingHeadOnTouchesAtTheSumOfTheRadii) {
    const auto t = sweepSphereSphere({{-5.0f, 0.0f, 0.0f}, 1.0f}, {1, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0});
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 3.0f);
}

TEST(SweepSphereSphere, OnlyTheRelativeVelocityCounts) {
    const auto t = sweepSphereSphere({{-5.0f, 0.0f, 0.0f}, 1.0f}, {2, 1, 0}, {{0, 0, 0}, 1.0f}, {1, 1, 0});
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 3.0f);
    const auto both =
        sweepSphereSphere({{-5.0f, 0.0f, 0.0f}, 1.0f}, {1, 0, 0}, {{0, 0, 0}, 1.0f}, {-1, 0, 0});
    ASSERT_TRUE(both);
    EXPECT_FLOAT_EQ(*both, 1.5f);
}

TEST(SweepSphereSphere, AGapStopsThatFarApart) {
    const auto t = sweepSphereSphere({{-5.0f, 0.0f, 0.0f}, 1.0f}, {1, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0},
                                     INFINITY, 0.5f);
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 2.5f);
}

TEST(SweepSphereSphere, AGlancingPassTouchesWhereTheOffsetEqualsTheSumOfTheRadii) {
    // Offset 1.2 sideways, radii 1 + 1: touching when the along-track distance is sqrt(4 - 1.44).
    const auto t = sweepSphereSphere({{-5.0f, 1.2f, 0.0f}, 1.0f}, {1, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0});
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 5.0f - 1.6f, 1e-5f);
    EXPECT_FALSE(sweepSphereSphere({{-5.0f, 2.1f, 0.0f}, 1.0f}, {1, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0}));
}

TEST(SweepSphereSphere, OverlappingSpheresTouchAtZeroWhenApproachingAndNeverWhenSeparating) {
    EXPECT_EQ(sweepSphereSphere({{-1.5f, 0.0f, 0.0f}, 1.0f}, {1, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0}), 0.0f);
    EXPECT_FALSE(sweepSphereSphere({{-1.5f, 0.0f, 0.0f}, 1.0f}, {-1, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0}));
    EXPECT_FALSE(sweepSphereSphere({{-1.5f, 0.0f, 0.0f}, 1.0f}, {0, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0}));
}

TEST(SweepSphereSphere, AnImpactAfterTMaxIsNone) {
    EXPECT_FALSE(
        sweepSphereSphere({{-5.0f, 0.0f, 0.0f}, 1.0f}, {1, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0}, 2.9f));
}

TEST(SweepSphereSphere, AnImpactTooLateForAFloatTimeIsNone) {
    // 3 m at 1e-40 m/s: t = 3e40 overflows float. None, not t = infinity, with no limit too.
    EXPECT_FALSE(
        sweepSphereSphere({{-5.0f, 0.0f, 0.0f}, 1.0f}, {1e-40f, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0}));
    const auto t =
        sweepSphereSphere({{-5.0f, 0.0f, 0.0f}, 1.0f}, {1e-10f, 0, 0}, {{0, 0, 0}, 1.0f}, {0, 0, 0});
    ASSERT_TRUE(t);
    EXPECT_FLOAT_EQ(*t, 3e10f);
}

TEST(SweepSphereSpherePropertyTest, AgreesWithTheTextbookRootInDoublePrecision) {
    const std::uint32_t seed = kSeed + 700u;
    Random rng(seed);
    int hits = 0, misses = 0;
    for (int i = 0; i < 20000; ++i) {
        const Sphere a{rng.inBoxF(4.0), rng.uniformF(0.05, 1.0)};
        const Sphere b{rng.inBoxF(4.0), rng.uniformF(0.05, 1.0)};
        // A aims near B half of the time (most such pairs meet), anywhere otherwise.
        const glm::vec3 vb = rng.inBoxF(3.0);
        const glm::vec3 va = rng.chance(0.5)
                                 ? vb + (b.center + rng.inBoxF(1.5) - a.center) * rng.uniformF(0.2, 1.0)
                                 : rng.inBoxF(3.0);
        const float tMax = 3.0f;
        const auto got = sweepSphereSphere(a, va, b, vb, tMax);
        // |p + v t|^2 = R^2: t = (-p.v - sqrt((p.v)^2 - v.v (p.p - R^2))) / v.v, in double.
        const glm::dvec3 p = toD(a.center) - toD(b.center), v = toD(va) - toD(vb);
        const double reach = double(a.radius) + double(b.radius);
        const double pv = glm::dot(p, v), vv = glm::dot(v, v), c = glm::dot(p, p) - reach * reach;
        if (std::abs(c) < 1e-3 || std::abs(pv) < 1e-3 || vv < 1e-3) continue; // touching or grazing now
        const double disc = pv * pv - vv * c;
        if (pv > 0.0 || disc < 0.0) {
            if (std::abs(disc) > 1e-3) {
                EXPECT_FALSE(got) << "seed " << seed << " case " << i;
            }
            ++misses;
            continue;
        }
        const double want = c < 0.0 ? 0.0 : (-pv - std::sqrt(disc)) / vv;
        if (std::abs(disc) < 1e-3 || std::abs(want - tMax) < 1e-3) continue; // grazing or at the cut-off
        if (want > tMax) {
            EXPECT_FALSE(got) << "seed " << seed << " case " << i;
            continue;
        }
        ASSERT_TRUE(got) << "seed " << seed << " case " << i;
        EXPECT_NEAR(*got, want, 1e-4 * (1.0 + want)) << "seed " << seed << " case " << i;
        ++hits;
    }
    EXPECT_GT(hits, 1000);
    EXPECT_GT(misses, 1000);
}

} // namespace
