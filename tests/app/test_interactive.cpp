// The kolize window driven as a user drives it: the real binary under a real X server (Xvfb in
// scripts/test.sh), real pointer motion, clicks and key presses from xdotool (XTEST), and the
// app's event log (--events FILE) and screenshots (--screenshot FILE, F12) as the evidence.
//
// Every test writes its own scenario files (a fixed camera, bodies at rest or on known paths) to
// a temporary folder, computes where the bodies project on screen with the scenario's camera
// (glm::lookAt + glm::perspective + glm::project, as the app does), clicks there and checks what
// the app logs. No display (no DISPLAY): every test skips, or fails when KZ_REQUIRE_DISPLAY is set.
//
// The tests of this binary take an exclusive lock per X display (ctest runs them in parallel,
// and two windows on one screen would steal each other's clicks and keys). KZ_KEEP_TEST_FILES=1
// keeps each test's folder (scenarios, event log, screenshots, the app's output) for inspection.
#include "app/lab/draw.hpp"
#include "app/lab/scene.hpp"
#include "physics/pick.hpp"
#include "scenario/scenario.hpp"
#include "support/window_harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <glm/glm.hpp>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#ifndef KOLIZE_EXE
#error "KOLIZE_EXE (the path of the built kolize binary) must be defined"
#endif

namespace {

using namespace kz::wintest;

// ================================================================================== tests

TEST(Interactive, NoDisplayIsOneLineOnStderrAndExitCode2) {
    // Needs no display: the binary is run with none.
    TempDir dir;
    ASSERT_FALSE(dir.path().empty());
    int status = 0;
    const std::string out =
        shell("cd '" + dir.path().string() +
                  "' && env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR timeout 20 " KOLIZE_EXE
                  " --frames 5 2>stderr.txt >stdout.txt; echo $?",
              &status);
    EXPECT_EQ(std::atoi(out.c_str()), 2) << "exit code without a display";
    std::string err = readText(dir.path() / "stderr.txt");
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << "stderr: " << err;
    EXPECT_EQ(err.rfind("kolize: ", 0), 0u) << "stderr: " << err;
}

TEST(Interactive, DefaultSceneScreenshotIsFullSizeAndNotBlank) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    {
        App app(dir.path(),
                {"--scenario", "two-balls", "--frames", "60", "--screenshot", "default.png", "--no-vsync"},
                false);
        ASSERT_TRUE(app.started());
        const std::optional<int> code = app.waitExit();
        ASSERT_EQ(code, std::optional<int>(0)) << app.diagnostics();
        const Image image = loadPng(dir.path() / "default.png");
        ASSERT_TRUE(image.valid()) << "no readable default.png" << app.diagnostics();
        EXPECT_EQ(image.width, 1280);
        EXPECT_EQ(image.height, 720);

        // Not blank: many distinct colours (shaded spheres, room, panel text), no colour over 90%.
        std::vector<std::uint32_t> colours;
        colours.reserve(image.rgb.size() / 3);
        for (std::size_t i = 0; i + 2 < image.rgb.size(); i += 3)
            colours.push_back(static_cast<std::uint32_t>(image.rgb[i]) << 16 |
                              static_cast<std::uint32_t>(image.rgb[i + 1]) << 8 | image.rgb[i + 2]);
        std::sort(colours.begin(), colours.end());
        std::size_t distinct = 0, longest = 0, run = 0;
        for (std::size_t i = 0; i < colours.size(); ++i) {
            run = (i > 0 && colours[i] == colours[i - 1]) ? run + 1 : 1;
            if (run == 1) ++distinct;
            longest = std::max(longest, run);
        }
        EXPECT_GE(distinct, 200u) << "distinct colours in the default scene";
        EXPECT_LT(static_cast<double>(longest), 0.9 * static_cast<double>(colours.size()))
            << "one colour covers most of the frame";

        // The two balls in their colours (red #d04040, blue #4080d0) somewhere in the frame.
        const auto red = centroidOf(image, [](const Rgb& c) { return dominant(c, 0, 50); });
        const auto blue = centroidOf(image, [](const Rgb& c) { return dominant(c, 2, 50) && c.g > c.r; });
        EXPECT_GE(red.second, 100) << "red ball's pixels";
        EXPECT_GE(blue.second, 100) << "blue ball's pixels";
    }
    {
        App app(dir.path(),
                {"--scenario", "two-balls", "--frames", "20", "--size", "640x360", "--screenshot",
                 "small.png", "--no-vsync"},
                false);
        ASSERT_TRUE(app.started());
        ASSERT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
        const Image image = loadPng(dir.path() / "small.png");
        ASSERT_TRUE(image.valid()) << "no readable small.png" << app.diagnostics();
        EXPECT_EQ(image.width, 640);
        EXPECT_EQ(image.height, 360);
    }
}

TEST(Interactive, ScreenshotShowsBodiesInTheirColoursAndTheRoom) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file, {"--frames", "30", "--screenshot", "still.png"}), false);
    ASSERT_TRUE(app.started());
    ASSERT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
    const Image image = loadPng(dir.path() / "still.png");
    ASSERT_TRUE(image.valid()) << app.diagnostics();
    ASSERT_EQ(image.width, kWidth);
    ASSERT_EQ(image.height, kHeight);

    const glm::ivec2 red = scene.pixel(scene.red);
    const glm::ivec2 blue = scene.pixel(scene.blue);
    const glm::ivec2 green = scene.pixel(scene.green);
    const Rgb redColour = meanAround(image, red.x, red.y);
    const Rgb blueColour = meanAround(image, blue.x, blue.y);
    const Rgb greenColour = meanAround(image, green.x, green.y);
    EXPECT_TRUE(dominant(redColour, 0)) << "red ball at " << red.x << "," << red.y << ": " << str(redColour);
    EXPECT_TRUE(dominant(blueColour, 2))
        << "blue ball at " << blue.x << "," << blue.y << ": " << str(blueColour);
    EXPECT_TRUE(dominant(greenColour, 1))
        << "green ball at " << green.x << "," << green.y << ": " << str(greenColour);

    // Just outside each ball's silhouette the colour is no longer the ball's.
    const float r = projectedRadius(scene.camera, scene.red, scene.radius);
    const Rgb outside = meanAround(image, red.x + static_cast<int>(r) + 8, red.y, 1);
    EXPECT_FALSE(dominant(outside, 0)) << "right of the red ball: " << str(outside);

    // The room: the back wall's four edges (where it meets the side walls, floor and ceiling)
    // show as a change of colour across them, away from the bodies and the panel.
    const glm::vec3 corners[4] = {{-5, -5, -5}, {5, -5, -5}, {5, 5, -5}, {-5, 5, -5}};
    int edgesSeen = 0, edgesChecked = 0;
    for (int i = 0; i < 4; ++i) {
        const glm::vec2 a = project(scene.camera, corners[i]);
        const glm::vec2 b = project(scene.camera, corners[(i + 1) % 4]);
        const glm::vec2 along = glm::normalize(b - a);
        const glm::vec2 across(-along.y, along.x);
        int contrasted = 0, samples = 0;
        for (float f = 0.2f; f <= 0.81f; f += 0.1f) {
            const glm::vec2 p = a + (b - a) * f;
            if (p.x < 400.0f) continue; // the panel's side
            ++samples;
            int lo = 255 * 3, hi = 0;
            for (int k = -6; k <= 6; ++k) {
                const glm::ivec2 q = pixelAt(p + across * static_cast<float>(k));
                if (!image.inside(q.x, q.y)) continue;
                const Rgb c = image.at(q.x, q.y);
                lo = std::min(lo, c.r + c.g + c.b);
                hi = std::max(hi, c.r + c.g + c.b);
            }
            if (hi - lo >= 24) ++contrasted;
        }
        if (samples == 0) continue;
        ++edgesChecked;
        if (contrasted * 2 >= samples) ++edgesSeen;
    }
    EXPECT_GE(edgesChecked, 3);
    EXPECT_EQ(edgesSeen, edgesChecked) << "back-wall edges visible as a colour change across them";
}

TEST(Interactive, ClickOnABodyPicksIt) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file));
    KZ_START_APP(app);
    EXPECT_EQ(app.windowSize(), glm::ivec2(kWidth, kHeight)) << "--size " << kWidth << "x" << kHeight;

    struct Target {
        const char* name;
        glm::vec3 centre;
        float radius;
    };
    const Target targets[] = {{"red ball", scene.red, scene.radius},
                              {"blue ball", scene.blue, scene.radius},
                              {"green ball", scene.green, scene.greenRadius}};
    std::uint64_t lastFrame = 0;
    for (const Target& target : targets) {
        SCOPED_TRACE(target.name);
        const std::optional<Json> pick = app.pickAt(scene.pixel(target.centre));
        ASSERT_TRUE(pick.has_value()) << "no pick event" << app.diagnostics();
        expectBodyPick(*pick, target.name, "sphere");
        if (HasFatalFailure() || !pick->contains("point")) return;
        // The hit lies on the sphere, on the side facing the camera, with the outward normal.
        const glm::vec3 point = jsonVec3((*pick)["point"]);
        const glm::vec3 normal = jsonVec3((*pick)["normal"]);
        EXPECT_NEAR(glm::length(point - target.centre), target.radius, 0.01f) << pick->dump();
        EXPECT_LT(glm::length(normal - (point - target.centre) / target.radius), 0.01f) << pick->dump();
        EXPECT_GT(glm::dot(normal, glm::normalize(scene.camera.eye - target.centre)), 0.99f) << pick->dump();
        // t is the distance along a unit ray from the near plane or the eye: at most the eye's.
        const float eyeDistance = glm::length(point - scene.camera.eye);
        EXPECT_LE((*pick)["t"].get<float>(), eyeDistance + 1e-3f) << pick->dump();
        EXPECT_GE((*pick)["t"].get<float>(), eyeDistance - 1.0f) << pick->dump();
        const std::uint64_t frame = (*pick)["frame"].get<std::uint64_t>();
        EXPECT_GE(frame, lastFrame);
        lastFrame = frame;
    }
    app.quitWithEscape();
}

TEST(Interactive, PickingFollowsWindowResizesAndSurvives1x1) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file));
    KZ_START_APP(app);

    // Down to 1x1 and back up to a new size and aspect ratio (no window manager: X resizes it).
    for (const glm::ivec2 size : {glm::ivec2(1, 1), glm::ivec2(800, 600)}) {
        xdo("windowsize --sync " + app.window() + " " + std::to_string(size.x) + " " +
            std::to_string(size.y) + " 2>&1");
        ASSERT_TRUE(app.barrier()) << "no frame after resizing to " << size.x << "x" << size.y
                                   << app.diagnostics();
        ASSERT_TRUE(app.running()) << app.diagnostics();
    }
    ASSERT_EQ(app.windowSize(), glm::ivec2(800, 600));

    // The projection follows the window, framed beside the panel where the app says it is now (the
    // panel may have been pushed when the window was 1x1): the red ball's centre at 800x600 picks it.
    ASSERT_TRUE(app.barrier());
    const std::optional<FreeArea> free = app.lastFreeArea();
    ASSERT_TRUE(free.has_value()) << "no view event" << app.diagnostics();
    EXPECT_EQ(free->y1, 600.0f) << "the free area's height is the window's";
    EXPECT_EQ(free->x1, 800.0f) << "the free area reaches the window's right edge";
    const glm::ivec2 red = pixelAt(project(scene.camera, scene.red, *free, 600));
    const std::optional<Json> pick = app.pickAt(red);
    ASSERT_TRUE(pick.has_value()) << app.diagnostics();
    expectBodyPick(*pick, "red ball", "sphere");
    if (pick->contains("point") && isFiniteVec3((*pick)["point"])) {
        EXPECT_NEAR(glm::length(jsonVec3((*pick)["point"]) - scene.red), scene.radius, 0.01f) << pick->dump();
        EXPECT_GT(glm::dot(jsonVec3((*pick)["normal"]), glm::normalize(scene.camera.eye - scene.red)), 0.99f)
            << "not the point facing the camera at the ball's projected centre: " << pick->dump();
    }
    // And a screenshot has the new size.
    const Image image = app.screenshotKey();
    EXPECT_EQ(image.width, 800);
    EXPECT_EQ(image.height, 600);
    app.quitWithEscape();
}

