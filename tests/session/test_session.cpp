// The session (src/session/session.hpp): inputs applied and logged at their ticks, steps counted,
// and the log replayed from the start or from a keyframe to the same bits as the live session.
#include "physics/job_system.hpp"
#include "physics/state_hash.hpp"
#include "session/session.hpp"
#include "session_test_support.hpp"

#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace {

using kz::test::loadOf;
using kz::test::startSession;

TEST(Session, StartsOnItsLoadLoggedAtTickZero) {
    const kz::LoadScenario load = loadOf("two-balls");
    const kz::Session session = startSession(load);
    EXPECT_EQ(session.tick(), 0u);
    ASSERT_EQ(session.inputs().size(), 1u);
    EXPECT_EQ(session.inputs()[0].tick, 0u);
    ASSERT_TRUE(std::holds_alternative<kz::LoadScenario>(session.inputs()[0].input));
    EXPECT_EQ(std::get<kz::LoadScenario>(session.inputs()[0].input).scenario, load.scenario);
    EXPECT_EQ(session.state().inputsApplied, 1u);
    EXPECT_EQ(session.scenario().key, "two-balls");
    EXPECT_EQ(session.world().bodies().size(), 2u);
}

TEST(Session, AScenarioThatCannotBeBuiltStartsNoSession) {
    kz::LoadScenario load = loadOf("two-balls");
    kz::SessionScenario broken = *load.scenario;
    broken.scenario.bodies.push_back(broken.scenario.bodies[0]); // two balls in one place
    load.scenario = std::make_shared<const kz::SessionScenario>(std::move(broken));
    std::string error;
    EXPECT_FALSE(kz::Session::start(load, error).has_value());
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(Session, AnInputIsAppliedAtOnceAndLoggedAtTheCurrentTick) {
    kz::Session session = startSession(loadOf("two-balls"));
    for (int i = 0; i < 5; ++i)
        session.step();
    ASSERT_EQ(session.apply(kz::SetBodyVelocity{1, {1.0f, 2.0f, 3.0f}, {0.5f, 0.0f, 0.0f}}), "");
    EXPECT_EQ(session.world().bodies()[1].velocity, glm::vec3(1.0f, 2.0f, 3.0f));
    EXPECT_EQ(session.world().bodies()[1].angularVelocity, glm::vec3(0.5f, 0.0f, 0.0f));
    ASSERT_EQ(session.apply(kz::SetMaterial{0.5f, 0.25f, 0.0f}), "");
    EXPECT_EQ(session.world().bodies()[0].restitution, 0.5f);
    EXPECT_EQ(session.world().bodies()[0].friction, 0.25f);
    ASSERT_EQ(session.apply(kz::SetPaused{true}), "");
    EXPECT_TRUE(session.world().paused());

    ASSERT_EQ(session.inputs().size(), 4u);
    for (std::size_t i = 1; i < 4; ++i)
        EXPECT_EQ(session.inputs()[i].tick, 5u) << "input " << i;
    EXPECT_STREQ(kz::inputKind(session.inputs()[1].input), "velocity");
    EXPECT_STREQ(kz::inputKind(session.inputs()[2].input), "material");
    EXPECT_STREQ(kz::inputKind(session.inputs()[3].input), "pause");
    EXPECT_EQ(session.state().inputsApplied, 4u);
}

TEST(Session, AnInputThatCannotApplyChangesNothingAndIsNotLogged) {
    kz::Session session = startSession(loadOf("two-balls"));
    session.step();
    const std::uint64_t before = kz::stateHash(session.world());
    const std::string error = session.apply(kz::SetBodyVelocity{2, {1.0f, 0.0f, 0.0f}, {}});
    EXPECT_EQ(error, "velocity: body 2 is out of range (the world has 2 bodies)");
    EXPECT_EQ(session.apply(kz::SetBodyVelocity{-1, {}, {}}),
              "velocity: body -1 is out of range (the world has 2 bodies)");
    EXPECT_EQ(session.apply(kz::SetBodyVelocity{0, {NAN, 0.0f, 0.0f}, {}}), "velocity: not a finite vector");
    EXPECT_EQ(session.apply(kz::SetBodyVelocity{0, {0.0f, 1001.0f, 0.0f}, {}}),
              "velocity: 1001 m/s is over the limit of 1000 m/s");
    EXPECT_EQ(session.apply(kz::SetBodyVelocity{0, {}, {0.0f, 0.0f, -2000.0f}}),
              "velocity: an angular speed of 2000 rad/s is over the limit of 1000 rad/s");
    EXPECT_EQ(session.apply(kz::SetMaterial{INFINITY, 0.0f, 0.0f}), "material: not a finite number");
    EXPECT_EQ(session.apply(kz::SetGravity{{0.0f, NAN, 0.0f}}), "gravity: not a finite vector");
    EXPECT_EQ(session.apply(kz::SetTimeScale{NAN}), "time_scale: not a finite number");
    EXPECT_EQ(session.apply(kz::LoadScenario{nullptr, 0}), "load: no scenario");
    EXPECT_EQ(kz::stateHash(session.world()), before);
    EXPECT_EQ(session.inputs().size(), 1u);
    EXPECT_EQ(session.state().inputsApplied, 1u);
}

TEST(Session, ALoadReplacesTheWorldAndKeepsThePauseAndTheTimeScale) {
    kz::Session session = startSession(loadOf("two-balls"));
    ASSERT_EQ(session.apply(kz::SetPaused{true}), "");
    ASSERT_EQ(session.apply(kz::SetTimeScale{0.5f}), "");
    for (int i = 0; i < 3; ++i)
        session.step();
    ASSERT_EQ(session.apply(loadOf("random", 42)), "");
    EXPECT_EQ(session.scenario().key, "random");
    EXPECT_EQ(session.seed(), 42u);
    EXPECT_TRUE(session.world().paused());
    EXPECT_EQ(session.world().settings().timeScale, 0.5f);
    EXPECT_EQ(session.world().stepCount(), 0u) << "a new world";
    EXPECT_EQ(session.tick(), 3u) << "the session's tick runs on across loads";

    // The same as the scenario instantiated with that seed.
    kz::InstantiateResult made = kz::instantiate(session.scenario().scenario, 42);
    ASSERT_TRUE(made.world);
    EXPECT_EQ(kz::stateHash(session.world()), kz::stateHash(*made.world));
}

TEST(Session, AdvanceTakesTheStepsWorldAdvanceTakesAndCountsThem) {
    const kz::LoadScenario load = loadOf("mixed-100", 7);
    kz::Session session = startSession(load);
    kz::InstantiateResult made = kz::instantiate(load.scenario->scenario, load.seed);
    ASSERT_TRUE(made.world);
    kz::World& world = *made.world;
    // Frames of varied length, a pause with single steps, a slow-motion stretch.
    const float frames[] = {0.016f, 0.033f, 0.25f, 0.001f, 0.0f, 0.02f, 0.1f, 0.016f};
    std::uint64_t total = 0;
    for (int round = 0; round < 3; ++round) {
        for (const float seconds : frames) {
            const int taken = session.advance(seconds);
            EXPECT_EQ(taken, world.advance(seconds)) << "round " << round << ", frame of " << seconds << " s";
            total += static_cast<std::uint64_t>(taken);
        }
        if (round == 0) {
            ASSERT_EQ(session.apply(kz::SetPaused{true}), "");
            world.setPaused(true);
            ASSERT_EQ(session.apply(kz::SingleStep{}), "");
            world.requestSingleStep();
        } else if (round == 1) {
            ASSERT_EQ(session.apply(kz::SetPaused{false}), "");
            world.setPaused(false);
            ASSERT_EQ(session.apply(kz::SetTimeScale{0.3f}), "");
            world.setTimeScale(0.3f);
        }
    }
    EXPECT_EQ(session.tick(), total);
    EXPECT_EQ(world.stepCount(), total);
    EXPECT_GT(total, 40u);
    EXPECT_EQ(kz::stateHash(session.world()), kz::stateHash(world));
}

TEST(Session, AdvanceDropsTheDueStepsLeftOnceTheBudgetIsUsedAndKeepsNoDebt) {
    kz::Session session = startSession(loadOf("two-balls"));
    // 0.05 s makes 6 steps due; a budget of none takes one (at least one is taken) and drops five.
    EXPECT_EQ(session.advance(0.05f, 0.0), 1);
    EXPECT_EQ(session.tick(), 1u);
    // Nothing is owed for the dropped steps: no time, no step; the next frames pace as before.
    EXPECT_EQ(session.advance(0.0f, 0.0), 0);
    EXPECT_EQ(session.advance(0.05f), 6);
    // A budget the steps do not use up takes them all.
    EXPECT_EQ(session.advance(0.05f, 10.0), 6);
    EXPECT_EQ(session.tick(), 13u);
    // The steps are the world's steps: the same state as stepping it 13 times.
    kz::Session stepped = startSession(loadOf("two-balls"));
    for (int i = 0; i < 13; ++i)
        stepped.step();
    EXPECT_EQ(kz::stateHash(session.world()), kz::stateHash(stepped.world()));
}

TEST(Session, ItsThreadsStayThroughLoadsAndRewindsAndChangeNoBit) {
    const auto jobs = std::make_shared<kz::JobSystem>(2, 3);
    kz::Session threaded = startSession(loadOf("mixed-100", 7));
    kz::Session alone = startSession(loadOf("mixed-100", 7));
    threaded.setJobs(jobs);
    EXPECT_EQ(threaded.world().jobs(), jobs);
    EXPECT_EQ(alone.world().jobs(), nullptr);
    for (int i = 0; i < 50; ++i) {
        threaded.step();
        alone.step();
    }
    const kz::SessionState early = threaded.state();
    ASSERT_EQ(threaded.apply(loadOf("mesh-playground", 3)), "");
    ASSERT_EQ(alone.apply(loadOf("mesh-playground", 3)), "");
    EXPECT_EQ(threaded.world().jobs(), jobs) << "a load keeps the threads";
    for (int i = 0; i < 200; ++i) {
        threaded.step();
        alone.step();
    }
    EXPECT_EQ(kz::stateDifference(threaded.world(), alone.world()), "");
    kz::SessionState back = early;
    back.world.setJobs(nullptr);
    threaded.rewindTo(std::move(back));
    EXPECT_EQ(threaded.world().jobs(), jobs) << "a rewind keeps the threads";
    EXPECT_EQ(threaded.tick(), 50u);
}

/// The state hash of a fresh replay of `inputs` from their first load to `tick`.
std::uint64_t replayedHash(const std::vector<kz::TimedInput>& inputs, std::uint64_t tick) {
    std::string error;
    std::optional<kz::SessionState> state =
        kz::startState(std::get<kz::LoadScenario>(inputs[0].input), error);
    EXPECT_TRUE(state) << error;
    if (!state) return 0;
    state->inputsApplied = 1;
    const kz::RunResult run = kz::runInputs(*state, inputs, tick);
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(state->tick, tick);
    return kz::stateHash(state->world);
}

TEST(SessionReplay, RandomInputsAtAHundredRandomTicksReplayToTheSameBitsAtEachOfThem) {
    constexpr unsigned kSeed = 20240611;
    std::mt19937 rng(kSeed);
    SCOPED_TRACE("seed " + std::to_string(kSeed));
    kz::Session session = startSession(loadOf("gravity-pile"));

    // 100 ticks, a few inputs at each, and a load of another scenario (with meshes) half way.
    struct Checkpoint {
        std::uint64_t tick;
        std::uint64_t hash;
        std::size_t inputs;
    };
    std::vector<Checkpoint> checkpoints;
    std::optional<kz::SessionState> keyframe; // a copy taken mid-way, before the load
    for (int i = 0; i < 100; ++i) {
        const int steps = std::uniform_int_distribution<int>(0, 12)(rng);
        for (int s = 0; s < steps; ++s)
            session.step();
        if (i == 50) {
            ASSERT_EQ(session.apply(loadOf("mesh-playground", 99)), "");
        }
        const int count = std::uniform_int_distribution<int>(1, 3)(rng);
        for (int k = 0; k < count; ++k)
            ASSERT_EQ(session.apply(kz::test::randomInput(rng, session.world().bodies().size())), "");
        checkpoints.push_back({session.tick(), kz::stateHash(session.world()), session.inputs().size()});
        if (i == 30) keyframe.emplace(session.state());
    }
    for (int s = 0; s < 20; ++s)
        session.step();
    const std::uint64_t endTick = session.tick();
    const std::uint64_t endHash = kz::stateHash(session.world());
    ASSERT_GT(session.inputs().size(), 100u);

    // From the start to each checkpoint: the inputs up to it, then the live hash there. (A
    // checkpoint's tick may hold the next checkpoint's inputs too when no step came between.)
    for (std::size_t c = 0; c < checkpoints.size(); ++c) {
        const Checkpoint& point = checkpoints[c];
        const bool lastOfItsTick = c + 1 == checkpoints.size() || checkpoints[c + 1].tick != point.tick;
        if (!lastOfItsTick) continue;
        EXPECT_EQ(replayedHash(session.inputs(), point.tick), point.hash)
            << "checkpoint " << c << ", tick " << point.tick;
    }
    EXPECT_EQ(replayedHash(session.inputs(), endTick), endHash);

    // From the keyframe to the end: the same bits again.
    ASSERT_TRUE(keyframe);
    kz::SessionState resumed = *keyframe;
    const kz::RunResult run = kz::runInputs(resumed, session.inputs(), endTick);
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(resumed.tick, endTick);
    EXPECT_EQ(resumed.inputsApplied, session.inputs().size());
    EXPECT_EQ(resumed.scenario->key, "mesh-playground");
    EXPECT_EQ(kz::stateHash(resumed.world), endHash);
}

TEST(SessionReplay, RunningToAnEarlierTickDoesNothing) {
    kz::Session session = startSession(loadOf("two-balls"));
    for (int i = 0; i < 4; ++i)
        session.step();
    kz::SessionState state = session.state();
    const std::uint64_t before = kz::stateHash(state.world);
    EXPECT_EQ(kz::runInputs(state, session.inputs(), 2).error, "");
    EXPECT_EQ(state.tick, 4u);
    EXPECT_EQ(kz::stateHash(state.world), before);
}

TEST(SessionReplay, AnInputThatFailsStopsTheRunAtIt) {
    kz::Session session = startSession(loadOf("two-balls"));
    std::vector<kz::TimedInput> log = session.inputs();
    log.push_back({3, kz::SetMaterial{0.5f, 0.0f, 0.0f}});
    log.push_back({5, kz::SetBodyVelocity{9, {}, {}}});
    log.push_back({6, kz::SingleStep{}});
    kz::SessionState state = session.state();
    const kz::RunResult run = kz::runInputs(state, log, 10);
    EXPECT_EQ(run.error, "velocity: body 9 is out of range (the world has 2 bodies)");
    EXPECT_EQ(run.input, 2u);
    EXPECT_EQ(state.tick, 5u);
    EXPECT_EQ(state.inputsApplied, 2u);
}

TEST(SessionReplay, ALogOutOfTickOrderIsAnError) {
    kz::Session session = startSession(loadOf("two-balls"));
    std::vector<kz::TimedInput> log = session.inputs();
    log.push_back({4, kz::SingleStep{}});
    log.push_back({2, kz::SingleStep{}});
    kz::SessionState state = session.state();
    const kz::RunResult run = kz::runInputs(state, log, 10);
    EXPECT_EQ(run.error, "input 2 (step) is at tick 2, behind the state's tick 4");
    EXPECT_EQ(run.input, 2u);
}

} // namespace
