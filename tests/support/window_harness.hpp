// Test support for the window tests (tests/app/test_interactive.cpp): the kolize binary driven as a
// user drives it, under a real X server with xdotool, and what the tests compute to check it.
// - environment: a display or a skip (KZ_REQUIRE_DISPLAY_OR_SKIP), one test at a time on it
//   (DisplayLock), a folder per test (TempDir), shell and xdotool commands;
// - scenarios: bodies and cameras as JSON, where a world point lands in the window (project);
// - images: PNG screenshots, colours, regions (Image, Rect, centroidOf, panelRect);
// - the app: one kolize process, its window, input, event log and screenshots (App).
// The harness's .cpp needs KOLIZE_EXE, the path of the built kolize binary.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <glm/glm.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace kz::wintest {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

inline constexpr auto kTimeout = 20s; // the longest any one wait may take: never hang
inline constexpr int kWidth = 1024; // the window of the interactive tests (--size), inside a 1280x720 screen
inline constexpr int kHeight = 576;

// ------------------------------------------------------------------------------ environment

/// A display to test on, or a skip (a failure when KZ_REQUIRE_DISPLAY is set, as in
/// scripts/test.sh). xdotool is part of the test environment (scripts/deps.sh).
bool haveDisplay();

#define KZ_REQUIRE_DISPLAY_OR_SKIP()                                                                         \
    if (!::kz::wintest::haveDisplay()) GTEST_SKIP() << "no display"

/// One test at a time on a display: an exclusive flock on a file named after $DISPLAY.
class DisplayLock {
public:
    DisplayLock();
    ~DisplayLock();
    DisplayLock(const DisplayLock&) = delete;
    DisplayLock& operator=(const DisplayLock&) = delete;

private:
    int fd_ = -1;
};

/// A fresh folder for one test; removed unless the test failed or KZ_KEEP_TEST_FILES is set (then
/// its path is printed: scenarios, event log, screenshots, the app's stdout and stderr).
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

/// Runs a shell command; its stdout, and its exit status in `status`.
std::string shell(const std::string& command, int* status = nullptr);

/// Runs xdotool with `args` (bounded by `seconds`); its output (stdout and stderr), and its
/// exit status in `status`. A connection to the X server that fails ("Can't open display",
/// seen now and then under a busy Xvfb) is retried: nothing was sent yet.
std::string xdo(const std::string& args, int* status = nullptr, int seconds = 10);

std::string readText(const fs::path& file);

void writeText(const fs::path& file, const std::string& text);

void sleepFor(std::chrono::milliseconds ms);

// ------------------------------------------------------------------------------ scenarios

Json vec3(const glm::vec3& v);

struct Camera {
    glm::vec3 eye{0.0f, 0.0f, 14.0f};
    glm::vec3 target{0.0f};
    float fovDeg = 45.0f;
};

Json sphere(const std::string& name, float radius, const glm::vec3& position, const std::string& color,
            const glm::vec3& velocity = glm::vec3(0.0f));

Json box(const std::string& name, const glm::vec3& half, const glm::vec3& position, const std::string& color);

/// A 10 m box room (walls at +-5), no gravity, elastic, the given fixed camera (none: the app's
/// default view, which circles the room's centre).
fs::path writeScenario(const fs::path& dir, const std::string& file, const std::optional<Camera>& camera,
                       const Json& bodies, float timeStep = 1.0f / 120.0f);

/// The part of the window the app frames its 3D view in, in window pixels: right of the panel
/// (which opens 8 px from the left edge, 360 px wide: ui.cpp's panelStartRect), full height; the
/// whole window with the panel hidden. The app logs it as its `view` event.
struct FreeArea {
    float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
    glm::vec2 centre() const { return {0.5f * (x0 + x1), 0.5f * (y0 + y1)}; }
};

inline constexpr float kPanelRight = 368.0f; // the panel's right edge where it opens

/// The free area of a window of the given size with the panel where it opens.
FreeArea startFree(int width = kWidth, int height = kHeight);

/// The app's framed view, formulated independently of it: GLM's perspective of the free area's
/// aspect ratio (its vertical field of view the camera's, or its horizontal one where the free area
/// is taller than wide), mapped by glm::project's viewport onto the free area.
struct Framed {
    glm::mat4 view;
    glm::mat4 proj;
    glm::vec4 viewport; ///< GL's: origin bottom-left.
    int height;
};

Framed framed(const Camera& camera, const FreeArea& free, int height);

