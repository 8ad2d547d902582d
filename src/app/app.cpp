#include "app/app.hpp"

#include "app/camera.hpp"
#include "app/events.hpp"
#include "app/json_text.hpp"
#include "app/render/renderer.hpp"
#include "app/ui.hpp"
#include "geom/screen_ray.hpp"
#include "physics/pick.hpp"
#include "scenario/scenario.hpp"

#include <SDL.h>
#include <algorithm>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <glad/gl.h>
#include <imgui.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

namespace kz {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kExitFailure = 1;
constexpr int kExitCannotStart = 2;

constexpr float kMaxFrameSeconds = 0.25f;    ///< A longer frame (a stall, a breakpoint) counts as this.
constexpr float kMaxDragSpeed = 50.0f;       ///< m/s: a dragged body never outruns this.
constexpr float kDragAngularDamping = 0.9f;  ///< Per frame, so a dragged body stops tumbling.
constexpr float kDragThresholdPixels = 3.0f; ///< A press that moves less than this is a click.
constexpr std::size_t kMaxTimingSamples = 1u << 21;

const char* const kRandomScenario = "random";
const char* const kFixedScenario = "deterministic";

float msBetween(Clock::time_point start, Clock::time_point end) {
    return std::chrono::duration<float, std::milli>(end - start).count();
}

bool drawsNowhere(const std::string& driver) {
    return driver == "offscreen" || driver == "dummy" || driver == "evdev" || driver.empty();
}

bool isSet(const char* variable) {
    const char* value = std::getenv(variable);
    return value != nullptr && *value != '\0';
}

/// The video drivers worth trying, comma-separated: never those that draw nowhere, x11 only with
/// DISPLAY set and wayland only with WAYLAND_DISPLAY set (its probe otherwise prints to stderr).
std::string displayDrivers() {
    std::string drivers;
    for (int i = 0; i < SDL_GetNumVideoDrivers(); ++i) {
        const std::string driver = SDL_GetVideoDriver(i);
        if (drawsNowhere(driver)) continue;
        if (driver == "x11" && !isSet("DISPLAY")) continue;
        if (driver == "wayland" && !isSet("WAYLAND_DISPLAY")) continue;
        drivers += (drivers.empty() ? "" : ",") + driver;
    }
    return drivers;
}

// ------------------------------------------------------------------ RAII for SDL, GL and ImGui

struct SdlVideo {
    SdlVideo() = default;
    SdlVideo(const SdlVideo&) = delete;
    SdlVideo& operator=(const SdlVideo&) = delete;
    ~SdlVideo() {
        if (initialised) SDL_Quit();
    }
    bool initialised = false;
};

struct WindowDeleter {
    void operator()(SDL_Window* window) const { SDL_DestroyWindow(window); }
};
using WindowPtr = std::unique_ptr<SDL_Window, WindowDeleter>;

struct GlContext {
    GlContext() = default;
    GlContext(const GlContext&) = delete;
    GlContext& operator=(const GlContext&) = delete;
    ~GlContext() {
        if (context != nullptr) SDL_GL_DeleteContext(context);
    }
    SDL_GLContext context = nullptr;
};

struct ImGuiSession {
    ImGuiSession() = default;
    ImGuiSession(const ImGuiSession&) = delete;
    ImGuiSession& operator=(const ImGuiSession&) = delete;
    ~ImGuiSession() {
        if (openGl) ImGui_ImplOpenGL3_Shutdown();
        if (sdl) ImGui_ImplSDL2_Shutdown();
        if (context != nullptr) ImGui::DestroyContext(context);
    }
    ImGuiContext* context = nullptr;
    bool sdl = false;
    bool openGl = false;
};

/// Per-frame CPU times for the --report.
struct FrameTimes {
    std::vector<float> frame, physics, picking, ui, draw;
    void add(float frameMs, float physicsMs, float pickingMs, float uiMs, float drawMs) {
        if (frame.size() >= kMaxTimingSamples) return;
        frame.push_back(frameMs);
        physics.push_back(physicsMs);
        picking.push_back(pickingMs);
        ui.push_back(uiMs);
        draw.push_back(drawMs);
    }
};

/// A left press waiting for this frame's ImGui state (does the panel want the mouse?).
struct MouseAction {
    bool press;    ///< Press, else release.
    glm::vec2 pos; ///< SDL window coordinates.
};

/// A left press that hit a body: a drag once the mouse moves far enough.
struct Drag {
    int body;
    glm::vec2 pressPos;   ///< SDL window coordinates of the press.
    glm::vec3 grabOffset; ///< Body centre minus the grabbed surface point.
    float depth;          ///< The grabbed point's distance along the camera's forward axis.
    bool active = false;  ///< Moved beyond the threshold: the body follows the mouse.
};

class App {
public:
    explicit App(const AppOptions& options) : options_(options) {}
    AppResult run();

private:
    AppResult start();
    AppResult openWindow();
    void loop();
    AppResult finish();

