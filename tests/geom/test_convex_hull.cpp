// Tests for geom/convex_hull.hpp: buildConvexHull against qhull (Debian's libqhull_r, default
// options: merged coplanar facets) on random and degenerate point sets, its errors, its
// determinism, and isValid over thousands of random seeds (printed on failure).
#include "geom/convex_hull.hpp"
#include "support/geom_random.hpp"
#include "support/hull_points.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace {

using kz::ConvexHull;
using kz::HullBuild;
using namespace kz::test;

// ------------------------------------------------------------------ qhull and hull measures

struct QhullResult {
    bool ok = false;
    std::vector<glm::vec3> vertices;
    std::size_t facets = 0;
    double volume = 0.0;
};

/// qhull with its default options (3-d: facets merged when coplanar within its own double
/// rounding, "C-0"), or with facets merged when a centrum is within `premerge` ("C-premerge").
QhullResult runQhull(const std::vector<glm::vec3>& points, double premerge = 0.0) {
    std::vector<coordT> coords;
    for (const glm::vec3& p : points)
        coords.insert(coords.end(), {p.x, p.y, p.z});
    qhT context;
    qhT* qh = &context;
    qh_zero(qh, stderr);
    char flags[64];
    if (premerge > 0.0) {
        std::snprintf(flags, sizeof flags, "qhull C-%.9g", premerge);
    } else {
        std::snprintf(flags, sizeof flags, "qhull");
    }
    QhullResult out;
    const int exitCode =
        qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False, flags, nullptr, stderr);
    if (exitCode == 0) {
        out.ok = true;
        qh_getarea(qh, qh->facet_list);
        out.volume = qh->totvol;
        vertexT* vertex;
        FORALLvertices {
            out.vertices.emplace_back(float(vertex->point[0]), float(vertex->point[1]),
                                      float(vertex->point[2]));
        }
        facetT* facet;
        FORALLfacets {
            ++out.facets;
        }
    }
    qh_freeqhull(qh, !qh_ALL);
    int curlong = 0, totlong = 0;
    qh_memfreeshort(qh, &curlong, &totlong);
    return out;
}

bool lexLess(const glm::vec3& a, const glm::vec3& b) {
    return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.z < b.z;
}

