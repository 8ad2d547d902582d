#include "app/cli/errors.hpp"
#include "app/ui/lab_panel.hpp"
#include "app/window/app_internal.hpp"
#include "physics/state_hash.hpp"

#include <SDL.h>
#include <algorithm>
#include <backends/imgui_impl_sdl.h>
#include <chrono>
#include <filesystem>
#include <glad/gl.h>
#include <imgui.h>

namespace kz {
namespace {

using Clock = std::chrono::steady_clock;
using cli::kExitFailure;
constexpr int kExitCannotStart = cli::kExitUsage; // a bad scenario or output path, no display

constexpr int kKeyframeInterval = 32;     ///< Steps between the timeline's keyframes.
constexpr float kMaxFrameSeconds = 0.25f; ///< A longer frame (a stall, a breakpoint) counts as this.

float msBetween(Clock::time_point start, Clock::time_point end) {
    return std::chrono::duration<float, std::milli>(end - start).count();
}

} // namespace

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
    if (options_.threads > 1) jobs_ = std::make_shared<JobSystem>(options_.threads);
    if (!options_.replay.empty()) {
        if (AppResult started = startReplay(); started.exitCode != 0) return started;
    } else if (!load(options_.scenario, options_.seed, error)) {
        if (!options_.scenarioFromSettings) return {kExitCannotStart, error};
        // The settings' last scenario (a file since moved, say) is no reason not to start.
        cli::printError("kolize", "warning: the last scenario does not load (" + error + "); opening " +
                                      AppOptions{}.scenario);
        if (!load(AppOptions{}.scenario, options_.seed, error)) return {kExitCannotStart, error};
    }
    timeline_.attach(*session_, {options_.historyMb << 20, kKeyframeInterval});
    // After each step (live, replayed, or `.`): its impacts into the log, their step the session's.
    session_->setStepObserver(
        [this] { impacts_.onStep(session_->world(), session_->tick(), events_, frame_); });
    camera_.setSpinning(options_.spin && !camera_.hasScenarioView());
    spinWanted_ = options_.spin;
    if (options_.paused) {
        if (playback_) {
            playback_->setPaused(true);
        } else {
            input(SetPaused{true});
        }
    }
    ui_.scenarioNames = builtinScenarioNames();
    ui_.spinSpeedDegPerSecond = options_.spinSpeedDegPerSecond;
    if (const std::optional<LabQuery> last = parseLabQuery(options_.lastLabQuery)) ui_.card.labQuery = *last;
    if (const std::optional<LabQuery> query = parseLabQuery(options_.lab)) openLab(*query);
    // The card is for a first look at the scenarios; a window that starts in the lab keeps it for later.
    ui_.card.open = options_.showFirstRunCard && !lab_.isOpen();

    if (!options_.events.empty() && !events_.open(options_.events, error)) return {kExitCannotStart, error};
    if (!report_.open(options_.report, error)) return {kExitCannotStart, error};
    if (!options_.record.empty() && !checkRecordTarget(options_.record, error))
        return {kExitCannotStart, error};
    if (!options_.screenshot.empty()) {
        const std::filesystem::path parent = std::filesystem::path(options_.screenshot).parent_path();
        std::error_code ec;
        if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
            return {kExitCannotStart, "--screenshot: no such directory '" + parent.string() + "'"};
        }
    }
    return {};
}

/// The platform (SDL, the GL context, glad), the renderer's shaders, then Dear ImGui.
AppResult App::openWindow() {
    std::string error;
    if (!platform_.openWindow(options_.windowSize, options_.windowPosition, options_.vsync, error))
        return {kExitCannotStart, error};
    renderer_ = render::Renderer::create(render::shaderDirectory(), error,
                                         options_.msaaSamples.value_or(render::defaultMsaaSamples()));
    if (!renderer_) return {kExitFailure, error};
    if (!platform_.startImGui(options_.uiScale, options_.panelLayout, error)) return {kExitFailure, error};
    ui_.shadows = options_.shadows;
    ui_.uiScale = options_.uiScale;
    ui_.panel = panelStartRect(glm::vec2(platform_.sizes().window), options_.uiScale);
    return {};
}

AppResult App::finish() {
    events_.quit(frame_, stateHash(world()), session_->tick());
    saveSettings();
    std::string error;
    if (!options_.record.empty() && !writeRecording(options_.record, *session_, error))
        return {kExitFailure, error};
    if (failure_.exitCode != 0) return failure_;
    if (!report_.enabled()) return {};
    const DrawSettings drawn{renderer_ ? renderer_->msaaSamples() : 0, ui_.shadows};
    const PaceSummary pace{options_.threads, pace_.effectiveScale(), behindFrames_};
    if (!report_.write(frameReport(times_, framesDrawn_, seconds_, world(),
                                   session_->scenario().scenario.name, session_->seed(), drawn, pace),
                       error))
        return {kExitFailure, error};
    return {};
}

// ------------------------------------------------------------------ the loop

