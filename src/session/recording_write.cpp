// Writing recordings (format: recording.hpp).
#include "physics/state_hash.hpp"
#include "session/recording.hpp"
#include "session/session_detail.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <system_error>
#include <variant>

namespace kz {
namespace {

using session_detail::Overloaded;

/// Builds the text of one line at a time.
class LineWriter {
public:
    explicit LineWriter(std::string& out) : out_(out) {}

    LineWriter& word(std::string_view w) {
        if (!out_.empty() && out_.back() != '\n') out_ += ' ';
        out_ += w;
        return *this;
    }
    template <class Whole>
    LineWriter& whole(Whole value) {
        char text[24];
        const auto end = std::to_chars(text, text + sizeof text, value).ptr;
        return word(std::string_view(text, static_cast<std::size_t>(end - text)));
    }
    /// The shortest decimal that reads back as `value` (std::to_chars without a format).
    LineWriter& number(float value) { return word(session_detail::shortest(value)); }
    LineWriter& vec3(const glm::vec3& v) { return number(v.x).number(v.y).number(v.z); }
    void end() { out_ += '\n'; }
    /// `bytes` verbatim, then a line end.
    void block(std::string_view bytes) {
        out_ += bytes;
        out_ += '\n';
    }

private:
    std::string& out_;
};

bool sameScenario(const SessionScenario& a, const SessionScenario& b) {
    return a.key == b.key && a.text.json == b.text.json && a.text.meshes == b.text.meshes;
}

/// The embedded scenarios: each distinct one once, numbered in the order of their first load.
class ScenarioTable {
public:
    /// The number of `scenario`, writing its block the first time it is seen. Empty with `error`
    /// set for a key or mesh name that a line cannot hold.
    std::optional<std::size_t> indexOf(const std::shared_ptr<const SessionScenario>& scenario,
                                       LineWriter& out, std::string& error) {
        for (std::size_t i = 0; i < seen_.size(); ++i) {
            if (seen_[i] == scenario || sameScenario(*seen_[i], *scenario)) return i;
        }
        if (!session_detail::lineSafeName(scenario->key)) {
            error = "cannot record the scenario key '" + scenario->key +
                    "': it must be one non-empty line without control characters";
            return std::nullopt;
        }
        out.word("scenario").whole(seen_.size()).whole(scenario->text.json.size()).word(scenario->key).end();
        out.block(scenario->text.json);
        for (const auto& [name, text] : scenario->text.meshes) {
            if (!session_detail::lineSafeName(name)) {
                error = "cannot record the mesh file name '" + name +
                        "': it must be one non-empty line without control characters";
                return std::nullopt;
            }
            out.word("mesh").whole(text.size()).word(name).end();
            out.block(text);
        }
        seen_.push_back(scenario);
        return seen_.size() - 1;
    }

private:
    std::vector<std::shared_ptr<const SessionScenario>> seen_;
};

} // namespace

Recording recordingOf(const Session& session) {
    Recording recording;
    recording.inputs = session.inputs();
    recording.endTick = session.tick();
    recording.stateHash = stateHash(session.world());
    return recording;
}

std::optional<std::string> recordingText(const Recording& recording, std::string& error) {
    const std::vector<TimedInput>& inputs = recording.inputs;
    if (inputs.empty() || inputs.front().tick != 0 ||
        !std::holds_alternative<LoadScenario>(inputs.front().input)) {
        error = "a recording starts with a load at tick 0";
        return std::nullopt;
    }
    // The scenario blocks come before the inputs, so they are written first, into their own text.
    std::string scenarios;
    std::string lines;
    LineWriter scenarioOut(scenarios);
    LineWriter out(lines);
    ScenarioTable table;
    std::uint64_t lastTick = 0;
    for (const TimedInput& timed : inputs) {
        if (timed.tick < lastTick) {
            error = "the inputs are out of tick order (tick " + std::to_string(timed.tick) + " after " +
                    std::to_string(lastTick) + ")";
            return std::nullopt;
        }
        lastTick = timed.tick;
        out.word(inputKind(timed.input)).whole(timed.tick);
        const bool written = std::visit(
            Overloaded{
                [&](const SetBodyVelocity& v) {
                    out.whole(v.body).vec3(v.velocity).vec3(v.angularVelocity);
                    return true;
                },
                [&](const LoadScenario& load) {
                    if (!load.scenario) {
                        error = "a load without a scenario";
                        return false;
                    }
                    const std::optional<std::size_t> index = table.indexOf(load.scenario, scenarioOut, error);
                    if (!index) return false;
                    out.whole(*index).whole(load.seed).number(load.scenario->scenario.settings.timeStep);
                    return true;
                },
                [&](const SetMaterial& m) {
                    out.number(m.restitution).number(m.friction).number(m.rollingResistance);
                    return true;
                },
                [&](const SetGravity& g) {
                    out.vec3(g.gravity);
                    return true;
                },
                [&](const SetTimeScale& t) {
                    out.number(t.timeScale);
                    return true;
                },
                [&](const SetPaused&) { return true; },
                [&](const SingleStep&) { return true; },
            },
            timed.input);
        if (!written) return std::nullopt;
        out.end();
    }
    if (recording.endTick < lastTick) {
        error = "the end tick " + std::to_string(recording.endTick) + " is before the last input's tick " +
                std::to_string(lastTick);
        return std::nullopt;
    }
    out.word("end").whole(recording.endTick).word(stateHashText(recording.stateHash)).end();
    return std::string(kRecordingHeader) + "\n" + scenarios + lines;
}

bool saveRecording(const std::filesystem::path& file, const Recording& recording, std::string& error) {
    const std::string name = file.string();
    std::optional<std::string> text = recordingText(recording, error);
    if (!text) {
        error = name + ": " + error;
        return false;
    }
    // Beside the target (the same file system), so the rename is atomic.
    std::filesystem::path temporary = file;
    temporary += ".part";
    errno = 0;
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (out) {
        out.write(text->data(), static_cast<std::streamsize>(text->size()));
        out.close();
    }
    if (!out) {
        error = name + ": cannot write " + temporary.string() +
                (errno != 0 ? std::string(": ") + std::strerror(errno) : "");
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return false;
    }
    std::error_code ec;
    std::filesystem::rename(temporary, file, ec);
    if (ec) {
        error = name + ": cannot write the recording (" + ec.message() + ")";
        std::filesystem::remove(temporary, ec);
        return false;
    }
    return true;
}

} // namespace kz
