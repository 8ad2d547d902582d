// Tests for geom/closest.hpp: closest points, distances, line pieces, ray pairs, polygons.
// Random cases use fixed seeds and are compared with independent double-precision references.
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/geom_reference.hpp"
#include "support/thin_triangles.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using kz::Aabb;
using kz::LinePiece;
using kz::Obb;
using kz::Ray;
using kz::RayPairKind;
using kz::Triangle;
using namespace kz::test;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr unsigned kSeed = 20240611u;

// ------------------------------------------------------------------ double references

glm::dvec3 refClosestAabb(const glm::dvec3& p, const glm::dvec3& lo, const glm::dvec3& hi) {
    return glm::clamp(p, lo, hi);
}

glm::dvec3 refClosestObb(const glm::dvec3& p, const Obb& box) {
    const glm::dmat3 axes(box.axes);
    const glm::dvec3 c(box.center), h(box.half);
    const glm::dvec3 local = glm::inverse(axes) * (p - c);
    return c + axes * glm::clamp(local, -h, h);
}

struct RefPiece {
    glm::dvec3 o, d;
    double lo, hi;
};

RefPiece toRef(const LinePiece& p) {
    return {glm::dvec3(p.origin), glm::dvec3(p.dir), double(p.lo), double(p.hi)};
}

glm::dvec3 at(const RefPiece& p, double s) {
    return p.o + s * p.d;
}

double projParam(const RefPiece& piece, const glm::dvec3& p) {
    const double dd = glm::dot(piece.d, piece.d);
    if (dd == 0.0) return std::clamp(0.0, piece.lo, piece.hi);
    return std::clamp(glm::dot(p - piece.o, piece.d) / dd, piece.lo, piece.hi);
}

struct RefPair {
    double s, t, sqDist;
};

// Minimum of a convex quadratic over a (possibly unbounded) box: the unconstrained optimum if
// feasible, else on a boundary edge where the 1-D problem is a clamped projection.
RefPair refClosestPieces(const RefPiece& p, const RefPiece& q) {
    RefPair best{0.0, 0.0, std::numeric_limits<double>::infinity()};
    auto consider = [&](double s, double t) {
        const double d2 = glm::dot(at(p, s) - at(q, t), at(p, s) - at(q, t));
        if (d2 < best.sqDist) best = {s, t, d2};
    };
    const double a = glm::dot(p.d, p.d), e = glm::dot(q.d, q.d), b = glm::dot(p.d, q.d);
    const glm::dvec3 r = p.o - q.o;
    const double c = glm::dot(p.d, r), f = glm::dot(q.d, r);
    const double denom = a * e - b * b;
    if (denom > 1e-12 * a * e && a > 0.0 && e > 0.0) {
        const double s = (b * f - c * e) / denom, t = (a * f - b * c) / denom;
        if (s >= p.lo && s <= p.hi && t >= q.lo && t <= q.hi) consider(s, t);
    }
    for (const double s : {p.lo, p.hi})
        if (std::isfinite(s)) consider(s, projParam(q, at(p, s)));
    for (const double t : {q.lo, q.hi})
        if (std::isfinite(t)) consider(projParam(p, at(q, t)), t);
    const double s0 = std::clamp(0.0, p.lo, p.hi);
    consider(s0, projParam(q, at(p, s0)));
    return best;
}

double sinAngle(const glm::dvec3& u, const glm::dvec3& v) {
    return glm::length(glm::cross(u, v)) / (glm::length(u) * glm::length(v));
}

// ================================================================== point vs AABB / OBB

TEST(ClosestPtPointAabb, InsideOutsideAndBoundary) {
    const Aabb box{{-1.0f, -2.0f, -3.0f}, {1.0f, 2.0f, 3.0f}};
    expectVecNear(kz::closestPtPointAabb({0.5f, -1.0f, 2.0f}, box), {0.5f, -1.0f, 2.0f}, 0.0f);
    expectVecNear(kz::closestPtPointAabb({3.0f, -5.0f, 0.5f}, box), {1.0f, -2.0f, 0.5f}, 0.0f);
    expectVecNear(kz::closestPtPointAabb({-9.0f, 9.0f, -9.0f}, box), {-1.0f, 2.0f, -3.0f}, 0.0f);
    expectVecNear(kz::closestPtPointAabb({1.0f, 0.0f, 0.0f}, box), {1.0f, 0.0f, 0.0f}, 0.0f);
    EXPECT_FLOAT_EQ(kz::sqDistPointAabb({0.5f, -1.0f, 2.0f}, box), 0.0f);
    EXPECT_FLOAT_EQ(kz::sqDistPointAabb({1.0f, 2.0f, 3.0f}, box), 0.0f);
    EXPECT_FLOAT_EQ(kz::sqDistPointAabb({3.0f, -5.0f, 0.5f}, box), 4.0f + 9.0f);
    EXPECT_FLOAT_EQ(kz::sqDistPointAabb({-2.0f, 3.0f, -5.0f}, box), 1.0f + 1.0f + 4.0f);
}

TEST(ClosestPtPointAabb, FlatBox) {
    const Aabb flat{{0.0f, 1.0f, 0.0f}, {2.0f, 1.0f, 2.0f}};
    expectVecNear(kz::closestPtPointAabb({1.0f, 5.0f, 1.0f}, flat), {1.0f, 1.0f, 1.0f}, 0.0f);
    EXPECT_FLOAT_EQ(kz::sqDistPointAabb({1.0f, 5.0f, 1.0f}, flat), 16.0f);
    EXPECT_FLOAT_EQ(kz::sqDistPointAabb({1.0f, 1.0f, 1.0f}, flat), 0.0f);
}

TEST(ClosestPtPointAabb, RandomAgainstDoubleReference) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 20000; ++i) {
        const glm::vec3 a = randomPoint(rng, 5.0f), b = randomPoint(rng, 5.0f);
        const Aabb box{glm::min(a, b), glm::max(a, b)};
        const glm::vec3 p = randomPoint(rng, 10.0f);
        const glm::dvec3 want = refClosestAabb(glm::dvec3(p), glm::dvec3(box.min), glm::dvec3(box.max));
        const glm::dvec3 got(kz::closestPtPointAabb(p, box));
        ASSERT_LE(glm::distance(got, want), 1e-6) << "seed " << kSeed << " case " << i;
        const double d2 = glm::dot(want - glm::dvec3(p), want - glm::dvec3(p));
        ASSERT_NEAR(double(kz::sqDistPointAabb(p, box)), d2, 1e-5 * (1.0 + d2))
            << "seed " << kSeed << " case " << i;
    }
}

