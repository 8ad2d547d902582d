#include "app/timeline/playback.hpp"

#include "app/cli/errors.hpp"
#include "physics/state_hash.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <utility>

namespace kz {

std::optional<Playback> Playback::load(const std::string& file, std::string& error) {
    RecordingResult read = loadRecording(file);
    if (!read.recording) {
        error = read.error;
        return std::nullopt;
    }
    return Playback(std::move(*read.recording));
}

bool Playback::start(std::optional<Session>& session, const std::shared_ptr<JobSystem>& jobs,
                     std::string& error) {
    session = player_.start(error);
    if (!session) return false;
    session->setJobs(jobs);
    error = player_.applyDue(*session);
    return error.empty();
}

int Playback::play(Session& session, float frameSeconds, double budgetSeconds, std::string& error) {
    int steps = 0;
    if (!paused_) {
        steps = player_.play(session, frameSeconds, error, budgetSeconds);
    } else if (tickRequested_) {
        steps = player_.playTick(session, error);
    }
    tickRequested_ = false;
    return steps;
}

void Playback::finish(const Session& session, EventLog& events, std::uint64_t frame) {
    finished_ = true;
    verdict_ = player_.verify(session);
    events.replayEnd(frame, session.tick(), stateHash(session.world()), verdict_.empty());
    if (!verdict_.empty()) cli::printError("kolize", verdict_);
}

ReplayStatus Playback::status(const Session& session) const {
    return {player_.recording().source, session.tick(), player_.recording().endTick, finished_, verdict_};
}

bool checkRecordTarget(const std::string& file, std::string& error) {
    errno = 0;
    std::ofstream probe(file, std::ios::out | std::ios::trunc);
    if (probe) return true;
    error = "--record: cannot write '" + file + "'" +
            (errno != 0 ? std::string(": ") + std::strerror(errno) : "");
    return false;
}

bool writeRecording(const std::string& file, const Session& session, std::string& error) {
    if (saveRecording(file, recordingOf(session), error)) return true;
    error = "--record: " + error;
    return false;
}

} // namespace kz
