#include "gpu_mesh.hpp"

namespace kz::render {
namespace {

const void* byteOffset(std::size_t offset) {
    return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(offset));
}

/// Into the bound vertex array: MeshVertex attributes (locations 0 and 1) from `vertices`, and
/// Instance attributes (locations 2-5 and 6, one per instance) from `instances`.
void bindMeshAttributes(const Buffer& vertices, const Buffer& instances) {
    glBindBuffer(GL_ARRAY_BUFFER, vertices.id());
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                          byteOffset(offsetof(MeshVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                          byteOffset(offsetof(MeshVertex, normal)));
    glBindBuffer(GL_ARRAY_BUFFER, instances.id());
    for (GLuint column = 0; column < 4; ++column) {
        glEnableVertexAttribArray(2 + column);
        glVertexAttribPointer(2 + column, 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
                              byteOffset(offsetof(Instance, model) + column * sizeof(glm::vec4)));
        glVertexAttribDivisor(2 + column, 1);
    }
    glEnableVertexAttribArray(6);
    glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, sizeof(Instance), byteOffset(offsetof(Instance, color)));
    glVertexAttribDivisor(6, 1);
}

} // namespace

InstancedMesh::InstancedMesh(const MeshData& mesh) {
    indexCount = static_cast<GLsizei>(mesh.indices.size());
    glBindVertexArray(vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, vertices.id());
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(MeshVertex)),
                 mesh.vertices.data(), GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices.id());
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(std::uint32_t)), mesh.indices.data(),
                 GL_STATIC_DRAW);
    bindMeshAttributes(vertices, instances);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

StreamedMesh::StreamedMesh() {
    glBindVertexArray(vao.id());
    bindMeshAttributes(vertices, instance);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

GLsizei StreamedMesh::upload(const std::vector<MeshVertex>& triangles, const Instance& one) {
    streamBuffer(GL_ARRAY_BUFFER, vertices, triangles);
    streamBuffer(GL_ARRAY_BUFFER, instance, std::vector<Instance>{one});
    glBindVertexArray(vao.id());
    return static_cast<GLsizei>(triangles.size());
}

namespace {

/// A hull's triangles: flatShaded or smoothHull of its fans.
template <MeshData (*Make)(std::span<const glm::vec3>, std::span<const std::uint32_t>)>
MeshData hullMeshData(const ConvexHull& shape) {
    std::vector<glm::vec3> positions;
    std::vector<std::uint32_t> indices;
    hullTriangles(shape, positions, indices);
    return Make(positions, indices);
}

} // namespace

HullMesh::HullMesh(const ConvexHull& shape)
    : flat(hullMeshData<flatShaded>(shape)), hull(hullMeshData<smoothHull>(shape)) {
    glBindVertexArray(hull.vao.id()); // drawn without instances, as ObstacleMesh::hull
    for (GLuint location = 2; location <= 6; ++location)
        glDisableVertexAttribArray(location);
    glBindVertexArray(0);
}

ObstacleMesh::ObstacleMesh(const MeshShape& mesh)
    : flat(flatShaded(mesh.vertices, mesh.indices)), hull(smoothHull(mesh.vertices, mesh.indices)) {
    // The outline draws the hull without instances: it reads no per-instance attribute.
    glBindVertexArray(hull.vao.id());
    for (GLuint location = 2; location <= 6; ++location)
        glDisableVertexAttribArray(location);
    glBindVertexArray(0);
}

VertexStream::VertexStream(GLsizei stride) {
    glBindVertexArray(vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, buffer.id());
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, byteOffset(0));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, byteOffset(sizeof(glm::vec3)));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

} // namespace kz::render
