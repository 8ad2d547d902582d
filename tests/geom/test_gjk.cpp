// Tests for geom/convex.hpp and geom/gjk.hpp: the support functions, GJK's distance, closest
// points and overlap test on every pair of shape kinds, and the GJK ray cast. Every distance is
// checked against references in double (convex_reference.hpp): closed forms where they exist
// (spheres, sphere-box, segments), otherwise a certificate of the true distance: GJK's two points
// must lie in their shapes (an upper bound) and the plane between them must separate the shapes
// by as much (the gap along it, from independent support functions, a lower bound).
#include "geom/convex_reference.hpp"
#include "geom/geom.hpp"
#include "geom/simd_path.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/geom_reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace kz;
using namespace kz::test;

constexpr unsigned kSeed = 34u;
const glm::mat3 kIdentity(1.0f);

/// Every field finite (distance may be +infinity only for invalid input).
bool allFinite(const GjkResult& r) {
    return std::isfinite(r.distance) && isFinite(r.pointA) && isFinite(r.pointB) && isFinite(r.normal) &&
           std::isfinite(r.lowerBound);
}

/// Checks a GJK answer against the shapes in double; returns "" or what is wrong.
/// Apart: pointA in A, pointB in B, |pointA - pointB| = distance, and the gap along the normal
/// at least distance - tol (so no point pair is nearer). Overlapping: the common point in both.
std::string checkAnswer(const TestShape& a, const TestShape& b, const GjkResult& r, double tol) {
    std::ostringstream why;
    if (!allFinite(r)) why << "non-finite field; ";
    const glm::dvec3 pa(r.pointA), pb(r.pointB);
    // Points rounded to float: allow their rounding (about 1e-7 of their magnitude).
    const double round = 2e-7 * std::max({1.0, glm::length(pa), glm::length(pb)});
    if (refDistance(a, pa) > tol + round) why << "pointA off A by " << refDistance(a, pa) << "; ";
    if (refDistance(b, pb) > tol + round) why << "pointB off B by " << refDistance(b, pb) << "; ";
    if (r.overlap) {
        if (r.distance != 0.0f) why << "overlap with distance " << r.distance << "; ";
        return why.str();
    }
    if (std::abs(glm::length(pa - pb) - double(r.distance)) > tol + 2 * round)
        why << "|pA - pB| " << glm::length(pa - pb) << " != distance " << r.distance << "; ";
    // The normal (computed in double, rounded once) rather than pA - pB, whose direction the
    // points' rounding blurs when they are close.
    const glm::dvec3 n(r.normal);
    if (std::abs(glm::length(n) - 1.0) > 1e-6) why << "normal not unit; ";
    const double gap = refGapAlong(a.shape, b.shape, n);
    if (gap < double(r.distance) - tol - 2 * round)
        why << "the gap along the normal " << gap << " is below the distance " << r.distance << "; ";
    if (r.lowerBound > r.distance) why << "lower bound above the distance; ";
    return why.str();
}

// ------------------------------------------------------------------ support functions

TEST(Support, EveryShapeReachesItsFarthestPointInAnyDirection) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 2000; ++i) {
        const Kind kind = Kind(i % 5);
        const TestShape t =
            randomShape(rng, kind, uniform(rng, 0.01f, 3.0f), randomPoint(rng, 50.0f), i / 5 % 4);
        const glm::dvec3 d = randomUnit(rng) * double(uniform(rng, 1e-3f, 1e3f));
        const glm::dvec3 got(support(t.shape, glm::vec3(d)));
        const glm::dvec3 want = refSupport(t.shape, glm::dvec3(glm::vec3(d)));
        // Exact in double, then rounded to float: about 6e-8 of the point's magnitude.
        const double size = 1e-9 * refSize(t.shape) + 2e-7 * glm::length(want);
        ASSERT_NEAR(glm::dot(got, glm::normalize(d)), glm::dot(want, glm::normalize(d)), size)
            << str(t.shape) << " d " << str(d) << " seed " << kSeed << " i " << i;
        ASSERT_LE(refDistance(t, got), size) << str(t.shape) << " i " << i;
    }
}

TEST(Support, ZeroDirectionGivesAPointOfTheShape) {
    const TestShape cases[] = {{Sphere{{1, 2, 3}, 0.5f}, nullptr},
                               {Obb{{1, 2, 3}, {1, 2, 3}, kIdentity}, nullptr},
                               {Capsule{{0, 0, 0}, {0, 1, 0}, 0.2f}, nullptr},
                               {Cylinder{{0, 0, 0}, {0, 1, 0}, 0.2f}, nullptr}};
    for (const TestShape& t : cases) {
        const glm::vec3 p = support(t.shape, glm::vec3(0.0f));
        EXPECT_TRUE(isFinite(p));
        EXPECT_LE(refDistance(t, glm::dvec3(p)), 1e-6) << str(t.shape);
    }
}

TEST(Support, CylinderAlongItsAxisGivesTheCapCentre) {
    const Cylinder c{{0, -1, 0}, {0, 1, 0}, 0.5f};
    EXPECT_EQ(support(c, {0, 2, 0}), glm::vec3(0, 1, 0));
    EXPECT_EQ(support(c, {0, -2, 0}), glm::vec3(0, -1, 0));
    EXPECT_EQ(support(c, {1, 1, 0}), glm::vec3(0.5f, 1, 0));
}

