// The ray-query traces (explain_ray.hpp): scenarios for each step kind, then property tests that
// each trace's result is bit for bit its fast query's (same hit or miss, t, point, normal,
// barycentrics) and that its steps agree with that result, on 100,000+ random cases per query.
#include "geom/geom.hpp"
#include "support/ray_test_support.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <optional>
#include <string>

namespace {

using namespace kz;
using namespace kz::raytest;

const Sphere kUnitSphere{{0.0f, 0.0f, 0.0f}, 1.0f};
const Aabb kUnitBox{{-1.0f, -1.0f, -1.0f}, {1.0f, 1.0f, 1.0f}};
const Triangle kCornerTriangle{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};

/// The same hit or miss, and every field the same float.
bool identical(const std::optional<RayHit>& a, const std::optional<RayHit>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || (a->t == b->t && a->point == b->point && a->normal == b->normal);
}
bool identical(const std::optional<TriangleHit>& a, const std::optional<TriangleHit>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || (a->t == b->t && a->u == b->u && a->v == b->v && a->normal == b->normal);
}

// =============================================================================================
// Ray-sphere

TEST(ExplainRaySphere, RayFromOutsideTakesTheNearRoot) {
    // m = (0, 0, -5), u = +z: b = -5, c = 24, discriminant 1 - 0 = 1, roots s = 5 -+ 1.
    const Ray ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 2.0f}};
    const RaySphereTrace trace = explainRaycast(ray, kUnitSphere);
    EXPECT_EQ(trace.reason, RaySphereReason::NearRoot);
    EXPECT_EQ(trace.a, 1.0f);
    EXPECT_EQ(trace.b, -5.0f);
    EXPECT_EQ(trace.c, 24.0f);
    EXPECT_EQ(trace.discriminant, 1.0f);
    EXPECT_TRUE(trace.realRoots);
    EXPECT_EQ(trace.sNear, 4.0f);
    EXPECT_EQ(trace.sFar, 6.0f);
    EXPECT_EQ(trace.tNear, 2.0f); // in units of dir, |dir| = 2
    EXPECT_EQ(trace.tFar, 3.0f);
    ASSERT_TRUE(trace.result);
    EXPECT_EQ(trace.result->t, 2.0f);
    EXPECT_TRUE(identical(trace.result, raycast(ray, kUnitSphere)));
}

TEST(ExplainRaySphere, RayStartingInsideASphereTakesTheExitRoot) {
    const Ray ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 2.0f}};
    const RaySphereTrace trace = explainRaycast(ray, kUnitSphere);
    EXPECT_EQ(trace.reason, RaySphereReason::InsideStart);
    EXPECT_EQ(trace.c, -1.0f);
    EXPECT_EQ(trace.sFar, 1.0f);
    EXPECT_EQ(trace.tFar, 0.5f); // where it leaves
    EXPECT_EQ(trace.sNear, -1.0f);
    ASSERT_TRUE(trace.result);
    EXPECT_EQ(trace.result->t, 0.0f); // the contract for solids: hit at t = 0
    EXPECT_EQ(trace.result->normal, glm::vec3(0.0f, 0.0f, -1.0f));
}

TEST(ExplainRaySphere, RayPointingAwayHasBothRootsBehindTheOrigin) {
    const RaySphereTrace trace = explainRaycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, -1.0f}}, kUnitSphere);
    EXPECT_EQ(trace.reason, RaySphereReason::BehindOrigin);
    EXPECT_EQ(trace.b, 5.0f);
    EXPECT_EQ(trace.sNear, -6.0f);
    EXPECT_EQ(trace.sFar, -4.0f);
    EXPECT_FALSE(trace.result);
}

TEST(ExplainRaySphere, RayPassingBesideTheSphereHasANegativeDiscriminant) {
    const RaySphereTrace trace = explainRaycast(Ray{{2.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}}, kUnitSphere);
    EXPECT_EQ(trace.reason, RaySphereReason::NegativeDiscriminant);
    EXPECT_EQ(trace.discriminant, -3.0f); // r^2 - 2^2
    EXPECT_FALSE(trace.realRoots);
    EXPECT_EQ(trace.sNear, 0.0f);
    EXPECT_FALSE(trace.result);
}

