// Golden headless reports: the kolize binary's report (`--headless --steps 2000 --report -`) of
// every built-in scenario must be exactly the text it was when these hashes were recorded, byte for
// byte, except the one line that measures time (ms_per_step_median). This guards the whole path a
// script sees: the command line, the scenario files, the physics and the report's formatting.
// A change meant to alter a report updates the table and says why in its commit.
#include "scenario/scenario.hpp"
#include "support/golden.hpp"

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
std::string fnv1a(const std::string& text) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const unsigned char byte : text) {
        hash ^= byte;
        hash *= 0x100000001b3ull;
    }
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
const std::map<std::string, std::string> kGolden = {
    {"boxes", "d34d4b9522a78e75"},        {"deterministic", "0745942dd0a0b358"},
    {"gravity-pile", "1435f717f13a2d1e"}, {"high-speed", "67797d47d6d62bc1"},
    {"lamp-arch", "4a4cc0579462b344"},    {"mesh-playground", "f73388c113b5567d"},
    {"mixed-100", "148ecb442631fe22"},    {"random", "13addba2838bb4f0"},
    {"slanted-room", "77417b97482df377"}, {"two-balls", "b1e0d975ff36f3f7"},
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
        kz::test::expectGolden(kGolden, name, fnv1a(withoutTiming(text.str())));
    }
    std::error_code ignored;
    fs::remove_all(dir, ignored);
}

} // namespace
