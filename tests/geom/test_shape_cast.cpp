// Tests for geom/shape_cast.hpp: the time of impact of two moving, turning convex shapes.
// References: the closed-form sweeps of sweep.hpp (spheres, sphere-box); for shapes that only
// move, a bisection on the distance (a convex function of t when nothing turns) written apart
// from the cast; for turning shapes, the definition itself: the distance is at the gap at the time
// returned and above it at every earlier time sampled (densely near the answer). The poses are
// checked against a rotation built here with glm's quaternions.
#include "geom/convex_reference.hpp"
#include "geom/geom.hpp"
#include "support/geom_random.hpp"
#include "support/same_bits.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace kz;
using namespace kz::test;

constexpr unsigned kSeed = 3434u;
const glm::mat3 kIdentity(1.0f);

/// The shapes' distance when posed at time t (0 when they overlap).
double distanceAt(const ConvexShape& a, const ConvexMotion& ma, const ConvexShape& b, const ConvexMotion& mb,
                  double t) {
    const GjkResult g = closestPtConvexConvex(shapeAtTime(a, ma, float(t)), shapeAtTime(b, mb, float(t)));
    return g.overlap ? 0.0 : double(g.distance);
}

/// The distance tolerance the cast works to (see castSetup): its size part, plus float's rounding.
double castTolerance(const ConvexShape& a, const ConvexShape& b) {
    return kCastTolerance * std::max(refSize(a), refSize(b)) * 2.0 + 1e-5;
}

/// Checks the definition of the first contact: at r.t the distance is within the gap plus tol,
/// and at `samples` times before it (uniform, then denser towards r.t) it is not below the gap
/// (minus the rounding `slack`). Returns "" or what is wrong.
std::string checkFirstContact(const ConvexShape& a, const ConvexMotion& ma, const ConvexShape& b,
                              const ConvexMotion& mb, const ShapeCast& r, float gap, double tol, double slack,
                              int samples = 100) {
    std::ostringstream why;
    const double at = distanceAt(a, ma, b, mb, r.t);
    if (at > double(gap) + tol)
        why << "distance " << at << " at t " << r.t << " above the gap " << gap << "; ";
    if (at < double(gap) - slack)
        why << "distance " << at << " at t " << r.t << " below the gap " << gap << "; ";
    if (std::abs(double(r.distance) - at) > 1e-6 * std::max(1.0, at)) why << "reported distance differs; ";
    for (int i = 0; i < samples; ++i) {
        const double u = double(i) / samples;
        for (const double s : {u, 1.0 - 1e-3 * u, 1.0 - 1e-6 * u}) {
            const double t = double(r.t) * s;
            if (!(t < double(r.t))) continue;
            const double d = distanceAt(a, ma, b, mb, t);
            if (d < double(gap) - slack) {
                why << "distance " << d << " below the gap at t " << t << " before " << r.t << "; ";
                return why.str();
            }
        }
    }
    return why.str();
}

// ------------------------------------------------------------------ poses

TEST(ShapeCastPoses, ShapeAtTimeMovesAndTurnsAboutThePivot) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 200; ++i) {
        const TestShape s = randomShape(rng, Kind(i % 5), 1.0f, randomPoint(rng, 3.0f), 0);
        const ConvexMotion m{randomPoint(rng, 2.0f), randomPoint(rng, 4.0f), randomPoint(rng, 3.0f)};
        const float t = uniform(rng, 0.0f, 1.0f);
        const glm::dquat q = glm::angleAxis(glm::length(glm::dvec3(m.angularVelocity)) * t,
                                            glm::normalize(glm::dvec3(m.angularVelocity)));
        const auto expected = [&](const glm::dvec3& x) {
            return glm::dvec3(m.pivot) + glm::dvec3(m.velocity) * double(t) + q * (x - glm::dvec3(m.pivot));
        };
        const ConvexShape moved = shapeAtTime(s.shape, m, t);
        // Every support point of the moved shape is the motion's image of the original's.
        for (int k = 0; k < 8; ++k) {
            const glm::dvec3 d = glm::dvec3(randomUnit(rng));
            const glm::dvec3 before = refSupport(s.shape, glm::inverse(q) * d);
            const glm::dvec3 after = refSupport(moved, d);
            ASSERT_LT(glm::length(after - expected(before)), 2e-5) << "i " << i << " " << str(s.shape);
        }
    }
}

