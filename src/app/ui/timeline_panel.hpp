// The panel's Timeline section: play / pause, step back and forward, the scrubber over the kept
// span with a mark where impacts happened, the history's size, and the plots (kinetic energy,
// momentum, contacts, ms per step) with the scrub position marked.
#pragma once

#include "session/history.hpp"

#include <cstdint>
#include <optional>

namespace kz {

/// What the Timeline section shows this frame.
struct TimelineInfo {
    const History* history = nullptr; ///< The world's history (null: no timeline).
    std::uint64_t tick = 0;           ///< The step on screen.
    bool paused = false;
    float timeStep = 1.0f / 120.0f; ///< Seconds per step, for the span's length.
};

/// What the user asked of the timeline.
struct TimelineRequests {
    bool pause = false;
    bool resume = false;
    std::optional<std::uint64_t> seek; ///< Show this step (pauses first).
};

/// The section's body (the caller opens the collapsing header).
TimelineRequests timelineSection(const TimelineInfo& info);

} // namespace kz
