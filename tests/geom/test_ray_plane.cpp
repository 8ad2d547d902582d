// raycast(Ray, Plane): scenarios from the contract in raycast.hpp, then property tests
// against an independent double-precision solution.
#include "geom/geom.hpp"
#include "support/ray_test_support.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <optional>

namespace {

using namespace kz;
using namespace kz::raytest;

// The plane z = 2, normal +z.
const Plane kZ2{{0.0f, 0.0f, 1.0f}, -2.0f};

// ---------------------------------------------------------------------------------------------
// Both sides

TEST(RayPlane, RayFromTheFrontHitsWithNormalFacingTheOrigin) {
    const Ray ray{{1.0f, 1.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    const auto hit = raycast(ray, kZ2);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 3.0f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
    ASSERT_TRUE(hit);
    EXPECT_TRUE(near(hit->point, {1.0f, 1.0f, 2.0f}, 1e-6));
}

TEST(RayPlane, RayFromTheBackHitsWithNormalFlippedToFaceTheOrigin) {
    const Ray ray{{1.0f, 1.0f, -1.0f}, {0.0f, 0.0f, 1.0f}};
    const auto hit = raycast(ray, kZ2);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 3.0f, {0.0f, 0.0f, -1.0f}, Kind::Surface));
    ASSERT_TRUE(hit);
    EXPECT_TRUE(near(hit->point, {1.0f, 1.0f, 2.0f}, 1e-6));
}

TEST(RayPlane, ObliqueRaysHitFromEitherSide) {
    const Ray below{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(below, kZ2), below, kInf, 2.0f, {0.0f, 0.0f, -1.0f}, Kind::Surface));
    const Ray above{{0.0f, 3.0f, 6.0f}, {0.5f, -0.25f, -2.0f}};
    EXPECT_TRUE(hitsAt(raycast(above, kZ2), above, kInf, 2.0f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
}

TEST(RayPlane, FlippingThePlaneDoesNotChangeTheHit) {
    const Plane flipped{{0.0f, 0.0f, -1.0f}, 2.0f}; // also z = 2
    const Ray fromAbove{{1.0f, 1.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    const Ray fromBelow{{1.0f, 1.0f, -1.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(
        hitsAt(raycast(fromAbove, flipped), fromAbove, kInf, 3.0f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
    EXPECT_TRUE(
        hitsAt(raycast(fromBelow, flipped), fromBelow, kInf, 3.0f, {0.0f, 0.0f, -1.0f}, Kind::Surface));
}

TEST(RayPlane, TiltedPlaneIsHitWithItsUnitNormal) {
    // x + y + z = 3 through (1, 1, 1).
    const glm::vec3 n = glm::normalize(glm::vec3(1.0f, 1.0f, 1.0f));
    const Plane tilted{n, -glm::dot(n, glm::vec3(1.0f))};
    const Ray ray{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, tilted), ray, kInf, 1.0f, -n, Kind::Surface));
    const Ray back{{5.0f, 0.0f, 0.0f}, {-1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(back, tilted), back, kInf, 2.0f, n, Kind::Surface));
}

TEST(RayPlane, NonUnitNormalIsAcceptedAndTheReturnedNormalIsUnit) {
    const Plane scaled{{0.0f, 0.0f, 4.0f}, -8.0f}; // z = 2
    const Ray ray{{1.0f, 1.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, scaled), ray, kInf, 3.0f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
    const Plane tiny{{0.0f, 0.001f, 0.0f}, -0.003f}; // y = 3
    const Ray side{{0.0f, -1.0f, 0.0f}, {0.0f, 2.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(side, tiny), side, kInf, 2.0f, {0.0f, -1.0f, 0.0f}, Kind::Surface));
}

// ---------------------------------------------------------------------------------------------
// Starting on the plane

TEST(RayPlane, RayStartingOnThePlaneHitsAtZeroFacingTheOrigin) {
    const Ray up{{3.0f, 4.0f, 2.0f}, {0.0f, 1.0f, 1.0f}};
    const auto hit = raycast(up, kZ2);
    EXPECT_TRUE(hitsAt(hit, up, kInf, 0.0f, {0.0f, 0.0f, -1.0f}, Kind::Surface));
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->point, up.origin);
    const Ray down{{3.0f, 4.0f, 2.0f}, {0.0f, 1.0f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(down, kZ2), down, kInf, 0.0f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
}

TEST(RayPlane, RayStartingOnThePlaneWithZeroTMaxHits) {
    const Ray ray{{3.0f, 4.0f, 2.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kZ2, 0.0f), ray, 0.0f, 0.0f, {0.0f, 0.0f, -1.0f}, Kind::Surface));
}

// ---------------------------------------------------------------------------------------------
// Misses

TEST(RayPlane, PlaneBehindTheOriginIsNotHit) {
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, 1.0f}}, kZ2)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, -1.0f}, {1.0f, 0.0f, -1.0f}}, kZ2)));
}

