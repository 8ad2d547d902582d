// EPA penetration depth, normal and witness points (epa.hpp); GJK then EPA is
// epa_penetration_steps.hpp's, the polytope's steps epa_steps.hpp's, GJK's gjk_steps.hpp's.
#include "epa.hpp"

#include "epa_penetration_steps.hpp"

namespace kz {

EpaResult penetrationConvexConvex(const ConvexShape& a, const ConvexShape& b, int maxIterations) {
    detail::GjkNoTrace noGjkTrace;
    detail::EpaNoTrace noEpaTrace;
    return detail::penetrationSteps(a, b, maxIterations, noGjkTrace, noEpaTrace);
}

} // namespace kz