/// A prism over a regular n-gon with its half-edges filled (as buildConvexHull fills them): for
/// the hill-climbing support.
ConvexHull prismHull(int n) {
    ConvexHull h;
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < n; ++i) {
            const double angle = 2.0 * 3.14159265358979 * i / n;
            h.vertices.push_back({float(std::cos(angle)), k == 0 ? -0.5f : 0.5f, float(std::sin(angle))});
        }
    // Faces as vertex loops; each undirected edge gets half-edges 2m and 2m + 1.
    std::vector<std::vector<std::uint32_t>> faces;
    std::vector<std::uint32_t> bottom, top;
    for (int i = 0; i < n; ++i) {
        bottom.push_back(std::uint32_t(i));
        top.push_back(std::uint32_t(2 * n - 1 - i));
        const std::uint32_t a = std::uint32_t(i), b = std::uint32_t((i + 1) % n);
        faces.push_back({b, a, a + std::uint32_t(n), b + std::uint32_t(n)});
    }
    faces.push_back(bottom);
    faces.push_back(top);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> undirected;
    h.vertexEdge.assign(h.vertices.size(), 0);
    h.edges.resize(3 * std::size_t(n) * 2);
    for (std::uint32_t f = 0; f < faces.size(); ++f) {
        const auto& loop = faces[f];
        std::vector<std::uint32_t> ids;
        for (std::size_t k = 0; k < loop.size(); ++k) {
            const std::uint32_t from = loop[k], to = loop[(k + 1) % loop.size()];
            const auto key = std::minmax(from, to);
            auto it = std::find(undirected.begin(), undirected.end(), std::make_pair(key.first, key.second));
            std::uint32_t m = std::uint32_t(it - undirected.begin());
            if (it == undirected.end()) undirected.emplace_back(key.first, key.second);
            const std::uint32_t id = 2 * m + (from < to ? 0u : 1u);
            h.edges[id].origin = from;
            h.edges[id].twin = id ^ 1u;
            h.edges[id].face = f;
            h.vertexEdge[from] = id;
            ids.push_back(id);
        }
        for (std::size_t k = 0; k < ids.size(); ++k)
            h.edges[ids[k]].next = ids[(k + 1) % ids.size()];
    }
    return h;
}

TEST(Support, HillClimbOnALargeHullFindsTheScansVertex) {
    const ConvexHull big = prismHull(40); // 80 vertices: above kHullClimbMinVertices
    ASSERT_GT(big.vertices.size(), kHullClimbMinVertices);
    ConvexHull scanOnly = big;
    scanOnly.edges.clear();
    scanOnly.vertexEdge.clear();
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 2000; ++i) {
        const PosedHull climbing{&big, randomPoint(rng, 10.0f), glm::mat3(randomRotation(rng))};
        const PosedHull scanning{&scanOnly, climbing.position, climbing.orientation};
        const glm::vec3 d(randomUnit(rng));
        EXPECT_FLOAT_EQ(glm::dot(support(climbing, d), d), glm::dot(support(scanning, d), d)) << "i " << i;
    }
}

TEST(GjkDistance, LargeHullClimbingGivesTheScansAnswers) {
    const ConvexHull big = prismHull(60); // 120 vertices: GJK's supports climb
    ConvexHull scanOnly = big;
    scanOnly.edges.clear();
    scanOnly.vertexEdge.clear();
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 1000; ++i) {
        const glm::mat3 turn(randomRotation(rng));
        const glm::vec3 at = randomPoint(rng, 2.0f);
        const TestShape other = randomShape(rng, Kind(i % 5), 0.8f, randomPoint(rng, 0.5f), i % 4);
        const GjkResult climbing = closestPtConvexConvex(PosedHull{&big, at, turn}, other.shape);
        const GjkResult scanning = closestPtConvexConvex(PosedHull{&scanOnly, at, turn}, other.shape);
        ASSERT_EQ(climbing.overlap, scanning.overlap) << "i " << i;
        ASSERT_NEAR(climbing.distance, scanning.distance, 1e-6f) << "i " << i;
        const EpaResult deep = penetrationConvexConvex(PosedHull{&big, at, turn}, other.shape);
        const EpaResult deepScan = penetrationConvexConvex(PosedHull{&scanOnly, at, turn}, other.shape);
        ASSERT_NEAR(deep.depth, deepScan.depth, 1e-5f) << "i " << i;
    }
}

TEST(GjkDistance, BuiltHullsCachesGiveTheSameAnswersAsAHandMadeCopy) {
    std::mt19937 rng(kSeed);
    std::vector<glm::vec3> points;
    for (int i = 0; i < 200; ++i)
        points.push_back(randomPoint(rng, 1.0f));
    const HullBuild build = buildConvexHull(points);
    ASSERT_TRUE(build.hull) << build.error;
    const ConvexHull& built = *build.hull;
    EXPECT_GT(built.reachSq, 0.0);
    EXPECT_TRUE(isValid(built));
    ASSERT_GT(built.vertices.size(), kHullClimbMinVertices);
    EXPECT_EQ(built.neighbours.size(), built.edges.size());
    ConvexHull byHand = built; // as if made by hand: scans for the size, climbs the half-edges
    byHand.reachSq = 0.0;
    byHand.neighbourStart.clear();
    byHand.neighbours.clear();
    byHand.octantVertex = {}; // cold climbs from vertex 0
    EXPECT_TRUE(isValid(byHand));
    ConvexHull stale = built;
    stale.reachSq *= 2.0;
    EXPECT_FALSE(isValid(stale));
    ConvexHull badNeighbour = built;
    std::swap(badNeighbour.neighbours[0], badNeighbour.neighbours[1]);
    EXPECT_FALSE(isValid(badNeighbour));
    ConvexHull badOctant = built;
    badOctant.octantVertex[5] = std::uint32_t(built.vertices.size());
    EXPECT_FALSE(isValid(badOctant));
    for (int i = 0; i < 2000; ++i) {
        const glm::vec3 d(randomUnit(rng));
        ASSERT_EQ(support(PosedHull{&built, {}, kIdentity}, d),
                  support(PosedHull{&byHand, {}, kIdentity}, d));
    }
    for (int i = 0; i < 500; ++i) {
        const glm::mat3 turn(randomRotation(rng));
        const glm::vec3 at = randomPoint(rng, 2.0f);
        const TestShape other = randomShape(rng, Kind(i % 5), 0.8f, randomPoint(rng, 0.5f), i % 4);
        const GjkResult cached = closestPtConvexConvex(PosedHull{&built, at, turn}, other.shape);
        const GjkResult scanned = closestPtConvexConvex(PosedHull{&byHand, at, turn}, other.shape);
        ASSERT_EQ(cached.distance, scanned.distance) << "i " << i;
        ASSERT_EQ(cached.pointA, scanned.pointA) << "i " << i;
        const EpaResult deep = penetrationConvexConvex(PosedHull{&built, at, turn}, other.shape);
        const EpaResult deepScan = penetrationConvexConvex(PosedHull{&byHand, at, turn}, other.shape);
        ASSERT_EQ(deep.depth, deepScan.depth) << "i " << i;
        ASSERT_EQ(deep.normal, deepScan.normal) << "i " << i;
    }
}