TEST(Interactive, NearerOfTwoBodiesOnTheLineOfSightIsPicked) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const Camera camera;
    // A big blue ball far back and a small red box in front of it on the same line of sight.
    const glm::vec3 far(3.5f, -1.0f, -2.5f);
    const float s = (camera.eye.z - 2.0f) / (camera.eye.z - far.z); // the box's centre at z = 2
    const glm::vec3 near = camera.eye + s * (far - camera.eye);
    const glm::vec3 half(0.4f);
    const fs::path file = writeScenario(
        dir.path(), "line-of-sight", camera,
        Json::array({box("red box", half, near, "#e02828"), sphere("blue ball", 1.5f, far, "#2850e0")}));
    App app(dir.path(), windowArgs(file));
    KZ_START_APP(app);

    const glm::ivec2 centre = pixelAt(project(camera, far));
    ASSERT_LT(glm::length(project(camera, near) - project(camera, far)), 1.0f);
    const std::optional<Json> front = app.pickAt(centre);
    ASSERT_TRUE(front.has_value()) << "no pick event" << app.diagnostics();
    expectBodyPick(*front, "red box", "box");
    if (front->contains("point") && isFiniteVec3((*front)["point"])) {
        // The ray enters the box through its face toward the camera (+z, at z = 2.4).
        EXPECT_NEAR(jsonVec3((*front)["point"]).z, near.z + half.z, 0.01f) << front->dump();
        EXPECT_LT(glm::length(jsonVec3((*front)["normal"]) - glm::vec3(0, 0, 1)), 0.01f) << front->dump();
    }

    // Below the box's silhouette but inside the ball's, the ball is picked.
    const float boxPixels = projectedRadius(camera, near, glm::length(half));
    const float ballPixels = projectedRadius(camera, far, 1.5f);
    ASSERT_LT(boxPixels + 10.0f, ballPixels - 10.0f);
    const glm::ivec2 below = centre + glm::ivec2(0, static_cast<int>((boxPixels + ballPixels) * 0.5f));
    const std::optional<Json> back = app.pickAt(below);
    ASSERT_TRUE(back.has_value()) << "no pick event" << app.diagnostics();
    expectBodyPick(*back, "blue ball", "sphere");
    app.quitWithEscape();
}

TEST(Interactive, ClickingACapsuleOrAHullPicksItOnItsSurfaceAndNotItsBoundingBox) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const Camera camera;
    // A capsule lying along x (radius 0.8, segment from x = -3.2 to -0.8) and an octahedron hull.
    const glm::vec3 capsuleAt(-2.0f, 0.0f, 0.0f), hullAt(2.5f, 0.0f, 0.0f);
    Json capsule = {{"name", "red capsule"},
                    {"shape", "capsule"},
                    {"radius", 0.8},
                    {"half_height", 1.2},
                    {"position", {capsuleAt.x, capsuleAt.y, capsuleAt.z}},
                    {"euler_deg", {0, 0, 90}},
                    {"color", "#e02828"}};
    Json hull = {
        {"name", "blue hull"},
        {"shape", "hull"},
        {"points", {{1.2, 0, 0}, {-1.2, 0, 0}, {0, 1.2, 0}, {0, -1.2, 0}, {0, 0, 1.2}, {0, 0, -1.2}}},
        {"position", {hullAt.x, hullAt.y, hullAt.z}},
        {"color", "#2850e0"}};
    const fs::path file = writeScenario(dir.path(), "round", camera, Json::array({capsule, hull}));
    App app(dir.path(), windowArgs(file));
    KZ_START_APP(app);

    // The capsule's round end, 1.8 m out along its axis: on its cap, facing the camera.
    const glm::vec3 end = capsuleAt + glm::vec3(-1.8f, 0.0f, 0.0f);
    const std::optional<Json> onEnd = app.pickAt(pixelAt(project(camera, end)));
    ASSERT_TRUE(onEnd.has_value()) << "no pick event" << app.diagnostics();
    expectBodyPick(*onEnd, "red capsule", "capsule");
    if (onEnd->contains("point") && isFiniteVec3((*onEnd)["point"])) {
        const glm::vec3 p = jsonVec3((*onEnd)["point"]);
        const glm::vec3 onAxis(std::clamp(p.x, capsuleAt.x - 1.2f, capsuleAt.x + 1.2f), 0.0f, 0.0f);
        EXPECT_NEAR(glm::length(p - onAxis), 0.8f, 0.01f) << onEnd->dump();
    }
    const std::optional<Json> onHull = app.pickAt(pixelAt(project(camera, hullAt)));
    ASSERT_TRUE(onHull.has_value()) << "no pick event" << app.diagnostics();
    expectBodyPick(*onHull, "blue hull", "hull");
    if (onHull->contains("point") && isFiniteVec3((*onHull)["point"])) {
        const glm::vec3 p = jsonVec3((*onHull)["point"]) - hullAt;
        EXPECT_NEAR(std::abs(p.x) + std::abs(p.y) + std::abs(p.z), 1.2f, 0.01f)
            << "on a face: " << onHull->dump();
    }
    // Inside each bounding box but outside the shape: nothing is picked.
    for (const glm::vec3& miss :
         {capsuleAt + glm::vec3(-1.9f, 0.7f, 0.0f), hullAt + glm::vec3(0.9f, 0.9f, 0.0f)}) {
        const std::optional<Json> none = app.pickAt(pixelAt(project(camera, miss)));
        ASSERT_TRUE(none.has_value()) << "no pick event" << app.diagnostics();
        EXPECT_TRUE((*none)["body"].is_null()) << none->dump();
    }
    app.quitWithEscape();
}

TEST(Interactive, ClickOnEmptySpacePicksNoBody) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file));
    KZ_START_APP(app);
    // First a body (a selection to clear), then empty space.
    const std::optional<Json> hit = app.pickAt(scene.pixel(scene.red));
    ASSERT_TRUE(hit.has_value()) << app.diagnostics();
    expectBodyPick(*hit, "red ball", "sphere");
    const std::optional<Json> miss = app.pickAt(scene.empty());
    ASSERT_TRUE(miss.has_value()) << "a click on empty space logged no pick" << app.diagnostics();
    ASSERT_TRUE(miss->contains("body")) << miss->dump();
    EXPECT_TRUE((*miss)["body"].is_null()) << miss->dump();
    app.quitWithEscape();
}

TEST(Interactive, ClickOnThePanelPicksNothingAndTabHidesThePanel) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene still(dir.path());

    // First run: where the panel is, from the difference between a frame with it and one
    // without it (Tab), and a spot of plain panel background to click.
    Rect panel;
    glm::ivec2 spot(0);
    {
        // The camera looks away from the room: only the background shows, so hiding the panel
        // (which frames the view in the whole window instead) changes nothing but the panel's pixels.
        const fs::path away =
            writeScenario(dir.path(), "away", Camera{{0.0f, 0.0f, 20.0f}, {0.0f, 0.0f, 40.0f}, 45.0f},
                          Json::array({sphere("red ball", 1.0f, still.red, "#e02828")}));
        App app(dir.path(), windowArgs(away));
        KZ_START_APP(app);
        const Image shown = app.screenshotKey();
        std::size_t cursor = app.eventCount();
        app.key("Tab");
        ASSERT_TRUE(app.barrier());
        const Image hidden = app.screenshotKey();
        ASSERT_TRUE(shown.valid() && hidden.valid());
        panel = panelRect(shown, hidden);
        ASSERT_FALSE(panel.empty()) << "no panel: the frames with and without it (Tab) are the same";
        EXPECT_LE(panel.x0, 40) << "panel " << str(panel);
        EXPECT_LE(panel.y0, 40) << "panel " << str(panel);
        EXPECT_GE(panel.width(), 150) << "panel " << str(panel);
        EXPECT_GE(panel.height(), 150) << "panel " << str(panel);
        EXPECT_TRUE(app.eventsNamed("pick", cursor).empty()) << "Tab picked something" << app.diagnostics();

        // Tab again: the panel is back.
        app.key("Tab");
        ASSERT_TRUE(app.barrier());
        const Image again = app.screenshotKey();
        ASSERT_TRUE(again.valid());
        EXPECT_FALSE(panelRect(again, hidden).empty()) << "Tab did not bring the panel back";

        // x >= 250: a ball on that spot's line of sight then fits in the room (see below).
        const std::optional<glm::ivec2> found = plainPanelPoint(shown, panel, 250);
        ASSERT_TRUE(found.has_value())
            << "no plain background inside the panel " << str(panel) << " right of x = 250";
        spot = *found;
        app.quitWithEscape();
    }
    std::printf("panel at %s; clicking its background at %d,%d\n", str(panel).c_str(), spot.x, spot.y);

    // Second run: a camera on the room's right half (so that, framed right of the panel, the room
    // still reaches behind it) and a ball right behind that spot, on its line of sight, at z = 0 or
    // where that line leaves the room's inner 3.9 m, so a click that went through the panel would
    // pick it.
    const Camera camera{{3.0f, 0.0f, 14.0f}, {3.0f, 0.0f, 0.0f}, 45.0f};
    const auto [origin, dir3] = pixelRay(camera, spot);
    float s = (0.0f - origin.z) / dir3.z;
    for (const int axis : {0, 1}) {
        if (std::abs(origin[axis] + s * dir3[axis]) > 3.9f)
            s = std::min(s, (std::copysign(3.9f, dir3[axis]) - origin[axis]) / dir3[axis]);
    }
    const glm::vec3 behind = origin + s * dir3;
    ASSERT_LT(std::abs(behind.z), 4.1f) << "no room behind the panel spot";
    // With the panel hidden the view is framed in the whole window: the ball shows elsewhere, still
    // where the panel was.
    const glm::ivec2 hiddenSpot = pixelAt(project(
        camera, behind, FreeArea{0.0f, 0.0f, static_cast<float>(kWidth), static_cast<float>(kHeight)}));
    ASSERT_TRUE(panel.contains(hiddenSpot.x, hiddenSpot.y))
        << "the ball shows at " << hiddenSpot.x << "," << hiddenSpot.y << " without the panel, outside "
        << str(panel);
    const fs::path file =
        writeScenario(dir.path(), "behind-panel", camera,
                      Json::array({sphere("hidden ball", 0.8f, behind, "#28c040"),
                                   sphere("red ball", 1.0f, {3.0f, 1.6f, 0.0f}, "#e02828")}));
    App app(dir.path(), windowArgs(file));
    KZ_START_APP(app);
    // The window shows before its first frame has built the panel; a click then (a slow start,
    // under the sanitizers) would reach the scene. A screenshot ends a whole frame.
    ASSERT_TRUE(app.barrier());

    // A click on the panel: no pick (of a body or of nothing), no drag.
    std::size_t cursor = app.eventCount();
    app.clickAt(spot);
    // A press on the panel makes it ImGui's active item (it could move the panel), and ImGui then
    // has the keyboard: an F12 that arrives in the frame of the press, as it can when frames are
    // slow (the sanitizers), is the panel's, not the app's. Let the click end before the barrier.
    sleepFor(500ms);
    ASSERT_TRUE(app.barrier());
    for (const Json& pick : app.eventsNamed("pick", cursor))
        ADD_FAILURE() << "a click on the panel at " << spot.x << "," << spot.y << " logged " << pick.dump();
    EXPECT_TRUE(app.eventsNamed("drag_start", cursor).empty()) << app.diagnostics();
    // Nor anything else a widget would do (the view framed at the start, in frame 0, is no click's).
    for (const Json& event : app.events()) {
        const std::string name = event.value("event", "");
        const bool startView = name == "view" && event.value("frame", Json()) == Json(0);
        EXPECT_TRUE(name == "screenshot" || startView)
            << "the click on the panel's background logged " << event.dump();
    }

    // With the panel hidden, a click where it was reaches the scene: the ball behind it is picked.
    app.key("Tab");
    ASSERT_TRUE(app.barrier());
    const std::optional<Json> through = app.pickAt(hiddenSpot);
    ASSERT_TRUE(through.has_value()) << "with the panel hidden, a click logged no pick" << app.diagnostics();
    EXPECT_EQ(through->value("body", Json()), Json("hidden ball")) << through->dump();
    app.quitWithEscape();
}

/// A ball that moves along the camera's axis (eye (0, 0, 14) looking down -z): it always
/// projects to the centre of the view (framed right of the panel), so a click there always meets
/// it, at a depth (t) that changes while it moves and stays put while the world is paused.
struct AxisScene {
    Camera camera;
    float speed = 1.5f;
    float timeStep = 0.01f;
    fs::path file;
    explicit AxisScene(const fs::path& dir) {
        file = writeScenario(
            dir, "axis", camera,
            Json::array({sphere("mover", 0.8f, {0.0f, 0.0f, -3.0f}, "#e0a020", {0.0f, 0.0f, speed}),
                         sphere("red ball", 1.0f, {3.0f, 1.6f, 0.0f}, "#e02828")}),
            timeStep);
    }
    glm::ivec2 centre() const { return pixelAt(project(camera, {0.0f, 0.0f, 0.0f})); }
};

