// Tests for geom/explain_sweep.hpp: the sphere-triangle sweep's trace gives sweepSphereTriangle's
// time to the bit on 100,000 random cases rich in corner cases (starting in contact, not moving,
// moving along an edge, a point sweep, a finite tMax, invalid input), its winner is its time,
// and hand-made scenarios are won by the feature they illustrate. The sphere-plane and
// sphere-sphere traces give their sweeps' times to the bit on 100,000 random cases each, end in
// every way, and their terms are the hand-computed ones.
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/same_bits.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace {

using namespace kz;
using namespace kz::test;

constexpr int kCases = 100000;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

const SweepCandidate& candidate(const SphereTriangleSweepTrace& t, SweepFeature f, int index) {
    return f == SweepFeature::Face   ? t.face
           : f == SweepFeature::Edge ? t.edges[std::size_t(index)]
                                     : t.corners[std::size_t(index)];
}

TEST(ExplainSweepSphereTrianglePropertyTest, AgreesWithSweepSphereTriangleToTheBit) {
    constexpr unsigned kSeed = 8080u;
    std::mt19937 rng(kSeed);
    int winners[5] = {};
    for (int i = 0; i < kCases; ++i) {
        Triangle tri{randomPoint(rng, 2.0f), randomPoint(rng, 2.0f), randomPoint(rng, 2.0f)};
        Sphere s{randomPoint(rng, 4.0f), uniform(rng, 0.0f, 1.0f)};
        glm::vec3 v = -s.center + randomPoint(rng, 2.0f); // mostly toward the triangle
        float tMax = INFINITY;
        switch (i % 10) {
        case 1:
            s.center = tri.a + 0.5f * randomPoint(rng, 1.0f);
            break; // often in contact already
        case 2:
            v = glm::vec3(0.0f);
            break;
        case 3:
            v = (tri.b - tri.a) * uniform(rng, -2.0f, 2.0f);
            break; // along an edge
        case 4:
            s.radius = 0.0f;
            break;
        case 5:
            tMax = uniform(rng, 0.0f, 1.5f);
            break;
        case 6:
            v = -v;
            break; // mostly away
        case 7:
            if (i % 20 == 7)
                s.radius = -1.0f;
            else
                tri.c.y = kNaN;
            break;
        default:
            break;
        }
        const std::string label = caseLabel(kSeed, i) + " " + str(glm::dvec3(s.center));
        const SphereTriangleSweepTrace t = explainSweepSphereTriangle(s, v, tri, tMax);
        ASSERT_TRUE(sameBits(t.time, sweepSphereTriangle(s, v, tri, tMax))) << label;
        ++winners[int(t.winner)];
        ASSERT_EQ(t.winner == SweepFeature::None, !t.time.has_value()) << label;
        if (!t.valid || t.initialOverlap) {
            ASSERT_EQ(t.face.status, SweepCandidateStatus::NotTried) << label;
            ASSERT_EQ(t.initialOverlap, t.winner == SweepFeature::InitialOverlap) << label;
            continue;
        }
        // Every feature tried; the winner's time is the time, and no candidate in range is earlier.
        for (const SweepFeature f : {SweepFeature::Face, SweepFeature::Edge, SweepFeature::Corner}) {
            for (int k = 0; k < (f == SweepFeature::Face ? 1 : 3); ++k) {
                const SweepCandidate& c = candidate(t, f, k);
                ASSERT_NE(c.status, SweepCandidateStatus::NotTried) << label;
                if (c.status == SweepCandidateStatus::BestSoFar ||
                    c.status == SweepCandidateStatus::NotEarlier) {
                    ASSERT_TRUE(t.time) << label;
                    ASSERT_GE(c.t, *t.time) << label;
                }
            }
        }
        if (t.time) {
            const SweepCandidate& won = candidate(t, t.winner, std::max(t.winnerIndex, 0));
            ASSERT_EQ(won.status, SweepCandidateStatus::BestSoFar) << label;
            ASSERT_TRUE(sameBits(won.t, *t.time)) << label;
        }
    }
    for (int k = 0; k < 5; ++k)
        EXPECT_GT(winners[k], kCases / 200) << "winner " << k;
}

const Triangle kTriangle{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};

TEST(ExplainSweepSphereTriangle, ASphereFallingOntoTheFaceIsWonByTheFace) {
    const SphereTriangleSweepTrace t = explainSweepSphereTriangle({{1, 1, 3}, 1}, {0, 0, -1}, kTriangle);
    EXPECT_FLOAT_EQ(t.height, 3.0f);
    EXPECT_EQ(t.face.status, SweepCandidateStatus::BestSoFar);
    EXPECT_FLOAT_EQ(t.face.t, 2.0f);
    EXPECT_EQ(t.winner, SweepFeature::Face);
    EXPECT_EQ(t.winnerIndex, -1);
    for (const SweepCandidate& c : t.corners) // already within r of a, far from b and c
        EXPECT_NE(c.status, SweepCandidateStatus::BestSoFar);
}

TEST(ExplainSweepSphereTriangle, ASpherePassingBesideAnEdgeTouchesItsCylinder) {
    // Moving along +y at z = 0.5, 2 below edge ab: the face plane's touch is off the triangle.
    const SphereTriangleSweepTrace t = explainSweepSphereTriangle({{2, -3, 0.5f}, 1}, {0, 1, 0}, kTriangle);
    EXPECT_EQ(t.face.status, SweepCandidateStatus::AlreadyWithin);
    EXPECT_EQ(t.winner, SweepFeature::Edge);
    EXPECT_EQ(t.winnerIndex, 0);
    ASSERT_TRUE(t.time);
    EXPECT_NEAR(*t.time, 3.0f - std::sqrt(0.75f), 1e-5f);
}

TEST(ExplainSweepSphereTriangle, ASphereAimedPastACornerTouchesItsCornerSphere) {
    const SphereTriangleSweepTrace t = explainSweepSphereTriangle({{-3, -3, 0}, 1}, {1, 1, 0}, kTriangle);
    EXPECT_EQ(t.winner, SweepFeature::Corner);
    EXPECT_EQ(t.winnerIndex, 0);
    // bc's cylinder, tried before the corners, was the best so far; a's sphere comes earlier.
    EXPECT_EQ(t.edges[1].status, SweepCandidateStatus::BestSoFar);
    EXPECT_EQ(t.edges[0].status, SweepCandidateStatus::OffFeature); // ab's line, beyond a
    ASSERT_TRUE(t.time);
    EXPECT_NEAR(*t.time, 3.0f - 1.0f / std::sqrt(2.0f), 1e-5f);
}

TEST(ExplainSweepSphereTriangle, ASphereMovingAwayHasNoCandidate) {
    const SphereTriangleSweepTrace t = explainSweepSphereTriangle({{1, 1, 3}, 1}, {0, 0, 1}, kTriangle);
    EXPECT_EQ(t.face.status, SweepCandidateStatus::MovingAway);
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(t.edges[std::size_t(k)].status, SweepCandidateStatus::MovingAway) << k;
        EXPECT_EQ(t.corners[std::size_t(k)].status, SweepCandidateStatus::MovingAway) << k;
    }
    EXPECT_EQ(t.winner, SweepFeature::None);
    EXPECT_FALSE(t.time);
}

