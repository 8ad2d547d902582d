// kolize: the Kolize demo. By default it opens the interactive window (app.hpp); --headless steps
// a scenario without a window or display and writes a JSON report (headless.hpp; on a terminal a
// progress line, and Ctrl-C stops the run and still writes it: long_run.hpp); `kolize explain`
// runs one geometry query on a shapes file and prints its result and steps (explain.hpp);
// --list-scenarios prints the built-in scenarios (scenario_list.hpp). The flags are read by CLI11
// (flags.hpp).
#include "app/cli/errors.hpp"
#include "app/cli/flags.hpp"
#include "app/cli/headless.hpp"
#include "app/cli/json_text.hpp"
#include "app/cli/long_run.hpp"
#include "app/cli/scenario_list.hpp"
#include "app/explain/explain.hpp"
#include "app/lab/scene.hpp"
#include "app/settings/settings.hpp"
#include "app/window/app.hpp"
#include "geom/simd_path.hpp"
#include "physics/job_system.hpp"
#include "scenario/scenario.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace {

using kz::cli::CommandLine;
using kz::cli::Flags;
using kz::cli::kExitFailure;
using kz::cli::kExitInterrupted;
using kz::cli::kExitOk;
using kz::cli::kExitUsage;

void printError(std::string message) {
    kz::cli::printError("kolize", std::move(message));
}

/// The physics' threads for a headless run: none for one (the sequential step).
std::shared_ptr<kz::JobSystem> jobsFor(int threads) {
    return threads > 1 ? std::make_shared<kz::JobSystem>(threads) : nullptr;
}

// ------------------------------------------------------------------ the window

/// What the settings file keeps, under the flags: a flag given wins over its setting. The last
/// scenario and the open lab come back only when no flag chooses what the window shows.
void applySettings(const kz::Settings& settings, const CommandLine& commandLine, kz::AppOptions& options) {
    const auto given = [&](const char* flag) { return commandLine.given(flag); };
    if (settings.windowSize && !given("--size")) options.windowSize = *settings.windowSize;
    options.windowPosition = settings.windowPosition;
    options.panelLayout = settings.panelLayout;
    if (settings.shadows && !given("--no-shadows")) options.shadows = *settings.shadows;
    if (settings.msaaSamples && !given("--msaa")) options.msaaSamples = *settings.msaaSamples;
    if (settings.spin && !given("--no-spin")) options.spin = *settings.spin;
    if (settings.spinSpeedDegPerSecond) options.spinSpeedDegPerSecond = *settings.spinSpeedDegPerSecond;
    const bool showChosen = given("--scenario") || given("--replay") || given("--lab");
    if (settings.scenario && !showChosen) {
        options.scenario = *settings.scenario;
        options.scenarioFromSettings = true;
    }
    if (settings.labQuery && kz::parseLabQuery(*settings.labQuery)) {
        options.lastLabQuery = *settings.labQuery;
        if (settings.labOpen && !showChosen) options.lab = *settings.labQuery;
    }
    options.showFirstRunCard = !settings.firstRunCardDismissed;
    options.settings = settings;
}

/// The window's options: the flags over the settings file, unless --no-config. A settings file
/// that cannot be used is a warning (printed here) and the defaults.
kz::AppOptions windowOptions(const CommandLine& commandLine) {
    kz::AppOptions options = commandLine.flags().window;
    if (commandLine.flags().noConfig) return options;
    options.settingsFile = kz::settingsFileFromEnvironment();
    if (!options.settingsFile) return options;
    kz::SettingsRead read = kz::readSettings(*options.settingsFile);
    if (!read.warning.empty()) printError("warning: " + read.warning);
    if (read.settings.labQuery && !kz::parseLabQuery(*read.settings.labQuery)) {
        printError("warning: settings '" + options.settingsFile->string() + "': \"lab_query\" '" +
                   *read.settings.labQuery + "' is no lab query; it is forgotten");
        read.settings.labQuery.reset();
        read.settings.labOpen = false;
    }
    applySettings(read.settings, commandLine, options);
    return options;
}

int runInteractiveCommand(const CommandLine& commandLine) {
    kz::AppOptions options = windowOptions(commandLine);
    if (commandLine.given("--report")) options.report = commandLine.flags().report;
    const kz::AppResult result = kz::runApp(options);
    if (result.exitCode != kExitOk) printError(result.error);
    return result.exitCode;
}

// ------------------------------------------------------------------ headless

/// A headless run before it starts: the world from --scenario and --seed, and what to run.
struct HeadlessRun {
    kz::World world;
    kz::HeadlessOptions options;
};

