// Internal stages of buildConvexHull (not part of the public contract): the triangle quickhull
// (convex_hull.cpp) hands a closed triangle mesh to the face merging and assembly
// (convex_hull_merge.cpp).
#pragma once

#include "convex_hull.hpp"

#include <array>
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

namespace kz {
struct ConvexHullTrace;
}

namespace kz::hull_detail {

inline constexpr std::uint32_t kNone = 0xffffffffu;

/// One triangle of quickhull's result, counter-clockwise seen from outside.
struct HullTriangle {
    std::array<std::uint32_t, 3> v;   ///< Indices of input points.
    std::array<std::uint32_t, 3> adj; ///< adj[i]: the triangle across the edge v[i] -> v[i + 1].
};

/// The tolerances of one build, all from the input's extent.
struct HullTolerances {
    double merge;    ///< Points closer than this to the hull do not join it; faces merge within it.
    double plane;    ///< Double rounding: a face is visible from a point farther out than this.
    float tolerance; ///< ConvexHull::tolerance: 4 * merge, rounded to float.
};

/// buildConvexHull, filling `trace` (explainConvexHull's) when not null.
HullBuild buildConvexHull(std::span<const glm::vec3> points, ConvexHullTrace* trace);

/// Merges the closed convex triangle mesh `triangles` (over `points`) into convex polygon faces
/// within tol.merge, drops corners left on only two faces, and fills a ConvexHull. Fails (no hull,
/// an error) only if rounding left a mesh that does not pass the final local checks. Fills
/// `triangleFace` (when not null) with the face each triangle merged into.
HullBuild assembleHull(std::span<const glm::dvec3> points, const std::vector<HullTriangle>& triangles,
                       const HullTolerances& tol, std::vector<std::uint32_t>* triangleFace = nullptr);

/// ConvexHull::reachSq of these vertices: max |v - vertices[0]|^2 in double (0 when empty).
double reachSq(std::span<const glm::vec3> vertices);

/// ConvexHull::octantVertex of these vertices (zeros when empty).
std::array<std::uint32_t, 8> octantVertices(std::span<const glm::vec3> vertices);
/// ConvexHull::vertexLanes of these vertices (empty when there are none).
std::vector<float> vertexLanes(std::span<const glm::vec3> vertices);
/// Fills hull.neighbourStart and hull.neighbours from its half-edges (checkStructure passed).
void fillNeighbours(ConvexHull& hull);

/// The half-edge structure: indices in range, twins at i ^ 1 running backwards on another face,
/// closed face loops of 3 or more covering every half-edge once, vertexEdge, Euler's formula.
bool checkStructure(const ConvexHull& hull);
/// Every face: a unit finite normal, its corners within hull.tolerance of its plane and turning
/// left (within hull.tolerance), the centroid strictly behind it.
bool checkFaces(const ConvexHull& hull);
/// Across every edge, the neighbouring face's next corner is on or behind the face's plane within
/// hull.tolerance (with checkStructure and checkFaces: a convex polyhedron), in O(E).
bool checkLocallyConvex(const ConvexHull& hull);

} // namespace kz::hull_detail
