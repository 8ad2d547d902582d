// Tests for geom/overlap.hpp: boolean overlap tests (touching counts, invalid never overlaps).
// Every random test uses a fixed seed, runs 100,000 cases and compares with an independent
// double-precision formulation, skipping cases within 1e-4 of the boundary.
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/geom_reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

namespace {

using kz::Aabb;
using kz::Obb;
using kz::Plane;
using kz::Sphere;
using namespace kz::test;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr unsigned kSeed = 0xC0FFEEu;
constexpr int kCases = 100000;
constexpr double kBoundary = 1e-4; // reference margins closer to 0 than this are skipped

const glm::mat3 kIdentity(1.0f);
constexpr double kPi = std::numbers::pi;

// Applies the rigid motion x -> rot x + shift to a box (in double, then rounded once).
Obb transformed(const Obb& b, const glm::dmat3& rot, const glm::dvec3& shift) {
    return Obb{glm::vec3(rot * glm::dvec3(b.center) + shift), b.half, glm::mat3(rot * glm::dmat3(b.axes))};
}

// ------------------------------------------------------------------ double references

double refSqDistAabb(const glm::dvec3& p, const Aabb& box) {
    const glm::dvec3 q = glm::clamp(p, glm::dvec3(box.min), glm::dvec3(box.max));
    return glm::dot(p - q, p - q);
}

double refSqDistObb(const glm::dvec3& p, const Obb& box) {
    const glm::dmat3 axes(box.axes);
    const glm::dvec3 local = glm::inverse(axes) * (p - glm::dvec3(box.center));
    const glm::dvec3 q = glm::clamp(local, -glm::dvec3(box.half), glm::dvec3(box.half));
    const glm::dvec3 diff = axes * (local - q);
    return glm::dot(diff, diff);
}

// ================================================================== sphere vs plane

TEST(TestSpherePlane, Basic) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    EXPECT_TRUE(kz::testSpherePlane({{0.0f, 0.5f, 0.0f}, 1.0f}, ground));
    EXPECT_TRUE(kz::testSpherePlane({{0.0f, -0.5f, 0.0f}, 1.0f}, ground));
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 2.0f, 0.0f}, 1.0f}, ground));
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, -2.0f, 0.0f}, 1.0f}, ground)); // behind, not crossing
    // Touching counts, on either side; a point on the plane touches it.
    EXPECT_TRUE(kz::testSpherePlane({{3.0f, 1.0f, 0.0f}, 1.0f}, ground));
    EXPECT_TRUE(kz::testSpherePlane({{3.0f, -1.0f, 0.0f}, 1.0f}, ground));
    EXPECT_TRUE(kz::testSpherePlane({{3.0f, 0.0f, 0.0f}, 0.0f}, ground));
}

TEST(TestSpherePlane, NonUnitNormalMeasuresWorldDistance) {
    const Plane p{{0.0f, 2.0f, 0.0f}, -4.0f};                         // y = 2
    EXPECT_TRUE(kz::testSpherePlane({{0.0f, 2.8f, 0.0f}, 1.0f}, p));  // distance 0.8 (unscaled 1.6)
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 3.5f, 0.0f}, 1.0f}, p)); // distance 1.5
    const Plane q{{0.0f, 0.5f, 0.0f}, -1.0f};                         // y = 2
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 3.5f, 0.0f}, 1.0f}, q)); // distance 1.5 (unscaled 0.75)
    EXPECT_TRUE(kz::testSpherePlane({{0.0f, 1.2f, 0.0f}, 1.0f}, q));
}

TEST(TestSpherePlane, InvalidNeverOverlaps) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 0.0f, 0.0f}, -1.0f}, ground));
    EXPECT_FALSE(kz::testSpherePlane({{kNaN, 0.0f, 0.0f}, 1.0f}, ground));
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 0.0f, 0.0f}, kNaN}, ground));
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 0.0f, 0.0f}, kInf}, ground));
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{0.0f, 0.0f, 0.0f}, 0.0f}));
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{kNaN, 1.0f, 0.0f}, 0.0f}));
    EXPECT_FALSE(kz::testSpherePlane({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{0.0f, 1.0f, 0.0f}, kNaN}));
}