TEST(Support, FloatScanOfABuiltHullPicksTheDoubleScansVertex) {
    // Built hulls of at most kHullClimbMinVertices vertices scan their vertexLanes in float and
    // check the near-best vertices (when more than one) in double; a hand-made copy scans in double alone.
    // Same vertex always, ties (a cube's faces and edges along the axes) and far-off or tiny hulls included.
    std::mt19937 rng(kSeed);
    std::vector<std::vector<glm::vec3>> clouds;
    std::vector<glm::vec3> cube;
    for (int i = 0; i < 8; ++i)
        cube.push_back({i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f});
    clouds.push_back(cube);
    const std::pair<float, float> offsetAndScale[] = {
        {0.0f, 1e-3f}, {0.0f, 1.0f}, {0.0f, 1e3f}, {10.0f, 1.0f}, {1e4f, 0.3f}, {1e4f, 1.0f}, {1e4f, 1e3f}};
    for (const auto& [offset, scale] : offsetAndScale) {
        std::vector<glm::vec3> points;
        for (int i = 0; i < 30; ++i)
            points.push_back(glm::vec3(offset) + glm::vec3(randomUnit(rng)) * scale);
        clouds.push_back(points);
    }
    std::vector<glm::vec3> disc{{0.0f, 0.0f, 1e4f - 1.0f}}; // far off, its top nearly flat
    for (int i = 0; i < 24; ++i) {
        const float angle = 0.2618f * float(i);
        disc.push_back({std::cos(angle), std::sin(angle), 1e4f + 1e-3f * float(i % 2)});
    }
    clouds.push_back(disc);
    std::vector<glm::vec3> directions;
    for (int i = 0; i < 300; ++i) { // nearly along the disc's axis: near-ties in float
        const glm::vec3 tilt(randomUnit(rng));
        directions.push_back(glm::vec3(tilt.x, tilt.y, 0.0f) * std::pow(10.0f, -float(i % 8)) +
                             glm::vec3(0.0f, 0.0f, 1.0f));
    }
    for (int i = 0; i < 27; ++i)
        directions.push_back(glm::vec3(float(i % 3) - 1.0f, float(i / 3 % 3) - 1.0f, float(i / 9) - 1.0f));
    for (int i = 0; i < 1000; ++i)
        directions.push_back(glm::vec3(randomUnit(rng)) * (i % 2 ? 1e30f : 1e-30f));
    for (const std::vector<glm::vec3>& points : clouds) {
        const HullBuild build = buildConvexHull(points);
        ASSERT_TRUE(build.hull) << build.error;
        ASSERT_LE(build.hull->vertices.size(), kHullClimbMinVertices);
        ASSERT_FALSE(build.hull->vertexLanes.empty());
        ConvexHull byHand = *build.hull;
        byHand.reachSq = 0.0;
        byHand.vertexLanes.clear();
        // Every SIMD path's scan (four vertices at a time, or eight with AVX2), the same vertex.
        const SimdPath active = activeSimdPath();
        for (const SimdPath path : supportedSimdPaths()) {
            ASSERT_TRUE(useSimdPath(path));
            for (const glm::vec3& d : directions) {
                const PosedHull built{&*build.hull, {}, kIdentity}, scanned{&byHand, {}, kIdentity};
                ASSERT_EQ(support(built, d), support(scanned, d)) << str(glm::dvec3(d)) << simdPathName(path);
            }
        }
        useSimdPath(active);
    }
}

TEST(Support, BrokenHalfEdgesFallBackToTheScan) {
    ConvexHull h = prismHull(40);
    for (auto& e : h.edges)
        e.twin = 1000000; // out of range
    const PosedHull posed{&h, glm::vec3(0.0f), kIdentity};
    EXPECT_FLOAT_EQ(support(posed, {0, 1, 0}).y, 0.5f);
    EXPECT_FLOAT_EQ(support(posed, {-1, 0, 0}).x, -1.0f);
}

TEST(Validity, ShapesCheckTheirNumbers) {
    const float nan = std::nanf("");
    EXPECT_TRUE(isValid(Capsule{{0, 0, 0}, {0, 0, 0}, 0.0f})); // a point
    EXPECT_FALSE(isValid(Capsule{{0, 0, 0}, {0, 1, 0}, -1.0f}));
    EXPECT_FALSE(isValid(Capsule{{0, nan, 0}, {0, 1, 0}, 1.0f}));
    EXPECT_FALSE(isValid(Cylinder{{0, 0, 0}, {0, 0, 0}, 1.0f})); // no axis
    EXPECT_TRUE(isValid(Cylinder{{0, 0, 0}, {0, 1e-3f, 0}, 0.0f}));
    EXPECT_FALSE(isValid(Cylinder{{0, 0, 0}, {0, 1, 0}, INFINITY}));
    ConvexHull empty;
    EXPECT_FALSE(isValid(PosedHull{nullptr, {}, kIdentity}));
    EXPECT_FALSE(isValid(PosedHull{&empty, {}, kIdentity}));
    ConvexHull bad = boxHull({1, 1, 1})->hull;
    bad.vertices[3].x = nan;
    EXPECT_FALSE(isValid(PosedHull{&bad, {}, kIdentity}));
    const ConvexHull good = boxHull({1, 1, 1})->hull;
    EXPECT_FALSE(isValid(PosedHull{&good, {}, glm::mat3(nan)}));
    EXPECT_TRUE(isValid(ConvexShape(PosedHull{&good, {5, 0, 0}, kIdentity})));
}

TEST(Poses, CapsuleAndCylinderRunAlongTheLocalY) {
    const glm::mat3 quarterTurnZ(glm::vec3(0, 1, 0), glm::vec3(-1, 0, 0), glm::vec3(0, 0, 1));
    const Capsule c = capsuleFromPose({1, 2, 3}, quarterTurnZ, 2.0f, 0.5f);
    EXPECT_EQ(c.a, glm::vec3(3, 2, 3));
    EXPECT_EQ(c.b, glm::vec3(-1, 2, 3));
    EXPECT_EQ(c.radius, 0.5f);
    const Cylinder y = cylinderFromPose({0, 0, 0}, kIdentity, 1.5f, 0.25f);
    EXPECT_EQ(y.a, glm::vec3(0, -1.5f, 0));
    EXPECT_EQ(y.b, glm::vec3(0, 1.5f, 0));
}

