// Golden headless reports: the kolize binary's report (`--headless --steps 2000 --report -`) of
// every built-in scenario must be exactly the text it was when these hashes were recorded, byte for
// byte, except the one line that measures time (ms_per_step_median). This guards the whole path a
// script sees: the command line, the scenario files, the physics and the report's formatting.
// A change meant to alter a report updates the table and says why in its commit. The report's
// state_hash must also be the golden state hash (tests/support/golden_states.hpp): the state the
// report describes is the one the physics' golden test steps to in-process.
#include "scenario/scenario.hpp"
#include "support/golden.hpp"
#include "support/golden_states.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#ifndef KOLIZE_EXE
#error "KOLIZE_EXE (the path of the built kolize binary) must be defined"
#endif

namespace {

namespace fs = std::filesystem;

/// FNV-1a over the bytes of `text`, as 16 hex digits.
std::string textHash(const std::string& text) {
    std::uint64_t hash = kz::test::kFnvOffset;
    kz::test::fnv1a(hash, text.data(), text.size());
    return kz::test::hex16(hash);
}

/// The report's text without its timing line, the only line that changes from run to run.
std::string withoutTiming(const std::string& report) {
    std::istringstream lines(report);
    std::string kept;
    std::string line;
    int dropped = 0;
    while (std::getline(lines, line)) {
        if (line.find("\"ms_per_step_median\":") != std::string::npos) {
            ++dropped;
            continue;
        }
        kept += line;
        kept += '\n';
    }
    EXPECT_EQ(dropped, 1) << "the report should hold exactly one ms_per_step_median line";
    return kept;
}

/// The report hash (timing line removed) after 2,000 headless steps of each built-in scenario.
/// Recorded again when the report gained its state_hash line (without that line each report
/// hashes to its previous value, and each state_hash is the golden state hash), and when it gained
/// event_cap and capped_steps, and advance_cap (the state hashes unchanged); and for boxes,
/// gravity-pile, high-speed and mesh-playground when free flight stopped turning bodies by more
/// than a tenth of their own turn to chase rounding-sized energy errors (their state hashes moved).
const std::map<std::string, std::string> kGolden = {
    {"boxes", "12d4a52e51b1d358"},         {"deterministic", "271e68ffe3d47317"},
    {"gravity-pile", "d673e0668d15f78f"},  {"high-speed", "38c81c60a39a4f7d"},
    {"lamp-arch", "c22639c2bf6d5404"},     {"mesh-playground", "3a364075f43b7b08"},
    {"mixed-100", "a99785c1f94ee363"},     {"random", "68d382dcfb47db25"},
    {"slanted-room", "860cea9161225fc6"},  {"two-balls", "002a3a23a141f3b2"},
    {"mixed-pile", "b3c713b9dea02f42"},    {"rolling-race", "30c638e0ffd543cc"},
    {"tumbling-hull", "616d2e759fa7dbe4"},
};

TEST(GoldenReports, EveryBuiltInScenarioReportsExactlyItsRecordedTextAfterTwoThousandSteps) {
    const fs::path dir = fs::temp_directory_path() / ("kz_golden_reports_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::vector<std::string> names = kz::builtinScenarioNames();
    ASSERT_FALSE(names.empty());
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        const fs::path out = dir / (name + ".json");
        const std::string command = "env -u DISPLAY -u WAYLAND_DISPLAY '" + std::string(KOLIZE_EXE) +
                                    "' --headless --scenario " + name + " --steps 2000 --report - >'" +
                                    out.string() + "'";
        const int status = std::system(command.c_str());
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
        std::ifstream file(out, std::ios::binary);
        std::ostringstream text;
        text << file.rdbuf();
        ASSERT_FALSE(text.str().empty());
        kz::test::expectGolden(kGolden, name, textHash(withoutTiming(text.str())));
        const std::string marker = "\"state_hash\": \"";
        const std::size_t at = text.str().find(marker);
        ASSERT_NE(at, std::string::npos) << "no state_hash in the report";
        kz::test::expectGolden(kz::test::kGoldenStates, name, text.str().substr(at + marker.size(), 16));
    }
    std::error_code ignored;
    fs::remove_all(dir, ignored);
}

} // namespace
