// Golden states: every built-in scenario, stepped 2,000 times, must end in exactly the state it
// ended in when these hashes were recorded. Any change to the physics or geometry that moves a
// single bit of any body shows here; a change meant to do so updates the table and says why in
// its commit. (The same build flags as the rest of the suite: no -ffast-math, no FMA, so release
// and sanitizer builds compute the same bits.)
#include "physics/state_hash.hpp"
#include "scenario/scenario.hpp"
#include "support/golden.hpp"
#include "support/golden_states.hpp"

#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
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
