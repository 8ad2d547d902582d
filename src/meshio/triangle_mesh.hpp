// An indexed triangle mesh: what OBJ files load into and what the mesh generators return.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace kz {

/// Triangles over a shared vertex list. Triangle i is vertices[indices[3i]],
/// vertices[indices[3i + 1]], vertices[indices[3i + 2]], counter-clockwise seen from the front
/// (outside, for a closed mesh). The layout kz::MeshBvh::build takes.
struct TriangleMesh {
    std::vector<glm::vec3> vertices;    ///< Positions in metres; loaded meshes keep only finite ones.
    std::vector<std::uint32_t> indices; ///< 3 per triangle, each < vertices.size(); 0-based.
};

} // namespace kz
