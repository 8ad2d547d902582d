// The trace of the shape cast (shape_cast.hpp) for the lab and `kolize explain`: each step of
// conservative advancement with the shapes posed at its time, GJK's answer there and the bound on
// their approach. It runs the query's own code (shape_cast_steps.hpp, the fast path's observer
// doing nothing) with a recorder, so the trace's answer is the fast query's, bit for bit.
// Traces allocate (std::vector); the fast query does not. Nothing throws.
#pragma once

#include "gjk.hpp"
#include "shape_cast.hpp"

#include <string_view>
#include <vector>

namespace kz {

/// "hit", "starts_touching", "miss", "iteration_cap", "invalid_input".
std::string_view shapeCastStatusName(ShapeCastStatus status);

/// One step: the shapes at time t, GJK's distance there, and how far t can safely advance.
struct ShapeCastStep {
    float t;            ///< The time reached (the first step's is 0).
    ConvexShape shapeA; ///< A posed at t (shapeAtTime).
    ConvexShape shapeB; ///< B posed at t.
    GjkResult gjk;      ///< closestPtConvexConvex(shapeA, shapeB).
    /// The bound on the approach along gjk.normal (see shape_cast.hpp): the pivots' closing
    /// speed along it, the turns' part, and their sum. All 0 when the step ends the cast within
    /// the gap (or on a pose made invalid by rounding).
    double linearRate, angularRate, rate;
    /// t + (gjk.lowerBound - gap - tolerance / 2) / rate: the next safe time (each step aims at
    /// the middle of the tolerance, so that the shapes end apart); t when the step ends the cast
    /// within the gap; +infinity when the rate is not positive (or on an invalid pose).
    double nextT;
};

/// How the shape cast found its time of impact.
struct ShapeCastTrace {
    ConvexShape a, b; ///< The shapes at t = 0.
    ConvexMotion motionA, motionB;
    float tMax, gap;
    /// How far each shape reaches from the line it turns about (the approach bound's factor), and the
    /// distance tolerance (absolute) within which the gap counts as reached; 0 for invalid input.
    double reachA, reachB, tolerance;
    std::vector<ShapeCastStep> steps; ///< Empty for invalid input.
    ShapeCast result;                 ///< castConvexConvex(a, motionA, b, motionB, tMax, gap), bit for bit.
};

/// castConvexConvex with its steps.
ShapeCastTrace explainCastConvexConvex(const ConvexShape& a, const ConvexMotion& motionA,
                                       const ConvexShape& b, const ConvexMotion& motionB, float tMax = 1.0f,
                                       float gap = 0.0f);

} // namespace kz