float pickT(App& app, glm::ivec2 at, const char* body) {
    const std::optional<Json> pick = app.pickAt(at);
    if (!pick) {
        ADD_FAILURE() << "no pick event" << app.diagnostics();
        return NAN;
    }
    if (!pick->contains("body") || !(*pick)["body"].is_string() || (*pick)["body"] != body ||
        !(*pick)["t"].is_number()) {
        ADD_FAILURE() << "expected a pick of " << body << ", got " << pick->dump();
        return NAN;
    }
    return (*pick)["t"].get<float>();
}

TEST(Interactive, PauseResumeAndSpaceStopAndRestartTheWorld) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const AxisScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file));
    KZ_START_APP(app);
    const glm::ivec2 centre = scene.centre();

    // P: paused. Picks a second apart meet the mover at the same depth.
    std::size_t cursor = app.eventCount();
    app.key("p");
    ASSERT_TRUE(app.waitEvent("pause", cursor)) << "P logged no pause" << app.diagnostics();
    const float t0 = pickT(app, centre, "mover");
    sleepFor(1000ms);
    const float t1 = pickT(app, centre, "mover");
    EXPECT_EQ(t0, t1) << "the mover moved while paused";

    // O: running again. Picks half a second apart meet it at different depths (three picks, so
    // that a bounce off a wall between two of them cannot hide the motion).
    cursor = app.eventCount();
    app.key("o");
    ASSERT_TRUE(app.waitEvent("resume", cursor)) << "O logged no resume" << app.diagnostics();
    float moved = 0.0f;
    float previous = pickT(app, centre, "mover");
    for (int i = 0; i < 2; ++i) {
        sleepFor(500ms);
        const float t = pickT(app, centre, "mover");
        moved = std::max(moved, std::abs(t - previous));
        previous = t;
    }
    EXPECT_GT(moved, 0.2f) << "the mover did not move after O (" << scene.speed << " m/s)";

    // Space toggles: pause, then resume.
    cursor = app.eventCount();
    app.key("space");
    ASSERT_TRUE(app.waitEvent("pause", cursor)) << "Space logged no pause" << app.diagnostics();
    const float t2 = pickT(app, centre, "mover");
    sleepFor(700ms);
    EXPECT_EQ(pickT(app, centre, "mover"), t2) << "the mover moved while paused by Space";
    app.key("space");
    ASSERT_TRUE(app.waitEvent("resume", cursor)) << "Space logged no resume" << app.diagnostics();
    app.quitWithEscape();
}

TEST(Interactive, SingleStepWhilePaused) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const AxisScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file, {"--paused"}));
    KZ_START_APP(app);
    const glm::ivec2 centre = scene.centre();

    // --paused: still.
    const float t0 = pickT(app, centre, "mover");
    sleepFor(500ms);
    EXPECT_EQ(pickT(app, centre, "mover"), t0) << "the mover moved under --paused";

    // N, four times: four steps, each moving the mover speed * time_step toward the camera.
    constexpr int kSteps = 4;
    std::size_t cursor = app.eventCount();
    for (int i = 0; i < kSteps; ++i) {
        app.key("n");
        ASSERT_TRUE(app.waitEvent("step", cursor))
            << "N logged no step (press " << i + 1 << ")" << app.diagnostics();
    }
    const float t1 = pickT(app, centre, "mover");
    const float expected = static_cast<float>(kSteps) * scene.speed * scene.timeStep;
    EXPECT_NEAR(t0 - t1, expected, 0.25f * scene.speed * scene.timeStep)
        << "after " << kSteps << " single steps of " << scene.timeStep << " s";

    // Still paused after the steps.
    sleepFor(500ms);
    EXPECT_EQ(pickT(app, centre, "mover"), t1) << "the world runs again after N";
    app.quitWithEscape();
}

TEST(Interactive, CameraSpinStopsWithSAndStartsWithR) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file));
    KZ_START_APP(app);
    // The green ball sits at the orbit centre: it stays under the window's centre while the
    // camera circles, and the point a click there meets on it turns with the camera.
    const glm::ivec2 centre = scene.pixel(scene.green);
    auto pickPoint = [&]() -> glm::vec3 {
        const std::optional<Json> pick = app.pickAt(centre);
        if (!pick || !pick->contains("point") || !isFiniteVec3((*pick)["point"]) ||
            (*pick)["body"] != "green ball") {
            ADD_FAILURE() << "expected a pick of the green ball, got " << (pick ? pick->dump() : "nothing")
                          << app.diagnostics();
            return glm::vec3(NAN);
        }
        return jsonVec3((*pick)["point"]);
    };

    // A scenario's camera: no spin.
    const glm::vec3 a = pickPoint();
    sleepFor(700ms);
    const glm::vec3 b = pickPoint();
    EXPECT_EQ(a, b) << "the camera moved, but the scenario fixes the view";

    // R: spinning.
    std::size_t cursor = app.eventCount();
    app.key("r");
    const std::optional<Json> on = app.waitEvent("camera_spin", cursor);
    ASSERT_TRUE(on.has_value()) << "R logged no camera_spin" << app.diagnostics();
    EXPECT_EQ(on->value("on", false), true) << on->dump();
    const glm::vec3 c = pickPoint();
    sleepFor(700ms);
    const glm::vec3 d = pickPoint();
    EXPECT_GT(glm::length(d - c), 0.02f) << "the camera did not turn after R";

    // S: still again.
    cursor = app.eventCount();
    app.key("s");
    const std::optional<Json> off = app.waitEvent("camera_spin", cursor);
    ASSERT_TRUE(off.has_value()) << "S logged no camera_spin" << app.diagnostics();
    EXPECT_EQ(off->value("on", true), false) << off->dump();
    const glm::vec3 e = pickPoint();
    sleepFor(700ms);
    EXPECT_EQ(pickPoint(), e) << "the camera still turns after S";

    // Home: back to the scenario's view, where the first picks were.
    app.key("Home");
    ASSERT_TRUE(app.barrier());
    EXPECT_LT(glm::length(pickPoint() - a), 1e-4f) << "Home did not restore the scenario's view";
    app.quitWithEscape();
}

TEST(Interactive, ResetKeysLoadRandomAndDeterministic) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file));
    KZ_START_APP(app);

    // F: the random scenario, with its seed.
    std::size_t cursor = app.eventCount();
    app.key("f");
    const std::optional<Json> random = app.waitEvent("reset", cursor);
    ASSERT_TRUE(random.has_value()) << "F logged no reset" << app.diagnostics();
    EXPECT_EQ(random->value("scenario", ""), "random") << random->dump();
    EXPECT_TRUE(random->contains("seed") && (*random)["seed"].is_number_unsigned()) << random->dump();
    // The still scene is gone: its red ball is no longer where it was (nor anywhere).
    app.key("p");
    const std::optional<Json> pick = app.pickAt(scene.pixel(scene.red));
    ASSERT_TRUE(pick.has_value()) << app.diagnostics();
    EXPECT_NE(pick->value("body", Json()), Json("red ball")) << pick->dump();

    // D: the deterministic scenario (ball A red, ball B blue, on the x axis, fixed camera).
    cursor = app.eventCount();
    app.key("d");
    const std::optional<Json> fixed = app.waitEvent("reset", cursor);
    ASSERT_TRUE(fixed.has_value()) << "D logged no reset" << app.diagnostics();
    EXPECT_EQ(fixed->value("scenario", ""), "deterministic") << fixed->dump();
    EXPECT_TRUE(fixed->contains("seed") && (*fixed)["seed"].is_number_unsigned()) << fixed->dump();

    // Pause it where it is, find its two balls by colour in a screenshot, click each.
    cursor = app.eventCount();
    app.key("p");
    app.waitEvent("pause", cursor, 2s); // no pause event if the reset kept the world paused
    const Image image = app.screenshotKey();
    ASSERT_TRUE(image.valid());
    const Rect leftStrip{0, 0, 372, image.height - 1}; // the panel (8 to 368 px) and its blue widgets
    // Ball A is #d04040 (green and blue alike: not the orange of the impact preview's line).
    const auto red = centroidOf(
        image, [](const Rgb& c) { return dominant(c, 0, 60) && std::abs(c.g - c.b) < 30; }, leftStrip);
    const auto blue = centroidOf(
        image, [](const Rgb& c) { return dominant(c, 2, 60); }, leftStrip);
    ASSERT_GT(red.second, 50) << "ball A (#d04040) not found in the screenshot";
    ASSERT_GT(blue.second, 50) << "ball B (#4080d0) not found in the screenshot";
    const std::optional<Json> a = app.pickAt(pixelAt(red.first));
    ASSERT_TRUE(a.has_value()) << app.diagnostics();
    EXPECT_EQ(a->value("body", Json()), Json("ball A")) << a->dump();
    const std::optional<Json> b = app.pickAt(pixelAt(blue.first));
    ASSERT_TRUE(b.has_value()) << app.diagnostics();
    EXPECT_EQ(b->value("body", Json()), Json("ball B")) << b->dump();
    app.quitWithEscape();
}

TEST(Interactive, PickedBodyIsHighlightedInAScreenshot) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file));
    KZ_START_APP(app);

    std::string beforeFile, afterFile;
    app.moveTo(scene.empty()); // the pointer off every body (the last test may have left it on one)
    ASSERT_TRUE(app.barrier());
    const Image before = app.screenshotKey(&beforeFile);
    const std::optional<Json> pick = app.pickAt(scene.pixel(scene.red));
    ASSERT_TRUE(pick.has_value()) << app.diagnostics();
    expectBodyPick(*pick, "red ball", "sphere");
    app.moveTo(scene.empty()); // the pointer off the ball: no hover effect
    ASSERT_TRUE(app.barrier());
    const Image after = app.screenshotKey(&afterFile);
    ASSERT_TRUE(before.valid() && after.valid());
    EXPECT_NE(beforeFile, afterFile) << "two F12 presses wrote the same file";

    // Pixels changed in the ring around a ball's silhouette (an outline or glow), for the
    // picked red ball and not for the blue one.
    auto changedInRing = [&](const Image& one, const Image& two, const glm::vec3& centre, float radius) {
        const glm::vec2 c = project(scene.camera, centre);
        const float r = projectedRadius(scene.camera, centre, radius);
        int changed = 0, total = 0;
        for (int y = static_cast<int>(c.y - r - 12); y <= static_cast<int>(c.y + r + 12); ++y) {
            for (int x = static_cast<int>(c.x - r - 12); x <= static_cast<int>(c.x + r + 12); ++x) {
                const float d =
                    glm::length(glm::vec2(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f) - c);
                if (d < r - 6.0f || d > r + 10.0f || !one.inside(x, y)) continue;
                ++total;
                if (colourDistance(one.at(x, y), two.at(x, y)) > 24) ++changed;
            }
        }
        return std::pair<int, int>(changed, total);
    };
    const auto [redChanged, redTotal] = changedInRing(before, after, scene.red, scene.radius);
    const auto [blueChanged, blueTotal] = changedInRing(before, after, scene.blue, scene.radius);
    EXPECT_GT(redChanged, redTotal / 4)
        << "the picked ball's outline: " << redChanged << " of " << redTotal << " ring pixels changed";
    EXPECT_LT(blueChanged, blueTotal / 20)
        << "the other ball's outline changed: " << blueChanged << " of " << blueTotal;

    // A click on empty space clears the selection: the outline is gone again.
    const std::optional<Json> miss = app.pickAt(scene.empty());
    ASSERT_TRUE(miss.has_value()) << app.diagnostics();
    EXPECT_TRUE(miss->contains("body") && (*miss)["body"].is_null()) << miss->dump();
    ASSERT_TRUE(app.barrier());
    const Image cleared = app.screenshotKey();
    ASSERT_TRUE(cleared.valid());
    const auto [clearedChanged, clearedTotal] = changedInRing(before, cleared, scene.red, scene.radius);
    EXPECT_LT(clearedChanged, clearedTotal / 20)
        << "the red ball still looks picked after a click on empty space: " << clearedChanged << " of "
        << clearedTotal << " ring pixels differ from before the pick";
    app.quitWithEscape();
}

