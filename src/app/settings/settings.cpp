#include "app/settings/settings.hpp"

#include "app/cli/report_numbers.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <system_error>

namespace kz {
namespace {

using Json = nlohmann::json;

constexpr std::uintmax_t kMaxFileBytes = 1u << 20; ///< A settings file is a few KiB.
constexpr std::size_t kMaxTextBytes = 64u << 10;   ///< The panel layout; a path.
constexpr int kMaxWindowSide = 16384;              ///< As --size.
constexpr int kMaxPosition = 1'000'000;            ///< Any desktop.
constexpr int kMaxMsaaSamples = 16;                ///< As --msaa.
constexpr float kMaxSpinSpeed = 45.0f;             ///< The panel's slider.

/// "line L, column C" of byte `offset` of `text` (1-based).
std::string lineAndColumn(const std::string& text, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// The shortest decimal that reads back as `value`.
std::string shortestText(float value) {
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, value);
    return std::string(text, written.ptr);
}

/// Reads the keys of a settings object; the first problem is kept for the warning.
class KeyReader {
public:
    explicit KeyReader(const Json& root) : root_(root) {}

    const std::string& problem() const { return problem_; }

    std::optional<bool> boolean(const char* key) {
        const Json* value = find(key);
        if (!value) return std::nullopt;
        if (value->is_boolean()) return value->get<bool>();
        fail(key, "true or false");
        return std::nullopt;
    }

    std::optional<int> whole(const char* key, int min, int max) {
        const Json* value = find(key);
        if (!value) return std::nullopt;
        if (value->is_number_integer() && value->get<long long>() >= min && value->get<long long>() <= max)
            return static_cast<int>(value->get<long long>());
        fail(key, "a whole number from " + std::to_string(min) + " to " + std::to_string(max));
        return std::nullopt;
    }

    std::optional<float> number(const char* key, float min, float max) {
        const Json* value = find(key);
        if (!value) return std::nullopt;
        if (value->is_number()) {
            const double number = value->get<double>();
            if (std::isfinite(number) && number >= min && number <= max) return static_cast<float>(number);
        }
        fail(key, "a number from " + shortestText(min) + " to " + shortestText(max));
        return std::nullopt;
    }

    /// [x, y], each a whole number in [min, max].
    std::optional<glm::ivec2> pair(const char* key, int min, int max) {
        const Json* value = find(key);
        if (!value) return std::nullopt;
        if (value->is_array() && value->size() == 2) {
            const Json& x = (*value)[0];
            const Json& y = (*value)[1];
            const auto within = [&](const Json& v) {
                return v.is_number_integer() && v.get<long long>() >= min && v.get<long long>() <= max;
            };
            if (within(x) && within(y)) return glm::ivec2(x.get<int>(), y.get<int>());
        }
        fail(key, "two whole numbers from " + std::to_string(min) + " to " + std::to_string(max));
        return std::nullopt;
    }

    std::optional<std::string> text(const char* key) {
        const Json* value = find(key);
        if (!value) return std::nullopt;
        if (value->is_string() && value->get_ref<const std::string&>().size() <= kMaxTextBytes)
            return value->get<std::string>();
        fail(key, "a text of at most " + std::to_string(kMaxTextBytes) + " bytes");
        return std::nullopt;
    }

private:
    const Json* find(const char* key) const {
        const auto it = root_.find(key);
        return it == root_.end() ? nullptr : &*it;
    }

    void fail(const char* key, const std::string& expected) {
        if (problem_.empty()) problem_ = "\"" + std::string(key) + "\" must be " + expected;
    }

