// kolize: the Kolize demo. By default it opens the interactive window (app.hpp); --headless steps
// a scenario without a window or display and writes a JSON report (headless.hpp); `kolize explain`
// runs one geometry query on a shapes file and prints its result and steps (explain.hpp).
#include "app/cli/errors.hpp"
#include "app/cli/headless.hpp"
#include "app/cli/json_text.hpp"
#include "app/explain/explain.hpp"
#include "app/lab/scene.hpp"
#include "app/window/app.hpp"
#include "geom/simd_path.hpp"
#include "physics/job_system.hpp"
#include "scenario/scenario.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using kz::cli::kExitFailure;
using kz::cli::kExitOk;
using kz::cli::kExitUsage;

constexpr std::uint64_t kMaxSteps = 10'000'000; // 23 hours at 120 Hz; bounds the step-time buffer
constexpr std::uint64_t kMaxFrames = 1'000'000'000;
constexpr int kMaxWindowSide = 16384;
constexpr std::uint64_t kMaxMsaaSamples = 16;
constexpr std::uint64_t kMaxHistoryMb = 65536; ///< --history-mb: 64 GiB at most.
constexpr float kMinUiScale = 0.5f;
constexpr float kMaxUiScale = 4.0f;

void printError(std::string message) {
    kz::cli::printError("kolize", std::move(message));
}

/// A plain decimal whole number in [min, max]. CLI11 2.1's own integer parsing would take "-3"
/// as 2^64 - 3 and "010" as octal, so counts and seeds are read here instead.
std::optional<std::uint64_t> parseWholeNumber(const std::string& text, std::uint64_t min, std::uint64_t max) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || value < min || value > max) return std::nullopt;
    return value;
}

std::string wholeNumberError(const std::string& flag, const std::string& text, std::uint64_t min,
                             std::uint64_t max) {
    return flag + ": expected a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
           ", got '" + text + "'";
}

struct Flags {
    bool headless = false;
    std::string scenario = "two-balls";
    std::string seed; // empty: the scenario file's own seed
    std::string steps = "1200";
    std::string report = "-";
    // The interactive window only.
    std::string size = "1280x720";
    bool paused = false;
    bool noSpin = false;
    std::string frames; // empty: until the user quits
    std::string screenshot;
    std::string events;
    bool noVsync = false;
    // kolize explain.
    std::string explainQuery;
    std::string explainShapes;
    std::string lab; // the query after --lab (empty: --lab alone, box-box)
    bool noShadows = false;
    std::string msaa = "auto"; // 4, or 0 on a software rasteriser
    std::string uiScale = "1";
    std::string record;            // the window: the session's recording, written at quit
    std::string replay;            // a recording played in the window or headless
    std::string historyMb = "512"; // the timeline's memory cap, MiB
    std::string threads;           // the physics' threads
    bool threadsGiven = false;     // --threads was given (else: all cores)
};

/// The parsed options main needs to ask about after parsing: was each given?
struct FlagOptions {
    CLI::Option* steps = nullptr;
    CLI::Option* report = nullptr;
    CLI::Option* lab = nullptr;
    CLI::Option* record = nullptr;
    CLI::Option* replay = nullptr;
    CLI::Option* threads = nullptr;
    std::vector<CLI::Option*> notWithReplay; ///< What a recording decides for itself.
    std::vector<CLI::Option*> windowOnly;    ///< The window's flags; each is an error with --headless.
};

/// A plain decimal number (such as 1.5) in [min, max].
std::optional<float> parseDecimal(const std::string& text, float min, float max) {
    float value = 0.0f;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
    if (text.empty() || ec != std::errc() || ptr != end || !(value >= min && value <= max))
        return std::nullopt;
    return value;
}