TEST(Support, DifferenceIsSupportOfAMinusSupportOfBOpposite) {
    const ConvexShape a = Obb{{0, 0, 0}, {1, 1, 1}, kIdentity};
    const ConvexShape b = Sphere{{5, 0, 0}, 1.0f};
    const SupportPoint s = supportDifference(a, b, {1, 0.5f, 0});
    EXPECT_EQ(s.pointA, glm::vec3(1, 1, 1));
    EXPECT_NEAR(s.pointB.x, 5.0f - 2.0f / std::sqrt(5.0f), 1e-6f);
    EXPECT_EQ(s.w, s.pointA - s.pointB);
}

// ------------------------------------------------------------------ GJK distance: closed forms

/// The distance between segments [p0, p1] and [q0, q1] in double: the distance from a point of the
/// first to the second segment is convex along the first, so a ternary search finds its minimum.
double refSegmentDistance(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& q0,
                          const glm::dvec3& q1) {
    const auto at = [&](double s) {
        const glm::dvec3 p = p0 + s * (p1 - p0);
        return glm::length(p - refClosestSegment(p, q0, q1));
    };
    const double lo = refArgMin(at, 0.0, 1.0);
    return std::min({at(lo), at(0.0), at(1.0)});
}

TEST(GjkDistance, SpheresMatchTheClosedForm) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 3000; ++i) {
        const Sphere a{randomPoint(rng, 3.0f), uniform(rng, 0.0f, 1.5f)};
        const Sphere b{randomPoint(rng, 3.0f), uniform(rng, 0.0f, 1.5f)};
        const double want = std::max(0.0, glm::length(glm::dvec3(a.center) - glm::dvec3(b.center)) -
                                              double(a.radius) - double(b.radius));
        const GjkResult r = closestPtConvexConvex(a, b);
        ASSERT_NEAR(r.distance, want, 1e-6) << "seed " << kSeed << " i " << i;
        ASSERT_EQ(r.overlap, want == 0.0 || r.distance == 0.0f) << "i " << i;
        ASSERT_EQ(testConvexConvex(a, b), r.overlap) << "i " << i;
    }
}

TEST(GjkDistance, SphereBoxMatchesTheClosedForm) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 3000; ++i) {
        const Sphere a{randomPoint(rng, 4.0f), uniform(rng, 0.0f, 1.0f)};
        const Obb b = randomObb(rng, 1.0f, 0.1f, 2.0f);
        const double want = std::max(0.0, refDistObb(glm::dvec3(a.center), b) - double(a.radius));
        const GjkResult r = closestPtConvexConvex(a, b);
        ASSERT_NEAR(r.distance, want, 2e-6) << str(b) << " i " << i;
        ASSERT_NEAR(r.distance, std::max(0.0f, std::sqrt(sqDistPointObb(a.center, b)) - a.radius), 1e-5);
    }
}

TEST(GjkDistance, CapsulesMatchTheSegmentDistance) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 3000; ++i) {
        const Capsule a{randomPoint(rng, 2.0f), randomPoint(rng, 2.0f), uniform(rng, 0.0f, 0.5f)};
        Capsule b{randomPoint(rng, 2.0f), randomPoint(rng, 2.0f), uniform(rng, 0.0f, 0.5f)};
        if (i % 4 == 0) b.b = b.a + (a.b - a.a) * 0.7f + glm::vec3(1e-4f * float(i % 3)); // (nearly) parallel
        const double want = std::max(
            0.0, refSegmentDistance(glm::dvec3(a.a), glm::dvec3(a.b), glm::dvec3(b.a), glm::dvec3(b.b)) -
                     double(a.radius) - double(b.radius));
        const GjkResult r = closestPtConvexConvex(a, b);
        ASSERT_NEAR(r.distance, want, 2e-6) << "i " << i;
    }
}

TEST(GjkDistance, BoxesMatchTheirVertexAndEdgeDistances) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 2000; ++i) {
        const Obb a = randomObb(rng, 3.0f, 0.1f, 1.5f);
        Obb b = randomObb(rng, 3.0f, 0.1f, 1.5f);
        if (i % 3 == 0)
            b.axes = a.axes * glm::mat3(rotationAbout(randomUnit(rng), 1e-4)); // near-parallel faces
        double want = 0.0;
        if (!refObbOverlap(a, b, 0.0)) {
            want = INFINITY;
            const auto ca = refCorners(a, 0.0), cb = refCorners(b, 0.0);
            for (const auto& c : ca)
                want = std::min(want, refDistObb(c, b));
            for (const auto& c : cb)
                want = std::min(want, refDistObb(c, a));
            // Edges: corner pairs differing in one bit.
            for (int p = 0; p < 8; ++p)
                for (int pb = 0; pb < 3; ++pb)
                    for (int q = 0; q < 8; ++q)
                        for (int qb = 0; qb < 3; ++qb) {
                            if ((p >> pb) & 1 || (q >> qb) & 1) continue;
                            want = std::min(
                                want, refSegmentDistance(ca[std::size_t(p)], ca[std::size_t(p | 1 << pb)],
                                                         cb[std::size_t(q)], cb[std::size_t(q | 1 << qb)]));
                        }
        }
        const GjkResult r = closestPtConvexConvex(a, b);
        ASSERT_NEAR(r.distance, want, 3e-6) << str(a) << " " << str(b) << " i " << i;
        ASSERT_EQ(testConvexConvex(a, b), r.overlap) << "i " << i;
    }
}

// ------------------------------------------------------------------ GJK distance: every pair

/// What the random pairs set up.
enum class PairSetup { General, Touching, FarFromOrigin, SizeRatio, Count };

struct PairStats {
    double worstError = 0.0; ///< distance - the gap along the normal, over the tolerance.
    int maxIterations = 0;
    int overlaps = 0;
};

