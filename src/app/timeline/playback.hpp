// --replay FILE and --record FILE in the window (session/recording.hpp holds the file format and
// the player).
//
// --replay: the recording's first load starts the session, and each frame the playback takes the
// ticks its own clock makes due (the world's time scale, at most 8 a frame), applying each tick's
// recorded inputs first. While it plays, what would change the world is ignored (the window greys
// it out); P, O, Space and N pause, resume and single-step the playback. At the end tick the state
// hash is checked against the recorded one (a `replay_end` event), the world is paused, and the
// session is live again: it continues from there.
//
// --record: the session's inputs (every change to the world, each with its tick) are written at
// quit, with the scenarios they load and the end's tick and state hash.
#pragma once

#include "app/cli/events.hpp"
#include "session/recording.hpp"
#include "session/session.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kz {

/// A replay under way or ended, as the panel shows it.
struct ReplayStatus {
    std::string file;          ///< The recording.
    std::uint64_t tick = 0;    ///< The session's tick now.
    std::uint64_t endTick = 0; ///< The recording's last tick.
    bool finished = false;     ///< The end is reached: the world is the user's again.
    std::string verdict;       ///< At the end: empty when the state hash is the recorded one, else why not.
};

/// A recording playing in the window, with the playback's own pause (the world keeps its
/// recorded one).
class Playback {
public:
    /// The recording in `file`; empty, with `error` set, when it cannot be read.
    static std::optional<Playback> load(const std::string& file, std::string& error);
    /// Starts `session` on the recording's first load, stepping on `jobs`, and applies the inputs
    /// of tick 0 (before the first frame). Returns false, with `error` set, when it cannot.
    bool start(std::optional<Session>& session, const std::shared_ptr<JobSystem>& jobs, std::string& error);

    /// Still playing: the end tick is not reached.
    bool playing() const { return !finished_; }
    bool paused() const { return paused_; }
    void setPaused(bool paused) { paused_ = paused; }
    /// N: one tick at the next play() while paused.
    void requestTick() { tickRequested_ = true; }

    /// This frame's ticks (none while paused, but a requested one), each tick's recorded inputs
    /// first; stops at the first step that would pass `budgetSeconds` of wall time. Returns the
    /// steps taken; `error` is set when the recording is broken here (an input that cannot apply).
    int play(Session& session, float frameSeconds, double budgetSeconds, std::string& error);
    /// Whether the end tick is reached and its inputs applied.
    bool atEnd(const Session& session) const { return player_.atEnd(session); }
    /// At the end: checks the state hash against the recording's, logs `replay_end`, says on
    /// stderr when it differs; playing() turns false.
    void finish(const Session& session, EventLog& events, std::uint64_t frame);

    ReplayStatus status(const Session& session) const;

private:
    explicit Playback(Recording recording) : player_(std::move(recording)) {}

    RecordingPlayer player_;
    bool paused_ = false;
    bool tickRequested_ = false;
    bool finished_ = false;
    std::string verdict_;
};

/// --record: whether `file` can be written (it is created or truncated now, so a bad path fails
/// before the window opens), else `error`.
bool checkRecordTarget(const std::string& file, std::string& error);
/// --record at quit: the session's recording into `file`, else `error`.
bool writeRecording(const std::string& file, const Session& session, std::string& error);

} // namespace kz