    // Scenarios.
    bool load(const std::string& key, std::optional<std::uint64_t> seed, std::string& error);
    void reset(const std::string& key, std::optional<std::uint64_t> seed);

    // Input.
    void pollEvents();
    void handleKey(SDL_Keycode key);
    void handleMouse(const MouseAction& action);
    void updateDrag(float frameSeconds);
    void updateHover();
    Ray rayAt(glm::vec2 windowPos) const;

    // Actions shared by keys and panel (each logs its event).
    void pause();
    void resume();
    void singleStep();
    void setSpin(bool on);
    void resetRandom();
    void resetFixed();
    void applyUi(const UiRequests& requests);

    void drawSelectedLabel() const;
    /// The BVH debug draw's deepest level, kept within the trees it draws.
    void changeBvhDepth(int delta);
    int bvhDepthLimit() const;
    bool takeScreenshot(const std::string& file, std::string& error);

    const AppOptions& options_;
    EventLog events_;
    std::ofstream reportFile_;

    // Declared in the order of creation: destroyed in reverse (renderer before its GL context).
    SdlVideo sdl_;
    WindowPtr window_;
    GlContext gl_;
    ImGuiSession imgui_;
    std::unique_ptr<render::Renderer> renderer_;

    // The simulation.
    std::optional<World> world_;
    std::string scenarioKey_;
    std::string scenarioTitle_;
    std::uint64_t seed_ = 0;
    OrbitCamera camera_;
    UiState ui_;
    std::mt19937_64 seedSource_{std::random_device{}()};

    // Picking and dragging. The selection is a body or an obstacle (or neither), never both.
    int selected_ = -1;           ///< Picked body, or -1.
    int selectedObstacle_ = -1;   ///< Picked obstacle, or -1.
    std::optional<PickHit> pick_; ///< The last click's hit on the selection.
    std::optional<Ray> pickRay_;
    int hovered_ = -1;         ///< The body under the cursor, or -1.
    int hoveredObstacle_ = -1; ///< The obstacle under the cursor, or -1.
    std::uint32_t hoveredTriangle_ = 0;
    std::optional<Drag> drag_;
    bool orbiting_ = false;
    bool panning_ = false;
    std::vector<MouseAction> mouseActions_;
    std::vector<SDL_Keycode> keys_;

    // The frame.
    std::uint64_t frame_ = 0;
    bool quit_ = false;
    bool screenshotRequested_ = false;
    glm::ivec2 windowSize_{1, 1};
    glm::ivec2 drawableSize_{1, 1};
    glm::mat4 view_{1.0f};
    glm::mat4 proj_{1.0f};
    float physicsMsPerStep_ = 0.0f;
    int stepsThisFrame_ = 0;
    FrameTimes times_;
    std::uint64_t framesDrawn_ = 0;
    double seconds_ = 0.0;
    AppResult failure_; ///< Set when the loop must stop with an error (a failed --screenshot).
};

// ------------------------------------------------------------------ start and shut down

AppResult App::run() {
    if (AppResult started = start(); started.exitCode != 0) return started;
    if (AppResult opened = openWindow(); opened.exitCode != 0) return opened;
    loop();
    return finish();
}

/// Everything that needs no display: the scenario and the output files.
AppResult App::start() {
    std::string error;
    if (!load(options_.scenario, options_.seed, error)) return {kExitCannotStart, error};
    camera_.setSpinning(options_.spin && !camera_.hasScenarioView());
    world_->setPaused(options_.paused);
    ui_.scenarioNames = builtinScenarioNames();

    if (!options_.events.empty() && !events_.open(options_.events, error)) return {kExitCannotStart, error};
    if (!options_.report.empty() && options_.report != "-") {
        reportFile_.open(options_.report, std::ios::out | std::ios::trunc);
        if (!reportFile_) {
            return {kExitCannotStart,
                    "--report: cannot write '" + options_.report + "': " + std::strerror(errno)};
        }
    }
    if (!options_.screenshot.empty()) {
        const std::filesystem::path parent = std::filesystem::path(options_.screenshot).parent_path();
        std::error_code ec;
        if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
            return {kExitCannotStart, "--screenshot: no such directory '" + parent.string() + "'"};
        }
    }
    return {};
}

