// raycast(Ray, Triangle), raycastBarycentric and raycastPolygon: scenarios from the contract in
// raycast.hpp (including watertightness), then property tests against independent
// double-precision references: plane intersection + barycentric coordinates, Moller-Trumbore,
// and a fan triangulation for polygons.
#include "geom/geom.hpp"
#include "support/geom_reference.hpp"
#include "support/ray_test_support.hpp"
#include "support/thin_triangles.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <numbers>
#include <optional>
#include <random>
#include <span>
#include <vector>

namespace {

using namespace kz;
using namespace kz::raytest;

// In the plane z = 0; (b - a) x (c - a) points along +z.
const Triangle kTri{{0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}};
const Triangle kTriFlipped{kTri.a, kTri.c, kTri.b};

const glm::vec3 kUp{0.0f, 0.0f, 1.0f};
const glm::vec3 kDown{0.0f, 0.0f, -1.0f};

/// A ray from height `h` above (h > 0) or below the point (x, y, 0), straight at it.
Ray vertical(float x, float y, float h) {
    return Ray{{x, y, h}, {0.0f, 0.0f, h > 0.0f ? -1.0f : 1.0f}};
}

// =============================================================================================
// raycast(Ray, Triangle)

TEST(RayTriangle, RayFromTheFrontHitsWithNormalFacingTheOrigin) {
    const Ray ray = vertical(0.5f, 0.5f, 3.0f);
    const auto hit = raycast(ray, kTri);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 3.0f, kUp, Kind::Surface));
    ASSERT_TRUE(hit);
    EXPECT_TRUE(near(hit->point, {0.5f, 0.5f, 0.0f}, 1e-6));
}

TEST(RayTriangle, RayFromTheBackHitsWithNormalFlippedToFaceTheOrigin) {
    const Ray ray = vertical(0.5f, 0.5f, -3.0f);
    const auto hit = raycast(ray, kTri);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 3.0f, kDown, Kind::Surface));
    ASSERT_TRUE(hit);
    EXPECT_TRUE(near(hit->point, {0.5f, 0.5f, 0.0f}, 1e-6));
}

TEST(RayTriangle, BothWindingsAreHitFromBothSidesAlike) {
    for (const Triangle& tri : {kTri, kTriFlipped}) {
        SCOPED_TRACE(str(tri));
        const Ray above = vertical(0.25f, 1.0f, 2.0f);
        const Ray below = vertical(0.25f, 1.0f, -2.0f);
        EXPECT_TRUE(hitsAt(raycast(above, tri), above, kInf, 2.0f, kUp, Kind::Surface));
        EXPECT_TRUE(hitsAt(raycast(below, tri), below, kInf, 2.0f, kDown, Kind::Surface));
    }
}

TEST(RayTriangle, ObliqueRayHitsWhereItCrossesThePlane) {
    const Ray ray{{-1.0f, -1.0f, 5.0f}, {1.5f, 1.5f, -5.0f}};
    const auto hit = raycast(ray, kTri);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 1.0f, kUp, Kind::Surface));
    ASSERT_TRUE(hit);
    EXPECT_TRUE(near(hit->point, {0.5f, 0.5f, 0.0f}, 1e-6));
}

TEST(RayTriangle, TiltedTriangleIsHitWithItsUnitNormal) {
    const Triangle tri{{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    const glm::vec3 n = glm::normalize(glm::vec3(1.0f));
    const Ray fromOrigin{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(fromOrigin, tri), fromOrigin, kInf, 1.0f / 3.0f, -n, Kind::Surface));
    const Ray fromOutside{{1.0f, 1.0f, 1.0f}, {-1.0f, -1.0f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(fromOutside, tri), fromOutside, kInf, 2.0f / 3.0f, n, Kind::Surface));
}

TEST(RayTriangle, RayThroughAnEdgeHits) {
    for (const glm::vec2 p :
         {glm::vec2(1.0f, 0.0f), glm::vec2(0.0f, 1.0f), glm::vec2(1.0f, 1.0f), glm::vec2(0.5f, 1.5f)}) {
        for (const float h : {4.0f, -4.0f}) {
            const Ray ray = vertical(p.x, p.y, h);
            SCOPED_TRACE(str(ray));
            EXPECT_TRUE(hitsAt(raycast(ray, kTri), ray, kInf, 4.0f, h > 0.0f ? kUp : kDown, Kind::Surface));
            EXPECT_TRUE(
                hitsAt(raycast(ray, kTriFlipped), ray, kInf, 4.0f, h > 0.0f ? kUp : kDown, Kind::Surface));
        }
    }
}

TEST(RayTriangle, RayThroughAVertexHits) {
    for (const glm::vec3& v : {kTri.a, kTri.b, kTri.c}) {
        for (const float h : {4.0f, -4.0f}) {
            const Ray ray = vertical(v.x, v.y, h);
            SCOPED_TRACE(str(ray));
            EXPECT_TRUE(hitsAt(raycast(ray, kTri), ray, kInf, 4.0f, h > 0.0f ? kUp : kDown, Kind::Surface));
        }
    }
    // Obliquely through vertex b = (2, 0, 0).
    const Ray oblique{{1.0f, 0.5f, 2.0f}, {0.5f, -0.25f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(oblique, kTri), oblique, kInf, 2.0f, kUp, Kind::Surface));
}

TEST(RayTriangle, RayJustOutsideAnEdgeOrAVertexMisses) {
    for (const glm::vec2 p :
         {glm::vec2(1.0f, -0.001f), glm::vec2(-0.001f, 1.0f), glm::vec2(1.001f, 1.001f),
          glm::vec2(2.001f, 0.0f), glm::vec2(0.0f, 2.001f), glm::vec2(-0.001f, -0.001f)}) {
        const Ray ray = vertical(p.x, p.y, 4.0f);
        SCOPED_TRACE(str(ray));
        EXPECT_TRUE(misses(raycast(ray, kTri)));
    }
}

TEST(RayTriangle, RayBesideTheTriangleMisses) {
    EXPECT_TRUE(misses(raycast(vertical(1.5f, 1.5f, 3.0f), kTri)));
    EXPECT_TRUE(misses(raycast(vertical(-1.0f, 0.5f, -3.0f), kTri)));
    EXPECT_TRUE(misses(raycast(Ray{{0.5f, 0.5f, 3.0f}, {1.0f, 1.0f, -1.0f}}, kTri)));
}

TEST(RayTriangle, TriangleBehindTheOriginIsNotHit) {
    EXPECT_TRUE(misses(raycast(Ray{{0.5f, 0.5f, 3.0f}, kUp}, kTri)));
    EXPECT_TRUE(misses(raycast(Ray{{0.5f, 0.5f, -3.0f}, {0.1f, 0.0f, -1.0f}}, kTri)));
}

TEST(RayTriangle, RayParallelToTheTriangleMisses) {
    EXPECT_TRUE(misses(raycast(Ray{{-1.0f, 0.5f, 1.0f}, {1.0f, 0.0f, 0.0f}}, kTri)));
    EXPECT_TRUE(misses(raycast(Ray{{0.5f, -1.0f, -0.5f}, {0.0f, 3.0f, 0.0f}}, kTri)));
}

TEST(RayTriangle, RayLyingInTheTrianglesPlaneMisses) {
    // Crossing the triangle within its plane, and starting inside it.
    EXPECT_TRUE(misses(raycast(Ray{{-1.0f, 0.5f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kTri)));
    EXPECT_TRUE(misses(raycast(Ray{{0.5f, 0.5f, 0.0f}, {1.0f, 1.0f, 0.0f}}, kTri)));
    EXPECT_TRUE(misses(raycast(Ray{{3.0f, 3.0f, 0.0f}, {-1.0f, -1.0f, 0.0f}}, kTri)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, -1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}}, kTri))); // along edge ca
}