TEST(ExplainSweepSphereTriangle, ASphereStartingInContactHitsAtZeroAndTriesNothing) {
    const SphereTriangleSweepTrace t = explainSweepSphereTriangle({{1, 1, 0.5f}, 1}, {0, 0, 1}, kTriangle);
    EXPECT_TRUE(t.initialOverlap);
    EXPECT_FLOAT_EQ(t.startDistance, 0.5f);
    EXPECT_EQ(t.winner, SweepFeature::InitialOverlap);
    EXPECT_EQ(t.face.status, SweepCandidateStatus::NotTried);
    EXPECT_EQ(t.time, 0.0f);
}

TEST(ExplainSweepSphereTriangle, AnImpactAfterTMaxIsOutOfRange) {
    const SphereTriangleSweepTrace t =
        explainSweepSphereTriangle({{1, 1, 3}, 1}, {0, 0, -1}, kTriangle, 1.5f);
    EXPECT_EQ(t.face.status, SweepCandidateStatus::OutOfRange);
    EXPECT_FLOAT_EQ(t.face.t, 2.0f);
    EXPECT_FALSE(t.time);
}

TEST(ExplainSweepRootsPropertyTest, PlaneAndSphereTracesAgreeWithTheirSweepsToTheBit) {
    constexpr unsigned kSeed = 8181u;
    std::mt19937 rng(kSeed);
    int planeEnds[5] = {}, sphereEnds[5] = {};
    for (int i = 0; i < kCases; ++i) {
        const Sphere a{randomPoint(rng, 4.0f), uniform(rng, 0.0f, 1.0f)};
        const Sphere b{randomPoint(rng, 4.0f), uniform(rng, 0.0f, 1.0f)};
        const glm::vec3 va = randomPoint(rng, 5.0f),
                        vb = i % 4 == 0 ? glm::vec3(0.0f) : randomPoint(rng, 5.0f);
        const Plane plane =
            planeFromPointNormal(randomPoint(rng, 3.0f), randomPoint(rng, 1.0f) + glm::vec3(0.01f)).value();
        const float tMax = i % 3 == 0 ? INFINITY : uniform(rng, 0.0f, 2.0f);
        const float gap = i % 5 == 0 ? 0.0f : uniform(rng, -0.01f, 0.01f);
        const std::string label = caseLabel(kSeed, i);

        const SpherePlaneSweepTrace p = explainSweepSpherePlane(a, va, plane, tMax, gap);
        ASSERT_TRUE(sameBits(p.time, sweepSpherePlane(a, va, plane, tMax, gap))) << label;
        ASSERT_EQ(p.time.has_value(), p.end == SweepRootEnd::Root || p.end == SweepRootEnd::AlreadyWithin)
            << label;
        if (p.end == SweepRootEnd::Root) {
            ASSERT_TRUE(sameBits(*p.time, p.root)) << label;
        }
        if (p.end == SweepRootEnd::AlreadyWithin) {
            ASSERT_EQ(*p.time, 0.0f) << label;
        }
        ++planeEnds[int(p.end)];

        const SphereSphereSweepTrace q = explainSweepSphereSphere(a, va, b, vb, tMax, gap);
        ASSERT_TRUE(sameBits(q.time, sweepSphereSphere(a, va, b, vb, tMax, gap))) << label;
        ASSERT_EQ(q.time.has_value(), q.end == SweepRootEnd::Root || q.end == SweepRootEnd::AlreadyWithin)
            << label;
        if (q.end == SweepRootEnd::Root) {
            ASSERT_TRUE(sameBits(*q.time, q.root)) << label;
        }
        if (q.end == SweepRootEnd::AlreadyWithin) {
            ASSERT_EQ(*q.time, 0.0f) << label;
        }
        ++sphereEnds[int(q.end)];
    }
    for (const int k : {0, 1, 3, 4})
        EXPECT_GT(planeEnds[k], kCases / 500) << "plane end " << k;
    for (int k = 0; k < 5; ++k)
        EXPECT_GT(sphereEnds[k], kCases / 500) << "sphere end " << k;
}

