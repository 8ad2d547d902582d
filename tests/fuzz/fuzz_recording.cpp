// Fuzz target: recording files (src/session/recording.hpp), what a user hands to
// `kolize --replay FILE`. An input is read; a rejected one must give one error line naming the
// file; an accepted one must write back to a text that reads back to the same text (the numbers to
// the bit), and, when small enough to replay quickly, replay to its end twice to the same state
// hash, every input that cannot apply refused with one line naming the file.
#include "fuzz_check.hpp"
#include "fuzz_world.hpp"
#include "physics/state_hash.hpp"
#include "session/recording.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace {

/// Replays only recordings this short, of worlds this small, whose bodies cross the room at most
/// kMaxRoomCrossingsPerStep times a step (the same bounds as fuzz_scenario's): each input must take
/// milliseconds.
constexpr int kMaxTicks = 300;
constexpr std::size_t kMaxBodies = 200;
constexpr int kMaxRandomBodies = 400;

/// Whether every load of the recording builds a world small enough to instantiate quickly.
bool smallWorlds(const kz::Recording& recording) {
    for (const kz::TimedInput& input : recording.inputs) {
        const auto* load = std::get_if<kz::LoadScenario>(&input.input);
        if (load == nullptr) continue;
        const kz::Scenario& s = load->scenario->scenario;
        if (s.bodies.size() > kMaxBodies || (s.random && s.random->count > kMaxRandomBodies)) return false;
    }
    return true;
}

/// Replays `recording` to its end (or until it leaves the bounds): the state hash, or 0 when it
/// stopped early.
std::uint64_t replay(const kz::Recording& recording, const std::string& name) {
    kz::RecordingPlayer player(recording);
    std::string error;
    std::optional<kz::Session> session = player.start(error);
    if (!session) {
        kz::fuzz::checkErrorLine(error, name);
        return 0;
    }
    while (true) {
        if (error = player.applyDue(*session); !error.empty()) {
            kz::fuzz::checkErrorLine(error, name);
            return 0;
        }
        if (player.atEnd(*session)) break;
        const kz::World& world = session->world();
        if (world.bodies().size() > kMaxBodies ||
            !(kz::fuzz::roomCrossingsPerStep(world, kMaxTicks) <= kz::fuzz::kMaxRoomCrossingsPerStep))
            return 0;
        session->step();
    }
    const std::string verdict = player.verify(*session);
    kz::fuzz::check(verdict.empty() || (verdict.starts_with(name + ": replay diverged: ") &&
                                        verdict.find('\n') == std::string::npos),
                    "the verdict is not one line naming the file: " + verdict);
    return kz::stateHash(session->world()) | 1; // never 0
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string name = "fuzz.kzr";
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    kz::RecordingResult read = kz::parseRecording(text, name);
    if (!read.recording) {
        kz::fuzz::checkErrorLine(read.error, name);
        return 0;
    }
    const kz::Recording& recording = *read.recording;
    kz::fuzz::check(!recording.inputs.empty() &&
                        std::holds_alternative<kz::LoadScenario>(recording.inputs[0].input),
                    "an accepted recording does not start with a load");

    // Written back, it reads back to the same text.
    std::string error;
    const std::optional<std::string> written = kz::recordingText(recording, error);
    kz::fuzz::check(written.has_value(), "an accepted recording cannot be written: " + error);
    const kz::RecordingResult again = kz::parseRecording(*written, name);
    kz::fuzz::check(again.recording.has_value(), "the recording written back is refused: " + again.error);
    const std::optional<std::string> rewritten = kz::recordingText(*again.recording, error);
    kz::fuzz::check(rewritten == written, "the recording written back reads back to another text");

    if (recording.endTick > static_cast<std::uint64_t>(kMaxTicks) || !smallWorlds(recording)) return 0;
    const std::uint64_t first = replay(recording, name);
    if (first == 0) return 0;
    kz::fuzz::check(replay(*again.recording, name) == first, "the same recording replayed twice ends apart");
    return 0;
}
