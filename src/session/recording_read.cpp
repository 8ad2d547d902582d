// Reading recordings (format: recording.hpp). Every failure is one line, "<name>:<line>: <what>".
#include "physics/state_hash.hpp"
#include "session/recording.hpp"
#include "session/session_detail.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <system_error>
#include <variant>

namespace kz {
namespace {

using session_detail::shortest;

/// A failure at a line of the file, caught once in parseRecording.
struct ReadError {
    std::size_t line;
    std::string what;
};

[[noreturn]] void failAt(std::size_t line, std::string what) {
    throw ReadError{line, std::move(what)};
}

/// Characters a message quotes from the file are shown escaped, so the error stays one line.
std::string shownText(std::string_view text) {
    constexpr std::size_t kMaxShown = 40;
    std::string out = "'";
    for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xfu];
        }
    }
    if (text.size() > kMaxShown) out += "...";
    return out + "'";
}

/// One line's words (split at single spaces), with the helpers that read them as numbers.
class Fields {
public:
    Fields(std::string_view line, std::size_t number) : number_(number) {
        if (line.empty()) failAt(number_, "empty line");
        std::size_t begin = 0;
        while (true) {
            const std::size_t space = line.find(' ', begin);
            words_.push_back(line.substr(begin, space == std::string_view::npos ? space : space - begin));
            if (words_.back().empty())
                failAt(number_, "empty field in " + shownText(line) + " (fields are separated by one space)");
            if (space == std::string_view::npos) break;
            begin = space + 1;
        }
    }

    std::string_view kind() const { return words_.front(); }
    std::string_view word(std::size_t i) const { return words_[i]; }
    std::size_t count() const { return words_.size(); }
    /// Exactly `n` fields after the kind, which take `usage`.
    void expect(std::size_t n, const char* usage) const {
        if (words_.size() != n + 1)
            failAt(number_, std::string(kind()) + " takes " + std::to_string(n) + " fields (" + usage +
                                "), got " + std::to_string(words_.size() - 1));
    }

    template <class Whole>
    Whole whole(std::size_t i, const char* what) const {
        Whole value{};
        const std::string_view w = words_[i];
        const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
        if (ec != std::errc() || end != w.data() + w.size() || (w.size() > 1 && w.front() == '0'))
            failAt(number_, std::string(what) + ": expected a whole number, got " + shownText(w));
        return value;
    }
    std::uint64_t tick(std::size_t i) const { return whole<std::uint64_t>(i, "tick"); }

    /// A finite float, as std::to_chars writes it (decimal, optionally with an exponent).
    float number(std::size_t i, const char* what) const {
        float value = 0.0f;
        const std::string_view w = words_[i];
        const auto [end, ec] =
            std::from_chars(w.data(), w.data() + w.size(), value, std::chars_format::general);
        if (ec != std::errc() || end != w.data() + w.size() || w.empty() || w.front() == '+')
            failAt(number_, std::string(what) + ": expected a number, got " + shownText(w));
        if (!std::isfinite(value))
            failAt(number_, std::string(what) + ": must be finite, got " + shownText(w));
        return value;
    }
    glm::vec3 vec3(std::size_t i, const char* what) const {
        return {number(i, what), number(i + 1, what), number(i + 2, what)};
    }
    /// The rest of the line from word `i` on (a name that may hold spaces).
    std::string rest(std::string_view line, std::size_t i) const {
        return std::string(line.substr(static_cast<std::size_t>(words_[i].data() - line.data())));
    }

private:
    std::vector<std::string_view> words_;
    std::size_t number_;
};