TEST(ClosestPtPointObb, RotatedBox) {
    // 90 degrees about z: local x = world +y, local y = world -x.
    const Obb box{
        {1.0f, 2.0f, 3.0f},
        {2.0f, 1.0f, 0.5f},
        glm::mat3(glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(-1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 0.0f, 1.0f))};
    expectVecNear(kz::closestPtPointObb({1.0f, 7.0f, 3.0f}, box), {1.0f, 4.0f, 3.0f}, 1e-6f);
    EXPECT_NEAR(kz::sqDistPointObb({1.0f, 7.0f, 3.0f}, box), 9.0f, 1e-5f);
    expectVecNear(kz::closestPtPointObb({4.0f, 2.0f, 3.0f}, box), {2.0f, 2.0f, 3.0f}, 1e-6f);
    EXPECT_NEAR(kz::sqDistPointObb({4.0f, 2.0f, 3.0f}, box), 4.0f, 1e-5f);
    expectVecNear(kz::closestPtPointObb({-5.0f, -5.0f, 10.0f}, box), {0.0f, 0.0f, 3.5f}, 1e-6f);
    // Inside: the point itself.
    expectVecNear(kz::closestPtPointObb({1.5f, 3.0f, 3.25f}, box), {1.5f, 3.0f, 3.25f}, 1e-6f);
    EXPECT_NEAR(kz::sqDistPointObb({1.5f, 3.0f, 3.25f}, box), 0.0f, 1e-6f);
}

TEST(ClosestPtPointObb, RandomAgainstDoubleReference) {
    std::mt19937 rng(kSeed + 1);
    for (int i = 0; i < 20000; ++i) {
        const Obb box = randomObb(rng, 3.0f, 0.0f, 2.0f);
        const glm::vec3 p = randomPoint(rng, 6.0f);
        const glm::dvec3 want = refClosestObb(glm::dvec3(p), box);
        const glm::dvec3 got(kz::closestPtPointObb(p, box));
        ASSERT_LE(glm::distance(got, want), 1e-5)
            << "seed " << kSeed + 1 << " case " << i << " got " << str(got) << " want " << str(want);
        const double d2 = glm::dot(want - glm::dvec3(p), want - glm::dvec3(p));
        ASSERT_NEAR(double(kz::sqDistPointObb(p, box)), d2, 1e-4 * (1.0 + d2))
            << "seed " << kSeed + 1 << " case " << i;
    }
}

// ================================================================== point vs triangle / segment

TEST(ClosestPtPointTriangle, AllVoronoiRegions) {
    const Triangle t{{0.0f, 0.0f, 0.0f}, {4.0f, 0.0f, 0.0f}, {0.0f, 4.0f, 0.0f}};
    expectVecNear(kz::closestPtPointTriangle({-1.0f, -1.0f, 2.0f}, t), {0.0f, 0.0f, 0.0f}, 1e-6f); // vertex a
    expectVecNear(kz::closestPtPointTriangle({5.0f, -1.0f, 0.0f}, t), {4.0f, 0.0f, 0.0f}, 1e-6f);  // vertex b
    expectVecNear(kz::closestPtPointTriangle({-1.0f, 5.0f, 1.0f}, t), {0.0f, 4.0f, 0.0f}, 1e-6f);  // vertex c
    expectVecNear(kz::closestPtPointTriangle({2.0f, -3.0f, 1.0f}, t), {2.0f, 0.0f, 0.0f}, 1e-6f);  // edge ab
    expectVecNear(kz::closestPtPointTriangle({-2.0f, 1.0f, 0.0f}, t), {0.0f, 1.0f, 0.0f}, 1e-6f);  // edge ca
    expectVecNear(kz::closestPtPointTriangle({3.0f, 3.0f, -1.0f}, t), {2.0f, 2.0f, 0.0f}, 1e-6f);  // edge bc
    expectVecNear(kz::closestPtPointTriangle({1.0f, 1.0f, 5.0f}, t), {1.0f, 1.0f, 0.0f}, 1e-6f);   // face
    expectVecNear(kz::closestPtPointTriangle({1.0f, 1.0f, -5.0f}, t), {1.0f, 1.0f, 0.0f},
                  1e-6f);                                                                        // face, back
    expectVecNear(kz::closestPtPointTriangle({1.0f, 2.0f, 0.0f}, t), {1.0f, 2.0f, 0.0f}, 1e-6f); // on it
    // Same answers with the opposite winding.
    const Triangle r{t.a, t.c, t.b};
    expectVecNear(kz::closestPtPointTriangle({3.0f, 3.0f, -1.0f}, r), {2.0f, 2.0f, 0.0f}, 1e-6f);
    expectVecNear(kz::closestPtPointTriangle({5.0f, -1.0f, 0.0f}, r), {4.0f, 0.0f, 0.0f}, 1e-6f);
    expectVecNear(kz::closestPtPointTriangle({1.0f, 1.0f, 5.0f}, r), {1.0f, 1.0f, 0.0f}, 1e-6f);
}

