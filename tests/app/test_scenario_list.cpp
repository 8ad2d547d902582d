// The gallery of built-in scenarios (app/cli/scenario_list.hpp, no display): the wrapping, the
// list's text, every built-in listed with its title, description and body count; then the built
// kolize binary's --list-scenarios run from the shell with no display: its output, the flags it
// does not go with, and a broken or empty scenario folder.
#include "app/cli/scenario_list.hpp"
#include "scenario/scenario.hpp"
#include "support/temp_dir.hpp"

#include <algorithm>
#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#ifndef KOLIZE_EXE
#error "KOLIZE_EXE (the path of the built kolize binary) must be defined"
#endif

namespace {

using kz::test::TempDir;

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

/// The words of a text, in order, whatever the spaces and line breaks between them.
std::vector<std::string> wordsOf(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string word; in >> word;)
        words.push_back(word);
    return words;
}

// ---------------------------------------------------------------- wrapping

TEST(WrapText, EveryLineFitsTheWidthWithItsIndentAndTheWordsStayInOrder) {
    const std::string text = "A ball, a capsule and a cylinder roll from rest down a 20 degree slope; "
                             "watch the order in which they reach the wall at its foot.";
    const std::string wrapped = kz::wrapText(text, 30, "  ");
    for (const std::string& line : linesOf(wrapped)) {
        EXPECT_LE(line.size(), 30u) << line;
        EXPECT_EQ(line.rfind("  ", 0), 0u) << line;
        EXPECT_NE(line[2], ' ') << line;
        EXPECT_NE(line.back(), ' ') << line;
    }
    EXPECT_EQ(wordsOf(wrapped), wordsOf(text));
    EXPECT_EQ(wrapped.back(), '\n');
}

TEST(WrapText, FillsEachLineAsFarAsTheNextWordAllows) {
    EXPECT_EQ(kz::wrapText("aaa bbb ccc ddd", 9, "> "), "> aaa bbb\n> ccc ddd\n");
    EXPECT_EQ(kz::wrapText("aaa bbb ccc ddd", 10, "> "), "> aaa bbb\n> ccc ddd\n");
    EXPECT_EQ(kz::wrapText("aaa bbb ccc ddd", 13, "> "), "> aaa bbb ccc\n> ddd\n");
}

TEST(WrapText, AWordLongerThanALineGetsALineOfItsOwn) {
    EXPECT_EQ(kz::wrapText("a unbreakable-word b", 8, ""), "a\nunbreakable-word\nb\n");
}

TEST(WrapText, CountsCharactersNotBytes) {
    // "20°" is three characters (four bytes): "tilt 20°" fits 8 columns.
    EXPECT_EQ(kz::wrapText("tilt 20\u00b0 now", 8, ""), "tilt 20\u00b0\nnow\n");
}

TEST(WrapText, AnEmptyOrBlankTextGivesNothing) {
    EXPECT_EQ(kz::wrapText("", 80, "  "), "");
    EXPECT_EQ(kz::wrapText("   ", 80, "  "), "");
}

// ---------------------------------------------------------------- the list

TEST(ScenarioListText, EachScenarioIsAHeadLineAndItsDescriptionIndentedWithABlankLineBetween) {
    const std::vector<kz::ScenarioListing> list = {
        {"lamp", "Lamp arch", "Watch the red ball. It never touches the lamp.", 2, 1},
        {"one", "One ball", "", 1, 0},
        {"pile", "Pile", "Bodies fall and come to rest.", 41, 3},
    };
    EXPECT_EQ(kz::scenarioListText(list, 20), "lamp: Lamp arch, 2 bodies, 1 mesh\n"
                                              "  Watch the red\n"
                                              "  ball. It never\n"
                                              "  touches the lamp.\n"
                                              "\n"
                                              "one: One ball, 1 body\n"
                                              "\n"
                                              "pile: Pile, 41 bodies, 3 meshes\n"
                                              "  Bodies fall and\n"
                                              "  come to rest.\n");
    EXPECT_EQ(kz::scenarioListText({}), "");
}

