// Recording files (`kolize --record FILE`, `--replay FILE`): a session's inputs with their ticks,
// the scenarios they load embedded (JSON and mesh files), and the tick and state hash it ended
// with, so a replay stands alone and checks itself. A text format, one item a line:
//
//   kolize-recording 1                          the format and its version (the first line)
//   scenario 0 242 random                       scenario INDEX BYTES KEY: the next BYTES bytes are
//   {"name": "random", ...}                       its JSON, then a line end; KEY is the rest of the line
//   mesh 91281 meshes/arch.obj                  mesh BYTES NAME: a mesh file of the scenario above
//   ...                                           (its BYTES bytes, then a line end)
//   load 0 0 42 0.008333334                     load TICK SCENARIO SEED TIME_STEP
//   velocity 17 2 1.5 0 -3 0 0.1 0              velocity TICK BODY VX VY VZ WX WY WZ
//   material 40 0.5 0 0                         material TICK RESTITUTION FRICTION ROLLING
//   gravity 41 0 -9.81 0                        gravity TICK GX GY GZ
//   time_scale 42 0.5                           time_scale TICK SCALE
//   pause 50    resume 60    step 55            pause / resume / step TICK
//   end 1234 0123456789abcdef                   end TICK STATE_HASH: the last line
//
// Numbers are written as the shortest decimal that reads back to the same float (std::to_chars),
// so every input reads back bit for bit; ticks, body indices and seeds are whole numbers; the hash
// is 16 lowercase hex digits (stateHash). Inputs come in tick order, the first a load at tick 0;
// a scenario is embedded once, before the first load of it. Reading checks all of it: any other
// version, a bad or unknown line, a number that is not finite, a tick out of order, a scenario
// that does not parse, a time step that is not the scenario's, or a file without its end line
// (truncated) is one error line naming the file and the line.
#pragma once

#include "session/session.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kz {

/// The first line of a recording file of the version this build writes and reads.
inline constexpr std::string_view kRecordingHeader = "kolize-recording 1";
/// Recording files larger than this are refused before reading: 256 MiB (an hour of dragging at
/// 60 frames a second is about 20 MiB).
inline constexpr std::size_t kMaxRecordingBytes = std::size_t{256} << 20;

/// A recorded session.
struct Recording {
    std::string source;             ///< The file it was read from (errors name it); empty if made in memory.
    std::vector<TimedInput> inputs; ///< In tick order; the first is a LoadScenario at tick 0.
    std::vector<std::size_t> lines; ///< Each input's line in `source` (empty if made in memory).
    std::uint64_t endTick = 0;      ///< The session's tick when it was recorded, >= the last input's.
    std::uint64_t stateHash = 0;    ///< stateHash of its world at endTick, every input applied.
};

/// The recording of `session` as it is now: its inputs, its tick and its world's state hash.
Recording recordingOf(const Session& session);

/// The text of `recording` in the format above. Empty with `error` set (one line) when it cannot be
/// written: no inputs, a first input that is not a load at tick 0, inputs out of tick order, a
/// scenario key or mesh name holding a line break.
std::optional<std::string> recordingText(const Recording& recording, std::string& error);

/// Writes `recording` to `file` (through a temporary file beside it, renamed over it, so `file`
/// never holds half a recording). False with `error` set, one line naming the file.
bool saveRecording(const std::filesystem::path& file, const Recording& recording, std::string& error);

struct RecordingResult {
    std::optional<Recording> recording; ///< Empty on error.
    std::string error;                  ///< One line, "<name>:<line>: <what>"; empty on success.
};

/// Reads a recording's text; `name` stands for the file in errors and Recording::source.
RecordingResult parseRecording(std::string_view text, const std::string& name);

/// Reads a recording file (refused over kMaxRecordingBytes).
RecordingResult loadRecording(const std::filesystem::path& file);

/// Plays a recording into a live Session, tick by tick: the window takes a few ticks a frame, a
/// headless replay all of them. The session's own log grows into the recording's inputs.
class RecordingPlayer {
public:
    explicit RecordingPlayer(Recording recording) : recording_(std::move(recording)) {}

    /// The session on the recording's first input (its load at tick 0). Empty with `error` set
    /// ("<file>:<line>: ...") when that world cannot be built.
    std::optional<Session> start(std::string& error);
    /// Applies to `session` the recorded inputs of its tick not yet applied. Returns an empty string,
    /// or one line naming the file and the input's line when one cannot apply (a body out of range).
    std::string applyDue(Session& session);
    /// Whether `session` has reached the recording's end tick (step no further; applyDue first).
    bool atEnd(const Session& session) const { return session.tick() >= recording_.endTick; }
    /// One tick: applyDue, then a step unless `session` is at the end. Returns the steps taken (0 or
    /// 1); 0 with `error` set when an input fails.
    int playTick(Session& session, std::string& error);
    /// The window's playback: `frameSeconds` times the world's time scale fed to the player's own
    /// accumulator, and the ticks that are due played (playTick), at most the world's
    /// maxStepsPerAdvance a call, as World::advance paces a live session, and no more once they
    /// have used `budgetSeconds` of wall time (at least one; the rest are dropped, as
    /// Session::advance drops them). The recorded pauses do not hold it: they took no ticks. At the
    /// end it plays no further. Returns the steps taken.
    int play(Session& session, float frameSeconds, std::string& error, double budgetSeconds = INFINITY);
    /// At the end: empty when the session's state hash is the recorded one, else the one line
    /// "<file>: replay diverged: ...".
    std::string verify(const Session& session) const;

    const Recording& recording() const { return recording_; }

private:
    Recording recording_;
    std::size_t next_ = 0;     ///< The next input to apply.
    float accumulator_ = 0.0f; ///< Simulated seconds owed to the playback (play).
};

} // namespace kz
