// A triangle as a flat two-sided hull (convex_hull.hpp's triangleHull).
#include "convex_hull.hpp"

#include <cfloat>
#include <glm/glm.hpp>

namespace kz {

void triangleHull(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, ConvexHull& out) {
    // Half-edges (origin, twin, next, face): face 0 runs a -> b -> c around +n, face 1 a -> c -> b
    // around -n; each edge's two sides are adjacent (twin = i ^ 1).
    out.vertices.assign({a, b, c});
    out.edges.assign({{0, 1, 2, 0}, {1, 0, 5, 1}, {1, 3, 4, 0}, {2, 2, 1, 1}, {2, 5, 0, 0}, {0, 4, 3, 1}});
    const glm::vec3 cross = glm::cross(b - a, c - a);
    const float length = glm::length(cross);
    const glm::vec3 n = length > 0.0f ? cross / length : glm::vec3(0.0f);
    out.faces.assign({{n, glm::dot(n, a), 0}, {-n, -glm::dot(n, a), 1}});
    out.vertexEdge.assign({0, 2, 4});
    out.centroid = (a + b + c) / 3.0f;
    const glm::vec3 extent = glm::max(glm::abs(a), glm::max(glm::abs(b), glm::abs(c)));
    out.tolerance = 12.0f * FLT_EPSILON * (extent.x + extent.y + extent.z);
    out.reachSq = 0.0;
    out.neighbourStart.clear();
    out.neighbours.clear();
    out.octantVertex.fill(0);
    out.vertexLanes.clear();
}

} // namespace kz
