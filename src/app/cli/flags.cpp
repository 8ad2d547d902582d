#include "app/cli/flags.hpp"

#include "app/cli/errors.hpp"
#include "app/explain/explain.hpp"
#include "app/lab/scene.hpp"
#include "physics/job_system.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <limits>
#include <system_error>
#include <utility>

namespace kz::cli {
namespace {

constexpr std::uint64_t kMaxSteps = 10'000'000; // 23 hours at 120 Hz; bounds the step-time buffer
constexpr std::uint64_t kMaxFrames = 1'000'000'000;
constexpr int kMaxWindowSide = 16384;
constexpr int kMaxMsaaSamples = 16;
constexpr std::uint64_t kMaxHistoryMb = 65536; ///< --history-mb: 64 GiB at most.
constexpr float kMinUiScale = 0.5f;
constexpr float kMaxUiScale = 4.0f;
constexpr const char* kDefaultLabQuery = "box-box"; ///< --lab without a query.
constexpr const char* kSeeHelp = " (see kolize --help)";

// ------------------------------------------------------------------ values

/// A plain decimal whole number in [min, max]: no sign, no space, no base prefix.
std::optional<std::uint64_t> parseWholeNumber(const std::string& text, std::uint64_t min, std::uint64_t max) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || value < min || value > max) return std::nullopt;
    return value;
}

std::string wholeNumberError(const std::string& text, std::uint64_t min, std::uint64_t max) {
    return "expected a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ", got '" +
           text + "'";
}

/// Checks a whole number in [min, max] and rewrites it without leading zeros, so that CLI11 2.1's
/// own conversion (strtoull in base 0) reads the number meant: unchecked, it would take "-3" as
/// 2^64 - 3, "010" as octal 8 and "0x10" as 16. With `emptyIsUnset`, an empty text is let through,
/// which CLI11 converts to an empty std::optional.
CLI::Validator wholeNumber(std::uint64_t min, std::uint64_t max, bool emptyIsUnset = false) {
    return {[min, max, emptyIsUnset](std::string& text) {
                if (emptyIsUnset && text.empty()) return std::string();
                const std::optional<std::uint64_t> value = parseWholeNumber(text, min, max);
                if (!value) return wholeNumberError(text, min, max);
                text = std::to_string(*value);
                return std::string();
            },
            ""};
}

std::string shortest(float value) {
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    return std::string(text, end);
}

/// Checks a plain decimal number (such as 1.5: no exponent, no nan) in [min, max] and rewrites it
/// as the exact hexadecimal float it rounds to, which CLI11's strtold reads back bit for bit.
CLI::Validator decimalNumber(float min, float max) {
    return {[min, max](std::string& text) {
                float value = 0.0f;
                const char* end = text.data() + text.size();
                const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
                if (text.empty() || ec != std::errc() || ptr != end || !(value >= min && value <= max))
                    return "expected a number from " + shortest(min) + " to " + shortest(max) + ", got '" +
                           text + "'";
                char hex[32];
                const auto written = std::to_chars(hex, hex + sizeof hex, value, std::chars_format::hex);
                text = "0x" + std::string(hex, written.ptr);
                return std::string();
            },
            ""};
}

/// "WxH" (or "WXH") with each side a whole number from 1 to kMaxWindowSide.
std::optional<glm::ivec2> parseSize(const std::string& text) {
    const std::size_t x = text.find_first_of("xX");
    if (x == std::string::npos) return std::nullopt;
    const auto width = parseWholeNumber(text.substr(0, x), 1, kMaxWindowSide);
    const auto height = parseWholeNumber(text.substr(x + 1), 1, kMaxWindowSide);
    if (!width || !height) return std::nullopt;
    return glm::ivec2(static_cast<int>(*width), static_cast<int>(*height));
}

std::string sizeText(glm::ivec2 size) {
    return std::to_string(size.x) + "x" + std::to_string(size.y);
}

/// --size as CLI11 converts it, after windowSize() has checked the text.
struct WindowSize {
    glm::ivec2 points{0};
    WindowSize() = default;
    explicit WindowSize(const std::string& text) : points(parseSize(text).value_or(glm::ivec2(0))) {}
    operator glm::ivec2() const { return points; }
};

CLI::Validator windowSize() {
    return {[](std::string& text) {
                if (parseSize(text)) return std::string();
                return "expected WxH with each side a whole number from 1 to " +
                       std::to_string(kMaxWindowSide) + ", got '" + text + "'";
            },
            ""};
}