TEST(RayPlane, RayParallelToThePlaneMisses) {
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 5.0f}, {1.0f, 0.0f, 0.0f}}, kZ2)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 3.0f, 0.0f}}, kZ2)));
}

TEST(RayPlane, RayLyingInThePlaneMisses) {
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 2.0f}, {1.0f, 0.0f, 0.0f}}, kZ2)));
    EXPECT_TRUE(misses(raycast(Ray{{7.0f, -3.0f, 2.0f}, {-0.5f, 0.25f, 0.0f}}, kZ2)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 2.0f}, {1.0f, 0.0f, 0.0f}}, kZ2, 0.0f)));
}

TEST(RayPlane, NearlyParallelRayBelowTheCosineThresholdMisses) {
    // |cos| = 1e-7 <= kParallelCosine.
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 1.0f}, {1.0f, 0.0f, 1e-7f}}, kZ2)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 2.0f}, {0.0f, 10.0f, -1e-6f}}, kZ2)));
}

TEST(RayPlane, SlantedRayAboveTheCosineThresholdHits) {
    // |cos| ~ 1e-4, well above kParallelCosine: t = 1 / 1e-4.
    const Ray ray{{0.0f, 0.0f, 1.0f}, {1.0f, 0.0f, 1e-4f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kZ2), ray, kInf, 1e4f, {0.0f, 0.0f, -1.0f}, Kind::Surface, 1e-4));
}

// ---------------------------------------------------------------------------------------------
// tMax

TEST(RayPlane, HitExactlyAtTMaxCounts) {
    const Ray ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kZ2, 3.0f), ray, 3.0f, 3.0f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
    const Ray slow{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -0.5f}};
    EXPECT_TRUE(hitsAt(raycast(slow, kZ2, 6.0f), slow, 6.0f, 6.0f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
}

TEST(RayPlane, HitJustBeyondTMaxIsNotReported) {
    const Ray ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    EXPECT_TRUE(misses(raycast(ray, kZ2, 2.999f)));
    EXPECT_TRUE(misses(raycast(ray, kZ2, std::nextafter(3.0f, 0.0f))));
    EXPECT_TRUE(misses(raycast(ray, kZ2, 0.0f)));
}

TEST(RayPlane, InfiniteTMaxIsAllowedAndNegativeTMaxMisses) {
    const Ray ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kZ2, kInf), ray, kInf, 3.0f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
    EXPECT_TRUE(misses(raycast(ray, kZ2, -1.0f)));
    EXPECT_TRUE(misses(raycast(ray, kZ2, -kInf)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 2.0f}, {0.0f, 0.0f, 1.0f}}, kZ2, -1e-30f)));
}

// ---------------------------------------------------------------------------------------------
// Direction length

TEST(RayPlane, TScalesInverselyWithDirectionLength) {
    const glm::vec3 origin{0.5f, -1.0f, 7.0f};
    const glm::vec3 unit = glm::normalize(glm::vec3(0.3f, 0.4f, -1.0f));
    const auto base = raycast(Ray{origin, unit}, kZ2);
    ASSERT_TRUE(base);
    for (const float k : {0.01f, 0.5f, 3.0f, 100.0f}) {
        const Ray ray{origin, unit * k};
        SCOPED_TRACE(str(ray));
        const auto hit = raycast(ray, kZ2);
        EXPECT_TRUE(hitsAt(hit, ray, kInf, base->t / k, {0.0f, 0.0f, 1.0f}, Kind::Surface));
        if (hit) {
            EXPECT_TRUE(near(hit->point, base->point, 1e-5));
        }
    }
    const Ray fast{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -10.0f}};
    EXPECT_TRUE(hitsAt(raycast(fast, kZ2), fast, kInf, 0.3f, {0.0f, 0.0f, 1.0f}, Kind::Surface));
}

// ---------------------------------------------------------------------------------------------
// Invalid input