AppResult App::openWindow() {
    const std::string useHeadless = " (use --headless to run without a window)";
    SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1");
    if (!isSet("SDL_VIDEODRIVER")) {
        const std::string drivers = displayDrivers();
        if (drivers.empty())
            return {kExitCannotStart, "no display: DISPLAY and WAYLAND_DISPLAY are not set" + useHeadless};
        SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers.c_str());
    }
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        const std::string why =
            !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY")
                ? "DISPLAY and WAYLAND_DISPLAY are not set (SDL: " + std::string(SDL_GetError()) + ")"
                : std::string(SDL_GetError());
        return {kExitCannotStart, "no display: " + why + useHeadless};
    }
    sdl_.initialised = true;
    // With no display SDL quietly falls back to drivers that draw nowhere.
    const std::string driver = SDL_GetCurrentVideoDriver() != nullptr ? SDL_GetCurrentVideoDriver() : "";
    if (drawsNowhere(driver)) {
        return {kExitCannotStart,
                "no display: SDL found only its '" + driver + "' video driver" + useHeadless};
    }

    // GL 3.3 core, as Dear ImGui's SDL2+OpenGL3 example asks for it.
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);

    const auto flags =
        static_cast<SDL_WindowFlags>(SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    window_.reset(SDL_CreateWindow("Kolize", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                   options_.windowSize.x, options_.windowSize.y, flags));
    if (!window_) return {kExitCannotStart, std::string("cannot open an OpenGL window: ") + SDL_GetError()};
    gl_.context = SDL_GL_CreateContext(window_.get());
    if (gl_.context == nullptr) {
        return {kExitCannotStart, std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError()};
    }
    SDL_GL_MakeCurrent(window_.get(), gl_.context);
    SDL_GL_SetSwapInterval(options_.vsync ? 1 : 0); // not every driver can; then it is simply off

    const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress));
    const int major = GLAD_VERSION_MAJOR(version);
    const int minor = GLAD_VERSION_MINOR(version);
    if (version == 0 || major * 10 + minor < 33) {
        return {kExitCannotStart, "cannot load OpenGL 3.3 core functions (the driver gives " +
                                      std::to_string(major) + "." + std::to_string(minor) + ")"};
    }

    std::string error;
    renderer_ = render::Renderer::create(render::shaderDirectory(), error);
    if (!renderer_) return {kExitFailure, error};

    IMGUI_CHECKVERSION();
    imgui_.context = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // the panel starts the same way every time; no imgui.ini in the cwd
    ImGui::StyleColorsDark();
    imgui_.sdl = ImGui_ImplSDL2_InitForOpenGL(window_.get(), gl_.context);
    imgui_.openGl = imgui_.sdl && ImGui_ImplOpenGL3_Init("#version 330 core");
    if (!imgui_.openGl) return {kExitFailure, "cannot start Dear ImGui's SDL2/OpenGL3 backends"};
    return {};
}

AppResult App::finish() {
    events_.simple(frame_, "quit");
    if (failure_.exitCode != 0) return failure_;
    if (options_.report.empty()) return {};

    nlohmann::ordered_json report;
    const std::uint64_t frames = framesDrawn_;
    report["frames"] = frames;
    report["seconds"] = seconds_;
    report["fps"] = seconds_ > 0.0 ? static_cast<double>(frames) / seconds_ : 0.0;
    // The samples are floats: their median is reported as one, written as its shortest decimal.
    const auto floatMedian = [](const std::vector<float>& ms) {
        return shortestDouble(static_cast<float>(median(ms)));
    };
    report["ms_per_frame_median"] = floatMedian(times_.frame);
    report["physics_ms_median"] = floatMedian(times_.physics);
    report["picking_ms_median"] = floatMedian(times_.picking);
    report["ui_ms_median"] = floatMedian(times_.ui);
    report["draw_ms_median"] = floatMedian(times_.draw);
    report["bodies"] = world_->bodies().size();
    report["obstacles"] = world_->obstacles().size();
    nlohmann::ordered_json triangles = nlohmann::ordered_json::array();
    for (const Obstacle& obstacle : world_->obstacles())
        triangles.push_back(obstacle.mesh ? obstacle.mesh->triangleCount() : 0);
    report["obstacle_triangles"] = std::move(triangles);
    report["scenario"] = scenarioTitle_;
    report["seed"] = seed_;

    std::ostream& out = options_.report == "-" ? std::cout : static_cast<std::ostream&>(reportFile_);
    out << jsonText(report, 2) << '\n';
    out.flush();
    if (!out) return {kExitFailure, "--report: cannot write '" + options_.report + "'"};
    return {};
}