/// "auto" (rewritten as "", which CLI11 converts to an empty std::optional) or a whole number of
/// samples from 0 to kMaxMsaaSamples.
CLI::Validator msaaSamples() {
    return {[](std::string& text) {
                if (text == "auto") {
                    text.clear();
                    return std::string();
                }
                const std::optional<std::uint64_t> samples = parseWholeNumber(text, 0, kMaxMsaaSamples);
                if (!samples) {
                    return "expected auto or a whole number from 0 to " + std::to_string(kMaxMsaaSamples) +
                           ", got '" + text + "'";
                }
                text = std::to_string(*samples);
                return std::string();
            },
            ""};
}

CLI::Validator labQuery() {
    return {[](std::string& text) {
                if (kz::parseLabQuery(text)) return std::string();
                return "unknown query '" + text + "' (one of: " + kz::labQueryNames() + ")";
            },
            ""};
}

// ------------------------------------------------------------------ help

void describeProgram(CLI::App& app) {
    app.footer("Headless runs write one JSON object: scenario, seed, steps, sim_seconds,\n"
               "ms_per_step_median, kinetic_energy_start/end, momentum_start/end,\n"
               "max_penetration, escaped, event_cap, advance_cap, capped_steps, state_hash, the\n"
               "final bodies and the obstacles (see docs/command-line.md). --replay FILE plays a\n"
               "recording made with --record (in the window, or --headless to re-run it: exit 1\n"
               "when it does not end in the recorded state). kolize explain QUERY --shapes FILE|-\n"
               "prints one query's result and steps as JSON (kolize explain --help lists the\n"
               "queries). kolize --list-scenarios lists the built-in scenarios: their names,\n"
               "titles, body counts and what to watch in each.\n"
               "Window runs with --report write: frames, seconds, fps, ms_per_frame_median,\n"
               "physics_ms_median, picking_ms_median, ui_ms_median, draw_ms_median, bodies,\n"
               "obstacles, obstacle_triangles, scenario, seed, msaa_samples, shadows, state_hash,\n"
               "threads, effective_time_scale, physics_behind_frames.\n"
               "A headless run shows its progress on stderr when that is a terminal; Ctrl-C stops\n"
               "it after the current step and still writes its report, with \"interrupted\": true.\n"
               "Exit codes: 0 done; 1 the run failed (a non-finite value, a write error, a shader\n"
               "error); 2 a bad flag or value, a scenario that cannot be loaded, no display or no\n"
               "OpenGL 3.3 core context; 130 a headless run stopped by Ctrl-C (SIGINT).");
}

} // namespace

// ------------------------------------------------------------------ the flags

CommandLine::CommandLine()
    : app_("Kolize: balls, boxes, capsules, cylinders and hulls bouncing in a room bounded by planes.\n"
           "Without --headless it opens a window: click a body or a mesh to pick it, drag a body to\n"
           "throw it; H lists the keys.",
           "kolize") {
    flags_.window.threads = kz::JobSystem::hardwareThreads();
    describeProgram(app_);
    addCommonFlags();
    addWindowFlags();
    addListFlag();
    addExplainCommand();
    addConflicts();
}

void CommandLine::addCommonFlags() {
    Flags& f = flags_;
    app_.add_flag("--headless", f.headless,
                  "Run without a window or display: step, then write a JSON report");
    app_.add_option("--scenario", f.window.scenario, "Built-in scenario name or scenario JSON file")
        ->capture_default_str()
        ->type_name("NAME|FILE");
    app_.add_option("--seed", f.window.seed,
                    "Seed of the random bodies, 0 to 2^64-1 (default: the file's seed)")
        // An empty seed (`--seed "$SEED"` with SEED unset) leaves the file's seed, as it always has.
        ->transform(wholeNumber(0, std::numeric_limits<std::uint64_t>::max(), true))
        ->type_name("S");
    app_.add_option("--replay", f.window.replay,
                    "Play a recording (--record): in the window, or --headless to re-run it and report; it"
                    " holds its own scenarios and seeds")
        ->type_name("FILE");
    app_.add_option("--threads", f.window.threads,
                    "Threads the physics steps on, 1 to " + std::to_string(kz::JobSystem::kMaxThreads) +
                        " (default: all cores); every count gives the same results, bit for bit")
        ->transform(wholeNumber(1, kz::JobSystem::kMaxThreads))
        ->capture_default_str()
        ->type_name("N");
    app_.add_option("--steps", f.run.steps,
                    "Headless: fixed steps to run, 0 to " + std::to_string(kMaxSteps) +
                        " (1200: 10 s at 120 Hz)")
        ->transform(wholeNumber(0, kMaxSteps))
        ->capture_default_str()
        ->type_name("N");
    app_.add_flag("--no-config", f.noConfig,
                  "The window neither reads nor writes its settings file (~/.config/kolize/settings.json);"
                  " headless runs never do");
    app_.add_option("--report", f.report,
                    "Where the JSON report goes, - for stdout (the window: none without it)")
        ->capture_default_str()
        ->type_name("FILE|-");
}