TEST(RayPlane, ZeroLengthDirectionMisses) {
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, 0.0f}}, kZ2)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 2.0f}, {0.0f, 0.0f, 0.0f}}, kZ2)));
}

TEST(RayPlane, ZeroNormalIsDegenerateAndMisses) {
    EXPECT_TRUE(
        misses(raycast(Ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}}, Plane{{0.0f, 0.0f, 0.0f}, 0.0f})));
    EXPECT_TRUE(
        misses(raycast(Ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}}, Plane{{0.0f, 0.0f, 0.0f}, -2.0f})));
}

TEST(RayPlane, NaNInAnyInputMisses) {
    const Ray ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    ASSERT_TRUE(raycast(ray, kZ2));
    for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE(i);
        Ray r = ray;
        r.origin[i] = kNaN;
        EXPECT_TRUE(misses(raycast(r, kZ2)));
        r = ray;
        r.dir[i] = kNaN;
        EXPECT_TRUE(misses(raycast(r, kZ2)));
        Plane p = kZ2;
        p.normal[i] = kNaN;
        EXPECT_TRUE(misses(raycast(ray, p)));
    }
    EXPECT_TRUE(misses(raycast(ray, Plane{{0.0f, 0.0f, 1.0f}, kNaN})));
    EXPECT_TRUE(misses(raycast(ray, kZ2, kNaN)));
}

TEST(RayPlane, InfiniteInputMisses) {
    const Ray ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
    for (int i = 0; i < 3; ++i) {
        for (const float inf : {kInf, -kInf}) {
            SCOPED_TRACE(testing::Message() << i << " " << inf);
            Ray r = ray;
            r.origin[i] = inf;
            EXPECT_TRUE(misses(raycast(r, kZ2)));
            r = ray;
            r.dir[i] = inf;
            EXPECT_TRUE(misses(raycast(r, kZ2)));
            Plane p = kZ2;
            p.normal[i] = inf;
            EXPECT_TRUE(misses(raycast(ray, p)));
        }
    }
    EXPECT_TRUE(misses(raycast(ray, Plane{{0.0f, 0.0f, 1.0f}, kInf})));
    EXPECT_TRUE(misses(raycast(ray, Plane{{0.0f, 0.0f, 1.0f}, -kInf})));
}

TEST(RayPlane, HitWhoseTWouldOverflowIsNoHit) {
    // The plane z = 1e30 seen along a direction of length 1e-10: t = 1e40 is not a float.
    const Plane far{{0.0f, 0.0f, 1.0f}, -1e30f};
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1e-10f}}, far)));
}

TEST(RayPlane, HugeButFiniteInputNeverGivesNaN) {
    const Plane planes[] = {{{0.0f, 0.0f, 1.0f}, -1e30f},
                            {{0.0f, 3e38f, 3e38f}, 0.0f},
                            {{1e-30f, 0.0f, 0.0f}, 1.0f},
                            {{1.0f, 1.0f, 0.0f}, 3e38f}};
    const Ray rays[] = {{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}},
                        {{-3e38f, 0.0f, 0.0f}, {1e30f, 1e30f, 1e30f}},
                        {{0.0f, 0.0f, 0.0f}, {3e38f, -3e38f, 3e38f}},
                        {{1e20f, 1e20f, 1e20f}, {-1e-20f, -1e-20f, -1e-20f}}};
    for (const auto& p : planes)
        for (const auto& r : rays) {
            const auto hit = raycast(r, p);
            if (hit) {
                EXPECT_TRUE(isWellFormedSurfaceHit(*hit, r, kInf)) << str(r);
            }
        }
}

// ---------------------------------------------------------------------------------------------
// Property tests

struct RefHit {
    double t;
    glm::dvec3 normal;
};

struct Reference {
    std::optional<RefHit> hit;
    bool illConditioned = false; ///< Near parallel, origin near the plane or hit near tMax.
};

/// dot(n, o + t d) + d0 = 0 solved in double; "parallel" by the documented cosine threshold.
Reference referenceRayPlane(const Ray& ray, const Plane& plane, float tMax) {
    const glm::dvec3 o = toD(ray.origin), d = toD(ray.dir), n = toD(plane.normal);
    const double d0 = plane.d;
    Reference ref;
    const double nd = glm::dot(n, d);
    const double cosine = nd / (glm::length(n) * glm::length(d));
    if (std::abs(cosine) < 1e-2) ref.illConditioned = true;
    if (std::abs(cosine) <= static_cast<double>(kParallelCosine)) return ref;
    const double num = glm::dot(n, o) + d0;
    if (std::abs(num) < 1e-2 * (glm::length(n) * glm::length(o) + std::abs(d0))) ref.illConditioned = true;
    const double t = -num / nd;
    if (t < 0.0) return ref;
    if (std::abs(t - static_cast<double>(tMax)) <= 1e-3 * t) ref.illConditioned = true;
    if (t > static_cast<double>(tMax)) return ref;
    ref.hit = RefHit{t, (nd > 0.0 ? -1.0 : 1.0) * glm::normalize(n)};
    return ref;
}

