// The GJK traces: gjkSteps and raycastConvexSteps, the fast paths' own code (gjk_steps.hpp,
// gjk_raycast_steps.hpp), run with the recorders of explain_convex_recorders.hpp.
#include "explain_gjk.hpp"

#include "explain_convex_recorders.hpp"
#include "gjk_boolean_steps.hpp"

#include <algorithm>

namespace kz {

namespace detail {

ConvexShape coreShape(const ConvexShape& shape) {
    if (const auto* sphere = std::get_if<Sphere>(&shape)) return Sphere{sphere->center, 0.0f};
    if (const auto* capsule = std::get_if<Capsule>(&shape)) return Capsule{capsule->a, capsule->b, 0.0f};
    return shape;
}

GjkTrace gjkTraceStart(const ConvexShape& a, const ConvexShape& b, int maxIterations, GjkQuery query) {
    GjkTrace out{};
    out.query = query;
    out.maxIterations = std::clamp(maxIterations, 1, kGjkMaxIterations);
    out.coreA = a;
    out.coreB = b;
    out.status = GjkStatus::InvalidInput;
    out.result = invalidGjkResult();
    out.overlap = false;
    out.boolean = false;
    out.upperBound = INFINITY;
    out.v = out.pointA = out.pointB = glm::dvec3(0.0);
    if (!isValid(a) || !isValid(b)) return out;
    out.coreA = coreShape(a);
    out.coreB = coreShape(b);
    out.radiusA = margin(a);
    out.radiusB = margin(b);
    return out;
}

} // namespace detail

std::string_view gjkStatusName(GjkStatus status) {
    switch (status) {
    case GjkStatus::Converged:
        return "converged";
    case GjkStatus::Overlapping:
        return "overlapping";
    case GjkStatus::WithinRadii:
        return "within_radii";
    case GjkStatus::SeparatingAxis:
        return "separating_axis";
    case GjkStatus::RepeatedSupport:
        return "repeated_support";
    case GjkStatus::NoProgress:
        return "no_progress";
    case GjkStatus::IterationCap:
        return "iteration_cap";
    case GjkStatus::InvalidInput:
        break;
    }
    return "invalid_input";
}

std::string_view rayCastStatusName(RayCastStatus status) {
    switch (status) {
    case RayCastStatus::Hit:
        return "hit";
    case RayCastStatus::StartsInside:
        return "starts_inside";
    case RayCastStatus::Miss:
        return "miss";
    case RayCastStatus::IterationCap:
        return "iteration_cap";
    case RayCastStatus::InvalidInput:
        break;
    }
    return "invalid_input";
}

GjkTrace explainGjk(const ConvexShape& a, const ConvexShape& b, int maxIterations, GjkQuery query) {
    GjkTrace out = detail::gjkTraceStart(a, b, maxIterations, query);
    if (!isValid(a) || !isValid(b)) return out;
    const detail::GjkMode mode =
        query == GjkQuery::Overlap ? detail::GjkMode::Overlap : detail::GjkMode::Distance;
    detail::GjkRecorder recorder{out, mode, {}};
    const detail::CoreShape coreA = detail::prepareCore(a), coreB = detail::prepareCore(b);
    // testConvexConvex's own run (the default cap) on shapes without radii is the boolean GJK; a
    // lower cap steps the overlap mode of the distance iteration, which takes one.
    if (query == GjkQuery::Overlap && coreA.margin + coreB.margin == 0.0 &&
        maxIterations >= kGjkMaxIterations) {
        out.boolean = true;
        detail::gjkBooleanSteps(coreA, coreB, recorder);
    } else {
        detail::gjkSteps(coreA, coreB, mode, maxIterations, recorder);
    }
    return out;
}

RayCastTrace explainRaycastConvex(const Ray& ray, const ConvexShape& shape, float tMax) {
    RayCastTrace out{};
    out.ray = ray;
    out.tMax = tMax;
    out.core = isValid(shape) ? detail::coreShape(shape) : shape;
    detail::RayCastRecorder recorder{out};
    out.result = detail::raycastConvexSteps(ray, shape, tMax, recorder);
    return out;
}

} // namespace kz
