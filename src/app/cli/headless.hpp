// Headless runs: step a world a fixed number of times and describe the run as one JSON report.
// No window, no display, no SDL: this is what CI and scripted experiments use.
#pragma once

#include "physics/world.hpp"
#include "session/recording.hpp"

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kz {

struct HeadlessOptions {
    std::string scenarioName;   ///< Written as the report's "scenario".
    std::uint64_t seed = 0;     ///< Written as the report's "seed" (the seed the world was built with).
    std::uint64_t steps = 1200; ///< Fixed steps to take; 0 takes none (the median step time is then 0).
};

/// Steps `world` options.steps times with World::step(), timing each step with steady_clock, and
/// returns the report, keys in this order: scenario, seed, steps, sim_seconds, ms_per_step_median,
/// kinetic_energy_start, kinetic_energy_end, momentum_start, momentum_end, max_penetration,
/// escaped, state_hash (stateHash of the final world, 16 hex digits), bodies, obstacles (each
/// static mesh's name, mesh file and triangle count; empty when there are none). max_penetration
/// and escaped are maxima over the initial state and the state after every step. Single-precision values are
/// written as the shortest decimal that reads back as the same float. The report may hold non-finite numbers
/// (a blown-up simulation): check it with firstNonFinite before writing it, since JSON writes them as null.
nlohmann::ordered_json runHeadless(World& world, const HeadlessOptions& options);

/// A headless replay's outcome.
struct HeadlessReplay {
    nlohmann::ordered_json report; ///< runHeadless's keys for the whole replay (null when `error` is set).
    std::string error;             ///< A recorded input that cannot apply ("<file>:<line>: ..."), else empty.
    std::string verdict;           ///< RecordingPlayer::verify: empty when it ends in the recorded state.
};

/// Replays `recording` without a window: its first load, then tick by tick its inputs and a step
/// each (timed), to its end tick, on `jobs`' threads (null: the calling thread). The report is
/// runHeadless's, its start values after the inputs of tick 0, its steps the end tick, its scenario
/// and seed those of the last load.
HeadlessReplay runHeadlessReplay(Recording recording, std::shared_ptr<JobSystem> jobs = nullptr);

/// Where the first NaN or infinite number in `json` is, as a path like "bodies[1].velocity[0]",
/// or empty when every number is finite.
std::optional<std::string> firstNonFinite(const nlohmann::ordered_json& json);

} // namespace kz