TEST(ShapeCastPoses, TimeZeroIsTheShapeAsGiven) {
    const ConvexShape box = Obb{{1, 2, 3}, {1, 2, 3}, kIdentity};
    const ConvexMotion m{{5, 0, 0}, {0, 3, 0}, {0, 0, 0}};
    const Obb moved = std::get<Obb>(shapeAtTime(box, m, 0.0f));
    EXPECT_EQ(moved.center, glm::vec3(1, 2, 3));
    EXPECT_EQ(moved.axes, kIdentity);
    EXPECT_EQ(shapeCenter(box), glm::vec3(1, 2, 3));
    EXPECT_EQ(motionAboutCenter(box, {1, 0, 0}).pivot, glm::vec3(1, 2, 3));
}

// ------------------------------------------------------------------ closed forms

TEST(ShapeCast, MovingSpheresMatchTheClosedFormSweep) {
    std::mt19937 rng(kSeed);
    int hits = 0;
    for (int i = 0; i < 2000; ++i) {
        const Sphere a{randomPoint(rng, 3.0f), uniform(rng, 0.05f, 1.0f)};
        const Sphere b{randomPoint(rng, 3.0f), uniform(rng, 0.05f, 1.0f)};
        if (glm::length(a.center - b.center) <= a.radius + b.radius + 0.01f) continue;
        // A heads for near B (about half the pairs meet), B drifts.
        const glm::vec3 va = (b.center + randomPoint(rng, 1.5f) - a.center) * uniform(rng, 0.5f, 2.0f);
        const glm::vec3 vb = randomPoint(rng, 0.5f);
        const float gap = i % 3 == 0 ? uniform(rng, 0.0f, 0.1f) : 0.0f;
        const ShapeCast r = castConvexConvex(a, {va, {}, a.center}, b, {vb, {}, b.center}, 1.0f, gap);
        const auto ref = sweepSphereSphere(a, va, b, vb, 1.0f, gap);
        const double tol = castTolerance(a, b);
        ASSERT_EQ(r.hit, ref.has_value()) << "i " << i << " t " << r.t << " ref " << (ref ? *ref : -1.0f);
        if (!ref) continue;
        ++hits;
        EXPECT_EQ(r.status, *ref == 0.0f ? ShapeCastStatus::StartsTouching : ShapeCastStatus::Hit)
            << "i " << i;
        EXPECT_LE(r.t, *ref + 1e-6f) << "i " << i << ": past the contact";
        // The closing speed along the normal at the contact: the time is good to the distance
        // tolerance over it (the distance is convex in t, so no steeper before the contact).
        const glm::dvec3 gapAtRef = glm::dvec3(a.center - b.center) + double(*ref) * glm::dvec3(va - vb);
        const double closing = glm::dot(glm::dvec3(vb - va), glm::normalize(gapAtRef));
        if (closing > 0.0) {
            EXPECT_GE(double(r.t), double(*ref) - tol / closing - 1e-6) << "i " << i;
        }
        EXPECT_LE(r.iterations, 12) << "i " << i;
    }
    EXPECT_GT(hits, 300);
}

TEST(ShapeCast, SphereAgainstABoxMatchesTheClosedFormSweep) {
    std::mt19937 rng(kSeed + 1);
    int hits = 0;
    for (int i = 0; i < 2000; ++i) {
        const Obb box{randomPoint(rng, 1.0f),
                      {uniform(rng, 0.2f, 1.0f), uniform(rng, 0.2f, 1.0f), 0.5f},
                      glm::mat3(randomRotation(rng))};
        const Sphere s{box.center + 3.0f * glm::vec3(randomUnit(rng)), uniform(rng, 0.05f, 0.6f)};
        if (closestPtConvexConvex(s, box).overlap) continue;
        const glm::vec3 v = (box.center + randomPoint(rng, 1.2f) - s.center) * uniform(rng, 0.5f, 2.0f);
        const ShapeCast r = castConvexConvex(s, {v, {}, s.center}, box, {});
        const auto ref = sweepSphereObb(s, v, box, 1.0f);
        ASSERT_EQ(r.hit, ref.has_value()) << "i " << i << " t " << r.t;
        if (!ref) continue;
        ++hits;
        EXPECT_LE(r.t, *ref + 1e-6f) << "i " << i;
        const double closing = -glm::dot(glm::dvec3(v), glm::dvec3(r.normal));
        if (closing > 0.0) {
            EXPECT_GE(double(r.t), double(*ref) - castTolerance(s, box) / closing - 1e-6) << "i " << i;
        }
    }
    EXPECT_GT(hits, 300);
}