/// "WxH" with each side a whole number from 1 to kMaxWindowSide.
std::optional<glm::ivec2> parseSize(const std::string& text) {
    const std::size_t x = text.find_first_of("xX");
    if (x == std::string::npos) return std::nullopt;
    const auto width = parseWholeNumber(text.substr(0, x), 1, kMaxWindowSide);
    const auto height = parseWholeNumber(text.substr(x + 1), 1, kMaxWindowSide);
    if (!width || !height) return std::nullopt;
    return glm::ivec2(static_cast<int>(*width), static_cast<int>(*height));
}

/// --seed into `seed` (left empty when the flag is not given). False, the error printed, when it is
/// not a whole number in [0, 2^64).
bool readSeedFlag(const std::string& text, std::optional<std::uint64_t>& seed) {
    if (text.empty()) return true;
    seed = parseWholeNumber(text, 0, std::numeric_limits<std::uint64_t>::max());
    if (!seed) printError(wholeNumberError("--seed", text, 0, std::numeric_limits<std::uint64_t>::max()));
    return seed.has_value();
}

/// --threads (all cores when it is not given). Empty, the error printed, when it is not a whole
/// number from 1 to JobSystem::kMaxThreads.
std::optional<int> readThreadsFlag(const Flags& flags) {
    if (!flags.threadsGiven) return kz::JobSystem::hardwareThreads();
    const std::string& text = flags.threads;
    const std::optional<std::uint64_t> threads = parseWholeNumber(text, 1, kz::JobSystem::kMaxThreads);
    if (!threads) printError(wholeNumberError("--threads", text, 1, kz::JobSystem::kMaxThreads));
    if (!threads) return std::nullopt;
    return static_cast<int>(*threads);
}

/// The physics' threads for a headless run: none for one (the sequential step).
std::shared_ptr<kz::JobSystem> jobsFor(int threads) {
    return threads > 1 ? std::make_shared<kz::JobSystem>(threads) : nullptr;
}

// ------------------------------------------------------------------ the window

/// --lab's query (box-box when none is named); empty, the error printed, for an unknown one.
std::optional<std::string> labQuery(const std::string& text) {
    const std::string name = text.empty() ? "box-box" : text;
    if (kz::parseLabQuery(name)) return name;
    printError("--lab: unknown query '" + text + "' (one of: " + kz::labQueryNames() + ")");
    return std::nullopt;
}

/// The window's options from the flags; empty, the error printed, for a bad value.
std::optional<kz::AppOptions> appOptions(const Flags& flags, bool reportGiven, bool labGiven) {
    kz::AppOptions options;
    if (labGiven) {
        const std::optional<std::string> query = labQuery(flags.lab);
        if (!query) return std::nullopt;
        options.lab = *query;
    }
    options.scenario = flags.scenario;
    if (!readSeedFlag(flags.seed, options.seed)) return std::nullopt;
    const std::optional<int> threads = readThreadsFlag(flags);
    if (!threads) return std::nullopt;
    options.threads = *threads;
    const std::optional<glm::ivec2> size = parseSize(flags.size);
    if (!size) {
        printError("--size: expected WxH with each side a whole number from 1 to " +
                   std::to_string(kMaxWindowSide) + ", got '" + flags.size + "'");
        return std::nullopt;
    }
    options.windowSize = *size;
    if (!flags.frames.empty()) {
        options.frames = parseWholeNumber(flags.frames, 1, kMaxFrames);
        if (!options.frames) {
            printError(wholeNumberError("--frames", flags.frames, 1, kMaxFrames));
            return std::nullopt;
        }
    }
    if (flags.msaa != "auto") {
        const std::optional<std::uint64_t> msaa = parseWholeNumber(flags.msaa, 0, kMaxMsaaSamples);
        if (!msaa) {
            printError("--msaa: expected auto or a whole number from 0 to " +
                       std::to_string(kMaxMsaaSamples) + ", got '" + flags.msaa + "'");
            return std::nullopt;
        }
        options.msaaSamples = static_cast<int>(*msaa);
    }
    const std::optional<float> uiScale = parseDecimal(flags.uiScale, kMinUiScale, kMaxUiScale);
    if (!uiScale) {
        printError("--ui-scale: expected a number from 0.5 to 4, got '" + flags.uiScale + "'");
        return std::nullopt;
    }
    options.uiScale = *uiScale;
    const std::optional<std::uint64_t> historyMb = parseWholeNumber(flags.historyMb, 1, kMaxHistoryMb);
    if (!historyMb) {
        printError(wholeNumberError("--history-mb", flags.historyMb, 1, kMaxHistoryMb));
        return std::nullopt;
    }
    options.historyMb = static_cast<std::size_t>(*historyMb);
    options.paused = flags.paused;
    options.spin = !flags.noSpin;
    options.vsync = !flags.noVsync;
    options.shadows = !flags.noShadows;
    options.screenshot = flags.screenshot;
    options.events = flags.events;
    if (reportGiven) options.report = flags.report;
    options.record = flags.record;
    options.replay = flags.replay;
    return options;
}