PairStats runPairs(Kind ka, Kind kb, PairSetup setup, int count, unsigned seed) {
    std::mt19937 rng(seed);
    PairStats stats;
    for (int i = 0; i < count; ++i) {
        float sizeA = uniform(rng, 0.2f, 2.0f), sizeB = uniform(rng, 0.2f, 2.0f);
        if (setup == PairSetup::SizeRatio) (i % 2 ? sizeA : sizeB) *= 1e-4f;
        const glm::vec3 base =
            setup == PairSetup::FarFromOrigin ? glm::vec3(randomUnit(rng) * 1e3) : glm::vec3(0.0f);
        const TestShape a = randomShape(rng, ka, sizeA, base + randomPoint(rng, 0.5f), i % 4);
        const float reach = 1.2f * (sizeA + sizeB);
        TestShape b = randomShape(rng, kb, sizeB, base + randomPoint(rng, reach), i / 4 % 4);
        if (setup == PairSetup::Touching) {
            // Move B so that its support point against a random direction meets A's: they touch.
            const glm::dvec3 n = randomUnit(rng);
            const glm::dvec3 pa = refSupport(a.shape, -n), pb = refSupport(b.shape, n);
            b.shape = translated(b.shape, glm::vec3(pa - pb));
        }
        const double size = std::max(refSize(a.shape), refSize(b.shape));
        const GjkResult r = closestPtConvexConvex(a.shape, b.shape);
        // 1e-5 of the size, plus the float rounding of the distance and of the coordinates (a
        // touching pair's translation is rounded on each axis: up to about 4e-7 of them).
        const double tol = 1e-5 * size + 4e-7 * (1.0 + glm::length(glm::dvec3(base))) + 6e-8 * r.distance;
        const std::string why = checkAnswer(a, b, r, tol);
        EXPECT_EQ(why, "") << kKindNames[std::size_t(ka)] << "-" << kKindNames[std::size_t(kb)] << " setup "
                           << int(setup) << " seed " << seed << " i " << i << "\n A " << str(a.shape)
                           << "\n B " << str(b.shape) << "\n distance " << r.distance << " status "
                           << int(r.status);
        if (!why.empty()) return stats;
        if (setup == PairSetup::Touching) {
            EXPECT_LE(r.distance, tol) << "touching pair apart, i " << i;
        }
        EXPECT_EQ(testConvexConvex(a.shape, b.shape), r.overlap)
            << "overlap test disagrees, i " << i << " distance " << r.distance;
        EXPECT_NE(r.status, GjkStatus::IterationCap) << "i " << i;
        if (!r.overlap) {
            const glm::dvec3 n(r.normal);
            stats.worstError =
                std::max(stats.worstError, (double(r.distance) - refGapAlong(a.shape, b.shape, n)) / tol);
        }
        stats.maxIterations = std::max(stats.maxIterations, r.iterations);
        stats.overlaps += r.overlap;
    }
    return stats;
}

TEST(GjkDistance, EveryPairOfShapesPassesTheCertificate) {
    // A quarter of the pairs in each set-up: general, touching, far from the origin, size ratio.
    const int perSetup = convexPairCount(2000) / 4;
    for (int ka = 0; ka < 5; ++ka) {
        for (int kb = 0; kb < 5; ++kb) {
            PairStats all;
            for (int setup = 0; setup < int(PairSetup::Count); ++setup) {
                const unsigned seed = kSeed + unsigned(100 * ka + 10 * kb + setup);
                const PairStats s = runPairs(Kind(ka), Kind(kb), PairSetup(setup), perSetup, seed);
                all.worstError = std::max(all.worstError, s.worstError);
                all.maxIterations = std::max(all.maxIterations, s.maxIterations);
                all.overlaps += s.overlaps;
            }
            std::printf(
                "%-8s %-8s %d pairs: worst error %.3f of the tolerance, at most %d iterations, %d overlaps\n",
                kKindNames[std::size_t(ka)], kKindNames[std::size_t(kb)], 4 * perSetup, all.worstError,
                all.maxIterations, all.overlaps);
        }
    }
}

TEST(GjkDistance, OrderOfTheShapesDoesNotChangeTheDistance) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 2000; ++i) {
        const TestShape a = randomShape(rng, Kind(i % 5), 1.0f, randomPoint(rng, 0.5f), i % 4);
        const TestShape b = randomShape(rng, Kind(i / 5 % 5), 1.0f, randomPoint(rng, 2.5f), i / 7 % 4);
        const GjkResult ab = closestPtConvexConvex(a.shape, b.shape),
                        ba = closestPtConvexConvex(b.shape, a.shape);
        ASSERT_EQ(ab.overlap, ba.overlap) << "i " << i;
        ASSERT_NEAR(ab.distance, ba.distance, 2e-6f) << "i " << i;
    }
}

// ------------------------------------------------------------------ degenerate input

TEST(GjkDistance, CoincidentShapesOverlapWithAPointInBoth) {
    const ConvexHull hull = boxHull({1, 2, 3})->hull;
    const ConvexShape shapes[] = {Sphere{{1, 2, 3}, 1.0f},
                                  Sphere{{1, 2, 3}, 0.0f},
                                  Obb{{1, 2, 3}, {1, 1, 1}, kIdentity},
                                  Capsule{{1, 2, 3}, {1, 2, 3}, 0.0f},
                                  Capsule{{0, 0, 0}, {0, 5, 0}, 0.5f},
                                  Cylinder{{0, 0, 0}, {0, 1, 0}, 0.0f},
                                  PosedHull{&hull, {7, 8, 9}, kIdentity}};
    for (const ConvexShape& s : shapes) {
        const GjkResult r = closestPtConvexConvex(s, s);
        EXPECT_TRUE(r.overlap) << str(s);
        EXPECT_EQ(r.distance, 0.0f);
        EXPECT_TRUE(allFinite(r));
        EXPECT_EQ(r.pointA, r.pointB);
        EXPECT_TRUE(testConvexConvex(s, s));
    }
}

TEST(GjkDistance, PointsAndSegmentsAreExact) {
    // Zero-radius spheres and zero-radius, zero-height capsules are points.
    const GjkResult points =
        closestPtConvexConvex(Sphere{{0, 0, 0}, 0.0f}, Capsule{{3, 4, 0}, {3, 4, 0}, 0.0f});
    EXPECT_EQ(points.distance, 5.0f);
    EXPECT_EQ(points.pointA, glm::vec3(0, 0, 0));
    EXPECT_EQ(points.pointB, glm::vec3(3, 4, 0));
    EXPECT_FLOAT_EQ(points.normal.x, -0.6f);
    // A point on a segment's line beyond its end, and a point touching a segment.
    EXPECT_EQ(closestPtConvexConvex(Sphere{{0, 3, 0}, 0.0f}, Capsule{{0, -1, 0}, {0, 1, 0}, 0.0f}).distance,
              2.0f);
    const GjkResult on =
        closestPtConvexConvex(Sphere{{0, 0.5f, 0}, 0.0f}, Capsule{{0, -1, 0}, {0, 1, 0}, 0.0f});
    EXPECT_TRUE(on.overlap);
    EXPECT_EQ(on.pointA, glm::vec3(0, 0.5f, 0));
}

