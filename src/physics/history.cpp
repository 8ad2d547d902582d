#include "history.hpp"

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

History::History(HistorySettings settings) : settings_(settings) {
    settings_.keyframeInterval = std::max(settings_.keyframeInterval, 1);
}

void History::restart(std::uint64_t tick, const World& world) {
    keyframes_.clear();
    samples_.clear();
    keyframeBytes_ = 0;
    first_ = tick;
    addKeyframe(tick, world);
    samples_.push_back(sampleOf(world, 0.0f));
    samples_.back().impacts = 0; // not a step: no impact marks
    evict();
}

void History::push(std::uint64_t tick, const World& world, float msPerStep) {
    if (empty() || tick != last() + 1) {
        restart(tick, world);
        return;
    }
    samples_.push_back(sampleOf(world, msPerStep));
    if (tick - keyframes_.back().tick >= static_cast<std::uint64_t>(settings_.keyframeInterval))
        addKeyframe(tick, world);
    evict();
}

void History::truncateAfter(std::uint64_t tick) {
    if (!covers(tick)) return;
    samples_.resize(static_cast<std::size_t>(tick - first_ + 1));
    while (keyframes_.back().tick > tick) {
        keyframeBytes_ -= keyframes_.back().bytes;
        keyframes_.pop_back();
    }
}

std::optional<World> History::at(std::uint64_t tick, const StepFn& step) const {
    if (!covers(tick)) return std::nullopt;
    // The last keyframe at or before tick: keyframes are in tick order.
    const auto after = std::upper_bound(keyframes_.begin(), keyframes_.end(), tick,
                                        [](std::uint64_t t, const Keyframe& k) { return t < k.tick; });
    const Keyframe& from = *std::prev(after);
    std::optional<World> world(std::in_place, from.world);
    for (std::uint64_t t = from.tick; t < tick; ++t)
        step(*world, t);
    return world;
}

void History::addKeyframe(std::uint64_t tick, const World& world) {
    const std::size_t bytes = world.memoryBytes();
    keyframes_.push_back({tick, world, bytes});
    keyframeBytes_ += bytes;
}

void History::evict() {
    // The oldest keyframe goes with its steps, so the history starts at the next keyframe.
    while (keyframes_.size() > 1 && bytes() > settings_.maxBytes) {
        keyframeBytes_ -= keyframes_.front().bytes;
        keyframes_.pop_front();
        const std::uint64_t next = keyframes_.front().tick;
        samples_.erase(samples_.begin(), samples_.begin() + static_cast<std::ptrdiff_t>(next - first_));
        first_ = next;
    }
}

} // namespace kz
