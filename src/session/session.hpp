// A session: the world the user drives, the inputs that changed it and the tick (the steps taken)
// each one came at. Every world-changing action goes through Session::apply and every step
// through Session::step, so the log and the tick are complete, and replaying the log from the same
// start (runInputs) gives the same world bit for bit: live and replay call the same applyInput.
//
// The rules a replay relies on:
// - the first input is a LoadScenario at tick 0 (Session::start logs it);
// - inputs of one tick apply in log order, after that many steps and before the next;
// - a step is World::step on the current world and nothing else (the tick counts it even when the
//   world is halted and the step does nothing).
#pragma once

#include "physics/world.hpp"
#include "session/session_input.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kz {

/// Where a session is: its world, what that world was loaded from, and how far along the input
/// log it is. A copy is a keyframe: runInputs brings it forward to any later tick of the same log.
class History; // history.hpp

struct SessionState {
    World world;
    std::shared_ptr<const SessionScenario> scenario; ///< The scenario `world` was last loaded from.
    std::uint64_t seed = 0;                          ///< The seed it was built with.
    std::uint64_t tick = 0;                          ///< Steps taken since the session started.
    std::size_t inputsApplied = 0; ///< How many of the log's inputs are applied (an index into it).
};

/// The scenario `key` names (a built-in name or a file, as resolveScenario finds it), read with its
/// texts: what a LoadScenario carries. Null with `error` set (resolveScenario's one line) when it
/// cannot be read.
std::shared_ptr<const SessionScenario> readSessionScenario(const std::string& key, std::string& error);

/// The load of `scenario` with `seed`, or without one with the seed instantiate would choose (the
/// scenario's own), so the load names the seed its world is built with.
LoadScenario loadWithSeed(std::shared_ptr<const SessionScenario> scenario, std::optional<std::uint64_t> seed);

/// The state `load` starts a session in: its world at tick 0, no input counted as applied (the
/// load is the log's first input: set inputsApplied to 1 once it is logged). Empty with `error` set
/// (instantiate's one line) when the world cannot be built.
std::optional<SessionState> startState(const LoadScenario& load, std::string& error);

/// Carries `input` out on `state` (not on its tick or inputsApplied). Returns an empty string, or
/// one line saying why it cannot apply, `state` unchanged: a body index out of range, a velocity
/// over limits::kMaxSpeed or an angular velocity over limits::kMaxAngularSpeed (the scenario files'
/// limits), a scenario that cannot be instantiated, a null scenario, a NaN or infinite number.
std::string applyInput(SessionState& state, const SessionInput& input);

/// Where runInputs stopped.
struct RunResult {
    std::string error;     ///< Empty when it reached `toTick`; else applyInput's line.
    std::size_t input = 0; ///< The index in the log of the input that failed (when `error` is set).
};

/// Brings `state` forward along `inputs` (the log `state` was taken from, or a recording's) to tick
/// `toTick`: at each tick from state.tick on, applies the inputs from state.inputsApplied on whose
/// tick it is, then steps (tick + 1), until state.tick is `toTick` and every input of that tick is
/// applied. Stops at the first input that fails to apply, or whose tick lies behind the state (a
/// log out of order). `toTick` below state.tick does nothing.
RunResult runInputs(SessionState& state, std::span<const TimedInput> inputs, std::uint64_t toTick);

/// The live session: a SessionState and its input log.
class Session {
public:
    /// A session on `load`'s world, the load logged at tick 0. Empty with `error` set when the world
    /// cannot be built.
    static std::optional<Session> start(const LoadScenario& load, std::string& error);

    /// Applies `input` now and logs it at the current tick. Returns an empty string, or applyInput's
    /// error, and then neither the world nor the log changes.
    std::string apply(const SessionInput& input);
    /// One world step; the tick counts it.
    void step();
    /// Keeps `history` (not owned; null: none) from now on: it restarts at the current state and
    /// every step is pushed into it with its wall time.
    void attachHistory(History* history);
    /// Called after every step (and its history push), live or replayed: the app's impact log.
    void setStepObserver(std::function<void()> observer) { stepObserver_ = std::move(observer); }
    /// Goes on from `state`, a state of this session at or before its tick (History::at): the
    /// later steps and the inputs after state.inputsApplied are dropped (the old future), and so
    /// are the history's steps after state.tick.
    void rewindTo(SessionState state);
    /// World::advance through step(): the steps the frame time makes due (World::dueSteps: the
    /// accumulator, the time scale, the pause and a pending single step; at most the world's
    /// maxStepsPerAdvance, and the accumulator keeps no debt beyond them), each counted. Once the
    /// steps taken have used `budgetSeconds` of wall time, the rest of the due steps are dropped
    /// (at least one is taken): a frame's physics stays within the budget or one step, so a world
    /// too heavy for real time slows down instead of stretching every frame. Returns how many were
    /// taken.
    int advance(float frameSeconds, double budgetSeconds = INFINITY);
    /// The threads the world steps on (World::setJobs), kept through loads and rewinds.
    void setJobs(std::shared_ptr<JobSystem> jobs) { state_.world.setJobs(std::move(jobs)); }

    const World& world() const { return state_.world; }
    const SessionState& state() const { return state_; }
    std::uint64_t tick() const { return state_.tick; }
    /// Every input applied since the start, in order, each with its tick (the first is the load).
    const std::vector<TimedInput>& inputs() const { return log_; }
    const SessionScenario& scenario() const { return *state_.scenario; }
    std::uint64_t seed() const { return state_.seed; }

private:
    Session(SessionState state, std::vector<TimedInput> log)
        : state_(std::move(state)), log_(std::move(log)) {}

    SessionState state_;
    std::vector<TimedInput> log_;
    History* history_ = nullptr;
    std::function<void()> stepObserver_;
};

} // namespace kz