TEST(ListBuiltinScenarios, ListsEveryBuiltinWithItsTitleDescriptionAndTheBodiesItsWorldStartsWith) {
    const kz::ScenarioListResult list = kz::listBuiltinScenarios();
    ASSERT_TRUE(list.error.empty()) << list.error;
    const std::vector<std::string> names = kz::builtinScenarioNames();
    ASSERT_EQ(list.scenarios.size(), names.size());
    ASSERT_GE(names.size(), 13u);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const kz::ScenarioListing& listed = list.scenarios[i];
        SCOPED_TRACE(names[i]);
        EXPECT_EQ(listed.id, names[i]);
        const kz::ScenarioResult loaded = kz::resolveScenario(names[i]);
        ASSERT_TRUE(loaded.scenario) << loaded.error;
        const kz::Scenario& s = *loaded.scenario;
        EXPECT_EQ(listed.title, s.name);
        EXPECT_EQ(listed.description, s.description);
        EXPECT_FALSE(listed.description.empty());
        // Counted as the loader counts them, apart from instantiate: listed bodies and the random ones.
        EXPECT_EQ(listed.bodies,
                  s.bodies.size() + (s.random ? static_cast<std::size_t>(s.random->count) : 0));
        EXPECT_EQ(listed.meshes, s.obstacles.size());
    }
    const auto find = [&](const std::string& id) {
        return *std::find_if(list.scenarios.begin(), list.scenarios.end(),
                             [&](const kz::ScenarioListing& s) { return s.id == id; });
    };
    EXPECT_EQ(find("mixed-100").bodies, 100u);
    EXPECT_EQ(find("mixed-pile").bodies, 41u);
    EXPECT_EQ(find("lamp-arch").bodies, 2u);
    EXPECT_EQ(find("lamp-arch").meshes, 1u);
}

// ---------------------------------------------------------------- the kolize binary

struct CliRun {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// Runs `<environment> kolize <args>` with no display.
CliRun kolize(const TempDir& dir, const std::string& args, const std::string& environment = "") {
    const auto out = dir.path() / "stdout.txt";
    const auto err = dir.path() / "stderr.txt";
    const std::string command = "env -u DISPLAY -u WAYLAND_DISPLAY " + environment + " '" +
                                std::string(KOLIZE_EXE) + "' " + args + " >'" + out.string() + "' 2>'" +
                                err.string() + "'";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, kz::test::readBytes(out), kz::test::readBytes(err)};
}

TEST(ListScenariosCli, PrintsEveryBuiltinsNameTitleBodyCountAndDescriptionWithoutADisplay) {
    TempDir dir;
    const CliRun run = kolize(dir, "--list-scenarios");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(run.err.empty()) << run.err;
    const kz::ScenarioListResult list = kz::listBuiltinScenarios();
    ASSERT_TRUE(list.error.empty()) << list.error;
    EXPECT_EQ(run.out, kz::scenarioListText(list.scenarios));

    // Read back block by block: the head line, then the description's words.
    std::vector<std::vector<std::string>> blocks(1);
    for (const std::string& line : linesOf(run.out)) {
        if (line.empty()) {
            blocks.emplace_back();
        } else {
            EXPECT_LE(line.size(), 100u) << line;
            blocks.back().push_back(line);
        }
    }
    const std::vector<std::string> names = kz::builtinScenarioNames();
    ASSERT_EQ(blocks.size(), names.size()) << run.out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        SCOPED_TRACE(names[i]);
        const kz::ScenarioResult loaded = kz::resolveScenario(names[i]);
        ASSERT_TRUE(loaded.scenario) << loaded.error;
        const kz::Scenario& s = *loaded.scenario;
        const std::size_t bodies =
            s.bodies.size() + (s.random ? static_cast<std::size_t>(s.random->count) : 0);
        ASSERT_GE(blocks[i].size(), 2u) << run.out;
        EXPECT_EQ(blocks[i][0].rfind(names[i] + ": " + s.name + ", " + std::to_string(bodies) + " bod", 0),
                  0u)
            << blocks[i][0];
        std::string description;
        for (std::size_t k = 1; k < blocks[i].size(); ++k) {
            EXPECT_EQ(blocks[i][k].rfind("  ", 0), 0u) << blocks[i][k];
            description += blocks[i][k] + " ";
        }
        EXPECT_EQ(wordsOf(description), wordsOf(s.description));
    }
}

