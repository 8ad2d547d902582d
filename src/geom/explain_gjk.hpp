// The traces of GJK (gjk.hpp) for the lab and `kolize explain`: the distance and overlap
// iterations (explainGjk) and the GJK ray cast (explainRaycastConvex). Each runs its query's own
// code (gjk_steps.hpp, gjk_raycast_steps.hpp: one template, the fast path's observer doing
// nothing) with a recorder, so the trace's answer is the fast query's, bit for bit.
//
// GJK works in double on the shapes' cores (a sphere's centre, a capsule's segment, the other
// shapes whole) and adds the radii at the end: the numbers below are the cores', in double, as
// the algorithm computed them. The Minkowski difference the lab draws is coreA - coreB; the
// shapes' difference is that grown by radiusA + radiusB. Traces allocate (std::vector); the fast
// queries do not. Nothing throws.
#pragma once

#include "convex.hpp"
#include "gjk.hpp"
#include "types.hpp"

#include <glm/glm.hpp>
#include <optional>
#include <string_view>
#include <vector>

namespace kz {

/// The snake_case name of a status, for JSON: "converged", "overlapping", "within_radii",
/// "separating_axis", "repeated_support", "no_progress", "iteration_cap", "invalid_input".
std::string_view gjkStatusName(GjkStatus status);
/// "hit", "starts_inside", "miss", "iteration_cap", "invalid_input".
std::string_view rayCastStatusName(RayCastStatus status);

/// One point of GJK's simplex: a point w of the cores' difference, with the core points it is
/// the difference of (w = a - b).
struct GjkTracePoint {
    glm::dvec3 w; ///< a - b.
    glm::dvec3 a; ///< On A's core.
    glm::dvec3 b; ///< On B's core.
};

/// One GJK iteration: a support point of the difference, then (unless the iteration stopped
/// there) the simplex with that point, reduced to the sub-simplex nearest the origin.
struct GjkIteration {
    /// The search direction d (not unit): w is the support point of coreA - coreB along d, i.e.
    /// supportA is A's core's farthest point along d and supportB B's along -d. d = -v of the
    /// previous iteration; the first runs from A's start point to B's (a shape's centre, a hull's
    /// first vertex; -x when they coincide).
    glm::dvec3 direction;
    glm::dvec3 supportA; ///< On A's core.
    glm::dvec3 supportB; ///< On B's core.
    glm::dvec3 w;        ///< supportA - supportB.
    /// The lower bound from this support plane: dot(-d, w) / |d| (negative when the plane does
    /// not separate); the iteration converges when upperBound before it minus this is within the
    /// tolerance.
    double gap;
    double lowerBound; ///< The best gap so far, >= 0 (monotone non-decreasing).
    /// Whether the simplex with w was solved and kept (false: the iteration stopped before, on a
    /// separating axis, convergence or a repeated point, or the solved simplex was not nearer
    /// the origin: NoProgress, and `tried` is set without weights).
    bool updated;
    /// The simplex solved: the previous iteration's simplex plus w (last). Empty when the
    /// iteration stopped before solving it.
    std::vector<GjkTracePoint> tried;
    /// The signed-volumes weights, one per point of `tried` (0: dropped); empty unless updated.
    std::vector<double> weights;
    std::vector<int> kept; ///< Indices into `tried` of the points kept (weight > 0), in order.
    /// The simplex after the iteration (1 to 4 points; empty only when the first iteration
    /// stopped before solving one).
    std::vector<GjkTracePoint> simplex;
    /// The simplex's point nearest the origin after the iteration (sum of weights times w); zero
    /// when the simplex encloses the origin. Unchanged from the previous iteration (the first:
    /// -direction) when not updated.
    glm::dvec3 v;
    glm::dvec3 pointA; ///< sum of weights times a: the nearest point on A's core so far.
    glm::dvec3 pointB; ///< sum of weights times b: the nearest point on B's core so far.
    double upperBound; ///< |v| after the iteration: the cores' distance from above (+inf before any).
};

/// What explainGjk runs: closestPtConvexConvex's iteration, or testConvexConvex's (which leaves
/// as soon as the answer to "do they overlap" is known).
enum class GjkQuery { Distance, Overlap };

/// How GJK found the distance (or overlap) of two convex shapes.
struct GjkTrace {
    GjkQuery query;
    /// The cores GJK runs on: a sphere or capsule with radius 0, the other shapes as given (a
    /// hull's pointer is the caller's). The shapes as given for invalid input.
    ConvexShape coreA, coreB;
    double radiusA, radiusB; ///< The radii added at the end (0 for boxes, cylinders, hulls).
    double tolerance;        ///< The absolute bound gap that ends it: kGjkTolerance * size.
    double touching;         ///< Nearer than this counts as touching: kGjkTouchingTolerance * size.
    int maxIterations;       ///< The cap used (1 to kGjkMaxIterations).
    std::vector<GjkIteration> iterations; ///< Empty for invalid input.
    /// The final state on the cores (as GJK leaves it; for a stop on the very first support
    /// point, that pair): the simplex, its nearest point v, the core witness points, the bounds.
    std::vector<GjkTracePoint> simplex;
    glm::dvec3 v, pointA, pointB;
    double upperBound, lowerBound; ///< lowerBound <= upperBound; +inf and 0 for invalid input.
    GjkStatus status;
    /// Distance: closestPtConvexConvex(a, b, maxIterations), bit for bit. Overlap: the same
    /// conversion of the state where the overlap test stopped (its distance only an upper bound).
    GjkResult result;
    /// Distance: result.overlap. Overlap: testConvexConvex(a, b), bit for bit (with the default cap).
    bool overlap;
    /// Overlap on shapes without radii: the iterations are the boolean GJK's (gjk.hpp's
    /// testConvexConvex), which keeps the simplex's points by the origin's Voronoi region: `weights`
    /// empty, `v` minus the next search direction (not a nearest point), no upper bound (+inf)
    /// until it stops. False when it handed over to the distance iteration: the iterations are
    /// then that iteration's alone.
    bool boolean;
};

/// closestPtConvexConvex(a, b, maxIterations) (query Distance) or testConvexConvex(a, b) (query
/// Overlap) with its steps. Invalid input: status InvalidInput, no iterations. Overlap with a cap
/// below kGjkMaxIterations steps the distance iteration's overlap mode (the boolean GJK has no
/// cap to lower).
GjkTrace explainGjk(const ConvexShape& a, const ConvexShape& b, int maxIterations = kGjkMaxIterations,
                    GjkQuery query = GjkQuery::Distance);

/// One iteration of the GJK ray cast: the support point of the shape's core toward x, x moved to
/// its plane (grown by the radius) when it lies above it, then the simplex of core points nearest x.
struct RayCastIteration {
    /// The search direction v (not unit): x minus the core's nearest point found so far (the
    /// first: x minus the shape's start point, its centre or a hull's first vertex; -dir when x
    /// is that point).
    glm::dvec3 direction;
    glm::dvec3 support; ///< The core's farthest point along it.
    /// x's height above the support plane of the grown shape (the plane through support + radius
    /// * v / |v|, normal v), before the move: > tolerance moves x to the plane.
    double planeHeight;
    bool moved;                      ///< t advanced to the plane this iteration.
    double t;                        ///< t after the iteration (a Miss by tMax: the t beyond it).
    glm::dvec3 x;                    ///< origin + t dir, after the iteration (before the move on a Miss).
    bool updated;                    ///< The simplex was solved (false on the iteration that missed).
    bool added;                      ///< The support point was new to the simplex (updated only).
    std::vector<glm::dvec3> simplex; ///< The core points kept (1 to 4), after the iteration.
    glm::dvec3 v;                    ///< x minus the simplex's point nearest x, after.
    double distance;                 ///< |v|: x's distance to the core from above, after.
};

/// How the GJK ray cast found its hit.
struct RayCastTrace {
    Ray ray;
    float tMax;
    ConvexShape core; ///< The shape's core (as GjkTrace's; the shape as given for invalid input).
    double radius;    ///< The radius around it.
    /// x within radius + tolerance of the core is a hit: kGjkTolerance * max(size, the origin's
    /// distance from the core's centre point).
    double tolerance;
    std::vector<RayCastIteration> iterations; ///< Empty for invalid input.
    ConvexRayCast result; ///< raycastConvex(ray, shape, tMax), bit for bit (with its status).
};

/// raycastConvex(ray, shape, tMax) with its steps.
RayCastTrace explainRaycastConvex(const Ray& ray, const ConvexShape& shape, float tMax = INFINITY);

} // namespace kz
