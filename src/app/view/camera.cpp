#include "app/view/camera.hpp"

#include "scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace kz {
namespace {

constexpr float kRadiansPerPixel = 0.005f;
constexpr float kZoomPerStep = 0.9f;   ///< Distance factor per wheel step toward the target.
constexpr float kDefaultPitch = 0.35f; ///< About 20 degrees above the room's centre.
constexpr float kDefaultFovDeg = 60.0f;
constexpr float kDefaultFit = 1.15f; ///< Margin around the room's bounding sphere.

} // namespace

OrbitView OrbitCamera::viewFromEyeTarget(const glm::vec3& eye, const glm::vec3& target, float fovDeg) {
    OrbitView view;
    view.target = target;
    view.fovDeg = fovDeg;
    const glm::vec3 offset = eye - target;
    view.distance = std::max(glm::length(offset), 1e-3f);
    view.pitch =
        std::clamp(std::asin(std::clamp(offset.y / view.distance, -1.0f, 1.0f)), -kMaxPitch, kMaxPitch);
    view.yaw = std::atan2(offset.x, offset.z);
    return view;
}

OrbitCamera OrbitCamera::forRoom(const Aabb& roomBounds, const std::optional<CameraDesc>& scenarioCamera) {
    OrbitCamera camera;
    const glm::vec3 centre = 0.5f * (roomBounds.min + roomBounds.max);
    camera.sceneRadius_ = std::max(0.5f * glm::length(roomBounds.max - roomBounds.min), 0.1f);
    if (scenarioCamera) {
        camera.home_ = viewFromEyeTarget(scenarioCamera->eye, scenarioCamera->target, scenarioCamera->fovDeg);
        camera.spinning_ = false;
        camera.fromScenario_ = true;
    } else {
        // The whole bounding sphere fits the vertical field of view (and so any wider aspect).
        const float halfFov = glm::radians(kDefaultFovDeg) * 0.5f;
        camera.home_.target = centre;
        camera.home_.fovDeg = kDefaultFovDeg;
        camera.home_.pitch = kDefaultPitch;
        camera.home_.yaw = 0.0f;
        camera.home_.distance = kDefaultFit * camera.sceneRadius_ / std::sin(halfFov);
    }
    camera.view_ = camera.home_;
    return camera;
}

void OrbitCamera::update(float seconds) {
    if (!spinning_) return;
    view_.yaw = std::remainder(view_.yaw + spinSpeed_ * seconds, glm::two_pi<float>());
}

void OrbitCamera::orbit(float dxPixels, float dyPixels) {
    view_.yaw = std::remainder(view_.yaw - dxPixels * kRadiansPerPixel, glm::two_pi<float>());
    view_.pitch = std::clamp(view_.pitch + dyPixels * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::zoom(float steps) {
    const float minDistance = std::min(0.05f * sceneRadius_, home_.distance);
    const float maxDistance = std::max(20.0f * sceneRadius_, home_.distance);
    view_.distance = std::clamp(view_.distance * std::pow(kZoomPerStep, steps), minDistance, maxDistance);
}

void OrbitCamera::pan(float dxPixels, float dyPixels, float viewportHeightPixels) {
    if (!(viewportHeightPixels > 0.0f)) return;
    // World units per pixel at the target's depth.
    const float unitsPerPixel =
        2.0f * view_.distance * std::tan(glm::radians(view_.fovDeg) * 0.5f) / viewportHeightPixels;
    const glm::mat4 view = viewMatrix();
    const glm::vec3 right{view[0][0], view[1][0], view[2][0]};
    const glm::vec3 up{view[0][1], view[1][1], view[2][1]};
    view_.target += (-dxPixels * right + dyPixels * up) * unitsPerPixel;
}

glm::vec3 OrbitCamera::eye() const {
    const float cp = std::cos(view_.pitch);
    return view_.target + view_.distance * glm::vec3(cp * std::sin(view_.yaw), std::sin(view_.pitch),
                                                     cp * std::cos(view_.yaw));
}

glm::mat4 OrbitCamera::viewMatrix() const {
    return glm::lookAt(eye(), view_.target, glm::vec3(0.0f, 1.0f, 0.0f));
}

float OrbitCamera::nearPlane() const {
    return std::clamp(0.01f * view_.distance, 0.01f, 0.5f);
}

float OrbitCamera::farPlane() const {
    return view_.distance + 4.0f * sceneRadius_ + glm::length(view_.target - home_.target) + 10.0f;
}

glm::mat4 OrbitCamera::projMatrix(float aspect) const {
    const float safeAspect = aspect > 0.0f && std::isfinite(aspect) ? aspect : 1.0f;
    return glm::perspective(glm::radians(view_.fovDeg), safeAspect, nearPlane(), farPlane());
}

glm::mat4 OrbitCamera::projMatrix(glm::vec2 window, const ScreenRect& free) const {
    return framedPerspective(glm::radians(view_.fovDeg), nearPlane(), farPlane(), window, free);
}

} // namespace kz