// ------------------------------------------------------------------ the loop

void App::loop() {
    const Clock::time_point runStart = Clock::now();
    Clock::time_point last = runStart;
    view_ = camera_.viewMatrix();
    proj_ = camera_.projMatrix(static_cast<float>(options_.windowSize.x) /
                               static_cast<float>(options_.windowSize.y));

    while (true) {
        const Clock::time_point frameStart = Clock::now();
        const float frameSeconds =
            std::min(std::chrono::duration<float>(frameStart - last).count(), kMaxFrameSeconds);
        last = frameStart;

        pollEvents();
        if ((SDL_GetWindowFlags(window_.get()) & SDL_WINDOW_MINIMIZED) != 0) {
            if (quit_) break;
            // Nothing to draw into: let the world run on, but do not spin the CPU.
            world_->advance(frameSeconds);
            SDL_Delay(10);
            continue;
        }
        SDL_GetWindowSize(window_.get(), &windowSize_.x, &windowSize_.y);
        SDL_GL_GetDrawableSize(window_.get(), &drawableSize_.x, &drawableSize_.y);
        windowSize_ = glm::max(windowSize_, glm::ivec2(1));
        drawableSize_ = glm::max(drawableSize_, glm::ivec2(1));

        // A new ImGui frame first: its WantCapture flags then describe this frame's mouse position.
        const Clock::time_point uiStart = Clock::now();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplSDL2_NewFrame();
        ImGui::NewFrame();
        const ImGuiIO& io = ImGui::GetIO();
        float uiMs = msBetween(uiStart, Clock::now());

        // Keys (never while a widget takes the keyboard), then clicks against the picture on
        // screen: the last frame's camera and bodies.
        if (!io.WantCaptureKeyboard) {
            for (const SDL_Keycode key : keys_)
                handleKey(key);
        }
        keys_.clear();
        const Clock::time_point pickStart = Clock::now();
        for (const MouseAction& action : mouseActions_)
            handleMouse(action);
        mouseActions_.clear();
        updateDrag(frameSeconds);
        updateHover();
        const float pickingMs = msBetween(pickStart, Clock::now());

        // Fixed-step physics through the accumulator.
        camera_.setSpinSpeed(glm::radians(ui_.spinSpeedDegPerSecond));
        camera_.update(frameSeconds);
        const Clock::time_point physicsStart = Clock::now();
        stepsThisFrame_ = world_->advance(frameSeconds);
        const float physicsMs = msBetween(physicsStart, Clock::now());
        if (stepsThisFrame_ > 0) {
            const float perStep = physicsMs / static_cast<float>(stepsThisFrame_);
            physicsMsPerStep_ =
                physicsMsPerStep_ == 0.0f ? perStep : 0.9f * physicsMsPerStep_ + 0.1f * perStep;
        }

        view_ = camera_.viewMatrix();
        proj_ = camera_.projMatrix(static_cast<float>(drawableSize_.x) / static_cast<float>(drawableSize_.y));

        // The panel.
        const Clock::time_point uiBuildStart = Clock::now();
        UiFrameInfo info;
        info.world = &*world_;
        info.scenarioKey = scenarioKey_;
        info.scenarioTitle = scenarioTitle_;
        info.seed = seed_;
        info.spinning = camera_.spinning();
        info.selected = selected_;
        info.selectedObstacle = selectedObstacle_;
        info.pick = pick_;
        info.hovered = hovered_;
        info.hoveredObstacle = hoveredObstacle_;
        info.hoveredTriangle = hoveredTriangle_;
        info.bvhDepthLimit = bvhDepthLimit();
        info.fps = io.Framerate;
        info.frameMs = io.Framerate > 0.0f ? 1000.0f / io.Framerate : 0.0f;
        info.physicsMsPerStep = physicsMsPerStep_;
        info.stepsThisFrame = stepsThisFrame_;
        applyUi(drawUi(ui_, info));
        drawSelectedLabel();
        ImGui::Render();
        uiMs += msBetween(uiBuildStart, Clock::now());

        // Draw.
        const Clock::time_point drawStart = Clock::now();
        glViewport(0, 0, drawableSize_.x, drawableSize_.y);
        render::SceneView sceneView;
        sceneView.view = view_;
        sceneView.proj = proj_;
        sceneView.eye = camera_.eye();
        sceneView.framebuffer = drawableSize_;
        render::Overlay overlay;
        overlay.pickRay = pickRay_;
        if (pick_) overlay.pickHit = pick_->hit;
        overlay.pickRayLength = pick_ ? pick_->hit.t : camera_.farPlane();
        overlay.previewBody = selected_ >= 0 ? selected_ : (world_->bodies().empty() ? -1 : 0);
        overlay.selectedObstacle = selectedObstacle_;
        if (selectedObstacle_ >= 0 && pick_ && pick_->obstacle == selectedObstacle_)
            overlay.pickTriangle = pick_->triangle;
        renderer_->draw(*world_, sceneView, selected_, ui_.debug, overlay);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        const float drawMs = msBetween(drawStart, Clock::now());

        // The last frame: --frames reached, or the user quit during this one.
        const bool lastFrame = quit_ || (options_.frames && frame_ + 1 >= *options_.frames);
        if (screenshotRequested_ || (lastFrame && !options_.screenshot.empty())) {
            const std::string file = !options_.screenshot.empty()
                                         ? options_.screenshot
                                         : "kolize-" + std::to_string(frame_) + ".png";
            std::string error;
            if (!takeScreenshot(file, error)) {
                if (lastFrame && !options_.screenshot.empty()) {
                    failure_ = {kExitFailure, error};
                } else {
                    std::cerr << "kolize: " << error << '\n';
                }
            }
            screenshotRequested_ = false;
        }

        SDL_GL_SwapWindow(window_.get());
        times_.add(msBetween(frameStart, Clock::now()), physicsMs, pickingMs, uiMs, drawMs);
        ++framesDrawn_;
        seconds_ = std::chrono::duration<double>(Clock::now() - runStart).count();
        if (lastFrame) break;
        ++frame_;
    }
}

