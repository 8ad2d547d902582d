// Golden states: every built-in scenario, stepped 2,000 times, must end in exactly the state it
// ended in when these hashes were recorded. Any change to the physics or geometry that moves a
// single bit of any body shows here; a change meant to do so updates the table and says why in
// its commit. (The same build flags as the rest of the suite: no -ffast-math, no FMA, so release
// and sanitizer builds compute the same bits.)
#include "physics/state_hash.hpp"
#include "scenario/scenario.hpp"
#include "support/golden.hpp"

#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <string>

namespace {

/// The state hash after 2,000 steps of each built-in scenario (with its own seed).
const std::map<std::string, std::string> kGolden = {
    {"boxes", "ba73bf3d78f071f2"},        {"deterministic", "fbcf27aa4afe9f94"},
    {"gravity-pile", "6b431436b3c35f9f"}, {"high-speed", "c934051a828c0053"},
    {"lamp-arch", "e900669459cdfaec"},    {"mesh-playground", "171b5b7b27a24e6a"},
    {"mixed-100", "58e0d63b4c278876"},    {"random", "b40517989ec9d5b5"},
    {"slanted-room", "dbb79efbb6f4641c"}, {"two-balls", "c612aba85b9900e4"},
};

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
        kz::test::expectGolden(kGolden, name, kz::test::hex16(kz::stateHash(*built.world)));
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
