// Internal to kz_geom: penetrationConvexConvex (epa.hpp) as a whole, GJK then EPA, written once as
// a template on the two observers (gjk_steps.hpp's, epa_steps.hpp's): epa.cpp runs it with the
// no-trace observers; the explain trace (explain_epa.cpp) with recorders.
#pragma once

#include "epa_steps.hpp"
#include "gjk_steps.hpp"

#include <algorithm>
#include <cmath>

namespace kz::detail {

/// penetrationConvexConvex(a, b, maxIterations), its GJK seen by observeGjk, its EPA (when the
/// cores overlap) by observeEpa.
template <class ObserveGjk, class ObserveEpa>
[[gnu::always_inline]] inline EpaResult penetrationSteps(const ConvexShape& a, const ConvexShape& b,
                                                         int maxIterations, ObserveGjk& observeGjk,
                                                         ObserveEpa& observeEpa) {
    const glm::vec3 zero(0.0f);
    if (!isValid(a) || !isValid(b)) return {false, 0.0f, zero, zero, zero, 0, EpaStatus::InvalidInput};
    const CoreShape coreA = prepareCore(a), coreB = prepareCore(b);
    const GjkCore g = gjkSteps(coreA, coreB, GjkMode::Distance, kGjkMaxIterations, observeGjk);
    const double radiusA = coreA.margin, radiusB = coreB.margin;
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
        core = epaSteps(coreA, coreB, g, maxIterations, observeEpa);
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

} // namespace kz::detail