/// Pixels within `tolerance` of `colour` (each channel) in the part of the image at x >= minX.
int countNear(const Image& image, const Rgb& colour, int tolerance, int minX) {
    int n = 0;
    for (int y = 0; y < image.height; ++y) {
        for (int x = std::max(minX, 0); x < image.width; ++x)
            n += colourDistance(image.at(x, y), colour) <= tolerance ? 1 : 0;
    }
    return n;
}

TEST(Interactive, ClickingAnImpactRowPausesSelectsTheBodyAndDrawsTheImpact) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    // A magenta ball 1.01 m short of the wall x = 5 at 2 m/s hits it at 0.505 s, in step 61 of
    // 1/120 s; a green one rests.
    const Camera camera;
    const fs::path file = writeScenario(
        dir.path(), "impact", camera,
        Json::array({sphere("magenta ball", 0.5f, {3.49f, 0.0f, 0.0f}, "#ff00ff", {2.0f, 0.0f, 0.0f}),
                     sphere("green ball", 0.8f, {-2.0f, -1.0f, 0.0f}, "#28c040")}));
    App app(dir.path(), windowArgs(file));
    KZ_START_APP(app);

    // The impact's line in the event log.
    std::size_t cursor = 0;
    const std::optional<Json> impact = app.waitEvent("impact", cursor);
    ASSERT_TRUE(impact.has_value()) << "no impact event" << app.diagnostics();
    EXPECT_EQ(impact->value("body", ""), "magenta ball") << impact->dump();
    EXPECT_EQ(impact->value("partner_kind", ""), "wall") << impact->dump();
    EXPECT_NEAR(impact->value("speed_before", 0.0), -2.0, 1e-4) << impact->dump();
    EXPECT_NEAR(impact->value("speed_after", 0.0), 2.0, 1e-4) << impact->dump();
    EXPECT_EQ(impact->value("step", 0), 61) << impact->dump();

    // Its row, found by the square of the ball's colour at the row's start, in the panel (scrolled
    // down with the wheel until it shows).
    const Rgb magenta{255, 0, 255};
    const Rect panel{0, 0, static_cast<int>(kPanelRight) - 1, kHeight - 1};
    std::optional<glm::ivec2> row;
    Image before;
    for (int attempt = 0; attempt < 8 && !row; ++attempt) {
        before = app.screenshotKey();
        ASSERT_TRUE(before.valid());
        const auto [centre, count] = centroidOf(
            before, [&](const Rgb& c) { return colourDistance(c, magenta) <= 8; },
            Rect{static_cast<int>(kPanelRight), 0, kWidth, kHeight});
        if (count >= 20 && panel.contains(static_cast<int>(centre.x), static_cast<int>(centre.y))) {
            row = pixelAt(centre);
            break;
        }
        app.moveTo({180, 120});
        xdo("click --repeat 5 --delay 30 5"); // the wheel, down
        ASSERT_TRUE(app.barrier());
    }
    ASSERT_TRUE(row.has_value()) << "no magenta square of the impact's row in the panel" << app.diagnostics();
    const Rgb partnerColour{255, 77, 217}; // kImpactPartnerColor: the wall's polygon
    const int partnerBefore = countNear(before, partnerColour, 30, static_cast<int>(kPanelRight));

    // The click: the world pauses, the row's impact is the one logged.
    cursor = app.eventCount();
    app.clickAt(*row);
    const std::optional<Json> jump = app.waitEvent("jump_to_impact", cursor);
    ASSERT_TRUE(jump.has_value()) << "the click on the row logged no jump_to_impact" << app.diagnostics();
    EXPECT_EQ(jump->value("body", ""), "magenta ball") << jump->dump();
    EXPECT_EQ(jump->value("step", 0), impact->value("step", -1)) << jump->dump();
    EXPECT_EQ(jump->value("partner", ""), impact->value("partner", "?")) << jump->dump();
    const std::vector<Json> pauses = app.eventsNamed("pause");
    ASSERT_FALSE(pauses.empty()) << "the jump did not pause the world" << app.diagnostics();
    EXPECT_LE(pauses.back().value("frame", 1u << 30), jump->value("frame", 0u));
    EXPECT_TRUE(app.eventsNamed("pick", 0).empty()) << "the click on the panel picked through it";
    // The timeline went back to the impact's step: the world on screen is the one right after it.
    const std::vector<Json> seeks = app.eventsNamed("seek");
    ASSERT_FALSE(seeks.empty()) << "the jump did not move the timeline" << app.diagnostics();
    EXPECT_EQ(seeks.back().value("tick", 0), impact->value("step", -1)) << seeks.back().dump();

    // The picture: the wall's polygon in the partner's colour, over the scene.
    const glm::ivec2 empty{kWidth - 80, 70}; // only the room is there
    app.moveTo(empty);                       // off the panel and the bodies
    ASSERT_TRUE(app.barrier());
    const Image shown = app.screenshotKey();
    ASSERT_TRUE(shown.valid());
    const int partnerAfter = countNear(shown, partnerColour, 30, static_cast<int>(kPanelRight));
    EXPECT_GT(partnerAfter, partnerBefore + 150)
        << "the wall's polygon is not drawn: " << partnerBefore << " then " << partnerAfter << " pixels";

    // The ball is selected: a click on empty space clears its yellow outline, which changes the ring
    // around it (it stays put: the world is paused).
    const auto ball = centroidOf(
        shown, [](const Rgb& c) { return c.r > 120 && c.b > 120 && c.g < 60; },
        Rect{0, 0, static_cast<int>(kPanelRight), kHeight});
    ASSERT_GT(ball.second, 30) << "the magenta ball is not in the picture";
    const std::optional<Json> miss = app.pickAt(empty);
    ASSERT_TRUE(miss.has_value()) << app.diagnostics();
    ASSERT_TRUE(app.barrier());
    const Image cleared = app.screenshotKey();
    ASSERT_TRUE(cleared.valid());
    const float r = std::sqrt(static_cast<float>(ball.second) / 3.14159f);
    int changed = 0, total = 0;
    for (int y = static_cast<int>(ball.first.y - r - 12); y <= static_cast<int>(ball.first.y + r + 12); ++y) {
        for (int x = static_cast<int>(ball.first.x - r - 12); x <= static_cast<int>(ball.first.x + r + 12);
             ++x) {
            const float d = glm::length(
                glm::vec2(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f) - ball.first);
            if (d < r - 4.0f || d > r + 8.0f || !shown.inside(x, y)) continue;
            ++total;
            if (colourDistance(shown.at(x, y), cleared.at(x, y)) > 24) ++changed;
        }
    }
    EXPECT_GT(changed, total / 5) << "no selection outline around the ball: " << changed << " of " << total;
    app.quitWithEscape();
}

TEST(Interactive, DefaultViewSpinsUnlessNoSpin) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    // No camera in the scenario: the default view circles the room's centre, where a big ball
    // sits, so a click at the window's centre always meets it, at a point that turns with the view.
    const fs::path file = writeScenario(dir.path(), "no-camera", std::nullopt,
                                        Json::array({sphere("centre ball", 1.5f, {0, 0, 0}, "#28c040")}));
    const glm::ivec2 centre = pixelAt(startFree().centre()); // the room's centre, framed beside the panel
    auto twoPicks = [&](App& app) -> std::pair<glm::vec3, glm::vec3> {
        glm::vec3 points[2];
        for (int i = 0; i < 2; ++i) {
            if (i == 1) sleepFor(700ms);
            const std::optional<Json> pick = app.pickAt(centre);
            if (!pick || pick->value("body", Json()) != Json("centre ball") ||
                !isFiniteVec3((*pick)["point"])) {
                ADD_FAILURE() << "expected a pick of the centre ball, got "
                              << (pick ? pick->dump() : "nothing") << app.diagnostics();
                return {glm::vec3(0.0f), glm::vec3(0.0f)};
            }
            points[i] = jsonVec3((*pick)["point"]);
        }
        return {points[0], points[1]};
    };
    {
        App app(dir.path(), windowArgs(file));
        KZ_START_APP(app);
        const auto [a, b] = twoPicks(app);
        EXPECT_GT(glm::length(b - a), 0.02f) << "the default view does not spin";
        app.quitWithEscape();
    }
    {
        App app(dir.path(), windowArgs(file, {"--no-spin"}));
        KZ_START_APP(app);
        const auto [a, b] = twoPicks(app);
        EXPECT_EQ(a, b) << "the view spins under --no-spin";
        app.quitWithEscape();
    }
}

/// A drag: pressed at `start`, the pointer moved 75 px up in small steps, held still, released.
/// Returns the press's pick event (none: the button is let go at once).
std::optional<Json> pullUpAndHold(App& app, glm::ivec2 start, std::size_t& cursor) {
    app.moveTo(start);
    sleepFor(150ms);
    app.press();
    std::optional<Json> pick = app.waitEvent("pick", cursor);
    if (pick) {
        for (int i = 1; i <= 15; ++i) {
            app.moveTo(start - glm::ivec2(0, 5 * i));
            sleepFor(30ms);
        }
        sleepFor(600ms);
    }
    app.release();
    return pick;
}

TEST(Interactive, DragMovesThePickedBodyAndLogsStartAndEnd) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file));
    KZ_START_APP(app);

    // Press on the red ball, move the pointer 75 px up in small steps, hold still, release.
    const glm::ivec2 start = scene.pixel(scene.red);
    const glm::ivec2 end = start - glm::ivec2(0, 75);
    std::size_t cursor = app.eventCount();
    const std::optional<Json> pick = pullUpAndHold(app, start, cursor);
    ASSERT_TRUE(pick.has_value()) << "the press logged no pick" << app.diagnostics();
    EXPECT_EQ(pick->value("body", Json()), Json("red ball")) << pick->dump();
    const std::optional<Json> dragStart = app.waitEvent("drag_start", cursor);
    ASSERT_TRUE(dragStart.has_value()) << "no drag_start" << app.diagnostics();
    EXPECT_EQ(dragStart->value("body", Json()), Json("red ball")) << dragStart->dump();
    const std::optional<Json> dragEnd = app.waitEvent("drag_end", cursor);
    ASSERT_TRUE(dragEnd.has_value()) << "no drag_end after drag_start" << app.diagnostics();
    EXPECT_EQ(dragEnd->value("body", Json()), Json("red ball")) << dragEnd->dump();

    // The ball followed the pointer (and, released while still, stays there).
    sleepFor(300ms);
    const std::optional<Json> there = app.pickAt(end);
    ASSERT_TRUE(there.has_value()) << app.diagnostics();
    EXPECT_EQ(there->value("body", Json()), Json("red ball"))
        << "where the ball was dragged to: " << there->dump();
    const std::optional<Json> before = app.pickAt(start);
    ASSERT_TRUE(before.has_value()) << app.diagnostics();
    EXPECT_NE(before->value("body", Json()), Json("red ball")) << "where the ball was: " << before->dump();
    EXPECT_TRUE(app.eventsNamed("drag_start", cursor).empty()) << "clicks without motion started a drag";
    app.quitWithEscape();
}

/// The built-in lamp-arch scenario as the app loads it: its camera, and its world (the lamp-like
/// arch is obstacle 0), to aim clicks at the mesh and to know what a click there must pick.
struct LampArch {
    Camera camera;
    std::optional<kz::World> world;

    LampArch() {
        const kz::ScenarioResult resolved = kz::resolveScenario("lamp-arch");
        EXPECT_TRUE(resolved.scenario.has_value()) << resolved.error;
        if (!resolved.scenario || !resolved.scenario->camera) return;
        camera = {resolved.scenario->camera->eye, resolved.scenario->camera->target,
                  resolved.scenario->camera->fovDeg};
        kz::InstantiateResult made = kz::instantiate(*resolved.scenario);
        EXPECT_TRUE(made.world.has_value()) << made.error;
        world = std::move(made.world);
    }
    bool valid() const { return world && world->obstacles().size() == 1; }
    const kz::Obstacle& lamp() const { return world->obstacles()[0]; }
    glm::ivec2 pixel(const glm::vec3& p) const { return pixelAt(project(camera, p)); }
    /// What a click on `pixel` must pick in the scenario's first frame (nothing moves: --paused).
    std::optional<kz::PickHit> expectedPick(glm::ivec2 pixel) const {
        const auto [origin, dir] = pixelRay(camera, pixel);
        return kz::pickNearest(*world, kz::Ray{origin, dir});
    }
};