TEST(ShapeCast, FacesMeetingHeadOnTakeOneStep) {
    const ConvexShape a = Obb{{0, 0, 0}, {1, 1, 1}, kIdentity};
    const ConvexShape b = Obb{{5, 0.3f, 0}, {1, 1, 1}, kIdentity};
    const ShapeCast r = castConvexConvex(a, {{6, 0, 0}, {}, {}}, b, {});
    EXPECT_EQ(r.status, ShapeCastStatus::Hit);
    // Each step aims at the middle of the tolerance (1e-5 of the size, sqrt(3) here).
    EXPECT_GT(r.distance, 0.0f);
    EXPECT_LT(r.distance, 2e-5f);
    EXPECT_NEAR(r.t, 0.5f - 0.5f * r.distance / 6.0f * 2.0f, 1e-6f);
    EXPECT_EQ(r.iterations, 2); // one step to the contact, one GJK there to confirm it
    EXPECT_NEAR(r.normal.x, -1.0f, 1e-6f);
}

// ------------------------------------------------------------------ every pair of kinds

struct CastStats {
    int hits = 0, caps = 0, maxSteps = 0;
};

/// Random pairs of the kinds, A thrown at B (both moving, both turning when `turning`), checked
/// against the definition; shapes that only move are also checked against a bisection.
void runCastPairs(Kind ka, Kind kb, bool turning, int count, unsigned seed, CastStats& stats) {
    std::mt19937 rng(seed);
    for (int i = 0; i < count; ++i) {
        const float far = i % 4 == 3 ? 1e3f : 0.0f; // some far from the origin
        const glm::vec3 base = far * glm::vec3(randomUnit(rng));
        const TestShape a = randomShape(rng, ka, 1.0f, base + randomPoint(rng, 1.0f), i % 8);
        const TestShape b = randomShape(rng, kb, 1.0f, base + 4.0f * glm::vec3(randomUnit(rng)), (i / 8) % 8);
        if (closestPtConvexConvex(a.shape, b.shape).distance <= 0.05f) continue;
        const glm::vec3 aim = shapeCenter(b.shape) + randomPoint(rng, 1.5f) - shapeCenter(a.shape);
        ConvexMotion ma = motionAboutCenter(a.shape, aim * uniform(rng, 0.5f, 2.0f));
        ConvexMotion mb = motionAboutCenter(b.shape, randomPoint(rng, 0.5f));
        if (turning) {
            ma.angularVelocity = randomPoint(rng, 3.0f);
            mb.angularVelocity = randomPoint(rng, 3.0f);
            mb.pivot += randomPoint(rng, 0.3f); // B turns about a point off its centre
        }
        const float gap = i % 5 == 0 ? 0.02f : 0.0f;
        const ShapeCast r = castConvexConvex(a.shape, ma, b.shape, mb, 1.0f, gap);
        ASSERT_NE(r.status, ShapeCastStatus::InvalidInput) << "i " << i;
        ASSERT_TRUE(std::isfinite(r.t) && r.t >= 0.0f && r.t <= 1.0f) << "i " << i;
        // Float's resolution of coordinates about `far` from the origin.
        const double tol = castTolerance(a.shape, b.shape) + 6e-7 * double(far);
        const double slack = 1e-6 + 6e-7 * double(far);
        stats.maxSteps = std::max(stats.maxSteps, r.iterations);
        if (!r.hit) {
            // No contact by tMax: the distance stays above the gap at every sampled time.
            for (int k = 0; k <= 100; ++k)
                ASSERT_GE(distanceAt(a.shape, ma, b.shape, mb, k / 100.0), double(gap) - slack)
                    << "i " << i << " missed a contact at t " << k / 100.0;
            continue;
        }
        const bool cap = r.status == ShapeCastStatus::IterationCap;
        ++(cap ? stats.caps : stats.hits);
        ASSERT_TRUE(r.status == ShapeCastStatus::Hit || (turning && cap))
            << "i " << i << " " << int(r.status);
        // At the cap, only the safe part: no contact before t.
        const std::string why =
            checkFirstContact(a.shape, ma, b.shape, mb, r, gap, cap ? INFINITY : tol, slack);
        ASSERT_EQ(why, "") << kKindNames[std::size_t(ka)] << "-" << kKindNames[std::size_t(kb)] << " i " << i
                           << "\n A " << str(a.shape) << "\n B " << str(b.shape);
        if (turning) continue;
        // Moving only: the distance is convex in t, so the first time it reaches the gap is a
        // bisection's root below the hit's time; the cast's t lies between that and the time the
        // distance is within the tolerance.
        double lo = 0.0, hi = double(r.t);
        for (int k = 0; k < 60; ++k) {
            const double mid = 0.5 * (lo + hi);
            (distanceAt(a.shape, ma, b.shape, mb, mid) > double(gap) ? lo : hi) = mid;
        }
        const double closing = glm::dot(glm::dvec3(mb.velocity - ma.velocity), glm::dvec3(r.normal));
        ASSERT_LE(double(r.t), hi + 1e-6 + slack / std::max(closing, 1e-3)) << "i " << i;
    }
}

