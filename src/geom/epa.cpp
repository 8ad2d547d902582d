// EPA penetration depth, normal and witness points (epa.hpp); the polytope's steps are
// epa_steps.hpp's, GJK's gjk_steps.hpp's.
#include "epa.hpp"

#include "epa_steps.hpp"

#include <algorithm>
#include <cmath>

namespace kz {

using namespace detail;

EpaResult penetrationConvexConvex(const ConvexShape& a, const ConvexShape& b, int maxIterations) {
    const glm::vec3 zero(0.0f);
    if (!isValid(a) || !isValid(b)) return {false, 0.0f, zero, zero, zero, 0, EpaStatus::InvalidInput};
    GjkNoTrace noGjkTrace;
    const GjkCore g = gjkSteps(a, b, GjkMode::Distance, kGjkMaxIterations, noGjkTrace);
    const double radiusA = margin(a), radiusB = margin(b);
    const double coreDistance = g.status == GjkStatus::Overlapping ? 0.0 : g.upper;
    if (coreDistance - (radiusA + radiusB) > g.touching) {
        return {false, 0.0f, zero, zero, zero, 0, EpaStatus::Separated};
    }
    EpaCore core;
    if (coreDistance > g.touching) {
        // Only the radii overlap: along the cores' closest points, exactly (u from A toward B).
        core.u = -g.v / coreDistance;
        core.depth = -coreDistance;
        core.pointA = g.pointA;
        core.pointB = g.pointB;
        core.status = EpaStatus::WithinRadii;
    } else {
        EpaNoTrace noTrace;
        core = epaSteps(a, b, g, maxIterations, noTrace);
    }
    // Grow the cores by the radii: A's deepest point moves out along u, B's along -u.
    const glm::dvec3 u = core.u;
    EpaResult out;
    out.overlap = true;
    out.depth = float(std::max(0.0, core.depth + radiusA + radiusB));
    out.normal = glm::vec3(-u);
    out.pointA = glm::vec3(core.pointA + radiusA * u);
    out.pointB = glm::vec3(core.pointB - radiusB * u);
    out.iterations = core.iterations;
    out.status = core.status;
    return out;
}

} // namespace kz