TEST(ClosestPtPointTriangle, DegenerateTriangles) {
    // Collinear: the closest point on the segment they span.
    const Triangle line{{0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    expectVecNear(kz::closestPtPointTriangle({3.0f, 1.0f, 0.0f}, line), {2.0f, 0.0f, 0.0f}, 1e-6f);
    expectVecNear(kz::closestPtPointTriangle({1.5f, 2.0f, -1.0f}, line), {1.5f, 0.0f, 0.0f}, 1e-6f);
    expectVecNear(kz::closestPtPointTriangle({-4.0f, 0.0f, 0.0f}, line), {0.0f, 0.0f, 0.0f}, 1e-6f);
    // Two coincident vertices.
    const Triangle pair{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}};
    expectVecNear(kz::closestPtPointTriangle({1.0f, 1.0f, 0.0f}, pair), {0.0f, 1.0f, 0.0f}, 1e-6f);
    expectVecNear(kz::closestPtPointTriangle({1.0f, 3.0f, 0.0f}, pair), {0.0f, 2.0f, 0.0f}, 1e-6f);
    // A single point.
    const Triangle point{{1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
    expectVecNear(kz::closestPtPointTriangle({5.0f, -2.0f, 0.0f}, point), {1.0f, 1.0f, 1.0f}, 1e-6f);
}

TEST(ClosestPtPointTriangle, RandomAgainstDoubleReference) {
    std::mt19937 rng(kSeed + 2);
    for (int i = 0; i < 30000; ++i) {
        Triangle t{randomPoint(rng, 5.0f), randomPoint(rng, 5.0f), randomPoint(rng, 5.0f)};
        if (i % 10 == 0) {
            // Every tenth triangle exactly degenerate: coordinates on a 1/16 grid so that
            // c = a + k (b - a) is exact in float (k = 0 and k = 1 repeat a vertex).
            const auto grid = [&](float e) { return glm::round(randomPoint(rng, e) * 16.0f) / 16.0f; };
            const std::array<float, 5> ks{-1.0f, 0.0f, 0.5f, 1.0f, 2.0f};
            t.a = grid(4.0f);
            const glm::vec3 d = grid(2.0f);
            t.b = t.a + d;
            t.c = t.a + ks[rng() % ks.size()] * d;
            std::array<glm::vec3, 3> v{t.a, t.b, t.c}; // any vertex may be the repeated one
            std::shuffle(v.begin(), v.end(), rng);
            t = Triangle{v[0], v[1], v[2]};
        }
        const glm::vec3 p = randomPoint(rng, 8.0f);
        const glm::dvec3 want =
            refClosestTriangle(glm::dvec3(p), glm::dvec3(t.a), glm::dvec3(t.b), glm::dvec3(t.c));
        const glm::dvec3 got(kz::closestPtPointTriangle(p, t));
        // Compare the distances (robust to the reference's exact tie-breaking) and the points.
        const double dWant = glm::distance(glm::dvec3(p), want), dGot = glm::distance(glm::dvec3(p), got);
        ASSERT_NEAR(dGot, dWant, 1e-4)
            << "seed " << kSeed + 2 << " case " << i << " got " << str(got) << " want " << str(want);
        if (i % 10 != 0) { // the closest point of a proper triangle is unique
            ASSERT_LE(glm::distance(got, want), 1e-3)
                << "seed " << kSeed + 2 << " case " << i << " got " << str(got) << " want " << str(want);
        }
    }
}

TEST(ClosestPtPointTriangle, JoltsLongTriangleGivesTheRightPointForAllSixVertexOrders) {
    // Jolt's TestLongTriangle: the barycentric differences of large products lose the digits.
    const Triangle t{{100.0f, 1.0f, 0.0f}, {100.0f, 1.0f, 1.0f}, {-100.0f, 1.0f, 0.0f}};
    const glm::vec3 p{0.0f, 0.0f, 0.1f}, want{0.0f, 1.0f, 0.1f};
    const double resolution = 100.0 * double(FLT_EPSILON);
    for (const Triangle& order : kz::thintest::allVertexOrders(t)) {
        const glm::vec3 got = kz::closestPtPointTriangle(p, order);
        EXPECT_LE(glm::distance(glm::dvec3(got), glm::dvec3(want)), resolution)
            << "order " << str(glm::dvec3(order.a)) << " " << str(glm::dvec3(order.b)) << " "
            << str(glm::dvec3(order.c)) << " got " << str(glm::dvec3(got));
    }
}

// Every vertex order gives the very same point, within two float resolutions of the triangle's
// size (at most four ulps of its largest coordinate) from the double reference.
void expectThinTrianglesAccurateInEveryOrder(kz::thintest::ThinKind kind, unsigned seed) {
    std::mt19937 rng(seed);
    int inaccurate = 0, orderDependent = 0;
    double worst = 0.0; // in float resolutions
    for (int i = 0; i < 20000; ++i) {
        const kz::thintest::ThinCase c = kz::thintest::randomThinCase(rng, kind);
        const glm::dvec3 want = refClosestTriangle(glm::dvec3(c.p), glm::dvec3(c.tri.a), glm::dvec3(c.tri.b),
                                                   glm::dvec3(c.tri.c));
        const double resolution = kz::thintest::floatResolution(c);
        const glm::vec3 first = kz::closestPtPointTriangle(c.p, c.tri);
        bool sameInEveryOrder = true;
        for (const Triangle& order : kz::thintest::allVertexOrders(c.tri)) {
            const glm::vec3 got = kz::closestPtPointTriangle(c.p, order);
            sameInEveryOrder = sameInEveryOrder && got == first;
            const double error = glm::distance(glm::dvec3(got), want) / resolution;
            worst = std::max(worst, error);
            if (error > 2.0 && ++inaccurate <= 5) {
                ADD_FAILURE() << "seed " << seed << " case " << i << ": error " << error
                              << " float resolutions; triangle " << str(glm::dvec3(order.a)) << " "
                              << str(glm::dvec3(order.b)) << " " << str(glm::dvec3(order.c)) << " p "
                              << str(glm::dvec3(c.p)) << " got " << str(glm::dvec3(got)) << " want "
                              << str(want);
            }
        }
        if (!sameInEveryOrder && ++orderDependent <= 5) {
            ADD_FAILURE() << "seed " << seed << " case " << i
                          << ": the vertex order changes the point; triangle " << str(glm::dvec3(c.tri.a))
                          << " " << str(glm::dvec3(c.tri.b)) << " " << str(glm::dvec3(c.tri.c)) << " p "
                          << str(glm::dvec3(c.p));
        }
    }
    std::cout << "seed " << seed << ": worst error " << worst << " float resolutions, " << inaccurate
              << " inaccurate results, " << orderDependent << " cases depending on the vertex order\n";
}

TEST(ClosestPtPointTriangle, LongSliverClosestPointIsTheSameForAllSixVertexOrders) {
    expectThinTrianglesAccurateInEveryOrder(kz::thintest::ThinKind::Sliver, kSeed + 10);
}

TEST(ClosestPtPointTriangle, NeedleClosestPointIsTheSameForAllSixVertexOrders) {
    expectThinTrianglesAccurateInEveryOrder(kz::thintest::ThinKind::Needle, kSeed + 11);
}

TEST(ClosestPtPointSegment, Basic) {
    const glm::vec3 a{0.0f, 0.0f, 0.0f}, b{2.0f, 0.0f, 0.0f};
    expectVecNear(kz::closestPtPointSegment({1.0f, 5.0f, 0.0f}, a, b), {1.0f, 0.0f, 0.0f}, 1e-6f);
    expectVecNear(kz::closestPtPointSegment({-3.0f, 1.0f, 0.0f}, a, b), a, 0.0f);
    expectVecNear(kz::closestPtPointSegment({4.0f, 0.0f, 1.0f}, a, b), b, 0.0f);
    expectVecNear(kz::closestPtPointSegment({0.5f, 0.0f, 0.0f}, a, b), {0.5f, 0.0f, 0.0f}, 1e-6f);
    // Degenerate segment: a itself.
    expectVecNear(kz::closestPtPointSegment({4.0f, 4.0f, 4.0f}, {1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 3.0f}),
                  {1.0f, 2.0f, 3.0f}, 0.0f);
}

TEST(ClosestPtPointSegment, RandomAgainstDoubleReference) {
    std::mt19937 rng(kSeed + 3);
    for (int i = 0; i < 20000; ++i) {
        const glm::vec3 a = randomPoint(rng, 5.0f), b = randomPoint(rng, 5.0f), p = randomPoint(rng, 8.0f);
        const glm::dvec3 want = refClosestSegment(glm::dvec3(p), glm::dvec3(a), glm::dvec3(b));
        const glm::dvec3 got(kz::closestPtPointSegment(p, a, b));
        ASSERT_LE(glm::distance(got, want), 1e-5)
            << "seed " << kSeed + 3 << " case " << i << " got " << str(got) << " want " << str(want);
    }
}

// ================================================================== closestPtLinePieces

void expectConsistent(const kz::ClosestPoints& r, const LinePiece& p, const LinePiece& q) {
    EXPECT_GE(r.s, p.lo);
    EXPECT_LE(r.s, p.hi);
    EXPECT_GE(r.t, q.lo);
    EXPECT_LE(r.t, q.hi);
    const glm::vec3 p1 = p.origin + r.s * p.dir, p2 = q.origin + r.t * q.dir;
    const float scale = 1.0f + glm::length(p1) + glm::length(p2);
    expectVecNear(r.p1, p1, 1e-5f * scale);
    expectVecNear(r.p2, p2, 1e-5f * scale);
    EXPECT_NEAR(r.sqDist, glm::dot(r.p1 - r.p2, r.p1 - r.p2), 1e-5f * scale * scale);
}

TEST(ClosestPtLinePieces, CrossingSegments) {
    const LinePiece p = kz::asSegment({-1.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f});
    const LinePiece q = kz::asSegment({0.0f, -1.0f, 1.0f}, {0.0f, 1.0f, 1.0f});
    const auto r = kz::closestPtLinePieces(p, q);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->s, 0.5f, 1e-6f);
    EXPECT_NEAR(r->t, 0.5f, 1e-6f);
    expectVecNear(r->p1, {0.0f, 0.0f, 0.0f}, 1e-6f);
    expectVecNear(r->p2, {0.0f, 0.0f, 1.0f}, 1e-6f);
    EXPECT_NEAR(r->sqDist, 1.0f, 1e-6f);
    EXPECT_FALSE(r->parallel);
    expectConsistent(*r, p, q);
}

TEST(ClosestPtLinePieces, IntersectingSegments) {
    const LinePiece p = kz::asSegment({0.0f, 0.0f, 0.0f}, {4.0f, 4.0f, 0.0f});
    const LinePiece q = kz::asSegment({0.0f, 4.0f, 0.0f}, {4.0f, 0.0f, 0.0f});
    const auto r = kz::closestPtLinePieces(p, q);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->s, 0.5f, 1e-6f);
    EXPECT_NEAR(r->t, 0.5f, 1e-6f);
    expectVecNear(r->p1, {2.0f, 2.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(r->sqDist, 0.0f, 1e-10f);
    EXPECT_FALSE(r->parallel);
}

TEST(ClosestPtLinePieces, SegmentsClampedAtEnds) {
    // The lines cross at (5, 0, 0), beyond both segments: end b of the first and end a of the second.
    const LinePiece p = kz::asSegment({0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f});
    const LinePiece q = kz::asSegment({5.0f, 1.0f, 0.0f}, {5.0f, 4.0f, 0.0f});
    const auto r = kz::closestPtLinePieces(p, q);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->s, 1.0f, 1e-6f);
    EXPECT_NEAR(r->t, 0.0f, 1e-6f);
    EXPECT_NEAR(r->sqDist, 9.0f + 1.0f, 1e-5f);
    expectConsistent(*r, p, q);
    // End of one, interior of the other.
    const LinePiece q2 = kz::asSegment({3.0f, -2.0f, 1.0f}, {3.0f, 2.0f, 1.0f});
    const auto r2 = kz::closestPtLinePieces(p, q2);
    ASSERT_TRUE(r2.has_value());
    EXPECT_NEAR(r2->s, 1.0f, 1e-6f);
    EXPECT_NEAR(r2->t, 0.5f, 1e-6f);
    EXPECT_NEAR(r2->sqDist, 2.0f, 1e-5f);
}

TEST(ClosestPtLinePieces, SkewLines) {
    const LinePiece p = kz::asLine({3.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f});
    const LinePiece q = kz::asLine({0.0f, 5.0f, 2.0f}, {0.0f, 2.0f, 0.0f});
    const auto r = kz::closestPtLinePieces(p, q);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->s, -3.0f, 1e-5f);
    EXPECT_NEAR(r->t, -2.5f, 1e-5f);
    expectVecNear(r->p1, {0.0f, 0.0f, 0.0f}, 1e-5f);
    expectVecNear(r->p2, {0.0f, 0.0f, 2.0f}, 1e-5f);
    EXPECT_NEAR(r->sqDist, 4.0f, 1e-5f);
    EXPECT_FALSE(r->parallel);
}

TEST(ClosestPtLinePieces, Rays) {
    // The lines cross at (0, 0, 0) but the second ray starts past it going away: the first ray's
    // origin is closest to the second ray's origin.
    const LinePiece p = kz::asRay(Ray{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}});
    const LinePiece q = kz::asRay(Ray{{-2.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}});
    const auto r = kz::closestPtLinePieces(p, q);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->s, 0.0f, 1e-6f);
    EXPECT_NEAR(r->t, 0.0f, 1e-6f);
    EXPECT_NEAR(r->sqDist, 5.0f, 1e-5f);
    // A ray against a line: the line may go backwards, the ray may not.
    const LinePiece line = kz::asLine({-2.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 0.0f});
    const auto r2 = kz::closestPtLinePieces(p, line);
    ASSERT_TRUE(r2.has_value());
    EXPECT_NEAR(r2->s, 0.0f, 1e-6f);
    EXPECT_NEAR(r2->t, -1.0f, 1e-6f);
    EXPECT_NEAR(r2->sqDist, 4.0f, 1e-5f);
    expectConsistent(*r2, p, line);
}