/// A pick event that hit the lamp (obstacle 0): its keys, a triangle of the mesh, barycentrics
/// inside it that put the hit point on that triangle, and the point the test's own ray meets.
void expectLampPick(const Json& pick, const LampArch& scene, const kz::PickHit& expected) {
    const kz::Obstacle& lamp = scene.lamp();
    EXPECT_TRUE(pick.contains("body") && pick["body"].is_null()) << pick.dump();
    EXPECT_EQ(pick.value("obstacle", ""), lamp.name) << pick.dump();
    EXPECT_EQ(pick.value("obstacle_index", Json()), Json(0)) << pick.dump();
    EXPECT_EQ(pick.value("shape", ""), "mesh") << pick.dump();
    EXPECT_EQ(pick.value("mesh", ""), lamp.mesh->source) << pick.dump();
    ASSERT_TRUE(pick.contains("triangle") && pick["triangle"].is_number_unsigned()) << pick.dump();
    const auto triangle = pick["triangle"].get<std::uint64_t>();
    ASSERT_LT(triangle, lamp.mesh->triangleCount()) << pick.dump();
    ASSERT_TRUE(pick.contains("u") && pick["u"].is_number() && pick.contains("v") && pick["v"].is_number())
        << pick.dump();
    const float u = pick["u"].get<float>();
    const float v = pick["v"].get<float>();
    EXPECT_GE(u, 0.0f) << pick.dump();
    EXPECT_LE(u, 1.0f) << pick.dump();
    EXPECT_GE(v, 0.0f) << pick.dump();
    EXPECT_LE(v, 1.0f) << pick.dump();
    EXPECT_LE(u + v, 1.0f + 1e-6f) << pick.dump();
    ASSERT_TRUE(pick.contains("t") && pick["t"].is_number() && pick["t"].get<double>() > 0.0) << pick.dump();
    ASSERT_TRUE(pick.contains("point") && isFiniteVec3(pick["point"])) << pick.dump();
    ASSERT_TRUE(pick.contains("normal") && isFiniteVec3(pick["normal"])) << pick.dump();
    const glm::vec3 point = jsonVec3(pick["point"]);
    const glm::vec3 normal = jsonVec3(pick["normal"]);
    EXPECT_NEAR(glm::length(normal), 1.0f, 1e-3f) << pick.dump();
    EXPECT_GT(glm::dot(normal, scene.camera.eye - point), 0.0f)
        << "the normal faces the camera: " << pick.dump();
    // (1 - u - v) a + u b + v c is the hit point: the triangle and barycentrics belong together.
    const kz::Triangle tri = lamp.worldTriangle(static_cast<std::uint32_t>(triangle));
    const glm::vec3 fromBarycentrics = (1.0f - u - v) * tri.a + u * tri.b + v * tri.c;
    EXPECT_LT(glm::length(fromBarycentrics - point), 2e-3f) << pick.dump();
    EXPECT_LT(glm::length(expected.hit.point - point), 0.02f)
        << "the test's own ray through that pixel meets the lamp at " << expected.hit.point.x << ", "
        << expected.hit.point.y << ", " << expected.hit.point.z << ": " << pick.dump();
}

TEST(Interactive, ClickOnTheLampPicksItsTriangleAndThroughItsArchPicksNoLamp) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const LampArch scene;
    ASSERT_TRUE(scene.valid());

    // The lamp stands on the floor at (-0.5, -5, 0), scaled 1.5: its base's top is at y = -4.85,
    // its post rises at x = -0.5, and a ball flies along z through the arch's opening at
    // (0.325, -3.5, z). The red ball starts at z = -4 (paused: it stays there), off that line.
    struct Target {
        const char* name;
        glm::vec3 point;
    };
    const Target onLamp[] = {{"base", {-0.5f, -4.84f, 0.45f}}, {"neck", {-0.5f, -3.0f, 0.0f}}};
    const glm::ivec2 opening = scene.pixel({0.325f, -3.5f, 0.0f});
    for (const Target& target : onLamp) {
        const std::optional<kz::PickHit> expected = scene.expectedPick(scene.pixel(target.point));
        ASSERT_TRUE(expected.has_value() && expected->obstacle == 0)
            << "the test's ray through the lamp's " << target.name << " misses it";
        ASSERT_GT(scene.pixel(target.point).x, 420) << "behind the panel";
    }
    ASSERT_FALSE(scene.expectedPick(opening).has_value())
        << "the ray through the arch's opening meets something (only the room must be behind it)";
    ASSERT_GT(opening.x, 420) << "behind the panel";

    const fs::path report = dir.path() / "report.json";
    App app(dir.path(), windowArgs("lamp-arch", {"--paused", "--report", report.string()}));
    KZ_START_APP(app);
    for (const Target& target : onLamp) {
        SCOPED_TRACE(target.name);
        const glm::ivec2 p = scene.pixel(target.point);
        const std::optional<Json> pick = app.pickAt(p);
        ASSERT_TRUE(pick.has_value()) << "no pick event" << app.diagnostics();
        expectLampPick(*pick, scene, *scene.expectedPick(p));
        EXPECT_TRUE(app.eventsNamed("drag_start").empty()) << "a mesh started a drag" << app.diagnostics();
    }

    // Through the opening: only the room behind it, so the click picks nothing (and clears the
    // lamp's selection), whatever a bounding box of the lamp would say.
    const std::optional<Json> through = app.pickAt(opening);
    ASSERT_TRUE(through.has_value()) << "no pick event" << app.diagnostics();
    EXPECT_TRUE(through->contains("body") && (*through)["body"].is_null()) << through->dump();
    EXPECT_FALSE(through->contains("obstacle")) << through->dump();
    const auto [origin, dir3] = pixelRay(scene.camera, opening);
    EXPECT_TRUE(kz::raycast(kz::Ray{origin, dir3}, scene.lamp().bounds).has_value())
        << "the opening's ray misses the lamp's bounding box: this click tests nothing a box test would fail";

    // The BVH boxes (V, then ] for deeper levels, [ back up) of the selected lamp change the
    // picture right of the panel; nothing moves meanwhile (paused, fixed camera).
    ASSERT_TRUE(app.pickAt(scene.pixel(onLamp[0].point)).has_value());
    app.moveTo({kWidth - 80, 70}); // off the lamp
    ASSERT_TRUE(app.barrier());
    const Image plain = app.screenshotKey();
    app.key("v");
    ASSERT_TRUE(app.barrier());
    const Image root = app.screenshotKey();
    app.key("bracketright bracketright bracketright");
    ASSERT_TRUE(app.barrier());
    const Image deeper = app.screenshotKey();
    app.key("bracketleft bracketleft bracketleft");
    ASSERT_TRUE(app.barrier());
    const Image back = app.screenshotKey();
    ASSERT_TRUE(plain.valid() && root.valid() && deeper.valid() && back.valid());
    auto changed = [](const Image& a, const Image& b) {
        int n = 0;
        for (int y = 0; y < a.height; ++y) {
            for (int x = 420; x < a.width; ++x)
                n += colourDistance(a.at(x, y), b.at(x, y)) > 24 ? 1 : 0;
        }
        return n;
    };
    const int rootChanged = changed(plain, root);
    EXPECT_GT(rootChanged, 150) << "V drew no BVH boxes";
    EXPECT_GT(changed(plain, deeper), rootChanged + 150) << "] drew no deeper levels";
    EXPECT_LT(changed(root, back), 20) << "[ did not go back to the root";

    app.quitWithEscape();
    // The --report counts the lamp and its triangles.
    const Json written = Json::parse(readText(report), nullptr, false);
    ASSERT_TRUE(written.is_object()) << readText(report);
    EXPECT_EQ(written.value("obstacles", Json()), Json(1)) << written.dump();
    EXPECT_EQ(written.value("obstacle_triangles", Json()), Json::array({scene.lamp().mesh->triangleCount()}))
        << written.dump();
}

/// The rectangle of the green ball's pixels (#28c040, lit or in its shade) at or right of `fromX`:
/// its silhouette's extent.
Rect greenSilhouette(const Image& image, int fromX) {
    Rect r{image.width, image.height, -1, -1};
    for (int y = 0; y < image.height; ++y) {
        for (int x = fromX; x < image.width; ++x) {
            const Rgb c = image.at(x, y);
            if (c.g < c.r + 12 || c.g < c.b + 12) continue;
            r = {std::min(r.x0, x), std::min(r.y0, y), std::max(r.x1, x), std::max(r.y1, y)};
        }
    }
    return r;
}

/// The centre of a silhouette's rectangle, in window coordinates (pixel centres at +0.5).
glm::vec2 centreOf(const Rect& r) {
    return {0.5f * static_cast<float>(r.x0 + r.x1 + 1), 0.5f * static_cast<float>(r.y0 + r.y1 + 1)};
}

TEST(Interactive, TheViewIsFramedBesideThePanelAndClicksStillPickWhatIsUnderThem) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    // A camera on the room's centre, where a green ball sits; a red ball up and to the right.
    const Camera camera{{0.0f, 4.0f, 16.0f}, {0.0f, 0.0f, 0.0f}, 45.0f};
    const glm::vec3 red(2.5f, 1.5f, 1.0f);
    const fs::path file = writeScenario(dir.path(), "framed", camera,
                                        Json::array({sphere("centre ball", 1.2f, {0, 0, 0}, "#28c040"),
                                                     sphere("red ball", 0.8f, red, "#e02828")}));
    App app(dir.path(), windowArgs(file, {"--paused"}));
    KZ_START_APP(app);

    // The app frames the view right of the panel where it opens: the free area it logs.
    ASSERT_TRUE(app.barrier());
    const std::optional<FreeArea> free = app.lastFreeArea();
    ASSERT_TRUE(free.has_value()) << "no view event" << app.diagnostics();
    EXPECT_EQ(free->x0, kPanelRight);
    EXPECT_EQ(free->y0, 0.0f);
    EXPECT_EQ(free->x1, static_cast<float>(kWidth));
    EXPECT_EQ(free->y1, static_cast<float>(kHeight));

    // The room's centre (the green ball on it) shows at the free area's centre, not the window's.
    app.moveTo({kWidth - 20, 20}); // off every body: no hover
    ASSERT_TRUE(app.barrier());
    const Image shown = app.screenshotKey();
    ASSERT_TRUE(shown.valid());
    const Rect ball = greenSilhouette(shown, static_cast<int>(kPanelRight) + 4);
    ASSERT_GT(ball.width(), 40) << "the centre ball's silhouette " << str(ball);
    const glm::vec2 green = centreOf(ball);
    EXPECT_NEAR(green.x, free->centre().x, 1.5f) << "the room's centre, framed right of the panel";
    EXPECT_NEAR(green.y, free->centre().y, 1.5f);
    EXPECT_GT(green.x, static_cast<float>(kWidth) / 2.0f + 150.0f) << "not the window's centre";

    // Clicks pick what is under them in the framed view: the red ball, then the centre ball.
    const std::optional<Json> onRed = app.pickAt(pixelAt(project(camera, red, *free)));
    ASSERT_TRUE(onRed.has_value()) << app.diagnostics();
    expectBodyPick(*onRed, "red ball", "sphere");
    if (onRed->contains("point") && isFiniteVec3((*onRed)["point"])) {
        EXPECT_NEAR(glm::length(jsonVec3((*onRed)["point"]) - red), 0.8f, 0.01f) << onRed->dump();
        EXPECT_GT(glm::dot(jsonVec3((*onRed)["normal"]), glm::normalize(camera.eye - red)), 0.99f)
            << "not the point facing the camera at the ball's projected centre: " << onRed->dump();
    }
    // At the free area's centre the click's ray passes through the room's centre: it meets the ball
    // where its normal faces the camera (within a pixel: 0.9995).
    const std::optional<Json> onCentre = app.pickAt(pixelAt(free->centre()));
    ASSERT_TRUE(onCentre.has_value()) << app.diagnostics();
    expectBodyPick(*onCentre, "centre ball", "sphere");
    if (onCentre->contains("normal") && isFiniteVec3((*onCentre)["normal"])) {
        EXPECT_GT(glm::dot(jsonVec3((*onCentre)["normal"]), glm::normalize(camera.eye)), 0.9995f)
            << onCentre->dump();
    }
    const std::optional<Json> clear = app.pickAt({kWidth - 20, 20});
    ASSERT_TRUE(clear.has_value() && (*clear)["body"].is_null())
        << "a click on empty space" << app.diagnostics();

    // Tab hides the panel: the view is framed in the whole window, the room's centre at its centre,
    // and a click there still picks the centre ball.
    app.key("Tab");
    ASSERT_TRUE(app.barrier());
    ASSERT_TRUE(app.barrier());
    const std::optional<FreeArea> whole = app.lastFreeArea();
    ASSERT_TRUE(whole.has_value());
    EXPECT_EQ(whole->x0, 0.0f) << "the panel is hidden: the whole window";
    EXPECT_EQ(whole->x1, static_cast<float>(kWidth));
    const Image hidden = app.screenshotKey();
    ASSERT_TRUE(hidden.valid());
    const glm::vec2 centred = centreOf(greenSilhouette(hidden, 0));
    EXPECT_NEAR(centred.x, static_cast<float>(kWidth) / 2.0f, 1.5f);
    EXPECT_NEAR(centred.y, static_cast<float>(kHeight) / 2.0f, 1.5f);
    const std::optional<Json> atCentre = app.pickAt({kWidth / 2, kHeight / 2});
    ASSERT_TRUE(atCentre.has_value()) << app.diagnostics();
    expectBodyPick(*atCentre, "centre ball", "sphere");
    const std::optional<Json> onRedAgain = app.pickAt(pixelAt(
        project(camera, red, FreeArea{0.0f, 0.0f, static_cast<float>(kWidth), static_cast<float>(kHeight)})));
    ASSERT_TRUE(onRedAgain.has_value()) << app.diagnostics();
    expectBodyPick(*onRedAgain, "red ball", "sphere");
    app.quitWithEscape();
}