std::vector<glm::vec3> sortedUnique(std::vector<glm::vec3> v) {
    std::sort(v.begin(), v.end(), lexLess);
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

/// The corners of face f in loop order.
std::vector<glm::vec3> faceCorners(const ConvexHull& hull, std::size_t f) {
    std::vector<glm::vec3> out;
    std::uint32_t e = hull.faces[f].edge;
    do {
        out.push_back(hull.vertices[hull.edges[e].origin]);
        e = hull.edges[e].next;
    } while (e != hull.faces[f].edge);
    return out;
}

/// Volume and surface area, in double, by fans of the faces.
std::pair<double, double> volumeAndArea(const ConvexHull& hull) {
    const glm::dvec3 c(hull.centroid);
    double volume = 0.0, area = 0.0;
    for (std::size_t f = 0; f < hull.faces.size(); ++f) {
        const auto corners = faceCorners(hull, f);
        const glm::dvec3 a(corners[0]);
        for (std::size_t i = 1; i + 1 < corners.size(); ++i) {
            const glm::dvec3 b(corners[i]), d(corners[i + 1]);
            volume += glm::dot(a - c, glm::cross(b - c, d - c)) / 6.0;
            area += glm::length(glm::cross(b - a, d - a)) / 2.0;
        }
    }
    return {volume, area};
}

/// How far the point is outside the hull (its largest face-plane distance).
float outsideBy(const ConvexHull& hull, const glm::vec3& p) {
    float worst = -std::numeric_limits<float>::infinity();
    for (const ConvexHull::Face& f : hull.faces)
        worst = std::max(worst, glm::dot(f.normal, p) - f.offset);
    return worst;
}

::testing::AssertionResult containsAll(const ConvexHull& hull, const std::vector<glm::vec3>& points) {
    for (std::size_t i = 0; i < points.size(); ++i) {
        const float d = outsideBy(hull, points[i]);
        if (!(d <= hull.tolerance)) {
            return ::testing::AssertionFailure()
                   << "point " << i << " outside by " << d << " > " << hull.tolerance;
        }
    }
    return ::testing::AssertionSuccess();
}

/// The hull built (a copy), or an empty one after a test failure naming the error.
ConvexHull hullOf(const HullBuild& build) {
    EXPECT_TRUE(build.hull.has_value()) << build.error;
    return build.hull ? *build.hull : ConvexHull{};
}

/// How a hull is compared with qhull's.
enum class Match {
    /// The same vertex set and facet count; the volume within 1e-5 relative.
    Exact,
    /// The same vertex set, the volume within 1e-5; as many faces as qhull merging within its own
    /// rounding or fewer, as many as qhull merging within our merge tolerance ("C-") or more: we
    /// merge near-coplanar pairs (four points nearly on a circle of a sphere) that the first
    /// keeps, by corners rather than by centrums as the second does.
    SameVertices,
    /// Our vertices are qhull's (merging at float rounding drops some of qhull's) and the volumes
    /// differ by at most tolerance * area.
    WithinTolerance,
};

void expectLikeQhull(const std::vector<glm::vec3>& points, Match match) {
    const HullBuild build = kz::buildConvexHull(points);
    ASSERT_TRUE(build.hull) << build.error;
    const ConvexHull& hull = *build.hull;
    ASSERT_TRUE(kz::isValid(hull));
    EXPECT_TRUE(containsAll(hull, points));
    const QhullResult ref = runQhull(points);
    ASSERT_TRUE(ref.ok);
    const auto ours = sortedUnique(hull.vertices), theirs = sortedUnique(ref.vertices);
    EXPECT_EQ(ours.size(), hull.vertices.size()) << "duplicate vertices";
    const auto [volume, area] = volumeAndArea(hull);
    if (match == Match::WithinTolerance) {
        for (const glm::vec3& v : ours)
            EXPECT_TRUE(std::binary_search(theirs.begin(), theirs.end(), v, lexLess));
        EXPECT_NEAR(volume, ref.volume, 1e-5 * ref.volume + double(hull.tolerance) * area);
        return;
    }
    EXPECT_EQ(ours, theirs);
    EXPECT_NEAR(volume, ref.volume, 1e-5 * ref.volume);
    if (match == Match::Exact) {
        EXPECT_EQ(hull.faces.size(), ref.facets);
    } else {
        EXPECT_LE(hull.faces.size(), ref.facets);
        EXPECT_GE(hull.faces.size(), runQhull(points, hull.tolerance / 4.0).facets);
    }
}

// ------------------------------------------------------------------ shapes

TEST(ConvexHull, TetrahedronHasFourTrianglesAndItsCentroid) {
    const std::vector<glm::vec3> points{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const ConvexHull hull = hullOf(kz::buildConvexHull(points));
    ASSERT_TRUE(kz::isValid(hull));
    EXPECT_EQ(hull.vertices.size(), 4u);
    EXPECT_EQ(hull.faces.size(), 4u);
    EXPECT_EQ(hull.edges.size(), 12u);
    EXPECT_NEAR(volumeAndArea(hull).first, 1.0 / 6.0, 1e-7);
    EXPECT_NEAR(hull.centroid.x, 0.25f, 1e-6f);
    EXPECT_NEAR(hull.centroid.y, 0.25f, 1e-6f);
    EXPECT_NEAR(hull.centroid.z, 0.25f, 1e-6f);
    expectLikeQhull(points, Match::Exact);
}

TEST(ConvexHull, BoxCornersGiveSixQuadrilaterals) {
    const ConvexHull hull = hullOf(kz::buildConvexHull(boxCorners({1.0f, 2.0f, 3.0f})));
    ASSERT_TRUE(kz::isValid(hull));
    EXPECT_EQ(hull.vertices.size(), 8u);
    EXPECT_EQ(hull.faces.size(), 6u);
    EXPECT_EQ(hull.edges.size(), 24u);
    for (std::size_t f = 0; f < hull.faces.size(); ++f) {
        EXPECT_EQ(faceCorners(hull, f).size(), 4u);
        const glm::vec3 n = hull.faces[f].normal;
        EXPECT_FLOAT_EQ(std::abs(n.x) + std::abs(n.y) + std::abs(n.z), 1.0f) << "not axis-aligned";
    }
    for (std::size_t i = 0; i < hull.edges.size(); ++i)
        EXPECT_EQ(hull.edges[i].twin, i ^ 1u);
    EXPECT_NEAR(volumeAndArea(hull).first, 48.0, 1e-5);
    EXPECT_EQ(hull.centroid, glm::vec3(0.0f));
}

TEST(ConvexHull, BoxWithPointsOnItsFacesEdgesAndInsideKeepsEightCornersAndSixFaces) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const auto points = boxWithClutter(seed, {1.0f, 0.5f, 2.0f});
        const ConvexHull hull = hullOf(kz::buildConvexHull(points));
        ASSERT_TRUE(kz::isValid(hull)) << "seed " << seed;
        EXPECT_EQ(hull.vertices.size(), 8u) << "seed " << seed;
        EXPECT_EQ(hull.faces.size(), 6u) << "seed " << seed;
        EXPECT_TRUE(containsAll(hull, points)) << "seed " << seed;
        expectLikeQhull(points, Match::Exact);
    }
}

