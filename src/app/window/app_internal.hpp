// The window app's one class, App, shared by its files: app.cpp (start, the loop and its phases,
// shut down), app_actions.cpp (what keys and the panel ask for: pause, step, spin, resets and
// scenario loads, the BVH depth; every change to the world goes through the Session) and
// app_features.cpp (the App's part in its features). Each feature is one object the App owns,
// with its own state and entry points: the query lab (Lab) and the mouse probe (MouseProbe), the
// timeline (Timeline), the impact log (Impacts) and a replay (Playback); the App passes each what
// it needs and carries its effects to the others. Private to the kolize executable.
#pragma once

#include "app/cli/events.hpp"
#include "app/cli/frame_report.hpp"
#include "app/lab/lab.hpp"
#include "app/lab/probe.hpp"
#include "app/render/debug_lines.hpp"
#include "app/render/renderer.hpp"
#include "app/timeline/impacts.hpp"
#include "app/timeline/pace_meter.hpp"
#include "app/timeline/playback.hpp"
#include "app/timeline/timeline.hpp"
#include "app/ui/keys.hpp"
#include "app/ui/panel.hpp"
#include "app/view/camera.hpp"
#include "app/view/interaction.hpp"
#include "app/window/app.hpp"
#include "app/window/platform.hpp"
#include "physics/job_system.hpp"
#include "scenario/scenario.hpp"
#include "session/session.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace kz {

/// The wall time a frame's physics steps may take: the due steps left when it is used up are
/// dropped (at least one is taken), so a world too heavy for real time slows down (the panel says
/// so) while the window stays responsive, and no frame grows because the last one was long.
inline constexpr double kPhysicsBudgetSeconds = 0.05;

/// A left press or release (in the lab also a right one), waiting for this frame's ImGui state (does
/// the panel want the mouse?).
struct MouseClick {
    bool press;         ///< Press, else release.
    glm::vec2 pos;      ///< SDL window coordinates.
    bool right = false; ///< The right button (the lab only), else the left.
    bool shift = false; ///< Shift was held (the lab: a left drag turns).
};

/// This frame's CPU time in each timed phase, in milliseconds.
struct PhaseTimes {
    float picking = 0.0f;
    float physics = 0.0f;
    float ui = 0.0f; ///< The new ImGui frame and building the panel.
    float draw = 0.0f;
};

/// The interactive window: run() opens it, loops until the user quits, and shuts it down.
class App {
public:
    explicit App(const AppOptions& options) : options_(options) {}
    AppResult run();

private:
    AppResult start();
    AppResult openWindow();
    void loop();
    AppResult finish();

    // The phases of a frame, in order (the timed ones return their milliseconds).
    void pollEvents();
    float newFrame();
    float handleInput(float frameSeconds);
    float update(float frameSeconds);
    void frameView();
    float buildUi();
    float render();
    void saveScreenshot(bool lastFrame);

    // Scenarios.
    bool load(const std::string& key, std::optional<std::uint64_t> seed, std::string& error);
    void applyScenario(const Scenario& scenario);
    void reset(const std::string& key, std::optional<std::uint64_t> seed);

    // The session: every change to the world is an input (app_actions.cpp).
    /// The world on screen: a past step while the timeline is scrubbed back, else the session's.
    const World& world() const {
        const SessionState* past = timeline_.past();
        return past ? past->world : session_->world();
    }
    /// A world-changing input from the user, applied and logged by the session; ignored while a
    /// replay plays. Returns whether it was applied.
    bool input(const SessionInput& input);
    /// The panel and the camera follow the inputs logged since the last call (a load: the new
    /// scenario's view, gravity and material; a slider's value in a replay).
    void showNewInputs();
    /// The steps this frame's time makes due: the session's (World::dueSteps), or the playback's;
    /// those left when the steps have used kPhysicsBudgetSeconds are dropped.
    int advance(float frameSeconds);
    /// Whether the world is meant to move in real time this frame (not paused, not the past, not
    /// the lab, not a replay's end).
    bool worldRunning() const;
    /// This frame for the pace meter (`running`: worldRunning() as it began; its steps took
    /// `physicsSeconds`), and the `pace` event when the physics falls behind or catches up.
    void measurePace(bool running, double physicsSeconds);