/// How many pixels right of the panel are darker in `shadowed` than in `plain` by more than 15%, and
/// how many are brighter by more than 4 levels.
std::pair<int, int> darkenedAndBrightened(const Image& plain, const Image& shadowed) {
    int darker = 0, brighter = 0;
    for (int y = 0; y < plain.height; ++y) {
        for (int x = static_cast<int>(kPanelRight) + 4; x < plain.width; ++x) {
            const Rgb a = plain.at(x, y);
            const Rgb b = shadowed.at(x, y);
            const int sa = a.r + a.g + a.b, sb = b.r + b.g + b.b;
            if (sb * 100 < sa * 85) ++darker;
            if (sb > sa + 4) ++brighter;
        }
    }
    return {darker, brighter};
}

TEST(Interactive, LSwitchesShadowsAndNoShadowsStartsWithoutThem) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    // A ball floating 2 m above the floor, seen from above the room's front: its shadow on the floor.
    const Camera camera{{0.0f, 5.0f, 14.0f}, {0.0f, -3.0f, 0.0f}, 45.0f};
    const fs::path file =
        writeScenario(dir.path(), "floating", camera,
                      Json::array({sphere("floating ball", 1.0f, {0.5f, -2.0f, 0.0f}, "#2850e0")}));
    Image withShadows, withoutShadows;
    {
        App app(dir.path(), windowArgs(file, {"--paused"}));
        KZ_START_APP(app);
        app.moveTo({kWidth - 20, 20});
        ASSERT_TRUE(app.barrier());
        withShadows = app.screenshotKey();
        std::size_t cursor = app.eventCount();
        app.key("l");
        const std::optional<Json> off = app.waitEvent("shadows", cursor);
        ASSERT_TRUE(off.has_value()) << "L logged no shadows event" << app.diagnostics();
        EXPECT_EQ(off->value("on", true), false) << off->dump();
        ASSERT_TRUE(app.barrier());
        withoutShadows = app.screenshotKey();
        app.key("l");
        const std::optional<Json> on = app.waitEvent("shadows", cursor);
        ASSERT_TRUE(on.has_value()) << "L logged no second shadows event" << app.diagnostics();
        EXPECT_EQ(on->value("on", false), true) << on->dump();
        ASSERT_TRUE(app.barrier());
        const Image again = app.screenshotKey();
        ASSERT_TRUE(withShadows.valid() && withoutShadows.valid() && again.valid());
        const auto [darker, brighter] = darkenedAndBrightened(withoutShadows, withShadows);
        EXPECT_GT(darker, 150) << "the ball's shadow on the floor";
        EXPECT_EQ(brighter, 0) << "shadows only darken";
        EXPECT_EQ(darkenedAndBrightened(withShadows, again), std::make_pair(0, 0)) << "L twice: as before";
        app.quitWithEscape();
    }
    {
        // --no-shadows (and 4x multisampling asked for): the picture without shadows; the report says so.
        const fs::path report = dir.path() / "report.json";
        App app(dir.path(),
                windowArgs(file, {"--paused", "--no-shadows", "--msaa", "4", "--frames", "30", "--screenshot",
                                  "no-shadows.png", "--report", report.string()}));
        ASSERT_TRUE(app.started());
        ASSERT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
        const Image image = loadPng(dir.path() / "no-shadows.png");
        ASSERT_TRUE(image.valid()) << app.diagnostics();
        const auto [darker, brighter] = darkenedAndBrightened(image, withShadows);
        EXPECT_GT(darker, 150) << "--no-shadows drew the ball's shadow";
        const Json written = Json::parse(readText(report), nullptr, false);
        ASSERT_TRUE(written.is_object()) << readText(report);
        EXPECT_EQ(written.value("shadows", Json()), Json(false)) << written.dump();
        ASSERT_TRUE(written.contains("msaa_samples") && written["msaa_samples"].is_number_integer())
            << written.dump();
        const int samples = written["msaa_samples"].get<int>();
        EXPECT_TRUE(samples == 0 || (samples >= 2 && samples <= 4)) << "4 asked for: " << written.dump();
    }
}

TEST(Interactive, EscapeQuitsWithExitCode0AndFramesEndsTheRun) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    {
        App app(dir.path(), windowArgs(scene.file));
        KZ_START_APP(app);
        app.quitWithEscape();
        const std::vector<Json> quits = app.eventsNamed("quit");
        EXPECT_EQ(quits.size(), 1u);
    }
    {
        // --frames N: the app exits by itself with code 0 after N frames.
        App app(dir.path(), windowArgs(scene.file, {"--frames", "40"}));
        ASSERT_TRUE(app.started());
        EXPECT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
    }
    {
        // --events -: the log on stdout, one JSON object per line, ending with the quit.
        App app(dir.path(), windowArgs(scene.file, {"--frames", "20", "--events", "-"}), false);
        ASSERT_TRUE(app.started());
        EXPECT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
        std::istringstream lines(readText(dir.path() / "stdout.txt"));
        std::string line, last;
        while (std::getline(lines, line)) {
            const Json event = Json::parse(line, nullptr, false);
            EXPECT_TRUE(event.is_object()) << "not an event: " << line;
            last = line;
        }
        const Json quit = Json::parse(last, nullptr, false);
        EXPECT_TRUE(quit.is_object() && quit.value("event", "") == "quit") << "last line: " << last;
    }
}

// ------------------------------------------------------------------------------ the pace

/// A world too heavy for one thread on any machine: 3,000 bodies stepped at 2,000 Hz (each step
/// about 0.6 ms here: the physics alone needs about 1.2 s for each simulated second).
fs::path writeHeavyScenario(const fs::path& dir) {
    const Json scenario = {{"name", "heavy"},
                           {"size", {16, 16, 16}},
                           {"time_step", 0.0005},
                           {"restitution", 1},
                           {"friction", 0},
                           {"random",
                            {{"count", 3000},
                             {"seed", 3},
                             {"speed", {1, 4}},
                             {"sphere_radius", {0.1, 0.2}},
                             {"box_half", {0.1, 0.2}},
                             {"box_fraction", 0.5}}}};
    const fs::path path = dir / "heavy.json";
    writeText(path, scenario.dump(2));
    return path;
}

TEST(Interactive, APhysicsTooHeavyForOneThreadSaysItIsBehindUntilPausedAndTheReportCountsIt) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const fs::path heavy = writeHeavyScenario(dir.path());
    {
        App app(dir.path(), windowArgs(heavy, {"--threads", "1", "--no-shadows", "--report",
                                               (dir.path() / "report.json").string()}));
        KZ_START_APP(app);
        std::size_t cursor = 0;
        const std::optional<Json> behind = app.waitEvent("pace", cursor, 40s);
        ASSERT_TRUE(behind.has_value()) << "no pace event" << app.diagnostics();
        EXPECT_EQ(behind->value("behind", false), true) << behind->dump();
        EXPECT_EQ(behind->value("threads", 0), 1) << behind->dump();
        EXPECT_EQ(behind->value("asked", 0.0), 1.0) << behind->dump();
        EXPECT_LT(behind->value("time_scale", 1.0), 0.9) << behind->dump();
        EXPECT_GT(behind->value("physics_load", 0.0), 0.5) << behind->dump();
        // Paused, the world is not meant to move: the warning ends.
        app.key("p");
        const std::optional<Json> paused = app.waitEvent("pace", cursor, 40s);
        ASSERT_TRUE(paused.has_value()) << "no pace event after P" << app.diagnostics();
        EXPECT_EQ(paused->value("behind", true), false) << paused->dump();
        EXPECT_FALSE(app.eventsNamed("pause").empty()) << app.diagnostics();
        app.quitWithEscape();
    }
    const Json report = Json::parse(readText(dir.path() / "report.json"), nullptr, false);
    ASSERT_TRUE(report.is_object());
    EXPECT_EQ(report.value("threads", 0), 1);
    EXPECT_GT(report.value("physics_behind_frames", 0), 0);
    EXPECT_EQ(report.value("effective_time_scale", -1.0), 0.0) << "paused at the end";
}

TEST(Interactive, ALightWorldOnTwoThreadsKeepsPaceAndSaysNothing) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    App app(dir.path(), windowArgs(scene.file, {"--threads", "2", "--frames", "60", "--report",
                                                (dir.path() / "report.json").string()}));
    ASSERT_TRUE(app.started());
    EXPECT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
    EXPECT_TRUE(app.eventsNamed("pace").empty()) << app.diagnostics();
    const Json report = Json::parse(readText(dir.path() / "report.json"), nullptr, false);
    ASSERT_TRUE(report.is_object());
    EXPECT_EQ(report.value("threads", 0), 2);
    EXPECT_EQ(report.value("physics_behind_frames", -1), 0);
    EXPECT_GT(report.value("effective_time_scale", 0.0), 0.5);
}

// ------------------------------------------------------------------------------ record and replay

/// A slider's grab on the panel: the bounding box of a run of its colour (Dear ImGui's dark style
/// draws it opaque: SliderGrab, rgb(61, 133, 224)).
std::vector<Rect> sliderGrabs(const Image& image, int panelRight = 372) {
    const Rgb grab{61, 133, 224};
    std::vector<Rect> rows;
    for (int y = 0; y < image.height; ++y) {
        int x0 = -1, x1 = -1;
        for (int x = 0; x < std::min(panelRight, image.width); ++x) {
            if (colourDistance(image.at(x, y), grab) > 8) continue;
            if (x0 < 0) x0 = x;
            x1 = x;
        }
        if (x0 < 0) continue;
        // A grab is a few pixels tall: rows that touch the last one's extend it.
        if (!rows.empty() && rows.back().y1 >= y - 1 && std::abs(rows.back().x0 - x0) <= 2) {
            rows.back().y1 = y;
            rows.back().x1 = std::max(rows.back().x1, x1);
        } else {
            rows.push_back({x0, y, x1, y});
        }
    }
    // Only grabs: at least 4 pixels each way (not a stray pixel of the same blue).
    std::erase_if(rows, [](const Rect& r) { return r.width() < 4 || r.height() < 4; });
    return rows;
}