// ------------------------------------------------------------------ scenarios

bool App::load(const std::string& key, std::optional<std::uint64_t> seed, std::string& error) {
    ScenarioResult resolved = resolveScenario(key);
    if (!resolved.scenario) {
        error = resolved.error;
        return false;
    }
    InstantiateResult made = instantiate(*resolved.scenario, seed);
    if (!made.world) {
        error = made.error;
        return false;
    }
    const bool wasPaused = world_ && world_->paused();
    const bool sameScenario = world_.has_value() && key == scenarioKey_;
    if (drag_ && drag_->active)
        events_.drag(frame_, false, world_->bodies()[static_cast<std::size_t>(drag_->body)].name);
    drag_.reset();
    world_.emplace(std::move(*made.world));
    world_->setPaused(wasPaused);
    world_->setTimeScale(ui_.timeScale);

    const Scenario& scenario = *resolved.scenario;
    scenarioKey_ = key;
    scenarioTitle_ = scenario.name;
    seed_ = made.seed;
    std::snprintf(ui_.seedText, sizeof ui_.seedText, "%llu", static_cast<unsigned long long>(seed_));
    ui_.scenarioError.clear();
    const glm::vec3 gravity = scenario.settings.gravity;
    ui_.gravityOn = gravity != glm::vec3(0.0f);
    if (ui_.gravityOn) ui_.gravity = gravity;
    ui_.restitution = scenario.restitution;
    ui_.friction = scenario.friction;
    ui_.rollingResistance = scenario.rollingResistance;

    // A new scenario brings its own view; a reset of the same one keeps the camera where it is.
    if (!sameScenario) {
        const bool spinning = camera_.spinning();
        const float speed = camera_.spinSpeed();
        camera_ = OrbitCamera::forRoom(world_->room().bounds, scenario.camera);
        camera_.setSpinSpeed(speed);
        camera_.setSpinning(spinning && !camera_.hasScenarioView());
        if (spinning != camera_.spinning()) events_.cameraSpin(frame_, camera_.spinning());
    }

    selected_ = -1;
    selectedObstacle_ = -1;
    hovered_ = -1;
    hoveredObstacle_ = -1;
    pick_.reset();
    pickRay_.reset();
    ui_.debug.bvhDepth = std::clamp(ui_.debug.bvhDepth, 0, bvhDepthLimit());
    return true;
}

