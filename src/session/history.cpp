#include "session/history.hpp"

#include <algorithm>

namespace kz {

StepSample sampleOf(const World& world, float msPerStep) {
    StepSample s;
    s.kineticEnergy = world.kineticEnergy();
    s.momentum = glm::length(world.linearMomentum());
    s.contacts = static_cast<int>(world.contacts().size());
    s.impacts = world.lastStepImpacts();
    s.msPerStep = msPerStep;
    return s;
}

History::History(HistorySettings settings) {
    setSettings(settings);
}

void History::setSettings(HistorySettings settings) {
    settings_ = settings;
    settings_.keyframeInterval = std::max(settings_.keyframeInterval, 1);
    evict();
}

void History::restart(const SessionState& state) {
    keyframes_.clear();
    samples_.clear();
    keyframeBytes_ = 0;
    first_ = state.tick;
    addKeyframe(state);
    samples_.push_back(sampleOf(state.world, 0.0f));
    samples_.back().impacts = 0; // not a step: no impact mark
    evict();
}

void History::push(const SessionState& state, float msPerStep) {
    if (empty() || state.tick != last() + 1) {
        restart(state);
        return;
    }
    samples_.push_back(sampleOf(state.world, msPerStep));
    if (state.tick - keyframes_.back().state.tick >= static_cast<std::uint64_t>(settings_.keyframeInterval))
        addKeyframe(state);
    evict();
}

void History::truncateAfter(std::uint64_t tick) {
    if (!covers(tick)) return;
    samples_.resize(static_cast<std::size_t>(tick - first_ + 1));
    while (keyframes_.back().state.tick > tick) {
        keyframeBytes_ -= keyframes_.back().bytes;
        keyframes_.pop_back();
    }
}

std::optional<SessionState> History::at(std::uint64_t tick, std::span<const TimedInput> log,
                                        std::string* error) const {
    if (!covers(tick)) return std::nullopt;
    // The last keyframe at or before tick: keyframes are in tick order.
    const auto after = std::upper_bound(keyframes_.begin(), keyframes_.end(), tick,
                                        [](std::uint64_t t, const Keyframe& k) { return t < k.state.tick; });
    std::optional<SessionState> state(std::in_place, std::prev(after)->state);
    const RunResult run = runInputs(*state, log, tick);
    if (!run.error.empty()) {
        if (error) *error = run.error;
        return std::nullopt;
    }
    return state;
}

void History::addKeyframe(const SessionState& state) {
    const std::size_t bytes = sizeof(SessionState) + state.world.memoryBytes();
    keyframes_.push_back({state, bytes});
    keyframeBytes_ += bytes;
}

void History::evict() {
    // The oldest keyframe goes with its steps, so the history starts at the next keyframe.
    while (keyframes_.size() > 1 && bytes() > settings_.maxBytes) {
        keyframeBytes_ -= keyframes_.front().bytes;
        keyframes_.pop_front();
        const std::uint64_t next = keyframes_.front().state.tick;
        samples_.erase(samples_.begin(), samples_.begin() + static_cast<std::ptrdiff_t>(next - first_));
        first_ = next;
    }
}

} // namespace kz