/// Every line of a text file.
std::vector<std::string> linesOf(const fs::path& file) {
    std::vector<std::string> lines;
    std::istringstream in(readText(file));
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

/// A throw: pressed at `from` (on a body), pulled up `steps` times by `stepPx` pixels, then yanked
/// 200 px left (about 4 m: at the drag's top speed, several steps' travel) and let go at once, while
/// the body still chases the cursor: it keeps that velocity. False when the press picked nothing.
bool yankLeftAndLetGo(App& app, glm::ivec2 from, int steps, int stepPx) {
    std::size_t cursor = app.eventCount();
    app.moveTo(from);
    sleepFor(150ms);
    app.press();
    if (!app.waitEvent("pick", cursor)) return false;
    for (int i = 1; i <= steps; ++i) {
        app.moveTo(from - glm::ivec2(0, stepPx * i));
        sleepFor(25ms);
    }
    app.moveTo(from - glm::ivec2(200, stepPx * steps));
    sleepFor(20ms);
    app.release();
    return true;
}

/// A recording's last `velocity` input (a drag's release: the throw): its line, body and velocity.
struct VelocityInput {
    std::string line;
    int body = -1;
    glm::vec3 velocity{0.0f};
};

VelocityInput lastVelocityInput(const std::vector<std::string>& lines) {
    VelocityInput last;
    for (const std::string& line : lines) {
        if (line.rfind("velocity ", 0) == 0) last.line = line;
    }
    std::istringstream thrown(last.line);
    std::string word;
    std::uint64_t tick = 0;
    thrown >> word >> tick >> last.body >> last.velocity.x >> last.velocity.y >> last.velocity.z;
    return last;
}

/// `kolize --headless --replay FILE --report -`: its report, and its exit code in `code`.
Json headlessReplay(const fs::path& recording, int& code) {
    const std::string out = shell("env -u DISPLAY timeout 60 " KOLIZE_EXE " --headless --replay '" +
                                      recording.string() + "' --report - 2>&1",
                                  &code);
    const Json report = Json::parse(out, nullptr, false);
    EXPECT_TRUE(report.is_object()) << "not a report: " << out;
    return report;
}

TEST(Interactive, ARecordedSessionReplaysHeadlessAndInTheWindowToTheQuitEventsStateHash) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const StillScene scene(dir.path());
    const fs::path recording = dir.path() / "session.kzr";
    Json quit;
    {
        App app(dir.path(),
                windowArgs(scene.file, {"--record", recording.string(), "--report", "report.json"}));
        KZ_START_APP(app);

        // A drag and a throw: the red ball pressed, pulled up a little, yanked left and let go.
        std::size_t cursor = app.eventCount();
        ASSERT_TRUE(yankLeftAndLetGo(app, scene.pixel(scene.red), 5, 6)) << app.diagnostics();
        ASSERT_TRUE(app.waitEvent("drag_start", cursor)) << app.diagnostics();
        ASSERT_TRUE(app.waitEvent("drag_end", cursor)) << app.diagnostics();
        sleepFor(300ms); // the thrown ball flies on

        // F: the random scenario (restitution 1: its slider's grab sits at the right end).
        app.key("f");
        const std::optional<Json> reset = app.waitEvent("reset", cursor);
        ASSERT_TRUE(reset) << app.diagnostics();
        EXPECT_EQ(reset->value("scenario", ""), "random");

        // The restitution slider, by its grab: the panel's grabs from the top are the time scale's,
        // restitution's (at 1: the right end of its track), friction's and rolling resistance's (at
        // 0: the left end), then the timeline's scrubber and the camera's speed. A click half way
        // along the sliders sets it to about 0.5.
        std::vector<Rect> grabs = sliderGrabs(app.screenshotKey());
        ASSERT_GE(grabs.size(), 4u) << "the panel's slider grabs not found" << app.diagnostics();
        std::sort(grabs.begin(), grabs.end(), [](const Rect& a, const Rect& b) { return a.y0 < b.y0; });
        const auto rightmost = grabs.begin() + 1;
        const auto leftmost = std::min_element(grabs.begin(), grabs.begin() + 4,
                                               [](const Rect& a, const Rect& b) { return a.x0 < b.x0; });
        ASSERT_GT(rightmost->x0, grabs[2].x1) << "restitution (1) is right of friction (0)";
        const glm::ivec2 half((leftmost->x0 + rightmost->x1) / 2, (rightmost->y0 + rightmost->y1) / 2);
        app.clickAt(half);
        ASSERT_TRUE(app.barrier());
        // The grab moved there.
        bool moved = false;
        for (const Rect& grab : sliderGrabs(app.screenshotKey())) {
            if (grab.y0 <= half.y && grab.y1 >= half.y)
                moved = std::abs((grab.x0 + grab.x1) / 2 - half.x) <= 6;
        }
        EXPECT_TRUE(moved) << "the restitution slider's grab is not where it was clicked (" << half.x << ", "
                           << half.y << ")";

        // P, then three single steps.
        app.key("p");
        ASSERT_TRUE(app.waitEvent("pause", cursor)) << app.diagnostics();
        for (int i = 0; i < 3; ++i) {
            app.key("n");
            ASSERT_TRUE(app.waitEvent("step", cursor)) << app.diagnostics();
        }
        app.quitWithEscape();
        const std::vector<Json> quits = app.eventsNamed("quit");
        ASSERT_EQ(quits.size(), 1u);
        quit = quits.front();
    }
    ASSERT_TRUE(quit.contains("state_hash") && quit["state_hash"].is_string()) << quit.dump();
    ASSERT_TRUE(quit.contains("tick") && quit["tick"].is_number_unsigned()) << quit.dump();
    const std::string hash = quit["state_hash"];
    EXPECT_EQ(hash.size(), 16u);
    const Json windowReport = Json::parse(readText(dir.path() / "report.json"), nullptr, false);
    EXPECT_EQ(windowReport.value("state_hash", ""), hash) << "the window's --report";

    // The recording holds all of it, and ends where the window did.
    const std::vector<std::string> lines = linesOf(recording);
    ASSERT_FALSE(lines.empty()) << "no recording written";
    EXPECT_EQ(lines.front(), "kolize-recording 1");
    std::map<std::string, int> kinds;
    std::string materialLine;
    for (const std::string& line : lines) {
        const std::string kind = line.substr(0, line.find(' '));
        ++kinds[kind];
        if (kind == "material") materialLine = line;
    }
    // The throw: the last velocity the drag gave, kept after the release.
    const VelocityInput thrown = lastVelocityInput(lines);
    EXPECT_EQ(thrown.body, 0) << thrown.line;
    EXPECT_GT(glm::length(thrown.velocity), 1.0f) << "no throw: the ball was let go at rest: " << thrown.line;
    EXPECT_EQ(kinds["load"], 2) << "the start and F";
    EXPECT_GE(kinds["velocity"], 1) << "the drag";
    EXPECT_GE(kinds["material"], 1) << "the restitution";
    EXPECT_GE(kinds["pause"], 1);
    EXPECT_EQ(kinds["step"], 3);
    if (!materialLine.empty()) {
        std::istringstream fields(materialLine.substr(materialLine.find(' ') + 1));
        std::uint64_t tick = 0;
        float restitution = 0.0f;
        fields >> tick >> restitution;
        EXPECT_GT(restitution, 0.2f) << materialLine;
        EXPECT_LT(restitution, 0.8f) << materialLine;
    }
    EXPECT_EQ(lines.back(), "end " + std::to_string(quit["tick"].get<std::uint64_t>()) + " " + hash);

    // Replayed without a window, twice: the quit event's state hash each time.
    for (int run = 0; run < 2; ++run) {
        SCOPED_TRACE("headless replay " + std::to_string(run + 1));
        int code = -1;
        const Json report = headlessReplay(recording, code);
        EXPECT_EQ(code, 0) << report.dump();
        EXPECT_EQ(report.value("state_hash", ""), hash);
        EXPECT_EQ(report.value("steps", std::uint64_t{0}), quit["tick"].get<std::uint64_t>());
    }

    // Replayed in the window: F (a reset) is ignored while it plays; it ends in the recorded
    // state, paused, and quits with the same hash.
    {
        App app(dir.path(), {"--replay", recording.string(), "--size",
                             std::to_string(kWidth) + "x" + std::to_string(kHeight), "--no-vsync"});
        KZ_START_APP(app);
        std::size_t cursor = 0;
        app.key("f");
        const std::optional<Json> end = app.waitEvent("replay_end", cursor, 90s);
        ASSERT_TRUE(end) << "the replay did not end" << app.diagnostics();
        EXPECT_EQ(end->value("matches", false), true) << end->dump();
        EXPECT_EQ(end->value("state_hash", ""), hash) << end->dump();
        EXPECT_EQ(end->value("tick", Json()), quit["tick"]) << end->dump();
        EXPECT_TRUE(app.eventsNamed("reset").empty())
            << "F reset the world during the replay" << app.diagnostics();
        sleepFor(300ms); // paused at the end: nothing moves
        app.quitWithEscape();
        const std::vector<Json> quits = app.eventsNamed("quit");
        ASSERT_EQ(quits.size(), 1u);
        EXPECT_EQ(quits.front().value("state_hash", ""), hash);
    }
}

TEST(Interactive, DraggingACapsuleMovesItAndLettingItGoWhileMovingThrowsIt) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const Camera camera;
    // A capsule lying along x (radius 0.6, segment from x = -1 to 1) at the room's centre.
    const Json capsule = {{"name", "red capsule"}, {"shape", "capsule"},    {"radius", 0.6},
                          {"half_height", 1.0},    {"position", {0, 0, 0}}, {"euler_deg", {0, 0, 90}},
                          {"color", "#e02828"}};
    const fs::path file = writeScenario(dir.path(), "capsule", camera, Json::array({capsule}));
    const fs::path recording = dir.path() / "session.kzr";
    {
        App app(dir.path(), windowArgs(file, {"--record", recording.string()}));
        KZ_START_APP(app);

        // A drag: pressed on its side, pulled 75 px up in small steps, held still, let go.
        const glm::ivec2 start = pixelAt(project(camera, glm::vec3(0.0f)));
        const glm::ivec2 end = start - glm::ivec2(0, 75);
        std::size_t cursor = app.eventCount();
        const std::optional<Json> pick = pullUpAndHold(app, start, cursor);
        ASSERT_TRUE(pick.has_value()) << "the press logged no pick" << app.diagnostics();
        expectBodyPick(*pick, "red capsule", "capsule");
        const std::optional<Json> dragStart = app.waitEvent("drag_start", cursor);
        ASSERT_TRUE(dragStart.has_value()) << "no drag_start" << app.diagnostics();
        EXPECT_EQ(dragStart->value("body", Json()), Json("red capsule")) << dragStart->dump();
        ASSERT_TRUE(app.waitEvent("drag_end", cursor)) << app.diagnostics();
        sleepFor(300ms);
        const std::optional<Json> there = app.pickAt(end);
        ASSERT_TRUE(there.has_value()) << app.diagnostics();
        EXPECT_EQ(there->value("body", Json()), Json("red capsule"))
            << "where the capsule was dragged to: " << there->dump();
        const std::optional<Json> before = app.pickAt(start + glm::ivec2(0, 20));
        ASSERT_TRUE(before.has_value()) << app.diagnostics();
        EXPECT_TRUE((*before)["body"].is_null()) << "where the capsule was: " << before->dump();

        // A throw: pressed again, yanked left and let go while it still chases the cursor.
        cursor = app.eventCount();
        ASSERT_TRUE(yankLeftAndLetGo(app, end, 3, 4)) << app.diagnostics();
        ASSERT_TRUE(app.waitEvent("drag_end", cursor)) << app.diagnostics();
        sleepFor(300ms);
        app.quitWithEscape();
    }
    // The recording's last velocity is the throw's: the capsule keeps it, to the left (-x).
    const VelocityInput thrown = lastVelocityInput(linesOf(recording));
    EXPECT_EQ(thrown.body, 0) << thrown.line;
    EXPECT_GT(glm::length(thrown.velocity), 1.0f)
        << "no throw: the capsule was let go at rest: " << thrown.line;
    EXPECT_LT(thrown.velocity.x, -0.7f * glm::length(thrown.velocity))
        << "thrown to the left: " << thrown.line;
}

TEST(Interactive, ACorruptedReplayIsOneLineBeforeAnyWindow) {
    TempDir dir;
    const fs::path bad = dir.path() / "bad.kzr";
    writeText(bad, "kolize-recording 1\nload 0 0 1 0.008333334\nend 0 0123456789abcdef\n");
    int status = 0;
    const std::string out = shell("cd '" + dir.path().string() +
                                      "' && timeout 20 " KOLIZE_EXE " --replay bad.kzr "
                                      "--frames 5 2>stderr.txt >stdout.txt; echo $?",
                                  &status);
    EXPECT_EQ(std::atoi(out.c_str()), 2);
    const std::string err = readText(dir.path() / "stderr.txt");
    EXPECT_EQ(err, "kolize: bad.kzr:2: scenario 0 is not embedded above (0 are)\n");
}

// ------------------------------------------------------------------------------ the query lab

