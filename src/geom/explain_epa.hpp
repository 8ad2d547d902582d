// The trace of EPA (epa.hpp) for the lab and `kolize explain`: the GJK run first, then the
// polytope EPA grows in the cores' Minkowski difference, face by face. explainEpa runs
// penetrationConvexConvex's own code (epa_penetration_steps.hpp) with recorders, so its answer is
// the fast query's, bit for bit. Numbers are the cores', in double (see explain_gjk.hpp); the
// depth of the shapes is the cores' plus radiusA + radiusB. Traces allocate; nothing throws.
#pragma once

#include "epa.hpp"
#include "explain_gjk.hpp"

#include <array>
#include <string_view>
#include <vector>

namespace kz {

/// "separated", "within_radii", "converged", "flat", "degenerate", "iteration_cap",
/// "polytope_cap", "invalid_input".
std::string_view epaStatusName(EpaStatus status);

/// A triangle of EPA's polytope.
struct EpaTraceFace {
    /// Indices into EpaTrace::vertices, counter-clockwise seen from outside.
    std::array<int, 3> vertices;
    glm::dvec3 normal; ///< Unit, outward.
    double distance;   ///< The origin's distance below its plane: dot(normal, vertex).
};

/// One EPA iteration: the face nearest the origin, the support point along its normal, and the
/// polytope grown to that point.
struct EpaIteration {
    int vertexCount;                 ///< The polytope's vertices: EpaTrace::vertices[0, vertexCount).
    std::vector<EpaTraceFace> faces; ///< The polytope's faces at the start of the iteration.
    int nearest;                     ///< Index into `faces` of the face nearest the origin (expanded).
    GjkTracePoint support;           ///< The support point of the difference along its normal.
    double lowerBound; ///< That face's distance: the cores' depth is at least this far (its plane).
    double reach;      ///< dot(normal, support.w): how far the difference reaches along the normal.
    double upperBound; ///< The smallest reach so far: the cores' depth is at most this.
    /// reach - lowerBound: within the tolerance, the face is on the boundary (Converged).
    double gap;
    /// The support point joined the polytope (the faces it sees replaced by a fan to it). False
    /// on the iteration EPA stopped on (converged, the polytope's cap, or a broken step: a sliver
    /// face, no face slot left); true on the last one when the iteration cap stopped it after.
    bool expanded;
};

/// How EPA found the penetration of two shapes.
struct EpaTrace {
    GjkTrace gjk; ///< The GJK run first (query Distance, kGjkMaxIterations); its simplex starts EPA.
    /// kEpaTolerance * size: the gap (reach - lowerBound) that ends it. 0 for invalid input.
    double tolerance;
    int maxIterations; ///< EPA's cap used (1 to kEpaMaxIterations).
    /// Every vertex the polytope had, in order: GJK's simplex, the points that blew it up to a
    /// tetrahedron around the origin, then one per expanded iteration. Empty when EPA did not
    /// run (apart, within the radii, flat, invalid).
    std::vector<GjkTracePoint> vertices;
    std::vector<EpaIteration> iterations;
    EpaStatus status;
    EpaResult result; ///< penetrationConvexConvex(a, b, maxIterations), bit for bit.
};

/// penetrationConvexConvex(a, b, maxIterations) with its steps.
EpaTrace explainEpa(const ConvexShape& a, const ConvexShape& b, int maxIterations = kEpaMaxIterations);

} // namespace kz