void App::reset(const std::string& key, std::optional<std::uint64_t> seed) {
    std::string error;
    if (!load(key, seed, error)) {
        ui_.scenarioError = error;
        std::cerr << "kolize: " << error << '\n';
        return;
    }
    events_.reset(frame_, scenarioKey_, seed_);
}

void App::resetRandom() {
    std::optional<std::uint64_t> seed = parseSeed(ui_.seedText);
    if (ui_.newSeedEachReset || !seed) seed = seedSource_();
    reset(kRandomScenario, seed);
}

void App::resetFixed() {
    reset(kFixedScenario, std::nullopt);
}

// ------------------------------------------------------------------ input

void App::pollEvents() {
    const ImGuiIO& io = ImGui::GetIO();
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        ImGui_ImplSDL2_ProcessEvent(&event);
        switch (event.type) {
        case SDL_QUIT:
            quit_ = true;
            break;
        case SDL_WINDOWEVENT:
            if (event.window.event == SDL_WINDOWEVENT_CLOSE &&
                event.window.windowID == SDL_GetWindowID(window_.get()))
                quit_ = true;
            break;
        case SDL_KEYDOWN:
            // Held keys repeat only for the single step.
            if (event.key.repeat == 0 || event.key.keysym.sym == SDLK_n)
                keys_.push_back(event.key.keysym.sym);
            break;
        case SDL_MOUSEBUTTONDOWN:
            if (event.button.button == SDL_BUTTON_LEFT) {
                mouseActions_.push_back(
                    {true, {static_cast<float>(event.button.x), static_cast<float>(event.button.y)}});
            } else if (!io.WantCaptureMouse) {
                if (event.button.button == SDL_BUTTON_RIGHT) orbiting_ = true;
                if (event.button.button == SDL_BUTTON_MIDDLE) panning_ = true;
            }
            break;
        case SDL_MOUSEBUTTONUP:
            if (event.button.button == SDL_BUTTON_LEFT) {
                mouseActions_.push_back(
                    {false, {static_cast<float>(event.button.x), static_cast<float>(event.button.y)}});
            }
            if (event.button.button == SDL_BUTTON_RIGHT) orbiting_ = false;
            if (event.button.button == SDL_BUTTON_MIDDLE) panning_ = false;
            break;
        case SDL_MOUSEMOTION:
            if (orbiting_)
                camera_.orbit(static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel));
            if (panning_) {
                camera_.pan(static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel),
                            static_cast<float>(windowSize_.y));
            }
            break;
        case SDL_MOUSEWHEEL:
            if (!io.WantCaptureMouse) {
                const float steps = static_cast<float>(event.wheel.y);
                camera_.zoom(event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -steps : steps);
            }
            break;
        default:
            break;
        }
    }
}

void App::handleKey(SDL_Keycode key) {
    switch (key) {
    case SDLK_ESCAPE:
        quit_ = true;
        break;
    case SDLK_p:
        pause();
        break;
    case SDLK_o:
        resume();
        break;
    case SDLK_SPACE:
        if (world_->paused()) {
            resume();
        } else {
            pause();
        }
        break;
    case SDLK_n:
        singleStep();
        break;
    case SDLK_s:
        setSpin(false);
        break;
    case SDLK_r:
        setSpin(true);
        break;
    case SDLK_f:
        resetRandom();
        break;
    case SDLK_d:
        resetFixed();
        break;
    case SDLK_HOME:
        camera_.reset();
        break;
    case SDLK_TAB:
        ui_.showPanel = !ui_.showPanel;
        break;
    case SDLK_F12:
        screenshotRequested_ = true;
        break;
    case SDLK_h:
        ui_.showHelp = !ui_.showHelp;
        break;
    case SDLK_v:
        ui_.debug.bvhBoxes = !ui_.debug.bvhBoxes;
        break;
    case SDLK_LEFTBRACKET:
        changeBvhDepth(-1);
        break;
    case SDLK_RIGHTBRACKET:
        changeBvhDepth(+1);
        break;
    default:
        break;
    }
}