/// Where a world point lands in the window: pixel coordinates, origin top-left, for the app's
/// view (lookAt with up +y) framed in the free area beside the panel.
glm::vec2 project(const Camera& camera, const glm::vec3& point, const FreeArea& free = startFree(),
                  int height = kHeight);

/// The window pixel that contains a point (its centre is at +0.5, as in kz::screenRay).
glm::ivec2 pixelAt(const glm::vec2& p);

/// The on-screen radius of a sphere (its silhouette, close enough off-axis for the tests' margins).
float projectedRadius(const Camera& camera, const glm::vec3& centre, float radius, int height = kHeight);

// ------------------------------------------------------------------------------ images

struct Rgb {
    int r = 0, g = 0, b = 0;
};

struct Image {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgb;

    bool valid() const { return width > 0 && height > 0; }
    Rgb at(int x, int y) const;
    bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
};

Image loadPng(const fs::path& file);

std::string str(const Rgb& c);

int colourDistance(const Rgb& a, const Rgb& b);

/// The mean colour of the (2k+1)^2 pixels around (x, y) (a lit sphere's shading and edges vary).
Rgb meanAround(const Image& image, int x, int y, int k = 2);

/// Hue dominance: channel `which` (0 r, 1 g, 2 b) exceeds both others by `margin`.
bool dominant(const Rgb& c, int which, int margin = 40);

struct Rect {
    int x0 = 0, y0 = 0, x1 = -1, y1 = -1; // inclusive
    bool empty() const { return x1 < x0 || y1 < y0; }
    bool contains(int x, int y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
    int width() const { return x1 - x0 + 1; }
    int height() const { return y1 - y0 + 1; }
};

std::string str(const Rect& r);

/// Centroid of the pixels a predicate accepts (outside `exclude`), with their count.
std::pair<glm::vec2, int> centroidOf(const Image& image, const std::function<bool(const Rgb&)>& accept,
                                     const Rect& exclude = {});

// ------------------------------------------------------------------------------ the app

/// How an App's settings start (XDG_CONFIG_HOME is `dir`/config for every App of a test).
enum class Settings {
    Returning, ///< A user who has dismissed the first run's card (written when there is no file).
    AsTheyAre, ///< The file as it is (none: a first run), for the settings' own tests.
};

/// The settings file of the Apps started in `dir`.
inline fs::path settingsPath(const fs::path& dir) {
    return dir / "config" / "kolize" / "settings.json";
}

/// One kolize process, started in its own folder (so F12's relative files land there), with its
/// event log, stdout and stderr in that folder too, and its settings under `dir`/config
/// (XDG_CONFIG_HOME), never the user's.
class App {
public:
    App(const fs::path& dir, std::vector<std::string> args, bool withEvents = true,
        Settings settings = Settings::Returning);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    bool started() const { return pid_ > 0; }
    const std::string& commandLine() const { return commandLine_; }
    const fs::path& dir() const { return dir_; }
    const std::string& window() const { return window_; }

    /// When the app could not connect to the X server at all (exit code 2, "no display", though
    /// DISPLAY is set), starts it again, at most twice: a connection to a busy Xvfb fails now and
    /// then for any client, the app's first one included. Returns whether it was restarted.
    bool restartIfTheDisplayFailed();

    /// Whether the process is still running (reaps it when it has exited).
    bool running();

    /// The exit code once it exits, or empty after `timeout` (the process is then killed).
    std::optional<int> waitExit(std::chrono::milliseconds timeout = kTimeout);

    std::string stderrText() const { return readText(dir_ / "stderr.txt"); }

    /// What to print when something fails: the command line and the app's stderr.
    std::string diagnostics() const;

    /// Waits for the app's visible top-level window titled exactly "Kolize" (the one of this
    /// process when the window carries _NET_WM_PID) and focuses it.
    bool findWindow();

    /// Keyboard focus to the app's window (no window manager under Xvfb: nothing else moves it).
    bool focus();

    /// The window's size as X sees it.
    glm::ivec2 windowSize() const;

    /// Presses keys (xdotool key names, e.g. "p", "space", "Escape", "F12") through XTEST, so
    /// they reach the focused window exactly like a keyboard's.
    void key(const std::string& keys);

    /// Moves the pointer to window pixel (x, y).
    void moveTo(glm::ivec2 p);

    /// The left button down or up, where the pointer is.
    void press() { xdo("mousedown 1"); }
    void release() { xdo("mouseup 1"); }