TEST(ExplainRaySphere, NearRootBeyondTMaxIsCut) {
    const RaySphereTrace trace =
        explainRaycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}}, kUnitSphere, 3.9f);
    EXPECT_EQ(trace.reason, RaySphereReason::BeyondTMax);
    EXPECT_EQ(trace.tNear, 4.0f);
    EXPECT_FALSE(trace.result);
}

TEST(ExplainRaySphere, InvalidInputComputesNothing) {
    const RaySphereTrace trace = explainRaycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 0.0f}}, kUnitSphere);
    EXPECT_EQ(trace.reason, RaySphereReason::InvalidInput);
    EXPECT_EQ(trace.a, 0.0f);
    EXPECT_FALSE(trace.result);
}

// =============================================================================================
// Ray-box

TEST(ExplainRayBox, EachSlabGivesItsIntervalAndTheLatestEntryIsTheHit) {
    // x: [4, 6]; y: (-1 - 0.5) / 0.1 = -15 to 5; z parallel inside. Overall [4, 5], entered on -x.
    const Ray ray{{-5.0f, 0.5f, 0.25f}, {1.0f, 0.1f, 0.0f}};
    const RayBoxTrace trace = explainRaycast(ray, kUnitBox);
    EXPECT_EQ(trace.reason, RayBoxReason::Hit);
    EXPECT_EQ(trace.slabs[0].kind, SlabKind::Crossing);
    EXPECT_EQ(trace.slabs[0].tEnter, 4.0f);
    EXPECT_EQ(trace.slabs[0].tExit, 6.0f);
    EXPECT_FLOAT_EQ(trace.slabs[1].tEnter, -15.0f);
    EXPECT_FLOAT_EQ(trace.slabs[1].tExit, 5.0f);
    EXPECT_EQ(trace.slabs[2].kind, SlabKind::ParallelInside);
    EXPECT_EQ(trace.tEnter, 4.0f);
    EXPECT_FLOAT_EQ(trace.tExit, 5.0f);
    EXPECT_EQ(trace.enteringAxis, 0);
    EXPECT_EQ(trace.enteringFace, -1.0f);
    EXPECT_EQ(trace.missSlab, -1);
    ASSERT_TRUE(trace.result);
    EXPECT_EQ(trace.result->normal, glm::vec3(-1.0f, 0.0f, 0.0f));
    EXPECT_TRUE(identical(trace.result, raycast(ray, kUnitBox)));
}

TEST(ExplainRayBox, RayParallelToASlabOutsideIsMissedByThatSlab) {
    const RayBoxTrace trace = explainRaycast(Ray{{2.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}}, kUnitBox);
    EXPECT_EQ(trace.reason, RayBoxReason::MissedBySlab);
    EXPECT_EQ(trace.slabs[0].kind, SlabKind::ParallelOutside);
    EXPECT_EQ(trace.slabs[1].kind, SlabKind::ParallelInside);
    EXPECT_EQ(trace.missSlab, 0);
    EXPECT_EQ(trace.enteringAxis, -1);
    EXPECT_GT(trace.tEnter, trace.tExit);
    EXPECT_FALSE(trace.result);
}

TEST(ExplainRayBox, RayPassingACornerIsMissedByTheSlabThatEmptiesTheInterval) {
    // x: [4, 6]; y: [-8, -4], so after slab y the running interval [4, -4] is empty.
    const RayBoxTrace trace = explainRaycast(Ray{{-5.0f, 3.0f, 0.0f}, {1.0f, 0.5f, 0.0f}}, kUnitBox);
    EXPECT_EQ(trace.reason, RayBoxReason::MissedBySlab);
    EXPECT_EQ(trace.missSlab, 1);
    EXPECT_EQ(trace.slabs[1].tEnter, -8.0f);
    EXPECT_EQ(trace.slabs[1].tExit, -4.0f);
}

