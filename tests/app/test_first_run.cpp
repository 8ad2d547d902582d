// The first five minutes in the window, driven as a user drives it (xdotool under Xvfb): the "Try
// this" card of the first run, dismissed for good and brought back from Help; its button into the
// lab; and the settings file that keeps the window, the panel, shadows, the camera, the last
// scenario and the lab between runs (flags winning, --no-config, a broken or unwritable file), never
// read or written by a headless run. Each App has its own settings under its test's folder
// (XDG_CONFIG_HOME; window_harness.hpp).
#include "support/window_harness.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace kz::wintest;

/// A Dear ImGui button of the dark style on a card or window (its blue at 40% over the dark
/// window background).
bool buttonColour(const Rgb& c) {
    return std::abs(c.r - 36) <= 16 && std::abs(c.g - 70) <= 16 && std::abs(c.b - 110) <= 18 && c.b > c.g &&
           c.g > c.r;
}

/// The centres of the buttons in `area` of `image`, left to right: the pixel row with the most
/// button colour below the title bar (a row of the buttons' padding, above or below their labels), cut
/// into runs of it.
std::vector<glm::ivec2> buttonsIn(const Image& image, const Rect& area) {
    int bestY = -1, bestCount = 0;
    for (int y = area.y0 + 24; y <= area.y1; ++y) {
        int count = 0;
        for (int x = area.x0; x <= area.x1; ++x)
            count += image.inside(x, y) && buttonColour(image.at(x, y));
        if (count > bestCount) {
            bestCount = count;
            bestY = y;
        }
    }
    std::vector<glm::ivec2> centres;
    if (bestY < 0) return centres;
    int runStart = -1, lastHit = -100;
    const auto close = [&] {
        if (runStart >= 0 && lastHit - runStart >= 20) centres.push_back({(runStart + lastHit) / 2, bestY});
    };
    for (int x = area.x0; x <= area.x1; ++x) {
        if (!image.inside(x, bestY) || !buttonColour(image.at(x, bestY))) continue;
        if (x - lastHit > 4) {
            close();
            runStart = x;
        }
        lastHit = x;
    }
    close();
    return centres;
}

/// The card's rectangle from its `card` event (open), in window pixels.
Rect cardRect(const Json& card) {
    const Json& r = card.value("rect", Json());
    if (!r.is_array() || r.size() != 4) return {};
    const int x = static_cast<int>(r[0].get<double>()), y = static_cast<int>(r[1].get<double>());
    return {x, y, x + static_cast<int>(r[2].get<double>()) - 1, y + static_cast<int>(r[3].get<double>()) - 1};
}

Json readJson(const fs::path& file) {
    return Json::parse(readText(file), nullptr, false);
}

