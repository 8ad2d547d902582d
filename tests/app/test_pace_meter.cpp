// Tests for app/timeline/pace_meter.hpp: the effective time scale (simulated seconds per wall second,
// smoothed) and when the physics counts as behind real time: only when it is what holds the pace
// back, not for a stall elsewhere or a slow frame of drawing, with a gap between falling behind
// and catching up, and a restart when the world stops.
#include "app/timeline/pace_meter.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace {

using kz::PaceFrame;
using kz::PaceMeter;

constexpr double kStep = 1.0 / 120.0;

/// `seconds` of frames of `frameSeconds` wall time, each taking `steps` steps that took
/// `physicsSeconds` in all.
void run(PaceMeter& meter, double seconds, double frameSeconds, int steps, double physicsSeconds,
         double asked = 1.0) {
    for (double t = 0.0; t < seconds; t += frameSeconds)
        meter.add({frameSeconds, steps * kStep, physicsSeconds, asked, true});
}

TEST(PaceMeter, AWorldThatKeepsUpRunsAtTheScaleAskedForAndIsNotBehind) {
    PaceMeter meter;
    run(meter, 3.0, 1.0 / 60.0, 2, 0.002);
    EXPECT_TRUE(meter.settled());
    EXPECT_NEAR(meter.effectiveScale(), 1.0, 1e-9);
    EXPECT_NEAR(meter.physicsLoad(), 0.002 / (2 * kStep), 1e-9);
    EXPECT_FALSE(meter.behind());
}

TEST(PaceMeter, PhysicsThatNeedsMoreThanRealTimeIsBehindOnceSettled) {
    // Each 0.1 s frame takes 3 steps (25 ms of simulated time) that took 90 ms.
    PaceMeter meter;
    meter.add({0.6, 18 * kStep, 0.54, 1.0, true}); // the same rates as the frames below
    EXPECT_FALSE(meter.settled());
    EXPECT_FALSE(meter.behind()) << "one frame is not a trend, however long";
    run(meter, 0.25, 0.1, 3, 0.09); // three more
    EXPECT_FALSE(meter.settled()) << "nor are four";
    run(meter, 1.0, 0.1, 3, 0.09);
    EXPECT_TRUE(meter.settled());
    EXPECT_NEAR(meter.effectiveScale(), 0.25, 1e-9);
    EXPECT_NEAR(meter.physicsLoad(), 3.6, 1e-9);
    EXPECT_TRUE(meter.behind());
}

TEST(PaceMeter, AStallOutsideThePhysicsSlowsThePaceButIsNotThePhysicsBehind) {
    // A scenario load: one 1.5 s frame, of which the steps took 1 ms, then smooth frames.
    PaceMeter meter;
    run(meter, 1.0, 1.0 / 60.0, 2, 0.001);
    meter.add({1.5, 8 * kStep, 0.001, 1.0, true});
    EXPECT_LT(meter.effectiveScale(), 0.5);
    EXPECT_FALSE(meter.behind());
    run(meter, 5.0, 1.0 / 60.0, 2, 0.001);
    EXPECT_NEAR(meter.effectiveScale(), 1.0, 0.02);
    EXPECT_FALSE(meter.behind());
}

TEST(PaceMeter, SlowDrawingWithLightPhysicsIsNotThePhysicsBehind) {
    // 0.2 s frames capped at 8 steps (67 ms simulated): the pace is a third, the physics 10%.
    PaceMeter meter;
    run(meter, 3.0, 0.2, 8, 0.0067);
    EXPECT_NEAR(meter.effectiveScale(), 8 * kStep / 0.2, 1e-9);
    EXPECT_FALSE(meter.behind());
}

TEST(PaceMeter, BehindUntilThePaceReachesNinetySevenPercentOfTheScaleAskedFor) {
    PaceMeter meter;
    run(meter, 2.0, 0.1, 3, 0.09);
    ASSERT_TRUE(meter.behind());
    // 93% of real time, the physics still loaded: still behind (no flicker at the threshold).
    run(meter, 10.0, 0.1, 11, 0.08);
    EXPECT_NEAR(meter.effectiveScale(), 11 * kStep / 0.1, 1e-3);
    EXPECT_TRUE(meter.behind());
    // Then at the full pace: caught up.
    run(meter, 10.0, 0.1, 12, 0.08);
    EXPECT_NEAR(meter.effectiveScale(), 1.0, 1e-3);
    EXPECT_FALSE(meter.behind());
}

TEST(PaceMeter, BehindEndsWhenThePhysicsNoLongerHoldsThePaceBack) {
    PaceMeter meter;
    run(meter, 2.0, 0.1, 3, 0.09);
    ASSERT_TRUE(meter.behind());
    run(meter, 10.0, 0.1, 3, 0.001); // the pace stays low, but the physics is light now
    EXPECT_FALSE(meter.behind());
}

TEST(PaceMeter, TheScaleAskedForSetsWhatBehindMeans) {
    // Real time exactly, with the physics busy: behind at 2x asked, not at 1x nor at 0.5x.
    PaceMeter twice, once, half;
    run(twice, 3.0, 0.1, 12, 0.08, 2.0);
    run(once, 3.0, 0.1, 12, 0.08, 1.0);
    run(half, 3.0, 0.1, 12, 0.08, 0.5);
    EXPECT_TRUE(twice.behind());
    EXPECT_NEAR(twice.physicsLoad(), 1.6, 1e-9);
    EXPECT_FALSE(once.behind());
    EXPECT_FALSE(half.behind());
}

TEST(PaceMeter, ThePaceFollowsAChangeWithTheSmoothingTimeConstant) {
    PaceMeter meter;
    run(meter, 20.0, 0.01, 1, 0.0); // one step of 1/120 s per 10 ms frame: 0.83x
    const double before = kStep / 0.01;
    EXPECT_NEAR(meter.effectiveScale(), before, 1e-9);
    // Half the steps from now on: after one time constant the sums have moved 1 - 1/e of the way.
    run(meter, PaceMeter::kSmoothingSeconds, 0.02, 1, 0.0);
    const double after = kStep / 0.02;
    const double keep = std::exp(-1.0);
    // Simulated and wall sums: each is the old rate's share (decayed) plus the new one's.
    const double expected = (before * keep + after * (1.0 - keep)) / 1.0;
    EXPECT_NEAR(meter.effectiveScale(), expected, 0.01);
    run(meter, 10.0, 0.02, 1, 0.0);
    EXPECT_NEAR(meter.effectiveScale(), after, 1e-3);
}

TEST(PaceMeter, APausedFrameRestartsTheMeter) {
    PaceMeter meter;
    run(meter, 2.0, 0.1, 3, 0.09);
    ASSERT_TRUE(meter.behind());
    meter.add({0.1, 0.0, 0.0, 1.0, false});
    EXPECT_FALSE(meter.behind());
    EXPECT_FALSE(meter.settled());
    EXPECT_EQ(meter.effectiveScale(), 0.0);
    EXPECT_EQ(meter.physicsLoad(), 0.0);
    // A frame of no wall time changes nothing.
    meter.add({0.0, kStep, 0.01, 1.0, true});
    EXPECT_EQ(meter.effectiveScale(), 0.0);
}

} // namespace