TEST(GjkDistance, InvalidInputGivesNoAnswer) {
    const float nan = std::nanf("");
    const GjkResult r = closestPtConvexConvex(Sphere{{nan, 0, 0}, 1.0f}, Sphere{{0, 0, 0}, 1.0f});
    EXPECT_EQ(r.status, GjkStatus::InvalidInput);
    EXPECT_FALSE(r.overlap);
    EXPECT_EQ(r.distance, INFINITY);
    EXPECT_FALSE(testConvexConvex(Capsule{{0, 0, 0}, {1, 0, 0}, -1.0f}, Sphere{{0, 0, 0}, 1.0f}));
    EXPECT_FALSE(testConvexConvex(Cylinder{{0, 0, 0}, {0, 0, 0}, 1.0f}, Sphere{{0, 0, 0}, 1.0f}));
}

TEST(GjkDistance, IterationCapReturnsTheBestAnswerSoFar) {
    const Cylinder a{{0, 0, 0}, {0, 1, 0}, 1.0f};
    const Cylinder b = {{3.1f, 0.3f, 0.2f}, {3.0f, 1.3f, 1.7f}, 0.7f};
    const GjkResult full = closestPtConvexConvex(a, b);
    ASSERT_NE(full.status, GjkStatus::IterationCap);
    ASSERT_GT(full.iterations, 2);
    for (int cap = 1; cap < full.iterations; ++cap) {
        const GjkResult r = closestPtConvexConvex(a, b, cap);
        EXPECT_EQ(r.status, GjkStatus::IterationCap) << "cap " << cap;
        EXPECT_EQ(r.iterations, cap);
        EXPECT_TRUE(allFinite(r));
        // An upper bound from real points of both shapes, and a true lower bound.
        EXPECT_GE(r.distance, full.distance - 1e-6f) << "cap " << cap;
        EXPECT_LE(r.lowerBound, full.distance + 1e-6f) << "cap " << cap;
        // Real points of both shapes, the distance theirs (the gap along the normal is only a
        // lower bound while the iteration is cut short).
        const TestShape ta{a, nullptr}, tb{b, nullptr};
        EXPECT_LE(refDistance(ta, glm::dvec3(r.pointA)), 1e-6);
        EXPECT_LE(refDistance(tb, glm::dvec3(r.pointB)), 1e-6);
        EXPECT_NEAR(glm::length(r.pointA - r.pointB), r.distance, 1e-6f);
    }
}

TEST(GjkDistance, FarFromTheOriginKeepsSmallGapsExact) {
    // Two unit boxes 1e-4 apart, 1000 units out: float coordinates there are 6e-5 apart, and the
    // double inside keeps the gap to its float rounding.
    const glm::vec3 far(1000.0f, -1000.0f, 1000.0f);
    const Obb a{far, {0.5f, 0.5f, 0.5f}, kIdentity};
    const Obb b{far + glm::vec3(1.0f + 0.0001220703125f, 0.3f, 0.0f), {0.5f, 0.5f, 0.5f}, kIdentity};
    const double want = (double(b.center.x) - 0.5) - (double(a.center.x) + 0.5);
    EXPECT_NEAR(closestPtConvexConvex(a, b).distance, want, 1e-9);
}

// ------------------------------------------------------------------ ported cases

TEST(GjkPorted, JoltSpheresApartAndTouching) {
    // Jolt's GJKTests "TestGJKIntersectSphere".
    const Sphere s1{{0, 0, 0}, 1.0f}, s2{{10, 10, 10}, 1.0f};
    const float l = 2.0f / std::sqrt(3.0f);
    const Sphere s3{{l, l, l}, 1.0f};
    EXPECT_FALSE(testConvexConvex(s1, s2));
    EXPECT_TRUE(testConvexConvex(s1, s3));
    const GjkResult apart = closestPtConvexConvex(s1, s2);
    const glm::vec3 c2n = glm::normalize(s2.center);
    EXPECT_NEAR(apart.distance, glm::length(s2.center) - 2.0f, 1e-5f);
    expectVecNear(apart.pointA, c2n, 1e-5f);
    expectVecNear(apart.pointB, s2.center - c2n, 1e-5f);
    const GjkResult touching = closestPtConvexConvex(s1, s3);
    EXPECT_NEAR(touching.distance, 0.0f, 1e-6f);
    expectVecNear(touching.pointA, c2n, 1e-5f);
}

TEST(GjkPorted, LibccdBoxesSlidingAlongX) {
    // libccd's testsuite "boxboxAlignedX": box 1 (1 x 2 x 1) steps by 0.1 from x = -5 through
    // box 2 (2 x 1 x 2) at the origin; they overlap from step 35 to 65 (touching at both ends).
    const Obb box2{{0, 0, 0}, {1.0f, 0.5f, 1.0f}, kIdentity};
    glm::vec3 pos(-5.0f, 0.0f, 0.0f);
    for (int i = 0; i < 100; ++i) {
        const Obb box1{pos, {0.5f, 1.0f, 0.5f}, kIdentity};
        const bool overlap = testConvexConvex(box1, box2);
        if (i < 35 || i > 65) {
            EXPECT_FALSE(overlap) << "step " << i;
        } else if (i != 35 && i != 65) {
            EXPECT_TRUE(overlap) << "step " << i;
        }
        const double want = std::max(0.0, std::abs(double(pos.x)) - 1.5);
        EXPECT_NEAR(closestPtConvexConvex(box1, box2).distance, want, 1e-6) << "step " << i;
        pos.x += 0.1f;
    }
}

