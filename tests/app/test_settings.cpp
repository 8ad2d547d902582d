// The settings file (app/settings/settings.hpp): where it is, a round trip, and every way it can
// be wrong: each gives the defaults (or that key's default) and one warning line naming the file.
#include "app/settings/settings.hpp"
#include "support/temp_dir.hpp"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace {

namespace fs = std::filesystem;
using kz::Settings;
using kz::test::TempDir;

Settings everySetting() {
    Settings s;
    s.windowSize = glm::ivec2(900, 500);
    s.windowPosition = glm::ivec2(-20, 35);
    s.panelLayout = "[Window][Kolize]\nPos=8,8\nSize=360,704\nCollapsed=0\n\n";
    s.shadows = false;
    s.msaaSamples = 0;
    s.spin = false;
    s.spinSpeedDegPerSecond = -12.5f;
    s.scenario = "/home/someone/scenes/my scene.json";
    s.labQuery = "gjk";
    s.labOpen = true;
    s.firstRunCardDismissed = true;
    return s;
}

void expectSame(const Settings& a, const Settings& b) {
    EXPECT_EQ(a.windowSize, b.windowSize);
    EXPECT_EQ(a.windowPosition, b.windowPosition);
    EXPECT_EQ(a.panelLayout, b.panelLayout);
    EXPECT_EQ(a.shadows, b.shadows);
    EXPECT_EQ(a.msaaSamples, b.msaaSamples);
    EXPECT_EQ(a.spin, b.spin);
    EXPECT_EQ(a.spinSpeedDegPerSecond, b.spinSpeedDegPerSecond);
    EXPECT_EQ(a.scenario, b.scenario);
    EXPECT_EQ(a.labQuery, b.labQuery);
    EXPECT_EQ(a.labOpen, b.labOpen);
    EXPECT_EQ(a.firstRunCardDismissed, b.firstRunCardDismissed);
}

/// A warning that names the file and says the defaults are used, on one line.
void expectWarning(const std::string& warning, const fs::path& file, const std::string& what) {
    EXPECT_NE(warning.find(file.string()), std::string::npos) << warning;
    EXPECT_NE(warning.find(what), std::string::npos) << warning;
    EXPECT_EQ(warning.find('\n'), std::string::npos) << warning;
}

TEST(SettingsFile, IsUnderXdgConfigHomeWhenItIsAbsoluteElseUnderHomesDotConfig) {
    EXPECT_EQ(kz::settingsFile("/x/config", "/home/a"), fs::path("/x/config/kolize/settings.json"));
    EXPECT_EQ(kz::settingsFile("relative/config", "/home/a"),
              fs::path("/home/a/.config/kolize/settings.json"));
    EXPECT_EQ(kz::settingsFile("", "/home/a"), fs::path("/home/a/.config/kolize/settings.json"));
    EXPECT_EQ(kz::settingsFile(nullptr, "/home/a"), fs::path("/home/a/.config/kolize/settings.json"));
    EXPECT_FALSE(kz::settingsFile(nullptr, nullptr).has_value());
    EXPECT_FALSE(kz::settingsFile("relative", "").has_value());
}

TEST(SettingsFile, WrittenThenReadGivesBackEverySettingAndMakesItsFolder) {
    TempDir dir;
    const fs::path file = dir.path() / "config" / "kolize" / "settings.json";
    std::string error;
    ASSERT_TRUE(kz::writeSettings(file, everySetting(), error)) << error;
    EXPECT_FALSE(fs::exists(file.string() + ".tmp")) << "the temporary file is renamed over it";
    const kz::SettingsRead read = kz::readSettings(file);
    EXPECT_EQ(read.warning, "");
    expectSame(read.settings, everySetting());
    // Written again over itself: the same.
    ASSERT_TRUE(kz::writeSettings(file, read.settings, error)) << error;
    expectSame(kz::readSettings(file).settings, everySetting());
}

TEST(SettingsFile, NoFileIsAFirstRunWithTheDefaultsAndNoWarning) {
    TempDir dir;
    const kz::SettingsRead read = kz::readSettings(dir.path() / "none" / "settings.json");
    EXPECT_EQ(read.warning, "");
    expectSame(read.settings, Settings{});
}

TEST(SettingsFile, NotJsonIsTheDefaultsAndAWarningWithTheLineAndColumn) {
    TempDir dir;
    const fs::path file = dir.write("settings.json", "{\n  \"shadows\": false,\n  \"msaa\": 4,,\n}\n");
    const kz::SettingsRead read = kz::readSettings(file);
    expectWarning(read.warning, file, "line 3, column");
    EXPECT_NE(read.warning.find("using the defaults"), std::string::npos) << read.warning;
    expectSame(read.settings, Settings{});
}