TEST(ConvexHull, RotatedBoxWithPointsOnItsFacesKeepsEightCornersAndSixFaces) {
    // Rotation rounds the points on the faces off their planes by about FLT_EPSILON: merged.
    for (unsigned seed = 1; seed <= 20; ++seed) {
        std::mt19937 rng(seed);
        const glm::dmat3 r = randomRotation(rng);
        auto points = boxWithClutter(seed, {1.0f, 0.5f, 2.0f});
        for (glm::vec3& p : points)
            p = glm::vec3(r * glm::dvec3(p));
        const ConvexHull hull = hullOf(kz::buildConvexHull(points));
        ASSERT_TRUE(kz::isValid(hull)) << "seed " << seed;
        EXPECT_EQ(hull.vertices.size(), 8u) << "seed " << seed;
        EXPECT_EQ(hull.faces.size(), 6u) << "seed " << seed;
        EXPECT_TRUE(containsAll(hull, points)) << "seed " << seed;
    }
}

TEST(ConvexHull, RandomPointsInACubeMatchQhull) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        expectLikeQhull(cubeCloud(seed, 20 + 100 * seed, 1.0f), Match::Exact);
    }
}

TEST(ConvexHull, RandomPointsOnASphereMatchQhull) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        expectLikeQhull(sphereCloud(seed, 20 + 100 * seed, 1.0), Match::SameVertices);
    }
}

TEST(ConvexHull, ManyDuplicatesGiveTheHullOfTheDistinctPoints) {
    for (unsigned seed = 1; seed <= 10; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const auto distinct = sphereCloud(seed, 200, 1.0);
        std::vector<glm::vec3> points;
        for (int copy = 0; copy < 5; ++copy)
            points.insert(points.end(), distinct.begin(), distinct.end());
        std::mt19937 rng(seed);
        std::shuffle(points.begin(), points.end(), rng);
        const ConvexHull hull = hullOf(kz::buildConvexHull(points));
        EXPECT_EQ(sortedUnique(hull.vertices), sortedUnique(distinct));
        expectLikeQhull(points, Match::SameVertices);
    }
}

TEST(ConvexHull, TwoRingsGiveACylinderWithTwoCapsAndQuadrilateralSides) {
    constexpr int kSides = 32;
    std::vector<glm::vec3> points;
    for (int i = 0; i < kSides; ++i) {
        const double angle = 2.0 * std::numbers::pi * i / kSides;
        const float x = float(std::cos(angle)), y = float(std::sin(angle));
        points.emplace_back(x, y, -1.0f);
        points.emplace_back(x, y, 1.0f);
    }
    const ConvexHull hull = hullOf(kz::buildConvexHull(points));
    ASSERT_TRUE(kz::isValid(hull));
    EXPECT_EQ(hull.vertices.size(), 2u * kSides);
    EXPECT_EQ(hull.faces.size(), kSides + 2u);
    expectLikeQhull(points, Match::Exact);
}

TEST(ConvexHull, TinyAndHugeScalesMatchQhull) {
    for (const float scale : {1e-3f, 1e4f}) {
        for (unsigned seed = 1; seed <= 5; ++seed) {
            SCOPED_TRACE("scale " + std::to_string(scale) + " seed " + std::to_string(seed));
            expectLikeQhull(cubeCloud(seed, 500, scale), Match::Exact);
            expectLikeQhull(sphereCloud(seed, 500, scale), Match::SameVertices);
        }
    }
}