/// The world and the run's options from the flags; empty, the error printed, for a scenario that
/// cannot be loaded.
std::optional<HeadlessRun> prepareHeadlessRun(const Flags& flags) {
    kz::ScenarioResult resolved = kz::resolveScenario(flags.window.scenario);
    if (!resolved.scenario) {
        printError(resolved.error);
        return std::nullopt;
    }
    kz::InstantiateResult made = kz::instantiate(*resolved.scenario, flags.window.seed);
    if (!made.world) {
        printError(made.error);
        return std::nullopt;
    }
    made.world->setJobs(jobsFor(flags.window.threads));
    kz::HeadlessOptions options = flags.run;
    options.scenarioName = resolved.scenario->name;
    options.seed = made.seed;
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

/// The line that says a run was stopped by Ctrl-C, after its report.
void printInterrupted(std::uint64_t steps, std::uint64_t total, const std::string& what) {
    printError("interrupted (SIGINT) after " + std::to_string(steps) + " of " + std::to_string(total) +
               " steps; " + what);
}

int runHeadlessCommand(const Flags& flags) {
    std::optional<HeadlessRun> run = prepareHeadlessRun(flags);
    if (!run) return kExitUsage;
    std::ofstream file;
    if (!openReportFile(flags.report, file)) return kExitUsage;
    kz::cli::ProgressLine progress = kz::cli::ProgressLine::onStderr();
    nlohmann::ordered_json report;
    {
        // Ctrl-C stops the stepping only: loading and writing the report keep SIGINT's own action.
        const kz::cli::SigintStop sigint;
        run->options.control.stop = &sigint.requested();
        run->options.control.progress = progress.callback();
        report = kz::runHeadless(run->world, run->options);
    }
    if (const int written = writeHeadlessReport(report, flags.report, file); written != kExitOk)
        return written;
    if (!report.contains("interrupted")) return kExitOk;
    printInterrupted(report["steps"].get<std::uint64_t>(), run->options.steps,
                     "the report is the world's after them");
    return kExitInterrupted;
}

/// --headless --replay FILE: the recording re-run without a window, its report written; a replay
/// that does not end in the recorded state is an error (exit 1) after the report; one stopped by
/// Ctrl-C is not checked (exit 130).
int runHeadlessReplayCommand(const Flags& flags) {
    kz::RecordingResult read = kz::loadRecording(flags.window.replay);
    if (!read.recording) {
        printError(read.error);
        return kExitUsage;
    }
    std::ofstream file;
    if (!openReportFile(flags.report, file)) return kExitUsage;
    const std::uint64_t endTick = read.recording->endTick;
    kz::cli::ProgressLine progress = kz::cli::ProgressLine::onStderr();
    kz::HeadlessReplay replay;
    {
        const kz::cli::SigintStop sigint;
        replay = kz::runHeadlessReplay(std::move(*read.recording), jobsFor(flags.window.threads),
                                       {&sigint.requested(), progress.callback()});
    }
    if (!replay.error.empty()) {
        printError(replay.error);
        return kExitUsage;
    }
    if (const int written = writeHeadlessReport(replay.report, flags.report, file); written != kExitOk)
        return written;
    if (replay.interrupted) {
        printInterrupted(replay.report["steps"].get<std::uint64_t>(), endTick,
                         "the replay did not reach its end, so its end state was not checked");
        return kExitInterrupted;
    }
    if (!replay.verdict.empty()) {
        printError(replay.verdict);
        return kExitFailure;
    }
    return kExitOk;
}

// ------------------------------------------------------------------ explain

/// `kolize explain`: the query's JSON on stdout, or one error line.
int runExplainCommand(const Flags& flags) {
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

// ------------------------------------------------------------------ the scenario list

/// --list-scenarios: every built-in scenario on stdout, or one error line.
int runListScenariosCommand() {
    const kz::ScenarioListResult list = kz::listBuiltinScenarios();
    if (!list.error.empty()) {
        printError(list.error);
        return kExitUsage;
    }
    std::cout << kz::scenarioListText(list.scenarios);
    std::cout.flush();
    if (!std::cout) {
        printError("cannot write to stdout");
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace

int main(int argc, char** argv) {
    CommandLine commandLine;
    if (const std::optional<int> done = commandLine.parse(argc, argv)) return *done;
    // A forced SIMD path this CPU cannot run is refused, not silently replaced.
    if (const std::string simd = kz::simdPathEnvironmentError(); !simd.empty()) {
        printError(simd);
        return kExitUsage;
    }
    const Flags& flags = commandLine.flags();
    try {
        if (commandLine.explain()) return runExplainCommand(flags);
        if (flags.listScenarios) return runListScenariosCommand();
        if (!flags.headless) return runInteractiveCommand(commandLine);
        return commandLine.given("--replay") ? runHeadlessReplayCommand(flags) : runHeadlessCommand(flags);
    } catch (const std::exception& e) {
        printError(e.what());
        return kExitFailure;
    }
}