int runInteractiveCommand(const Flags& flags, bool reportGiven, bool labGiven) {
    const std::optional<kz::AppOptions> options = appOptions(flags, reportGiven, labGiven);
    if (!options) return kExitUsage;
    const kz::AppResult result = kz::runApp(*options);
    if (result.exitCode != kExitOk) printError(result.error);
    return result.exitCode;
}

// ------------------------------------------------------------------ headless

/// A headless run before it starts: the world from --scenario and --seed, and what to run.
struct HeadlessRun {
    kz::World world;
    kz::HeadlessOptions options;
};

/// The world and the run's options from the flags; empty, the error printed, for a bad value or a
/// scenario that cannot be loaded.
std::optional<HeadlessRun> prepareHeadlessRun(const Flags& flags) {
    std::optional<std::uint64_t> seed;
    if (!readSeedFlag(flags.seed, seed)) return std::nullopt;
    const std::optional<int> threads = readThreadsFlag(flags);
    if (!threads) return std::nullopt;
    const std::optional<std::uint64_t> steps = parseWholeNumber(flags.steps, 0, kMaxSteps);
    if (!steps) {
        printError(wholeNumberError("--steps", flags.steps, 0, kMaxSteps));
        return std::nullopt;
    }
    kz::ScenarioResult resolved = kz::resolveScenario(flags.scenario);
    if (!resolved.scenario) {
        printError(resolved.error);
        return std::nullopt;
    }
    kz::InstantiateResult made = kz::instantiate(*resolved.scenario, seed);
    if (!made.world) {
        printError(made.error);
        return std::nullopt;
    }
    made.world->setJobs(jobsFor(*threads));
    kz::HeadlessOptions options;
    options.scenarioName = resolved.scenario->name;
    options.seed = made.seed;
    options.steps = *steps;
    return HeadlessRun{std::move(*made.world), std::move(options)};
}

/// Writes the report to `target` ("-": stdout, else `file`, already open). A report holding a
/// non-finite number is not written (and the file is removed): JSON has no NaN or infinity
/// (nlohmann writes null), so a blown-up run is an error, not a report.
int writeHeadlessReport(const nlohmann::ordered_json& report, const std::string& target,
                        std::ofstream& file) {
    const bool toStdout = target == "-";
    if (const auto where = kz::firstNonFinite(report)) {
        printError("the simulation produced a non-finite value at " + *where + "; no report written");
        if (!toStdout) {
            file.close();
            std::error_code ignored;
            std::filesystem::remove(target, ignored);
        }
        return kExitFailure;
    }

    std::ostream& out = toStdout ? std::cout : file;
    errno = 0;
    out << kz::jsonText(report, 2) << '\n';
    out.flush();
    if (!out) {
        const std::string reason = errno != 0 ? std::string(": ") + std::strerror(errno) : std::string();
        printError(toStdout ? "cannot write the report to stdout" + reason
                            : "--report: cannot write '" + target + "'" + reason);
        return kExitFailure;
    }
    return kExitOk;
}

