// Meshes in GPU memory: the instanced unit meshes bodies are drawn from, an obstacle's two meshes,
// a translucent surface's triangles and a stream of line or wall vertices re-uploaded every frame. Needs a
// current GL context.
#pragma once

#include "gl_objects.hpp"
#include "meshes.hpp"
#include "physics/obstacle.hpp"

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <vector>

namespace kz::render {

/// Per-instance data of the body shaders (attribute locations 2-5 and 6).
struct Instance {
    glm::mat4 model;
    glm::vec4 color;
};

/// Streams `data` into `buffer`, orphaning its old storage so the driver need not wait for the
/// previous frame's draws.
template <class T>
void streamBuffer(GLenum target, const Buffer& buffer, const std::vector<T>& data) {
    glBindBuffer(target, buffer.id());
    const auto bytes = static_cast<GLsizeiptr>(data.size() * sizeof(T));
    glBufferData(target, bytes, nullptr, GL_STREAM_DRAW);
    if (bytes > 0) glBufferSubData(target, 0, bytes, data.data());
}

/// A unit mesh in GPU memory with a vertex array that also reads an instance buffer.
struct InstancedMesh {
    Buffer vertices = makeBuffer();
    Buffer indices = makeBuffer();
    Buffer instances = makeBuffer();
    VertexArray vao = makeVertexArray();
    GLsizei indexCount = 0;

    explicit InstancedMesh(const MeshData& mesh);
};

/// An obstacle's mesh on the GPU, uploaded once per MeshShape (see MeshShapeCache).
struct ObstacleMesh {
    InstancedMesh flat; ///< Flat shaded (face normals), for the lit pass.
    InstancedMesh hull; ///< Welded, smooth normals: the outline's hull.

    explicit ObstacleMesh(const MeshShape& mesh);
};

/// A hull body's mesh on the GPU, uploaded once per ConvexHull: its faces flat shaded, and the
/// welded hull its outline is drawn from.
struct HullMesh {
    InstancedMesh flat;
    InstancedMesh hull;

    explicit HullMesh(const ConvexHull& shape);
};

/// Non-indexed triangles (MeshVertex: position and normal) re-uploaded whenever drawn, read with
/// one instance (a model matrix and a colour) like an InstancedMesh: a translucent surface for
/// the scene program.
struct StreamedMesh {
    Buffer vertices = makeBuffer();
    Buffer instance = makeBuffer();
    VertexArray vao = makeVertexArray();

    StreamedMesh();

    /// Uploads `triangles` (3 vertices each) and `one`, leaving the vertex array bound; the number
    /// of vertices to draw.
    GLsizei upload(const std::vector<MeshVertex>& triangles, const Instance& one);
};

/// A stream of non-indexed vertices with two vec3 attributes (position and normal or colour).
struct VertexStream {
    Buffer buffer = makeBuffer();
    VertexArray vao = makeVertexArray();

    explicit VertexStream(GLsizei stride);

    template <class T>
    void draw(GLenum mode, const std::vector<T>& data) const {
        if (data.empty()) return;
        streamBuffer(GL_ARRAY_BUFFER, buffer, data);
        glBindVertexArray(vao.id());
        glDrawArrays(mode, 0, static_cast<GLsizei>(data.size()));
    }
};

} // namespace kz::render