std::vector<std::string> sized(std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"--size", std::to_string(kWidth) + "x" + std::to_string(kHeight),
                                     "--no-vsync"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

TEST(FirstRun, TheCardShowsOnTheFirstRunGotItDismissesItForGoodAndHelpBringsItBack) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene still(dir.path());
    {
        App app(dir.path(), windowArgs(still.file), true, Settings::AsTheyAre);
        KZ_START_APP(app);
        std::size_t cursor = 0;
        const std::optional<Json> card = app.waitEvent("card", cursor);
        ASSERT_TRUE(card.has_value()) << "no card on the first run" << app.diagnostics();
        EXPECT_EQ(card->value("open", false), true) << card->dump();
        const Rect rect = cardRect(*card);
        ASSERT_FALSE(rect.empty()) << card->dump();
        EXPECT_GT(rect.x0, static_cast<int>(kPanelRight)) << "the card is over the scene, right of the panel";

        // Its two buttons, "Open the lab" and "Got it": the second dismisses it.
        const std::vector<glm::ivec2> buttons = buttonsIn(app.screenshotKey(), rect);
        ASSERT_EQ(buttons.size(), 2u) << "the card's buttons in " << str(rect) << app.diagnostics();
        cursor = app.eventCount();
        app.clickAt(buttons[1]);
        const std::optional<Json> closed = app.waitEvent("card", cursor);
        ASSERT_TRUE(closed.has_value()) << "Got it did not close the card" << app.diagnostics();
        EXPECT_EQ(closed->value("open", true), false) << closed->dump();
        EXPECT_TRUE(app.eventsNamed("lab", cursor).empty()) << "Got it opened the lab";
        app.quitWithEscape();
    }
    EXPECT_EQ(readJson(settingsPath(dir.path())).value("first_run_card_dismissed", false), true)
        << readText(settingsPath(dir.path()));

    // The next run: no card, until Help's button (H: the Help window, top right; its title bar, 8 to
    // about 27 px down, is of the buttons' blue: the search starts below it) asks for it.
    App app(dir.path(), windowArgs(still.file), true, Settings::AsTheyAre);
    KZ_START_APP(app);
    ASSERT_TRUE(app.barrier());
    ASSERT_TRUE(app.barrier());
    EXPECT_TRUE(app.eventsNamed("card").empty()) << "the card came back by itself";
    app.key("h");
    ASSERT_TRUE(app.barrier());
    const std::vector<glm::ivec2> buttons =
        buttonsIn(app.screenshotKey(), Rect{kWidth / 2, 16, kWidth - 1, kHeight / 4});
    ASSERT_EQ(buttons.size(), 1u) << "the Help window's button" << app.diagnostics();
    std::size_t cursor = app.eventCount();
    app.clickAt(buttons.front());
    const std::optional<Json> again = app.waitEvent("card", cursor);
    ASSERT_TRUE(again.has_value()) << "Help's button did not bring the card back" << app.diagnostics();
    EXPECT_EQ(again->value("open", false), true) << again->dump();
    app.quitWithEscape();
}

TEST(FirstRun, TheCardsOpenTheLabButtonOpensTheLabAndTheNextRunComesBackToIt) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    {
        App app(dir.path(), sized(), true, Settings::AsTheyAre);
        KZ_START_APP(app);
        std::size_t cursor = 0;
        const std::optional<Json> card = app.waitEvent("card", cursor);
        ASSERT_TRUE(card.has_value()) << "no card on the first run" << app.diagnostics();
        const std::vector<glm::ivec2> buttons = buttonsIn(app.screenshotKey(), cardRect(*card));
        ASSERT_EQ(buttons.size(), 2u) << app.diagnostics();
        cursor = app.eventCount();
        const std::size_t clicked = cursor;
        app.clickAt(buttons[0]);
        const std::optional<Json> lab = app.waitEvent("lab", cursor);
        ASSERT_TRUE(lab.has_value()) << "Open the lab opened no lab" << app.diagnostics();
        EXPECT_EQ(lab->value("query", ""), "box-box") << lab->dump();
        const std::vector<Json> cards = app.eventsNamed("card", clicked);
        ASSERT_EQ(cards.size(), 1u) << "the card closes as the lab opens" << app.diagnostics();
        EXPECT_EQ(cards[0].value("open", true), false) << cards[0].dump();
        app.quitWithEscape();
    }
    const Json settings = readJson(settingsPath(dir.path()));
    EXPECT_EQ(settings.value("lab_open", false), true) << settings.dump();
    EXPECT_EQ(settings.value("lab_query", ""), "box-box") << settings.dump();
    EXPECT_EQ(settings.value("first_run_card_dismissed", false), true) << settings.dump();

    // Started again with nothing chosen on the command line: the lab, on the same query.
    App app(dir.path(), sized(), true, Settings::AsTheyAre);
    KZ_START_APP(app);
    std::size_t cursor = 0;
    const std::optional<Json> lab = app.waitEvent("lab", cursor);
    ASSERT_TRUE(lab.has_value()) << "the lab did not come back" << app.diagnostics();
    EXPECT_EQ(lab->value("query", ""), "box-box") << lab->dump();
    EXPECT_TRUE(app.eventsNamed("card").empty());
    app.quitWithEscape();
}