TEST(GjkPorted, LibccdCylindersSlidingAlongEachAxis) {
    // libccd's testsuite "cylcylAlignedX", "...Y", "...Z": cylinder 1 (radius 0.35, height 0.5,
    // axis z) steps by 0.1 from -5 through cylinder 2 (radius 0.5, height 1) at the origin; across
    // the axes they overlap from step 42 to 58, along it from 43 to 57.
    const Cylinder c2{{0, 0, -0.5f}, {0, 0, 0.5f}, 0.5f};
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 pos(0.0f);
        pos[axis] = -5.0f;
        const double reach = axis == 2 ? 0.25 + 0.5 : 0.35 + 0.5;
        for (int i = 0; i < 100; ++i) {
            const Cylinder c1{pos - glm::vec3(0, 0, 0.25f), pos + glm::vec3(0, 0, 0.25f), 0.35f};
            const bool overlap = testConvexConvex(c1, c2);
            const int first = axis == 2 ? 43 : 42, last = axis == 2 ? 57 : 58;
            EXPECT_EQ(overlap, i >= first && i <= last) << "axis " << axis << " step " << i;
            const double want = std::max(0.0, std::abs(double(pos[axis])) - reach);
            EXPECT_NEAR(closestPtConvexConvex(c1, c2).distance, want, 1e-6)
                << "axis " << axis << " step " << i;
            pos[axis] += 0.1f;
        }
    }
}

// ------------------------------------------------------------------ GJK ray cast

/// The reference ray against a shape in double: the distance to a convex shape is convex along a
/// line, so a ternary search finds the closest approach on [0, tMax], and bisections on either
/// side of it the entry and exit (points within `inside` of the shape count as in it: the
/// projection's rounding).
struct RefRay {
    double closest; ///< The smallest distance from the ray to the shape.
    double tIn;     ///< The entry parameter (valid when closest <= inside).
    double tOut;    ///< The exit parameter, or tMax.
};

RefRay refRay(const TestShape& t, const Ray& ray, double tMax) {
    const glm::dvec3 o(ray.origin), d(ray.dir);
    const double inside = 1e-12 * (1.0 + glm::length(o) + tMax * glm::length(d));
    const auto at = [&](double s) { return refDistance(t, o + s * d); };
    const double lo = refArgMin(at, 0.0, tMax);
    RefRay out{at(lo), lo, lo};
    if (out.closest > inside) return out;
    double a = 0.0, b = lo; // at(a) > inside >= at(b)
    if (at(0.0) <= inside) b = 0.0;
    for (int k = 0; k < 200 && b > 0.0; ++k) {
        const double m = 0.5 * (a + b);
        (at(m) > inside ? a : b) = m;
    }
    out.tIn = b;
    a = lo, b = tMax; // at(a) <= inside < at(b)
    if (at(tMax) <= inside) a = tMax;
    for (int k = 0; k < 200 && a < tMax; ++k) {
        const double m = 0.5 * (a + b);
        (at(m) > inside ? b : a) = m;
    }
    out.tOut = a;
    return out;
}

/// Checks a cast against the reference: "" or what is wrong. `tol` is in world units. A ray that
/// passes within tol of the surface, or cuts a chord shorter than 1% of the shape's size, may
/// hit or miss.
std::string checkCast(const TestShape& t, const Ray& ray, float tMax, double tol) {
    std::ostringstream why;
    why.precision(9);
    const ConvexRayCast cast = raycastConvex(ray, t.shape, tMax);
    const double dirLength = glm::length(glm::dvec3(ray.dir));
    const RefRay ref = refRay(t, ray, double(tMax));
    const bool refHits =
        ref.closest <= 1e-12 * (1.0 + glm::length(glm::dvec3(ray.origin)) + tMax * dirLength);
    if (!cast.hit) {
        if (refHits && (ref.tOut - ref.tIn) * dirLength > 1e-2 * refSize(t.shape) + tol)
            why << "missed a chord from t " << ref.tIn << " to " << ref.tOut << "; ";
        return why.str();
    }
    const RayHit& h = *cast.hit;
    if (!refHits) {
        if (ref.closest > tol) why << "hit at " << h.t << ", reference misses by " << ref.closest << "; ";
        return why.str();
    }
    if (std::abs(double(h.t) - ref.tIn) * dirLength > tol)
        why << "t " << h.t << " reference " << ref.tIn << " (chord to " << ref.tOut << ", status "
            << int(cast.status) << ", " << cast.iterations << " iterations); ";
    if (std::abs(glm::length(h.normal) - 1.0f) > 1e-5f) why << "normal not unit; ";
    if (glm::dot(h.normal, ray.dir) > 0.0f) why << "normal faces away from the origin; ";
    if (h.t > 0.0f) {
        // A supporting plane at the hit point: nothing of the shape beyond it.
        const glm::dvec3 n(h.normal), p(h.point);
        const double beyond = glm::dot(refSupport(t.shape, n), n) - glm::dot(n, p);
        if (beyond > tol) why << "normal not supporting: the shape reaches " << beyond << " past it; ";
        if (refDistance(t, p) > tol) why << "point off the shape by " << refDistance(t, p) << "; ";
    }
    return why.str();
}

TEST(GjkRayCast, JoltsRandomRaysAgreeWithTheClosedForms) {
    // Jolt's GJKTests "TestGJKRaySphere", "TestGJKRayBox", "TestGJKRayCapsuleShape",
    // "TestGJKRayCylinderShape": rays between random points of [-2, 2]^3, tMax 1.
    const Sphere sphere{{0.1f, 0.2f, 0.3f}, 1.1f};
    const Aabb box{{-0.9f, -1.0f, -1.1f}, {0.8f, 0.9f, 1.0f}};
    const TestShape capsule{capsuleFromPose({0, 0, 0}, kIdentity, 1.1f, 0.6f), nullptr};
    const TestShape cylinder{cylinderFromPose({0, 0, 0}, kIdentity, 1.5f, 0.6f), nullptr};
    std::mt19937 rng(12345u);
    for (int i = 0; i < 1000; ++i) {
        const glm::vec3 from = randomPoint(rng, 2.0f), to = randomPoint(rng, 2.0f);
        const Ray ray{from, to - from};
        const auto gjkSphere = raycast(ray, ConvexShape(sphere), 1.0f),
                   exactSphere = raycast(ray, sphere, 1.0f);
        ASSERT_EQ(gjkSphere.has_value(), exactSphere.has_value()) << "i " << i;
        if (gjkSphere) {
            EXPECT_NEAR(gjkSphere->t, exactSphere->t, 1e-5f) << "i " << i;
            expectVecNear(gjkSphere->normal, exactSphere->normal, 1e-4f);
        }
        const auto gjkBox = raycast(ray, ConvexShape(toObb(box)), 1.0f), exactBox = raycast(ray, box, 1.0f);
        ASSERT_EQ(gjkBox.has_value(), exactBox.has_value()) << "i " << i;
        if (gjkBox) {
            EXPECT_NEAR(gjkBox->t, exactBox->t, 1e-5f) << "i " << i;
            if (gjkBox->t > 1e-4f) expectVecNear(gjkBox->normal, exactBox->normal, 1e-4f);
        }
        EXPECT_EQ(checkCast(capsule, ray, 1.0f, 1e-5), "") << "i " << i;
        EXPECT_EQ(checkCast(cylinder, ray, 1.0f, 1e-5), "") << "i " << i;
    }
}

