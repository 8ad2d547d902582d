// The interactive window: SDL2 + OpenGL 3.3 core + Dear ImGui, in the shape of Dear ImGui's
// SDL2+OpenGL3 example: init SDL, GL attributes, window and context, glad, ImGui (platform.hpp);
// then the loop, one call a phase (poll events, new frame, keys and mouse, camera and fixed-step
// physics, UI, render, swap: App::loop in app.cpp); then shut down in reverse.
#pragma once

#include <cstdint>
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
};

struct AppResult {
    int exitCode = 0;  ///< 0 done; 1 failed while running (shaders, a write); 2 cannot start.
    std::string error; ///< One line (without the "kolize: " prefix); empty on success.
};

/// Runs the window until the user quits (or options.frames frames are drawn).
AppResult runApp(const AppOptions& options);

} // namespace kz
