// The shape cast's trace (explain_shape_cast.hpp): castSteps with a recorder.
#include "explain_shape_cast.hpp"

#include "shape_cast_steps.hpp"

namespace kz {
namespace {

/// castSteps' hooks, copied into the trace.
struct CastRecorder {
    ShapeCastTrace& out;

    void start(const detail::CastSetup& setup) {
        out.reachA = setup.reachA;
        out.reachB = setup.reachB;
        out.tolerance = setup.tolerance;
    }
    void step(float t, const ConvexShape& shapeA, const ConvexShape& shapeB, const GjkResult& gjk,
              const detail::ApproachBound& bound, double next) {
        out.steps.push_back({t, shapeA, shapeB, gjk, bound.linear, bound.angular, bound.rate, next});
    }
};

} // namespace

std::string_view shapeCastStatusName(ShapeCastStatus status) {
    switch (status) {
    case ShapeCastStatus::Hit:
        return "hit";
    case ShapeCastStatus::StartsTouching:
        return "starts_touching";
    case ShapeCastStatus::Miss:
        return "miss";
    case ShapeCastStatus::IterationCap:
        return "iteration_cap";
    case ShapeCastStatus::InvalidInput:
        return "invalid_input";
    }
    return "invalid_input";
}

ShapeCastTrace explainCastConvexConvex(const ConvexShape& a, const ConvexMotion& motionA,
                                       const ConvexShape& b, const ConvexMotion& motionB, float tMax,
                                       float gap) {
    ShapeCastTrace trace{a, b, motionA, motionB, tMax, gap, 0.0, 0.0, 0.0, {}, {}};
    CastRecorder recorder{trace};
    trace.result = detail::castSteps(a, motionA, b, motionB, tMax, gap, recorder);
    return trace;
}

} // namespace kz
