// Golden states: every built-in scenario, stepped 2,000 times, must end in exactly the state it
// ended in when these hashes were recorded. Any change to the physics or geometry that moves a
// single bit of any body shows here; a change meant to do so updates the table and says why in
// its commit. (The same build flags as the rest of the suite: no -ffast-math, no FMA, so release
// and sanitizer builds compute the same bits.)
#include "physics/job_system.hpp"
#include "physics/state_hash.hpp"
#include "scenario/scenario.hpp"
#include "support/golden.hpp"
#include "support/golden_states.hpp"

#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace {

TEST(GoldenStates, EveryBuiltInScenarioEndsInItsRecordedStateAfterTwoThousandSteps) {
    const std::vector<std::string> names = kz::builtinScenarioNames();
    ASSERT_FALSE(names.empty());
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        const kz::ScenarioResult loaded = kz::resolveScenario(name);
        ASSERT_TRUE(loaded.scenario) << loaded.error;
        kz::InstantiateResult built = kz::instantiate(*loaded.scenario, std::nullopt);
        ASSERT_TRUE(built.world) << built.error;
        for (int step = 0; step < 2000; ++step)
            built.world->step();
        kz::test::expectGolden(kz::test::kGoldenStates, name, kz::test::hex16(kz::stateHash(*built.world)));
    }
}

/// The thread set-ups the step must not depend on: no job system; one, two and four threads with the
/// step's own chunk sizes (a built-in scenario's loops are mostly one chunk then); and one, two and
/// four threads with every loop cut into chunks of at most 3 items (the pair search: 3 cells), so
/// that the small scenarios' loops run in many chunks on all threads, as a large world's do.
/// Under the sanitizers (about 15 times slower, 100 s for these seven) only the last two, whose
/// loops all run in parallel: the release suite runs all seven, and the test above the sequential
/// step.
std::vector<std::pair<std::string, std::shared_ptr<kz::JobSystem>>> threadSetUps() {
#if defined(__SANITIZE_ADDRESS__)
    std::vector<std::pair<std::string, std::shared_ptr<kz::JobSystem>>> setUps;
    for (const std::size_t maxChunk : {std::size_t{3}}) {
        for (const int threads : {2, 4}) {
#else
    std::vector<std::pair<std::string, std::shared_ptr<kz::JobSystem>>> setUps{{"no job system", nullptr}};
    for (const std::size_t maxChunk : {std::size_t{0}, std::size_t{3}}) {
        for (const int threads : {1, 2, 4}) {
#endif
            setUps.emplace_back(std::to_string(threads) + " threads" +
                                    (maxChunk > 0 ? ", chunks of at most " + std::to_string(maxChunk) : ""),
                                std::make_shared<kz::JobSystem>(threads, maxChunk));
        }
    }
    return setUps;
}

TEST(GoldenStates, EveryBuiltInScenarioEndsInTheSameStateOnOneTwoAndFourThreads) {
    const auto setUps = threadSetUps();
    for (const std::string& name : kz::builtinScenarioNames()) {
        const kz::ScenarioResult loaded = kz::resolveScenario(name);
        ASSERT_TRUE(loaded.scenario) << loaded.error;
        std::optional<kz::World> reference;
        for (const auto& [label, jobs] : setUps) {
            SCOPED_TRACE(name + ", " + label);
            kz::InstantiateResult built = kz::instantiate(*loaded.scenario, std::nullopt);
            ASSERT_TRUE(built.world) << built.error;
            built.world->setJobs(jobs);
            for (int step = 0; step < 2000; ++step)
                built.world->step();
            kz::test::expectGolden(kz::test::kGoldenStates, name,
                                   kz::test::hex16(kz::stateHash(*built.world)));
            if (!reference) {
                reference.emplace(*built.world);
            } else {
                EXPECT_EQ(kz::stateDifference(*reference, *built.world), "");
            }
        }
    }
}

TEST(GoldenStates, TheSameScenarioRunTwiceGivesTheSameHashAtEveryStep) {
    for (const char* name : {"gravity-pile", "mesh-playground"}) {
        SCOPED_TRACE(name);
        const kz::ScenarioResult loaded = kz::resolveScenario(name);
        ASSERT_TRUE(loaded.scenario) << loaded.error;
        kz::InstantiateResult first = kz::instantiate(*loaded.scenario, std::nullopt);
        kz::InstantiateResult second = kz::instantiate(*loaded.scenario, std::nullopt);
        ASSERT_TRUE(first.world && second.world);
        for (int step = 0; step < 600; ++step) {
            first.world->step();
            second.world->step();
            ASSERT_EQ(kz::stateHash(*first.world), kz::stateHash(*second.world)) << "step " << step;
        }
    }
}

} // namespace
