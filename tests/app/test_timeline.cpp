// The timeline's numbers (src/app/timeline/timeline.hpp): plots of a few hundred points over any span, each
// point the largest of its steps, impacts counted per point, and the `,` / `.` steps kept inside
// the span.
#include "app/timeline/timeline.hpp"
#include "session/session_test_support.hpp"

#include <gtest/gtest.h>

namespace {

using kz::History;

/// The two-balls scenario: they bounce off the walls and each other (impacts).
History runFor(std::uint64_t steps) {
    kz::Session session = kz::test::startSession(kz::test::loadOf("two-balls"));
    History history;
    history.restart(session.state());
    for (std::uint64_t tick = 1; tick <= steps; ++tick) {
        session.step();
        history.push(session.state(), float(tick % 7));
    }
    return history;
}

TEST(Timeline, AnyLongSpanFitsTheGivenPointsEachTheLargestOfItsSteps) {
    const History history = runFor(1000);
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
    EXPECT_GT(marked, 2) << "the balls hit the walls several times in 8 s";
}

TEST(Timeline, AShortSpanGetsOnePointPerStep) {
    const History history = runFor(50);
    const kz::TimelinePlots plots = kz::timelinePlots(history, 300);
    EXPECT_EQ(plots.stepsPerPoint, 1u);
    EXPECT_EQ(plots.contacts.size(), 51u);
    EXPECT_TRUE(kz::timelinePlots(History{}, 300).kineticEnergy.empty());
}

TEST(Timeline, StepsBackAndForwardStayInsideTheKeptSpan) {
    const History history = runFor(100);
    EXPECT_EQ(kz::timelineStep(history, 50, -1), 49u);
    EXPECT_EQ(kz::timelineStep(history, 50, 10), 60u);
    EXPECT_EQ(kz::timelineStep(history, 5, -10), 0u);
    EXPECT_EQ(kz::timelineStep(history, 95, 10), 100u);
    EXPECT_EQ(kz::timelineStep(history, 100, 1), 100u);
    EXPECT_DOUBLE_EQ(kz::timelineSeconds(history, 0.01f), 100 * double(0.01f));
}

} // namespace
