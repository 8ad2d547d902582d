// A convex hull of points (quickhull, convex_hull.cpp): its vertices, its faces (convex polygons,
// coplanar triangles merged) and its edges as half-edges with adjacency, so that a support
// function can climb from vertex to vertex and a contact can clip a face against its neighbours'
// planes. Pure maths: no I/O.
#pragma once

#include <glm/vec3.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kz {

/// Hull building refuses more input points than this (a documented bound on its time and memory).
inline constexpr std::size_t kMaxHullPoints = 100000;

/// A closed convex polyhedron with at least 4 vertices, not flat.
struct ConvexHull {
    /// One side of an edge, in its face's counter-clockwise loop seen from outside.
    struct HalfEdge {
        std::uint32_t origin; ///< The vertex it starts at.
        std::uint32_t twin;   ///< The same edge seen from the neighbouring face.
        std::uint32_t next;   ///< The next half-edge around the same face.
        std::uint32_t face;   ///< The face on its left.
    };
    /// A convex polygon of the hull: the plane dot(normal, x) = offset, outward unit normal.
    struct Face {
        glm::vec3 normal;
        float offset;
        std::uint32_t edge; ///< One of its half-edges (walk `next` to go round it).
    };

    std::vector<glm::vec3> vertices; ///< Only the input points that are corners of the hull.
    std::vector<HalfEdge> edges;     ///< Twins are adjacent in memory: edge i's twin is i ^ 1.
    std::vector<Face> faces;
    std::vector<std::uint32_t> vertexEdge; ///< Per vertex, one half-edge starting at it.
    glm::vec3 centroid{0.0f}; ///< The solid's centre of volume (inside it).
};

/// The hull of `points`, or why there is none: fewer than 4 points, a non-finite coordinate, more
/// than kMaxHullPoints, or all points (within the input's rounding) on one plane or one line.
struct HullBuild {
    std::optional<ConvexHull> hull;
    std::string error; ///< One line; empty when `hull` is set.
};

HullBuild buildConvexHull(std::span<const glm::vec3> points);

} // namespace kz