TEST(SettingsFile, EmptyTruncatedBinaryNotAnObjectOrAHugeNumberIsTheDefaultsAndAWarning) {
    TempDir dir;
    for (const std::string& text :
         {std::string(), std::string("{\"shadows\": tr"), std::string("\x00\xff\xfe", 3),
          std::string("[1, 2]"), std::string("\"settings\""), std::string("{\"a\": \"\xc3\x28\"}"),
          std::string("{\"window_size\": [441e3080]}")}) {
        const fs::path file = dir.write("settings.json", text);
        const kz::SettingsRead read = kz::readSettings(file);
        expectWarning(read.warning, file, "using the defaults");
        expectSame(read.settings, Settings{});
    }
}

TEST(SettingsFile, AKeyOfTheWrongTypeOrOutOfRangeTakesItsDefaultAndTheOthersStay) {
    TempDir dir;
    const struct {
        const char* json;
        const char* key;
    } cases[] = {
        {R"({"shadows": "no", "msaa": 2})", "\"shadows\""},
        {R"({"msaa": 17, "shadows": false})", "\"msaa\""},
        {R"({"window_size": [0, 500], "shadows": false})", "\"window_size\""},
        {R"({"window_size": [900], "shadows": false})", "\"window_size\""},
        {R"({"window_size": [900.5, 500], "shadows": false})", "\"window_size\""},
        {R"({"camera_spin_speed": 1e300, "shadows": false})", "\"camera_spin_speed\""},
        {R"({"scenario": 3, "shadows": false})", "\"scenario\""},
        {R"({"first_run_card_dismissed": 1, "shadows": false})", "\"first_run_card_dismissed\""},
    };
    for (const auto& c : cases) {
        const fs::path file = dir.write("settings.json", c.json);
        const kz::SettingsRead read = kz::readSettings(file);
        expectWarning(read.warning, file, c.key);
        EXPECT_NE(read.warning.find("takes its default"), std::string::npos) << read.warning;
        if (std::string(c.key) != "\"shadows\"") {
            EXPECT_EQ(read.settings.shadows, std::optional<bool>(false)) << c.json;
        } else {
            EXPECT_FALSE(read.settings.shadows.has_value()) << c.json;
            EXPECT_EQ(read.settings.msaaSamples, std::optional<int>(2)) << c.json;
        }
    }
}

TEST(SettingsFile, KeysItDoesNotKnowAreIgnored) {
    TempDir dir;
    const fs::path file = dir.write("settings.json", R"({"from_a_newer_kolize": {"x": 1}, "msaa": 8})");
    const kz::SettingsRead read = kz::readSettings(file);
    EXPECT_EQ(read.warning, "");
    EXPECT_EQ(read.settings.msaaSamples, std::optional<int>(8));
}

TEST(SettingsFile, AFolderOrAHugeFileInItsPlaceIsTheDefaultsAndAWarning) {
    TempDir dir;
    const fs::path folder = dir.path() / "settings.json";
    fs::create_directories(folder);
    expectWarning(kz::readSettings(folder).warning, folder, "not a regular file");

    const fs::path huge =
        dir.write("huge.json", "{\"panel_layout\": \"" + std::string(2u << 20, 'x') + "\"}");
    expectWarning(kz::readSettings(huge).warning, huge, "larger than");
}

TEST(SettingsFile, AFolderThatCannotBeMadeIsAOneLineErrorNamingTheFile) {
    TempDir dir;
    // A regular file where the folder should be: no user, root included, can write under it.
    dir.write("config", "not a folder");
    const fs::path file = dir.path() / "config" / "kolize" / "settings.json";
    std::string error;
    EXPECT_FALSE(kz::writeSettings(file, everySetting(), error));
    expectWarning(error, file, "cannot write settings");
    // So is a folder where the file itself should be.
    const fs::path folder = dir.path() / "taken" / "settings.json";
    fs::create_directories(folder / "inside");
    error.clear();
    EXPECT_FALSE(kz::writeSettings(folder, everySetting(), error));
    EXPECT_NE(error.find("cannot write settings"), std::string::npos) << error;
    EXPECT_TRUE(fs::is_directory(folder / "inside")) << "the folder in the way is left as it was";
}

} // namespace