/// The reader's state: where it is in the text and what it has read so far.
class Reader {
public:
    Reader(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {}

    Recording read() {
        const std::string_view header = nextLine();
        if (header != kRecordingHeader) {
            if (header.starts_with("kolize-recording "))
                failAt(1, "recording format version " + shownText(header.substr(17)) +
                              "; this kolize reads version 1");
            failAt(1,
                   "not a kolize recording (the first line must be '" + std::string(kRecordingHeader) + "')");
        }
        while (!ended_) {
            if (pos_ >= text_.size())
                failAt(line_ + 1, "truncated: the recording ends after line " + std::to_string(line_) +
                                      " without its end line");
            const std::string_view line = nextLine();
            readLine(line);
        }
        if (pos_ < text_.size()) failAt(line_ + 1, "more after the end line");
        recording_.source = name_;
        return std::move(recording_);
    }

private:
    /// The next line (without its line end); the line count moves on.
    std::string_view nextLine() {
        ++line_;
        const std::size_t end = text_.find('\n', pos_);
        const std::string_view line = text_.substr(pos_, end == std::string_view::npos ? end : end - pos_);
        pos_ = end == std::string_view::npos ? text_.size() : end + 1;
        return line;
    }

    /// The next `bytes` bytes, which must be followed by a line end; the line count moves past them.
    std::string block(std::size_t bytes, const char* what) {
        const std::size_t header = line_;
        if (text_.size() - pos_ < bytes)
            failAt(header, std::string("truncated: the ") + what + "'s " + std::to_string(bytes) +
                               " bytes run past the end of the file");
        std::string out(text_.substr(pos_, bytes));
        pos_ += bytes;
        for (const char c : out)
            line_ += c == '\n' ? 1 : 0;
        if (pos_ >= text_.size() || text_[pos_] != '\n')
            failAt(header, std::string("the ") + what + "'s " + std::to_string(bytes) +
                               " bytes are not followed by a line end (truncated, or a wrong byte count)");
        ++pos_;
        ++line_;
        return out;
    }

    void readLine(std::string_view line) {
        const Fields f(line, line_);
        const std::string_view kind = f.kind();
        if (kind == "mesh") return readMesh(line, f);
        closeScenario();
        if (kind == "scenario") return readScenario(line, f);
        if (kind == "end") return readEnd(f);
        readInput(f);
    }

    void readScenario(std::string_view line, const Fields& f) {
        if (f.count() < 4) f.expect(3, "index, bytes, key");
        const auto index = f.whole<std::size_t>(1, "scenario index");
        if (index != scenarios_.size())
            failAt(line_, "scenario " + std::to_string(index) + ": expected scenario " +
                              std::to_string(scenarios_.size()) + " (they are numbered in order from 0)");
        const auto bytes = f.whole<std::size_t>(2, "scenario bytes");
        if (bytes > kMaxScenarioBytes)
            failAt(line_, "scenario " + std::to_string(index) + ": " + std::to_string(bytes) +
                              " bytes, over the limit for scenario files (" +
                              std::to_string(kMaxScenarioBytes) + ")");
        std::string key = f.rest(line, 3);
        if (!session_detail::lineSafeName(key))
            failAt(line_, "scenario key " + shownText(key) + ": must not hold control characters");
        open_ = OpenScenario{line_, std::move(key), {}};
        open_->text.source = open_->key;
        open_->text.json = block(bytes, "scenario");
    }

    void readMesh(std::string_view line, const Fields& f) {
        if (!open_) failAt(line_, "a mesh must follow its scenario (or another mesh of it)");
        if (f.count() < 3) f.expect(2, "bytes, name");
        const auto bytes = f.whole<std::size_t>(1, "mesh bytes");
        if (bytes > kMaxScenarioMeshBytes)
            failAt(line_, "mesh: " + std::to_string(bytes) +
                              " bytes, over the limit for a scenario's mesh files (" +
                              std::to_string(kMaxScenarioMeshBytes) + ")");
        std::string name = f.rest(line, 2);
        if (!session_detail::lineSafeName(name))
            failAt(line_, "mesh name " + shownText(name) + ": must not hold control characters");
        if (open_->text.meshes.contains(name)) failAt(line_, "mesh " + shownText(name) + " given twice");
        open_->text.meshes.emplace(std::move(name), block(bytes, "mesh"));
    }

    /// The scenario block just read (with its meshes) is complete: parse it.
    void closeScenario() {
        if (!open_) return;
        OpenScenario done = std::move(*open_);
        open_.reset();
        ScenarioResult parsed = parseScenarioText(done.text);
        if (!parsed.scenario)
            failAt(done.line, "scenario " + std::to_string(scenarios_.size()) + ": " + parsed.error);
        scenarios_.push_back(std::make_shared<const SessionScenario>(
            SessionScenario{std::move(done.key), std::move(done.text), std::move(*parsed.scenario)}));
    }

    void readEnd(const Fields& f) {
        f.expect(2, "tick, state hash");
        if (recording_.inputs.empty())
            failAt(line_, "no input before the end line (a recording starts with a load)");
        recording_.endTick = f.tick(1);
        if (recording_.endTick < recording_.inputs.back().tick)
            failAt(line_, "end tick " + std::to_string(recording_.endTick) +
                              " is before the last input's tick " +
                              std::to_string(recording_.inputs.back().tick));
        recording_.stateHash = readHash(f);
        ended_ = true;
    }

    std::uint64_t readHash(const Fields& f) const {
        std::uint64_t value = 0;
        const std::string_view w = f.word(2);
        const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), value, 16);
        const bool lowercase = w.find_first_of("ABCDEF") == std::string_view::npos;
        if (w.size() != 16 || ec != std::errc() || end != w.data() + w.size() || !lowercase)
            failAt(line_, "state hash: expected 16 lowercase hex digits, got " + shownText(w));
        return value;
    }

    void readInput(const Fields& f) {
        const std::string_view kind = f.kind();
        SessionInput input;
        if (kind == "velocity") {
            f.expect(8, "tick, body, vx vy vz, wx wy wz");
            const auto body = f.whole<std::uint64_t>(2, "body");
            if (body > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
                failAt(line_, "body " + std::to_string(body) + " is out of range");
            input =
                SetBodyVelocity{static_cast<int>(body), f.vec3(3, "velocity"), f.vec3(6, "angular velocity")};
        } else if (kind == "load") {
            input = readLoad(f);
        } else if (kind == "material") {
            f.expect(4, "tick, restitution, friction, rolling resistance");
            input = SetMaterial{f.number(2, "restitution"), f.number(3, "friction"),
                                f.number(4, "rolling resistance")};
        } else if (kind == "gravity") {
            f.expect(4, "tick, gx gy gz");
            input = SetGravity{f.vec3(2, "gravity")};
        } else if (kind == "time_scale") {
            f.expect(2, "tick, scale");
            input = SetTimeScale{f.number(2, "time scale")};
        } else if (kind == "pause" || kind == "resume") {
            f.expect(1, "tick");
            input = SetPaused{kind == "pause"};
        } else if (kind == "step") {
            f.expect(1, "tick");
            input = SingleStep{};
        } else {
            failAt(line_, "unknown line " + shownText(kind) +
                              " (one of: scenario, mesh, load, velocity, material, gravity, time_scale, "
                              "pause, resume, step, end)");
        }
        const std::uint64_t tick = f.tick(1);
        if (recording_.inputs.empty() && (tick != 0 || kind != "load"))
            failAt(line_, "the first input must be a load at tick 0");
        if (!recording_.inputs.empty() && tick < recording_.inputs.back().tick)
            failAt(line_, "tick " + std::to_string(tick) + " is before the previous input's tick " +
                              std::to_string(recording_.inputs.back().tick));
        recording_.inputs.push_back({tick, std::move(input)});
        recording_.lines.push_back(line_);
    }

    LoadScenario readLoad(const Fields& f) {
        f.expect(4, "tick, scenario, seed, time step");
        const auto index = f.whole<std::size_t>(2, "scenario");
        if (index >= scenarios_.size())
            failAt(line_, "scenario " + std::to_string(index) + " is not embedded above (" +
                              std::to_string(scenarios_.size()) + " are)");
        const std::shared_ptr<const SessionScenario>& scenario = scenarios_[index];
        const float timeStep = f.number(4, "time step");
        const float expected = scenario->scenario.settings.timeStep;
        if (timeStep != expected)
            failAt(line_, "time step " + std::string(f.word(4)) + " is not scenario " +
                              std::to_string(index) + "'s (" + shortest(expected) + ")");
        return LoadScenario{scenario, f.whole<std::uint64_t>(3, "seed")};
    }

    struct OpenScenario {
        std::size_t line; ///< Of its "scenario" line.
        std::string key;
        ScenarioText text;
    };

    std::string_view text_;
    std::string name_;
    std::size_t pos_ = 0;
    std::size_t line_ = 0;
    bool ended_ = false;
    std::optional<OpenScenario> open_;
    std::vector<std::shared_ptr<const SessionScenario>> scenarios_;
    Recording recording_;
};

} // namespace

