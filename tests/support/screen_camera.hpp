// Test support: a window's picture for the mouse tests without a display (the app's lookAt with
// up +y and perspective projection), and where a world point shows in it.
#pragma once

#include "app/view/interaction.hpp"

#include <glm/gtc/matrix_transform.hpp>

namespace kz::test {

/// A camera at `eye` looking at `target` into a window of `size` points (no high-DPI scaling).
inline ScreenCamera screenCamera(const glm::vec3& eye, const glm::vec3& target, glm::ivec2 size,
                                 float fovDeg) {
    ScreenCamera s;
    s.windowSize = size;
    s.drawableSize = size;
    s.eye = eye;
    s.target = target;
    s.view = glm::lookAt(s.eye, s.target, glm::vec3(0.0f, 1.0f, 0.0f));
    s.proj = glm::perspective(glm::radians(fovDeg), float(size.x) / float(size.y), 0.1f, 100.0f);
    return s;
}

/// The SDL window position whose pixel centre shows `point`.
inline glm::vec2 pixelOf(const ScreenCamera& s, const glm::vec3& point) {
    const glm::vec4 clip = s.proj * s.view * glm::vec4(point, 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const glm::vec2 size(s.windowSize);
    return glm::vec2((ndc.x * 0.5f + 0.5f) * size.x, (0.5f - ndc.y * 0.5f) * size.y) - 0.5f;
}

} // namespace kz::test