/// The phases of Dear ImGui's SDL2+OpenGL3 example: poll events, new frame, (input and the
/// world's update), UI, render, swap.
void App::loop() {
    const Clock::time_point runStart = Clock::now();
    Clock::time_point last = runStart;
    view_ = camera_.viewMatrix();
    free_ = freeArea(glm::vec2(options_.windowSize), ui_.panel);
    proj_ = camera_.projMatrix(glm::vec2(options_.windowSize), free_);

    while (true) {
        const Clock::time_point frameStart = Clock::now();
        frameWallSeconds_ = std::chrono::duration<double>(frameStart - last).count();
        const float frameSeconds = std::min(static_cast<float>(frameWallSeconds_), kMaxFrameSeconds);
        last = frameStart;

        pollEvents();
        if (platform_.minimised()) {
            if (quit_) break;
            // Nothing to draw into: let the world run on, but do not spin the CPU.
            advance(frameSeconds);
            SDL_Delay(10);
            continue;
        }
        PhaseTimes ms;
        ms.ui = newFrame();
        ms.picking = handleInput(frameSeconds);
        ms.physics = update(frameSeconds);
        ms.ui += buildUi();
        ms.draw = render();
        // The last frame: --frames reached, or the user quit during this one.
        const bool lastFrame = quit_ || (options_.frames && frame_ + 1 >= *options_.frames);
        saveScreenshot(lastFrame);
        platform_.swap();

        times_.add(msBetween(frameStart, Clock::now()), ms.physics, ms.picking, ms.ui, ms.draw);
        ++framesDrawn_;
        seconds_ = std::chrono::duration<double>(Clock::now() - runStart).count();
        if (lastFrame) break;
        ++frame_;
    }
}

/// SDL's events: quit, keys and left clicks queued for this frame's ImGui state, the camera's
/// right-drag orbit, middle-drag pan and wheel zoom.
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
            if (event.window.event == SDL_WINDOWEVENT_CLOSE && event.window.windowID == platform_.windowId())
                quit_ = true;
            break;
        case SDL_KEYDOWN:
            // Held keys repeat only where the key table says so (the single step).
            if (const KeyBinding* binding = findKey(event.key.keysym.sym)) {
                const bool shift = (event.key.keysym.mod & KMOD_SHIFT) != 0;
                if (event.key.repeat == 0 || binding->repeats)
                    keys_.push_back(shift && binding->shifted ? *binding->shifted : binding->action);
            }
            break;
        case SDL_MOUSEBUTTONDOWN:
        case SDL_MOUSEBUTTONUP:
            onMouseButton(event.button, event.type == SDL_MOUSEBUTTONDOWN);
            break;
        case SDL_MOUSEMOTION:
            if (orbiting_)
                camera_.orbit(static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel));
            if (panning_) {
                camera_.pan(static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel),
                            fieldOfViewSpan(free_));
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

void App::onMouseButton(const SDL_MouseButtonEvent& button, bool down) {
    if (lab_.isOpen() && (button.button == SDL_BUTTON_LEFT || button.button == SDL_BUTTON_RIGHT)) {
        // The lab's left and right buttons, queued for this frame's ImGui state.
        const bool right = button.button == SDL_BUTTON_RIGHT;
        if (right && !down) orbiting_ = false;
        clicks_.push_back({down,
                           {static_cast<float>(button.x), static_cast<float>(button.y)},
                           right,
                           (SDL_GetModState() & KMOD_SHIFT) != 0});
        return;
    }
    if (button.button == SDL_BUTTON_LEFT)
        clicks_.push_back({down, {static_cast<float>(button.x), static_cast<float>(button.y)}});
    if (down && button.button != SDL_BUTTON_LEFT && !ImGui::GetIO().WantCaptureMouse) {
        if (button.button == SDL_BUTTON_RIGHT) orbiting_ = true;
        if (button.button == SDL_BUTTON_MIDDLE) panning_ = true;
    }
    if (!down) {
        if (button.button == SDL_BUTTON_RIGHT) orbiting_ = false;
        if (button.button == SDL_BUTTON_MIDDLE) panning_ = false;
    }
}

/// The window's sizes, then a new ImGui frame (timed as UI).
float App::newFrame() {
    const WindowSizes sizes = platform_.sizes();
    windowSize_ = sizes.window;
    drawableSize_ = sizes.drawable;
    const Clock::time_point start = Clock::now();
    platform_.newFrame();
    return msBetween(start, Clock::now());
}

