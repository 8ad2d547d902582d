// Multisampling: the scene passes draw into a multisampled colour and depth buffer of the frame's
// size, resolved (averaged) into the target framebuffer at the end of the frame, so the window,
// the UI drawn over it and readPixels see an ordinary antialiased image. Needs a current GL 3.3
// context.
#pragma once

#include "gl_objects.hpp"

#include <glm/glm.hpp>

namespace kz::render {

class MsaaTarget {
public:
    /// `samples` per pixel wanted: 0 or 1 for none, else clamped to what the context offers
    /// (GL_MAX_SAMPLES); none when it offers fewer than 2.
    explicit MsaaTarget(int samples);

    /// Samples per pixel in use: 0 when multisampling is off or the context cannot do it (a
    /// framebuffer that cannot be made turns it off for good).
    int samples() const { return samples_; }

    /// Binds the multisampled framebuffer, made anew at `size` pixels when that changed, for the
    /// scene's passes. False, with nothing bound, when samples() is 0.
    bool begin(glm::ivec2 size);
    /// Resolves the multisampled colour into framebuffer `target` (0: the window's), and leaves
    /// `target` bound for drawing and reading.
    void resolve(GLuint target) const;

private:
    bool allocate(glm::ivec2 size);

    int samples_ = 0;         ///< In use; 0: off.
    glm::ivec2 size_{0, 0};   ///< Of the buffers allocated; 0 before the first frame.
    Framebuffer framebuffer_; ///< Made with the buffers, on the first frame of a size.
    Renderbuffer color_;      ///< RGBA8, samples_ per pixel.
    Renderbuffer depth_;      ///< Depth 24, stencil 8, samples_ per pixel.
};

} // namespace kz::render