TEST(ShapeCast, EveryPairOfShapesFindsTheFirstContact) {
    const int perPair = convexPairCount(160) / 2;
    for (int ka = 0; ka < 5; ++ka) {
        for (int kb = 0; kb < 5; ++kb) {
            CastStats moving, turning;
            const unsigned seed = kSeed + unsigned(10 * ka + kb);
            runCastPairs(Kind(ka), Kind(kb), false, perPair, seed, moving);
            runCastPairs(Kind(ka), Kind(kb), true, perPair, seed + 1000u, turning);
            std::printf("%-8s %-8s moving: %d hits, at most %d steps; turning: %d hits (%d at the cap), at "
                        "most %d steps\n",
                        kKindNames[std::size_t(ka)], kKindNames[std::size_t(kb)], moving.hits,
                        moving.maxSteps, turning.hits, turning.caps, turning.maxSteps);
            EXPECT_GT(moving.hits, perPair / 5);
            EXPECT_GT(turning.hits, perPair / 5);
            EXPECT_EQ(moving.caps, 0);
        }
    }
}

// ------------------------------------------------------------------ stops and bad input

TEST(ShapeCast, ShapesAlreadyTouchingStartTouching) {
    const ConvexShape a = Sphere{{0, 0, 0}, 1.0f};
    const ConvexShape b = Obb{{1.5f, 0, 0}, {1, 1, 1}, kIdentity};
    const ShapeCast r = castConvexConvex(a, {{1, 0, 0}, {}, {}}, b, {});
    EXPECT_EQ(r.status, ShapeCastStatus::StartsTouching);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.t, 0.0f);
    EXPECT_EQ(r.distance, 0.0f);
    // Within the gap counts too.
    const ShapeCast near = castConvexConvex(a, {}, Obb{{2.05f, 0, 0}, {1, 1, 1}, kIdentity}, {}, 1.0f, 0.1f);
    EXPECT_EQ(near.status, ShapeCastStatus::StartsTouching);
}

