// Playing a recording into a live Session (RecordingPlayer, recording.hpp).
#include "physics/state_hash.hpp"
#include "session/recording.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <variant>

namespace kz {
namespace {

/// "<file>:<line>: " for input `index` of `recording` (just "<file>: " without its lines).
std::string placeOf(const Recording& recording, std::size_t index) {
    const std::string file = recording.source.empty() ? "(recording)" : recording.source;
    if (index < recording.lines.size()) return file + ":" + std::to_string(recording.lines[index]) + ": ";
    return file + ": ";
}

} // namespace

std::optional<Session> RecordingPlayer::start(std::string& error) {
    next_ = 0;
    const std::vector<TimedInput>& inputs = recording_.inputs;
    if (inputs.empty() || inputs.front().tick != 0 ||
        !std::holds_alternative<LoadScenario>(inputs.front().input)) {
        error = placeOf(recording_, 0) + "the first input must be a load at tick 0";
        return std::nullopt;
    }
    std::optional<Session> session = Session::start(std::get<LoadScenario>(inputs.front().input), error);
    if (!session) {
        error = placeOf(recording_, 0) + "load: " + error;
        return std::nullopt;
    }
    next_ = 1;
    return session;
}

std::string RecordingPlayer::applyDue(Session& session) {
    const std::vector<TimedInput>& inputs = recording_.inputs;
    for (; next_ < inputs.size() && inputs[next_].tick <= session.tick(); ++next_) {
        if (inputs[next_].tick < session.tick())
            return placeOf(recording_, next_) + "tick " + std::to_string(inputs[next_].tick) +
                   " has passed (the session is at tick " + std::to_string(session.tick()) + ")";
        if (std::string error = session.apply(inputs[next_].input); !error.empty())
            return placeOf(recording_, next_) + error;
    }
    return {};
}

int RecordingPlayer::playTick(Session& session, std::string& error) {
    error = applyDue(session);
    if (!error.empty() || atEnd(session)) return 0;
    session.step();
    return 1;
}

int RecordingPlayer::play(Session& session, float frameSeconds, std::string& error, double budgetSeconds) {
    // The inputs due now first: a time scale applied at this tick paces this frame, as live.
    error = applyDue(session);
    if (!error.empty()) return 0;
    if (frameSeconds > 0.0f) accumulator_ += frameSeconds * session.world().settings().timeScale;
    const auto start = std::chrono::steady_clock::now();
    int steps = 0;
    bool overBudget = false;
    while (!overBudget) {
        // Read afresh each tick: a load may bring another time step.
        const WorldSettings& settings = session.world().settings();
        if (!(accumulator_ >= settings.timeStep) || steps >= settings.maxStepsPerAdvance) break;
        const float timeStep = settings.timeStep;
        if (playTick(session, error) == 0) break;
        accumulator_ -= timeStep;
        ++steps;
        overBudget =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= budgetSeconds;
    }
    if (atEnd(session) && error.empty()) error = applyDue(session);
    const WorldSettings& settings = session.world().settings();
    if (overBudget) {
        accumulator_ = std::fmod(accumulator_, settings.timeStep); // the ticks left are dropped
    } else if (steps >= settings.maxStepsPerAdvance) {
        accumulator_ = std::min(accumulator_, settings.timeStep);
    }
    return steps;
}

std::string RecordingPlayer::verify(const Session& session) const {
    const std::uint64_t hash = stateHash(session.world());
    if (session.tick() == recording_.endTick && hash == recording_.stateHash) return {};
    const std::string file = recording_.source.empty() ? "(recording)" : recording_.source;
    return file + ": replay diverged: state_hash " + stateHashText(hash) + " at tick " +
           std::to_string(session.tick()) + ", the recording ends with " +
           stateHashText(recording_.stateHash) + " at tick " + std::to_string(recording_.endTick);
}

} // namespace kz
