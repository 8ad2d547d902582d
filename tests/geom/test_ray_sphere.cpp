// raycast(Ray, Sphere): scenarios from the contract in raycast.hpp, then property tests
// against an independent double-precision quadratic-formula solution.
#include "geom/geom.hpp"
#include "support/ray_test_support.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <optional>

namespace {

using namespace kz;
using namespace kz::raytest;

const Sphere kUnit{{0.0f, 0.0f, 0.0f}, 1.0f};

// ---------------------------------------------------------------------------------------------
// Hits from outside

TEST(RaySphere, RayFromOutsideHitsTheNearSideWithOutwardNormal) {
    const Ray ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    const auto hit = raycast(ray, kUnit);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 4.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
    ASSERT_TRUE(hit);
    EXPECT_TRUE(near(hit->point, {0.0f, 0.0f, -1.0f}, 1e-6));
}

TEST(RaySphere, RaysAlongEachAxisHitTheFacingSide) {
    const Sphere s{{1.0f, -2.0f, 3.0f}, 2.0f};
    for (int axis = 0; axis < 3; ++axis) {
        for (const float sign : {1.0f, -1.0f}) {
            glm::vec3 e(0.0f);
            e[axis] = sign;
            const Ray ray{s.center + 7.0f * e, -e};
            SCOPED_TRACE(str(ray));
            EXPECT_TRUE(hitsAt(raycast(ray, s), ray, kInf, 5.0f, e, Kind::Solid));
        }
    }
}

TEST(RaySphere, ObliqueRayHitsWhereTheQuadraticSays) {
    // Origin (-3, 0.5, -4), dir (3, 0, 4)/5 * 2: the line x = -3 + 1.2 t', z = -4 + 1.6 t', y = 0.5.
    // |p|^2 = 1 with p = (-3 + 1.2 t, 0.5, -4 + 1.6 t): 4 t^2 - 20 t + 25.25 - 1 = 0
    // -> t = (20 - sqrt(400 - 388)) / 8.
    const Ray ray{{-3.0f, 0.5f, -4.0f}, {1.2f, 0.0f, 1.6f}};
    const double t = (20.0 - std::sqrt(12.0)) / 8.0;
    const glm::dvec3 p = toD(ray.origin) + t * toD(ray.dir);
    EXPECT_TRUE(hitsAt(raycast(ray, kUnit), ray, kInf, static_cast<float>(t), glm::vec3(p), Kind::Solid));
}

// ---------------------------------------------------------------------------------------------
// Tangent and grazing rays

TEST(RaySphere, RayTangentToTheSphereGrazesIt) {
    const Ray ray{{1.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kUnit), ray, kInf, 5.0f, {1.0f, 0.0f, 0.0f}, Kind::Solid));
}

TEST(RaySphere, RayPassingJustOutsideTheSphereMisses) {
    EXPECT_TRUE(misses(raycast(Ray{{1.001f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}}, kUnit)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, -1.0001f, -5.0f}, {0.0f, 0.0f, 3.0f}}, kUnit)));
}

TEST(RaySphere, RayPassingJustInsideTheRimHitsNearTheTangentPoint) {
    const Ray ray{{0.999f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    const double z = -std::sqrt(1.0 - 0.999 * 0.999);
    const glm::vec3 normal(glm::normalize(glm::dvec3(0.999, 0.0, z)));
    EXPECT_TRUE(
        hitsAt(raycast(ray, kUnit), ray, kInf, static_cast<float>(5.0 + z), normal, Kind::Solid, 1e-3));
}

// ---------------------------------------------------------------------------------------------
// Starting inside or on the surface

TEST(RaySphere, RayStartingInsideHitsAtZeroFacingBack) {
    const Ray ray{{0.2f, 0.1f, 0.0f}, {0.0f, 0.0f, 2.0f}};
    const auto hit = raycast(ray, kUnit);
    EXPECT_TRUE(hitsAt(hit, ray, kInf, 0.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->t, 0.0f);
    EXPECT_EQ(hit->point, ray.origin);
}

TEST(RaySphere, RayStartingAtTheCentreHitsAtZeroFacingBack) {
    const Sphere s{{4.0f, 5.0f, 6.0f}, 0.5f};
    const Ray ray{s.center, {1.0f, -2.0f, 2.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, s), ray, kInf, 0.0f, insideNormal(ray.dir), Kind::Solid));
}

TEST(RaySphere, RayStartingOnTheSurfaceHitsAtZeroWhicheverWayItPoints) {
    const glm::vec3 onSurface{0.0f, 0.0f, -1.0f};
    for (const glm::vec3 dir : {glm::vec3(0.0f, 0.0f, 1.0f), glm::vec3(0.0f, 0.0f, -1.0f),
                                glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.3f, -0.2f, -4.0f)}) {
        const Ray ray{onSurface, dir};
        SCOPED_TRACE(str(ray));
        EXPECT_TRUE(hitsAt(raycast(ray, kUnit), ray, kInf, 0.0f, insideNormal(dir), Kind::Solid));
    }
}

TEST(RaySphere, RayStartingInsideWithZeroTMaxStillHitsAtZero) {
    const Ray ray{{0.0f, 0.0f, 0.5f}, {1.0f, 0.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kUnit, 0.0f), ray, 0.0f, 0.0f, {-1.0f, 0.0f, 0.0f}, Kind::Solid));
}