TEST(ShapeCast, SeparatingOrTooSlowMisses) {
    const ConvexShape a = Capsule{{0, -1, 0}, {0, 1, 0}, 0.5f};
    const ConvexShape b = Cylinder{{3, -1, 0}, {3, 1, 0}, 0.5f};
    const ShapeCast away = castConvexConvex(a, {{-1, 0, 0}, {}, {}}, b, {});
    EXPECT_EQ(away.status, ShapeCastStatus::Miss);
    EXPECT_FALSE(away.hit);
    EXPECT_EQ(away.t, 1.0f);
    EXPECT_EQ(away.iterations, 1);
    const ShapeCast slow = castConvexConvex(a, {{1, 0, 0}, {}, {}}, b, {});
    EXPECT_EQ(slow.status, ShapeCastStatus::Miss); // meets at t = 2
    const ShapeCast longer = castConvexConvex(a, {{1, 0, 0}, {}, {}}, b, {}, 3.0f);
    EXPECT_EQ(longer.status, ShapeCastStatus::Hit);
    EXPECT_NEAR(longer.t, 2.0f, 1e-5f);
    // Still shapes, or shapes turning in place about their own symmetry, never meet.
    EXPECT_EQ(castConvexConvex(a, {}, b, {}).status, ShapeCastStatus::Miss);
    const ConvexShape ball = Sphere{{0, 0, 0}, 1.0f};
    const ShapeCast spin = castConvexConvex(ball, {{}, {0, 0, 1e4f}, {}}, b, {});
    EXPECT_EQ(spin.status, ShapeCastStatus::Miss);
    EXPECT_EQ(spin.iterations, 1);
}

TEST(ShapeCast, ATurningBarSweepsIntoAStillBall) {
    // A bar of half length 3 along x turns about z at pi/2 per unit of time: its side meets the
    // ball of radius 0.5 at (0, 2.5, 0).
    const ConvexShape bar = Obb{{0, 0, 0}, {3, 0.1f, 0.1f}, kIdentity};
    const ConvexShape ball = Sphere{{0, 2.5f, 0}, 0.5f};
    const ConvexMotion turn{{}, {0, 0, 1.5707963f}, {}};
    const ShapeCast r = castConvexConvex(bar, turn, ball, {});
    ASSERT_EQ(r.status, ShapeCastStatus::Hit);
    // The bar's upper face (y = 0.1 in its frame) touches the ball's surface: the angle at which
    // the face's line comes within 0.5 of (0, 2.5): 2.5 cos(theta) - 0.1 = 0.5.
    const double theta = std::acos(0.6 / 2.5);
    EXPECT_NEAR(double(r.t), theta / 1.5707963, 1e-4);
    EXPECT_EQ(checkFirstContact(bar, turn, ball, {}, r, 0.0f, castTolerance(bar, ball), 1e-6, 2000), "");
}

TEST(ShapeCast, AFastSpinAgainstASlowApproachStopsAtTheCapSafely) {
    // The bound grows with the spin while the bar hardly comes closer: each step is short.
    const ConvexShape bar = Obb{{0, 0, 0}, {2, 0.1f, 0.1f}, kIdentity};
    const ConvexShape ball = Sphere{{2.5f, 0, 1.0f}, 0.5f};
    const ConvexMotion spin{{0, 0, 0.1f}, {0, 0, 500.0f}, {}};
    const ShapeCast r = castConvexConvex(bar, spin, ball, {}, 20.0f);
    EXPECT_EQ(r.status, ShapeCastStatus::IterationCap);
    EXPECT_TRUE(r.hit);
    EXPECT_EQ(r.iterations, kCastMaxIterations);
    EXPECT_GT(r.t, 0.0f);
    EXPECT_GT(r.distance, 0.0f); // still apart at the safe time
    EXPECT_EQ(checkFirstContact(bar, spin, ball, {}, r, 0.0f, INFINITY, 1e-6), "");
}

TEST(ShapeCast, InvalidInputGivesNoHit) {
    const ConvexShape a = Sphere{{0, 0, 0}, 1.0f};
    const ConvexShape b = Sphere{{3, 0, 0}, 1.0f};
    const ConvexMotion ok{{1, 0, 0}, {}, {}};
    const float nan = std::nanf("");
    for (const ShapeCast& r :
         {castConvexConvex(a, {{nan, 0, 0}, {}, {}}, b, {}),
          castConvexConvex(a, {{}, {0, INFINITY, 0}, {}}, b, {}),
          castConvexConvex(a, {{}, {}, {0, 0, nan}}, b, {}), castConvexConvex(a, ok, b, {}, -1.0f),
          castConvexConvex(a, ok, b, {}, INFINITY), castConvexConvex(a, ok, b, {}, nan),
          castConvexConvex(a, ok, b, {}, 1.0f, -0.1f), castConvexConvex(a, ok, b, {}, 1.0f, nan),
          castConvexConvex(Sphere{{0, 0, 0}, -1.0f}, ok, b, {}),
          castConvexConvex(a, ok, Cylinder{{3, 0, 0}, {3, 0, 0}, 1.0f}, {})}) {
        EXPECT_EQ(r.status, ShapeCastStatus::InvalidInput);
        EXPECT_FALSE(r.hit);
        EXPECT_EQ(r.iterations, 0);
    }
}

