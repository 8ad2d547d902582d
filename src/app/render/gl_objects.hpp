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

using Buffer = GlObject<BufferTraits>;
using VertexArray = GlObject<VertexArrayTraits>;
using Shader = GlObject<ShaderTraits>;
using Program = GlObject<ProgramTraits>;

inline Buffer makeBuffer() {
    GLuint id = 0;
    glGenBuffers(1, &id);
    return Buffer(id);
}

inline VertexArray makeVertexArray() {
    GLuint id = 0;
    glGenVertexArrays(1, &id);
    return VertexArray(id);
}

} // namespace kz::render