TEST(ConvexHull, CloudsFarFromTheOriginAgreeWithQhullWithinTheTolerance) {
    // At 1e4 the float grid is 1e-3: faces merge within the tolerance that follows from it.
    for (unsigned seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const glm::vec3 offset(1e4f, -1e4f, 1e4f);
        expectLikeQhull(cubeCloud(seed, 500, 10.0f, offset), Match::WithinTolerance);
        expectLikeQhull(sphereCloud(seed, 500, 10.0, offset), Match::WithinTolerance);
        auto box = boxWithClutter(seed, {10.0f, 20.0f, 5.0f});
        for (glm::vec3& p : box)
            p += offset;
        expectLikeQhull(box, Match::Exact);
    }
}

TEST(ConvexHull, NearlyFlatHullsAreStillValid) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937 rng(seed);
        const glm::dmat3 r = randomRotation(rng);
        std::vector<glm::vec3> points;
        for (int i = 0; i < 300; ++i) {
            const glm::dvec3 p{uniform(rng, -1.0f, 1.0f), uniform(rng, -1.0f, 1.0f),
                               uniform(rng, -5e-4f, 5e-4f)};
            points.emplace_back(r * p);
        }
        expectLikeQhull(points, Match::WithinTolerance);
    }
}

TEST(ConvexHull, ThinSlabsWithSharpEdgesAreValidAndHoldEveryPoint) {
    for (unsigned seed = 1; seed <= 1000; ++seed) {
        const auto points = thinSlab(seed);
        const ConvexHull hull = hullOf(kz::buildConvexHull(points));
        ASSERT_TRUE(kz::isValid(hull)) << "seed " << seed;
        ASSERT_TRUE(containsAll(hull, points)) << "seed " << seed;
    }
}

TEST(ConvexHull, IsValidRejectsEachKindOfDamage) {
    const ConvexHull good = hullOf(kz::buildConvexHull(boxCorners({1.0f, 2.0f, 3.0f})));
    ASSERT_TRUE(kz::isValid(good));
    const auto damaged = [&](auto&& damage) {
        ConvexHull hull = good;
        damage(hull);
        return kz::isValid(hull);
    };
    EXPECT_FALSE(damaged([](ConvexHull& h) { std::swap(h.edges[0].twin, h.edges[2].twin); }));
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.edges[3].next = h.edges[4].next; }));
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.edges[5].origin = h.edges[4].origin; }));
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.vertexEdge[2] = h.vertexEdge[3]; }));
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.faces.pop_back(); }));
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.faces[1].normal = -h.faces[1].normal; }));
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.faces[2].normal *= 1.01f; }));
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.faces[0].offset -= 0.01f; })); // corners in front
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.vertices[0] *= 1.01f; }));     // off its planes
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.centroid = glm::vec3(0.0f, 0.0f, 5.0f); }));
    EXPECT_FALSE(damaged([](ConvexHull& h) { h.vertices[0].x = std::numeric_limits<float>::quiet_NaN(); }));
    // A face loop that turns right: a corner pushed into its face, within the face's plane.
    EXPECT_FALSE(damaged([](ConvexHull& h) {
        const ConvexHull::HalfEdge& e = h.edges[h.faces[0].edge];
        const glm::vec3 n = h.faces[0].normal;
        glm::vec3& v = h.vertices[e.origin];
        v -= 0.9f * (v - glm::dot(v, n) * n); // toward the face's centre (the box is centred)
    }));
}

// ------------------------------------------------------------------ errors

void expectError(const std::vector<glm::vec3>& points, const std::string& message) {
    const HullBuild build = kz::buildConvexHull(points);
    EXPECT_FALSE(build.hull.has_value());
    EXPECT_NE(build.error.find(message), std::string::npos) << build.error;
    EXPECT_EQ(build.error.find('\n'), std::string::npos) << build.error;
}

