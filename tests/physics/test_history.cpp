// The timeline's history (src/physics/history.hpp): landing on any kept step by re-simulating from
// a keyframe gives the live run's state to the bit (and the same future), the memory cap holds,
// and dropping the future lets the run go on from an earlier step.
#include "physics/history.hpp"
#include "physics/room.hpp"
#include "physics/state_hash.hpp"

#include <gtest/gtest.h>
#include <map>
#include <random>
#include <vector>

namespace {

using kz::History;
using kz::World;

/// 40 spheres and boxes with gravity and friction in a 6 m room: impacts, resting contacts and
/// warm-started piles, so a keyframe that lost any cache would drift.
World pileWorld(unsigned seed) {
    kz::WorldSettings settings;
    settings.gravity = {0.0f, -9.81f, 0.0f};
    World world(kz::boxRoom(glm::vec3(6.0f)), settings);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < 40; ++i) {
        kz::BodyDesc d;
        d.shape = i % 3 == 0 ? kz::ShapeType::Box : kz::ShapeType::Sphere;
        d.radius = 0.2f + 0.1f * (u(rng) + 1.0f);
        d.halfExtents = glm::vec3(0.2f + 0.1f * (u(rng) + 1.0f));
        d.position = {2.2f * u(rng), 2.2f * u(rng), 2.2f * u(rng)};
        d.orientation = glm::normalize(glm::quat(1.0f, u(rng), u(rng), u(rng)));
        d.velocity = {3.0f * u(rng), 3.0f * u(rng), 3.0f * u(rng)};
        d.restitution = 0.5f;
        d.friction = 0.4f;
        world.addBody(d);
    }
    return world;
}

/// The inputs of a run: at some ticks, a body's velocity set (as a drag or a throw would).
struct Inputs {
    std::map<std::uint64_t, std::pair<int, glm::vec3>> byTick;

    History::StepFn stepFn() const {
        return [this](World& world, std::uint64_t tick) {
            if (auto it = byTick.find(tick); it != byTick.end())
                world.setBodyVelocity(it->second.first, it->second.second, glm::vec3(0.0f));
            world.step();
        };
    }
};

Inputs randomInputs(unsigned seed, std::uint64_t steps) {
    Inputs inputs;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-4.0f, 4.0f);
    for (int i = 0; i < 60; ++i)
        inputs.byTick[rng() % steps] = {int(rng() % 40), glm::vec3(u(rng), u(rng), u(rng))};
    return inputs;
}

/// Runs `steps` steps live, pushing each into the history; returns each tick's state hash.
std::vector<std::uint64_t> runLive(World& world, History& history, const Inputs& inputs,
                                   std::uint64_t steps) {
    std::vector<std::uint64_t> hashes{kz::stateHash(world)};
    history.restart(0, world);
    const History::StepFn step = inputs.stepFn();
    for (std::uint64_t tick = 0; tick < steps; ++tick) {
        step(world, tick);
        history.push(tick + 1, world, 0.1f);
        hashes.push_back(kz::stateHash(world));
    }
    return hashes;
}

TEST(History, LandingOnAnyStepGivesTheLiveStateToTheBitAndTheSameFuture) {
    constexpr std::uint64_t kSteps = 600;
    World world = pileWorld(7);
    History history({std::size_t{512} << 20, 32});
    const Inputs inputs = randomInputs(11, kSteps);
    const std::vector<std::uint64_t> live = runLive(world, history, inputs, kSteps);
    ASSERT_EQ(history.first(), 0u);
    ASSERT_EQ(history.last(), kSteps);
    EXPECT_EQ(history.keyframeCount(), kSteps / 32 + 1);

    std::mt19937 rng(3);
    int mid = 0;
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t tick = rng() % (kSteps + 1);
        mid += tick % 32 != 0;
        std::optional<World> landed = history.at(tick, inputs.stepFn());
        ASSERT_TRUE(landed) << "tick " << tick;
        ASSERT_EQ(kz::stateHash(*landed), live[tick]) << "tick " << tick;
        // Run on from there with the same inputs: the same future (the caches came along).
        const std::uint64_t end = std::min<std::uint64_t>(tick + 40, kSteps);
        for (std::uint64_t t = tick; t < end; ++t)
            inputs.stepFn()(*landed, t);
        ASSERT_EQ(kz::stateHash(*landed), live[end]) << "from tick " << tick << " to " << end;
    }
    EXPECT_GT(mid, 80) << "most landings fall between keyframes";
    EXPECT_FALSE(history.at(kSteps + 1, inputs.stepFn()));
}

