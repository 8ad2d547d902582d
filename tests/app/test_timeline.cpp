// The timeline's numbers (src/app/timeline.hpp): plots of a few hundred points over any span, each
// point the largest of its steps, impacts counted per point, and the `,` / `.` steps kept inside
// the span.
#include "app/timeline.hpp"
#include "physics/room.hpp"

#include <gtest/gtest.h>

namespace {

using kz::History;

/// A ball falling onto the floor of a 4 m room: it bounces (impacts), energy stays put.
kz::World bouncingBall() {
    kz::WorldSettings settings;
    settings.gravity = {0.0f, -9.81f, 0.0f};
    kz::World world(kz::boxRoom(glm::vec3(4.0f)), settings);
    kz::BodyDesc ball;
    ball.radius = 0.25f;
    ball.position = {0.0f, 1.0f, 0.0f};
    ball.restitution = 0.9f;
    world.addBody(ball);
    return world;
}

History runFor(kz::World& world, std::uint64_t steps) {
    History history;
    history.restart(0, world);
    for (std::uint64_t tick = 1; tick <= steps; ++tick) {
        world.step();
        history.push(tick, world, float(tick % 7));
    }
    return history;
}

TEST(Timeline, AnyLongSpanFitsTheGivenPointsEachTheLargestOfItsSteps) {
    kz::World world = bouncingBall();
    const History history = runFor(world, 1000);
    const kz::TimelinePlots plots = kz::timelinePlots(history, 300);
    EXPECT_EQ(plots.first, 0u);
    EXPECT_EQ(plots.stepsPerPoint, 4u); // 1001 steps in at most 300 points
    ASSERT_EQ(plots.kineticEnergy.size(), 251u);
    for (std::uint64_t tick = 0; tick <= 1000; ++tick) {
        const int i = plots.pointOf(tick);
        EXPECT_GE(plots.kineticEnergy[std::size_t(i)], float(history.sample(tick).kineticEnergy)) << tick;
        EXPECT_GE(plots.msPerStep[std::size_t(i)], history.sample(tick).msPerStep) << tick;
    }
    EXPECT_FLOAT_EQ(plots.msPerStep[1], 6.0f) << "steps 4-7: the slowest (6 ms) shows, not the mean";
    int impacts = 0, marked = 0;
    for (std::size_t i = 0; i < plots.impacts.size(); ++i) {
        impacts += plots.impacts[i];
        marked += plots.impacts[i] > 0;
    }
    int total = 0;
    for (std::uint64_t tick = 1; tick <= 1000; ++tick)
        total += history.sample(tick).impacts;
    EXPECT_EQ(impacts, total);
    EXPECT_GT(marked, 2) << "the ball bounced several times in 8 s";
}

TEST(Timeline, AShortSpanGetsOnePointPerStep) {
    kz::World world = bouncingBall();
    const History history = runFor(world, 50);
    const kz::TimelinePlots plots = kz::timelinePlots(history, 300);
    EXPECT_EQ(plots.stepsPerPoint, 1u);
    EXPECT_EQ(plots.contacts.size(), 51u);
    EXPECT_TRUE(kz::timelinePlots(History{}, 300).kineticEnergy.empty());
}

TEST(Timeline, StepsBackAndForwardStayInsideTheKeptSpan) {
    kz::World world = bouncingBall();
    const History history = runFor(world, 100);
    EXPECT_EQ(kz::timelineStep(history, 50, -1), 49u);
    EXPECT_EQ(kz::timelineStep(history, 50, 10), 60u);
    EXPECT_EQ(kz::timelineStep(history, 5, -10), 0u);
    EXPECT_EQ(kz::timelineStep(history, 95, 10), 100u);
    EXPECT_EQ(kz::timelineStep(history, 100, 1), 100u);
    EXPECT_DOUBLE_EQ(kz::timelineSeconds(history, 0.01f), 100 * double(0.01f));
}

} // namespace