TEST(Settings, TheWindowShadowsCameraAndLastScenarioStayAndFlagsWinOverThem) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene still(dir.path());
    {
        App app(dir.path(), {"--scenario", still.file.string(), "--size", "900x500", "--no-vsync"});
        KZ_START_APP(app);
        std::size_t cursor = 0;
        app.key("l");
        ASSERT_TRUE(app.waitEvent("shadows", cursor)) << app.diagnostics();
        app.key("s");
        ASSERT_TRUE(app.waitEvent("camera_spin", cursor)) << app.diagnostics();
        app.quitWithEscape();
    }
    const Json kept = readJson(settingsPath(dir.path()));
    EXPECT_EQ(kept.value("window_size", Json()), Json::array({900, 500})) << kept.dump();
    EXPECT_EQ(kept.value("shadows", true), false) << kept.dump();
    EXPECT_EQ(kept.value("camera_spin", true), false) << kept.dump();
    EXPECT_EQ(kept.value("scenario", ""), fs::absolute(still.file).lexically_normal().string())
        << kept.dump();
    EXPECT_TRUE(kept.contains("panel_layout") &&
                kept["panel_layout"].get<std::string>().find("[Window][Kolize]") != std::string::npos)
        << kept.dump();

    // No flags: the window comes back as it was left, on the same scenario, shadows off.
    {
        App app(dir.path(), {"--no-vsync", "--report", "report.json"});
        KZ_START_APP(app);
        std::size_t cursor = 0;
        const std::optional<Json> view = app.waitEvent("view", cursor);
        ASSERT_TRUE(view.has_value()) << app.diagnostics();
        EXPECT_EQ(view->value("window", Json()), Json::array({900, 500})) << view->dump();
        app.quitWithEscape();
        const Json report = readJson(dir.path() / "report.json");
        EXPECT_EQ(report.value("scenario", ""), "still") << report.dump();
        EXPECT_EQ(report.value("shadows", true), false) << report.dump();
    }
    // Flags win: the size and the scenario given, and the settings then keep those.
    {
        App app(dir.path(), sized({"--scenario", "two-balls", "--report", "report.json"}));
        KZ_START_APP(app);
        std::size_t cursor = 0;
        const std::optional<Json> view = app.waitEvent("view", cursor);
        ASSERT_TRUE(view.has_value()) << app.diagnostics();
        EXPECT_EQ(view->value("window", Json()), Json::array({kWidth, kHeight})) << view->dump();
        app.quitWithEscape();
        EXPECT_EQ(readJson(dir.path() / "report.json").value("scenario", ""), "Two balls");
    }
    const Json after = readJson(settingsPath(dir.path()));
    EXPECT_EQ(after.value("scenario", ""), "two-balls") << after.dump();
    EXPECT_EQ(after.value("window_size", Json()), Json::array({kWidth, kHeight})) << after.dump();
}

TEST(Settings, ABrokenFileIsOneWarningAndTheDefaultsAndIsWrittenAgainAtQuit) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene still(dir.path());
    fs::create_directories(settingsPath(dir.path()).parent_path());
    writeText(settingsPath(dir.path()), "{\"window_size\": [900, 500], \"shadows\": fals");
    {
        App app(dir.path(), windowArgs(still.file), true, Settings::AsTheyAre);
        KZ_START_APP(app);
        std::size_t cursor = 0;
        EXPECT_TRUE(app.waitEvent("card", cursor)) << "the defaults: a first run's card" << app.diagnostics();
        app.quitWithEscape();
        const std::string err = app.stderrText();
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_NE(err.find("kolize: warning: settings '" + settingsPath(dir.path()).string() + "'"),
                  std::string::npos)
            << err;
        EXPECT_NE(err.find("line 1, column"), std::string::npos) << err;
    }
    const Json rewritten = readJson(settingsPath(dir.path()));
    ASSERT_TRUE(rewritten.is_object()) << readText(settingsPath(dir.path()));
    EXPECT_EQ(rewritten.value("window_size", Json()), Json::array({kWidth, kHeight})) << rewritten.dump();
}

