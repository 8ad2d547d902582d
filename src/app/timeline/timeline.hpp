// The timeline's numbers (no ImGui): the kept span's plots, each a few hundred points however long
// the span (a bucket of steps per point, its largest value, so a spike is never averaged away),
// the impact marks by bucket, and the scrubber's step arithmetic. The panel (ui/timeline_panel.cpp)
// draws them; tested without a display (tests/app/test_timeline.cpp).
#pragma once

#include "session/history.hpp"

#include <cstdint>
#include <vector>

namespace kz {

/// The plots under the scrubber, over the history's kept span.
struct TimelinePlots {
    std::uint64_t first = 0;          ///< The span's first step (point 0 starts there).
    std::uint64_t stepsPerPoint = 1;  ///< Each point covers this many steps (the last may cover fewer).
    std::vector<float> kineticEnergy; ///< J: the largest in each point's steps.
    std::vector<float> momentum;      ///< |linear momentum|, kg m/s: the largest.
    std::vector<float> contacts;      ///< Contact points: the largest.
    std::vector<float> msPerStep;     ///< The slowest step's milliseconds.
    std::vector<int> impacts;         ///< Impacts in each point's steps (the scrubber's marks).

    /// The point a step falls in.
    int pointOf(std::uint64_t tick) const { return static_cast<int>((tick - first) / stepsPerPoint); }
};

/// The history's span in at most `maxPoints` points (>= 1); empty vectors for an empty history.
TimelinePlots timelinePlots(const History& history, int maxPoints);

/// Where `,` / `.` (delta -1 / +1, Shift: -10 / +10) take the timeline from `tick`: within the
/// kept span [first, last].
std::uint64_t timelineStep(const History& history, std::uint64_t tick, int delta);

/// The span's length as the panel says it: seconds of simulated time for `timeStep`.
double timelineSeconds(const History& history, float timeStep);

} // namespace kz
