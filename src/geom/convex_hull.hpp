// A convex hull of points (quickhull, convex_hull.cpp): its vertices, its faces (convex polygons,
// coplanar triangles merged) and its edges as half-edges with adjacency, so that a support
// function can climb from vertex to vertex and a contact can clip a face against its neighbours'
// planes. Pure maths: no I/O.
#pragma once

#include <array>
#include <cstdint>
#include <glm/vec3.hpp>
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
    glm::vec3 centroid{0.0f};              ///< The solid's centre of volume (inside it).
    /// How far a corner may stray from its face's plane, or a face's corners from a straight
    /// convex loop, or an input point outside the hull: the input's own float rounding,
    /// 12 * FLT_EPSILON * (max|x| + max|y| + max|z|) over the input points (Gregorius' and
    /// qhull's epsilon scaled to the extent; faces merge within a quarter of it). A hull made by
    /// hand needs one that covers its own rounding for isValid to accept it.
    float tolerance = 0.0f;
    /// The largest squared distance of a vertex from vertex 0, in double from the float vertices:
    /// the size GJK and EPA scale their tolerances by (convex_detail.hpp's shapeSize). Filled by
    /// buildConvexHull, whose vertices are all finite, so that queries on the hull neither scan
    /// its vertices for the size nor for finiteness. 0 in a hull made by hand: each query then
    /// does both (O(n)). Stale if the vertices are edited after the build.
    double reachSq = 0.0;
    /// The vertex adjacency in one array, for the support's climb: vertex v's neighbours are
    /// neighbours[neighbourStart[v]] up to neighbours[neighbourStart[v + 1]] (excluded), in the
    /// order of its half-edges (vertexEdge[v], then each twin's next), so the climb reads them
    /// without chasing half-edge links. Filled by buildConvexHull; empty in a hull made by hand
    /// (its climb walks the half-edges, visiting the same neighbours in the same order).
    std::vector<std::uint32_t> neighbourStart;
    std::vector<std::uint32_t> neighbours; ///< See neighbourStart.
    /// Per octant of directions d (bit i set: d's i-th coordinate > 0), the vertex farthest along
    /// that octant's diagonal (+-1, +-1, +-1): where a support's climb starts when it has no
    /// earlier vertex to start from. Filled by buildConvexHull; zeros (vertex 0) in a hull made
    /// by hand.
    std::array<std::uint32_t, 8> octantVertex{};
    /// The vertices in blocks of four, x x x x y y y y z z z z (the last block padded with its
    /// last vertex), for the support's scan in float on hulls of up to kHullLaneScanMax
    /// vertices (convex.hpp). Filled by buildConvexHull; empty in a hull made by hand (its
    /// scan runs in double).
    std::vector<float> vertexLanes;
};

/// Hulls of up to this many vertices with vertexLanes scan them in float (then check the
/// near-best ones in double) rather than in double alone.
inline constexpr std::size_t kHullLaneScanMax = 64;

/// The hull of `points`, or why there is none: fewer than 4 points, more than kMaxHullPoints, a
/// non-finite coordinate (naming the point), coordinates so large that a plane's offset would
/// overflow float (max|x| + max|y| + max|z| > FLT_MAX), or all points within `tolerance` of one
/// point, one line or one plane.
struct HullBuild {
    std::optional<ConvexHull> hull;
    std::string error; ///< One line; empty when `hull` is set.
};

/// Quickhull (Barber, Dobkin, Huhdanpaa 1996) in double precision on the float points, then
/// coplanar triangles merged into convex polygons (Gregorius, "Implementing Quickhull", GDC 2014):
/// - a point joins the hull only when it lies more than tolerance / 4 outside it, so duplicates,
///   points on faces and points on edges never become vertices; a point just above a face stays
///   with it (qhull's coplanar points) and a final check climbs from that face to the one it is
///   farthest above, adding it if more than tolerance / 4 out (near a sharp edge a point can be
///   just above one face and far above the next), so every input point ends on or behind every
///   face plane within `tolerance`;
/// - adjacent triangles within tolerance / 4 of the plane of the largest one merge while the
///   polygon stays convex (within the same margin); a corner left on only two faces (a point
///   on an edge) is dropped;
/// - faces: unit outward normals, offset = the largest dot(normal, x) over the face's corners and
///   the corners it absorbed, so every vertex is on or behind every face plane (within rounding).
/// The same points in the same order give the same hull bit for bit.
/// Time: O(n h) for n points and h hull vertices (each of at most n iterations adds one vertex
/// and re-files the points of the faces it removes), so O(n^2) at worst; the final check runs
/// once more per vertex it adds (rare: thin hulls). Measured on one core, for 100,000 points:
/// on a sphere (nearly all vertices) 1 to 2 s, 1.3 times qhull's time; in a cube 45 ms; on two
/// rings of 50,000 angles 1.4 s (qhull: 290 s). Memory O(n).
/// Fails only with the errors listed on HullBuild, or "could not build a consistent hull" if
/// rounding broke the result's own final check (never seen in the tests).
HullBuild buildConvexHull(std::span<const glm::vec3> points);

/// Writes into `out` the triangle (a, b, c) as a flat hull with two faces, +n and -n (n along
/// (b - a) x (c - a); zero for a degenerate triangle), for the queries that read a hull's
/// vertices and faces (support, GJK, EPA, the contact manifold's supporting faces): a mesh's
/// triangle against a capsule, a cylinder or a hull. Reuses `out`'s storage: no allocation once
/// it has held a triangle. isValid refuses it (it is flat), and so do the hull's mass properties
/// (volume 0).
void triangleHull(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, ConvexHull& out);

/// The hull's self-check, for tests (O(V F)): at least 4 vertices and faces; indices in range;
/// twins at i ^ 1 that run backwards along the same edge on another face; every face loop closed,
/// of at least 3 half-edges, each half-edge on exactly one loop; vertexEdge[v] starting at v;
/// Euler's V - E + F = 2; unit finite normals; every face's corners within `tolerance` of its
/// plane and turning left (convex) within `tolerance`; every vertex on or behind every face
/// plane within `tolerance`; the centroid strictly behind every face plane; reachSq 0 or exact;
/// the neighbour arrays empty or the half-edges' adjacency; octantVertex in range;
/// vertexLanes empty or the vertices' lanes.
bool isValid(const ConvexHull& hull);

} // namespace kz