Ray App::rayAt(glm::vec2 windowPos) const {
    // The centre of the SDL pixel, in physical (drawable) pixels for high-DPI windows.
    const glm::vec2 scale = glm::vec2(drawableSize_) / glm::vec2(windowSize_);
    return screenRay((windowPos + 0.5f) * scale, glm::vec2(drawableSize_), view_, proj_);
}

void App::handleMouse(const MouseAction& action) {
    if (!action.press) {
        if (drag_ && drag_->active)
            events_.drag(frame_, false, world_->bodies()[static_cast<std::size_t>(drag_->body)].name);
        drag_.reset();
        return;
    }
    if (ImGui::GetIO().WantCaptureMouse) return; // a click on the panel never picks through it
    const Ray ray = rayAt(action.pos);
    const std::optional<PickHit> hit = pickBody(*world_, ray);
    pickRay_ = ray;
    drag_.reset();
    selected_ = -1;
    selectedObstacle_ = -1;
    pick_ = hit;
    if (!hit) {
        events_.pick(frame_, nullptr, nullptr);
        return;
    }
    if (hit->obstacle >= 0) {
        // Obstacles are static: selected, never dragged.
        selectedObstacle_ = hit->obstacle;
        events_.pickObstacle(frame_, world_->obstacles()[static_cast<std::size_t>(hit->obstacle)], *hit);
        return;
    }
    selected_ = hit->body;
    const Body& body = world_->bodies()[static_cast<std::size_t>(hit->body)];
    events_.pick(frame_, &body, &hit->hit);

    const glm::vec3 eye = camera_.eye();
    const glm::vec3 forward = glm::normalize(camera_.view().target - eye);
    drag_ =
        Drag{hit->body, action.pos, body.position - hit->hit.point, glm::dot(hit->hit.point - eye, forward)};
}

void App::updateDrag(float frameSeconds) {
    if (!drag_) return;
    int mouseX = 0;
    int mouseY = 0;
    const Uint32 buttons = SDL_GetMouseState(&mouseX, &mouseY);
    const glm::vec2 mouse{static_cast<float>(mouseX), static_cast<float>(mouseY)};
    const Body& body = world_->bodies()[static_cast<std::size_t>(drag_->body)];
    if ((buttons & SDL_BUTTON(SDL_BUTTON_LEFT)) == 0) {
        // Released where we did not see it (outside the window).
        if (drag_->active) events_.drag(frame_, false, body.name);
        drag_.reset();
        return;
    }
    if (!drag_->active) {
        if (glm::length(mouse - drag_->pressPos) < kDragThresholdPixels) return;
        drag_->active = true;
        events_.drag(frame_, true, body.name);
    }
    if (world_->paused()) return; // nothing moves while paused; the body keeps its velocity

    // The grabbed point follows the cursor in the plane facing the camera at the grab depth; the
    // body gets the velocity that takes it there in one frame, so the solver still collides it.
    const Ray ray = rayAt(mouse);
    const glm::vec3 eye = camera_.eye();
    const glm::vec3 forward = glm::normalize(camera_.view().target - eye);
    const float along = glm::dot(forward, ray.dir);
    if (!(along > 1e-4f)) return;
    const float t = (drag_->depth - glm::dot(forward, ray.origin - eye)) / along;
    const glm::vec3 target = ray.origin + t * ray.dir + drag_->grabOffset;
    const float dt = std::max(frameSeconds * world_->settings().timeScale, world_->settings().timeStep);
    glm::vec3 velocity = (target - body.position) / dt;
    const float speed = glm::length(velocity);
    if (speed > kMaxDragSpeed) velocity *= kMaxDragSpeed / speed;
    world_->setBodyVelocity(drag_->body, velocity, body.angularVelocity * kDragAngularDamping);
}

void App::updateHover() {
    hovered_ = -1;
    hoveredObstacle_ = -1;
    if (SDL_GetMouseFocus() != window_.get() || ImGui::GetIO().WantCaptureMouse) return;
    int mouseX = 0;
    int mouseY = 0;
    SDL_GetMouseState(&mouseX, &mouseY);
    if (const auto hit = pickBody(*world_, rayAt({static_cast<float>(mouseX), static_cast<float>(mouseY)}))) {
        hovered_ = hit->body;
        hoveredObstacle_ = hit->obstacle;
        hoveredTriangle_ = hit->triangle;
    }
}

// ------------------------------------------------------------------ actions

void App::pause() {
    world_->setPaused(true);
    events_.simple(frame_, "pause");
}