/// Opens --report's file (not for "-"), before the run, so that a bad path fails at once, not
/// after it. False, the error printed, when it cannot be written.
bool openReportFile(const std::string& target, std::ofstream& file) {
    if (target == "-") return true;
    file.open(target, std::ios::out | std::ios::trunc);
    if (file) return true;
    printError("--report: cannot write '" + target + "': " + std::strerror(errno));
    return false;
}

int runHeadlessCommand(const Flags& flags) {
    std::optional<HeadlessRun> run = prepareHeadlessRun(flags);
    if (!run) return kExitUsage;
    std::ofstream file;
    if (!openReportFile(flags.report, file)) return kExitUsage;
    const nlohmann::ordered_json report = kz::runHeadless(run->world, run->options);
    return writeHeadlessReport(report, flags.report, file);
}

/// --headless --replay FILE: the recording re-run without a window, its report written; a replay
/// that does not end in the recorded state is an error (exit 1) after the report.
int runHeadlessReplayCommand(const Flags& flags) {
    const std::optional<int> threads = readThreadsFlag(flags);
    if (!threads) return kExitUsage;
    kz::RecordingResult read = kz::loadRecording(flags.replay);
    if (!read.recording) {
        printError(read.error);
        return kExitUsage;
    }
    std::ofstream file;
    if (!openReportFile(flags.report, file)) return kExitUsage;
    const kz::HeadlessReplay replay = kz::runHeadlessReplay(std::move(*read.recording), jobsFor(*threads));
    if (!replay.error.empty()) {
        printError(replay.error);
        return kExitUsage;
    }
    if (const int written = writeHeadlessReport(replay.report, flags.report, file); written != kExitOk)
        return written;
    if (!replay.verdict.empty()) {
        printError(replay.verdict);
        return kExitFailure;
    }
    return kExitOk;
}

// ------------------------------------------------------------------ explain

CLI::App* addExplainCommand(CLI::App& app, Flags& flags) {
    std::string names;
    for (const std::string& name : kz::explainQueryNames())
        names += (names.empty() ? "" : ", ") + name;
    CLI::App* explain = app.add_subcommand(
        "explain", "Run one geometry query on the shapes of a JSON file; print its result and steps as JSON");
    explain->add_option("query", flags.explainQuery, "The query: " + names)->required()->type_name("QUERY");
    explain->add_option("--shapes", flags.explainShapes, "The shapes file (JSON, see README.md), - for stdin")
        ->required()
        ->type_name("FILE|-");
    explain->footer("Prints one JSON object: query, result, and the query's steps. Exit codes: 0 done;\n"
                    "1 a write error; 2 an unknown query or a bad shapes file (one line on stderr).");
    return explain;
}

/// `kolize explain`: the query's JSON on stdout, or one error line.
int runExplainCommand(const CLI::App& app, const Flags& flags) {
    for (const CLI::Option* option : app.get_options()) {
        if (option->count() > 0) {
            printError(option->get_name() + ": not with explain (it takes only QUERY and --shapes)");
            return kExitUsage;
        }
    }
    const kz::ExplainOutcome outcome = kz::explainFile(flags.explainQuery, flags.explainShapes, std::cin);
    if (outcome.exitCode != kExitOk) {
        printError(outcome.error);
        return outcome.exitCode;
    }
    std::cout << outcome.json << '\n';
    std::cout.flush();
    if (!std::cout) {
        printError("cannot write to stdout");
        return kExitFailure;
    }
    return kExitOk;
}

// ------------------------------------------------------------------ the command line