TEST(History, TheMemoryCapDropsTheOldestKeyframesWithTheirSteps) {
    constexpr std::uint64_t kSteps = 400;
    // A keyframe's size once the step's caches are filled (a new world has none).
    World probe = pileWorld(5);
    for (int i = 0; i < 60; ++i)
        probe.step();
    const std::size_t keyframe = probe.memoryBytes();
    ASSERT_GT(keyframe, 40 * sizeof(kz::Body)) << "a world copy holds at least its bodies";
    // Room for about 4 keyframes: the history keeps the newest ~4 * 16 steps.
    History history({4 * keyframe + 2000, 16});
    World world = pileWorld(5);
    const Inputs inputs = randomInputs(9, kSteps);
    const std::vector<std::uint64_t> live = runLive(world, history, inputs, kSteps);
    EXPECT_LE(history.bytes(), 4 * keyframe + 2000 + keyframe / 2)
        << "caches grow a little as contacts appear";
    EXPECT_LE(history.keyframeCount(), 5u);
    EXPECT_GE(history.keyframeCount(), 2u);
    EXPECT_EQ(history.last(), kSteps);
    EXPECT_GT(history.first(), 0u) << "the oldest steps were dropped";
    EXPECT_EQ(history.first() % 16, 0u) << "the history starts at a keyframe";
    EXPECT_FALSE(history.at(history.first() - 1, inputs.stepFn()));
    for (std::uint64_t tick = history.first(); tick <= kSteps; tick += 7) {
        std::optional<World> landed = history.at(tick, inputs.stepFn());
        ASSERT_TRUE(landed);
        EXPECT_EQ(kz::stateHash(*landed), live[tick]) << "tick " << tick;
    }
}

TEST(History, TruncatingAfterAStepLetsTheRunGoOnFromThereWithANewFuture) {
    constexpr std::uint64_t kSteps = 200;
    World world = pileWorld(2);
    History history;
    const Inputs inputs = randomInputs(4, kSteps);
    const std::vector<std::uint64_t> live = runLive(world, history, inputs, kSteps);
    const std::uint64_t back = 77;
    std::optional<World> resumed = history.at(back, inputs.stepFn());
    ASSERT_TRUE(resumed);
    history.truncateAfter(back);
    EXPECT_EQ(history.last(), back);
    EXPECT_EQ(history.keyframeCount(), back / 32 + 1);
    // A new future: a throw at the resumed step, then plain steps.
    resumed->setBodyVelocity(0, {0.0f, 9.0f, 0.0f}, glm::vec3(0.0f));
    const Inputs none;
    for (std::uint64_t tick = back; tick < back + 50; ++tick) {
        none.stepFn()(*resumed, tick);
        history.push(tick + 1, *resumed, 0.1f);
    }
    EXPECT_EQ(history.last(), back + 50);
    std::optional<World> again = history.at(back + 50, none.stepFn());
    ASSERT_TRUE(again);
    EXPECT_EQ(kz::stateHash(*again), kz::stateHash(*resumed))
        << "the keyframes after the cut are the new ones";
    EXPECT_NE(kz::stateHash(*again), live[back + 50]) << "the throw changed the future";
}

TEST(History, SamplesFollowTheStepsAndMarkTheImpacts) {
    World world = pileWorld(8);
    History history;
    const Inputs none;
    runLive(world, history, none, 120);
    int impacts = 0;
    for (std::uint64_t tick = 1; tick <= 120; ++tick) {
        const kz::StepSample& s = history.sample(tick);
        EXPECT_GE(s.kineticEnergy, 0.0);
        EXPECT_FLOAT_EQ(s.msPerStep, 0.1f);
        impacts += s.impacts;
    }
    EXPECT_GT(impacts, 0) << "40 bodies falling in a small room collide";
    EXPECT_EQ(history.sample(0).impacts, 0) << "the start is not a step";
    EXPECT_DOUBLE_EQ(history.sample(120).kineticEnergy, world.kineticEnergy());
}

TEST(History, APushThatSkipsAStepStartsOver) {
    World world = pileWorld(1);
    History history;
    history.restart(10, world);
    world.step();
    history.push(12, world, 0.0f); // not 11: a new scenario or a jump
    EXPECT_EQ(history.first(), 12u);
    EXPECT_EQ(history.last(), 12u);
    EXPECT_EQ(history.keyframeCount(), 1u);
}

} // namespace