    // The App's part in its features (app_features.cpp).
    /// --replay: the playback and the session it starts.
    AppResult startReplay();
    bool replaying() const { return playback_ && playback_->playing(); }
    /// The playback's ticks due this frame; at the end, its verdict, and the world paused.
    int playReplay(float frameSeconds);
    /// Shows step `tick` of the kept span, pausing first (the world, or a replay's playback).
    void seek(std::uint64_t tick);
    /// `,` / `.` (and Shift): along the kept steps; forward from the session's own step, a new step.
    void stepTimeline(int delta);
    /// The session goes on from the step on screen: its later steps and inputs, and their impacts,
    /// are dropped (during a replay: back to where it plays).
    void leavePast();
    TimelineInfo timelineInfo() const;
    /// The impact log's jump to `record`: the timeline to its step (seek: paused there), its body
    /// (or its partner body, when that one is selected already) selected, the impact drawn and
    /// explained ("Why here?").
    void jumpToImpact(const ImpactRecord& record);
    void openLab(LabQuery query);
    void closeLab();
    /// The lab's clicks, drag and hover, then its query (and the event when its verdict changes).
    float handleLabInput();
    /// The lab's picture, or the world with the probe's and the shown impact's lines.
    void drawScene(const render::SceneView& view);

    // Input.
    void onMouseButton(const SDL_MouseButtonEvent& button, bool down);
    void runKeyAction(KeyAction action);
    ScreenCamera screenCamera() const;

    // Actions shared by keys and panel (each logs its event).
    void pause();
    void resume();
    void singleStep();
    void setSpin(bool on);
    void setShadows(bool on);
    void resetRandom();
    void resetFixed();
    void applyUi(const UiRequests& requests);

    /// What the panel shows this frame (its sections edit the features' settings).
    UiFrameInfo frameInfo();
    /// The BVH debug draw's deepest level, kept within the trees it draws.
    void changeBvhDepth(int delta);
    int bvhDepthLimit() const;
    bool takeScreenshot(const std::string& file, std::string& error);

    // Settings and the first run (app_settings.cpp).
    /// What this run keeps for the next: the settings read at start, with what the window has now.
    Settings settingsNow() const;
    /// Writes settingsNow() to options_.settingsFile (when there is one); a failure is a warning.
    void saveSettings();
    /// The `card` event when the "Try this" card opened (once it has its size) or closed.
    void logCard();

    const AppOptions& options_;
    EventLog events_;
    FrameReportFile report_;
    Interaction interaction_{events_};

    // Declared in the order of creation: destroyed in reverse (renderer before its GL context).
    Platform platform_;
    std::unique_ptr<render::Renderer> renderer_;

    // The simulation.
    std::shared_ptr<JobSystem> jobs_; ///< The physics' threads (--threads); null for one.
    std::optional<Session> session_;  ///< Set by start(): the world, its inputs and its tick.
    std::size_t inputsShown_ = 0;     ///< The session's inputs the panel and camera have followed.
    std::string viewScenario_;        ///< The scenario key the camera's view was chosen for.
    OrbitCamera camera_;
    bool spinWanted_ = true; ///< The camera spin as the user last set it (--no-spin, S, R, the panel).
    bool labOpened_ = false; ///< The lab was opened in this run (its query is the one to keep).
    UiState ui_;
    std::mt19937_64 seedSource_{std::random_device{}()};

    // The features.
    Lab lab_;                          ///< The query lab: open, the window shows it instead of the world.
    MouseProbe probe_;                 ///< What lies under the cursor in the scenarios.
    Timeline timeline_;                ///< The session's kept steps, attached at start.
    Impacts impacts_;                  ///< The last steps' impacts (the panel's Impacts).
    std::optional<Playback> playback_; ///< Set under --replay.
    render::DebugLines extraLines_;    ///< The lab's construction or the probe, for the renderer.

    // Input: the camera drags under way, and the keys and clicks waiting for this frame's ImGui state.
    bool orbiting_ = false;
    bool panning_ = false;
    std::vector<MouseClick> clicks_;
    std::vector<KeyAction> keys_;

    // The frame.
    std::uint64_t frame_ = 0;
    bool quit_ = false;
    bool screenshotRequested_ = false;
    glm::ivec2 windowSize_{1, 1};
    glm::ivec2 drawableSize_{1, 1};
    ScreenRect free_; ///< The part of the window the panel leaves free (points): the view is framed in it.
    std::optional<std::pair<glm::ivec2, ScreenRect>>
        loggedView_;       ///< The last `view` event's window and free area.
    glm::mat4 view_{1.0f}; ///< The camera's matrices of the frame on screen.
    glm::mat4 proj_{1.0f};
    float physicsMsPerStep_ = 0.0f;
    int stepsThisFrame_ = 0;
    double frameWallSeconds_ = 0.0; ///< This frame's real time, not clamped.
    PaceMeter pace_;                ///< Simulated seconds per wall second, and whether the physics lags.
    bool paceLoggedBehind_ = false; ///< What the last `pace` event said.
    std::optional<ScreenRect> cardLogged_;    ///< The card's rectangle the last `card` event gave (open).
    std::optional<ScreenRect> cardLastFrame_; ///< Its rectangle in the last frame.
    std::uint64_t behindFrames_ = 0;
    FrameTimes times_;
    std::uint64_t framesDrawn_ = 0;
    double seconds_ = 0.0;
    AppResult failure_; ///< Set when the loop must stop with an error (a failed --screenshot).
};

} // namespace kz