TEST(ShapeCast, TinyAndHugeShapesAndSpeedsStayExact) {
    // A size ratio of 10^4: a pebble thrown at a wall-sized box, and the reverse.
    const ConvexShape pebble = Sphere{{0, 0, 0}, 1e-3f};
    const ConvexShape wall = Obb{{20, 0, 0}, {10, 10, 10}, kIdentity};
    const ShapeCast r = castConvexConvex(pebble, {{20, 0.5f, 0}, {}, {}}, wall, {});
    ASSERT_EQ(r.status, ShapeCastStatus::Hit);
    EXPECT_NEAR(r.t, (10.0f - 1e-3f) / 20.0f, 1e-5f);
    const ShapeCast back = castConvexConvex(wall, {{-20, 0, 0}, {}, {20, 0, 0}}, pebble, {});
    ASSERT_EQ(back.status, ShapeCastStatus::Hit);
    EXPECT_NEAR(back.t, (10.0f - 1e-3f) / 20.0f, 1e-5f);
}

// ------------------------------------------------------------------ the trace

TEST(ShapeCastTrace, AgreesBitForBitWithTheFastPath) {
    std::mt19937 rng(kSeed + 7);
    for (int i = 0; i < 300; ++i) {
        const TestShape a = randomShape(rng, Kind(i % 5), 1.0f, randomPoint(rng, 1.0f), i % 8);
        const TestShape b = randomShape(rng, Kind(i / 5 % 5), 1.0f, 4.0f * glm::vec3(randomUnit(rng)), 0);
        const ConvexMotion ma{(shapeCenter(b.shape) - shapeCenter(a.shape)) * uniform(rng, 0.3f, 2.0f),
                              i % 2 ? randomPoint(rng, 3.0f) : glm::vec3(0.0f), shapeCenter(a.shape)};
        const ConvexMotion mb{randomPoint(rng, 0.5f), {}, shapeCenter(b.shape)};
        const ShapeCast fast = castConvexConvex(a.shape, ma, b.shape, mb);
        const ShapeCastTrace trace = explainCastConvexConvex(a.shape, ma, b.shape, mb);
        ASSERT_TRUE(sameBits(trace.result.t, fast.t)) << "i " << i;
        ASSERT_TRUE(sameBits(trace.result.distance, fast.distance)) << "i " << i;
        ASSERT_TRUE(sameBits(trace.result.pointA, fast.pointA)) << "i " << i;
        ASSERT_TRUE(sameBits(trace.result.normal, fast.normal)) << "i " << i;
        ASSERT_EQ(trace.result.status, fast.status) << "i " << i;
        ASSERT_EQ(int(trace.steps.size()), fast.iterations) << "i " << i;
        // Each step starts where the previous one's safe time led, and the times never go back.
        for (std::size_t k = 1; k < trace.steps.size(); ++k) {
            ASSERT_EQ(trace.steps[k].t, float(trace.steps[k - 1].nextT)) << "i " << i << " step " << k;
            ASSERT_GE(trace.steps[k].t, trace.steps[k - 1].t);
        }
        if (fast.hit) {
            ASSERT_EQ(trace.steps.back().t, fast.t);
        }
        for (const ShapeCastStep& s : trace.steps)
            ASSERT_TRUE(sameBits(s.gjk.distance, closestPtConvexConvex(s.shapeA, s.shapeB).distance));
    }
    EXPECT_EQ(shapeCastStatusName(ShapeCastStatus::StartsTouching), "starts_touching");
    EXPECT_TRUE(explainCastConvexConvex(Sphere{{}, -1.0f}, {}, Sphere{}, {}).steps.empty());
}

} // namespace
