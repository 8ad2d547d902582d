// explainConvexHull: buildConvexHull's own code with its recorder (convex_hull.cpp), so the trace
// and the fast build cannot drift apart.
#include "explain_convex_hull.hpp"

#include "convex_hull_detail.hpp"

namespace kz {

ConvexHullTrace explainConvexHull(std::span<const glm::vec3> points) {
    ConvexHullTrace trace;
    trace.result = hull_detail::buildConvexHull(points, &trace);
    return trace;
}

} // namespace kz
