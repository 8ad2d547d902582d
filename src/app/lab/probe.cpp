#include "app/lab/probe.hpp"

#include <algorithm>

namespace kz {
namespace {

constexpr const char* kModeNames[kProbeModeCount] = {"off", "ray", "sphere cast", "all hits"};
constexpr glm::vec3 kProbeColor{1.0f, 0.88f, 0.25f};
constexpr glm::vec3 kNormalColor{0.25f, 0.95f, 1.0f};
constexpr glm::vec3 kCastColor{1.0f, 0.6f, 0.2f};
constexpr float kNormalLength = 0.5f;

/// The hit point and a short normal.
void drawHit(const RayHit& hit, const glm::vec3& color, LabCanvas& canvas) {
    canvas.cross(hit.point, color);
    canvas.arrow(hit.point, hit.point + kNormalLength * hit.normal, kNormalColor, true);
}

std::string obstacleName(const World& world, int obstacle, std::uint32_t triangle) {
    const auto obstacles = world.obstacles();
    if (obstacle < 0 || obstacle >= static_cast<int>(obstacles.size())) return "?";
    return obstacles[std::size_t(obstacle)].name + ", triangle #" + std::to_string(triangle);
}

std::string bodyName(const World& world, int body) {
    const auto bodies = world.bodies();
    return body >= 0 && body < static_cast<int>(bodies.size()) ? bodies[std::size_t(body)].name : "?";
}

} // namespace

const char* probeModeName(ProbeMode mode) {
    const int i = static_cast<int>(mode);
    return i >= 0 && i < kProbeModeCount ? kModeNames[i] : "?";
}

ProbeResult runProbe(const World& world, const Ray& ray, ProbeMode mode, float radius) {
    ProbeResult probe;
    probe.mode = mode;
    probe.radius = std::clamp(radius, kProbeMinRadius, kProbeMaxRadius);
    if (mode == ProbeMode::Off || !isValid(ray)) return probe;
    probe.ray = ray;
    switch (mode) {
    case ProbeMode::Ray:
        probe.nearest = pickNearest(world, ray);
        break;
    case ProbeMode::SphereCast:
        probe.cast = sphereCast(world, ray, probe.radius);
        break;
    default:
        probe.all = pickAll(world, ray);
        break;
    }
    return probe;
}

void drawProbe(const ProbeResult& probe, LabCanvas& canvas) {
    if (!probe.ray) return;
    const Ray& ray = *probe.ray;
    if (probe.nearest) {
        canvas.line(ray.origin, probe.nearest->hit.point, kProbeColor);
        drawHit(probe.nearest->hit, kProbeColor, canvas);
    }
    if (probe.cast) {
        const SphereCastHit& cast = *probe.cast;
        canvas.line(ray.origin, cast.center, kCastColor);
        canvas.sphere(cast.center, probe.radius, kCastColor);
        drawHit(RayHit{cast.t, cast.point, cast.normal}, kCastColor, canvas);
    }
    for (std::size_t i = 0; i < probe.all.size(); ++i) {
        // Nearest first, from yellow to red.
        const float along = probe.all.size() > 1 ? float(i) / float(probe.all.size() - 1) : 0.0f;
        drawHit(probe.all[i].hit, glm::mix(kProbeColor, glm::vec3(1.0f, 0.25f, 0.2f), along), canvas);
    }
    if (!probe.all.empty()) canvas.line(ray.origin, probe.all.back().hit.point, kProbeColor);
}

std::string probeName(const World& world, const PickHit& hit) {
    return hit.isBody() ? bodyName(world, hit.body) : obstacleName(world, hit.obstacle, hit.triangle);
}

std::string probeName(const World& world, const SphereCastHit& hit) {
    if (hit.body >= 0) return bodyName(world, hit.body);
    if (hit.wall >= 0) return "wall #" + std::to_string(hit.wall);
    return obstacleName(world, hit.obstacle, hit.triangle);
}

void MouseProbe::update(const World& world, const std::optional<Ray>& ray) {
    result = ProbeResult{};
    if (mode == ProbeMode::Off || !ray) return;
    result = runProbe(world, *ray, mode, radius);
}

} // namespace kz
