// The timeline's history (src/session/history.hpp): landing on any kept step by running the input
// log from a keyframe gives the live session's state to the bit (and the same future, so no cache
// was lost), through a scenario load; the memory cap holds; dropping the future lets the session
// go on from an earlier step.
#include "physics/state_hash.hpp"
#include "session/history.hpp"
#include "session_test_support.hpp"

#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace {

using kz::History;
using kz::SessionState;
using kz::test::loadOf;
using kz::test::randomInput;
using kz::test::startSession;

/// A live session of `steps` steps with random inputs (a drag, a material change, a pause ...)
/// at random ticks and, at `loadAt`, a load of `other`; each step pushed into `history`.
/// Returns the state hash after each tick's inputs (what History::at lands on).
std::vector<std::uint64_t> runLive(kz::Session& session, History& history, std::uint64_t steps, unsigned seed,
                                   std::uint64_t loadAt = 0, const char* other = nullptr) {
    std::mt19937 rng(seed);
    history.restart(session.state());
    std::vector<std::uint64_t> hashes;
    for (std::uint64_t tick = 0; tick <= steps; ++tick) {
        if (other && tick == loadAt) {
            EXPECT_EQ(session.apply(loadOf(other, 3)), "");
        }
        if (rng() % 9 == 0) {
            EXPECT_EQ(session.apply(randomInput(rng, session.world().bodies().size())), "");
        }
        hashes.push_back(kz::stateHash(session.world()));
        if (tick == steps) break;
        session.step();
        history.push(session.state(), 0.25f);
    }
    return hashes;
}

TEST(History, LandingOnAnyStepGivesTheLiveStateToTheBitAndTheSameFuture) {
    constexpr std::uint64_t kSteps = 600;
    kz::Session session = startSession(loadOf("mixed-100", 7));
    History history({std::size_t{512} << 20, 32});
    const std::vector<std::uint64_t> live = runLive(session, history, kSteps, 11, 300, "mesh-playground");
    ASSERT_EQ(history.first(), 0u);
    ASSERT_EQ(history.last(), kSteps);
    EXPECT_EQ(history.keyframeCount(), kSteps / 32 + 1);

    std::mt19937 rng(3);
    int between = 0;
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t tick = rng() % (kSteps + 1);
        between += tick % 32 != 0;
        std::string error;
        std::optional<SessionState> landed = history.at(tick, session.inputs(), &error);
        ASSERT_TRUE(landed) << "tick " << tick << ": " << error;
        ASSERT_EQ(landed->tick, tick);
        ASSERT_EQ(kz::stateHash(landed->world), live[tick]) << "tick " << tick;
        // Run on along the log: the same future (every cache came along in the keyframe).
        const std::uint64_t end = std::min<std::uint64_t>(tick + 40, kSteps);
        ASSERT_EQ(kz::runInputs(*landed, session.inputs(), end).error, "");
        ASSERT_EQ(kz::stateHash(landed->world), live[end]) << "from tick " << tick << " to " << end;
    }
    EXPECT_GT(between, 80) << "most landings fall between keyframes";
    EXPECT_FALSE(history.at(kSteps + 1, session.inputs()));
}

