// RAII owners for OpenGL objects: every GL name the renderer creates is held by one of these,
// so it is deleted exactly once, and only while the context that made it is current.
#pragma once

#include <glad/gl.h>
#include <utility>

namespace kz::render {

/// Owns one GL name; `Traits::destroy(id)` deletes it. Movable, not copyable; 0 means empty.
template <class Traits>
class GlObject {
public:
    GlObject() = default;
    explicit GlObject(GLuint id) : id_(id) {}
    ~GlObject() { reset(); }
    GlObject(const GlObject&) = delete;
    GlObject& operator=(const GlObject&) = delete;
    GlObject(GlObject&& other) noexcept : id_(std::exchange(other.id_, 0u)) {}
    GlObject& operator=(GlObject&& other) noexcept {
        if (this != &other) {
            reset();
            id_ = std::exchange(other.id_, 0u);
        }
        return *this;
    }

    GLuint id() const { return id_; }
    explicit operator bool() const { return id_ != 0; }
    void reset() {
        if (id_ != 0) Traits::destroy(id_);
        id_ = 0;
    }

private:
    GLuint id_ = 0;
};

struct BufferTraits {
    static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct VertexArrayTraits {
    static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct ShaderTraits {
    static void destroy(GLuint id) { glDeleteShader(id); }
};
struct ProgramTraits {
    static void destroy(GLuint id) { glDeleteProgram(id); }
};
struct TextureTraits {
    static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct FramebufferTraits {
    static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct RenderbufferTraits {
    static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};

using Buffer = GlObject<BufferTraits>;
using VertexArray = GlObject<VertexArrayTraits>;
using Shader = GlObject<ShaderTraits>;
using Program = GlObject<ProgramTraits>;
using Texture = GlObject<TextureTraits>;
using Framebuffer = GlObject<FramebufferTraits>;
using Renderbuffer = GlObject<RenderbufferTraits>;

/// A new name from one of GL's glGen* functions (`gen(1, &id)`), owned by an `Object`.
template <class Object, class Generate>
Object generateObject(Generate gen) {
    GLuint id = 0;
    gen(1, &id);
    return Object(id);
}

inline Buffer makeBuffer() {
    return generateObject<Buffer>(glGenBuffers);
}
inline VertexArray makeVertexArray() {
    return generateObject<VertexArray>(glGenVertexArrays);
}
inline Texture makeTexture() {
    return generateObject<Texture>(glGenTextures);
}
inline Framebuffer makeFramebuffer() {
    return generateObject<Framebuffer>(glGenFramebuffers);
}
inline Renderbuffer makeRenderbuffer() {
    return generateObject<Renderbuffer>(glGenRenderbuffers);
}

} // namespace kz::render