void describeProgram(CLI::App& app) {
    app.footer("Headless runs write one JSON object: scenario, seed, steps, sim_seconds,\n"
               "ms_per_step_median, kinetic_energy_start/end, momentum_start/end,\n"
               "max_penetration, escaped, state_hash, the final bodies and the obstacles (see\n"
               "README.md). --replay FILE plays a recording made with --record (in the window, or\n"
               "--headless to re-run it: exit 1 when it does not end in the recorded state).\n"
               "kolize explain QUERY --shapes FILE|- prints one query's result and steps as JSON\n"
               "(kolize explain --help lists the queries).\n"
               "Window runs with --report write: frames, seconds, fps, ms_per_frame_median,\n"
               "physics_ms_median, picking_ms_median, ui_ms_median, draw_ms_median, bodies,\n"
               "obstacles, obstacle_triangles, scenario, seed, msaa_samples, shadows, state_hash,\n"
               "threads, effective_time_scale, physics_behind_frames.\n"
               "Exit codes: 0 done; 1 the run failed (a non-finite value, a write error, a shader\n"
               "error); 2 a bad flag or value, a scenario that cannot be loaded, no display or no\n"
               "OpenGL 3.3 core context.");
}

FlagOptions addFlags(CLI::App& app, Flags& flags) {
    FlagOptions options;
    app.add_flag("--headless", flags.headless,
                 "Run without a window or display: step, then write a JSON report");
    options.notWithReplay.push_back(
        app.add_option("--scenario", flags.scenario,
                       "Built-in scenario name or scenario JSON file (default: two-balls)")
            ->type_name("NAME|FILE"));
    options.notWithReplay.push_back(
        app.add_option("--seed", flags.seed,
                       "Seed of the random bodies, 0 to 2^64-1 (default: the file's seed)")
            ->type_name("S"));
    options.replay =
        app.add_option("--replay", flags.replay,
                       "Play a recording (--record): in the window, or --headless to re-run it and"
                       " report; it holds its own scenarios and seeds")
            ->type_name("FILE");
    options.steps = app.add_option("--steps", flags.steps,
                                   "Headless: fixed steps to run, 0 to " + std::to_string(kMaxSteps) +
                                       " (default: 1200, 10 s at 120 Hz)")
                        ->type_name("N");
    options.report =
        app.add_option("--report", flags.report,
                       "Where the JSON report goes, - for stdout (headless default: -; window: none)")
            ->type_name("FILE|-");
    options.threads =
        app.add_option("--threads", flags.threads,
                       "Threads the physics steps on, 1 to " + std::to_string(kz::JobSystem::kMaxThreads) +
                           " (default: all cores, " + std::to_string(kz::JobSystem::hardwareThreads()) +
                           " here); every count gives the same results, bit for bit")
            ->type_name("N");

    std::vector<CLI::Option*>& windowOnly = options.windowOnly;
    windowOnly.push_back(
        app.add_option("--size", flags.size, "Window: size in points (default: 1280x720)")->type_name("WxH"));
    windowOnly.push_back(app.add_flag("--paused", flags.paused, "Window: start paused"));
    windowOnly.push_back(
        app.add_flag("--no-spin", flags.noSpin, "Window: do not spin the camera at start (R starts it)"));
    windowOnly.push_back(app.add_option("--frames", flags.frames,
                                        "Window: quit after N frames, 1 to " + std::to_string(kMaxFrames))
                             ->type_name("N"));
    windowOnly.push_back(app.add_option("--screenshot", flags.screenshot,
                                        "Window: write the last frame as PNG (F12 writes there too)")
                             ->type_name("FILE"));
    windowOnly.push_back(app.add_option("--events", flags.events,
                                        "Window: log user-visible events, one JSON line each, - for stdout")
                             ->type_name("FILE|-"));
    windowOnly.push_back(app.add_flag("--no-vsync", flags.noVsync, "Window: do not wait for vertical sync"));
    options.record = app.add_option("--record", flags.record,
                                    "Window: write the session (every input that changes the world, with its"
                                    " step, and the scenarios) to FILE at quit, for --replay")
                         ->type_name("FILE");
    windowOnly.push_back(options.record);
    options.lab =
        app.add_option("--lab", flags.lab,
                       "Window: open the query lab on QUERY (default box-box): " + kz::labQueryNames())
            ->expected(0, 1)
            ->type_name("[QUERY]");
    windowOnly.push_back(options.lab);
    windowOnly.push_back(
        app.add_flag("--no-shadows", flags.noShadows, "Window: start with shadows off (L switches them)"));
    windowOnly.push_back(
        app.add_option("--msaa", flags.msaa,
                       "Window: multisampling, samples per pixel, 0 (off) to " +
                           std::to_string(kMaxMsaaSamples) +
                           ", fewer when the GL offers fewer; auto (the default): 4, or 0 on a"
                           " software rasteriser such as llvmpipe")
            ->type_name("N|auto"));
    windowOnly.push_back(
        app.add_option("--history-mb", flags.historyMb,
                       "Window: the timeline keeps the last steps in at most MB mebibytes (1 to " +
                           std::to_string(kMaxHistoryMb) + ", default 512)")
            ->type_name("MB"));
    windowOnly.push_back(
        app.add_option("--ui-scale", flags.uiScale,
                       "Window: the panel's size and text, 0.5 to 4 (default: 1; for a high-DPI"
                       " X11 screen, whose windows SDL does not scale)")
            ->type_name("S"));
    return options;
}