TEST(History, TheMemoryCapDropsTheOldestKeyframesWithTheirSteps) {
    constexpr std::uint64_t kSteps = 400;
    kz::Session probe = startSession(loadOf("mixed-100", 5));
    for (int i = 0; i < 60; ++i) // a keyframe's size once the step's caches are filled
        probe.step();
    const std::size_t keyframe = sizeof(SessionState) + probe.world().memoryBytes();
    ASSERT_GT(keyframe, 100 * sizeof(kz::Body)) << "a world copy holds at least its bodies";
    // Room for about 4 keyframes: the history keeps the newest ~4 * 16 steps.
    const std::size_t cap = 4 * keyframe + 2000;
    History history({cap, 16});
    kz::Session session = startSession(loadOf("mixed-100", 5));
    const std::vector<std::uint64_t> live = runLive(session, history, kSteps, 9);
    EXPECT_LE(history.bytes(), cap + keyframe / 2) << "caches grow a little as contacts come and go";
    EXPECT_LE(history.keyframeCount(), 5u);
    EXPECT_GE(history.keyframeCount(), 2u);
    EXPECT_EQ(history.last(), kSteps);
    EXPECT_GT(history.first(), 0u) << "the oldest steps were dropped";
    EXPECT_EQ(history.first() % 16, 0u) << "the history starts at a keyframe";
    EXPECT_FALSE(history.at(history.first() - 1, session.inputs())) << "scrubbing stops at the cap";
    for (std::uint64_t tick = history.first(); tick <= kSteps; tick += 7) {
        std::optional<SessionState> landed = history.at(tick, session.inputs());
        ASSERT_TRUE(landed);
        EXPECT_EQ(kz::stateHash(landed->world), live[tick]) << "tick " << tick;
    }
    // A smaller cap takes effect at once.
    history.setSettings({2 * keyframe, 16});
    EXPECT_LE(history.keyframeCount(), 2u);
}

TEST(History, TruncatingAfterAStepLetsTheSessionGoOnFromThereWithANewFuture) {
    constexpr std::uint64_t kSteps = 200;
    kz::Session session = startSession(loadOf("two-balls"));
    History history;
    const std::vector<std::uint64_t> live = runLive(session, history, kSteps, 4);
    const std::uint64_t back = 77;
    std::optional<SessionState> resumed = history.at(back, session.inputs());
    ASSERT_TRUE(resumed);
    history.truncateAfter(back);
    EXPECT_EQ(history.last(), back);
    EXPECT_EQ(history.keyframeCount(), back / 32 + 1);
    // A new future from the landed state: a throw, then plain steps.
    std::vector<kz::TimedInput> log(session.inputs().begin(),
                                    session.inputs().begin() + std::ptrdiff_t(resumed->inputsApplied));
    const kz::SetBodyVelocity throwUp{0, {0.0f, 9.0f, 0.0f}, {}};
    ASSERT_EQ(kz::applyInput(*resumed, throwUp), "");
    log.push_back({back, throwUp});
    resumed->inputsApplied = log.size();
    for (std::uint64_t tick = back; tick < back + 50; ++tick) {
        resumed->world.step();
        ++resumed->tick;
        history.push(*resumed, 0.25f);
    }
    EXPECT_EQ(history.last(), back + 50);
    std::optional<SessionState> again = history.at(back + 50, log);
    ASSERT_TRUE(again);
    EXPECT_EQ(kz::stateHash(again->world), kz::stateHash(resumed->world)) << "the new keyframes";
    EXPECT_NE(kz::stateHash(again->world), live[back + 50]) << "the throw changed the future";
}

TEST(History, SamplesFollowTheStepsAndMarkTheImpacts) {
    kz::Session session = startSession(loadOf("mixed-100", 8));
    History history;
    history.restart(session.state());
    int impacts = 0;
    for (int i = 0; i < 120; ++i) {
        session.step();
        history.push(session.state(), 0.25f);
        impacts += session.world().lastStepImpacts();
        EXPECT_EQ(history.sample(session.tick()).impacts, session.world().lastStepImpacts());
    }
    EXPECT_GT(impacts, 0) << "a hundred bodies in a room collide";
    EXPECT_EQ(history.sample(0).impacts, 0) << "the start is not a step";
    EXPECT_FLOAT_EQ(history.sample(120).msPerStep, 0.25f);
    EXPECT_DOUBLE_EQ(history.sample(120).kineticEnergy, session.world().kineticEnergy());
}

TEST(History, APushThatSkipsAStepStartsOver) {
    kz::Session session = startSession(loadOf("two-balls"));
    History history;
    history.restart(session.state());
    session.step();
    session.step();
    history.push(session.state(), 0.0f); // tick 2, not 1
    EXPECT_EQ(history.first(), 2u);
    EXPECT_EQ(history.last(), 2u);
    EXPECT_EQ(history.keyframeCount(), 1u);
}

} // namespace
