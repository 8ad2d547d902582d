// Unit meshes the bodies are instanced from (CPU side; no GL here).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace kz::render {

struct MeshVertex {
    glm::vec3 position;
    glm::vec3 normal; ///< Unit, pointing out of the solid.
};

/// Indexed triangles, counter-clockwise seen from outside.
struct MeshData {
    std::vector<MeshVertex> vertices;
    std::vector<std::uint32_t> indices;
};

/// The unit sphere as a UV sphere: `slices` around the y axis, `stacks` from pole to pole
/// (each >= 3 and >= 2); normals equal positions. Degenerate pole triangles are left out.
MeshData unitSphere(int slices, int stacks);

/// The cube [-1, 1]^3: 24 vertices (4 per face, with the face's normal) and 36 indices.
MeshData unitCube();

} // namespace kz::render