TEST(ConvexHull, FewerThanFourPointsAreRefused) {
    expectError({}, "at least 4 points, got 0");
    expectError({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "at least 4 points, got 3");
}

TEST(ConvexHull, NonFiniteCoordinatesAreRefusedByIndex) {
    auto points = cubeCloud(1, 10, 1.0f);
    points[5].y = std::numeric_limits<float>::quiet_NaN();
    expectError(points, "point 5 has a non-finite coordinate");
    points[5].y = 0.0f;
    points[7].z = -std::numeric_limits<float>::infinity();
    expectError(points, "point 7 has a non-finite coordinate");
}

TEST(ConvexHull, MoreThanTheMaximumIsRefused) {
    const auto points = cubeCloud(1, kz::kMaxHullPoints + 1, 1.0f);
    expectError(points, "too many points for a convex hull: 100001 (at most 100000)");
}

TEST(ConvexHull, CoordinatesTooLargeForFloatPlanesAreRefused) {
    auto points = boxCorners(glm::vec3(2e38f));
    expectError(points, "coordinates too large for a hull in float");
    // Just below the limit: a valid hull.
    points = boxCorners(glm::vec3(1e38f));
    const ConvexHull hull = hullOf(kz::buildConvexHull(points));
    EXPECT_TRUE(kz::isValid(hull));
    EXPECT_EQ(hull.faces.size(), 6u);
}

TEST(ConvexHull, OnePointRepeatedOrJitteredIsRefused) {
    expectError(std::vector<glm::vec3>(10, glm::vec3(1.0f, 2.0f, 3.0f)),
                "all 10 points are (nearly) the same point");
    std::vector<glm::vec3> jittered(10, glm::vec3(1.0f, 2.0f, 3.0f));
    jittered[3].x = std::nextafter(1.0f, 2.0f);
    expectError(jittered, "all 10 points are (nearly) the same point");
    expectError(std::vector<glm::vec3>(4, glm::vec3(0.0f)), "all 4 points are (nearly) the same point");
}

TEST(ConvexHull, CollinearPointsAreRefused) {
    std::vector<glm::vec3> points;
    for (int i = 0; i < 20; ++i)
        points.push_back(glm::vec3(1.0f, 2.0f, 3.0f) * float(i) * 0.37f);
    expectError(points, "all 20 points are (nearly) on one line");
}

TEST(ConvexHull, CoplanarPointsAreRefused) {
    std::mt19937 rng(7);
    std::vector<glm::vec3> flat;
    for (int i = 0; i < 50; ++i)
        flat.push_back(glm::vec3{uniform(rng, -1, 1), uniform(rng, -1, 1), 0.5f});
    expectError(flat, "all 50 points are (nearly) on one plane");
    // A tilted plane: rounding leaves the points about FLT_EPSILON off it, within the tolerance.
    const glm::dmat3 r = randomRotation(rng);
    for (glm::vec3& p : flat)
        p = glm::vec3(r * glm::dvec3(p));
    expectError(flat, "all 50 points are (nearly) on one plane");
}

// ------------------------------------------------------------------ determinism and properties

TEST(ConvexHull, SamePointsGiveTheSameHullBitForBit) {
    for (unsigned seed = 1; seed <= 10; ++seed) {
        const auto points =
            seed % 2 ? sphereCloud(seed, 1000, 3.0) : boxWithClutter(seed, {1.0f, 2.0f, 3.0f});
        const std::vector<glm::vec3> copy = points;
        const HullBuild first = kz::buildConvexHull(points), second = kz::buildConvexHull(copy);
        ASSERT_TRUE(first.hull && second.hull);
        EXPECT_TRUE(sameHull(*first.hull, *second.hull)) << "seed " << seed;
    }
}

TEST(ConvexHull, RandomSetsGiveValidHullsThatHoldEveryPoint) {
    int built = 0;
    for (unsigned seed = 1; seed <= 3000; ++seed) {
        const auto points = randomSet(seed);
        const HullBuild build = kz::buildConvexHull(points);
        if (!build.hull) {
            // Only a grid, or a few flattish points with duplicates, can be flat by chance.
            EXPECT_TRUE(seed % 5 == 3 || (seed % 5 == 4 && points.size() < 10)) << "seed " << seed;
            EXPECT_NE(build.error.find("(nearly) on one"), std::string::npos) << build.error;
            continue;
        }
        ++built;
        ASSERT_TRUE(kz::isValid(*build.hull)) << "seed " << seed;
        ASSERT_TRUE(containsAll(*build.hull, points)) << "seed " << seed;
    }
    EXPECT_GT(built, 2900);
}

} // namespace