// ---------------------------------------------------------------------------------------------
// Misses: behind the origin, pointing away, beside

TEST(RaySphere, SphereBehindTheOriginIsNotHit) {
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, 1.0f}}, kUnit)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 1.5f}, {0.0f, 0.01f, 1.0f}}, kUnit)));
}

TEST(RaySphere, RayPassingBesideTheSphereMisses) {
    EXPECT_TRUE(misses(raycast(Ray{{3.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}}, kUnit)));
    EXPECT_TRUE(misses(raycast(Ray{{-5.0f, 2.0f, -5.0f}, {1.0f, 0.0f, 1.0f}}, kUnit)));
}

// ---------------------------------------------------------------------------------------------
// tMax

TEST(RaySphere, HitExactlyAtTMaxCounts) {
    const Ray ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kUnit, 4.0f), ray, 4.0f, 4.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
    const Ray twice{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 2.0f}};
    EXPECT_TRUE(hitsAt(raycast(twice, kUnit, 2.0f), twice, 2.0f, 2.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
}

TEST(RaySphere, HitJustBeyondTMaxIsNotReported) {
    const Ray ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(misses(raycast(ray, kUnit, 3.999f)));
    EXPECT_TRUE(misses(raycast(ray, kUnit, std::nextafter(4.0f, 0.0f))));
    EXPECT_TRUE(misses(raycast(ray, kUnit, 0.0f)));
}

TEST(RaySphere, InfiniteTMaxIsAllowed) {
    const Ray ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, kUnit, kInf), ray, kInf, 4.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid));
}

TEST(RaySphere, NegativeTMaxMissesEvenFromInside) {
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, kUnit, -1.0f)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}}, kUnit, -kInf)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, kUnit, -1e-30f)));
}

// ---------------------------------------------------------------------------------------------
// Direction length

TEST(RaySphere, TScalesInverselyWithDirectionLength) {
    const Sphere s{{1.0f, 2.0f, 3.0f}, 1.5f};
    const glm::vec3 origin{-4.0f, 3.0f, 8.0f};
    const glm::vec3 unit = glm::normalize(s.center + glm::vec3(0.2f, -0.3f, 0.1f) - origin);
    const auto base = raycast(Ray{origin, unit}, s);
    ASSERT_TRUE(base);
    for (const float k : {0.01f, 0.5f, 2.0f, 64.0f, 100.0f}) {
        const Ray ray{origin, unit * k};
        SCOPED_TRACE(str(ray));
        const auto hit = raycast(ray, s);
        EXPECT_TRUE(hitsAt(hit, ray, kInf, base->t / k, base->normal, Kind::Solid, 1e-5));
        if (hit) {
            EXPECT_TRUE(near(hit->point, base->point, 1e-4));
        }
    }
    // Exact cases: |dir| = 0.5 doubles t, |dir| = 4 quarters it.
    EXPECT_TRUE(hitsAt(raycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 0.5f}}, kUnit),
                       Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 0.5f}}, kInf, 8.0f, {0.0f, 0.0f, -1.0f},
                       Kind::Solid));
    EXPECT_TRUE(hitsAt(raycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 4.0f}}, kUnit),
                       Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 4.0f}}, kInf, 1.0f, {0.0f, 0.0f, -1.0f},
                       Kind::Solid));
}

// ---------------------------------------------------------------------------------------------
// Zero radius: a point