/// Keys (never while a widget takes the keyboard), then clicks, the drag and the hover against the
/// picture on screen: the last frame's camera and bodies. Times the picking.
float App::handleInput(float frameSeconds) {
    if (!ImGui::GetIO().WantCaptureKeyboard) {
        for (const KeyAction action : keys_)
            runKeyAction(action);
    }
    keys_.clear();
    if (lab_.isOpen()) return handleLabInput();
    const Clock::time_point start = Clock::now();
    const ScreenCamera screen = screenCamera();
    const bool panelWantsMouse = ImGui::GetIO().WantCaptureMouse;
    // A replay's velocities are the recording's: its clicks pick, but nothing is dragged.
    for (const MouseClick& click : clicks_) {
        if (click.press) {
            interaction_.press(world(), screen, click.pos, panelWantsMouse, frame_);
        } else if (replaying()) {
            interaction_.release(world(), frame_);
        } else if (const std::optional<SetBodyVelocity> flick =
                       interaction_.releaseAt(world(), screen, click.pos, frameSeconds, frame_)) {
            input(*flick); // the last move came with the release: the throw follows it
        }
    }
    clicks_.clear();
    const Pointer pointer = platform_.pointer();
    if (!replaying()) {
        if (const std::optional<SetBodyVelocity> dragged =
                interaction_.drag(world(), screen, pointer, frameSeconds, frame_))
            input(*dragged);
    }
    interaction_.hover(world(), screen, pointer);
    probe_.update(world(), pointer.overScene ? std::optional(screen.rayAt(pointer.pos)) : std::nullopt);
    return msBetween(start, Clock::now());
}

/// The camera's spin, the fixed-step physics through the accumulator (timed), then this frame's
/// view and projection.
float App::update(float frameSeconds) {
    camera_.setSpinSpeed(glm::radians(ui_.spinSpeedDegPerSecond));
    camera_.update(frameSeconds);
    const Clock::time_point start = Clock::now();
    const bool running = worldRunning(); // as the frame began (a replay may end in it)
    stepsThisFrame_ = lab_.isOpen() ? 0 : advance(frameSeconds); // the lab's scene is never stepped
    const float physicsMs = msBetween(start, Clock::now());
    if (stepsThisFrame_ > 0) {
        const float perStep = physicsMs / static_cast<float>(stepsThisFrame_);
        physicsMsPerStep_ = physicsMsPerStep_ == 0.0f ? perStep : 0.9f * physicsMsPerStep_ + 0.1f * perStep;
    }
    measurePace(running, 0.001 * static_cast<double>(physicsMs));
    view_ = camera_.viewMatrix();
    frameView();
    return physicsMs;
}

/// The projection framed in the part of the window the panel left free in the last UI frame (the
/// whole window without it); a `view` event when the window or that part changed.
void App::frameView() {
    free_ = freeArea(glm::vec2(windowSize_), ui_.panel);
    proj_ = camera_.projMatrix(glm::vec2(windowSize_), free_);
    const bool changed = !loggedView_ || loggedView_->first != windowSize_ ||
                         loggedView_->second.min != free_.min || loggedView_->second.max != free_.max;
    if (!changed) return;
    events_.view(frame_, windowSize_, free_.min, free_.size());
    loggedView_ = std::pair(windowSize_, free_);
}

/// The panel (carrying out what it asks for), the selected label, then ImGui's draw data.
float App::buildUi() {
    const Clock::time_point start = Clock::now();
    const UiRequests requests = drawUi(ui_, frameInfo());
    logCard();
    applyUi(requests);
    if (lab_.isOpen()) {
        drawLabLabels(lab_.scene(), view_, proj_, camera_.nearPlane());
    } else {
        drawSelectedLabel(world(), interaction_.picks(), view_, proj_, camera_.nearPlane());
    }
    ImGui::Render();
    return msBetween(start, Clock::now());
}

/// The scene, then the panel on top.
float App::render() {
    const Clock::time_point start = Clock::now();
    glViewport(0, 0, drawableSize_.x, drawableSize_.y);
    render::SceneView sceneView;
    sceneView.view = view_;
    sceneView.proj = proj_;
    sceneView.eye = camera_.eye();
    sceneView.framebuffer = drawableSize_;
    sceneView.farPlane = camera_.farPlane();
    // Framebuffer pixels per point of the UI: a high-DPI framebuffer's, times --ui-scale.
    sceneView.pixelScale =
        static_cast<float>(drawableSize_.x) / static_cast<float>(windowSize_.x) * options_.uiScale;
    sceneView.shadows = ui_.shadows;
    drawScene(sceneView);
    platform_.renderImGui();
    return msBetween(start, Clock::now());
}

/// F12 or the panel's button, and --screenshot on the last frame. A failed --screenshot fails
/// the run; a failed F12 only says so.
void App::saveScreenshot(bool lastFrame) {
    if (!screenshotRequested_ && !(lastFrame && !options_.screenshot.empty())) return;
    const std::string file =
        !options_.screenshot.empty() ? options_.screenshot : "kolize-" + std::to_string(frame_) + ".png";
    std::string error;
    if (!takeScreenshot(file, error)) {
        if (lastFrame && !options_.screenshot.empty()) {
            failure_ = {kExitFailure, error};
        } else {
            cli::printError("kolize", error);
        }
    }
    screenshotRequested_ = false;
}

/// What a click points into: the frame on screen's matrices, the camera as it is now.
ScreenCamera App::screenCamera() const {
    ScreenCamera screen;
    screen.windowSize = windowSize_;
    screen.drawableSize = drawableSize_;
    screen.view = view_;
    screen.proj = proj_;
    screen.eye = camera_.eye();
    screen.target = camera_.view().target;
    return screen;
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

AppResult runApp(const AppOptions& options) {
    App app(options);
    return app.run();
}

} // namespace kz
