#include "shadow_map.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>

namespace kz::render {

glm::vec3 sunDirection() {
    return glm::normalize(glm::vec3(0.3f, 1.0f, 0.45f));
}

glm::mat4 sunViewProj(const Aabb& bounds, const glm::vec3& towardSun) {
    // Look at the box's centre from outside it, with an up vector the sun's direction is not near.
    const glm::vec3 centre = 0.5f * (bounds.min + bounds.max);
    const float radius = std::max(0.5f * glm::length(bounds.max - bounds.min), 1e-3f);
    const glm::vec3 up =
        std::abs(towardSun.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(0.0f, 0.0f, 1.0f);
    const glm::mat4 view = glm::lookAt(centre + 2.0f * radius * towardSun, centre, up);
    // The box's corners in the light's view space: their extent is the orthographic box.
    glm::vec3 lo(std::numeric_limits<float>::max());
    glm::vec3 hi(-std::numeric_limits<float>::max());
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? bounds.max.x : bounds.min.x, (i & 2) ? bounds.max.y : bounds.min.y,
                               (i & 4) ? bounds.max.z : bounds.min.z);
        const glm::vec3 v(view * glm::vec4(corner, 1.0f));
        lo = glm::min(lo, v);
        hi = glm::max(hi, v);
    }
    // The view looks down -z: near and far are distances, the negated z extent. A hair of margin
    // keeps the box's own corners off the clip planes' rounding.
    const glm::vec3 margin = 1e-4f * (hi - lo) + glm::vec3(1e-5f);
    lo -= margin;
    hi += margin;
    return glm::ortho(lo.x, hi.x, lo.y, hi.y, -hi.z, -lo.z) * view;
}

float shadowTexelWorld(const glm::mat4& sunViewProj, int mapSize) {
    // An orthographic projection scales x and y by 2 / width: its first two diagonal entries
    // (the view is a rotation, so the columns' lengths give them whatever the orientation).
    const float width =
        2.0f / glm::length(glm::vec3(sunViewProj[0][0], sunViewProj[1][0], sunViewProj[2][0]));
    const float height =
        2.0f / glm::length(glm::vec3(sunViewProj[0][1], sunViewProj[1][1], sunViewProj[2][1]));
    return std::max(width, height) / static_cast<float>(std::max(mapSize, 1));
}

ShadowMap::ShadowMap(int size) : size_(std::max(size, 1)) {
    glBindTexture(GL_TEXTURE_2D, depth_.id());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size_, size_, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT,
                 nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
    const float farDepth[4] = {1.0f, 1.0f, 1.0f, 1.0f}; // beyond the map: nothing casts
    glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, farDepth);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    glBindTexture(GL_TEXTURE_2D, 0);

    GLint previous = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.id());
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth_.id(), 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
}

void ShadowMap::beginPass() const {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.id());
    glViewport(0, 0, size_, size_);
    glDepthMask(GL_TRUE);
    glClear(GL_DEPTH_BUFFER_BIT);
}

} // namespace kz::render