TEST(RaySphere, ZeroRadiusSphereIsHitLikeAPoint) {
    const Sphere point{{0.0f, 0.0f, 3.0f}, 0.0f};
    const Ray ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    const auto hit = raycast(ray, point);
    ASSERT_TRUE(hit);
    EXPECT_TRUE(isWellFormedHit(*hit, ray, kInf));
    EXPECT_FLOAT_EQ(hit->t, 3.0f);
    EXPECT_LE(glm::dot(hit->normal, ray.dir), 0.0f) << str(*hit);
}

TEST(RaySphere, ZeroRadiusSphereBesideTheRayIsMissed) {
    const Sphere point{{0.0f, 0.0f, 3.0f}, 0.0f};
    EXPECT_TRUE(misses(raycast(Ray{{0.001f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, point)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 4.0f}, {0.0f, 0.0f, 1.0f}}, point)));
}

TEST(RaySphere, RayStartingAtAZeroRadiusSphereHitsAtZero) {
    const Sphere point{{1.0f, 2.0f, 3.0f}, 0.0f};
    const Ray ray{point.center, {0.0f, 1.0f, 0.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, point), ray, kInf, 0.0f, {0.0f, -1.0f, 0.0f}, Kind::Solid));
}

// ---------------------------------------------------------------------------------------------
// Precision (Haines et al.): a small sphere far away

TEST(RaySphere, SmallSphereFarAwayIsHitAccurately) {
    // Radius 0.01 at distance 1e4: the naive discriminant b^2 - 4ac cancels catastrophically.
    const Sphere tiny{{0.0f, 0.0f, 10000.0f}, 0.01f};
    const Ray centred{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    const auto hit = raycast(centred, tiny);
    ASSERT_TRUE(hit);
    EXPECT_TRUE(isWellFormedHit(*hit, centred, kInf));
    EXPECT_NEAR(hit->t, 9999.99, 2e-3);
    EXPECT_TRUE(near(hit->normal, {0.0f, 0.0f, -1.0f}, 1e-3));

    const Ray offset{{0.005f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
    const double z = std::sqrt(0.01 * 0.01 - 0.005 * 0.005);
    const auto offsetHit = raycast(offset, tiny);
    ASSERT_TRUE(offsetHit);
    EXPECT_TRUE(isWellFormedHit(*offsetHit, offset, kInf));
    EXPECT_NEAR(offsetHit->t, 10000.0 - z, 2e-3);

    EXPECT_TRUE(misses(raycast(Ray{{0.0105f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, tiny)));
    EXPECT_TRUE(raycast(Ray{{0.0095f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, tiny).has_value());
    EXPECT_TRUE(raycast(Ray{{0.0f, -0.0095f, 0.0f}, {0.0f, 0.0f, 0.25f}}, tiny).has_value());
}

TEST(RaySphere, OriginJustOutsideALargeSphereIsNotReportedInside) {
    // One unit outside a sphere of radius 1024 (all values exact in float): t = 1, not 0.
    const Sphere big{{0.0f, 0.0f, 0.0f}, 1024.0f};
    const Ray ray{{0.0f, 0.0f, -1025.0f}, {0.0f, 0.0f, 1.0f}};
    EXPECT_TRUE(hitsAt(raycast(ray, big), ray, kInf, 1.0f, {0.0f, 0.0f, -1.0f}, Kind::Solid, 1e-4));
}

// ---------------------------------------------------------------------------------------------
// Invalid input

TEST(RaySphere, ZeroLengthDirectionMissesEvenFromInside) {
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 0.0f}}, kUnit)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}, kUnit)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {-0.0f, 0.0f, -0.0f}}, kUnit)));
}

TEST(RaySphere, NegativeRadiusIsDegenerateAndMisses) {
    EXPECT_TRUE(
        misses(raycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}}, Sphere{{0.0f, 0.0f, 0.0f}, -1.0f})));
    EXPECT_TRUE(
        misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, Sphere{{0.0f, 0.0f, 0.0f}, -1e-30f})));
}

TEST(RaySphere, NaNInAnyInputMisses) {
    const Ray ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    ASSERT_TRUE(raycast(ray, kUnit));
    for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE(i);
        Ray r = ray;
        r.origin[i] = kNaN;
        EXPECT_TRUE(misses(raycast(r, kUnit)));
        r = ray;
        r.dir[i] = kNaN;
        EXPECT_TRUE(misses(raycast(r, kUnit)));
        Sphere s = kUnit;
        s.center[i] = kNaN;
        EXPECT_TRUE(misses(raycast(ray, s)));
    }
    EXPECT_TRUE(misses(raycast(ray, Sphere{{0.0f, 0.0f, 0.0f}, kNaN})));
    EXPECT_TRUE(misses(raycast(ray, kUnit, kNaN)));
    // From inside as well.
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, kNaN, 1.0f}}, kUnit)));
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, kUnit, kNaN)));
}