TEST(GjkRayCast, EveryShapeAgreesWithTheReference) {
    std::mt19937 rng(kSeed);
    int hits = 0;
    for (int i = 0; i < 4000; ++i) {
        const bool far = i % 4 == 3;
        const glm::vec3 base = far ? glm::vec3(randomUnit(rng) * 1e3) : glm::vec3(0.0f);
        const float size = uniform(rng, 0.2f, 2.0f);
        const TestShape t = randomShape(rng, Kind(i % 5), size, base + randomPoint(rng, 0.5f), i / 5 % 4);
        const glm::vec3 from = base + randomPoint(rng, 4.0f);
        const glm::vec3 to = base + randomPoint(rng, 1.0f);
        const float scale = i % 3 == 0 ? 1e-3f : (i % 3 == 1 ? 1.0f : 50.0f); // dir not unit
        const Ray ray{from, (to - from) * scale};
        const float tMax = 2.0f / scale;
        const double tol = 1e-5 * refSize(t.shape) + 4e-7 * (1.0 + glm::length(glm::dvec3(base)));
        const std::string why = checkCast(t, ray, tMax, tol);
        ASSERT_EQ(why, "") << str(t.shape) << " ray " << str(glm::dvec3(ray.origin)) << " dir "
                           << str(glm::dvec3(ray.dir)) << " seed " << kSeed << " i " << i;
        const ConvexRayCast cast = raycastConvex(ray, t.shape, tMax);
        EXPECT_NE(cast.status, RayCastStatus::IterationCap) << "i " << i;
        hits += cast.hit.has_value();
    }
    EXPECT_GT(hits, 800); // the test sees both hits and misses
    EXPECT_LT(hits, 3200);
}

TEST(GjkRayCast, RayStartingInsideHitsAtZero) {
    const ConvexHull hull = boxHull({1, 1, 1})->hull;
    const ConvexShape shapes[] = {Sphere{{0, 0, 0}, 1.0f}, Obb{{0, 0, 0}, {1, 1, 1}, kIdentity},
                                  Capsule{{0, -1, 0}, {0, 1, 0}, 0.5f}, Cylinder{{0, -1, 0}, {0, 1, 0}, 0.5f},
                                  PosedHull{&hull, {0, 0, 0}, kIdentity}};
    for (const ConvexShape& s : shapes) {
        const ConvexRayCast cast = raycastConvex({{0.1f, 0.2f, 0.0f}, {0, 0, 3}}, s);
        ASSERT_TRUE(cast.hit) << str(s);
        EXPECT_EQ(cast.status, RayCastStatus::StartsInside);
        EXPECT_EQ(cast.hit->t, 0.0f);
        EXPECT_EQ(cast.hit->normal, glm::vec3(0, 0, -1));
    }
}

TEST(GjkRayCast, RayOnTheSurfaceHitsAtZeroAndRayAwayMisses) {
    const Obb box{{0, 0, 0}, {1, 1, 1}, kIdentity};
    const auto onFace = raycast({{1, 0, 0}, {1, 0, 0}}, ConvexShape(box));
    ASSERT_TRUE(onFace);
    EXPECT_EQ(onFace->t, 0.0f);
    EXPECT_FALSE(raycast({{2, 0, 0}, {1, 0, 0}}, ConvexShape(box)));
    EXPECT_FALSE(raycast({{2, 0, 0}, {0, 1, 0}}, ConvexShape(box)));         // passes by
    EXPECT_FALSE(raycast({{3, 0, 0}, {-1, 0, 0}}, ConvexShape(box), 1.9f));  // short of it
    const auto grazing = raycast({{-3, 1, 0}, {1, 0, 0}}, ConvexShape(box)); // along a face
    ASSERT_TRUE(grazing);
    EXPECT_NEAR(grazing->t, 2.0f, 1e-6f);
}

TEST(GjkRayCast, DirectionLengthScalesTheParameter) {
    const ConvexShape capsule = Capsule{{0, -1, 0}, {0, 1, 0}, 0.5f};
    const auto unit = raycast({{-5, 0.3f, 0}, {1, 0, 0}}, capsule);
    const auto slow = raycast({{-5, 0.3f, 0}, {1e-3f, 0, 0}}, capsule);
    ASSERT_TRUE(unit && slow);
    EXPECT_NEAR(unit->t, 4.5f, 1e-6f);
    EXPECT_NEAR(slow->t, 4500.0f, 1e-2f);
    expectVecNear(unit->normal, {-1, 0, 0}, 1e-6f);
}

TEST(GjkRayCast, InvalidInputMisses) {
    const ConvexShape sphere = Sphere{{0, 0, 0}, 1.0f};
    EXPECT_EQ(raycastConvex({{-5, 0, 0}, {0, 0, 0}}, sphere).status, RayCastStatus::InvalidInput);
    EXPECT_EQ(raycastConvex({{-5, 0, 0}, {1, 0, 0}}, sphere, -1.0f).status, RayCastStatus::InvalidInput);
    EXPECT_EQ(raycastConvex({{-5, 0, 0}, {1, 0, 0}}, sphere, std::nanf("")).status,
              RayCastStatus::InvalidInput);
    EXPECT_FALSE(raycast({{-5, 0, 0}, {1, 0, 0}}, ConvexShape(Cylinder{{0, 0, 0}, {0, 0, 0}, 1.0f})));
}

} // namespace