TEST(ClosestPtLinePieces, ParallelPieces) {
    // Overlapping parallel segments: distance 1, s as close to 0 as a closest pair allows (0.5).
    const LinePiece p = kz::asSegment({0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f});
    const LinePiece q = kz::asSegment({0.5f, 1.0f, 0.0f}, {2.0f, 1.0f, 0.0f});
    const auto r = kz::closestPtLinePieces(p, q);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->parallel);
    EXPECT_NEAR(r->sqDist, 1.0f, 1e-6f);
    EXPECT_NEAR(r->s, 0.5f, 1e-6f);
    expectConsistent(*r, p, q);
    // Parallel lines (opposite directions): s = 0 is allowed.
    const LinePiece l1 = kz::asLine({0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f});
    const LinePiece l2 = kz::asLine({5.0f, 2.0f, 0.0f}, {-2.0f, 0.0f, 0.0f});
    const auto r2 = kz::closestPtLinePieces(l1, l2);
    ASSERT_TRUE(r2.has_value());
    EXPECT_TRUE(r2->parallel);
    EXPECT_NEAR(r2->sqDist, 4.0f, 1e-5f);
    EXPECT_NEAR(r2->s, 0.0f, 1e-6f);
    EXPECT_NEAR(r2->t, 2.5f, 1e-5f);
    expectConsistent(*r2, l1, l2);
    // Disjoint parallel segments: the nearest ends.
    const LinePiece q3 = kz::asSegment({3.0f, 1.0f, 0.0f}, {4.0f, 1.0f, 0.0f});
    const auto r3 = kz::closestPtLinePieces(p, q3);
    ASSERT_TRUE(r3.has_value());
    EXPECT_TRUE(r3->parallel);
    EXPECT_NEAR(r3->sqDist, 4.0f + 1.0f, 1e-5f);
    EXPECT_NEAR(r3->s, 1.0f, 1e-6f);
    EXPECT_NEAR(r3->t, 0.0f, 1e-6f);
    // Collinear overlapping segments: distance 0.
    const LinePiece q4 = kz::asSegment({0.25f, 0.0f, 0.0f}, {3.0f, 0.0f, 0.0f});
    const auto r4 = kz::closestPtLinePieces(p, q4);
    ASSERT_TRUE(r4.has_value());
    EXPECT_TRUE(r4->parallel);
    EXPECT_NEAR(r4->sqDist, 0.0f, 1e-10f);
    EXPECT_NEAR(r4->s, 0.25f, 1e-6f);
    expectConsistent(*r4, p, q4);
}

