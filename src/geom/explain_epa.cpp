// The EPA trace: penetrationSteps, the fast path's own code (epa_penetration_steps.hpp), run with
// the GJK and EPA recorders of explain_convex_recorders.hpp.
#include "explain_epa.hpp"

#include "epa_penetration_steps.hpp"
#include "explain_convex_recorders.hpp"

#include <algorithm>

namespace kz {

std::string_view epaStatusName(EpaStatus status) {
    switch (status) {
    case EpaStatus::Separated:
        return "separated";
    case EpaStatus::WithinRadii:
        return "within_radii";
    case EpaStatus::Converged:
        return "converged";
    case EpaStatus::Flat:
        return "flat";
    case EpaStatus::Degenerate:
        return "degenerate";
    case EpaStatus::IterationCap:
        return "iteration_cap";
    case EpaStatus::PolytopeCap:
        return "polytope_cap";
    case EpaStatus::InvalidInput:
        break;
    }
    return "invalid_input";
}

EpaTrace explainEpa(const ConvexShape& a, const ConvexShape& b, int maxIterations) {
    EpaTrace out{};
    out.gjk = detail::gjkTraceStart(a, b, kGjkMaxIterations, GjkQuery::Distance);
    out.maxIterations = std::clamp(maxIterations, 1, kEpaMaxIterations);
    if (isValid(a) && isValid(b)) {
        out.tolerance = kEpaTolerance * std::max(detail::shapeSize(a), detail::shapeSize(b)); // epaSteps'
    }
    detail::GjkRecorder gjk{out.gjk, detail::GjkMode::Distance, {}};
    detail::EpaRecorder epa{out};
    out.result = detail::penetrationSteps(a, b, maxIterations, gjk, epa);
    out.status = out.result.status;
    return out;
}

} // namespace kz