    /// Moves the pointer to (x, y), lets the app draw a few frames there (so it and ImGui know
    /// where the pointer is, as for a user), and clicks the left button.
    void clickAt(glm::ivec2 p);

    /// Every complete line of the event log so far, parsed (a line that is not JSON is a failure).
    std::vector<Json> events();

    std::size_t eventCount() { return events().size(); }

    /// The first event named `name` at index >= cursor; the cursor moves past it. Empty after
    /// the timeout, or as soon as the app has exited without logging it.
    std::optional<Json> waitEvent(const std::string& name, std::size_t& cursor,
                                  std::chrono::milliseconds timeout = kTimeout);

    /// Events named `name` at index >= from.
    std::vector<Json> eventsNamed(const std::string& name, std::size_t from = 0);

    /// The free area of the last `view` event: where the app frames its 3D view now.
    std::optional<FreeArea> lastFreeArea();

    /// Clicks at (x, y) and returns the pick event it logged (empty if none within the timeout).
    std::optional<Json> pickAt(glm::ivec2 p, std::chrono::milliseconds timeout = kTimeout);

    /// F12: a screenshot; returns the image it wrote (and the event's file name in `file`).
    Image screenshotKey(std::string* file = nullptr);

    /// A round trip through the app's event loop: everything sent before it has been handled
    /// once its event is logged (F12 is harmless: it only writes a file).
    bool barrier();

    /// ESC: the app logs "quit" and exits with code 0 (checked here); returns the exit code.
    std::optional<int> quitWithEscape();

private:
    /// Starts the process: its own folder, output to files, then the binary.
    void spawn();

    fs::path dir_;
    fs::path events_;
    std::vector<std::string> argv_;
    std::vector<std::string> env_; ///< The test's environment, XDG_CONFIG_HOME set to `dir`/config.
    std::string commandLine_;
    std::string window_;
    int attempts_ = 0;
    pid_t pid_ = -1;
    bool exited_ = false;
    int exitCode_ = -1;
    std::set<std::string> badLines_;
};

/// The flags every interactive test uses: the window size and no vsync (Xvfb, faster frames).
std::vector<std::string> windowArgs(const fs::path& scenario, std::vector<std::string> more = {});

#define KZ_START_APP(app)                                                                                    \
    ASSERT_TRUE((app).started());                                                                            \
    ASSERT_TRUE((app).findWindow()) << "no visible window titled 'Kolize' within 20 s" << (app).diagnostics()

glm::vec3 jsonVec3(const Json& j);

bool isFiniteVec3(const Json& j);

/// A pick event that hit a body: its keys and their types.
void expectBodyPick(const Json& pick, const std::string& body, const std::string& shape);

/// The scene most tests use: two still spheres and a still ball at the room's centre (the orbit
/// centre), right of the panel, under a fixed camera.
struct StillScene {
    Camera camera;
    glm::vec3 red{3.0f, 1.6f, 0.0f};
    glm::vec3 blue{3.0f, -2.0f, 0.0f};
    glm::vec3 green{0.0f, 0.0f, 0.0f};
    float radius = 1.0f;
    float greenRadius = 1.2f;
    fs::path file;

    explicit StillScene(const fs::path& dir);
    glm::ivec2 pixel(const glm::vec3& p) const { return pixelAt(project(camera, p)); }
    /// A point on screen whose ray meets only the room (beyond the right wall, top right).
    glm::ivec2 empty() const { return {kWidth - 80, 70}; }
};

/// The panel's rectangle: where the frame differs with the panel shown and hidden (Tab), in the
/// left half of the window; the two images are F12 screenshots of the same still frame.
Rect panelRect(const Image& shown, const Image& hidden);

/// The panel's background colour: the commonest colour inside its rectangle.
Rgb panelBackground(const Image& shown, const Rect& panel);

/// A point on the panel's plain background, away from every widget (a click there must not
/// press a button, toggle a header or drag a slider): the centre of a 15x15 block of the
/// panel's background colour, with x >= minX, nearest the panel's bottom right but clear of its
/// edges, scrollbar and resize grip.
std::optional<glm::ivec2> plainPanelPoint(const Image& shown, const Rect& panel, int minX);

/// The ray of a window pixel (through its centre) under a camera framed in `free`: origin at the eye.
std::pair<glm::vec3, glm::vec3> pixelRay(const Camera& camera, glm::ivec2 pixel,
                                         const FreeArea& free = startFree(), int height = kHeight);

} // namespace kz::wintest