TEST(RaySphere, InfiniteInputMisses) {
    const Ray ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    for (int i = 0; i < 3; ++i) {
        for (const float inf : {kInf, -kInf}) {
            SCOPED_TRACE(testing::Message() << i << " " << inf);
            Ray r = ray;
            r.origin[i] = inf;
            EXPECT_TRUE(misses(raycast(r, kUnit)));
            r = ray;
            r.dir[i] = inf;
            EXPECT_TRUE(misses(raycast(r, kUnit)));
            Sphere s = kUnit;
            s.center[i] = inf;
            EXPECT_TRUE(misses(raycast(ray, s)));
        }
    }
    EXPECT_TRUE(misses(raycast(ray, Sphere{{0.0f, 0.0f, 0.0f}, kInf})));
    EXPECT_TRUE(
        misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}, Sphere{{0.0f, 0.0f, 0.0f}, kInf})));
}

TEST(RaySphere, HitWhoseTWouldOverflowIsNoHit) {
    // True t = 9e39 / 1 does not fit in a float.
    const Sphere far{{1e30f, 0.0f, 0.0f}, 1e29f};
    EXPECT_TRUE(misses(raycast(Ray{{0.0f, 0.0f, 0.0f}, {1e-10f, 0.0f, 0.0f}}, far)));
}

