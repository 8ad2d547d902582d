// Unit meshes the bodies are instanced from, and the two forms of an obstacle's triangle mesh
// the renderer uploads (CPU side; no GL here).
#pragma once

#include "geom/convex_hull.hpp"

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
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

/// The open tube of radius 1 around the y axis from y = -1 to 1, `slices` around (>= 3), radial
/// normals: a capsule's side, scaled (r, h, r).
MeshData unitTube(int slices);

/// The closed cylinder of radius 1 around the y axis from y = -1 to 1: the tube and two flat caps
/// (their own vertices, with the caps' normals), scaled (r, h, r) for a cylinder body.
MeshData unitCylinder(int slices);

/// The half y >= 0 of unitSphere (`stacks` from the pole to the equator, >= 1), open at the
/// equator: a capsule's end, scaled by r and moved to the end of its segment.
MeshData unitHemisphere(int slices, int stacks);

/// A convex hull's faces as triangle fans (positions and counter-clockwise indices, seen from
/// outside), for flatShaded and smoothHull. Faces whose loop is broken are left out.
void hullTriangles(const ConvexHull& hull, std::vector<glm::vec3>& positions,
                   std::vector<std::uint32_t>& indices);

/// Flat shading: every triangle (3 indices each) as its own 3 vertices with its unit face normal
/// (from the winding, cross(b - a, c - a)); `indices` is 0, 1, 2, ... Triangles with a zero area
/// or an index out of range are left out.
MeshData flatShaded(std::span<const glm::vec3> positions, std::span<const std::uint32_t> indices);

/// The hull an outline is drawn from: vertices welded by position (equal floats), each with the
/// area-weighted mean of its triangles' unit normals, so pushing every vertex along its normal
/// keeps the surface closed. Triangles with a zero area or an index out of range are left out.
/// When the triangles enclose a negative volume (wound clockwise seen from outside) they are
/// turned around, so normals point out of a closed mesh either way.
MeshData smoothHull(std::span<const glm::vec3> positions, std::span<const std::uint32_t> indices);

} // namespace kz::render
