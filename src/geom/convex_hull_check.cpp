// The ConvexHull's self-checks: the structure, the faces, local and global convexity. Used by
// buildConvexHull on its result (the O(E) checks) and by tests (isValid, O(V F)).
#include "convex_hull.hpp"
#include "convex_hull_detail.hpp"
#include "types.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace kz {
namespace hull_detail {
namespace {

/// The position of the vertex a half-edge starts at.
const glm::vec3& originOf(const ConvexHull& hull, std::uint32_t edge) {
    return hull.vertices[hull.edges[edge].origin];
}

/// How far x is in front of the face's plane (negative behind).
float planeDistance(const ConvexHull::Face& face, const glm::vec3& x) {
    return glm::dot(face.normal, x) - face.offset;
}

bool edgesInRange(const ConvexHull& hull) {
    const std::size_t v = hull.vertices.size(), e = hull.edges.size(), f = hull.faces.size();
    for (std::uint32_t i = 0; i < e; ++i) {
        const ConvexHull::HalfEdge& h = hull.edges[i];
        if (h.origin >= v || h.twin != (i ^ 1u) || h.next >= e || h.face >= f) return false;
    }
    for (std::uint32_t i = 0; i < e; ++i) {
        const ConvexHull::HalfEdge& h = hull.edges[i];
        // The twin runs from this edge's end back to its start, on another face.
        if (hull.edges[h.twin].origin != hull.edges[h.next].origin || hull.edges[h.twin].face == h.face)
            return false;
        if (hull.edges[h.twin].next >= e || hull.edges[hull.edges[h.twin].next].origin != h.origin)
            return false;
    }
    return true;
}

} // namespace

bool checkStructure(const ConvexHull& hull) {
    const std::size_t v = hull.vertices.size(), e = hull.edges.size(), f = hull.faces.size();
    if (v < 4 || f < 4 || e < 12 || e % 2 != 0 || hull.vertexEdge.size() != v) return false;
    if (!edgesInRange(hull)) return false;
    std::vector<bool> seen(e, false);
    for (std::uint32_t face = 0; face < f; ++face) {
        std::uint32_t at = hull.faces[face].edge;
        if (at >= e) return false;
        std::size_t length = 0;
        do {
            if (seen[at] || hull.edges[at].face != face || ++length > e) return false;
            seen[at] = true;
            at = hull.edges[at].next;
        } while (at != hull.faces[face].edge);
        if (length < 3) return false;
    }
    for (std::uint32_t i = 0; i < e; ++i) {
        if (!seen[i]) return false;
    }
    for (std::uint32_t i = 0; i < v; ++i) {
        if (hull.vertexEdge[i] >= e || hull.edges[hull.vertexEdge[i]].origin != i) return false;
        if (!isFinite(hull.vertices[i])) return false;
    }
    // Euler's formula for a polyhedron of genus 0: V - E + F = 2 (E counted as whole edges).
    return v + f == e / 2 + 2 && isFinite(hull.centroid);
}

bool checkFaces(const ConvexHull& hull) {
    const float tol = hull.tolerance;
    for (const ConvexHull::Face& face : hull.faces) {
        if (!isFinite(face.normal) || !std::isfinite(face.offset)) return false;
        if (!(std::abs(glm::length(face.normal) - 1.0f) <= 1e-5f)) return false;
        if (!(planeDistance(face, hull.centroid) < 0.0f)) return false;
        std::uint32_t at = face.edge;
        do {
            const std::uint32_t next = hull.edges[at].next;
            const glm::vec3 &u = originOf(hull, at), &v = originOf(hull, next);
            const glm::vec3& w = originOf(hull, hull.edges[next].next);
            if (!(std::abs(planeDistance(face, v)) <= tol)) return false;
            // The loop turns left at v, or right by at most tol (v that close to the line uw); in
            // double, where the products of coordinates up to FLT_MAX cannot overflow.
            const glm::dvec3 du(u), dv(v), dw(w);
            const double turn = glm::dot(glm::cross(dv - du, dw - dv), glm::dvec3(face.normal));
            if (!(turn >= -double(tol) * glm::length(dw - du))) return false;
            at = next;
        } while (at != face.edge);
    }
    return true;
}

bool checkLocallyConvex(const ConvexHull& hull) {
    for (const ConvexHull::HalfEdge& h : hull.edges) {
        // The neighbour's corner after this edge's start (its loop runs end -> start -> corner).
        const std::uint32_t corner = hull.edges[hull.edges[h.twin].next].next;
        if (!(planeDistance(hull.faces[h.face], originOf(hull, corner)) <= hull.tolerance)) return false;
    }
    return true;
}

double reachSq(std::span<const glm::vec3> vertices) {
    if (vertices.empty()) return 0.0;
    const glm::dvec3 first(vertices[0]);
    double largestSq = 0.0;
    for (const glm::vec3& v : vertices) {
        const glm::dvec3 offset = glm::dvec3(v) - first;
        largestSq = std::max(largestSq, glm::dot(offset, offset));
    }
    return largestSq;
}

std::array<std::uint32_t, 8> octantVertices(std::span<const glm::vec3> vertices) {
    std::array<std::uint32_t, 8> best{};
    for (std::uint32_t octant = 0; octant < 8; ++octant) {
        const glm::dvec3 diagonal((octant & 1u) ? 1.0 : -1.0, (octant & 2u) ? 1.0 : -1.0,
                                  (octant & 4u) ? 1.0 : -1.0);
        double bestDot = -INFINITY;
        for (std::uint32_t i = 0; i < vertices.size(); ++i) {
            const double along = glm::dot(diagonal, glm::dvec3(vertices[i]));
            if (along > bestDot) {
                bestDot = along;
                best[octant] = i;
            }
        }
    }
    return best;
}

std::vector<float> vertexLanes(std::span<const glm::vec3> vertices) {
    std::vector<float> lanes;
    for (std::size_t block = 0; block < (vertices.size() + 3) / 4; ++block) {
        for (int axis = 0; axis < 3; ++axis) {
            for (std::size_t lane = 0; lane < 4; ++lane)
                lanes.push_back(vertices[std::min(4 * block + lane, vertices.size() - 1)][axis]);
        }
    }
    return lanes;
}

void fillNeighbours(ConvexHull& hull) {
    hull.neighbourStart.assign(1, 0);
    hull.neighbours.clear();
    hull.neighbours.reserve(hull.edges.size());
    for (const std::uint32_t first : hull.vertexEdge) {
        std::uint32_t e = first;
        for (std::size_t k = 0; k < hull.edges.size(); ++k) { // bounded: a closed fan ends sooner
            const ConvexHull::HalfEdge& twin = hull.edges[hull.edges[e].twin];
            hull.neighbours.push_back(twin.origin);
            e = twin.next;
            if (e == first) break;
        }
        hull.neighbourStart.push_back(static_cast<std::uint32_t>(hull.neighbours.size()));
    }
}

} // namespace hull_detail

bool isValid(const ConvexHull& hull) {
    using namespace hull_detail;
    if (!checkStructure(hull) || !checkFaces(hull) || !checkLocallyConvex(hull)) return false;
    if (hull.reachSq != 0.0 && hull.reachSq != reachSq(hull.vertices)) return false;
    for (const std::uint32_t v : hull.octantVertex) {
        if (v >= hull.vertices.size()) return false;
    }
    if (!hull.vertexLanes.empty() && hull.vertexLanes != vertexLanes(hull.vertices)) return false;
    if (!hull.neighbourStart.empty() || !hull.neighbours.empty()) {
        ConvexHull fresh = hull;
        fillNeighbours(fresh);
        if (fresh.neighbourStart != hull.neighbourStart || fresh.neighbours != hull.neighbours) return false;
    }
    for (const ConvexHull::Face& face : hull.faces) {
        for (const glm::vec3& v : hull.vertices) {
            if (!(planeDistance(face, v) <= hull.tolerance)) return false;
        }
    }
    return true;
}

} // namespace kz
