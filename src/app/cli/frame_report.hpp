// The report of a window run (--report FILE|-): how many frames in how long, the medians of the
// per-frame CPU times of each phase, and what was on screen at the end. One JSON object, keys in
// this order: frames, seconds, fps, ms_per_frame_median, physics_ms_median, picking_ms_median,
// ui_ms_median, draw_ms_median, bodies, obstacles, obstacle_triangles, scenario, seed,
// msaa_samples, shadows, state_hash (the world's at the end: physics/state_hash.hpp), threads,
// effective_time_scale, physics_behind_frames (the pace: pace_meter.hpp).
#pragma once

#include "physics/world.hpp"

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kz {

/// Per-frame CPU times, in milliseconds, of the whole frame and of each of its phases.
struct FrameTimes {
    static constexpr std::size_t kMaxSamples = std::size_t{1} << 21; ///< Later frames are not timed.

    std::vector<float> frame, physics, picking, ui, draw;
    void add(float frameMs, float physicsMs, float pickingMs, float uiMs, float drawMs);
};

/// How the frames were drawn.
struct DrawSettings {
    int msaaSamples = 0; ///< Samples per pixel of the scene (0: not multisampled).
    bool shadows = true; ///< Shadows on at the end of the run.
};

/// How the physics kept pace with real time.
struct PaceSummary {
    int threads = 1;                 ///< The threads the physics stepped on.
    double effectiveTimeScale = 0.0; ///< Simulated seconds per wall second at the end, smoothed (0: paused).
    std::uint64_t behindFrames = 0;  ///< Frames during which the physics was behind real time.
};

/// The report's JSON: `frames` drawn in `seconds`, the medians of `times` (each a float written
/// as its shortest decimal), the world's bodies, obstacles and their triangle counts, how the
/// frames were drawn, the world's state hash, and the pace.
nlohmann::ordered_json frameReport(const FrameTimes& times, std::uint64_t frames, double seconds,
                                   const World& world, const std::string& scenarioTitle, std::uint64_t seed,
                                   const DrawSettings& drawn = {}, const PaceSummary& pace = {});

/// Where the report goes: opened at start, so that a bad path fails before the window opens.
class FrameReportFile {
public:
    /// `target`: a file (truncated), "-" for stdout, empty for no report. False with `error` set
    /// (one line) when the file cannot be written.
    bool open(const std::string& target, std::string& error);
    /// Writes `report` (nothing without a target). False with `error` set when the write fails.
    bool write(const nlohmann::ordered_json& report, std::string& error);
    bool enabled() const { return !target_.empty(); }

private:
    std::string target_;
    std::ofstream file_;
};

} // namespace kz