void App::resume() {
    world_->setPaused(false);
    events_.simple(frame_, "resume");
}

void App::singleStep() {
    if (!world_->paused()) pause();
    world_->requestSingleStep();
    events_.simple(frame_, "step");
}

void App::setSpin(bool on) {
    camera_.setSpinning(on);
    events_.cameraSpin(frame_, on);
}

void App::applyUi(const UiRequests& requests) {
    if (requests.pause) pause();
    if (requests.resume) resume();
    if (requests.singleStep) singleStep();
    if (requests.spin) setSpin(*requests.spin);
    if (requests.resetView) camera_.reset();
    if (requests.timeScaleChanged) world_->setTimeScale(ui_.timeScale);
    if (requests.gravityChanged) world_->setGravity(ui_.gravityOn ? ui_.gravity : glm::vec3(0.0f));
    if (requests.materialChanged) world_->setMaterial(ui_.restitution, ui_.friction, ui_.rollingResistance);
    if (requests.screenshot) screenshotRequested_ = true;
    if (requests.resetRandom) resetRandom();
    if (requests.resetFixed) resetFixed();
    if (requests.loadScenario) reset(*requests.loadScenario, std::nullopt);
    if (requests.reload) {
        ui_.scenarioNames = builtinScenarioNames();
        const std::optional<std::uint64_t> seed = parseSeed(ui_.seedText);
        reset(scenarioKey_, seed ? seed : std::optional<std::uint64_t>(seed_));
    }
}

int App::bvhDepthLimit() const {
    const auto obstacles = world_->obstacles();
    int depth = 0;
    if (selectedObstacle_ >= 0 && selectedObstacle_ < static_cast<int>(obstacles.size())) {
        depth = obstacles[static_cast<std::size_t>(selectedObstacle_)].mesh->bvh.depth();
    } else {
        for (const Obstacle& obstacle : obstacles)
            depth = std::max(depth, obstacle.mesh->bvh.depth());
    }
    return std::max(depth - 1, 0);
}

void App::changeBvhDepth(int delta) {
    ui_.debug.bvhDepth = std::clamp(ui_.debug.bvhDepth + delta, 0, bvhDepthLimit());
}

/// The picked body's name at its centre on screen (an obstacle's at the centre of its bounds), on
/// top of everything.
void App::drawSelectedLabel() const {
    glm::vec3 anchor(0.0f);
    const std::string* name = nullptr;
    if (selected_ >= 0 && selected_ < static_cast<int>(world_->bodies().size())) {
        const Body& body = world_->bodies()[static_cast<std::size_t>(selected_)];
        anchor = body.position;
        name = &body.name;
    } else if (selectedObstacle_ >= 0 && selectedObstacle_ < static_cast<int>(world_->obstacles().size())) {
        const Obstacle& obstacle = world_->obstacles()[static_cast<std::size_t>(selectedObstacle_)];
        anchor = 0.5f * (obstacle.bounds.min + obstacle.bounds.max);
        name = &obstacle.name;
    }
    if (name == nullptr) return;
    const glm::vec4 clip = proj_ * view_ * glm::vec4(anchor, 1.0f);
    if (!(clip.w > camera_.nearPlane())) return; // behind the camera
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const ImVec2 centre{(ndc.x * 0.5f + 0.5f) * display.x, (0.5f - ndc.y * 0.5f) * display.y};
    const ImVec2 size = ImGui::CalcTextSize(name->c_str());
    const ImVec2 topLeft{centre.x - 0.5f * size.x, centre.y - 0.5f * size.y};
    ImDrawList* list = ImGui::GetForegroundDrawList();
    list->AddRectFilled(ImVec2(topLeft.x - 4.0f, topLeft.y - 2.0f),
                        ImVec2(topLeft.x + size.x + 4.0f, topLeft.y + size.y + 2.0f), IM_COL32(0, 0, 0, 170),
                        3.0f);
    list->AddText(topLeft, IM_COL32(255, 230, 90, 255), name->c_str());
}

bool App::takeScreenshot(const std::string& file, std::string& error) {
    const std::vector<std::uint8_t> pixels = renderer_->readPixels(drawableSize_);
    if (!render::writePng(file, pixels, drawableSize_, error)) {
        error = "screenshot: " + error;
        return false;
    }
    events_.screenshot(frame_, file);
    return true;
}

} // namespace

AppResult runApp(const AppOptions& options) {
    App app(options);
    return app.run();
}

} // namespace kz