TEST(ExplainRayBox, BoxBehindTheOriginIsMissedByItsFirstSlab) {
    const RayBoxTrace trace = explainRaycast(Ray{{5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kUnitBox);
    EXPECT_EQ(trace.reason, RayBoxReason::MissedBySlab);
    EXPECT_EQ(trace.missSlab, 0);
    EXPECT_EQ(trace.slabs[0].tEnter, -6.0f);
    EXPECT_EQ(trace.slabs[0].tExit, -4.0f);
}

TEST(ExplainRayBox, BoxBeyondTMaxIsCutByTMaxNotByASlab) {
    const RayBoxTrace trace = explainRaycast(Ray{{-5.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kUnitBox, 3.0f);
    EXPECT_EQ(trace.reason, RayBoxReason::BeyondTMax);
    EXPECT_EQ(trace.tEnter, 4.0f);
    EXPECT_EQ(trace.tExit, 3.0f);
    EXPECT_FALSE(trace.result);
}

TEST(ExplainRayBox, RayStartingInsideABoxHitsAtZero) {
    const Ray ray{{0.5f, 0.0f, 0.0f}, {0.0f, 3.0f, 0.0f}};
    const RayBoxTrace trace = explainRaycast(ray, kUnitBox);
    EXPECT_EQ(trace.reason, RayBoxReason::InsideStart);
    EXPECT_EQ(trace.slabs[1].tEnter, -1.0f / 3.0f);
    EXPECT_EQ(trace.slabs[1].tExit, 1.0f / 3.0f);
    EXPECT_EQ(trace.tEnter, 0.0f);
    ASSERT_TRUE(trace.result);
    EXPECT_EQ(trace.result->t, 0.0f);
    EXPECT_EQ(trace.result->normal, glm::vec3(0.0f, -1.0f, 0.0f));
}

TEST(ExplainRayBox, ObbSlabsAreInTheBoxFrameWithWorldAxes) {
    // Local x -> world y, local y -> world z, local z -> world x.
    const glm::mat3 cyclic{glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f, 0.0f, 1.0f),
                           glm::vec3(1.0f, 0.0f, 0.0f)};
    const Obb box{{10.0f, 0.0f, 0.0f}, {1.0f, 2.0f, 3.0f}, cyclic};
    const Ray ray{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}}; // along local z, from local z = -10
    const RayBoxTrace trace = explainRaycast(ray, box);
    EXPECT_EQ(trace.reason, RayBoxReason::Hit);
    EXPECT_EQ(trace.localOrigin, glm::vec3(0.0f, 0.0f, -10.0f));
    EXPECT_EQ(trace.localDir, glm::vec3(0.0f, 0.0f, 1.0f));
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(trace.slabs[static_cast<std::size_t>(i)].axis, cyclic[i]);
    EXPECT_EQ(trace.slabs[2].lo, -3.0f);
    EXPECT_EQ(trace.slabs[2].tEnter, 7.0f);
    EXPECT_EQ(trace.slabs[2].tExit, 13.0f);
    EXPECT_EQ(trace.enteringAxis, 2);
    EXPECT_EQ(trace.enteringFace, -1.0f);
    ASSERT_TRUE(trace.result);
    EXPECT_EQ(trace.result->normal, glm::vec3(-1.0f, 0.0f, 0.0f));
    EXPECT_TRUE(identical(trace.result, raycast(ray, box)));
}

// =============================================================================================
// Ray-plane

const Plane kFloor{{0.0f, 1.0f, 0.0f}, 1.0f}; // y = -1

TEST(ExplainRayPlane, RayMeetingTheFrontSideFacesIt) {
    const RayPlaneTrace trace = explainRaycast(Ray{{0.0f, 3.0f, 0.0f}, {0.0f, -2.0f, 0.0f}}, kFloor);
    EXPECT_EQ(trace.reason, RayPlaneReason::Hit);
    EXPECT_EQ(trace.denominator, -2.0f);
    EXPECT_TRUE(trace.facing);
    EXPECT_EQ(trace.numerator, -4.0f);
    EXPECT_EQ(trace.t, 2.0f);
    ASSERT_TRUE(trace.result);
    EXPECT_EQ(trace.result->normal, glm::vec3(0.0f, 1.0f, 0.0f));
}

TEST(ExplainRayPlane, RayMeetingTheBackSideGetsTheFlippedNormal) {
    const RayPlaneTrace trace = explainRaycast(Ray{{0.0f, -3.0f, 0.0f}, {0.0f, 1.0f, 0.0f}}, kFloor);
    EXPECT_EQ(trace.reason, RayPlaneReason::Hit);
    EXPECT_FALSE(trace.facing);
    EXPECT_EQ(trace.t, 2.0f);
    ASSERT_TRUE(trace.result);
    EXPECT_EQ(trace.result->normal, glm::vec3(0.0f, -1.0f, 0.0f));
}

TEST(ExplainRayPlane, RayAlongThePlaneIsParallel) {
    const RayPlaneTrace trace = explainRaycast(Ray{{0.0f, -1.0f, 0.0f}, {1.0f, 0.0f, 0.0f}}, kFloor);
    EXPECT_EQ(trace.reason, RayPlaneReason::Parallel);
    EXPECT_EQ(trace.denominator, 0.0f);
    EXPECT_EQ(trace.parallelLimit, kParallelCosine);
    EXPECT_FALSE(trace.result);
}

TEST(ExplainRayPlane, PlaneBehindTheOriginOrBeyondTMaxIsNotHit) {
    EXPECT_EQ(explainRaycast(Ray{{0.0f, 3.0f, 0.0f}, {0.0f, 1.0f, 0.0f}}, kFloor).reason,
              RayPlaneReason::BehindOrigin);
    const RayPlaneTrace cut = explainRaycast(Ray{{0.0f, 3.0f, 0.0f}, {0.0f, -1.0f, 0.0f}}, kFloor, 3.5f);
    EXPECT_EQ(cut.reason, RayPlaneReason::BeyondTMax);
    EXPECT_EQ(cut.t, 4.0f);
}

// =============================================================================================
// Ray-triangle

TEST(ExplainRayTriangle, HitShowsTheShearTheEdgeFunctionsAndTheBarycentrics) {
    // dir +z: iz = 2, ix = 0, iy = 1; sheared vertices are the vertices minus the origin.
    const Ray ray{{0.25f, 0.25f, -1.0f}, {0.0f, 0.0f, 1.0f}};
    const RayTriangleTrace trace = explainRaycastTriangle(ray, kCornerTriangle);
    EXPECT_EQ(trace.reason, RayTriangleReason::Hit);
    EXPECT_EQ(trace.iz, 2);
    EXPECT_EQ(trace.ix, 0);
    EXPECT_EQ(trace.iy, 1);
    EXPECT_EQ(trace.shear, glm::dvec3(0.0, 0.0, 1.0));
    EXPECT_EQ(trace.sheared[0], glm::dvec3(-0.25, -0.25, 1.0));
    EXPECT_EQ(trace.sheared[1], glm::dvec3(0.75, -0.25, 1.0));
    EXPECT_EQ(trace.sheared[2], glm::dvec3(-0.25, 0.75, 1.0));
    EXPECT_EQ(trace.u, -0.5);
    EXPECT_EQ(trace.v, -0.25);
    EXPECT_EQ(trace.w, -0.25);
    EXPECT_EQ(trace.det, -1.0);
    EXPECT_EQ(trace.barycentric, glm::dvec3(0.5, 0.25, 0.25));
    EXPECT_EQ(trace.t, 1.0);
    EXPECT_EQ(trace.faceNormal, glm::vec3(0.0f, 0.0f, 1.0f));
    EXPECT_EQ(trace.dirDotNormal, 1.0f); // > 0: the normal is flipped to face the origin
    ASSERT_TRUE(trace.hit);
    EXPECT_EQ(trace.hit->u, 0.25f);
    EXPECT_EQ(trace.hit->v, 0.25f);
    EXPECT_EQ(trace.hit->normal, glm::vec3(0.0f, 0.0f, -1.0f));
    EXPECT_TRUE(identical(trace.hit, raycastBarycentric(ray, kCornerTriangle)));
    EXPECT_TRUE(identical(trace.result, raycast(ray, kCornerTriangle)));
}

TEST(ExplainRayTriangle, ANegativeDirectionSwapsTheShearAxesToKeepTheWinding) {
    const RayTriangleTrace trace =
        explainRaycastTriangle(Ray{{0.25f, 0.25f, 1.0f}, {0.0f, 0.0f, -1.0f}}, kCornerTriangle);
    EXPECT_EQ(trace.iz, 2);
    EXPECT_EQ(trace.ix, 1);
    EXPECT_EQ(trace.iy, 0);
    EXPECT_EQ(trace.reason, RayTriangleReason::Hit);
}

TEST(ExplainRayTriangle, RayPassingOutsideAnEdgeHasMixedEdgeSigns) {
    const RayTriangleTrace trace =
        explainRaycastTriangle(Ray{{1.0f, 1.0f, -1.0f}, {0.0f, 0.0f, 1.0f}}, kCornerTriangle);
    EXPECT_EQ(trace.reason, RayTriangleReason::OutsideAnEdge);
    EXPECT_GT(trace.u, 0.0); // outside edge b-c
    EXPECT_LT(trace.v, 0.0);
    EXPECT_FALSE(trace.hit);
}

TEST(ExplainRayTriangle, ACollinearTriangleHasNoAreaAlongTheRay) {
    const Triangle line{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}};
    const RayTriangleTrace trace = explainRaycastTriangle(Ray{{0.5f, 0.0f, -1.0f}, {0.0f, 0.0f, 1.0f}}, line);
    EXPECT_EQ(trace.reason, RayTriangleReason::BelowRounding);
    EXPECT_EQ(trace.det, 0.0);
}

TEST(ExplainRayTriangle, TriangleBehindTheOriginOrBeyondTMaxIsRejectedByT) {
    EXPECT_EQ(explainRaycastTriangle(Ray{{0.25f, 0.25f, 1.0f}, {0.0f, 0.0f, 1.0f}}, kCornerTriangle).reason,
              RayTriangleReason::BehindOrigin);
    const RayTriangleTrace cut =
        explainRaycastTriangle(Ray{{0.25f, 0.25f, -1.0f}, {0.0f, 0.0f, 1.0f}}, kCornerTriangle, 0.5f);
    EXPECT_EQ(cut.reason, RayTriangleReason::BeyondTMax);
    EXPECT_EQ(cut.t, 1.0);
    EXPECT_EQ(explainRaycastTriangle(Ray{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}, kCornerTriangle).reason,
              RayTriangleReason::InvalidInput);
}

// =============================================================================================
// Property tests: each trace against its fast query

/// A ray from `rng` about a shape of size ~`size` at `centre`: from far away aimed near it, from
/// inside, grazing (an origin on the shape's bounding planes), with zero direction components, or
/// (rarely) wild values; and its tMax, which often cuts the hit.
Ray randomRayNear(Random& rng, const glm::vec3& centre, double size, float& tMax) {
    const glm::dvec3 c(centre);
    Ray ray{};
    switch (rng.integer(0, 9)) {
    case 0:
        ray = {rng.wildVec(), rng.wildVec()};
        tMax = rng.wildTMax();
        return ray;
    case 1:
    case 2: // from inside or near the surface
        ray = {glm::vec3(c + rng.inBall(1.2 * size)), rng.scaledDir(rng.unitVector())};
        break;
    case 3: { // zero direction components
        glm::vec3 dir(rng.unitVector());
        dir[rng.integer(0, 2)] = 0.0f;
        if (rng.chance(0.5)) dir[rng.integer(0, 2)] = 0.0f;
        if (glm::dot(dir, dir) == 0.0f) dir.y = 1.0f;
        ray = {glm::vec3(c + rng.inBox(2.0 * size)), dir * static_cast<float>(rng.logUniform(0.01, 100.0))};
        break;
    }
    default: { // from far away toward a point near the shape
        const glm::dvec3 origin = c + rng.unitVector() * size * rng.uniform(1.5, 20.0);
        const glm::dvec3 aim = c + rng.inBall(1.3 * size);
        ray = {glm::vec3(origin), rng.scaledDir(glm::normalize(aim - origin))};
    }
    }
    tMax = rng.chance(0.6) ? kInf : rng.uniformF(0.0, 30.0 * size / glm::length(toD(ray.dir)));
    return ray;
}

/// Runs `check(rng, index)` (an error text, empty when fine) on `cases` random cases.
template <class Check>
void forRandomCases(std::uint32_t seed, int cases, Check check) {
    Random rng(seed);
    CaseStats stats(seed);
    for (int i = 0; i < cases && stats.failures < CaseStats::kMaxReported; ++i) {
        ++stats.compared;
        bool hit = false;
        if (const std::string failure = check(rng, hit); !failure.empty()) stats.fail(i, failure);
        stats.hits += hit ? 1 : 0;
    }
    stats.expectMostlyCompared(cases, true);
}

TEST(ExplainRayProperty, SphereTracesAgreeWithRaycastAndTheirRoots) {
    forRandomCases(kSeed + 900u, kCases, [](Random& rng, bool& hit) -> std::string {
        const Sphere sphere{rng.inBoxF(10.0),
                            rng.chance(0.05) ? 0.0f : static_cast<float>(rng.logUniform(0.01, 10.0))};
        float tMax = kInf;
        const Ray ray = randomRayNear(rng, sphere.center, std::max(sphere.radius, 0.01f), tMax);
        const RaySphereTrace trace = explainRaycast(ray, sphere, tMax);
        const auto fast = raycast(ray, sphere, tMax);
        hit = fast.has_value();
        const std::string where = str(ray) + " sphere " + str(sphere.center) + " r " + str(sphere.radius) +
                                  " tMax " + str(tMax) + ": ";
        if (!identical(trace.result, fast)) return where + str(trace.result) + " vs raycast " + str(fast);
        const bool takes =
            trace.reason == RaySphereReason::NearRoot || trace.reason == RaySphereReason::InsideStart;
        if (takes != fast.has_value()) return where + "reason disagrees with the result";
        if (trace.reason == RaySphereReason::NearRoot && fast->t != trace.tNear)
            return where + "t is not tNear";
        if (trace.reason == RaySphereReason::InsideStart &&
            (trace.c > 0.0f || fast->t != 0.0f || (trace.realRoots && !(trace.tFar >= 0.0f))))
            return where + "an inside start must hit at 0 with the exit root ahead";
        return {};
    });
}

/// The box trace's own consistency with its result.
std::string checkBoxTrace(const RayBoxTrace& trace, const std::optional<RayHit>& fast) {
    if (!identical(trace.result, fast)) return str(trace.result) + " vs raycast " + str(fast);
    const bool hits = trace.reason == RayBoxReason::Hit || trace.reason == RayBoxReason::InsideStart;
    if (hits != fast.has_value()) return "reason disagrees with the result";
    if (trace.reason == RayBoxReason::Hit &&
        (fast->t != trace.tEnter || trace.enteringAxis < 0 || !(trace.tEnter <= trace.tExit)))
        return "a hit must be at the entry of a non-empty interval";
    if ((trace.reason == RayBoxReason::MissedBySlab || trace.reason == RayBoxReason::BeyondTMax) &&
        (trace.missSlab < 0 || !(trace.tEnter > trace.tExit)))
        return "a miss must name its slab and have an empty interval";
    for (const SlabInterval& slab : trace.slabs)
        if (slab.kind == SlabKind::Crossing && !(slab.tEnter <= slab.tExit))
            return "a slab's interval is reversed";
    return {};
}

/// Compares the box trace of a random ray about `centre` with raycast.
template <class Box>
std::string compareBoxCase(Random& rng, const Box& box, const glm::vec3& centre, bool& hit) {
    float tMax = kInf;
    Ray ray = randomRayNear(rng, centre, 3.0, tMax);
    // An origin in the plane x = centre.x + 3: the Aabb's face plane (grazing rays), the Obb's nothing
    // special.
    if (rng.chance(0.1)) ray.origin.x = centre.x + 3.0f;
    const auto fast = raycast(ray, box, tMax);
    hit = fast.has_value();
    const std::string failure = checkBoxTrace(explainRaycast(ray, box, tMax), fast);
    return failure.empty() ? failure : str(ray) + " tMax " + str(tMax) + ": " + failure;
}

TEST(ExplainRayProperty, AabbTracesAgreeWithRaycastAndTheirSlabs) {
    forRandomCases(kSeed + 901u, kCases, [](Random& rng, bool& hit) {
        const glm::vec3 centre = rng.inBoxF(10.0);
        glm::vec3 half(3.0f, rng.uniformF(0.0, 3.0), rng.uniformF(0.0, 3.0));
        if (rng.chance(0.05)) half[rng.integer(1, 2)] = 0.0f; // flat
        return compareBoxCase(rng, Aabb{centre - half, centre + half}, centre, hit);
    });
}

TEST(ExplainRayProperty, ObbTracesAgreeWithRaycastAndTheirSlabs) {
    forRandomCases(kSeed + 902u, kCases, [](Random& rng, bool& hit) {
        const Obb box{rng.inBoxF(10.0),
                      {3.0f, rng.uniformF(0.0, 3.0), rng.uniformF(0.0, 3.0)},
                      glm::mat3(rng.rotation())};
        return compareBoxCase(rng, box, box.center, hit);
    });
}

TEST(ExplainRayProperty, PlaneTracesAgreeWithRaycast) {
    forRandomCases(kSeed + 903u, kCases, [](Random& rng, bool& hit) -> std::string {
        const glm::vec3 normal = glm::vec3(rng.unitVector()) * static_cast<float>(rng.logUniform(0.1, 10.0));
        const Plane plane{normal, rng.uniformF(-10.0, 10.0)};
        float tMax = kInf;
        Ray ray = randomRayNear(rng, -plane.d * normal / glm::dot(normal, normal), 3.0, tMax);
        if (rng.chance(0.1)) ray.dir = glm::cross(ray.dir, normal); // parallel
        const RayPlaneTrace trace = explainRaycast(ray, plane, tMax);
        const auto fast = raycast(ray, plane, tMax);
        hit = fast.has_value();
        const std::string where = str(ray) + " tMax " + str(tMax) + ": ";
        if (!identical(trace.result, fast)) return where + str(trace.result) + " vs raycast " + str(fast);
        if ((trace.reason == RayPlaneReason::Hit) != fast.has_value()) return where + "reason disagrees";
        if (fast && (fast->t != trace.t || (glm::dot(fast->normal, normal) > 0.0f) != trace.facing))
            return where + "t or the facing side disagrees with the result";
        return {};
    });
}

TEST(ExplainRayProperty, TriangleTracesAgreeWithRaycastBarycentricAndRaycast) {
    forRandomCases(kSeed + 904u, kCases, [](Random& rng, bool& hit) -> std::string {
        Triangle tri{rng.inBoxF(5.0), rng.inBoxF(5.0), rng.inBoxF(5.0)};
        if (rng.chance(0.1))
            tri.c = tri.a + (tri.b - tri.a) * rng.uniformF(-1.0, 2.0) + rng.inBoxF(1e-3); // needle
        float tMax = kInf;
        Ray ray = randomRayNear(rng, (tri.a + tri.b + tri.c) / 3.0f, 3.0, tMax);
        if (rng.chance(0.3)) { // aimed at a point of the triangle, often on an edge or a vertex
            const float s = rng.chance(0.3) ? 0.0f : rng.uniformF(0.0, 1.0);
            const float r = rng.uniformF(0.0, 1.0 - s);
            ray.dir = (tri.a + s * (tri.b - tri.a) + r * (tri.c - tri.a)) - ray.origin;
        }
        const RayTriangleTrace trace = explainRaycastTriangle(ray, tri, tMax);
        const auto fast = raycastBarycentric(ray, tri, tMax);
        hit = fast.has_value();
        const std::string where = str(ray) + " " + str(tri) + " tMax " + str(tMax) + ": ";
        if (!identical(trace.hit, fast))
            return where + str(trace.hit) + " vs raycastBarycentric " + str(fast);
        if (!identical(trace.result, raycast(ray, tri, tMax))) return where + "result differs from raycast";
        if ((trace.reason == RayTriangleReason::Hit) != trace.result.has_value())
            return where + "reason disagrees";
        if (fast && (fast->t != static_cast<float>(trace.t) + 0.0f ||
                     fast->u != static_cast<float>(trace.barycentric.y) + 0.0f ||
                     fast->v != static_cast<float>(trace.barycentric.z) + 0.0f))
            return where + "t or barycentrics disagree with the steps";
        if (trace.reason == RayTriangleReason::OutsideAnEdge &&
            !((trace.u < 0.0 || trace.v < 0.0 || trace.w < 0.0) &&
              (trace.u > 0.0 || trace.v > 0.0 || trace.w > 0.0)))
            return where + "rejected by the edges without mixed signs";
        return {};
    });
}

} // namespace
