// The interactive window: SDL2 + OpenGL 3.3 core + Dear ImGui, in the shape of Dear ImGui's
// SDL2+OpenGL3 example: init SDL, GL attributes, window and context, glad, ImGui (platform.hpp);
// then the loop, one call a phase (poll events, new frame, keys and mouse, camera and fixed-step
// physics, UI, render, swap: App::loop in app.cpp); then shut down in reverse.
#pragma once

#include "app/settings/settings.hpp"

#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <optional>
#include <string>

namespace kz {

struct AppOptions {
    std::string scenario = "two-balls"; ///< Built-in name or scenario file.
    std::optional<std::uint64_t> seed;  ///< Seed override for the random bodies.
    glm::ivec2 windowSize{1280, 720};   ///< Logical window size (SDL points).
    bool paused = false;                ///< Start paused.
    bool spin = true;                   ///< Spin the camera when the scenario sets no view.
    bool vsync = true;
    bool shadows = true;  ///< Bodies and meshes cast the sun's shadows (L toggles).
    float uiScale = 1.0f; ///< The panel's sizes and text, times ImGui's own (for a high-DPI X11 screen).
    /// Samples per pixel wanted (0: none; the GL may offer fewer); empty: 4, or none on a software
    /// rasteriser such as llvmpipe, where multisampling doubles the frame's cost.
    std::optional<int> msaaSamples;
    std::optional<std::uint64_t> frames; ///< Quit after this many frames.
    std::string screenshot;              ///< PNG of the last frame (and F12's target); empty: none.
    std::string events;                  ///< Event log: a file, "-" for stdout, empty: none.
    std::string report;                  ///< JSON report at exit: a file, "-", empty: none.
    std::string lab;    ///< --lab: the query lab opens on this query (a valid name); empty: the scenarios.
    std::string record; ///< --record: the session's recording is written here at quit; empty: none.
    std::string replay; ///< --replay: the recording played (scenario and seed are its own); empty: none.
    std::size_t historyMb = 512; ///< --history-mb: the timeline's memory cap, in MiB (>= 1).
    int threads = 1;             ///< --threads: the threads the physics steps on (>= 1).

    // What the settings file adds (settings.hpp; cli/main.cpp merges it, the flags winning).
    std::optional<glm::ivec2> windowPosition; ///< Where the window opens; empty: centred.
    std::string panelLayout;                  ///< Dear ImGui's ini text; empty: the panel's start.
    float spinSpeedDegPerSecond = 8.6f;       ///< The camera's spin speed (the panel's slider).
    /// The scenario is the settings' last one: when it no longer loads, a warning and the default.
    bool scenarioFromSettings = false;
    std::string lastLabQuery;     ///< The card's "Open the lab" opens it; empty: the lab's default.
    bool showFirstRunCard = true; ///< The "Try this" card opens with the window.
    /// Where the window writes its settings when it quits; empty: nowhere (--no-config, no $HOME).
    std::optional<std::filesystem::path> settingsFile;
    /// The settings read at start: kept, for what this run does not change (the last scenario
    /// under --replay).
    Settings settings;
};

struct AppResult {
    int exitCode = 0;  ///< 0 done; 1 failed while running (shaders, a write); 2 cannot start.
    std::string error; ///< One line (without the "kolize: " prefix); empty on success.
};

/// Runs the window until the user quits (or options.frames frames are drawn).
AppResult runApp(const AppOptions& options);

} // namespace kz
