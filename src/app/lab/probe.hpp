// The mouse probe of the normal scene (as Jolt's samples have): every frame, what lies under the
// cursor by the chosen query: the pick ray's hit and normal, a sphere cast of a chosen radius
// along the cursor's ray (the sphere drawn where it first touches), or every hit along the ray
// (pickAll), nearest first. No SDL, GL or ImGui: tested without a display (tests/app/test_lab.cpp).
#pragma once

#include "app/lab/draw.hpp"
#include "physics/pick.hpp"
#include "physics/sphere_cast.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kz {

enum class ProbeMode { Off, Ray, SphereCast, AllHits };
inline constexpr int kProbeModeCount = 4;
/// "off", "ray", "sphere cast", "all hits": the panel's names.
const char* probeModeName(ProbeMode mode);

inline constexpr float kProbeMinRadius = 0.02f; ///< The sphere cast radius slider's range, metres.
inline constexpr float kProbeMaxRadius = 2.0f;

/// This frame's probe.
struct ProbeResult {
    ProbeMode mode = ProbeMode::Off;
    std::optional<Ray> ray;            ///< The cursor's ray; empty when off or not over the scene.
    float radius = 0.0f;               ///< The sphere cast's radius.
    std::optional<PickHit> nearest;    ///< Ray: the nearest body or obstacle.
    std::optional<SphereCastHit> cast; ///< Sphere cast: what the sphere touches first.
    std::vector<PickHit> all;          ///< All hits: every body and obstacle hit, nearest first.
};

/// Runs `mode` along `ray` (radius clamped to [kProbeMinRadius, kProbeMaxRadius]).
ProbeResult runProbe(const World& world, const Ray& ray, ProbeMode mode, float radius);

/// The probe as the window runs it: the panel's choices (mode, radius) and this frame's result.
struct MouseProbe {
    ProbeMode mode = ProbeMode::Off;
    float radius = 0.3f; ///< The sphere cast's, kProbeMinRadius to kProbeMaxRadius.
    ProbeResult result;  ///< This frame's.

    /// This frame's probe along the cursor's `ray` (empty: the cursor is not over the scene).
    void update(const World& world, const std::optional<Ray>& ray);
};

/// The probe's picture: the hit point and normal, the cast sphere where it touches (and its
/// path), or a marker at every hit; nothing when off.
void drawProbe(const ProbeResult& probe, LabCanvas& canvas);

/// What a hit names: the body's or obstacle's name (an obstacle's with its triangle).
std::string probeName(const World& world, const PickHit& hit);
/// What a cast touched: a body, "wall #i" or an obstacle (and its triangle).
std::string probeName(const World& world, const SphereCastHit& hit);

} // namespace kz
