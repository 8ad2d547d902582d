// Framing the 3D view in the part of the window the panel leaves free: the free rectangle, and a
// perspective whose centre is that rectangle's centre (an off-centre frustum over the whole
// window), so the camera's target sits in the middle of what the user sees while the scene still
// fills the window behind the half-transparent panel. Pure GLM (no SDL, GL or ImGui): the app
// feeds it the panel's rectangle from the last UI frame; picking stays exact because screenRay
// unprojects through the same matrix.
#pragma once

#include <glm/glm.hpp>
#include <optional>

namespace kz {

/// A rectangle of the window in points (SDL window coordinates: origin top-left, y down).
struct ScreenRect {
    glm::vec2 min{0.0f}; ///< Top-left corner.
    glm::vec2 max{0.0f}; ///< Bottom-right corner; max >= min on both axes for a non-empty rectangle.

    glm::vec2 size() const { return max - min; }
    glm::vec2 centre() const { return 0.5f * (min + max); }
};

/// Below this share of the window's width, the free strip beside the panel is too narrow to frame
/// the view in: the whole window is used instead.
inline constexpr float kMinFreeShare = 0.3f;

/// The part of a `window`-sized window (points, >= 1 each) the panel leaves free: the whole window
/// without a panel (hidden or collapsed: empty `panel`); with one, the full-height strip on the
/// wider side of it (right of a panel at the left edge, left of one at the right edge), or the
/// whole window when that strip is narrower than kMinFreeShare of it (a panel as wide as the
/// window). The panel may reach out of the window; only its part inside counts.
ScreenRect freeArea(glm::vec2 window, const std::optional<ScreenRect>& panel);

/// A perspective over the whole `window` (points, >= 1 each) whose centre of projection is the
/// centre of `free`: the vertical field of view `fovY` (radians) spans the free area's height, or
/// its width when the free area is taller than wide, so a view that fits a square around the target
/// fits the free area at any shape. It equals glm::perspective(fovY, window aspect, ...) when `free`
/// is the whole window and wider than tall. near, far > 0.
///
/// Equation: P = T(c) S(s) perspective(fov', w_f / h_f, near, far), where the free area's
/// normalised device coordinates are mapped into the window's: s = (w_f / W, h_f / H) and c is the
/// free area's centre in the window's NDC (x right, y up); fov' = fovY, or 2 atan(tan(fovY / 2) h_f
/// / w_f) when w_f < h_f. (The off-axis projection of three.js' PerspectiveCamera.setViewOffset.)
glm::mat4 framedPerspective(float fovY, float near, float far, glm::vec2 window, const ScreenRect& free);

/// The points on screen the camera's field of view spans (its vertical one, or its horizontal one in
/// a free area taller than wide): the smaller side of `free`. Panning moves the target by
/// 2 distance tan(fov / 2) / span per point of mouse motion.
float fieldOfViewSpan(const ScreenRect& free);

/// Where `proj * view` puts world point `p` in a `window`-sized window, in points (top-left
/// origin); empty behind the camera (clip w <= 0).
std::optional<glm::vec2> projectToWindow(const glm::mat4& viewProj, const glm::vec3& p, glm::vec2 window);

} // namespace kz