TEST(ClosestPtLinePieces, ZeroLengthDirIsAPoint) {
    const LinePiece pt{{1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, 0.0f}, 0.0f, 1.0f};
    const LinePiece line = kz::asLine({0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f});
    auto r = kz::closestPtLinePieces(pt, line);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->parallel);
    expectVecNear(r->p1, {1.0f, 2.0f, 3.0f}, 0.0f);
    expectVecNear(r->p2, {1.0f, 0.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(r->t, 0.5f, 1e-6f);
    EXPECT_NEAR(r->sqDist, 13.0f, 1e-5f);
    EXPECT_NEAR(r->s, 0.0f, 0.0f);
    // The other way round.
    r = kz::closestPtLinePieces(line, pt);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->parallel);
    expectVecNear(r->p1, {1.0f, 0.0f, 0.0f}, 1e-6f);
    expectVecNear(r->p2, {1.0f, 2.0f, 3.0f}, 0.0f);
    EXPECT_NEAR(r->s, 0.5f, 1e-6f);
    EXPECT_NEAR(r->sqDist, 13.0f, 1e-5f);
    // Against a segment, clamped to its end.
    const LinePiece seg = kz::asSegment({-3.0f, 0.0f, 0.0f}, {-1.0f, 0.0f, 0.0f});
    r = kz::closestPtLinePieces(pt, seg);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->t, 1.0f, 1e-6f);
    EXPECT_NEAR(r->sqDist, 4.0f + 4.0f + 9.0f, 1e-5f);
    // Two points.
    const LinePiece pt2{{1.0f, 2.0f, 5.0f}, {0.0f, 0.0f, 0.0f}, -1.0f, 1.0f};
    r = kz::closestPtLinePieces(pt, pt2);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->parallel);
    EXPECT_NEAR(r->sqDist, 4.0f, 1e-6f);
    EXPECT_GE(r->t, -1.0f);
    EXPECT_LE(r->t, 1.0f);
    // A zero dir with a range that excludes 0: s must still lie in the range.
    const LinePiece shifted{{1.0f, 2.0f, 3.0f}, {0.0f, 0.0f, 0.0f}, 2.0f, 5.0f};
    r = kz::closestPtLinePieces(shifted, line);
    ASSERT_TRUE(r.has_value());
    EXPECT_GE(r->s, 2.0f);
    EXPECT_LE(r->s, 5.0f);
    EXPECT_NEAR(r->sqDist, 13.0f, 1e-5f);
}

TEST(ClosestPtLinePieces, CustomRanges) {
    // The first piece is x in [2, 3] (s in [1, 1.5] along dir 2x); the second is the y axis at z = 1.
    const LinePiece p{{0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, 1.0f, 1.5f};
    const LinePiece q = kz::asLine({0.0f, 0.0f, 1.0f}, {0.0f, 1.0f, 0.0f});
    const auto r = kz::closestPtLinePieces(p, q);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->s, 1.0f, 1e-6f);
    EXPECT_NEAR(r->t, 0.0f, 1e-6f);
    EXPECT_NEAR(r->sqDist, 5.0f, 1e-5f);
    // A single-parameter range lo == hi is a point.
    const LinePiece single{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 4.0f, 4.0f};
    const auto r2 = kz::closestPtLinePieces(single, q);
    ASSERT_TRUE(r2.has_value());
    EXPECT_FLOAT_EQ(r2->s, 4.0f);
    EXPECT_NEAR(r2->sqDist, 17.0f, 1e-5f);
}