TEST(ListScenariosCli, TakesNoOtherFlagAndSaysSoInOneLine) {
    TempDir dir;
    const struct {
        const char* args;
        const char* line;
    } cases[] = {
        {"--list-scenarios --headless", "--headless: not with --list-scenarios (it takes no other flag)"},
        {"--scenario boxes --list-scenarios",
         "--scenario: not with --list-scenarios (it takes no other flag)"},
        {"--list-scenarios --seed 3", "--seed: not with --list-scenarios (it takes no other flag)"},
        {"--list-scenarios --size 640x480", "--size: not with --list-scenarios (it takes no other flag)"},
        {"--list-scenarios --frames 5", "--frames: not with --list-scenarios (it takes no other flag)"},
        {"--list-scenarios explain ray-box --shapes -",
         "--list-scenarios: not with explain (it takes only QUERY and --shapes)"},
        // A conflict is named before a bad value, as for every other pair.
        {"--list-scenarios --steps -3", "--steps: not with --list-scenarios (it takes no other flag)"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args);
        const CliRun run = kolize(dir, c.args);
        EXPECT_EQ(run.exitCode, 2);
        EXPECT_EQ(run.err, "kolize: " + std::string(c.line) + "\n");
        EXPECT_TRUE(run.out.empty()) << run.out;
    }
    const CliRun help = kolize(dir, "--list-scenarios --help");
    EXPECT_EQ(help.exitCode, 0) << help.err;
    EXPECT_NE(help.out.find("--list-scenarios"), std::string::npos) << help.out;
}

TEST(ListScenariosCli, ABrokenOrEmptyScenarioFolderIsOneLineAndExitCodeTwo) {
    TempDir dir;
    dir.write("assets/scenarios/fine.json", R"({"name": "Fine", "description": "A ball. It rests.",
        "size": [4, 4, 4], "bodies": [{"shape": "sphere", "radius": 0.5, "position": [0, 0, 0]}]})");
    const CliRun fine =
        kolize(dir, "--list-scenarios", "KOLIZE_ASSET_DIR='" + (dir.path() / "assets").string() + "'");
    EXPECT_EQ(fine.exitCode, 0) << fine.err;
    EXPECT_EQ(fine.out, "fine: Fine, 1 body\n  A ball. It rests.\n");

    const auto broken =
        dir.write("assets/scenarios/long.json", R"({"name": "Long", "description": )" + std::string("\"") +
                                                    std::string(1001, 'x') + R"(", "size": [4, 4, 4]})");
    const CliRun run =
        kolize(dir, "--list-scenarios", "KOLIZE_ASSET_DIR='" + (dir.path() / "assets").string() + "'");
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_EQ(run.err,
              "kolize: " + broken.string() + ": /description: must be at most 1000 characters, got 1001\n");
    EXPECT_TRUE(run.out.empty()) << run.out;

    dir.write("empty/scenarios/readme.txt", "no scenarios here");
    const CliRun empty =
        kolize(dir, "--list-scenarios", "KOLIZE_ASSET_DIR='" + (dir.path() / "empty").string() + "'");
    EXPECT_EQ(empty.exitCode, 2);
    EXPECT_EQ(empty.err,
              "kolize: no built-in scenarios in " + (dir.path() / "empty" / "scenarios").string() + "\n");
    EXPECT_TRUE(empty.out.empty()) << empty.out;
}

} // namespace
