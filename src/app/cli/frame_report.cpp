#include "app/cli/frame_report.hpp"

#include "app/cli/json_text.hpp"
#include "app/cli/report_numbers.hpp"
#include "physics/state_hash.hpp"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <utility>

namespace kz {

void FrameTimes::add(float frameMs, float physicsMs, float pickingMs, float uiMs, float drawMs) {
    if (frame.size() >= kMaxSamples) return;
    frame.push_back(frameMs);
    physics.push_back(physicsMs);
    picking.push_back(pickingMs);
    ui.push_back(uiMs);
    draw.push_back(drawMs);
}

nlohmann::ordered_json frameReport(const FrameTimes& times, std::uint64_t frames, double seconds,
                                   const World& world, const std::string& scenarioTitle, std::uint64_t seed,
                                   const DrawSettings& drawn, const PaceSummary& pace) {
    nlohmann::ordered_json report;
    report["frames"] = frames;
    report["seconds"] = seconds;
    report["fps"] = seconds > 0.0 ? static_cast<double>(frames) / seconds : 0.0;
    // The samples are floats: their median is reported as one, written as its shortest decimal.
    const auto floatMedian = [](const std::vector<float>& ms) {
        return shortestDouble(static_cast<float>(median(ms)));
    };
    report["ms_per_frame_median"] = floatMedian(times.frame);
    report["physics_ms_median"] = floatMedian(times.physics);
    report["picking_ms_median"] = floatMedian(times.picking);
    report["ui_ms_median"] = floatMedian(times.ui);
    report["draw_ms_median"] = floatMedian(times.draw);
    report["bodies"] = world.bodies().size();
    report["obstacles"] = world.obstacles().size();
    nlohmann::ordered_json triangles = nlohmann::ordered_json::array();
    for (const Obstacle& obstacle : world.obstacles())
        triangles.push_back(obstacle.mesh ? obstacle.mesh->triangleCount() : 0);
    report["obstacle_triangles"] = std::move(triangles);
    report["scenario"] = scenarioTitle;
    report["seed"] = seed;
    report["msaa_samples"] = drawn.msaaSamples;
    report["shadows"] = drawn.shadows;
    report["state_hash"] = stateHashText(stateHash(world));
    report["threads"] = pace.threads;
    report["effective_time_scale"] = shortestDouble(static_cast<float>(pace.effectiveTimeScale));
    report["physics_behind_frames"] = pace.behindFrames;
    return report;
}

bool FrameReportFile::open(const std::string& target, std::string& error) {
    target_ = target;
    if (target.empty() || target == "-") return true;
    file_.open(target, std::ios::out | std::ios::trunc);
    if (!file_) {
        error = "--report: cannot write '" + target + "': " + std::strerror(errno);
        return false;
    }
    return true;
}

bool FrameReportFile::write(const nlohmann::ordered_json& report, std::string& error) {
    if (target_.empty()) return true;
    std::ostream& out = target_ == "-" ? std::cout : static_cast<std::ostream&>(file_);
    out << jsonText(report, 2) << '\n';
    out.flush();
    if (!out) {
        error = "--report: cannot write '" + target_ + "'";
        return false;
    }
    return true;
}

} // namespace kz
