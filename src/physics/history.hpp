// The world's history for the timeline: keyframes (full World copies, so every cache that the
// next step reads is kept) every few steps, and deterministic re-simulation from the keyframe
// at or before a step to land on that step exactly; a ring capped by memory (the oldest
// keyframes go first), with each step's numbers for the timeline's plots and marks.
// Uses only World: what happens between two steps (the user's inputs) is the caller's StepFn.
#pragma once

#include "world.hpp"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

namespace kz {

/// One step's numbers, taken from the world just after the step.
struct StepSample {
    double kineticEnergy = 0.0; ///< J (World::kineticEnergy).
    double momentum = 0.0;      ///< |linear momentum|, kg m/s.
    int contacts = 0;           ///< Contact points (World::contacts().size()).
    int impacts = 0;            ///< Times of impact the step stopped at (World::lastStepImpacts()).
    float msPerStep = 0.0f;     ///< The step's wall time, milliseconds (not part of the state).
};

struct HistorySettings {
    /// The cap on what the history holds (keyframes by World::memoryBytes, plus the samples).
    /// The newest keyframe is always kept, even alone above the cap.
    std::size_t maxBytes = std::size_t{512} << 20;
    int keyframeInterval = 32; ///< Steps between keyframes (>= 1): the most a seek re-simulates.
};

class History {
public:
    /// Takes `world` from tick to tick + 1: applies the inputs logged at `tick` (those applied
    /// after the step that reached tick), then one step. Must do exactly what the live run did.
    using StepFn = std::function<void(World& world, std::uint64_t tick)>;

    explicit History(HistorySettings settings = {});

    /// Forgets everything and starts at `tick` with `world` as its first keyframe.
    void restart(std::uint64_t tick, const World& world);
    /// Adds the state after the step that reached `tick` (last() + 1; anything else restarts
    /// the history there): its sample, and a keyframe when one is due. Then drops the oldest
    /// keyframes (and their steps) while over the cap.
    void push(std::uint64_t tick, const World& world, float msPerStep);
    /// Drops every step after `tick` (first() <= tick): the old future, when the run goes on
    /// from an earlier step.
    void truncateAfter(std::uint64_t tick);

    bool empty() const { return keyframes_.empty(); }
    std::uint64_t first() const { return first_; } ///< The oldest step kept (a keyframe).
    std::uint64_t last() const { return first_ + samples_.size() - 1; } ///< The newest; empty(): undefined.
    bool covers(std::uint64_t tick) const { return !empty() && tick >= first_ && tick <= last(); }

    /// The world at `tick`, bit-identical to the live run's: a copy of the keyframe at or
    /// before it, stepped on with `step`. Empty when the tick is not covered.
    std::optional<World> at(std::uint64_t tick, const StepFn& step) const;
    /// The sample of a covered tick (the state after the step to it; zero at a restart).
    const StepSample& sample(std::uint64_t tick) const { return samples_[tick - first_]; }

    std::size_t bytes() const { return keyframeBytes_ + samples_.size() * sizeof(StepSample); }
    std::size_t keyframeCount() const { return keyframes_.size(); }
    const HistorySettings& settings() const { return settings_; }

private:
    struct Keyframe {
        std::uint64_t tick;
        World world;
        std::size_t bytes;
    };
    void addKeyframe(std::uint64_t tick, const World& world);
    void evict();

    HistorySettings settings_;
    std::deque<Keyframe> keyframes_; ///< Oldest first; the first is at first_.
    std::deque<StepSample> samples_; ///< Ticks first_ .. last().
    std::uint64_t first_ = 0;
    std::size_t keyframeBytes_ = 0;
};

/// The sample of `world` just after a step.
StepSample sampleOf(const World& world, float msPerStep);

} // namespace kz
