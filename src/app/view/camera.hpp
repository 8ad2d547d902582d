// The orbit camera: yaw, pitch and distance around a target point. Pure GLM (no SDL, no GL), so
// the mouse and keyboard handling in app.cpp only feeds it pixel deltas and wheel steps.
#pragma once

#include "app/view/framing.hpp"
#include "geom/types.hpp"

#include <optional>

namespace kz {

struct CameraDesc;

/// A view around a target: eye = target + distance * (cos p sin y, sin p, cos p cos y).
struct OrbitView {
    glm::vec3 target{0.0f};
    float yaw = 0.0f;       ///< Radians about the world y axis; 0 looks down -z.
    float pitch = 0.0f;     ///< Radians above the target's horizontal plane, within +-kMaxPitch.
    float distance = 10.0f; ///< From the target to the eye, > 0.
    float fovDeg = 60.0f;   ///< Vertical field of view.
};

class OrbitCamera {
public:
    static constexpr float kMaxPitch = 1.5533430f; ///< 89 degrees: the view never flips over the pole.

    /// Home view: the scenario's camera when it has one (and then no spin), else a view of the
    /// whole room from slightly above, spinning slowly.
    static OrbitCamera forRoom(const Aabb& roomBounds, const std::optional<CameraDesc>& scenarioCamera);

    /// The view looking from `eye` at `target` (any eye != target; a pitch past 89 degrees is clamped).
    static OrbitView viewFromEyeTarget(const glm::vec3& eye, const glm::vec3& target, float fovDeg);

    /// Spins (when spinning) by spinSpeed * seconds.
    void update(float seconds);
    /// Right-drag: turn by pixel deltas (x: yaw, y: pitch).
    void orbit(float dxPixels, float dyPixels);
    /// Mouse wheel: positive steps move closer.
    void zoom(float steps);
    /// Middle-drag: move the target in the view plane so the point under the cursor follows it.
    void pan(float dxPixels, float dyPixels, float viewportHeightPixels);
    /// Home: back to the start view (the spin state is kept).
    void reset() { view_ = home_; }

    glm::vec3 eye() const;
    glm::mat4 viewMatrix() const;
    /// Perspective for the viewport's aspect ratio (width / height; any positive value).
    glm::mat4 projMatrix(float aspect) const;
    /// Perspective over a `window`-sized window (points) framed in its `free` part: the target at
    /// the free area's centre, the field of view spanning it (framedPerspective, framing.hpp).
    glm::mat4 projMatrix(glm::vec2 window, const ScreenRect& free) const;
    float nearPlane() const;
    float farPlane() const;

    bool spinning() const { return spinning_; }
    void setSpinning(bool on) { spinning_ = on; }
    float spinSpeed() const { return spinSpeed_; } ///< Radians per second.
    void setSpinSpeed(float radPerSecond) { spinSpeed_ = radPerSecond; }
    bool hasScenarioView() const { return fromScenario_; } ///< The home view came from the scenario.

    const OrbitView& view() const { return view_; }
    OrbitView& view() { return view_; }
    const OrbitView& home() const { return home_; }

private:
    OrbitView home_;
    OrbitView view_;
    float sceneRadius_ = 10.0f; ///< Half the room's diagonal: bounds zoom and the far plane.
    float spinSpeed_ = 0.15f;
    bool spinning_ = true;
    bool fromScenario_ = false;
};

} // namespace kz