/// Parses the command line; an exit code when main is done (help printed, or a bad flag).
std::optional<int> parseCommandLine(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return kExitOk;
    } catch (const CLI::CallForAllHelp&) {
        std::cout << app.help("", CLI::AppFormatMode::All);
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        printError(std::string(e.what()) + " (see kolize --help)");
        return kExitUsage;
    }
    return std::nullopt;
}

/// Runs the headless or the window command, after refusing flags that belong to the other one.
int runCommand(const Flags& flags, const FlagOptions& options) {
    if (options.replay->count() > 0) {
        for (const CLI::Option* option : options.notWithReplay) {
            if (option->count() > 0) {
                printError(option->get_name() +
                           ": not with --replay (the recording holds its scenarios and seeds)");
                return kExitUsage;
            }
        }
        if (options.steps->count() > 0) {
            printError("--steps: not with --replay (it runs to the recording's end)");
            return kExitUsage;
        }
        if (options.record->count() > 0) {
            printError("--record: not with --replay");
            return kExitUsage;
        }
    }
    if (flags.headless) {
        for (const CLI::Option* option : options.windowOnly) {
            if (option->count() > 0) {
                printError(option->get_name() + ": only for the window; drop --headless to use it");
                return kExitUsage;
            }
        }
        return options.replay->count() > 0 ? runHeadlessReplayCommand(flags) : runHeadlessCommand(flags);
    }
    if (options.steps->count() > 0) {
        printError("--steps: only with --headless (the window runs until quit, or use --frames N)");
        return kExitUsage;
    }
    return runInteractiveCommand(flags, options.report->count() > 0, options.lab->count() > 0);
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "Kolize: spheres and boxes bouncing in a room bounded by planes. Without --headless it\n"
        "opens a window: click a body or a mesh to pick it, drag a body to throw it; H lists the keys.",
        "kolize"};
    describeProgram(app);
    Flags flags;
    const FlagOptions options = addFlags(app, flags);
    const CLI::App* explain = addExplainCommand(app, flags);
    if (const std::optional<int> done = parseCommandLine(app, argc, argv)) return *done;
    // A forced SIMD path this CPU cannot run is refused, not silently replaced.
    if (const std::string simd = kz::simdPathEnvironmentError(); !simd.empty()) {
        printError(simd);
        return kExitUsage;
    }
    flags.threadsGiven = options.threads->count() > 0;
    try {
        if (explain->parsed()) return runExplainCommand(app, flags);
        return runCommand(flags, options);
    } catch (const std::exception& e) {
        printError(e.what());
        return kExitFailure;
    }
}
