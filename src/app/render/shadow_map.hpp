// The sun and its shadow map: where the light comes from, the orthographic frustum fitted to the
// room, and the depth texture the shadow pass draws into and the lit passes compare against.
// sunDirection and sunViewProj are pure maths (tested without GL); ShadowMap needs a current GL
// 3.3 context.
#pragma once

#include "geom/types.hpp"
#include "gl_objects.hpp"

#include <glm/glm.hpp>

namespace kz::render {

/// Unit vector toward the sun: a light fixed in the world, high above the room and a little to
/// one side, so a body's shadow lies on the floor under it, just off its foot.
glm::vec3 sunDirection();

/// The sun's view and orthographic projection fitted to `bounds`, looking along -towardSun:
/// every point of the box lands inside the clip volume [-1, 1]^3 and the box touches each of its
/// six faces, so nothing in the box casts a clipped shadow and no texel lies outside it.
/// `towardSun` must be unit length. The usual fit of a directional light to a scene's bounds
/// ("Common Techniques to Improve Shadow Depth Maps", Microsoft Learn).
glm::mat4 sunViewProj(const Aabb& bounds, const glm::vec3& towardSun);

/// The width of the texel of a `mapSize`-texel shadow map under `sunViewProj`, in metres: the
/// larger of the frustum's two widths over the map's size (the lit passes' normal offset).
float shadowTexelWorld(const glm::mat4& sunViewProj, int mapSize);

/// A square depth texture with its framebuffer (no colour buffer). Sampled as a
/// sampler2DShadow: depth comparison (GL_LEQUAL) with linear filtering, so each lookup is a 2x2
/// percentage-closer filter; outside the map everything counts as lit.
class ShadowMap {
public:
    /// `size` texels a side (> 0).
    explicit ShadowMap(int size);

    int size() const { return size_; }
    GLuint texture() const { return depth_.id(); }
    /// Binds its framebuffer and viewport and clears its depth to the far plane: the shadow pass
    /// draws next.
    void beginPass() const;

private:
    int size_;                                    ///< Texels a side.
    Texture depth_ = makeTexture();               ///< GL_DEPTH_COMPONENT24, compared (sampler2DShadow).
    Framebuffer framebuffer_ = makeFramebuffer(); ///< depth_ as its only attachment.
};

} // namespace kz::render