RecordingResult parseRecording(std::string_view text, const std::string& name) {
    try {
        if (text.size() > kMaxRecordingBytes)
            return {std::nullopt, name + ": larger than " + std::to_string(kMaxRecordingBytes >> 20) +
                                      " MiB, the limit for recordings"};
        return {Reader(text, name).read(), {}};
    } catch (const ReadError& e) {
        return {std::nullopt, name + ":" + std::to_string(e.line) + ": " + e.what};
    } catch (const std::exception& e) {
        return {std::nullopt, name + ": " + e.what()};
    }
}

RecordingResult loadRecording(const std::filesystem::path& file) {
    const std::string name = file.string();
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return {std::nullopt, name + ": no such file"};
    if (std::filesystem::is_directory(file, ec))
        return {std::nullopt, name + ": is a directory, not a recording"};
    std::ifstream in(file, std::ios::binary);
    if (!in) return {std::nullopt, name + ": cannot read the file"};
    // In chunks, stopping one chunk past the limit, so a huge file or an endless device costs little.
    std::string text;
    std::vector<char> chunk(std::size_t{1} << 16);
    while (in && text.size() <= kMaxRecordingBytes) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) return {std::nullopt, name + ": cannot read the file"};
    return parseRecording(text, name);
}

} // namespace kz