TEST(RayTriangle, RayStartingOnTheTriangleHitsAtZeroFacingTheOrigin) {
    const Ray up{{0.5f, 0.5f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    const auto hit = raycast(up, kTri);
    EXPECT_TRUE(hitsAt(hit, up, kInf, 0.0f, kDown, Kind::Surface));
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->point, up.origin);
    const Ray down{{0.5f, 0.5f, 0.0f}, {0.3f, 0.2f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(down, kTri), down, kInf, 0.0f, kUp, Kind::Surface));
    EXPECT_TRUE(hitsAt(raycast(up, kTri, 0.0f), up, 0.0f, 0.0f, kDown, Kind::Surface));
}

TEST(RayTriangle, HitExactlyAtTMaxCountsAndJustBeyondDoesNot) {
    const Ray ray = vertical(0.5f, 0.5f, 3.0f);
    EXPECT_TRUE(hitsAt(raycast(ray, kTri, 3.0f), ray, 3.0f, 3.0f, kUp, Kind::Surface));
    EXPECT_TRUE(misses(raycast(ray, kTri, 2.999f)));
    EXPECT_TRUE(misses(raycast(ray, kTri, std::nextafter(3.0f, 0.0f))));
    EXPECT_TRUE(misses(raycast(ray, kTri, 0.0f)));
    EXPECT_TRUE(hitsAt(raycast(ray, kTri, kInf), ray, kInf, 3.0f, kUp, Kind::Surface));
    EXPECT_TRUE(misses(raycast(ray, kTri, -1.0f)));
    EXPECT_TRUE(misses(raycast(ray, kTri, -kInf)));
    EXPECT_TRUE(misses(raycast(ray, kTri, kNaN)));
}

TEST(RayTriangle, TScalesInverselyWithDirectionLength) {
    const glm::vec3 origin{-2.0f, 3.0f, 4.0f};
    const glm::vec3 unit = glm::normalize(glm::vec3(0.6f, 0.7f, 0.0f) - origin);
    const auto base = raycast(Ray{origin, unit}, kTri);
    ASSERT_TRUE(base);
    for (const float k : {0.01f, 0.5f, 3.0f, 100.0f}) {
        const Ray ray{origin, unit * k};
        SCOPED_TRACE(str(ray));
        const auto hit = raycast(ray, kTri);
        EXPECT_TRUE(hitsAt(hit, ray, kInf, base->t / k, kUp, Kind::Surface));
        if (hit) {
            EXPECT_TRUE(near(hit->point, base->point, 1e-5));
        }
    }
    const Ray slow{{0.5f, 0.5f, 3.0f}, {0.0f, 0.0f, -0.5f}};
    EXPECT_TRUE(hitsAt(raycast(slow, kTri), slow, kInf, 6.0f, kUp, Kind::Surface));
}

TEST(RayTriangle, ZeroAreaTriangleNeverHits) {
    const Triangle collinear{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {2.0f, 2.0f, 0.0f}};
    EXPECT_TRUE(misses(raycast(vertical(1.0f, 1.0f, 3.0f), collinear)));
    EXPECT_TRUE(misses(raycast(Ray{{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}}, collinear)));
    const Triangle repeated{{1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {2.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(misses(raycast(vertical(1.0f, 1.0f, 3.0f), repeated)));
    const Triangle point{{1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}};
    EXPECT_TRUE(misses(raycast(vertical(1.0f, 1.0f, 3.0f), point)));
    EXPECT_TRUE(misses(raycast(Ray{{1.0f, 1.0f, 0.0f}, kUp}, point)));
}

TEST(RayTriangle, NonFiniteVertexNeverHits) {
    const Ray ray = vertical(0.5f, 0.5f, 3.0f);
    for (int v = 0; v < 3; ++v) {
        for (int i = 0; i < 3; ++i) {
            for (const float bad : {kNaN, kInf, -kInf}) {
                Triangle tri = kTri;
                (v == 0 ? tri.a : v == 1 ? tri.b : tri.c)[i] = bad;
                SCOPED_TRACE(str(tri));
                EXPECT_TRUE(misses(raycast(ray, tri)));
                EXPECT_FALSE(raycastBarycentric(ray, tri).has_value());
            }
        }
    }
}

TEST(RayTriangle, NonFiniteOrZeroRayMisses) {
    const Ray ray = vertical(0.5f, 0.5f, 3.0f);
    for (int i = 0; i < 3; ++i) {
        for (const float bad : {kNaN, kInf, -kInf}) {
            SCOPED_TRACE(testing::Message() << i << " " << bad);
            Ray r = ray;
            r.origin[i] = bad;
            EXPECT_TRUE(misses(raycast(r, kTri)));
            r = ray;
            r.dir[i] = bad;
            EXPECT_TRUE(misses(raycast(r, kTri)));
        }
    }
    EXPECT_TRUE(misses(raycast(Ray{ray.origin, {0.0f, 0.0f, 0.0f}}, kTri)));
    EXPECT_TRUE(misses(raycast(Ray{{0.5f, 0.5f, 0.0f}, {0.0f, 0.0f, 0.0f}}, kTri)));
}

TEST(RayTriangle, HitWhoseTWouldOverflowIsNoHit) {
    const Triangle far{{-1.0f, -1.0f, 1e30f}, {1.0f, -1.0f, 1e30f}, {0.0f, 1.0f, 1e30f}};
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1e-10f}}, far)));
}

// ---------------------------------------------------------------------------------------------
// Watertightness