TEST(ExplainSweepRoots, ABallFlyingAtAWallReachesItAtTheDistanceOverTheApproachSpeed) {
    // The wall x = 5 faces -x; the ball's surface starts 3 m from it and closes at 2 m/s.
    const Plane wall{{-1, 0, 0}, 5};
    const SpherePlaneSweepTrace t = explainSweepSpherePlane({{1.5f, 0, 0}, 0.5f}, {2, 0, 0}, wall);
    EXPECT_EQ(t.end, SweepRootEnd::Root);
    EXPECT_EQ(t.approach, 2.0f);
    EXPECT_EQ(t.distance, 3.0f);
    EXPECT_EQ(t.root, 1.5f);
    EXPECT_EQ(t.time, std::optional<float>(1.5f));
    EXPECT_EQ(explainSweepSpherePlane({{1.5f, 0, 0}, 0.5f}, {-2, 0, 0}, wall).end,
              SweepRootEnd::NotApproaching);
    EXPECT_EQ(explainSweepSpherePlane({{1.5f, 0, 0}, 0.5f}, {2, 0, 0}, wall, 1.0f).end,
              SweepRootEnd::BeyondTMax);
    EXPECT_EQ(explainSweepSpherePlane({{4.6f, 0, 0}, 0.5f}, {2, 0, 0}, wall).end,
              SweepRootEnd::AlreadyWithin);
}

TEST(ExplainSweepRoots, TwoBallsHeadOnGiveTheQuadraticsTermsAndItsSmallerRoot) {
    // dp = (-4, 0, 0), dv = (2, 0, 0), reach 1: a = 4, b = -8, c = 15, discriminant 4, root 15 / 10.
    const SphereSphereSweepTrace t =
        explainSweepSphereSphere({{-2, 0, 0}, 0.5f}, {1, 0, 0}, {{2, 0, 0}, 0.5f}, {-1, 0, 0});
    EXPECT_EQ(t.end, SweepRootEnd::Root);
    EXPECT_EQ(t.offset, glm::vec3(-4, 0, 0));
    EXPECT_EQ(t.relativeVelocity, glm::vec3(2, 0, 0));
    EXPECT_EQ(t.reach, 1.0f);
    EXPECT_EQ(t.a, 4.0f);
    EXPECT_EQ(t.b, -8.0f);
    EXPECT_EQ(t.c, 15.0f);
    EXPECT_EQ(t.discriminant, 4.0f);
    EXPECT_EQ(t.root, 1.5f);
    EXPECT_EQ(t.time, std::optional<float>(1.5f));
    // Passing each other 2 m apart, sideways: they miss.
    EXPECT_EQ(explainSweepSphereSphere({{-2, 2, 0}, 0.5f}, {1, 0, 0}, {{2, 0, 0}, 0.5f}, {-1, 0, 0}).end,
              SweepRootEnd::Misses);
}

} // namespace
