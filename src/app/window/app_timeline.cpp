// The timeline in the window: the session's History (session/history.hpp) keeps its steps; the
// scrubber, `,` and `.` show any kept step by landing on it (a keyframe run along the input log,
// bit-identical to the live run), without touching the session; the session goes on from the
// step on screen only when the world is changed there (Play, a drag, a panel change, a load):
// then the steps after it and their inputs are dropped (Session::rewindTo).
#include "app/cli/errors.hpp"
#include "app/timeline/timeline.hpp"
#include "app/window/app_internal.hpp"
#include "physics/state_hash.hpp"

namespace kz {

void App::seek(std::uint64_t tick) {
    if (!world().paused()) pause();
    if (playback_ && !playback_->finished) playback_->paused = true;
    if (tick == session_->tick()) {
        viewing_.reset();
        events_.timeline(frame_, "seek", tick, stateHash(world()), true);
        return;
    }
    std::string error;
    std::optional<SessionState> landed = history_.at(tick, session_->inputs(), &error);
    if (!landed) {
        if (!error.empty()) cli::printError("kolize", "timeline: " + error);
        return;
    }
    landed->world.setPaused(true); // the past stands still (the pause is not part of the state)
    const std::size_t bodies = world().bodies().size();
    viewing_ = std::move(landed);
    if (world().bodies().size() != bodies) interaction_.forget(world(), frame_);
    events_.timeline(frame_, "seek", tick, stateHash(world()), false);
}

void App::stepTimeline(int delta) {
    if (lab_ || history_.empty()) return;
    if (!viewing_ && delta > 0 && !replaying()) {
        // At the session's own step: forward is a new step (one N per step).
        for (int i = 0; i < delta; ++i) {
            singleStep();
            advance(0.0f);
        }
        return;
    }
    seek(timelineStep(history_, shownTick(), delta));
}

void App::leavePast() {
    if (!viewing_) return;
    if (replaying()) { // a replay's future is the recording's: back to where it plays
        viewing_.reset();
        return;
    }
    session_->rewindTo(std::move(*viewing_));
    viewing_.reset();
    inputsShown_ = std::min(inputsShown_, session_->inputs().size());
    keepImpactsInStep();
    events_.timeline(frame_, "rewind", session_->tick(), stateHash(world()), true);
}

TimelineInfo App::timelineInfo() const {
    TimelineInfo info;
    info.history = &history_;
    info.tick = shownTick();
    info.paused = replaying() ? playback_->paused : world().paused();
    info.timeStep = world().settings().timeStep;
    return info;
}

} // namespace kz
