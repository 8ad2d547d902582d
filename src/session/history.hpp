// A session's history for the timeline: keyframes (SessionState copies: the world with every
// cache its next step reads, the scenario, the place in the input log) every few steps, and
// re-simulation from the keyframe at or before a step along the input log (runInputs) to land on
// that step exactly; a ring capped by memory (the oldest keyframes go first), with each step's
// numbers for the timeline's plots and marks.
#pragma once

#include "session/session.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>

namespace kz {

/// One step's numbers, taken from the world just after the step.
struct StepSample {
    double kineticEnergy = 0.0; ///< J (World::kineticEnergy).
    double momentum = 0.0;      ///< |linear momentum|, kg m/s.
    int contacts = 0;           ///< Contact points (World::contacts().size()).
    int impacts = 0;            ///< Times of impact the step stopped at (World::lastStepImpacts()).
    float msPerStep = 0.0f;     ///< The step's wall time, milliseconds (not part of the state).
};

/// The sample of `world` just after a step that took `msPerStep`.
StepSample sampleOf(const World& world, float msPerStep);

struct HistorySettings {
    /// The cap on what the history holds (keyframes by World::memoryBytes, plus the samples).
    /// The newest keyframe is always kept, even alone above the cap.
    std::size_t maxBytes = std::size_t{512} << 20;
    int keyframeInterval = 32; ///< Steps between keyframes (>= 1): the most a landing re-simulates.
};

class History {
public:
    explicit History(HistorySettings settings = {});

    /// Forgets everything and starts at `state` (its tick) as the first keyframe.
    void restart(const SessionState& state);
    /// Adds the state just after a step (its tick last() + 1; any other tick restarts the
    /// history there): its sample, and a keyframe when one is due. Then drops the oldest
    /// keyframes (and their steps) while over the cap.
    void push(const SessionState& state, float msPerStep);
    /// Drops every step after `tick` (when covered): the old future, when the run goes on from
    /// an earlier step.
    void truncateAfter(std::uint64_t tick);

    bool empty() const { return keyframes_.empty(); }
    std::uint64_t first() const { return first_; } ///< The oldest step kept (a keyframe).
    std::uint64_t last() const { return first_ + samples_.size() - 1; } ///< The newest; empty(): undefined.
    bool covers(std::uint64_t tick) const { return !empty() && tick >= first_ && tick <= last(); }

    /// The session at `tick`, bit-identical to the live run's once the inputs of that tick are
    /// applied (runInputs' state): a copy of the keyframe at or before it, run along `log` (the
    /// log the keyframes were taken from). Empty when the tick is not covered, or with `error`
    /// set when the log cannot be run (runInputs' line).
    std::optional<SessionState> at(std::uint64_t tick, std::span<const TimedInput> log,
                                   std::string* error = nullptr) const;
    /// The sample of a covered tick (the state after the step to it; zero at a restart).
    const StepSample& sample(std::uint64_t tick) const { return samples_[tick - first_]; }

    std::size_t bytes() const { return keyframeBytes_ + samples_.size() * sizeof(StepSample); }
    std::size_t keyframeCount() const { return keyframes_.size(); }
    const HistorySettings& settings() const { return settings_; }
    /// A new cap (and interval); the oldest keyframes go at once if the history is over it.
    void setSettings(HistorySettings settings);

private:
    struct Keyframe {
        SessionState state;
        std::size_t bytes;
    };
    void addKeyframe(const SessionState& state);
    void evict();

    HistorySettings settings_;
    std::deque<Keyframe> keyframes_; ///< Oldest first; the first is at first_.
    std::deque<StepSample> samples_; ///< Ticks first_ .. last().
    std::uint64_t first_ = 0;
    std::size_t keyframeBytes_ = 0;
};

} // namespace kz
