// The timeline as the window runs it (Timeline: the session's kept steps and the past step on
// screen), and its numbers (no ImGui): the kept span's plots, each a few hundred points however long
// the span (a bucket of steps per point, its largest value, so a spike is never averaged away),
// the impact marks by bucket, and the scrubber's step arithmetic. The panel (ui/timeline_panel.cpp)
// draws them; tested without a display (tests/app/test_timeline.cpp).
#pragma once

#include "session/history.hpp"
#include "session/session.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kz {

/// The session's History, and the step on screen while the user looks at the past: the scrubber,
/// `,` and `.` land on any kept step (a keyframe run along the input log, bit-identical to the
/// live run) without touching the session; the session goes on from the step on screen only when
/// the world is changed there (goOnFromPast: Session::rewindTo drops the later steps and inputs).
class Timeline {
public:
    /// From now on `session` keeps its steps here, within `settings`. The Timeline must outlive
    /// the session's use of it, and not move.
    void attach(Session& session, HistorySettings settings);

    const History& history() const { return history_; }
    /// The past step on screen; null while the session's own step is.
    const SessionState* past() const { return past_ ? &*past_ : nullptr; }
    std::uint64_t shownTick(const Session& session) const { return past_ ? past_->tick : session.tick(); }

    /// Shows step `tick`: the session's own step ends the view of the past; another kept step is
    /// landed on, paused (the pause is not part of the state). Returns false when the step cannot
    /// be shown, with `error` saying why (empty: it is simply not kept).
    bool show(std::uint64_t tick, const Session& session, std::string& error);
    /// Back to the session's own step, the session unchanged (a replay's future is the recording's).
    void showPresent() { past_.reset(); }
    /// The session goes on from the past step on screen (its later steps and inputs dropped).
    /// Returns false, doing nothing, when the session's own step is on screen.
    bool goOnFromPast(Session& session);

private:
    History history_;
    std::optional<SessionState> past_;
};

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