TEST(ClosestPtLinePieces, InvalidInputIsEmpty) {
    const LinePiece good = kz::asSegment({0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f});
    const LinePiece emptyRange{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 1.0f, 0.0f};
    EXPECT_FALSE(kz::closestPtLinePieces(emptyRange, good).has_value());
    EXPECT_FALSE(kz::closestPtLinePieces(good, emptyRange).has_value());
    const LinePiece nanOrigin{{kNaN, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0.0f, 1.0f};
    const LinePiece nanDir{{0.0f, 0.0f, 0.0f}, {1.0f, kNaN, 0.0f}, 0.0f, 1.0f};
    const LinePiece infDir{{0.0f, 0.0f, 0.0f}, {kInf, 0.0f, 0.0f}, 0.0f, 1.0f};
    const LinePiece nanLo{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, kNaN, 1.0f};
    const LinePiece nanHi{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0.0f, kNaN};
    for (const LinePiece& bad : {nanOrigin, nanDir, infDir, nanLo, nanHi}) {
        EXPECT_FALSE(kz::closestPtLinePieces(bad, good).has_value());
        EXPECT_FALSE(kz::closestPtLinePieces(good, bad).has_value());
    }
}

TEST(ClosestPtLinePieces, RandomAgainstDoubleReference) {
    const unsigned seed = kSeed + 4;
    std::mt19937 rng(seed);
    auto randomPiece = [&]() {
        const glm::vec3 o = randomPoint(rng, 5.0f);
        const glm::vec3 d = glm::vec3(randomUnit(rng)) * uniform(rng, 0.1f, 3.0f);
        switch (rng() % 4) {
        case 0:
            return kz::asLine(o, d);
        case 1:
            return kz::asRay(Ray{o, d});
        case 2:
            return kz::asSegment(o, o + d);
        default: {
            const float a = uniform(rng, -3.0f, 3.0f), b = uniform(rng, -3.0f, 3.0f);
            return LinePiece{o, d, std::min(a, b), std::max(a, b)};
        }
        }
    };
    int compared = 0, failures = 0;
    constexpr int kCases = 100000;
    for (int i = 0; i < kCases; ++i) {
        LinePiece p = randomPiece(), q = randomPiece();
        const bool makeParallel = i % 10 == 0;
        if (makeParallel) q.dir = p.dir * (i % 20 == 0 ? -2.0f : 0.5f); // exactly parallel
        const RefPiece rp = toRef(p), rq = toRef(q);
        const auto got = kz::closestPtLinePieces(p, q);
        if (!got.has_value()) {
            if (++failures <= 10) ADD_FAILURE() << "seed " << seed << " case " << i << ": empty";
            continue;
        }
        const RefPair want = refClosestPieces(rp, rq);
        const bool nearParallel = !makeParallel && sinAngle(rp.d, rq.d) < 0.02;
        if (nearParallel) continue; // ill-conditioned in float
        ++compared;
        const glm::dvec3 g1 = at(rp, double(got->s)), g2 = at(rq, double(got->t));
        const double scale = 1.0 + glm::length(g1) + glm::length(g2);
        const double dGot = glm::distance(g1, g2), dWant = std::sqrt(want.sqDist);
        std::string why;
        if (!(got->s >= p.lo && got->s <= p.hi && got->t >= q.lo && got->t <= q.hi))
            why = "parameter out of range";
        else if (std::abs(dGot - dWant) > 1e-4 * scale)
            why = "pair is not a closest pair";
        else if (std::abs(std::sqrt(double(got->sqDist)) - dWant) > 1e-4 * scale)
            why = "sqDist";
        else if (glm::distance(glm::dvec3(got->p1), g1) > 1e-5 * scale ||
                 glm::distance(glm::dvec3(got->p2), g2) > 1e-5 * scale)
            why = "p1/p2 do not match s/t";
        else if (got->parallel != makeParallel)
            why = "parallel flag";
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; p " << str(rp.o) << " + s "
                          << str(rp.d) << " s in [" << p.lo << ", " << p.hi << "], q " << str(rq.o) << " + t "
                          << str(rq.d) << " t in [" << q.lo << ", " << q.hi << "]; got s " << got->s << " t "
                          << got->t << " sqDist " << got->sqDist << " parallel " << got->parallel
                          << "; want s " << want.s << " t " << want.t << " sqDist " << want.sqDist;
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

// ================================================================== intersectRays

void expectRayPairConsistent(const kz::RayPairResult& r, const Ray& a, const Ray& b) {
    EXPECT_GE(r.tFirst, 0.0f);
    EXPECT_GE(r.tSecond, 0.0f);
    const glm::vec3 mid = 0.5f * (a.origin + r.tFirst * a.dir + b.origin + r.tSecond * b.dir);
    expectVecNear(r.point, mid, 1e-5f * (1.0f + glm::length(mid)));
}

TEST(IntersectRays, IntersectingInFront) {
    const Ray a{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    const Ray b{{2.0f, -3.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    const auto r = kz::intersectRays(a, b, 1e-4f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Intersecting);
    EXPECT_NEAR(r->tFirst, 2.0f, 1e-5f);
    EXPECT_NEAR(r->tSecond, 3.0f, 1e-5f);
    expectVecNear(r->point, {2.0f, 0.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(r->distance, 0.0f, 1e-5f);
    expectRayPairConsistent(*r, a, b);
    // Non-unit directions: t is in units of dir.
    const Ray a2{{0.0f, 0.0f, 0.0f}, {4.0f, 0.0f, 0.0f}};
    const Ray b2{{2.0f, -3.0f, 0.0f}, {0.0f, 0.5f, 0.0f}};
    const auto r2 = kz::intersectRays(a2, b2, 1e-5f);
    ASSERT_TRUE(r2.has_value());
    EXPECT_EQ(r2->kind, RayPairKind::Intersecting);
    EXPECT_NEAR(r2->tFirst, 0.5f, 1e-6f);
    EXPECT_NEAR(r2->tSecond, 6.0f, 1e-5f);
    // Meeting at an origin counts (t = 0).
    const Ray b3{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    const auto r3 = kz::intersectRays(a, b3, 1e-4f);
    ASSERT_TRUE(r3.has_value());
    EXPECT_EQ(r3->kind, RayPairKind::Intersecting);
    EXPECT_NEAR(r3->tFirst, 0.0f, 1e-6f);
    EXPECT_NEAR(r3->tSecond, 0.0f, 1e-6f);
}

TEST(IntersectRays, CrossingBehindAnOriginIsSkew) {
    // The lines cross at (-2, 0, 0): behind the first ray's origin.
    const Ray a{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    const Ray b{{-2.0f, -3.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    const auto r = kz::intersectRays(a, b, 1e-3f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Skew);
    EXPECT_NEAR(r->tFirst, 0.0f, 1e-6f);
    EXPECT_NEAR(r->tSecond, 3.0f, 1e-5f);
    EXPECT_NEAR(r->distance, 2.0f, 1e-5f);
    expectVecNear(r->point, {-1.0f, 0.0f, 0.0f}, 1e-5f);
    expectRayPairConsistent(*r, a, b);
    // Behind both origins.
    const Ray c{{-2.0f, 3.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    const auto r2 = kz::intersectRays(a, c, 1e-3f);
    ASSERT_TRUE(r2.has_value());
    EXPECT_EQ(r2->kind, RayPairKind::Skew);
    EXPECT_NEAR(r2->tFirst, 0.0f, 1e-6f);
    EXPECT_NEAR(r2->tSecond, 0.0f, 1e-6f);
    EXPECT_NEAR(r2->distance, std::sqrt(13.0f), 1e-5f);
}

TEST(IntersectRays, SkewAndTolerance) {
    const Ray a{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    const Ray b{{2.0f, -3.0f, 1.0f}, {0.0f, 1.0f, 0.0f}};
    auto r = kz::intersectRays(a, b, 0.5f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Skew);
    EXPECT_NEAR(r->tFirst, 2.0f, 1e-5f);
    EXPECT_NEAR(r->tSecond, 3.0f, 1e-5f);
    EXPECT_NEAR(r->distance, 1.0f, 1e-5f);
    expectVecNear(r->point, {2.0f, 0.0f, 0.5f}, 1e-5f);
    expectRayPairConsistent(*r, a, b);
    // The same pair within a larger tolerance intersects (at the midpoint).
    r = kz::intersectRays(a, b, 1.5f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Intersecting);
    expectVecNear(r->point, {2.0f, 0.0f, 0.5f}, 1e-5f);
    EXPECT_NEAR(r->distance, 1.0f, 1e-5f);
    // Just either side of the distance.
    r = kz::intersectRays(a, b, 0.999f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Skew);
    r = kz::intersectRays(a, b, 1.001f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Intersecting);
    // Zero tolerance: a pair 1e-3 apart is skew.
    const Ray c{{2.0f, -3.0f, 1e-3f}, {0.0f, 1.0f, 0.0f}};
    r = kz::intersectRays(a, c, 0.0f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Skew);
}

TEST(IntersectRays, ParallelAndCollinear) {
    const Ray a{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    // Parallel, distance 1 between the lines.
    auto r = kz::intersectRays(a, Ray{{0.0f, 1.0f, 0.0f}, {2.0f, 0.0f, 0.0f}}, 1e-3f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Parallel);
    EXPECT_NEAR(r->distance, 1.0f, 1e-5f);
    // Anti-parallel, pointing away from each other: still the distance between the lines.
    const Ray away{{-5.0f, 1.0f, 0.0f}, {-1.0f, 0.0f, 0.0f}};
    r = kz::intersectRays(a, away, 1e-3f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Parallel);
    EXPECT_NEAR(r->distance, 1.0f, 1e-5f);
    expectRayPairConsistent(*r, a, away);
    // Collinear rays are Parallel, even with a generous tolerance.
    const Ray towards{{5.0f, 0.0f, 0.0f}, {-1.0f, 0.0f, 0.0f}};
    r = kz::intersectRays(a, towards, 1.0f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Parallel);
    EXPECT_NEAR(r->distance, 0.0f, 1e-6f);
    expectRayPairConsistent(*r, a, towards);
    r = kz::intersectRays(a, a, 1.0f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Parallel);
    // Below kParallelSine the directions count as parallel ...
    r = kz::intersectRays(a, Ray{{0.0f, 1.0f, 0.0f}, {1.0f, 1e-7f, 0.0f}}, 1e-3f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Parallel);
    EXPECT_NEAR(r->distance, 1.0f, 1e-4f);
    // ... well above it they do not.
    r = kz::intersectRays(a, Ray{{0.0f, 1.0f, 0.0f}, {1.0f, -1e-3f, 0.0f}}, 1.0f);
    ASSERT_TRUE(r.has_value());
    EXPECT_NE(r->kind, RayPairKind::Parallel);
    // These lines cross at x = 10, in front of both origins.
    r = kz::intersectRays(a, Ray{{0.0f, 1.0f, 0.0f}, {1.0f, -0.1f, 0.0f}}, 1e-4f);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->kind, RayPairKind::Intersecting);
    EXPECT_NEAR(r->tFirst, 10.0f, 1e-4f);
    EXPECT_NEAR(r->tSecond, 10.0f, 1e-4f);
}

TEST(IntersectRays, InvalidInputIsEmpty) {
    const Ray good{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    const Ray other{{0.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 1.0f}};
    EXPECT_FALSE(kz::intersectRays(good, Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}, 0.1f).has_value());
    EXPECT_FALSE(kz::intersectRays(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}, good, 0.1f).has_value());
    EXPECT_FALSE(kz::intersectRays(good, Ray{{kNaN, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}}, 0.1f).has_value());
    EXPECT_FALSE(kz::intersectRays(Ray{{0.0f, 0.0f, 0.0f}, {kInf, 0.0f, 0.0f}}, other, 0.1f).has_value());
    EXPECT_FALSE(kz::intersectRays(good, other, -0.1f).has_value());
    EXPECT_FALSE(kz::intersectRays(good, other, kNaN).has_value());
    EXPECT_FALSE(kz::intersectRays(good, other, kInf).has_value());
    EXPECT_TRUE(kz::intersectRays(good, other, 0.0f).has_value());
}

TEST(IntersectRays, RandomAgainstDoubleReference) {
    const unsigned seed = kSeed + 5;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0;
    constexpr int kCases = 100000;
    for (int i = 0; i < kCases; ++i) {
        const glm::vec3 d1 = glm::vec3(randomUnit(rng)) * uniform(rng, 0.2f, 3.0f);
        const glm::vec3 d2 = glm::vec3(randomUnit(rng)) * uniform(rng, 0.2f, 3.0f);
        Ray a{randomPoint(rng, 5.0f), d1}, b{randomPoint(rng, 5.0f), d2};
        float tol = uniform(rng, 0.0f, 1.0f);
        switch (i % 3) {
        case 0: { // built to meet at x, in front of (or behind) each origin
            const glm::vec3 x = randomPoint(rng, 5.0f);
            const float s1 = uniform(rng, -3.0f, 3.0f), s2 = uniform(rng, -3.0f, 3.0f);
            a.origin = x - s1 * d1;
            b.origin = x - s2 * d2;
            tol = uniform(rng, 1e-3f, 1e-2f);
            break;
        }
        default:
            break; // general pairs
        }
        const auto got = kz::intersectRays(a, b, tol);
        if (!got.has_value()) {
            if (++failures <= 10) ADD_FAILURE() << "seed " << seed << " case " << i << ": empty";
            continue;
        }
        const RefPiece ra{glm::dvec3(a.origin), glm::dvec3(a.dir), 0.0, INFINITY};
        const RefPiece rb{glm::dvec3(b.origin), glm::dvec3(b.dir), 0.0, INFINITY};
        const RefPair want = refClosestPieces(ra, rb);
        const double dist = std::sqrt(want.sqDist);
        const double sine = sinAngle(ra.d, rb.d);
        if (sine < 0.02 || std::abs(dist - double(tol)) < 1e-4) continue; // ill-conditioned / boundary
        ++compared;
        const RayPairKind wantKind = dist <= double(tol) ? RayPairKind::Intersecting : RayPairKind::Skew;
        const glm::dvec3 g1 = at(ra, double(got->tFirst)), g2 = at(rb, double(got->tSecond));
        const double scale = 1.0 + glm::length(g1) + glm::length(g2);
        std::string why;
        if (got->kind != wantKind)
            why = "kind";
        else if (!(got->tFirst >= 0.0f && got->tSecond >= 0.0f))
            why = "negative t";
        else if (std::abs(glm::distance(g1, g2) - dist) > 1e-4 * scale)
            why = "not the closest approach";
        else if (std::abs(double(got->distance) - dist) > 1e-4 * scale)
            why = "distance";
        else if (glm::distance(glm::dvec3(got->point), 0.5 * (g1 + g2)) > 1e-4 * scale)
            why = "point";
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; ray a " << str(ra.o)
                          << " dir " << str(ra.d) << ", ray b " << str(rb.o) << " dir " << str(rb.d)
                          << ", tol " << tol << "; got kind " << int(got->kind) << " t " << got->tFirst
                          << ", " << got->tSecond << " distance " << got->distance << "; want kind "
                          << int(wantKind) << " t " << want.s << ", " << want.t << " distance " << dist;
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

// ================================================================== polygons

TEST(PolygonNormal, WindingGivesSign) {
    const std::vector<glm::vec3> ccw{
        {0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    const std::vector<glm::vec3> cw(ccw.rbegin(), ccw.rend());
    auto n = kz::polygonNormal(ccw);
    ASSERT_TRUE(n.has_value());
    expectVecNear(*n, {0.0f, 0.0f, 1.0f}, 1e-6f);
    n = kz::polygonNormal(cw);
    ASSERT_TRUE(n.has_value());
    expectVecNear(*n, {0.0f, 0.0f, -1.0f}, 1e-6f);
    // A triangle in the plane x = 2 (normal along (b - a) x (c - a) = +x).
    const std::vector<glm::vec3> tri{{2.0f, 0.0f, 0.0f}, {2.0f, 3.0f, 0.0f}, {2.0f, 0.0f, 3.0f}};
    n = kz::polygonNormal(tri);
    ASSERT_TRUE(n.has_value());
    expectVecNear(*n, {1.0f, 0.0f, 0.0f}, 1e-6f);
    // A duplicated vertex changes nothing.
    const std::vector<glm::vec3> dup{
        {0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    n = kz::polygonNormal(dup);
    ASSERT_TRUE(n.has_value());
    expectVecNear(*n, {0.0f, 0.0f, 1.0f}, 1e-6f);
}

TEST(PolygonNormal, DegenerateIsEmpty) {
    const std::vector<glm::vec3> none;
    const std::vector<glm::vec3> two{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    const std::vector<glm::vec3> collinear{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {3.0f, 3.0f, 0.0f}};
    const std::vector<glm::vec3> same{{1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
    const std::vector<glm::vec3> nan{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {kNaN, 1.0f, 0.0f}};
    const std::vector<glm::vec3> inf{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, kInf, 0.0f}};
    EXPECT_FALSE(kz::polygonNormal(none).has_value());
    EXPECT_FALSE(kz::polygonNormal(two).has_value());
    EXPECT_FALSE(kz::polygonNormal(collinear).has_value());
    EXPECT_FALSE(kz::polygonNormal(same).has_value());
    EXPECT_FALSE(kz::polygonNormal(nan).has_value());
    EXPECT_FALSE(kz::polygonNormal(inf).has_value());
}

// A random convex polygon: points on an ellipse at sorted angles, in local (x, y), then placed in
// 3D with a rotation and offset. `local` keeps the double-precision local vertices (CCW).
struct RandomPolygon {
    std::vector<glm::dvec2> local;
    std::vector<glm::vec3> world; // possibly reversed (clockwise)
    glm::dmat3 rot;
    glm::dvec3 offset;
    bool reversed;
};

RandomPolygon randomPolygon(std::mt19937& rng) {
    RandomPolygon poly;
    const int n = 3 + int(rng() % 6);
    const double rx = double(uniform(rng, 0.5f, 5.0f)), ry = double(uniform(rng, 0.5f, 5.0f));
    std::vector<double> angles;
    for (;;) {
        angles.clear();
        for (int i = 0; i < n; ++i)
            angles.push_back(double(uniform(rng, 0.0f, 6.2831853f)));
        std::sort(angles.begin(), angles.end());
        double minGap = angles.front() + 6.283185307179586 - angles.back();
        for (std::size_t i = 1; i < angles.size(); ++i)
            minGap = std::min(minGap, angles[i] - angles[i - 1]);
        if (minGap > 0.2) break;
    }
    poly.rot = randomRotation(rng);
    poly.offset = glm::dvec3(randomPoint(rng, 5.0f));
    poly.reversed = rng() % 2 == 1;
    for (const double a : angles)
        poly.local.emplace_back(rx * std::cos(a), ry * std::sin(a));
    for (const auto& v : poly.local)
        poly.world.emplace_back(poly.rot * glm::dvec3(v, 0.0) + poly.offset);
    if (poly.reversed) std::reverse(poly.world.begin(), poly.world.end());
    return poly;
}

TEST(PolygonNormal, RandomConvexPolygons) {
    const unsigned seed = kSeed + 6;
    std::mt19937 rng(seed);
    for (int i = 0; i < 5000; ++i) {
        const RandomPolygon poly = randomPolygon(rng);
        const auto n = kz::polygonNormal(poly.world);
        ASSERT_TRUE(n.has_value()) << "seed " << seed << " case " << i;
        const glm::dvec3 want = poly.rot * glm::dvec3(0.0, 0.0, poly.reversed ? -1.0 : 1.0);
        ASSERT_NEAR(glm::length(glm::dvec3(*n)), 1.0, 1e-6) << "seed " << seed << " case " << i;
        ASSERT_GT(glm::dot(glm::dvec3(*n), want), 1.0 - 1e-6)
            << "seed " << seed << " case " << i << " got " << str(glm::dvec3(*n)) << " want " << str(want);
    }
}

TEST(PointInConvexPolygon, SquareBothWindingsBoundaryInclusive) {
    const std::vector<glm::vec3> ccw{
        {0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    const std::vector<glm::vec3> cw(ccw.rbegin(), ccw.rend());
    for (const auto* poly : {&ccw, &cw}) {
        EXPECT_TRUE(kz::pointInConvexPolygon({0.5f, 0.5f, 0.0f}, *poly));
        EXPECT_FALSE(kz::pointInConvexPolygon({1.5f, 0.5f, 0.0f}, *poly));
        EXPECT_FALSE(kz::pointInConvexPolygon({0.5f, -0.001f, 0.0f}, *poly));
        EXPECT_FALSE(kz::pointInConvexPolygon({-1.0f, -1.0f, 0.0f}, *poly));
        // Boundary: edges and vertices.
        EXPECT_TRUE(kz::pointInConvexPolygon({1.0f, 0.5f, 0.0f}, *poly));
        EXPECT_TRUE(kz::pointInConvexPolygon({0.5f, 0.0f, 0.0f}, *poly));
        EXPECT_TRUE(kz::pointInConvexPolygon({0.0f, 0.25f, 0.0f}, *poly));
        EXPECT_TRUE(kz::pointInConvexPolygon({1.0f, 1.0f, 0.0f}, *poly));
        EXPECT_TRUE(kz::pointInConvexPolygon({0.0f, 0.0f, 0.0f}, *poly));
        // Off the plane: projected along the normal.
        EXPECT_TRUE(kz::pointInConvexPolygon({0.5f, 0.5f, 3.0f}, *poly));
        EXPECT_TRUE(kz::pointInConvexPolygon({0.25f, 0.75f, -2.0f}, *poly));
        EXPECT_TRUE(kz::pointInConvexPolygon({1.0f, 0.5f, 7.0f}, *poly));
        EXPECT_FALSE(kz::pointInConvexPolygon({1.5f, 0.5f, -2.0f}, *poly));
    }
}

TEST(PointInConvexPolygon, TriangleHypotenuseAndTiltedPlane) {
    const std::vector<glm::vec3> tri{{0.0f, 0.0f, 0.0f}, {3.0f, 0.0f, 0.0f}, {0.0f, 3.0f, 0.0f}};
    EXPECT_TRUE(kz::pointInConvexPolygon({1.5f, 1.5f, 0.0f}, tri));
    EXPECT_TRUE(kz::pointInConvexPolygon({1.0f, 1.0f, 0.0f}, tri));
    EXPECT_FALSE(kz::pointInConvexPolygon({1.6f, 1.6f, 0.0f}, tri));
    // A triangle in the plane x + y + z = 3 (tilted): (1, 1, 1) is its centroid.
    const std::vector<glm::vec3> tilted{{3.0f, 0.0f, 0.0f}, {0.0f, 3.0f, 0.0f}, {0.0f, 0.0f, 3.0f}};
    EXPECT_TRUE(kz::pointInConvexPolygon({1.0f, 1.0f, 1.0f}, tilted));
    EXPECT_TRUE(kz::pointInConvexPolygon({2.0f, 2.0f, 2.0f}, tilted)); // projects onto (1, 1, 1)
    EXPECT_FALSE(kz::pointInConvexPolygon({3.0f, 3.0f, -3.0f}, tilted));
}

TEST(PointInConvexPolygon, DegenerateIsFalse) {
    const std::vector<glm::vec3> two{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    const std::vector<glm::vec3> collinear{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}};
    const std::vector<glm::vec3> nan{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {kNaN, 1.0f, 0.0f}};
    const std::vector<glm::vec3> square{
        {0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    EXPECT_FALSE(kz::pointInConvexPolygon({0.0f, 0.0f, 0.0f}, std::span<const glm::vec3>{}));
    EXPECT_FALSE(kz::pointInConvexPolygon({0.5f, 0.0f, 0.0f}, two));
    EXPECT_FALSE(kz::pointInConvexPolygon({1.0f, 0.0f, 0.0f}, collinear));
    EXPECT_FALSE(kz::pointInConvexPolygon({0.5f, 0.0f, 0.0f}, collinear));
    EXPECT_FALSE(kz::pointInConvexPolygon({0.5f, 0.2f, 0.0f}, nan));
    EXPECT_FALSE(kz::pointInConvexPolygon({kNaN, 0.5f, 0.0f}, square));
    EXPECT_FALSE(kz::pointInConvexPolygon({0.5f, 0.5f, kInf}, square));
}

TEST(PointInConvexPolygon, RandomAgainstDoubleReference) {
    const unsigned seed = kSeed + 7;
    std::mt19937 rng(seed);
    int compared = 0, failures = 0;
    constexpr int kCases = 100000;
    RandomPolygon poly;
    for (int i = 0; i < kCases; ++i) {
        if (i % 100 == 0) poly = randomPolygon(rng);
        const double extent = 6.0;
        const glm::dvec2 q(double(uniform(rng, -1.0f, 1.0f)) * extent,
                           double(uniform(rng, -1.0f, 1.0f)) * extent);
        const double h = double(uniform(rng, -3.0f, 3.0f));
        const glm::vec3 p(poly.rot * glm::dvec3(q, h) + poly.offset);
        // Reference in the polygon's local plane: inside the CCW polygon iff left of every edge.
        double margin = std::numeric_limits<double>::infinity();
        const std::size_t n = poly.local.size();
        for (std::size_t k = 0; k < n; ++k) {
            const glm::dvec2 a = poly.local[k], b = poly.local[(k + 1) % n];
            const glm::dvec2 e = b - a, w = q - a;
            margin =
                std::min(margin, (e.x * w.y - e.y * w.x) / glm::length(e)); // signed distance to edge line
        }
        if (std::abs(margin) < 1e-4) continue;
        ++compared;
        const bool want = margin > 0.0;
        const bool got = kz::pointInConvexPolygon(p, poly.world);
        if (got != want && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": got " << got << " want " << want
                          << " (margin " << margin << ", point " << str(glm::dvec3(p)) << ", "
                          << poly.world.size() << " vertices, reversed " << poly.reversed << ")";
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kCases * 9 / 10);
}

} // namespace
