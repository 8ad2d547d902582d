// The trace of buildConvexHull, for the lab: quickhull's starting tetrahedron, then per iteration
// the eye point chosen, the faces it sees, the horizon and the new faces, then the triangles the
// faces were merged from. explainConvexHull runs buildConvexHull's own code with a recorder, so
// its hull is buildConvexHull's, bit for bit. Pure maths: no I/O.
#pragma once

#include "convex_hull.hpp"

#include <array>
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

namespace kz {

/// A triangle of quickhull's triangle hull: indices of input points, counter-clockwise seen from
/// outside.
using HullTraceTriangle = std::array<std::uint32_t, 3>;

/// One quickhull iteration: the point farthest outside one face joins the hull.
struct HullIteration {
    std::uint32_t eye;        ///< Index of the input point taken (the farthest outside `from`).
    glm::vec3 eyePoint;       ///< That point.
    float eyeDistance;        ///< How far it is in front of `from`'s plane (> tolerance / 4).
    HullTraceTriangle from;   ///< The face whose outside set it was taken from.
    std::uint32_t checkRound; ///< 0 in the main pass; k when the k-th check of the points left
                              ///< near the surface found it outside the finished hull.
    bool dropped;             ///< Rounding left no usable horizon (the seen faces were not a disk
                              ///< or a new face was degenerate): the eye was dropped, the hull
                              ///< unchanged, and the lists below are empty.
    std::vector<HullTraceTriangle> visible; ///< The faces it sees (removed), from `from` outward.
    /// The horizon, a closed loop: edges (from, to) of the seen faces bordering unseen ones.
    std::vector<std::array<std::uint32_t, 2>> horizon;
    std::vector<HullTraceTriangle> added; ///< The cone: (from, to, eye) per horizon edge, in order.
};

/// How buildConvexHull built its hull.
struct ConvexHullTrace {
    /// The starting tetrahedron: the extreme points on the axis of largest extent, the point
    /// farthest from their line, the point farthest from their plane. Empty when the input was
    /// refused before (then `result.error` says why).
    std::vector<std::uint32_t> tetrahedron;
    std::vector<HullIteration> iterations;
    /// Quickhull's final triangles, before merging, and the face of `result.hull` each merged
    /// into (both empty when no hull was built).
    std::vector<HullTraceTriangle> triangles;
    std::vector<std::uint32_t> triangleFace;
    HullBuild result; ///< buildConvexHull(points), bit for bit.
};

/// buildConvexHull(points) with its trace. The trace holds every face ever made, so it is meant
/// for the lab's small point sets (its size grows like the builder's time, O(n h) at worst).
ConvexHullTrace explainConvexHull(std::span<const glm::vec3> points);

} // namespace kz
