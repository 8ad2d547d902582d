// --record FILE and --replay FILE in the window.
//
// --record: the session's inputs (every change to the world, each with its tick) are written to
// FILE at quit, with the scenarios they load and the end's tick and state hash (session/recording.hpp).
//
// --replay: the recording's first load starts the session, and each frame the playback takes the
// ticks its own clock makes due (the world's time scale, at most 8 a frame), applying each tick's
// recorded inputs first; the window draws as it would live. While it plays, what would change the
// world is ignored (dragging, F, D, the scenario list, Reload, the Simulation sliders: greyed out);
// P, O, Space and N pause, resume and single-step the playback. At the end tick the state hash is
// checked against the recorded one (the panel says whether it matches; a `replay_end` event), the
// world is paused, and the session is live again: it continues from there.
#include "app/cli/errors.hpp"
#include "app/window/app_internal.hpp"
#include "physics/state_hash.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace kz {

AppResult App::startReplay() {
    RecordingResult read = loadRecording(options_.replay);
    if (!read.recording) return {cli::kExitUsage, read.error};
    playback_.emplace(Playback{RecordingPlayer(std::move(*read.recording)), false, false, false, {}});
    std::string error;
    session_ = playback_->player.start(error);
    if (!session_) return {cli::kExitUsage, error};
    session_->setJobs(jobs_);
    // The inputs of tick 0 (the load, and whatever came before the first step), before the first frame.
    if (error = playback_->player.applyDue(*session_); !error.empty()) return {cli::kExitUsage, error};
    showNewInputs();
    return {};
}

int App::playReplay(float frameSeconds) {
    if (!replaying()) return session_->advance(frameSeconds, kPhysicsBudgetSeconds);
    std::string error;
    int steps = 0;
    if (!playback_->paused) {
        steps = playback_->player.play(*session_, frameSeconds, error, kPhysicsBudgetSeconds);
    } else if (playback_->tickRequested) {
        steps = playback_->player.playTick(*session_, error);
    }
    playback_->tickRequested = false;
    showNewInputs();
    if (!error.empty()) {
        // An input that cannot apply (a body out of range): the recording is broken here.
        failure_ = {cli::kExitUsage, error};
        quit_ = true;
    } else if (playback_->player.atEnd(*session_)) {
        finishReplay();
    }
    return steps;
}

void App::finishReplay() {
    playback_->finished = true;
    playback_->verdict = playback_->player.verify(*session_);
    events_.replayEnd(frame_, session_->tick(), stateHash(world()), playback_->verdict.empty());
    if (!playback_->verdict.empty()) cli::printError("kolize", playback_->verdict);
    // Paused at the end: the user looks, then takes over.
    if (!world().paused()) input(SetPaused{true});
}

bool App::checkRecordTarget(std::string& error) const {
    if (options_.record.empty()) return true;
    // Created (or truncated) now, so a bad path fails before the window opens; written at quit.
    errno = 0;
    std::ofstream probe(options_.record, std::ios::out | std::ios::trunc);
    if (probe) return true;
    error = "--record: cannot write '" + options_.record + "'" +
            (errno != 0 ? std::string(": ") + std::strerror(errno) : "");
    return false;
}

AppResult App::writeRecording() {
    if (options_.record.empty() || !session_) return {};
    std::string error;
    if (!saveRecording(options_.record, recordingOf(*session_), error))
        return {cli::kExitFailure, "--record: " + error};
    return {};
}

} // namespace kz