void CommandLine::addWindowFlags() {
    AppOptions& w = flags_.window;
    window_ = app_.add_option_group("Window", "The window's flags, each an error with --headless");
    CLI::App& only = *window_;
    only.add_option_function<std::string>(
            "--lab", [&w](const std::string& query) { w.lab = query.empty() ? kDefaultLabQuery : query; },
            "Open the query lab on QUERY: " + kz::labQueryNames())
        ->check(labQuery())
        ->expected(0, 1)
        ->default_str(kDefaultLabQuery)
        ->type_name("[QUERY]");
    only.add_option<glm::ivec2, WindowSize>("--size", w.windowSize, "Size in points")
        ->transform(windowSize())
        ->default_str(sizeText(w.windowSize))
        ->type_name("WxH");
    only.add_flag("--paused", w.paused, "Start paused");
    only.add_flag_callback(
        "--no-spin", [&w] { w.spin = false; }, "Do not spin the camera at start (R starts it)");
    only.add_option("--frames", w.frames,
                    "Quit after N frames, 1 to " + std::to_string(kMaxFrames) + " (default: when you quit)")
        ->transform(wholeNumber(1, kMaxFrames))
        ->type_name("N");
    only.add_option("--screenshot", w.screenshot, "Write the last frame as PNG (F12 writes there too)")
        ->type_name("FILE");
    only.add_option("--events", w.events, "Log user-visible events, one JSON line each, - for stdout")
        ->type_name("FILE|-");
    only.add_flag_callback(
        "--no-vsync", [&w] { w.vsync = false; }, "Do not wait for vertical sync");
    only.add_option("--record", w.record,
                    "Write the session (every input that changes the world, with its"
                    " step, and the scenarios) to FILE at quit, for --replay")
        ->type_name("FILE");
    only.add_flag_callback(
        "--no-shadows", [&w] { w.shadows = false; }, "Start with shadows off (L switches them)");
    only.add_option("--msaa", w.msaaSamples,
                    "Multisampling, samples per pixel, 0 (off) to " + std::to_string(kMaxMsaaSamples) +
                        ", fewer when the GL offers fewer; auto: 4, or 0 on a software"
                        " rasteriser such as llvmpipe")
        ->transform(msaaSamples())
        ->default_str("auto")
        ->type_name("N|auto");
    only.add_option("--ui-scale", w.uiScale,
                    "The panel's size and text, " + shortest(kMinUiScale) + " to " + shortest(kMaxUiScale) +
                        " (for a high-DPI X11 screen, whose windows SDL does not scale)")
        ->transform(decimalNumber(kMinUiScale, kMaxUiScale))
        ->capture_default_str()
        ->type_name("S");
    only.add_option("--history-mb", w.historyMb,
                    "The timeline keeps the last steps in at most MB mebibytes (1 to " +
                        std::to_string(kMaxHistoryMb) + ")")
        ->transform(wholeNumber(1, kMaxHistoryMb))
        ->capture_default_str()
        ->type_name("MB");
}

void CommandLine::addListFlag() {
    list_ = app_.add_option_group("Scenarios", "The built-in scenarios, listed; it takes no other flag");
    list_->add_flag("--list-scenarios", flags_.listScenarios,
                    "Print every built-in scenario: its name (for --scenario), title, body count and what"
                    " to watch in it; no display needed");
}

void CommandLine::addExplainCommand() {
    std::string names;
    for (const std::string& name : kz::explainQueryNames())
        names += (names.empty() ? "" : ", ") + name;
    explain_ = app_.add_subcommand(
        "explain", "Run one geometry query on the shapes of a JSON file; print its result and steps as JSON");
    explain_->add_option("query", flags_.explainQuery, "The query: " + names)->required()->type_name("QUERY");
    explain_
        ->add_option("--shapes", flags_.explainShapes,
                     "The shapes file (JSON, see docs/command-line.md), - for stdin")
        ->required()
        ->type_name("FILE|-");
    explain_->footer("Prints one JSON object: query, result, and the query's steps. Exit codes: 0 done;\n"
                     "1 a write error; 2 an unknown query or a bad shapes file (one line on stderr).");
}

// ------------------------------------------------------------------ conflicts

void CommandLine::exclude(CLI::Option* flag, CLI::Option* other, const std::string& why) {
    flag->excludes(other);
    conflicts_.push_back(
        {[flag, other] { return flag->count() > 0 && other->count() > 0; }, flag->get_name() + ": " + why});
}

