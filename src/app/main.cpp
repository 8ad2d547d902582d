// kolize: the Kolize demo. For now it runs headless only (--headless): it steps a scenario and
// writes a JSON report. The interactive window comes in a later milestone, in this same binary.
#include "app/headless.hpp"
#include "scenario/scenario.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1; // the run itself failed (non-finite numbers, a write error)
constexpr int kExitUsage = 2;   // bad flags or values, or a scenario that cannot be loaded

constexpr std::uint64_t kMaxSteps = 10'000'000; // 23 hours at 120 Hz; bounds the step-time buffer

/// One line on stderr, prefixed with the program's name, whatever the message holds.
void printError(std::string message) {
    for (char& c : message) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    std::cerr << "kolize: " << message << '\n';
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
};

int runHeadlessCommand(const Flags& flags) {
    std::optional<std::uint64_t> seed;
    if (!flags.seed.empty()) {
        constexpr auto maxSeed = std::numeric_limits<std::uint64_t>::max();
        seed = parseWholeNumber(flags.seed, 0, maxSeed);
        if (!seed) {
            printError(wholeNumberError("--seed", flags.seed, 0, maxSeed));
            return kExitUsage;
        }
    }
    const std::optional<std::uint64_t> steps = parseWholeNumber(flags.steps, 0, kMaxSteps);
    if (!steps) {
        printError(wholeNumberError("--steps", flags.steps, 0, kMaxSteps));
        return kExitUsage;
    }

    kz::ScenarioResult resolved = kz::resolveScenario(flags.scenario);
    if (!resolved.scenario) {
        printError(resolved.error);
        return kExitUsage;
    }
    kz::InstantiateResult made = kz::instantiate(*resolved.scenario, seed);
    if (!made.world) {
        printError(made.error);
        return kExitUsage;
    }

    // Open the report file before the run, so that a bad path fails at once, not after it.
    const bool toStdout = flags.report == "-";
    std::ofstream file;
    if (!toStdout) {
        file.open(flags.report, std::ios::out | std::ios::trunc);
        if (!file) {
            printError("--report: cannot write '" + flags.report + "': " + std::strerror(errno));
            return kExitUsage;
        }
    }

    kz::HeadlessOptions options;
    options.scenarioName = resolved.scenario->name;
    options.seed = made.seed;
    options.steps = *steps;
    const nlohmann::ordered_json report = kz::runHeadless(*made.world, options);

    // JSON has no NaN or infinity (nlohmann writes null): a blown-up run is an error, not a report.
    if (const auto where = kz::firstNonFinite(report)) {
        printError("the simulation produced a non-finite value at " + *where + "; no report written");
        if (!toStdout) {
            file.close();
            std::error_code ignored;
            std::filesystem::remove(flags.report, ignored);
        }
        return kExitFailure;
    }

    std::ostream& out = toStdout ? std::cout : file;
    errno = 0;
    out << report.dump(2) << '\n';
    out.flush();
    if (!out) {
        const std::string reason = errno != 0 ? std::string(": ") + std::strerror(errno) : std::string();
        printError(toStdout ? "cannot write the report to stdout" + reason
                            : "--report: cannot write '" + flags.report + "'" + reason);
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Kolize: spheres and boxes bouncing in a room bounded by planes.", "kolize"};
    app.footer("Headless runs write one JSON object: scenario, seed, steps, sim_seconds,\n"
               "ms_per_step_median, kinetic_energy_start/end, momentum_start/end,\n"
               "max_penetration, escaped and the final bodies (see README.md).\n"
               "Exit codes: 0 done; 1 the run failed (a non-finite value, a write error);\n"
               "2 a bad flag or value, or a scenario that cannot be loaded.");

    Flags flags;
    app.add_flag("--headless", flags.headless,
                 "Run without a window or display: step, then write a JSON report");
    app.add_option("--scenario", flags.scenario,
                   "Built-in scenario name or scenario JSON file (default: two-balls)")
        ->type_name("NAME|FILE");
    app.add_option("--seed", flags.seed, "Seed of the random bodies, 0 to 2^64-1 (default: the file's seed)")
        ->type_name("S");
    app.add_option("--steps", flags.steps,
                   "Fixed steps to run, 0 to " + std::to_string(kMaxSteps) +
                       " (default: 1200, 10 s at 120 Hz)")
        ->type_name("N");
    app.add_option("--report", flags.report, "Where the JSON report goes, - for stdout (default: -)")
        ->type_name("FILE|-");

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

    if (!flags.headless) {
        printError("the interactive window is not available yet; run with --headless");
        return kExitUsage;
    }

    try {
        return runHeadlessCommand(flags);
    } catch (const std::exception& e) {
        printError(e.what());
        return kExitFailure;
    }
}
