// Headless runs: step a world a fixed number of times and describe the run as one JSON report.
// No window, no display, no SDL: this is what CI and scripted experiments use.
#pragma once

#include "physics/world.hpp"
#include "session/recording.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kz {

/// How far a headless run is: what a progress line shows.
struct HeadlessProgress {
    std::uint64_t steps = 0;      ///< Steps taken so far.
    std::uint64_t totalSteps = 0; ///< Steps the run takes unless it is stopped (a replay: its end tick).
    double simSeconds = 0.0;      ///< Simulated seconds of those steps (the report's sim_seconds).
    double wallSeconds = 0.0;     ///< Wall time since the run began (steady_clock), > 0 after a step.
    bool finished = false;        ///< The run's last call: it has ended (done, stopped or failed).
    bool interrupted = false;     ///< With finished: it ended because `stop` was set, steps short.
};

/// What a caller watches and stops a headless run with. None of it changes what the run computes:
/// the steps it takes are the same bits with or without it.
struct HeadlessControl {
    /// Read before each step (relaxed): once true, the run takes no further step and its report
    /// says "interrupted": true. Set from a signal handler (long_run.hpp) or a progress callback;
    /// null: never stopped.
    const std::atomic<bool>* stop = nullptr;
    /// Called between steps at most once every `progressInterval` of wall time (from the end of
    /// the step that made the last call), never timed in a step's time, then once more with
    /// `finished` when the run ends. Null: not called.
    std::function<void(const HeadlessProgress&)> progress{};
    std::chrono::steady_clock::duration progressInterval = std::chrono::milliseconds(250);
};

struct HeadlessOptions {
    std::string scenarioName;   ///< Written as the report's "scenario".
    std::uint64_t seed = 0;     ///< Written as the report's "seed" (the seed the world was built with).
    std::uint64_t steps = 1200; ///< Fixed steps to take; 0 takes none (the median step time is then 0).
    HeadlessControl control{};  ///< The stop flag and the progress callback (none by default).
};

/// Steps `world` options.steps times with World::step(), timing each step with steady_clock, and
/// returns the report, keys in this order: scenario, seed, steps, (interrupted,) sim_seconds,
/// ms_per_step_median, kinetic_energy_start, kinetic_energy_end, momentum_start, momentum_end,
/// max_penetration, escaped, event_cap, advance_cap, capped_steps, state_hash (stateHash of the
/// final world, 16 hex digits), bodies, obstacles (each static mesh's name, mesh file and triangle
/// count; empty when there are none).
/// "interrupted" (always true) is there only when options.control.stop ended the run before its
/// last step: steps is then the steps taken, and every other value that of the world after them.
/// max_penetration and escaped are maxima over the initial state and the state after every step.
/// Single-precision values are written as the shortest decimal that reads back as the same float.
/// The report may hold non-finite numbers (a blown-up simulation): check it with firstNonFinite
/// before writing it, since JSON writes them as null.
nlohmann::ordered_json runHeadless(World& world, const HeadlessOptions& options);

/// A headless replay's outcome.
struct HeadlessReplay {
    nlohmann::ordered_json report; ///< runHeadless's keys for the whole replay (null when `error` is set).
    std::string error;             ///< A recorded input that cannot apply ("<file>:<line>: ..."), else empty.
    std::string verdict;           ///< RecordingPlayer::verify: empty when it ends in the recorded state,
                                   ///< and when interrupted (not checked: it did not reach the end).
    bool interrupted = false;      ///< `control.stop` ended it before the end tick (the report says so).
};

/// Replays `recording` without a window: its first load, then tick by tick its inputs and a step
/// each (timed), to its end tick, on `jobs`' threads (null: the calling thread). The report is
/// runHeadless's, its start values after the inputs of tick 0, its steps the end tick, its scenario
/// and seed those of the last load. `control` is runHeadless's: stopped after N steps, the report is
/// the world's after step N, before the inputs recorded for tick N (those of tick 0 come before the
/// first step), and the end state is not verified.
HeadlessReplay runHeadlessReplay(Recording recording, std::shared_ptr<JobSystem> jobs = nullptr,
                                 HeadlessControl control = {});

/// Where the first NaN or infinite number in `json` is, as a path like "bodies[1].velocity[0]",
/// or empty when every number is finite.
std::optional<std::string> firstNonFinite(const nlohmann::ordered_json& json);

} // namespace kz
