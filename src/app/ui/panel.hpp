// The Dear ImGui panel: Simulation, Camera, Scenario, Picking, Impacts (impacts_panel.cpp), Probe,
// Debug draw, Stats and Help (the key table of keys.hpp, also in its own window on H). The
// panel edits UiState and returns what the user asked for (UiRequests); the app carries the
// requests out, so a button and its key shortcut take the same path (and log the same event).
#pragma once

#include "app/lab/lab.hpp"
#include "app/lab/probe.hpp"
#include "app/lab/scene.hpp"
#include "app/render/renderer.hpp"
#include "app/timeline/impacts.hpp"
#include "app/timeline/playback.hpp"
#include "app/ui/first_run_card.hpp"
#include "app/ui/timeline_panel.hpp"
#include "app/view/framing.hpp"
#include "app/view/pick_state.hpp"
#include "physics/world.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kz {

class PaceMeter; // app/timeline/pace_meter.hpp

/// What the panel edits and shows between frames.
struct UiState {
    bool showPanel = true; ///< Tab.
    bool showHelp = false; ///< H: the key table in its own window.
    FirstRunCard card;     ///< "Try this": on the first run, then from Help.
    /// The panel's rectangle in the last UI frame (window points); empty while it is hidden or
    /// collapsed. Before the first frame: where it starts (panelStartRect).
    std::optional<ScreenRect> panel;
    float uiScale = 1.0f; ///< --ui-scale: the panel's size and text, times ImGui's own.

    float timeScale = 1.0f; ///< World::setTimeScale, 0.05 to 2.
    bool gravityOn = false;
    glm::vec3 gravity{0.0f, -9.81f, 0.0f}; ///< Applied while gravityOn.
    float restitution = 1.0f;              ///< World::setMaterial on change.
    float friction = 0.0f;
    float rollingResistance = 0.0f; ///< Of balls; with restitution and friction.

    float spinSpeedDegPerSecond = 8.6f;
    bool shadows = true; ///< L: bodies and meshes cast the sun's shadows.

    std::vector<std::string> scenarioNames; ///< builtinScenarioNames().
    char seedText[24] = "1";      ///< The seed for Reset random (when not new each time) and Reload.
    bool newSeedEachReset = true; ///< Reset random draws a fresh seed.
    std::string scenarioError;    ///< The last failed load, shown in red.

    render::DebugDraw debug;
};

/// What the panel shows this frame: read-only facts, and the features whose sections edit their
/// own settings (the lab's layers and steps, the probe's mode, the impact list's filters).
struct UiFrameInfo {
    const World* world = nullptr;
    std::string scenarioKey;   ///< The name or file the current world came from.
    std::string scenarioTitle; ///< Its display name.
    /// What to watch in it (its "description", owned by the session's scenario); empty: none.
    std::string_view scenarioDescription;
    std::uint64_t seed = 0; ///< The seed the current world was built with.
    bool spinning = false;
    PickState picks;       ///< The selection (body or obstacle) and the hover.
    int bvhDepthLimit = 0; ///< The BVH depth slider's maximum (the drawn trees' depth - 1).
    float fps = 0.0f;
    float frameMs = 0.0f;
    float physicsMsPerStep = 0.0f; ///< Smoothed over the last steps taken.
    int stepsThisFrame = 0;
    int threads = 1;                 ///< The threads the physics steps on (--threads).
    const PaceMeter* pace = nullptr; ///< The simulation's pace against real time; null: not shown.
    /// The query lab: while it is open the panel shows it instead of the scenarios' sections.
    Lab* lab = nullptr;
    MouseProbe* probe = nullptr; ///< The mouse probe (the scenarios'); null: no Probe section.
    int msaaSamples = 0;         ///< Samples per pixel of the scene (0: not multisampled).
    bool paused = false;         ///< The world stands still (during a replay: the playback).
    TimelineInfo timeline;       ///< The Timeline section's history and the step on screen.
    /// Set under --replay: while it plays, what would change the world is greyed out.
    std::optional<ReplayStatus> replay;
    Impacts* impacts = nullptr; ///< The impact log and the shown impact (Impacts); null: no section.
};

/// What the user asked for through the panel this frame.
struct UiRequests {
    bool pause = false;
    bool resume = false;
    bool singleStep = false;
    std::optional<bool> spin;    ///< Spin switched on or off.
    std::optional<bool> shadows; ///< Shadows switched on or off.
    bool resetView = false;
    bool resetRandom = false;
    bool resetFixed = false;
    bool reload = false;
    std::optional<std::string> loadScenario; ///< A scenario chosen in the list.
    bool timeScaleChanged = false;
    bool gravityChanged = false;
    bool materialChanged = false;
    bool screenshot = false;
    std::optional<LabQuery> openLab; ///< A lab query chosen: the window shows the lab.
    /// A lab shape's kind chosen (gjk, epa, ray-convex): the shape's index and its new kind.
    std::optional<std::pair<int, LabShapeKind>> labShapeKind;
    bool closeLab = false;                    ///< Back to the scenarios.
    TimelineRequests timeline;                ///< Play, pause, a step to show.
    std::optional<ImpactRecord> jumpToImpact; ///< A row of the impact log clicked.
    bool hideImpact = false;                  ///< The shown impact's "hide".
};

/// The "Try this" card's button, shared by the panel's and the Help window's.
bool showCardButton(FirstRunCard& card);

/// Builds the panel (when shown) and the Help window (when open) for this ImGui frame, and records
/// the panel's rectangle in state.panel.
UiRequests drawUi(UiState& state, const UiFrameInfo& info);

/// Where the panel opens in a window of `display` points: 8 points from the top-left corner, 360
/// wide, as tall as the window less 8 points above and below (at least 100); each length times
/// `uiScale`.
ScreenRect panelStartRect(glm::vec2 display, float uiScale = 1.0f);

/// The picked body's name at its centre on screen (an obstacle's at the centre of its bounds), on
/// top of everything: where `proj * view` puts it, unless it is behind the camera.
void drawSelectedLabel(const World& world, const PickState& picks, const glm::mat4& view,
                       const glm::mat4& proj, float nearPlane);

/// `text` centred on where `proj * view` puts `anchor`, on top of everything (dark backing, yellow
/// text), unless it is behind the camera.
void drawLabelAt(const glm::vec3& anchor, const char* text, const glm::mat4& view, const glm::mat4& proj,
                 float nearPlane);

/// The seed typed into the panel, or empty when it is not a whole number in [0, 2^64).
std::optional<std::uint64_t> parseSeed(const char* text);

} // namespace kz