TEST(RayTriangle, RayThroughASharedEdgeHitsAtLeastOneTriangle) {
    // Two triangles forming the unit square, sharing the diagonal (1, 0, 0) - (0, 1, 0).
    const Triangle lower{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    const Triangle upper{{1.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
    const Ray rays[] = {
        vertical(0.5f, 0.5f, 1.0f), vertical(0.25f, 0.75f, -2.0f),
        Ray{{0.25f, 0.375f, 1.0f}, {0.25f, 0.125f, -1.0f}},  // through (0.5, 0.5, 0) at t = 1
        Ray{{1.375f, -0.375f, -1.0f}, {-0.5f, 0.5f, 0.5f}}}; // through (0.375, 0.625, 0) at t = 2
    const float ts[] = {1.0f, 2.0f, 1.0f, 2.0f};
    for (int i = 0; i < 4; ++i) {
        SCOPED_TRACE(str(rays[i]));
        const auto a = raycast(rays[i], lower);
        const auto b = raycast(rays[i], upper);
        EXPECT_TRUE(a || b) << "the ray slipped through the shared edge";
        for (const auto& h : {a, b}) {
            if (h) {
                EXPECT_TRUE(isWellFormedSurfaceHit(*h, rays[i], kInf));
                EXPECT_FLOAT_EQ(h->t, ts[i]);
            }
        }
    }
}

TEST(RayTriangle, RayThroughAFoldedSharedEdgeHitsAtLeastOneTriangle) {
    // Not coplanar: the two triangles meet at the edge (0, 0, 0) - (4, 4, 0) at an angle.
    const Triangle first{{0.0f, 0.0f, 0.0f}, {4.0f, 4.0f, 0.0f}, {4.0f, 0.0f, 1.0f}};
    const Triangle second{{4.0f, 4.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, {0.0f, 4.0f, -1.0f}};
    const Ray rays[] = {vertical(2.0f, 2.0f, 8.0f), Ray{{1.0f, 2.5f, 4.0f}, {1.0f, -0.5f, -4.0f}},
                        vertical(1.0f, 1.0f, -3.0f), Ray{{3.0f, 3.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}};
    for (const auto& ray : rays) {
        SCOPED_TRACE(str(ray));
        const auto a = raycast(ray, first);
        const auto b = raycast(ray, second);
        EXPECT_TRUE(a || b) << "the ray slipped through the shared edge";
        for (const auto& h : {a, b}) {
            if (h) {
                EXPECT_TRUE(isWellFormedSurfaceHit(*h, ray, kInf));
            }
        }
    }
}

TEST(RayTriangle, RayThroughASharedVertexHitsAtLeastOneTriangle) {
    // Four triangles around the origin, one per quadrant.
    const glm::vec3 o{0.0f, 0.0f, 0.0f};
    const glm::vec3 ring[] = {
        {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {-1.0f, 0.0f, 0.0f}, {0.0f, -1.0f, 0.0f}};
    const Ray rays[] = {vertical(0.0f, 0.0f, 2.0f), vertical(0.0f, 0.0f, -2.0f),
                        Ray{{-0.5f, 0.25f, 1.0f}, {0.5f, -0.25f, -1.0f}},
                        Ray{{3.0f, 2.0f, -1.0f}, {-3.0f, -2.0f, 1.0f}}};
    const float ts[] = {2.0f, 2.0f, 1.0f, 1.0f};
    for (int r = 0; r < 4; ++r) {
        const Ray& ray = rays[r];
        SCOPED_TRACE(str(ray));
        int hits = 0;
        for (int i = 0; i < 4; ++i) {
            const auto h = raycast(ray, Triangle{o, ring[i], ring[(i + 1) % 4]});
            if (h) {
                ++hits;
                EXPECT_TRUE(isWellFormedSurfaceHit(*h, ray, kInf));
                EXPECT_FLOAT_EQ(h->t, ts[r]);
            }
        }
        EXPECT_GE(hits, 1) << "the ray slipped through the shared vertex";
    }
}

// =============================================================================================
// raycastBarycentric

TEST(RayTriangleBarycentric, VerticesHaveUnitWeights) {
    const struct {
        glm::vec3 p;
        float u, v;
    } cases[] = {{kTri.a, 0.0f, 0.0f}, {kTri.b, 1.0f, 0.0f}, {kTri.c, 0.0f, 1.0f}};
    for (const auto& c : cases) {
        const Ray ray = vertical(c.p.x, c.p.y, 3.0f);
        SCOPED_TRACE(str(ray));
        const auto hit = raycastBarycentric(ray, kTri);
        ASSERT_TRUE(hit);
        EXPECT_NEAR(hit->u, c.u, 1e-6);
        EXPECT_NEAR(hit->v, c.v, 1e-6);
        EXPECT_FLOAT_EQ(hit->t, 3.0f);
    }
}

TEST(RayTriangleBarycentric, CentroidAndEdgeMidpointsHaveTheExpectedWeights) {
    const Triangle tri{{1.0f, 1.0f, 1.0f}, {4.0f, 1.0f, 1.0f}, {1.0f, 4.0f, 1.0f}};
    const auto centroid = raycastBarycentric(Ray{{2.0f, 2.0f, 5.0f}, kDown}, tri);
    ASSERT_TRUE(centroid);
    EXPECT_NEAR(centroid->u, 1.0f / 3.0f, 1e-6);
    EXPECT_NEAR(centroid->v, 1.0f / 3.0f, 1e-6);
    EXPECT_FLOAT_EQ(centroid->t, 4.0f);
    const auto midBC = raycastBarycentric(Ray{{2.5f, 2.5f, -1.0f}, {0.0f, 0.0f, 0.5f}}, tri);
    ASSERT_TRUE(midBC);
    EXPECT_NEAR(midBC->u, 0.5f, 1e-6);
    EXPECT_NEAR(midBC->v, 0.5f, 1e-6);
    EXPECT_FLOAT_EQ(midBC->t, 4.0f);
    EXPECT_TRUE(near(midBC->normal, kDown, 1e-6));
}

TEST(RayTriangleBarycentric, WeightsReconstructTheHitPoint) {
    const Triangle tri{{1.0f, -2.0f, 0.5f}, {3.0f, 1.0f, -1.0f}, {-1.0f, 2.0f, 2.0f}};
    const glm::vec3 target = tri.a + 0.3f * (tri.b - tri.a) + 0.4f * (tri.c - tri.a);
    const Ray ray{{5.0f, 5.0f, 5.0f}, target - glm::vec3(5.0f)};
    const auto hit = raycastBarycentric(ray, tri);
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->u, 0.3f, 1e-5);
    EXPECT_NEAR(hit->v, 0.4f, 1e-5);
    EXPECT_NEAR(hit->t, 1.0f, 1e-5);
    const glm::vec3 fromWeights = tri.a + hit->u * (tri.b - tri.a) + hit->v * (tri.c - tri.a);
    EXPECT_TRUE(near(fromWeights, ray.origin + hit->t * ray.dir, 1e-5));
    EXPECT_GE(hit->u, 0.0f);
    EXPECT_GE(hit->v, 0.0f);
    EXPECT_LE(hit->u + hit->v, 1.0f + 1e-6f);
}

TEST(RayTriangleBarycentric, NeedlesAndSliversFarAwayAreHitOnTheTriangle) {
    // A needle's short edge is decided from vertices hundreds of times farther away than its
    // length: in float the hit point could land units beside the triangle (fuzz_obj found one 1.8
    // units off a needle 600 from the ray origin). The hit point must lie on the triangle to about
    // one float ulp of the coordinates, with weights in range that rebuild it.
    std::mt19937 rng(20261124);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int hits = 0;
    for (int i = 0; i < 100000; ++i) {
        const auto kind = i % 2 == 0 ? thintest::ThinKind::Needle : thintest::ThinKind::Sliver;
        const thintest::ThinCase c = thintest::randomThinCase(rng, kind);
        // From 10 to 1000 away, aimed at a point of the triangle.
        double wb = unit(rng), wc = unit(rng);
        if (wb + wc > 1.0) wb = 1.0 - wb, wc = 1.0 - wc;
        const glm::dvec3 a(c.tri.a), b(c.tri.b), cc(c.tri.c);
        const glm::dvec3 target = a + wb * (b - a) + wc * (cc - a);
        const glm::dvec3 away = glm::normalize(glm::dvec3(unit(rng), unit(rng), unit(rng)) - 0.5);
        const glm::dvec3 from = target + away * (10.0 + 990.0 * unit(rng));
        const Ray ray{glm::vec3(from), glm::vec3(target - from)};
        const auto hit = raycastBarycentric(ray, c.tri);
        if (!hit) continue;
        ++hits;
        double scale = 0.0;
        for (const glm::dvec3& v : {a, b, cc, glm::dvec3(ray.origin)})
            scale = std::max({scale, std::abs(v.x), std::abs(v.y), std::abs(v.z)});
        const double tolerance = 2.0 * FLT_EPSILON * scale;
        SCOPED_TRACE(str(ray) + " " + str(c.tri));
        const glm::dvec3 point = glm::dvec3(ray.origin) + double(hit->t) * glm::dvec3(ray.dir);
        ASSERT_LE(glm::length(point - test::refClosestTriangle(point, a, b, cc)), tolerance);
        ASSERT_GE(hit->u, 0.0f);
        ASSERT_GE(hit->v, 0.0f);
        ASSERT_LE(hit->u + hit->v, 1.0f + 1e-6f);
        const glm::dvec3 fromWeights = a + double(hit->u) * (b - a) + double(hit->v) * (cc - a);
        ASSERT_LE(glm::length(fromWeights - point),
                  tolerance + 1e-6 * std::max(glm::length(b - a), glm::length(cc - a)));
    }
    EXPECT_GT(hits, 95000) << "rays aimed inside a triangle hit it";
}

TEST(RayTriangleBarycentric, AgreesWithRaycastOnHitsAndMisses) {
    const Ray rays[] = {vertical(0.5f, 0.5f, 3.0f), vertical(0.5f, 0.5f, -3.0f),
                        vertical(1.0f, 1.0f, 2.0f), vertical(1.5f, 1.5f, 3.0f),
                        vertical(0.5f, 0.5f, 0.0f), {{-1.0f, 0.5f, 0.0f}, {1.0f, 0.0f, 0.0f}},
                        {{0.5f, 0.5f, 3.0f}, kUp},  {{-1.0f, -1.0f, 5.0f}, {1.5f, 1.5f, -5.0f}}};
    for (const Triangle& tri : {kTri, kTriFlipped}) {
        for (const auto& ray : rays) {
            SCOPED_TRACE(str(ray) + " " + str(tri));
            const auto plain = raycast(ray, tri);
            const auto bary = raycastBarycentric(ray, tri);
            ASSERT_EQ(plain.has_value(), bary.has_value()) << str(plain) << " vs " << str(bary);
            if (plain) {
                EXPECT_EQ(plain->t, bary->t);
                EXPECT_TRUE(near(plain->normal, bary->normal, 1e-6));
                EXPECT_TRUE(isFinite(bary->u) && isFinite(bary->v));
            }
        }
    }
}

TEST(RayTriangleBarycentric, SwappingTheLastTwoVerticesSwapsTheWeights) {
    const Ray ray{{0.25f, 0.5f, 3.0f}, kDown};
    const auto abc = raycastBarycentric(ray, kTri);
    const auto acb = raycastBarycentric(ray, kTriFlipped);
    ASSERT_TRUE(abc && acb);
    EXPECT_NEAR(abc->u, 0.125f, 1e-6); // weight of b = (2, 0, 0): x / 2
    EXPECT_NEAR(abc->v, 0.25f, 1e-6);  // weight of c = (0, 2, 0): y / 2
    EXPECT_NEAR(acb->u, abc->v, 1e-6);
    EXPECT_NEAR(acb->v, abc->u, 1e-6);
    EXPECT_TRUE(near(abc->normal, kUp, 1e-6));
    EXPECT_TRUE(near(acb->normal, kUp, 1e-6));
}

TEST(RayTriangleBarycentric, MissesAndInvalidInputGiveNothing) {
    const Ray ray = vertical(0.5f, 0.5f, 3.0f);
    EXPECT_FALSE(raycastBarycentric(ray, kTri, 2.999f).has_value());
    EXPECT_TRUE(raycastBarycentric(ray, kTri, 3.0f).has_value());
    EXPECT_FALSE(raycastBarycentric(ray, kTri, -1.0f).has_value());
    EXPECT_FALSE(raycastBarycentric(ray, kTri, kNaN).has_value());
    EXPECT_FALSE(raycastBarycentric(Ray{ray.origin, glm::vec3(0.0f)}, kTri).has_value());
    EXPECT_FALSE(raycastBarycentric(Ray{{kNaN, 0.5f, 3.0f}, kDown}, kTri).has_value());
    EXPECT_FALSE(raycastBarycentric(vertical(1.5f, 1.5f, 3.0f), kTri).has_value());
    EXPECT_FALSE(raycastBarycentric(Ray{{-1.0f, 0.5f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kTri).has_value());
    const Triangle collinear{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {2.0f, 2.0f, 0.0f}};
    EXPECT_FALSE(raycastBarycentric(vertical(1.0f, 1.0f, 3.0f), collinear).has_value());
}

// =============================================================================================
// raycastPolygon

const std::vector<glm::vec3> kSquare{
    {-1.0f, -1.0f, 0.0f}, {1.0f, -1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {-1.0f, 1.0f, 0.0f}};
const std::vector<glm::vec3> kSquareCw{kSquare.rbegin(), kSquare.rend()};

TEST(RayPolygon, SquareIsHitFromBothSidesInBothWindings) {
    for (const auto* poly : {&kSquare, &kSquareCw}) {
        const Ray above = vertical(0.25f, -0.5f, 3.0f);
        const Ray below = vertical(0.25f, -0.5f, -3.0f);
        const auto a = raycastPolygon(above, *poly);
        EXPECT_TRUE(hitsAt(a, above, kInf, 3.0f, kUp, Kind::Surface));
        EXPECT_TRUE(hitsAt(raycastPolygon(below, *poly), below, kInf, 3.0f, kDown, Kind::Surface));
        ASSERT_TRUE(a);
        EXPECT_TRUE(near(a->point, {0.25f, -0.5f, 0.0f}, 1e-6));
    }
}

TEST(RayPolygon, ObliqueRayHitsWhereItCrossesThePlane) {
    const Ray ray{{-2.0f, 1.0f, 4.0f}, {1.0f, -0.5f, -2.0f}};
    for (const auto* poly : {&kSquare, &kSquareCw}) {
        EXPECT_TRUE(hitsAt(raycastPolygon(ray, *poly), ray, kInf, 2.0f, kUp, Kind::Surface));
    }
}

TEST(RayPolygon, RayThroughAnEdgeOrAVertexHits) {
    for (const auto* poly : {&kSquare, &kSquareCw}) {
        for (const glm::vec2 p : {glm::vec2(1.0f, 0.0f), glm::vec2(0.0f, -1.0f), glm::vec2(-1.0f, 0.5f),
                                  glm::vec2(1.0f, 1.0f), glm::vec2(-1.0f, -1.0f), glm::vec2(-1.0f, 1.0f)}) {
            const Ray ray = vertical(p.x, p.y, 2.0f);
            SCOPED_TRACE(str(ray));
            EXPECT_TRUE(hitsAt(raycastPolygon(ray, *poly), ray, kInf, 2.0f, kUp, Kind::Surface));
        }
    }
}

TEST(RayPolygon, RayJustOutsideMisses) {
    for (const auto* poly : {&kSquare, &kSquareCw}) {
        for (const glm::vec2 p :
             {glm::vec2(1.001f, 0.0f), glm::vec2(0.0f, -1.001f), glm::vec2(1.001f, 1.001f),
              glm::vec2(-1.0f, 1.001f), glm::vec2(3.0f, 0.0f)}) {
            const Ray ray = vertical(p.x, p.y, 2.0f);
            SCOPED_TRACE(str(ray));
            EXPECT_TRUE(misses(raycastPolygon(ray, *poly)));
        }
    }
}

TEST(RayPolygon, PolygonBehindTheOriginIsNotHit) {
    EXPECT_TRUE(misses(raycastPolygon(Ray{{0.0f, 0.0f, 2.0f}, kUp}, kSquare)));
    EXPECT_TRUE(misses(raycastPolygon(Ray{{0.0f, 0.0f, -2.0f}, kDown}, kSquareCw)));
}

TEST(RayPolygon, RayParallelToThePolygonMisses) {
    EXPECT_TRUE(misses(raycastPolygon(Ray{{-3.0f, 0.0f, 1.0f}, {1.0f, 0.0f, 0.0f}}, kSquare)));
    EXPECT_TRUE(misses(raycastPolygon(Ray{{-3.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kSquare)));
    EXPECT_TRUE(misses(raycastPolygon(Ray{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 0.0f}}, kSquareCw)));
}

TEST(RayPolygon, RayStartingOnThePolygonHitsAtZero) {
    const Ray ray{{0.5f, 0.5f, 0.0f}, {0.0f, 1.0f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycastPolygon(ray, kSquare), ray, kInf, 0.0f, kUp, Kind::Surface));
    EXPECT_TRUE(hitsAt(raycastPolygon(ray, kSquareCw, 0.0f), ray, 0.0f, 0.0f, kUp, Kind::Surface));
}

TEST(RayPolygon, HitExactlyAtTMaxCountsAndJustBeyondDoesNot) {
    const Ray ray = vertical(0.5f, 0.5f, 3.0f);
    EXPECT_TRUE(hitsAt(raycastPolygon(ray, kSquare, 3.0f), ray, 3.0f, 3.0f, kUp, Kind::Surface));
    EXPECT_TRUE(misses(raycastPolygon(ray, kSquare, 2.999f)));
    EXPECT_TRUE(misses(raycastPolygon(ray, kSquare, std::nextafter(3.0f, 0.0f))));
    EXPECT_TRUE(misses(raycastPolygon(ray, kSquare, -1.0f)));
    EXPECT_TRUE(misses(raycastPolygon(ray, kSquare, kNaN)));
    EXPECT_TRUE(hitsAt(raycastPolygon(ray, kSquare, kInf), ray, kInf, 3.0f, kUp, Kind::Surface));
}

TEST(RayPolygon, TScalesInverselyWithDirectionLength) {
    const Ray slow{{0.5f, 0.5f, 3.0f}, {0.0f, 0.0f, -0.25f}};
    EXPECT_TRUE(hitsAt(raycastPolygon(slow, kSquare), slow, kInf, 12.0f, kUp, Kind::Surface));
    const Ray fast{{0.5f, 0.5f, 3.0f}, {0.0f, 0.0f, -12.0f}};
    EXPECT_TRUE(hitsAt(raycastPolygon(fast, kSquare), fast, kInf, 0.25f, kUp, Kind::Surface));
}

TEST(RayPolygon, FewerThanThreeVerticesNeverHit) {
    const Ray ray = vertical(0.0f, 0.0f, 2.0f);
    EXPECT_TRUE(misses(raycastPolygon(ray, std::span<const glm::vec3>())));
    EXPECT_TRUE(misses(raycastPolygon(ray, std::span<const glm::vec3>(kSquare.data(), 1))));
    EXPECT_TRUE(misses(raycastPolygon(ray, std::span<const glm::vec3>(kSquare.data(), 2))));
    const glm::vec3 segment[] = {{-1.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(misses(raycastPolygon(ray, segment)));
    EXPECT_TRUE(raycastPolygon(vertical(0.5f, -0.5f, 2.0f), std::span<const glm::vec3>(kSquare.data(), 3)));
}

TEST(RayPolygon, ZeroAreaPolygonNeverHits) {
    const glm::vec3 collinear[] = {
        {-1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(misses(raycastPolygon(vertical(0.0f, 0.0f, 2.0f), collinear)));
    const glm::vec3 point[] = {{1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}};
    EXPECT_TRUE(misses(raycastPolygon(vertical(1.0f, 1.0f, 2.0f), point)));
    const glm::vec3 backAndForth[] = {{-1.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {-1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(misses(raycastPolygon(vertical(0.0f, 0.0f, 2.0f), backAndForth)));
}

TEST(RayPolygon, NonFiniteVertexOrRayNeverHits) {
    const Ray ray = vertical(0.0f, 0.0f, 2.0f);
    for (std::size_t v = 0; v < kSquare.size(); ++v) {
        for (const float bad : {kNaN, kInf, -kInf}) {
            std::vector<glm::vec3> poly = kSquare;
            poly[v].z = bad;
            SCOPED_TRACE(testing::Message() << v << " " << bad);
            EXPECT_TRUE(misses(raycastPolygon(ray, poly)));
        }
    }
    EXPECT_TRUE(misses(raycastPolygon(Ray{{kNaN, 0.0f, 2.0f}, kDown}, kSquare)));
    EXPECT_TRUE(misses(raycastPolygon(Ray{{0.0f, 0.0f, 2.0f}, {0.0f, kInf, -1.0f}}, kSquare)));
    EXPECT_TRUE(misses(raycastPolygon(Ray{{0.0f, 0.0f, 2.0f}, glm::vec3(0.0f)}, kSquare)));
}

TEST(RayPolygon, PolygonWhoseFirstVerticesAreCollinearIsStillHit) {
    // Newell's method does not rely on the first three vertices spanning the plane.
    const glm::vec3 poly[] = {{-1.0f, -1.0f, 0.0f},
                              {0.0f, -1.0f, 0.0f},
                              {1.0f, -1.0f, 0.0f},
                              {1.0f, 1.0f, 0.0f},
                              {-1.0f, 1.0f, 0.0f}};
    const Ray ray = vertical(0.5f, 0.5f, 2.0f);
    EXPECT_TRUE(hitsAt(raycastPolygon(ray, poly), ray, kInf, 2.0f, kUp, Kind::Surface));
    EXPECT_TRUE(misses(raycastPolygon(vertical(0.5f, 1.5f, 2.0f), poly)));
}

TEST(RayPolygon, TiltedHexagonIsHitInsideAndMissedOutside) {
    const glm::mat3 r = glm::mat3_cast(glm::angleAxis(0.8f, glm::normalize(glm::vec3(1.0f, -2.0f, 0.5f))));
    const glm::vec3 centre{1.0f, 2.0f, -3.0f};
    std::vector<glm::vec3> hexagon;
    for (int k = 0; k < 6; ++k) {
        const float angle = static_cast<float>(k) * std::numbers::pi_v<float> / 3.0f;
        hexagon.push_back(centre + r * glm::vec3(2.0f * std::cos(angle), 2.0f * std::sin(angle), 0.0f));
    }
    const glm::vec3 n = r[2];
    for (int winding = 0; winding < 2; ++winding) {
        SCOPED_TRACE(winding);
        // Inside: within the inradius sqrt(3) in every direction.
        for (const glm::vec3 local :
             {glm::vec3(0.0f), glm::vec3(1.6f, 0.0f, 0.0f), glm::vec3(-0.8f, 1.3f, 0.0f)}) {
            const Ray front{centre + r * local + 5.0f * n, -2.0f * n};
            EXPECT_TRUE(hitsAt(raycastPolygon(front, hexagon), front, kInf, 2.5f, n, Kind::Surface));
            const Ray back{centre + r * local - 5.0f * n, 0.5f * n};
            EXPECT_TRUE(hitsAt(raycastPolygon(back, hexagon), back, kInf, 10.0f, -n, Kind::Surface));
        }
        // Outside: beyond an edge midpoint (distance sqrt(3)) and beyond a vertex (distance 2).
        const glm::vec3 outside[] = {r * glm::vec3(0.0f, 1.8f, 0.0f), r * glm::vec3(2.1f, 0.0f, 0.0f)};
        for (const auto& offset : outside) {
            EXPECT_TRUE(misses(raycastPolygon(Ray{centre + offset + 5.0f * n, -n}, hexagon)));
        }
        std::reverse(hexagon.begin(), hexagon.end());
    }
}

TEST(RayPolygon, TriangleAsPolygonAgreesWithRaycastTriangle) {
    const Triangle tri{{1.0f, -2.0f, 0.5f}, {3.0f, 1.0f, -1.0f}, {-1.0f, 2.0f, 2.0f}};
    const glm::vec3 poly[] = {tri.a, tri.b, tri.c};
    const auto at = [&](float u, float v) { return tri.a + u * (tri.b - tri.a) + v * (tri.c - tri.a); };
    const Ray rays[] = {{{5.0f, 5.0f, 5.0f}, at(0.3f, 0.4f) - glm::vec3(5.0f)},
                        {{-5.0f, -5.0f, -5.0f}, at(0.1f, 0.2f) + glm::vec3(5.0f)},
                        {{5.0f, 5.0f, 5.0f}, at(0.7f, 0.6f) - glm::vec3(5.0f)}};
    const bool hit[] = {true, true, false};
    for (int i = 0; i < 3; ++i) {
        const Ray& ray = rays[i];
        SCOPED_TRACE(str(ray));
        const auto a = raycast(ray, tri);
        const auto b = raycastPolygon(ray, poly);
        EXPECT_EQ(a.has_value(), hit[i]);
        ASSERT_EQ(a.has_value(), b.has_value()) << str(a) << " vs " << str(b);
        if (a) {
            EXPECT_TRUE(hitsAt(b, ray, kInf, a->t, a->normal, Kind::Surface, 1e-5));
        }
    }
}

// =============================================================================================
// Property tests

struct RefTriHit {
    double t, u, v;
    glm::dvec3 normal;
};

struct TriReference {
    std::optional<RefTriHit> hit;
    bool illConditioned = false;
};

/// Reference 1: the plane through the triangle, then barycentric coordinates of the plane point
/// (Cramer's rule on the edge vectors), all in double.
TriReference referencePlaneBarycentric(const Ray& ray, const Triangle& tri, float tMax) {
    const glm::dvec3 o = toD(ray.origin), d = toD(ray.dir);
    const glm::dvec3 a = toD(tri.a), b = toD(tri.b), c = toD(tri.c);
    TriReference ref;
    const glm::dvec3 n = glm::cross(b - a, c - a);
    const double nd = glm::dot(n, d);
    const double cosine = nd / (glm::length(n) * glm::length(d));
    if (std::abs(cosine) < 1e-2) ref.illConditioned = true;
    if (nd == 0.0) return ref;
    const double scale = glm::length(o - a) + glm::length(b - a) + glm::length(c - a);
    const double dist = glm::dot(n, a - o) / glm::length(n);
    if (std::abs(dist) < 1e-2 * scale) ref.illConditioned = true; // origin close to the plane
    const double t = glm::dot(n, a - o) / nd;
    if (t < 0.0) return ref;
    const glm::dvec3 p = o + t * d;
    const glm::dvec3 e0 = b - a, e1 = c - a, e2 = p - a;
    const double d00 = glm::dot(e0, e0), d01 = glm::dot(e0, e1), d11 = glm::dot(e1, e1);
    const double d20 = glm::dot(e2, e0), d21 = glm::dot(e2, e1);
    const double denom = d00 * d11 - d01 * d01;
    const double u = (d11 * d20 - d01 * d21) / denom;
    const double v = (d00 * d21 - d01 * d20) / denom;
    const double w = 1.0 - u - v;
    const double margin = 1e-3 * std::max(1.0, 0.1 / std::abs(cosine));
    if (std::min({u, v, w}) >= -margin && std::min({u, v, w}) <= margin) ref.illConditioned = true;
    if (u < 0.0 || v < 0.0 || w < 0.0) return ref;
    if (std::abs(t - static_cast<double>(tMax)) <= 1e-3 * t) ref.illConditioned = true;
    if (t > static_cast<double>(tMax)) return ref;
    ref.hit = RefTriHit{t, u, v, (nd > 0.0 ? -1.0 : 1.0) * glm::normalize(n)};
    return ref;
}

/// Reference 2: Moller-Trumbore in double (no conditioning: reference 1 judges that).
std::optional<RefTriHit> referenceMollerTrumbore(const Ray& ray, const Triangle& tri, float tMax) {
    const glm::dvec3 o = toD(ray.origin), d = toD(ray.dir);
    const glm::dvec3 a = toD(tri.a), b = toD(tri.b), c = toD(tri.c);
    const glm::dvec3 e1 = b - a, e2 = c - a;
    const glm::dvec3 pvec = glm::cross(d, e2);
    const double det = glm::dot(e1, pvec);
    if (det == 0.0) return std::nullopt;
    const double inv = 1.0 / det;
    const glm::dvec3 tvec = o - a;
    const double u = glm::dot(tvec, pvec) * inv;
    if (u < 0.0 || u > 1.0) return std::nullopt;
    const glm::dvec3 qvec = glm::cross(tvec, e1);
    const double v = glm::dot(d, qvec) * inv;
    if (v < 0.0 || u + v > 1.0) return std::nullopt;
    const double t = glm::dot(e2, qvec) * inv;
    if (t < 0.0 || t > static_cast<double>(tMax)) return std::nullopt;
    glm::dvec3 n = glm::normalize(glm::cross(e1, e2));
    if (glm::dot(n, d) > 0.0) n = -n;
    return RefTriHit{t, u, v, n};
}

/// A well-shaped random triangle: resampled until 4 sqrt(3) area / (sum of squared edges),
/// which is 1 for an equilateral triangle, is at least 0.1.
Triangle randomTriangle(Random& rng) {
    for (;;) {
        const glm::dvec3 centre = rng.inBox(5.0);
        const double size = rng.uniform(0.3, 4.0);
        const Triangle tri{glm::vec3(centre + rng.inBall(size)), glm::vec3(centre + rng.inBall(size)),
                           glm::vec3(centre + rng.inBall(size))};
        const glm::dvec3 a = toD(tri.a), b = toD(tri.b), c = toD(tri.c);
        const double area2 = glm::length(glm::cross(b - a, c - a));
        const double edges = glm::dot(b - a, b - a) + glm::dot(c - b, c - b) + glm::dot(a - c, a - c);
        if (2.0 * std::sqrt(3.0) * area2 >= 0.1 * edges) return tri;
    }
}

struct TriCase {
    Triangle tri;
    Ray ray;
    float tMax;
};

/// A random triangle and a ray usually aimed at a point near it (about half inside), sometimes in
/// a random direction; random direction length.
TriCase randomTriCase(Random& rng) {
    const Triangle tri = randomTriangle(rng);
    const glm::vec3 origin = rng.inBoxF(15.0);
    // Uniform in the triangle, then scaled by 1.5 about the centroid: 1 / 1.5^2 of the aims inside.
    double u = rng.uniform(0.0, 1.0), v = rng.uniform(0.0, 1.0);
    if (u + v > 1.0) {
        u = 1.0 - u;
        v = 1.0 - v;
    }
    u = 1.0 / 3.0 + 1.5 * (u - 1.0 / 3.0);
    v = 1.0 / 3.0 + 1.5 * (v - 1.0 / 3.0);
    const glm::dvec3 aim = toD(tri.a) + u * (toD(tri.b) - toD(tri.a)) + v * (toD(tri.c) - toD(tri.a));
    glm::dvec3 unit = aim - toD(origin);
    unit = (rng.chance(0.2) || glm::length(unit) < 1e-6) ? rng.unitVector() : glm::normalize(unit);
    const Ray ray{origin, rng.scaledDir(unit)};
    const float tMax = rng.tMax(glm::length(aim - toD(origin)) / glm::length(toD(ray.dir)));
    return {tri, ray, tMax};
}

std::string describe(const TriCase& c) {
    return str(c.ray) + ", " + str(c.tri) + ", tMax " + str(c.tMax);
}
std::string describe(const std::optional<RefTriHit>& r) {
    if (!r) return "expected no hit";
    return "expected t " + str(static_cast<float>(r->t)) + " u " + str(static_cast<float>(r->u)) + " v " +
           str(static_cast<float>(r->v)) + " normal " + str(glm::vec3(r->normal));
}

TEST(RayTriangleProperty, AgreesWithDoublePrecisionPlaneAndBarycentrics) {
    Random rng(kSeed);
    CaseStats stats(kSeed);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const TriCase c = randomTriCase(rng);
        const auto got = raycast(c.ray, c.tri, c.tMax);
        const TriReference ref = referencePlaneBarycentric(c.ray, c.tri, c.tMax);
        const auto mt = referenceMollerTrumbore(c.ray, c.tri, c.tMax);
        if (got) {
            if (const auto ok = isWellFormedSurfaceHit(*got, c.ray, c.tMax); !ok) {
                stats.fail(i, ok.message() + std::string(" ") + describe(c));
                continue;
            }
        }
        if (ref.illConditioned) {
            ++stats.skipped;
            continue;
        }
        ++stats.compared;
        stats.hits += ref.hit ? 1 : 0;
        // Both references: plane + barycentrics, and Moller-Trumbore.
        bool ok = got.has_value() == ref.hit.has_value() && got.has_value() == mt.has_value();
        if (ok && got) {
            ok = tAgrees(got->t, ref.hit->t) && tAgrees(got->t, mt->t) &&
                 glm::length(toD(got->normal) - ref.hit->normal) <= 1e-3 &&
                 glm::length(toD(got->normal) - mt->normal) <= 1e-3;
        }
        if (!ok) {
            stats.fail(i, describe(c) + ": got " + str(got) + ", " + describe(ref.hit) +
                              " / Moller-Trumbore " + describe(mt));
        }
    }
    stats.expectMostlyCompared(kCases, true);
}

TEST(RayTriangleProperty, BarycentricAgreesWithDoublePrecisionMollerTrumbore) {
    Random rng(kSeed + 20u);
    CaseStats stats(kSeed + 20u);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const TriCase c = randomTriCase(rng);
        const auto got = raycastBarycentric(c.ray, c.tri, c.tMax);
        const auto ref = referenceMollerTrumbore(c.ray, c.tri, c.tMax);
        if (got) {
            const bool finite =
                isFinite(got->t) && isFinite(got->u) && isFinite(got->v) && isFinite(got->normal);
            const bool facing = glm::dot(toD(got->normal), toD(c.ray.dir)) <= 0.0;
            const bool unit = std::abs(glm::length(toD(got->normal)) - 1.0) <= 1e-5;
            const bool inRange = got->t >= 0.0f && got->t <= c.tMax;
            if (!finite || !facing || !unit || !inRange) {
                stats.fail(i, "malformed hit " + str(got) + " for " + describe(c));
                continue;
            }
        }
        if (referencePlaneBarycentric(c.ray, c.tri, c.tMax).illConditioned) {
            ++stats.skipped;
            continue;
        }
        ++stats.compared;
        stats.hits += ref ? 1 : 0;
        bool ok = got.has_value() == ref.has_value();
        if (ok && got) {
            // Barycentrics are compared through the points they stand for, relative to the scale of
            // the query and to the obliquity (float resolves positions, not weights, to a few ulps
            // of that scale, magnified by 1 / |cos| at grazing angles).
            const double scale = glm::length(toD(c.ray.origin) - toD(c.tri.a)) +
                                 glm::length(toD(c.tri.b - c.tri.a)) + glm::length(toD(c.tri.c - c.tri.a));
            const double uErr = std::abs(got->u - ref->u) * glm::length(toD(c.tri.b - c.tri.a));
            const double vErr = std::abs(got->v - ref->v) * glm::length(toD(c.tri.c - c.tri.a));
            const double cosine = std::abs(glm::dot(ref->normal, glm::normalize(toD(c.ray.dir))));
            ok = tAgrees(got->t, ref->t) && std::max(uErr, vErr) <= 1e-5 * scale / cosine &&
                 glm::length(toD(got->normal) - ref->normal) <= 1e-3;
        }
        if (!ok) stats.fail(i, describe(c) + ": got " + str(got) + ", " + describe(ref));
    }
    stats.expectMostlyCompared(kCases, true);
}

TEST(RayTriangleProperty, TheTwoReferencesAgreeWithEachOther) {
    // Guards the test itself: both double-precision references must tell the same story.
    Random rng(kSeed + 21u);
    CaseStats stats(kSeed + 21u);
    for (int i = 0; i < kCases / 4 && stats.failures < CaseStats::kMaxReported; ++i) {
        const TriCase c = randomTriCase(rng);
        const TriReference a = referencePlaneBarycentric(c.ray, c.tri, c.tMax);
        const auto b = referenceMollerTrumbore(c.ray, c.tri, c.tMax);
        if (a.illConditioned) {
            ++stats.skipped;
            continue;
        }
        ++stats.compared;
        stats.hits += b ? 1 : 0;
        bool ok = a.hit.has_value() == b.has_value();
        if (ok && b) {
            ok = std::abs(a.hit->t - b->t) <= 1e-9 * b->t && std::abs(a.hit->u - b->u) <= 1e-9 &&
                 std::abs(a.hit->v - b->v) <= 1e-9 && glm::length(a.hit->normal - b->normal) <= 1e-9;
        }
        if (!ok) stats.fail(i, describe(c) + ": " + describe(a.hit) + " vs " + describe(b));
    }
    stats.expectMostlyCompared(kCases / 4, true);
}

TEST(RayTriangleProperty, RaycastAndBarycentricAgree) {
    Random rng(kSeed + 22u);
    CaseStats stats(kSeed + 22u);
    for (int i = 0; i < kCases / 4 && stats.failures < CaseStats::kMaxReported; ++i) {
        const TriCase c = randomTriCase(rng);
        const auto plain = raycast(c.ray, c.tri, c.tMax);
        const auto bary = raycastBarycentric(c.ray, c.tri, c.tMax);
        ++stats.compared;
        stats.hits += plain ? 1 : 0;
        bool ok = plain.has_value() == bary.has_value();
        if (ok && plain) {
            const glm::dvec3 fromWeights = toD(c.tri.a) +
                                           static_cast<double>(bary->u) * toD(c.tri.b - c.tri.a) +
                                           static_cast<double>(bary->v) * toD(c.tri.c - c.tri.a);
            const double scale = 1.0 + glm::length(toD(plain->point));
            ok = tAgrees(bary->t, plain->t, 1e-6) && near(plain->normal, bary->normal, 1e-6) &&
                 glm::length(fromWeights - toD(plain->point)) <= 1e-4 * scale && bary->u >= 0.0f &&
                 bary->v >= 0.0f && bary->u + bary->v <= 1.0f + 1e-5f;
        }
        if (!ok) stats.fail(i, describe(c) + ": raycast " + str(plain) + ", raycastBarycentric " + str(bary));
    }
    stats.expectMostlyCompared(kCases / 4, true);
}

/// Random pairs of triangles sharing an edge (coplanar before rounding to float, either
/// winding), and a ray aimed at a point of the shared edge: at least one must be hit.
TEST(RayTriangleProperty, RaysThroughASharedEdgeHitAtLeastOneTriangle) {
    Random rng(kSeed + 23u);
    CaseStats stats(kSeed + 23u);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const glm::dvec3 a0 = rng.inBox(5.0);
        const glm::dvec3 edge = rng.unitVector() * rng.uniform(0.5, 6.0);
        glm::dvec3 side = glm::cross(edge, rng.unitVector());
        while (glm::length(side) < 1e-3)
            side = glm::cross(edge, rng.unitVector());
        side = glm::normalize(side) * glm::length(edge);
        const glm::vec3 a(a0), b(a0 + edge);
        const glm::vec3 c(a0 + rng.uniform(-0.5, 1.5) * edge + rng.uniform(0.3, 2.0) * side);
        const glm::vec3 d(a0 + rng.uniform(-0.5, 1.5) * edge - rng.uniform(0.3, 2.0) * side);
        const Triangle first{a, b, c};
        const Triangle second = rng.chance(0.5) ? Triangle{b, a, d} : Triangle{a, b, d};
        const glm::dvec3 normal = glm::normalize(glm::cross(edge, side));
        const glm::vec3 target = glm::mix(a, b, rng.uniformF(0.02, 0.98));
        glm::vec3 origin;
        do {
            origin = rng.inBoxF(15.0);
        } while (std::abs(glm::dot(glm::normalize(toD(target) - toD(origin)), normal)) < 0.05);
        const float k = static_cast<float>(rng.logUniform(0.01, 100.0));
        const Ray ray{origin, (target - origin) * k};
        const auto h1 = raycast(ray, first);
        const auto h2 = raycast(ray, second);
        ++stats.compared;
        stats.hits += (h1 || h2) ? 1 : 0;
        const auto describeCase = [&] {
            return str(ray) + ", " + str(first) + ", " + str(second) + ": " + str(h1) + ", " + str(h2);
        };
        if (!h1 && !h2) {
            stats.fail(i, "ray slipped through the shared edge: " + describeCase());
            continue;
        }
        for (const auto& h : {h1, h2}) {
            if (h &&
                !(isWellFormedSurfaceHit(*h, ray, kInf) && tAgrees(h->t, 1.0 / static_cast<double>(k), 1e-4)))
                stats.fail(i, "bad hit: " + describeCase());
        }
    }
    EXPECT_EQ(stats.hits, stats.compared);
    stats.expectMostlyCompared(kCases);
}

/// Random closed fans of triangles around a shared vertex; a ray aimed at the vertex must hit
/// at least one of them.
TEST(RayTriangleProperty, RaysThroughASharedVertexHitAtLeastOneTriangle) {
    Random rng(kSeed + 24u);
    CaseStats stats(kSeed + 24u);
    for (int i = 0; i < kCases / 4 && stats.failures < CaseStats::kMaxReported; ++i) {
        const glm::dmat3 frame = glm::mat3_cast(rng.rotationD());
        const glm::vec3 centre = rng.inBoxF(5.0);
        const int n = rng.integer(3, 8);
        const double step = 2.0 * std::numbers::pi / n;
        const double phase = rng.uniform(0.0, step);
        const double jitter = n == 3 ? 0.1 : 0.3; // keeps every gap below pi: the fan covers the vertex
        std::vector<glm::vec3> ring;
        for (int k = 0; k < n; ++k) {
            const double angle = phase + step * (k + rng.uniform(-jitter, jitter));
            const double radius = rng.uniform(0.5, 4.0);
            ring.emplace_back(toD(centre) +
                              frame * glm::dvec3(radius * std::cos(angle), radius * std::sin(angle), 0.0));
        }
        glm::vec3 origin;
        do {
            origin = rng.inBoxF(15.0);
        } while (std::abs(glm::dot(glm::normalize(toD(centre) - toD(origin)), frame[2])) < 0.05);
        const Ray ray{origin, (centre - origin) * static_cast<float>(rng.logUniform(0.01, 100.0))};
        int hits = 0;
        for (int k = 0; k < n; ++k) {
            const Triangle tri = rng.chance(0.5) ? Triangle{centre, ring[k], ring[(k + 1) % n]}
                                                 : Triangle{ring[(k + 1) % n], ring[k], centre};
            if (const auto h = raycast(ray, tri)) {
                ++hits;
                if (!isWellFormedSurfaceHit(*h, ray, kInf))
                    stats.fail(i, "bad hit " + str(*h) + " for " + str(ray));
            }
        }
        ++stats.compared;
        stats.hits += hits > 0 ? 1 : 0;
        if (hits == 0)
            stats.fail(i, "ray slipped through the shared vertex " + str(centre) + ": " + str(ray));
    }
    EXPECT_EQ(stats.hits, stats.compared);
    stats.expectMostlyCompared(kCases / 4);
}

struct PolyCase {
    std::vector<glm::vec3> poly;
    Ray ray;
    float tMax;
    glm::dvec3 centre;
    double radius;
};

/// A convex polygon: 3 to 9 points in angular order on an ellipse in a random plane, either
/// winding; a ray usually aimed near it.
PolyCase randomPolyCase(Random& rng) {
    PolyCase c;
    const glm::dmat3 frame = glm::mat3_cast(rng.rotationD());
    c.centre = rng.inBox(5.0);
    c.radius = rng.uniform(0.5, 5.0);
    const double aspect = rng.uniform(0.3, 1.0);
    const int n = rng.integer(3, 9);
    const double step = 2.0 * std::numbers::pi / n;
    const double phase = rng.uniform(0.0, step);
    for (int k = 0; k < n; ++k) {
        const double angle = phase + step * (k + rng.uniform(-0.3, 0.3));
        c.poly.emplace_back(c.centre + frame * glm::dvec3(c.radius * std::cos(angle),
                                                          aspect * c.radius * std::sin(angle), 0.0));
    }
    if (rng.chance(0.5)) std::reverse(c.poly.begin(), c.poly.end());
    const glm::vec3 origin = rng.inBoxF(15.0);
    const glm::dvec3 aim = c.centre + frame * glm::dvec3(rng.uniform(-1.2, 1.2) * c.radius,
                                                         rng.uniform(-1.2, 1.2) * aspect * c.radius, 0.0);
    glm::dvec3 unit = aim - toD(origin);
    unit = (rng.chance(0.2) || glm::length(unit) < 1e-6) ? rng.unitVector() : glm::normalize(unit);
    c.ray = Ray{origin, rng.scaledDir(unit)};
    c.tMax = rng.tMax(glm::length(aim - toD(origin)) / glm::length(toD(c.ray.dir)));
    return c;
}

/// Distance from p to the segment [a, b], in double.
double distanceToSegment(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b) {
    const glm::dvec3 ab = b - a;
    const double s = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
    return glm::length(p - (a + s * ab));
}

/// The fan (p0, p_k, p_k+1) through the plane-and-barycentric triangle reference (without its
/// per-triangle conditioning: inner diagonals are no boundary), plus conditioning judged on the
/// polygon itself: near parallel, origin near the plane, hit near the outline or near tMax.
TriReference referencePolygonFan(const PolyCase& c) {
    TriReference ref;
    const std::size_t n = c.poly.size();
    glm::dvec3 normal(0.0);
    for (std::size_t k = 1; k + 1 < n; ++k)
        normal += glm::cross(toD(c.poly[k]) - toD(c.poly[0]), toD(c.poly[k + 1]) - toD(c.poly[0]));
    normal = glm::normalize(normal);
    const glm::dvec3 o = toD(c.ray.origin), d = toD(c.ray.dir);
    const double cosine = glm::dot(normal, d) / glm::length(d);
    const double scale = glm::length(o - c.centre) + c.radius;
    const double dist = glm::dot(normal, toD(c.poly[0]) - o);
    if (std::abs(cosine) < 1e-2 || std::abs(dist) < 1e-2 * scale) ref.illConditioned = true;
    if (cosine != 0.0) {
        const glm::dvec3 p = o + (dist / glm::dot(normal, d)) * d;
        double edgeDistance = INFINITY;
        for (std::size_t k = 0; k < n; ++k)
            edgeDistance =
                std::min(edgeDistance, distanceToSegment(p, toD(c.poly[k]), toD(c.poly[(k + 1) % n])));
        if (edgeDistance < 1e-3 * scale * std::max(1.0, 0.1 / std::abs(cosine))) ref.illConditioned = true;
    }
    for (std::size_t k = 1; k + 1 < n && !ref.hit; ++k) {
        const TriReference fan =
            referencePlaneBarycentric(c.ray, Triangle{c.poly[0], c.poly[k], c.poly[k + 1]}, c.tMax);
        if (fan.hit) ref.hit = fan.hit;
    }
    // Diagonals are not boundaries, but the fan reference flags hits near them: re-judge tMax only.
    if (ref.hit && std::abs(ref.hit->t - static_cast<double>(c.tMax)) <= 1e-3 * ref.hit->t)
        ref.illConditioned = true;
    if (!ref.hit) {
        // A hit just beyond tMax still counts as a boundary case.
        const TriReference far = [&] {
            TriReference r;
            for (std::size_t k = 1; k + 1 < n && !r.hit; ++k)
                r = referencePlaneBarycentric(c.ray, Triangle{c.poly[0], c.poly[k], c.poly[k + 1]}, kInf);
            return r;
        }();
        if (far.hit && std::abs(far.hit->t - static_cast<double>(c.tMax)) <= 1e-3 * far.hit->t)
            ref.illConditioned = true;
    }
    return ref;
}

std::string describe(const PolyCase& c) {
    std::string s = str(c.ray) + ", tMax " + str(c.tMax) + ", polygon {";
    for (const auto& p : c.poly)
        s += str(p) + " ";
    return s + "}";
}

TEST(RayPolygonProperty, AgreesWithDoublePrecisionFanTriangulation) {
    Random rng(kSeed + 30u);
    CaseStats stats(kSeed + 30u);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const PolyCase c = randomPolyCase(rng);
        const auto got = raycastPolygon(c.ray, c.poly, c.tMax);
        const TriReference ref = referencePolygonFan(c);
        if (got) {
            if (const auto ok = isWellFormedSurfaceHit(*got, c.ray, c.tMax); !ok) {
                stats.fail(i, ok.message() + std::string(" ") + describe(c));
                continue;
            }
        }
        if (ref.illConditioned) {
            ++stats.skipped;
            continue;
        }
        ++stats.compared;
        stats.hits += ref.hit ? 1 : 0;
        bool ok = got.has_value() == ref.hit.has_value();
        if (ok && got)
            ok = tAgrees(got->t, ref.hit->t) && glm::length(toD(got->normal) - ref.hit->normal) <= 1e-3;
        if (!ok) stats.fail(i, describe(c) + ": got " + str(got) + ", " + describe(ref.hit));
    }
    stats.expectMostlyCompared(kCases, true);
}

TEST(RayTriangleProperty, ExtremeAndNonFiniteInputNeverGivesNaN) {
    Random rng(kSeed + 40u);
    CaseStats stats(kSeed + 40u);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const Ray ray{rng.mixedVec(10.0), rng.mixedVec(2.0)};
        const Triangle tri{rng.mixedVec(5.0), rng.mixedVec(5.0), rng.mixedVec(5.0)};
        const float tMax = rng.wildTMax();
        const auto plain = raycast(ray, tri, tMax);
        const auto bary = raycastBarycentric(ray, tri, tMax);
        const glm::vec3 quad[] = {tri.a, tri.b, tri.c, glm::vec3(0.5f) * (tri.a + tri.c) + rng.mixedVec(1.0)};
        const auto poly = raycastPolygon(ray, quad, tMax);
        ++stats.compared;
        stats.hits += plain ? 1 : 0;
        const glm::vec3 inputs[] = {ray.origin, ray.dir, tri.a, tri.b, tri.c};
        const bool invalid = anyNonFinite(inputs) || std::isnan(tMax) || tMax < 0.0f ||
                             glm::dot(toD(ray.dir), toD(ray.dir)) == 0.0;
        const auto describeCase = [&] {
            return str(ray) + ", " + str(tri) + ", tMax " + str(tMax) + ": raycast " + str(plain) +
                   ", barycentric " + str(bary) + ", polygon " + str(poly);
        };
        if (invalid && (plain || bary || poly)) stats.fail(i, "invalid input hit: " + describeCase());
        if (!isFinite(quad[3]) && poly) stats.fail(i, "non-finite polygon hit: " + describeCase());
        if (plain) {
            if (const auto ok = isWellFormedSurfaceHit(*plain, ray, tMax); !ok)
                stats.fail(i, ok.message() + describeCase());
        }
        if (bary && !(isFinite(bary->t) && isFinite(bary->u) && isFinite(bary->v) && isFinite(bary->normal) &&
                      bary->t >= 0.0f && bary->t <= tMax))
            stats.fail(i, "malformed barycentric hit: " + describeCase());
        if (poly) {
            if (const auto ok = isWellFormedSurfaceHit(*poly, ray, tMax); !ok)
                stats.fail(i, ok.message() + describeCase());
        }
    }
    stats.expectMostlyCompared(kCases);
}

} // namespace