TEST(RayPlaneProperty, AgreesWithDoublePrecisionFormula) {
    Random rng(kSeed);
    CaseStats stats(kSeed);
    for (int i = 0; i < kCases; ++i) {
        const glm::dvec3 unitNormal = rng.unitVector();
        const double scale = rng.chance(0.5) ? 1.0 : rng.logUniform(0.1, 10.0);
        const glm::dvec3 onPlane = rng.inBox(10.0);
        const glm::vec3 n(unitNormal * scale);
        const Plane plane{n, static_cast<float>(-glm::dot(toD(n), onPlane))};
        const glm::vec3 origin = rng.inBoxF(15.0);
        glm::dvec3 unit = rng.unitVector();
        if (rng.chance(0.5)) { // aim at a point of the plane near onPlane
            const glm::dvec3 offset = rng.inBox(5.0);
            const glm::dvec3 target = onPlane + offset - glm::dot(offset, unitNormal) * unitNormal;
            if (glm::length(target - toD(origin)) > 1e-6) unit = glm::normalize(target - toD(origin));
        }
        const Ray ray{origin, rng.scaledDir(unit)};
        const float tMax = rng.tMax(glm::length(onPlane - toD(origin)) / glm::length(toD(ray.dir)));

        const auto got = raycast(ray, plane, tMax);
        const Reference ref = referenceRayPlane(ray, plane, tMax);
        const auto describe = [&] {
            return str(ray) + ", Plane{" + str(plane.normal) + ", " + str(plane.d) + "}, tMax " + str(tMax) +
                   ": got " + str(got) +
                   (ref.hit ? ", expected t " + str(static_cast<float>(ref.hit->t)) + " normal " +
                                  str(glm::vec3(ref.hit->normal))
                            : std::string(", expected no hit"));
        };
        if (got) {
            if (const auto ok = isWellFormedSurfaceHit(*got, ray, tMax); !ok) {
                if (!stats.fail(i, ok.message() + std::string(" ") + describe())) break;
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
        if (ok && got) {
            ok = tAgrees(got->t, ref.hit->t) && glm::length(toD(got->normal) - ref.hit->normal) <= 1e-3;
        }
        if (!ok && !stats.fail(i, describe())) break;
    }
    stats.expectMostlyCompared(kCases, true);
}

TEST(RayPlaneProperty, ExtremeAndNonFiniteInputNeverGivesNaN) {
    Random rng(kSeed + 2u);
    CaseStats stats(kSeed + 2u);
    for (int i = 0; i < kCases; ++i) {
        const Ray ray{rng.mixedVec(10.0), rng.mixedVec(2.0)};
        const Plane plane{rng.mixedVec(1.0), rng.chance(0.3) ? rng.wild() : rng.uniformF(-10.0, 10.0)};
        const float tMax = rng.wildTMax();
        const auto got = raycast(ray, plane, tMax);
        ++stats.compared;
        stats.hits += got ? 1 : 0;
        const glm::vec3 vs[] = {ray.origin, ray.dir, plane.normal};
        const bool invalid = anyNonFinite(vs) || !isFinite(plane.d) || std::isnan(tMax) || tMax < 0.0f ||
                             glm::dot(toD(ray.dir), toD(ray.dir)) == 0.0 ||
                             glm::dot(toD(plane.normal), toD(plane.normal)) == 0.0;
        const auto describe = [&] {
            return str(ray) + ", Plane{" + str(plane.normal) + ", " + str(plane.d) + "}, tMax " + str(tMax) +
                   ": got " + str(got);
        };
        if (invalid && got && !stats.fail(i, "invalid input hit: " + describe())) break;
        if (got) {
            if (const auto ok = isWellFormedSurfaceHit(*got, ray, tMax); !ok)
                if (!stats.fail(i, ok.message() + std::string(" ") + describe())) break;
        }
    }
    stats.expectMostlyCompared(kCases);
}

} // namespace
