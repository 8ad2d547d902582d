#include "app/view/framing.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace kz {

ScreenRect freeArea(glm::vec2 window, const std::optional<ScreenRect>& panel) {
    const ScreenRect whole{glm::vec2(0.0f), window};
    if (!panel) return whole;
    // The panel's part inside the window; one outside it leaves the window free.
    const glm::vec2 lo = glm::clamp(panel->min, glm::vec2(0.0f), window);
    const glm::vec2 hi = glm::clamp(panel->max, glm::vec2(0.0f), window);
    if (!(hi.x > lo.x && hi.y > lo.y)) return whole;
    const float left = lo.x;
    const float right = window.x - hi.x;
    if (std::max(left, right) < kMinFreeShare * window.x) return whole;
    if (right >= left) return {{hi.x, 0.0f}, window};
    return {glm::vec2(0.0f), {lo.x, window.y}};
}

float fieldOfViewSpan(const ScreenRect& free) {
    const glm::vec2 size = glm::max(free.size(), glm::vec2(1e-3f));
    return std::min(size.x, size.y);
}

glm::mat4 framedPerspective(float fovY, float near, float far, glm::vec2 window, const ScreenRect& free) {
    const glm::vec2 safeWindow = glm::max(window, glm::vec2(1.0f));
    const glm::vec2 size = glm::max(free.size(), glm::vec2(1e-3f));
    const float aspect = size.x / size.y;
    // In a free area taller than wide the field of view spans its width.
    const float fov = aspect >= 1.0f ? fovY : 2.0f * std::atan(std::tan(0.5f * fovY) / aspect);
    const glm::mat4 inFree = glm::perspective(fov, aspect, near, far);
    // The free area's NDC into the window's: scale by its share, move to its centre (y up).
    const glm::vec2 scale = size / safeWindow;
    const glm::vec2 centre = free.centre() / safeWindow;
    const glm::vec2 offset(2.0f * centre.x - 1.0f, 1.0f - 2.0f * centre.y);
    glm::mat4 toWindow(1.0f);
    toWindow[0][0] = scale.x;
    toWindow[1][1] = scale.y;
    // Clip-space translation: x' = s x + c w, so after the divide by w, x'/w = s (x/w) + c.
    toWindow[3][0] = offset.x;
    toWindow[3][1] = offset.y;
    return toWindow * inFree;
}

std::optional<glm::vec2> projectToWindow(const glm::mat4& viewProj, const glm::vec3& p, glm::vec2 window) {
    const glm::vec4 clip = viewProj * glm::vec4(p, 1.0f);
    if (!(clip.w > 0.0f)) return std::nullopt;
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    return glm::vec2((ndc.x * 0.5f + 0.5f) * window.x, (0.5f - ndc.y * 0.5f) * window.y);
}

} // namespace kz