    const Json& root_;
    std::string problem_;
};

Settings settingsOf(KeyReader& keys) {
    Settings s;
    s.windowSize = keys.pair("window_size", 1, kMaxWindowSide);
    s.windowPosition = keys.pair("window_position", -kMaxPosition, kMaxPosition);
    s.panelLayout = keys.text("panel_layout").value_or("");
    s.shadows = keys.boolean("shadows");
    s.msaaSamples = keys.whole("msaa", 0, kMaxMsaaSamples);
    s.spin = keys.boolean("camera_spin");
    s.spinSpeedDegPerSecond = keys.number("camera_spin_speed", -kMaxSpinSpeed, kMaxSpinSpeed);
    s.scenario = keys.text("scenario");
    if (s.scenario && s.scenario->empty()) s.scenario.reset();
    s.labQuery = keys.text("lab_query");
    if (s.labQuery && s.labQuery->empty()) s.labQuery.reset();
    s.labOpen = keys.boolean("lab_open").value_or(false);
    s.firstRunCardDismissed = keys.boolean("first_run_card_dismissed").value_or(false);
    return s;
}

std::string quoted(const std::filesystem::path& file) {
    return "'" + file.string() + "'";
}

} // namespace

std::optional<std::filesystem::path> settingsFile(const char* xdgConfigHome, const char* home) {
    const std::filesystem::path relative = std::filesystem::path("kolize") / "settings.json";
    if (xdgConfigHome && *xdgConfigHome != '\0') {
        const std::filesystem::path base(xdgConfigHome);
        if (base.is_absolute()) return base / relative;
    }
    if (home && *home != '\0') return std::filesystem::path(home) / ".config" / relative;
    return std::nullopt;
}

std::optional<std::filesystem::path> settingsFileFromEnvironment() {
    return settingsFile(std::getenv("XDG_CONFIG_HOME"), std::getenv("HOME"));
}

SettingsRead readSettings(const std::filesystem::path& file) {
    const std::string defaults = "; using the defaults";
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(file, ec);
    if (status.type() == std::filesystem::file_type::not_found) return {};
    if (ec) return {{}, "settings " + quoted(file) + ": " + ec.message() + defaults};
    if (status.type() != std::filesystem::file_type::regular)
        return {{}, "settings " + quoted(file) + ": not a regular file" + defaults};
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec || size > kMaxFileBytes)
        return {{},
                "settings " + quoted(file) + ": larger than " + std::to_string(kMaxFileBytes) + " bytes" +
                    defaults};

    std::ifstream in(file, std::ios::binary);
    if (!in) return {{}, "settings " + quoted(file) + ": cannot read it: " + std::strerror(errno) + defaults};
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return {{}, "settings " + quoted(file) + ": cannot read it" + defaults};

    Json root;
    try {
        root = Json::parse(text);
    } catch (const Json::parse_error& e) {
        const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
        return {{},
                "settings " + quoted(file) + ":" + lineAndColumn(text, at) + ": not valid JSON" + defaults};
    } catch (const Json::exception&) {
        // A number beyond a double's range (1e400) is an out_of_range, not a parse_error.
        return {{}, "settings " + quoted(file) + ": not valid JSON (a number out of range)" + defaults};
    }
    if (!root.is_object()) return {{}, "settings " + quoted(file) + ": not a JSON object" + defaults};
    KeyReader keys(root);
    SettingsRead read{settingsOf(keys), {}};
    if (!keys.problem().empty())
        read.warning = "settings " + quoted(file) + ": " + keys.problem() + "; that key takes its default";
    return read;
}

bool writeSettings(const std::filesystem::path& file, const Settings& settings, std::string& error) {
    Json root = Json::object();
    if (settings.windowSize) root["window_size"] = {settings.windowSize->x, settings.windowSize->y};
    if (settings.windowPosition)
        root["window_position"] = {settings.windowPosition->x, settings.windowPosition->y};
    if (!settings.panelLayout.empty()) root["panel_layout"] = settings.panelLayout;
    if (settings.shadows) root["shadows"] = *settings.shadows;
    if (settings.msaaSamples) root["msaa"] = *settings.msaaSamples;
    if (settings.spin) root["camera_spin"] = *settings.spin;
    if (settings.spinSpeedDegPerSecond)
        root["camera_spin_speed"] = shortestDouble(*settings.spinSpeedDegPerSecond);
    if (settings.scenario) root["scenario"] = *settings.scenario;
    if (settings.labQuery) root["lab_query"] = *settings.labQuery;
    root["lab_open"] = settings.labOpen;
    root["first_run_card_dismissed"] = settings.firstRunCardDismissed;

    std::error_code ec;
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
        error = "cannot write settings " + quoted(file) + ": " + ec.message();
        return false;
    }
    std::filesystem::path temporary = file;
    temporary += ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (out) out << root.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
        out.flush();
        if (!out) {
            error = "cannot write settings " + quoted(temporary) + ": " + std::strerror(errno);
            std::filesystem::remove(temporary, ec);
            return false;
        }
    }
    std::filesystem::rename(temporary, file, ec);
    if (ec) {
        error = "cannot write settings " + quoted(file) + ": " + ec.message();
        std::filesystem::remove(temporary, ec);
        return false;
    }
    return true;
}

} // namespace kz