TEST(Interactive, DraggingBoxAIntoBoxBInTheLabTurnsItsEventToOverlapAndTheBoxesRed) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    App app(dir.path(), {"--lab", "box-box", "--size", std::to_string(kWidth) + "x" + std::to_string(kHeight),
                         "--no-vsync"});
    KZ_START_APP(app);
    std::size_t cursor = 0;
    const std::optional<Json> start = app.waitEvent("lab", cursor);
    ASSERT_TRUE(start.has_value()) << "the lab logged no verdict" << app.diagnostics();
    EXPECT_EQ(start->value("query", ""), "box-box") << start->dump();
    EXPECT_EQ(start->value("overlap", Json()), Json(false)) << start->dump();
    EXPECT_GT(start->value("separation", 0.0), 0.0) << start->dump();

    // Where the boxes show: the lab's own camera, whatever the scenario's.
    const kz::LabScene scene = kz::makeLabScene(kz::LabQuery::BoxBox);
    const Camera camera{kz::kLabEye, kz::kLabTarget, kz::kLabFovDeg};
    const glm::ivec2 a = pixelAt(project(camera, scene.shapes[0].position));
    const glm::ivec2 b = pixelAt(project(camera, scene.shapes[1].position));
    const glm::ivec2 belowLabel(0, 22); // each box's name is written at its centre
    const Image apart = app.screenshotKey();
    ASSERT_TRUE(apart.valid());
    const Rgb green = meanAround(apart, a.x + belowLabel.x, a.y + belowLabel.y);
    EXPECT_TRUE(dominant(green, 1, 15)) << "box A apart should be tinted green: " << str(green);

    // Press on A, move to B in small steps, release.
    app.moveTo(a);
    sleepFor(150ms);
    app.press();
    for (int i = 1; i <= 12; ++i) {
        app.moveTo(a + (b - a) * i / 12);
        sleepFor(30ms);
    }
    sleepFor(200ms);
    app.release();
    const std::optional<Json> overlap = app.waitEvent("lab", cursor);
    ASSERT_TRUE(overlap.has_value()) << "dragging A into B logged no new verdict" << app.diagnostics();
    EXPECT_EQ(overlap->value("query", ""), "box-box") << overlap->dump();
    EXPECT_EQ(overlap->value("overlap", Json()), Json(true)) << overlap->dump();
    EXPECT_GT(overlap->value("depth", 0.0), 0.0) << overlap->dump();
    EXPECT_FALSE(overlap->contains("separation")) << overlap->dump();

    const Image touching = app.screenshotKey();
    ASSERT_TRUE(touching.valid());
    const Rgb red = meanAround(touching, b.x + belowLabel.x, b.y + belowLabel.y);
    EXPECT_TRUE(dominant(red, 0, 30)) << "the overlapping boxes should be tinted red: " << str(red);
    app.quitWithEscape();
}

TEST(Interactive, DraggingTheShapeCastsEndHandleAboveTheBoxTurnsItsHitToAMiss) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    App app(dir.path(), {"--lab", "shape-cast", "--size",
                         std::to_string(kWidth) + "x" + std::to_string(kHeight), "--no-vsync"});
    KZ_START_APP(app);
    std::size_t cursor = 0;
    const std::optional<Json> start = app.waitEvent("lab", cursor);
    ASSERT_TRUE(start.has_value()) << "the lab logged no verdict" << app.diagnostics();
    EXPECT_EQ(start->value("query", ""), "shape-cast") << start->dump();
    EXPECT_EQ(start->value("hit", Json()), Json(true)) << start->dump();
    EXPECT_GT(start->value("t", 0.0), 0.0) << start->dump();
    EXPECT_LT(start->value("t", 1.0), 1.0) << start->dump();

    // Drag the end handle (A's centre at t = 1) well above the box: A's path now passes over it.
    const kz::LabScene scene = kz::makeLabScene(kz::LabQuery::ShapeCast);
    const Camera camera{kz::kLabEye, kz::kLabTarget, kz::kLabFovDeg};
    const glm::vec3 end = scene.handles[0].position;
    const glm::ivec2 from = pixelAt(project(camera, end));
    const glm::ivec2 to = pixelAt(project(camera, end + glm::vec3(0.0f, 2.7f, 0.0f)));
    app.moveTo(from);
    sleepFor(150ms);
    app.press();
    for (int i = 1; i <= 12; ++i) {
        app.moveTo(from + (to - from) * i / 12);
        sleepFor(30ms);
    }
    sleepFor(200ms);
    app.release();
    std::optional<Json> miss;
    while (const std::optional<Json> event = app.waitEvent("lab", cursor)) {
        if (event->value("hit", Json()) == Json(false)) {
            miss = event;
            break;
        }
    }
    ASSERT_TRUE(miss.has_value()) << "dragging the end above the box logged no miss" << app.diagnostics();
    EXPECT_EQ(miss->value("query", ""), "shape-cast") << miss->dump();
    EXPECT_FALSE(miss->contains("t")) << miss->dump();
    app.quitWithEscape();
}

TEST(Interactive, TheLabsBoxBoxScreenshotShowsTheSeparatingAxisInItsColour) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    App app(dir.path(), {"--lab", "box-box", "--frames", "30", "--screenshot", "lab.png", "--no-vsync"},
            false);
    ASSERT_TRUE(app.started());
    ASSERT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
    const Image image = loadPng(dir.path() / "lab.png");
    ASSERT_TRUE(image.valid()) << app.diagnostics();
    const glm::vec3 violet = kz::kLabSatAxisColor * 255.0f;
    const auto axisPixels = centroidOf(image, [&](const Rgb& c) {
        return std::abs(float(c.r) - violet.r) < 40.0f && std::abs(float(c.g) - violet.g) < 40.0f &&
               std::abs(float(c.b) - violet.b) < 40.0f;
    });
    EXPECT_GE(axisPixels.second, 40) << "pixels in the SAT axis's colour" << app.diagnostics();
    // Right of the panel (360 px wide), where the boxes are.
    EXPECT_GT(axisPixels.first.x, 370.0f);
}

/// The median of each channel over the (2k+1)^2 pixels around (x, y): a wall's colour under its
/// grid lines and a few wires.
Rgb medianAround(const Image& image, int x, int y, int k = 4) {
    std::vector<int> channels[3];
    for (int dy = -k; dy <= k; ++dy) {
        for (int dx = -k; dx <= k; ++dx) {
            if (!image.inside(x + dx, y + dy)) continue;
            const Rgb c = image.at(x + dx, y + dy);
            channels[0].push_back(c.r);
            channels[1].push_back(c.g);
            channels[2].push_back(c.b);
        }
    }
    int median[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        if (channels[i].empty()) continue;
        auto middle = channels[i].begin() + std::ptrdiff_t(channels[i].size() / 2);
        std::nth_element(channels[i].begin(), middle, channels[i].end());
        median[i] = *middle;
    }
    return {median[0], median[1], median[2]};
}

TEST(Interactive, TheLabsGjkScreenshotShowsTheMinkowskiDifferenceAsATranslucentHull) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    App app(dir.path(),
            {"--lab", "gjk", "--size", std::to_string(kWidth) + "x" + std::to_string(kHeight), "--frames",
             "30", "--screenshot", "lab.png", "--no-vsync"},
            false);
    ASSERT_TRUE(app.started());
    ASSERT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
    const Image image = loadPng(dir.path() / "lab.png");
    ASSERT_TRUE(image.valid()) << app.diagnostics();

    // The difference's hull as the lab draws it, and where it lands with the lab's camera.
    const kz::LabScene scene = kz::makeLabScene(kz::LabQuery::Gjk);
    kz::LabCanvas canvas;
    canvas.eye = kz::kLabEye;
    kz::drawLabConstruction(scene, kz::runLabQuery(scene), canvas);
    ASSERT_EQ(canvas.surfaces.size(), 1u);
    const Camera camera{kz::kLabEye, kz::kLabTarget, kz::kLabFovDeg};
    glm::vec3 centre(0.0f);
    float right = 0.0f;
    for (const glm::vec3& p : canvas.surfaces[0].positions) {
        centre += p / float(canvas.surfaces[0].positions.size());
        right = std::max(right, project(camera, p).x);
    }
    const glm::ivec2 inside = pixelAt(project(camera, centre));
    ASSERT_GT(inside.x, 370) << "right of the panel";
    // Through the hull the wall behind it shows, tinted toward the hull's lavender: brighter and
    // bluer than the same wall just beside the hull.
    const Rgb hull = medianAround(image, inside.x, inside.y);
    const Rgb wall = medianAround(image, int(right) + 25, inside.y);
    EXPECT_GT(colourDistance(hull, wall), 20) << str(hull) << " " << str(wall);
    EXPECT_GT(hull.b - hull.r, wall.b - wall.r + 5) << str(hull) << " " << str(wall);
    EXPECT_LT(hull.r + hull.g + hull.b, 3 * 200) << "not white: " << str(hull);
}

// ------------------------------------------------------------------------------ the timeline

/// The timeline's `seek` events from `cursor` on, waiting for `count` of them.
std::vector<Json> seeks(App& app, std::size_t& cursor, int count) {
    std::vector<Json> out;
    for (int i = 0; i < count; ++i) {
        const std::optional<Json> seek = app.waitEvent("seek", cursor);
        if (!seek) break;
        out.push_back(*seek);
    }
    return out;
}

TEST(Interactive, CommaAndPeriodStepTheTimelineAndPlayOnAPastStepDropsTheLaterOnesAsTheRecordingDoes) {
    KZ_REQUIRE_DISPLAY_OR_SKIP();
    DisplayLock lock;
    TempDir dir;
    const fs::path recording = dir.path() / "timeline.kzr";
    Json quit;
    {
        App app(dir.path(), {"--scenario", "two-balls", "--size", "1280x720", "--no-vsync", "--record",
                             recording.string()});
        KZ_START_APP(app);
        sleepFor(1500ms); // a second or so of steps kept
        std::size_t cursor = app.eventCount();

        // `,` pauses and shows the step before; three of them go three steps back.
        app.key("comma comma comma");
        std::vector<Json> back = seeks(app, cursor, 3);
        ASSERT_EQ(back.size(), 3u) << app.diagnostics();
        const std::uint64_t end = back[0].at("tick").get<std::uint64_t>() + 1; // the session's own step
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ(back[std::size_t(i)].at("tick").get<std::uint64_t>(), end - 1 - std::uint64_t(i));
            EXPECT_FALSE(back[std::size_t(i)].at("live").get<bool>());
        }
        EXPECT_FALSE(app.eventsNamed("pause").empty()) << "stepping back pauses first";

        // `.` three times: back to the session's own step, whose state is the one left.
        app.key("period period period");
        std::vector<Json> forward = seeks(app, cursor, 3);
        ASSERT_EQ(forward.size(), 3u) << app.diagnostics();
        EXPECT_EQ(forward[2].at("tick").get<std::uint64_t>(), end);
        EXPECT_TRUE(forward[2].at("live").get<bool>());
        // Landing on a step from its keyframe gives the bits the session had there: the step
        // before the end, reached back and then forward, is the same state both times.
        EXPECT_EQ(forward[1].at("state_hash"), back[0].at("state_hash"));
        EXPECT_EQ(forward[0].at("state_hash"), back[1].at("state_hash"));

        // Shift+, : ten back. Then O (resume) on that past step: the session goes on from it.
        app.key("shift+comma");
        back = seeks(app, cursor, 1);
        ASSERT_EQ(back.size(), 1u) << app.diagnostics();
        EXPECT_EQ(back[0].at("tick").get<std::uint64_t>(), end - 10);
        app.key("o");
        const std::optional<Json> rewind = app.waitEvent("rewind", cursor);
        ASSERT_TRUE(rewind) << "O on a past step logged no rewind" << app.diagnostics();
        EXPECT_EQ(rewind->at("tick").get<std::uint64_t>(), end - 10);
        EXPECT_EQ(rewind->at("state_hash"), back[0].at("state_hash"));
        sleepFor(500ms); // a new future

        std::size_t quitCursor = app.eventCount();
        app.key("Escape");
        const std::optional<Json> quitEvent = app.waitEvent("quit", quitCursor);
        ASSERT_TRUE(quitEvent) << app.diagnostics();
        quit = *quitEvent;
        EXPECT_EQ(app.waitExit(), std::optional<int>(0)) << app.diagnostics();
    }
    // The recording holds the session as it went on from the past step (the dropped steps and
    // their inputs are not in it): replayed headless, it ends in the quit event's state.
    int code = -1;
    const Json report = headlessReplay(recording, code);
    EXPECT_EQ(code, 0) << report.dump();
    EXPECT_EQ(report.value("state_hash", ""), quit.at("state_hash").get<std::string>());
    EXPECT_GT(quit.at("tick").get<std::uint64_t>(), 0u);
}

} // namespace