TEST(RaySphere, HugeButFiniteInputNeverGivesNaN) {
    const Sphere spheres[] = {{{1e30f, 0.0f, 0.0f}, 1e29f},
                              {{3e38f, 3e38f, 0.0f}, 1e38f},
                              {{0.0f, 0.0f, 0.0f}, 3e38f},
                              {{1e20f, 0.0f, 0.0f}, 1e19f}};
    const Ray rays[] = {{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}},
                        {{-3e38f, 0.0f, 0.0f}, {1e30f, 1e30f, 0.0f}},
                        {{0.0f, 0.0f, 0.0f}, {3e38f, 0.0f, 0.0f}},
                        {{1e20f, 1e20f, 1e20f}, {-1e-20f, -1e-20f, -1e-20f}}};
    for (const auto& s : spheres)
        for (const auto& r : rays) {
            const auto hit = raycast(r, s);
            if (hit) {
                EXPECT_TRUE(isWellFormedHit(*hit, r, kInf)) << str(r);
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
    bool illConditioned = false; ///< Within 1e-3 relative of a boundary: float may disagree.
};

/// The textbook quadratic a t^2 + b t + c = 0 in double, independent of the implementation's
/// stable-root form.
Reference referenceRaySphere(const Ray& ray, const Sphere& sphere, float tMax) {
    const glm::dvec3 o = toD(ray.origin), d = toD(ray.dir), c = toD(sphere.center);
    const double r = sphere.radius;
    const glm::dvec3 f = o - c;
    const double a = glm::dot(d, d);
    const double b = 2.0 * glm::dot(f, d);
    const double cc = glm::dot(f, f) - r * r;
    Reference ref;
    const double dist = glm::length(f);
    // Origin near the surface: |f|^2 - r^2 cancels, so float t is only good to eps / (relative gap).
    if (std::abs(dist - r) <= 1e-2 * (dist + r)) ref.illConditioned = true;
    if (cc <= 0.0) {
        ref.hit = RefHit{0.0, -glm::normalize(d)};
        return ref;
    }
    const double disc = b * b - 4.0 * a * cc;
    const glm::dvec3 unit = d / std::sqrt(a);
    const double perp = glm::length(f - glm::dot(f, unit) * unit);
    if (glm::dot(f, d) < 0.0 && std::abs(perp - r) <= 1e-3 * r) ref.illConditioned = true; // near tangent
    if (disc < 0.0) return ref;
    const double t = (-b - std::sqrt(disc)) / (2.0 * a);
    if (t < 0.0) return ref;
    if (std::abs(t - static_cast<double>(tMax)) <= 1e-3 * t) ref.illConditioned = true;
    if (t > static_cast<double>(tMax)) return ref;
    ref.hit = RefHit{t, (o + t * d - c) / r};
    return ref;
}

TEST(RaySphereProperty, AgreesWithDoublePrecisionQuadratic) {
    Random rng(kSeed);
    CaseStats stats(kSeed);
    for (int i = 0; i < kCases; ++i) {
        const Sphere s{rng.inBoxF(5.0), rng.uniformF(0.5, 5.0)};
        const glm::vec3 origin = rng.inBoxF(15.0);
        const glm::dvec3 aim = toD(s.center) + rng.inBall(1.3 * s.radius);
        glm::dvec3 unit = aim - toD(origin);
        unit = (rng.chance(0.2) || glm::length(unit) < 1e-6) ? rng.unitVector() : glm::normalize(unit);
        const Ray ray{origin, rng.scaledDir(unit)};
        const float tMax = rng.tMax(glm::length(aim - toD(origin)) / glm::length(toD(ray.dir)));

        const auto got = raycast(ray, s, tMax);
        const Reference ref = referenceRaySphere(ray, s, tMax);
        const auto describe = [&] {
            return str(ray) + ", Sphere{" + str(s.center) + ", " + str(s.radius) + "}, tMax " + str(tMax) +
                   ": got " + str(got) +
                   (ref.hit ? ", expected t " + str(static_cast<float>(ref.hit->t)) + " normal " +
                                  str(glm::vec3(ref.hit->normal))
                            : std::string(", expected no hit"));
        };
        if (got) {
            if (const auto ok = isWellFormedHit(*got, ray, tMax); !ok) {
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

TEST(RaySphereProperty, ScalingTheDirectionScalesTInversely) {
    Random rng(kSeed + 1u);
    CaseStats stats(kSeed + 1u);
    for (int i = 0; i < kCases / 4; ++i) {
        const Sphere s{rng.inBoxF(5.0), rng.uniformF(0.5, 5.0)};
        const glm::vec3 origin = rng.inBoxF(15.0);
        const glm::dvec3 unit = glm::normalize(toD(s.center) + rng.inBall(0.9 * s.radius) - toD(origin));
        const Ray unitRay{origin, glm::vec3(unit)};
        const float k = static_cast<float>(rng.logUniform(0.01, 100.0));
        const Ray scaled{origin, unitRay.dir * k};
        const auto a = raycast(unitRay, s);
        const auto b = raycast(scaled, s);
        ++stats.compared;
        bool ok = a.has_value() && b.has_value();
        if (ok) {
            ok = tAgrees(b->t * k, static_cast<double>(a->t)) && near(a->normal, b->normal, 1e-4) &&
                 near(a->point, b->point, 1e-4 * (1.0 + glm::length(toD(a->point))));
        }
        if (!ok && !stats.fail(i, str(unitRay) + " scaled by " + str(k) + " on Sphere{" + str(s.center) +
                                      ", " + str(s.radius) + "}: " + str(a) + " vs " + str(b)))
            break;
    }
    stats.expectMostlyCompared(kCases / 4);
}

TEST(RaySphereProperty, ExtremeAndNonFiniteInputNeverGivesNaN) {
    Random rng(kSeed + 2u);
    CaseStats stats(kSeed + 2u);
    for (int i = 0; i < kCases; ++i) {
        const Ray ray{rng.mixedVec(10.0), rng.mixedVec(2.0)};
        const Sphere s{rng.mixedVec(10.0), rng.chance(0.5) ? rng.wild() : rng.uniformF(0.0, 5.0)};
        const float tMax = rng.wildTMax();
        const auto got = raycast(ray, s, tMax);
        ++stats.compared;
        stats.hits += got ? 1 : 0;
        const glm::vec3 vs[] = {ray.origin, ray.dir, s.center};
        const bool invalid = anyNonFinite(vs) || !isFinite(s.radius) || s.radius < 0.0f || std::isnan(tMax) ||
                             tMax < 0.0f || glm::dot(toD(ray.dir), toD(ray.dir)) == 0.0;
        const auto describe = [&] {
            return str(ray) + ", Sphere{" + str(s.center) + ", " + str(s.radius) + "}, tMax " + str(tMax) +
                   ": got " + str(got);
        };
        if (invalid && got && !stats.fail(i, "invalid input hit: " + describe())) break;
        if (got) {
            if (const auto ok = isWellFormedHit(*got, ray, tMax); !ok)
                if (!stats.fail(i, ok.message() + std::string(" ") + describe())) break;
        }
    }
    stats.expectMostlyCompared(kCases);
}

} // namespace