/// Declares to CLI11 which flags cannot go together, in the order kolize names them when several
/// conflicts come at once: explain takes no other flag, nor does --list-scenarios; a recording
/// holds its own scenarios, seeds and length; the window's flags are not for --headless; --steps
/// is only for it.
void CommandLine::addConflicts() {
    std::vector<CLI::Option*> allFlags = app_.get_options();
    const std::vector<CLI::Option*> windowFlags = window_->get_options();
    allFlags.insert(allFlags.end(), windowFlags.begin(), windowFlags.end());
    CLI::Option* list = list_->get_option("--list-scenarios");
    allFlags.push_back(list);
    std::erase_if(allFlags, [this](const CLI::Option* option) {
        return option == app_.get_help_ptr() || option == window_->get_help_ptr() ||
               option == list_->get_help_ptr();
    });
    const CLI::App* explain = explain_;
    for (CLI::Option* option : allFlags) {
        explain_->excludes(option);
        conflicts_.push_back({[explain, option] { return explain->parsed() && option->count() > 0; },
                              option->get_name() + ": not with explain (it takes only QUERY and --shapes)"});
    }
    for (CLI::Option* option : allFlags) {
        if (option == list) continue;
        list_->excludes(option);
        conflicts_.push_back({[list, option] { return list->count() > 0 && option->count() > 0; },
                              option->get_name() + ": not with --list-scenarios (it takes no other flag)"});
    }
    CLI::Option* replay = app_.get_option("--replay");
    CLI::Option* steps = app_.get_option("--steps");
    for (const char* flag : {"--scenario", "--seed"})
        exclude(app_.get_option(flag), replay,
                "not with --replay (the recording holds its scenarios and seeds)");
    exclude(steps, replay, "not with --replay (it runs to the recording's end)");
    exclude(app_.get_option("--record"), replay, "not with --replay");
    CLI::Option* headless = app_.get_option("--headless");
    window_->excludes(headless);
    for (CLI::Option* option : windowFlags) {
        conflicts_.push_back({[option, headless] { return option->count() > 0 && headless->count() > 0; },
                              option->get_name() + ": only for the window; drop --headless to use it"});
    }
    steps->needs(headless);
    conflicts_.push_back({[steps, headless] { return steps->count() > 0 && headless->count() == 0; },
                          "--steps: only with --headless (the window runs until quit, or use --frames N)"});
}

// ------------------------------------------------------------------ parsing

std::optional<int> CommandLine::parse(int argc, char** argv) {
    try {
        app_.parse(argc, argv);
        return std::nullopt;
    } catch (const CLI::CallForHelp&) {
        std::cout << app_.help();
        return kExitOk;
    } catch (const CLI::ValidationError& e) {
        return reportLateError(e, true);
    } catch (const CLI::ExcludesError& e) {
        return reportLateError(e, false);
    } catch (const CLI::RequiresError& e) {
        return reportLateError(e, false);
    } catch (const CLI::ParseError& e) {
        printError("kolize", std::string(e.what()) + kSeeHelp);
        return kExitUsage;
    }
}

/// A bad value or a conflict, which CLI11 2.1 finds before --help, a missing argument of explain
/// and unexpected arguments (values even before conflicts): kolize answers in the order it always
/// has instead, from when it checked the values and the conflicts itself after CLI11's own checks:
/// --help, a missing argument, an unexpected one, two flags that cannot go together, a bad value.
int CommandLine::reportLateError(const CLI::ParseError& error, bool valueError) const {
    const std::array<const CLI::App*, 2> commands = {&app_, explain_};
    for (const CLI::App* command : commands) {
        if (command->get_help_ptr() != nullptr && command->get_help_ptr()->count() > 0) {
            std::cout << app_.help();
            return kExitOk;
        }
    }
    if (explain_->parsed()) {
        for (const CLI::Option* option : explain_->get_options()) {
            if (option->get_required() && option->count() == 0) {
                printError("kolize", std::string(CLI::RequiredError(option->get_name()).what()) + kSeeHelp);
                return kExitUsage;
            }
        }
    }
    for (const CLI::App* command : commands) {
        if (command->remaining_size() > 0) {
            printError("kolize",
                       std::string(CLI::ExtrasError(command->get_name(), command->remaining()).what()) +
                           kSeeHelp);
            return kExitUsage;
        }
    }
    for (const Conflict& conflict : conflicts_) {
        if (conflict.holds()) {
            printError("kolize", conflict.message);
            return kExitUsage;
        }
    }
    printError("kolize", std::string(error.what()) + (valueError ? "" : kSeeHelp));
    return kExitUsage;
}

} // namespace kz::cli