TEST(Settings, AnUnknownLabQueryIsAWarningAndIsForgotten) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    fs::create_directories(settingsPath(dir.path()).parent_path());
    writeText(settingsPath(dir.path()),
              R"({"lab_query": "no-such-query", "lab_open": true, "first_run_card_dismissed": true})");
    {
        App app(dir.path(), sized(), true, Settings::AsTheyAre);
        KZ_START_APP(app);
        ASSERT_TRUE(app.barrier());
        EXPECT_TRUE(app.eventsNamed("lab").empty()) << "a lab opened" << app.diagnostics();
        app.quitWithEscape();
        const std::string err = app.stderrText();
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_NE(err.find("\"lab_query\" 'no-such-query' is no lab query"), std::string::npos) << err;
    }
    const Json kept = readJson(settingsPath(dir.path()));
    EXPECT_FALSE(kept.contains("lab_query")) << kept.dump();
    EXPECT_EQ(kept.value("lab_open", true), false) << kept.dump();
}

TEST(Settings, ALastScenarioThatNoLongerLoadsIsAWarningAndTheDefaultScenario) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const fs::path gone = dir.path() / "moved-away.json";
    fs::create_directories(settingsPath(dir.path()).parent_path());
    writeText(settingsPath(dir.path()),
              "{\"scenario\": \"" + gone.string() + "\", \"first_run_card_dismissed\": true}");
    App app(dir.path(), sized({"--report", "report.json"}), true, Settings::AsTheyAre);
    KZ_START_APP(app);
    app.quitWithEscape();
    const std::string err = app.stderrText();
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find("kolize: warning: the last scenario does not load ("), std::string::npos) << err;
    EXPECT_NE(err.find(gone.string()), std::string::npos) << err;
    EXPECT_EQ(readJson(dir.path() / "report.json").value("scenario", ""), "Two balls");
    EXPECT_EQ(readJson(settingsPath(dir.path())).value("scenario", ""), "two-balls");
}

TEST(Settings, NoConfigNeitherReadsNorWritesTheFile) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene still(dir.path());
    const std::string text = "{\"window_size\": [700, 400], \"first_run_card_dismissed\": true}\n";
    fs::create_directories(settingsPath(dir.path()).parent_path());
    writeText(settingsPath(dir.path()), text);
    App app(dir.path(), {"--scenario", still.file.string(), "--no-vsync", "--no-config"}, true,
            Settings::AsTheyAre);
    KZ_START_APP(app);
    std::size_t cursor = 0;
    const std::optional<Json> view = app.waitEvent("view", cursor);
    ASSERT_TRUE(view.has_value()) << app.diagnostics();
    EXPECT_EQ(view->value("window", Json()), Json::array({1280, 720}))
        << "the default size: " << view->dump();
    EXPECT_TRUE(app.waitEvent("card", cursor)) << "the defaults: the card shows" << app.diagnostics();
    app.quitWithEscape();
    EXPECT_EQ(readText(settingsPath(dir.path())), text) << "--no-config wrote the settings";
}

TEST(Settings, AFolderThatCannotBeWrittenIsAWarningAtQuitAndTheRunStillSucceeds) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene still(dir.path());
    // A regular file where the kolize folder goes: not even root can write the settings under it.
    fs::create_directories(dir.path() / "config");
    writeText(dir.path() / "config" / "kolize", "in the way");
    App app(dir.path(), windowArgs(still.file), true, Settings::AsTheyAre);
    KZ_START_APP(app);
    EXPECT_EQ(app.quitWithEscape(), std::optional<int>(0));
    const std::string err = app.stderrText();
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find("kolize: warning: cannot write settings"), std::string::npos) << err;
}

TEST(Settings, AHeadlessRunNeverReadsNorWritesThem) {
    TempDir dir;
    const fs::path file = settingsPath(dir.path());
    const std::string run = "XDG_CONFIG_HOME='" + (dir.path() / "config").string() + "' '" +
                            std::string(KOLIZE_EXE) + "' --headless --steps 5 --report '" +
                            (dir.path() / "r.json").string() + "' 2>'" + (dir.path() / "err.txt").string() +
                            "'";
    int status = -1;
    shell(run, &status);
    EXPECT_EQ(status, 0);
    EXPECT_FALSE(fs::exists(file)) << "a headless run made a settings file";
    fs::create_directories(file.parent_path());
    writeText(file, "{broken");
    shell(run, &status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(readText(dir.path() / "err.txt"), "") << "a headless run read the settings";
    EXPECT_EQ(readText(file), "{broken");
}

} // namespace