TEST(TestSpherePlane, RandomAgainstDoubleDistance) {
    const unsigned seed = kSeed;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0;
    for (int i = 0; i < kCases; ++i) {
        const float scale = uniform(rng, 0.1f, 10.0f);
        const Plane plane{glm::vec3(randomUnit(rng)) * scale, uniform(rng, -5.0f, 5.0f) * scale};
        const Sphere s{randomPoint(rng, 5.0f), uniform(rng, 0.0f, 3.0f)};
        const double margin = std::abs(refDistPlane(glm::dvec3(s.center), plane)) - double(s.radius);
        if (std::abs(margin) < kBoundary) continue;
        ++compared;
        const bool want = margin <= 0.0, got = kz::testSpherePlane(s, plane);
        if (got != want && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": got " << got << " want " << want
                          << "; sphere " << str(glm::dvec3(s.center)) << " r " << s.radius << ", plane n "
                          << str(glm::dvec3(plane.normal)) << " d " << plane.d;
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

// ================================================================== sphere vs sphere

TEST(TestSphereSphere, Basic) {
    EXPECT_TRUE(kz::testSphereSphere({{0.0f, 0.0f, 0.0f}, 1.0f}, {{1.5f, 0.0f, 0.0f}, 1.0f}));
    EXPECT_FALSE(kz::testSphereSphere({{0.0f, 0.0f, 0.0f}, 1.0f}, {{2.5f, 0.0f, 0.0f}, 1.0f}));
    EXPECT_TRUE(kz::testSphereSphere({{0.0f, 0.0f, 0.0f}, 5.0f}, {{1.0f, 1.0f, 1.0f}, 0.5f})); // contained
    EXPECT_TRUE(kz::testSphereSphere({{1.0f, 2.0f, 3.0f}, 1.0f}, {{1.0f, 2.0f, 3.0f}, 1.0f})); // identical
    // Touching (exactly representable): |c1 - c2| = 3 = r1 + r2.
    EXPECT_TRUE(kz::testSphereSphere({{0.0f, 0.0f, 0.0f}, 1.0f}, {{3.0f, 0.0f, 0.0f}, 2.0f}));
    EXPECT_TRUE(kz::testSphereSphere({{0.0f, 0.0f, 0.0f}, 2.0f}, {{3.0f, 4.0f, 0.0f}, 3.0f}));
    EXPECT_FALSE(kz::testSphereSphere({{0.0f, 0.0f, 0.0f}, 2.0f}, {{3.0f, 4.0f, 0.0f}, 2.99f}));
    // Points (radius 0).
    EXPECT_TRUE(kz::testSphereSphere({{1.0f, 1.0f, 1.0f}, 0.0f}, {{1.0f, 1.0f, 1.0f}, 0.0f}));
    EXPECT_FALSE(kz::testSphereSphere({{1.0f, 1.0f, 1.0f}, 0.0f}, {{1.0f, 1.0f, 2.0f}, 0.0f}));
    EXPECT_TRUE(kz::testSphereSphere({{1.0f, 1.0f, 1.0f}, 0.0f}, {{1.0f, 1.0f, 2.0f}, 1.0f}));
}

TEST(TestSphereSphere, InvalidNeverOverlaps) {
    const Sphere good{{0.0f, 0.0f, 0.0f}, 1.0f};
    for (const Sphere& bad : {Sphere{{0.0f, 0.0f, 0.0f}, -1.0f}, Sphere{{kNaN, 0.0f, 0.0f}, 1.0f},
                              Sphere{{0.0f, 0.0f, 0.0f}, kNaN}, Sphere{{0.0f, 0.0f, 0.0f}, kInf},
                              Sphere{{0.0f, kInf, 0.0f}, 1.0f}}) {
        EXPECT_FALSE(kz::testSphereSphere(good, bad));
        EXPECT_FALSE(kz::testSphereSphere(bad, good));
    }
}

TEST(TestSphereSphere, RandomAgainstDoubleDistance) {
    const unsigned seed = kSeed + 1;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0;
    for (int i = 0; i < kCases; ++i) {
        const Sphere a{randomPoint(rng, 5.0f), uniform(rng, 0.0f, 4.0f)};
        const Sphere b{randomPoint(rng, 5.0f), uniform(rng, 0.0f, 4.0f)};
        const double margin =
            glm::distance(glm::dvec3(a.center), glm::dvec3(b.center)) - double(a.radius) - double(b.radius);
        if (std::abs(margin) < kBoundary) continue;
        ++compared;
        const bool want = margin <= 0.0, got = kz::testSphereSphere(a, b);
        if (got != want && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": got " << got << " want " << want;
        if (kz::testSphereSphere(b, a) != got && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": not symmetric";
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

// ================================================================== sphere vs AABB

TEST(TestSphereAabb, Basic) {
    const Aabb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    EXPECT_TRUE(kz::testSphereAabb({{0.5f, 0.5f, 0.5f}, 0.1f}, box));  // inside
    EXPECT_TRUE(kz::testSphereAabb({{0.5f, 0.5f, 0.5f}, 10.0f}, box)); // holds the box
    EXPECT_TRUE(kz::testSphereAabb({{1.5f, 0.5f, 0.5f}, 0.6f}, box));
    EXPECT_FALSE(kz::testSphereAabb({{1.5f, 0.5f, 0.5f}, 0.4f}, box));
    // Corner region: distance to (1, 1, 1) is sqrt(3) * 0.5 ~ 0.866.
    EXPECT_FALSE(kz::testSphereAabb({{1.5f, 1.5f, 1.5f}, 0.85f}, box));
    EXPECT_TRUE(kz::testSphereAabb({{1.5f, 1.5f, 1.5f}, 0.87f}, box));
    // Touching exactly: a face, and an edge at distance 5 (3-4-5).
    EXPECT_TRUE(kz::testSphereAabb({{2.0f, 0.5f, 0.5f}, 1.0f}, box));
    EXPECT_TRUE(kz::testSphereAabb({{4.0f, 5.0f, 0.5f}, 5.0f}, box));
    // Flat box (valid) and a point sphere on its surface.
    const Aabb flat{{0.0f, 1.0f, 0.0f}, {2.0f, 1.0f, 2.0f}};
    EXPECT_TRUE(kz::testSphereAabb({{1.0f, 1.5f, 1.0f}, 0.5f}, flat));
    EXPECT_FALSE(kz::testSphereAabb({{1.0f, 1.5f, 1.0f}, 0.4f}, flat));
    EXPECT_TRUE(kz::testSphereAabb({{1.0f, 1.0f, 1.0f}, 0.0f}, flat));
}

TEST(TestSphereAabb, InvalidNeverOverlaps) {
    const Aabb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    EXPECT_FALSE(kz::testSphereAabb({{0.5f, 0.5f, 0.5f}, -1.0f}, box));
    EXPECT_FALSE(kz::testSphereAabb({{kNaN, 0.5f, 0.5f}, 1.0f}, box));
    EXPECT_FALSE(
        kz::testSphereAabb({{0.5f, 0.5f, 0.5f}, 1.0f}, Aabb{{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 1.0f}}));
    EXPECT_FALSE(
        kz::testSphereAabb({{0.5f, 0.5f, 0.5f}, 1.0f}, Aabb{{0.0f, kNaN, 0.0f}, {1.0f, 1.0f, 1.0f}}));
    EXPECT_FALSE(
        kz::testSphereAabb({{0.5f, 0.5f, 0.5f}, 1.0f}, Aabb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, kInf}}));
}

TEST(TestSphereAabb, RandomAgainstDoubleDistance) {
    const unsigned seed = kSeed + 2;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0;
    for (int i = 0; i < kCases; ++i) {
        const glm::vec3 p = randomPoint(rng, 3.0f), q = randomPoint(rng, 3.0f);
        const Aabb box{glm::min(p, q), glm::max(p, q)};
        const Sphere s{randomPoint(rng, 6.0f), uniform(rng, 0.0f, 3.0f)};
        const double margin = std::sqrt(refSqDistAabb(glm::dvec3(s.center), box)) - double(s.radius);
        if (std::abs(margin) < kBoundary) continue;
        ++compared;
        const bool want = margin <= 0.0, got = kz::testSphereAabb(s, box);
        if (got != want && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": got " << got << " want " << want
                          << "; sphere " << str(glm::dvec3(s.center)) << " r " << s.radius << ", box "
                          << str(glm::dvec3(box.min)) << " " << str(glm::dvec3(box.max));
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

// ================================================================== sphere vs OBB

TEST(TestSphereObb, Basic) {
    // Box rotated 45 degrees about z: its +x extent is a vertical edge at x = sqrt(2).
    const Obb box{
        {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0))};
    EXPECT_TRUE(kz::testSphereObb({{0.0f, 0.0f, 0.0f}, 0.1f}, box));
    EXPECT_TRUE(kz::testSphereObb({{2.0f, 0.0f, 0.0f}, 0.6f}, box));   // edge at distance 0.586
    EXPECT_FALSE(kz::testSphereObb({{2.0f, 0.0f, 0.0f}, 0.58f}, box)); // an AABB test would say true
    EXPECT_FALSE(kz::testSphereObb({{1.2f, 1.2f, 0.0f}, 0.28f}, box)); // face at distance 0.697
    EXPECT_TRUE(kz::testSphereObb({{1.2f, 1.2f, 0.0f}, 0.7f}, box));
    // Touching exactly with identity axes.
    const Obb unit{{1.0f, 1.0f, 1.0f}, {1.0f, 2.0f, 3.0f}, kIdentity};
    EXPECT_TRUE(kz::testSphereObb({{3.0f, 1.0f, 1.0f}, 1.0f}, unit));
    EXPECT_FALSE(kz::testSphereObb({{3.0f, 1.0f, 1.0f}, 0.999f}, unit));
}

TEST(TestSphereObb, InvalidNeverOverlaps) {
    const Obb good{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    EXPECT_FALSE(kz::testSphereObb({{0.0f, 0.0f, 0.0f}, -1.0f}, good));
    EXPECT_FALSE(kz::testSphereObb({{0.0f, kNaN, 0.0f}, 1.0f}, good));
    EXPECT_FALSE(kz::testSphereObb({{0.0f, 0.0f, 0.0f}, 1.0f},
                                   Obb{{0.0f, 0.0f, 0.0f}, {-1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_FALSE(kz::testSphereObb({{0.0f, 0.0f, 0.0f}, 1.0f},
                                   Obb{{kNaN, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_FALSE(kz::testSphereObb({{0.0f, 0.0f, 0.0f}, 1.0f},
                                   Obb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(0.0f)}));
    glm::mat3 nanAxes = kIdentity;
    nanAxes[1][1] = kNaN;
    EXPECT_FALSE(
        kz::testSphereObb({{0.0f, 0.0f, 0.0f}, 1.0f}, Obb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, nanAxes}));
}

TEST(TestSphereObb, RandomAgainstDoubleDistance) {
    const unsigned seed = kSeed + 3;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0;
    for (int i = 0; i < kCases; ++i) {
        const Obb box = randomObb(rng, 2.0f, 0.0f, 2.0f);
        const Sphere s{randomPoint(rng, 5.0f), uniform(rng, 0.0f, 3.0f)};
        const double margin = std::sqrt(refSqDistObb(glm::dvec3(s.center), box)) - double(s.radius);
        if (std::abs(margin) < kBoundary) continue;
        ++compared;
        const bool want = margin <= 0.0, got = kz::testSphereObb(s, box);
        if (got != want && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": got " << got << " want " << want
                          << "; sphere " << str(glm::dvec3(s.center)) << " r " << s.radius << ", "
                          << str(box);
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

// ================================================================== OBB vs plane

TEST(TestObbPlane, RestingAndRotated) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    const Obb resting{{0.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}; // bottom face on the plane
    EXPECT_TRUE(kz::testObbPlane(resting, ground));
    EXPECT_TRUE(kz::testObbPlaneCorners(resting, ground));
    const Obb above{{0.0f, 1.001f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    EXPECT_FALSE(kz::testObbPlane(above, ground));
    EXPECT_FALSE(kz::testObbPlaneCorners(above, ground));
    const Obb below{{0.0f, -1.001f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}; // entirely behind
    EXPECT_FALSE(kz::testObbPlane(below, ground));
    EXPECT_FALSE(kz::testObbPlaneCorners(below, ground));
    // Rotated 45 degrees about z: the lowest edge is sqrt(2) below the centre.
    const glm::mat3 rot45(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0));
    const Obb diamondIn{{5.0f, 1.41f, 0.0f}, {1.0f, 1.0f, 1.0f}, rot45};
    const Obb diamondOut{{5.0f, 1.42f, 0.0f}, {1.0f, 1.0f, 1.0f}, rot45};
    EXPECT_TRUE(kz::testObbPlane(diamondIn, ground));
    EXPECT_TRUE(kz::testObbPlaneCorners(diamondIn, ground));
    EXPECT_FALSE(kz::testObbPlane(diamondOut, ground)); // an unrotated box would reach y = 0.42
    EXPECT_FALSE(kz::testObbPlaneCorners(diamondOut, ground));
    // Non-unit plane normal: y = 2 written as 3y - 6 = 0.
    const Plane scaled{{0.0f, 3.0f, 0.0f}, -6.0f};
    EXPECT_TRUE(kz::testObbPlane({{0.0f, 2.9f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, scaled));
    EXPECT_TRUE(kz::testObbPlaneCorners({{0.0f, 2.9f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, scaled));
    EXPECT_FALSE(kz::testObbPlane({{0.0f, 3.1f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, scaled));
    EXPECT_FALSE(kz::testObbPlaneCorners({{0.0f, 3.1f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, scaled));
    // A flat box (half 0 on an axis) lying in the plane.
    const Obb flat{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 1.0f}, kIdentity};
    EXPECT_TRUE(kz::testObbPlane(flat, ground));
    EXPECT_TRUE(kz::testObbPlaneCorners(flat, ground));
}

TEST(TestObbPlane, InvalidNeverOverlaps) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    const Obb good{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    const Obb negHalf{{0.0f, 0.0f, 0.0f}, {1.0f, -1.0f, 1.0f}, kIdentity};
    const Obb nanCentre{{0.0f, kNaN, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    const Obb zeroAxes{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(0.0f)};
    for (const Obb& bad : {negHalf, nanCentre, zeroAxes}) {
        EXPECT_FALSE(kz::testObbPlane(bad, ground));
        EXPECT_FALSE(kz::testObbPlaneCorners(bad, ground));
    }
    for (const Plane& bad : {Plane{{0.0f, 0.0f, 0.0f}, 0.0f}, Plane{{0.0f, kNaN, 0.0f}, 0.0f},
                             Plane{{0.0f, 1.0f, 0.0f}, kInf}}) {
        EXPECT_FALSE(kz::testObbPlane(good, bad));
        EXPECT_FALSE(kz::testObbPlaneCorners(good, bad));
    }
}

TEST(TestObbPlane, ProjectedRadiusAgreesWithCornersRandom) {
    const unsigned seed = kSeed + 4;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0, nearDisagreements = 0;
    for (int i = 0; i < kCases; ++i) {
        const Obb box = randomObb(rng, 3.0f, 0.0f, 2.0f);
        const float scale = uniform(rng, 0.1f, 10.0f);
        const Plane plane{glm::vec3(randomUnit(rng)) * scale, uniform(rng, -4.0f, 4.0f) * scale};
        // Reference: signed distances of the 8 corners, in double.
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const glm::dvec3& c : refCorners(box, 0.0)) {
            const double d = refDistPlane(c, plane);
            lo = std::min(lo, d);
            hi = std::max(hi, d);
        }
        const bool projected = kz::testObbPlane(box, plane), byCorners = kz::testObbPlaneCorners(box, plane);
        if (std::min(std::abs(lo), std::abs(hi)) < kBoundary) {
            nearDisagreements += projected != byCorners;
            continue;
        }
        ++compared;
        const bool want = lo <= 0.0 && hi >= 0.0;
        if ((projected != want || byCorners != want) && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": projected " << projected << " corners "
                          << byCorners << " want " << want << "; " << str(box) << ", plane n "
                          << str(glm::dvec3(plane.normal)) << " d " << plane.d;
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
    // Within 1e-4 of touching the two may differ by rounding; it must stay rare.
    EXPECT_LE(nearDisagreements, kCases / 1000);
}

// ================================================================== AABB vs AABB

TEST(TestAabbAabb, Basic) {
    const Aabb a{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    EXPECT_TRUE(kz::testAabbAabb(a, a));
    EXPECT_TRUE(kz::testAabbAabb(a, Aabb{{0.5f, 0.5f, 0.5f}, {2.0f, 2.0f, 2.0f}}));
    EXPECT_TRUE(kz::testAabbAabb(a, Aabb{{-1.0f, -1.0f, -1.0f}, {2.0f, 2.0f, 2.0f}})); // contains
    EXPECT_TRUE(kz::testAabbAabb(Aabb{{-1.0f, -1.0f, -1.0f}, {2.0f, 2.0f, 2.0f}}, a));
    // Separated on exactly one axis each.
    EXPECT_FALSE(kz::testAabbAabb(a, Aabb{{1.5f, 0.0f, 0.0f}, {2.0f, 1.0f, 1.0f}}));
    EXPECT_FALSE(kz::testAabbAabb(a, Aabb{{0.0f, -2.0f, 0.0f}, {1.0f, -0.5f, 1.0f}}));
    EXPECT_FALSE(kz::testAabbAabb(a, Aabb{{0.0f, 0.0f, 1.01f}, {1.0f, 1.0f, 2.0f}}));
    // Touching face, edge and corner count.
    EXPECT_TRUE(kz::testAabbAabb(a, Aabb{{1.0f, 0.0f, 0.0f}, {2.0f, 1.0f, 1.0f}}));
    EXPECT_TRUE(kz::testAabbAabb(a, Aabb{{1.0f, 1.0f, 0.0f}, {2.0f, 2.0f, 1.0f}}));
    EXPECT_TRUE(kz::testAabbAabb(a, Aabb{{1.0f, 1.0f, 1.0f}, {2.0f, 2.0f, 2.0f}}));
    EXPECT_TRUE(kz::testAabbAabb(a, Aabb{{-1.0f, -1.0f, -1.0f}, {0.0f, 0.0f, 0.0f}}));
    // Flat boxes.
    EXPECT_TRUE(kz::testAabbAabb(a, Aabb{{0.5f, 1.0f, 0.5f}, {3.0f, 1.0f, 3.0f}}));
    EXPECT_FALSE(kz::testAabbAabb(a, Aabb{{0.5f, 1.5f, 0.5f}, {3.0f, 1.5f, 3.0f}}));
}

TEST(TestAabbAabb, InvalidNeverOverlaps) {
    const Aabb a{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    for (const Aabb& bad :
         {Aabb{{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 1.0f}}, Aabb{{0.0f, 0.0f, kNaN}, {1.0f, 1.0f, 1.0f}},
          Aabb{{0.0f, 0.0f, 0.0f}, {1.0f, kNaN, 1.0f}}, Aabb{{-kInf, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}}}) {
        EXPECT_FALSE(kz::testAabbAabb(a, bad));
        EXPECT_FALSE(kz::testAabbAabb(bad, a));
    }
}

TEST(TestAabbAabb, RandomAgainstDoubleIntervals) {
    const unsigned seed = kSeed + 5;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0;
    for (int i = 0; i < kCases; ++i) {
        const glm::vec3 c1 = randomPoint(rng, 4.0f), c2 = randomPoint(rng, 4.0f);
        const glm::vec3 h1(uniform(rng, 0.0f, 2.5f), uniform(rng, 0.0f, 2.5f), uniform(rng, 0.0f, 2.5f));
        const glm::vec3 h2(uniform(rng, 0.0f, 2.5f), uniform(rng, 0.0f, 2.5f), uniform(rng, 0.0f, 2.5f));
        const Aabb a{c1 - h1, c1 + h1}, b{c2 - h2, c2 + h2};
        // Reference: per-axis gap (positive = separated), the largest one decides.
        double gap = -std::numeric_limits<double>::infinity();
        for (int k = 0; k < 3; ++k)
            gap = std::max({gap, double(b.min[k]) - double(a.max[k]), double(a.min[k]) - double(b.max[k])});
        if (std::abs(gap) < kBoundary) continue;
        ++compared;
        const bool want = gap <= 0.0, got = kz::testAabbAabb(a, b);
        if ((got != want || kz::testAabbAabb(b, a) != want) && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": got " << got << " want " << want;
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

// ================================================================== OBB vs OBB

// Two unit cubes whose nearest features are crossed edges: A turned 45 degrees about z (an edge
// along z at x = sqrt 2), B turned 45 degrees about y (an edge along y at x = c - sqrt 2). For
// gap > 0 the only separating axis is x = A.z x B.y; all 6 face axes overlap.
std::pair<Obb, Obb> crossedEdges(double gap) {
    const Obb a{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0))};
    const Obb b{{float(2.0 * std::sqrt(2.0) + gap), 0.0f, 0.0f},
                {1.0f, 1.0f, 1.0f},
                glm::mat3(rotationAbout({0.0, 1.0, 0.0}, kPi / 4.0))};
    return {a, b};
}

TEST(TestObbObb, IdenticalContainedAndTouching) {
    const Obb a{{1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 0.5f}, glm::mat3(rotationAbout({1.0, 2.0, 3.0}, 0.7))};
    EXPECT_TRUE(kz::testObbObb(a, a));
    Obb inner = a;
    inner.half *= 0.25f;
    EXPECT_TRUE(kz::testObbObb(a, inner));
    EXPECT_TRUE(kz::testObbObb(inner, a));
    // Axis-aligned unit cubes touching on a face, an edge, a corner (all exact in float).
    const Obb c0{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    EXPECT_TRUE(kz::testObbObb(c0, Obb{{2.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_TRUE(kz::testObbObb(c0, Obb{{2.0f, 2.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_TRUE(kz::testObbObb(c0, Obb{{2.0f, -2.0f, 2.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_TRUE(kz::testObbObb(c0, Obb{{0.5f, 1.5f, 0.0f}, {1.0f, 0.5f, 1.0f}, kIdentity}));
    // ... and just apart.
    EXPECT_FALSE(kz::testObbObb(c0, Obb{{2.001f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_FALSE(kz::testObbObb(c0, Obb{{2.0f, 2.001f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_FALSE(kz::testObbObb(c0, Obb{{0.0f, 0.0f, -2.001f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
}

TEST(TestObbObb, SeparatedByFaceAxes) {
    const Obb a{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    // B rotated 45 degrees about z: its corner edge reaches sqrt 2 towards A.
    const glm::mat3 rot(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0));
    EXPECT_TRUE(kz::testObbObb(a, Obb{{2.4f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, rot}));
    EXPECT_FALSE(kz::testObbObb(a, Obb{{2.43f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, rot})); // A's face axis
    // Separated along one of B's face normals, (1, 1, 0) / sqrt 2.
    const Obb b{{2.0f, 2.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, rot};
    EXPECT_FALSE(kz::testObbObb(a, Obb{{1.8f, 1.8f, 0.0f}, {1.0f, 1.0f, 1.0f}, rot}));
    EXPECT_TRUE(kz::testObbObb(a, Obb{{1.7f, 1.7f, 0.0f}, {1.0f, 1.0f, 1.0f}, rot}));
    EXPECT_FALSE(kz::testObbObb(a, b));
    EXPECT_FALSE(kz::testObbObb(b, a));
}

TEST(TestObbObb, SeparatedOnlyByEdgeEdgeAxis) {
    for (const double gap : {0.1, 0.01, 0.001}) {
        const auto [a, b] = crossedEdges(gap);
        ASSERT_FALSE(refObbOverlap(a, b, 0.0)) << "reference, gap " << gap;
        EXPECT_FALSE(kz::testObbObb(a, b)) << "gap " << gap;
        EXPECT_FALSE(kz::testObbObb(b, a)) << "gap " << gap;
        const auto [c, d] = crossedEdges(-gap);
        ASSERT_TRUE(refObbOverlap(c, d, 0.0)) << "reference, gap " << -gap;
        EXPECT_TRUE(kz::testObbObb(c, d)) << "gap " << -gap;
        EXPECT_TRUE(kz::testObbObb(d, c)) << "gap " << -gap;
    }
    // Check that the face axes alone do not separate the gap = 0.1 pair (else the case is moot).
    const auto [a, b] = crossedEdges(0.1);
    for (int pass = 0; pass < 2; ++pass) {
        const glm::mat3& axes = pass == 0 ? a.axes : b.axes;
        for (int k = 0; k < 3; ++k) {
            const glm::dvec3 l(axes[k]);
            double ra = 0.0, rb = 0.0;
            for (int j = 0; j < 3; ++j) {
                ra += double(a.half[j]) * std::abs(glm::dot(glm::dvec3(a.axes[j]), l));
                rb += double(b.half[j]) * std::abs(glm::dot(glm::dvec3(b.axes[j]), l));
            }
            EXPECT_LT(std::abs(glm::dot(glm::dvec3(b.center) - glm::dvec3(a.center), l)), ra + rb);
        }
    }
}

TEST(TestObbObb, EdgeEdgeCaseUnderRandomRigidMotions) {
    const unsigned seed = kSeed + 6;
    std::mt19937 rng(seed);
    int failures = 0;
    for (int i = 0; i < 20000; ++i) {
        const double gap = double(uniform(rng, 0.002f, 0.3f)) * (i % 2 == 0 ? 1.0 : -1.0);
        const auto [a0, b0] = crossedEdges(gap);
        const glm::dmat3 rot = randomRotation(rng);
        const glm::dvec3 shift(randomPoint(rng, 10.0f));
        const Obb a = transformed(a0, rot, shift), b = transformed(b0, rot, shift);
        const bool want = gap < 0.0;
        const bool got = kz::testObbObb(a, b);
        if ((got != want || kz::testObbObb(b, a) != want) && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": gap " << gap << " got " << got << "; A "
                          << str(a) << " B " << str(b);
    }
    EXPECT_EQ(failures, 0);
}

TEST(TestObbObb, ParallelEdgesNeverFalselySeparate) {
    const Obb a{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    // Same axes: every edge cross product is zero.
    EXPECT_TRUE(kz::testObbObb(a, Obb{{1.5f, 0.5f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_TRUE(kz::testObbObb(a, Obb{{1.5f, 1.5f, 1.5f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    EXPECT_FALSE(kz::testObbObb(a, Obb{{2.5f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}));
    // Common z axis, turned 30 degrees: z edges are parallel.
    const glm::mat3 rot30(rotationAbout({0.0, 0.0, 1.0}, kPi / 6.0));
    EXPECT_TRUE(kz::testObbObb(a, Obb{{2.0f, 0.3f, 1.9f}, {1.0f, 1.0f, 1.0f}, rot30}));
    EXPECT_FALSE(kz::testObbObb(a, Obb{{2.0f, 0.3f, 2.1f}, {1.0f, 1.0f, 1.0f}, rot30}));
    // Random nearly aligned pairs with deep overlap must overlap.
    const unsigned seed = kSeed + 7;
    std::mt19937 rng(seed);
    int failures = 0;
    for (int i = 0; i < 20000; ++i) {
        const glm::dmat3 base = randomRotation(rng);
        const double angle = std::pow(10.0, double(uniform(rng, -8.0f, -3.0f)));
        const glm::dmat3 tilt = rotationAbout(randomUnit(rng), angle) * base;
        const Obb p{randomPoint(rng, 5.0f),
                    {uniform(rng, 0.5f, 2.0f), uniform(rng, 0.5f, 2.0f), 1.0f},
                    glm::mat3(i % 2 == 0 ? base : tilt)};
        const Obb q{p.center + glm::vec3(randomUnit(rng)) * uniform(rng, 0.0f, 0.4f),
                    {uniform(rng, 0.5f, 2.0f), uniform(rng, 0.5f, 2.0f), 1.0f},
                    glm::mat3(tilt)};
        if ((!kz::testObbObb(p, q) || !kz::testObbObb(q, p)) && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": false separation; A " << str(p) << " B "
                          << str(q);
    }
    EXPECT_EQ(failures, 0);
}

TEST(TestObbObb, InvalidNeverOverlaps) {
    const Obb good{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    glm::mat3 nanAxes = kIdentity;
    nanAxes[2][0] = kNaN;
    const std::array<Obb, 4> bad{Obb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, -0.5f}, kIdentity},
                                 Obb{{kNaN, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity},
                                 Obb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(0.0f)},
                                 Obb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, nanAxes}};
    for (const Obb& b : bad) {
        EXPECT_FALSE(kz::testObbObb(good, b)) << str(b);
        EXPECT_FALSE(kz::testObbObb(b, good)) << str(b);
    }
}

TEST(TestObbObb, RandomAgainstEdgeSolidReference) {
    const unsigned seed = kSeed + 8;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0, overlapping = 0;
    for (int i = 0; i < kCases; ++i) {
        const Obb a = randomObb(rng, 3.0f, 0.1f, 2.0f), b = randomObb(rng, 3.0f, 0.1f, 2.0f);
        // Near the boundary growing / shrinking both boxes by 1e-4 flips the reference: skip.
        const bool grown = refObbOverlap(a, b, kBoundary), shrunk = refObbOverlap(a, b, -kBoundary);
        if (grown != shrunk) continue;
        ++compared;
        overlapping += grown;
        const bool got = kz::testObbObb(a, b), gotSwapped = kz::testObbObb(b, a);
        if ((got != grown || gotSwapped != grown) && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": got " << got << "/" << gotSwapped
                          << " want " << grown << "; A " << str(a) << " B " << str(b);
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
    // Both outcomes well represented.
    EXPECT_GT(overlapping, compared / 5);
    EXPECT_LT(overlapping, compared * 4 / 5);
}

} // namespace
