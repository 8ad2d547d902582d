#include "msaa_target.hpp"

#include "app/render/renderer.hpp"

#include <algorithm>
#include <string_view>

namespace kz::render {

bool softwareRasterizer() {
    const auto* name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const std::string_view renderer = name != nullptr ? name : "";
    for (const std::string_view software : {"llvmpipe", "softpipe", "Software Rasterizer", "SWR"}) {
        if (renderer.find(software) != std::string_view::npos) return true;
    }
    return false;
}

int defaultMsaaSamples() {
    return softwareRasterizer() ? 0 : 4;
}

MsaaTarget::MsaaTarget(int samples) {
    GLint most = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &most);
    samples_ = std::min(samples, static_cast<int>(most));
    if (samples_ < 2) samples_ = 0;
}

bool MsaaTarget::allocate(glm::ivec2 size) {
    framebuffer_ = makeFramebuffer();
    color_ = makeRenderbuffer();
    depth_ = makeRenderbuffer();
    glBindRenderbuffer(GL_RENDERBUFFER, color_.id());
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_RGBA8, size.x, size.y);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_.id());
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_DEPTH24_STENCIL8, size.x, size.y);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.id());
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_.id());
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth_.id());
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return false;
    size_ = size;
    return true;
}

bool MsaaTarget::begin(glm::ivec2 size) {
    if (samples_ == 0) return false;
    if (size != size_ && !allocate(size)) {
        // The context offered the samples but cannot make this framebuffer: draw without.
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        framebuffer_.reset();
        color_.reset();
        depth_.reset();
        samples_ = 0;
        size_ = {0, 0};
        return false;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.id());
    return true;
}

void MsaaTarget::resolve(GLuint target) const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_.id());
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    glBlitFramebuffer(0, 0, size_.x, size_.y, 0, 0, size_.x, size_.y, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, target);
}

} // namespace kz::render
