// Internal to kz_geom: the shape cast (shape_cast.hpp's castConvexConvex), written once as a
// template on an observer (as gjk_steps.hpp): shape_cast.cpp runs it with CastNoTrace, whose
// hooks vanish; the explain trace (explain_shape_cast.cpp) records each step's time, poses, GJK
// answer and approach bound.
#pragma once

#include "convex_detail.hpp"
#include "shape_cast.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace kz::detail {

/// How far from the line through `pivot` along `axis` (unit, or zero for the point itself) the
/// shape's points can lie, as far as turning about that line moves the shape: a box's farthest
/// corner, a hull's farthest vertex, a cylinder's farthest cap centre plus its radius (an upper
/// bound), and only the core of a sphere or capsule (the ball round a point is the same turned).
/// A point of the shape then moves no faster than |angularVelocity x n| times this along n.
double reachFrom(const ConvexShape& shape, const glm::dvec3& pivot, const glm::dvec3& axis);
/// The largest absolute coordinate of the shape's centre: the scale of float's rounding of its
/// pose.
double coordinateScale(const ConvexShape& shape);

/// What a cast needs beyond its inputs, computed once.
struct CastSetup {
    /// reachFrom each shape's turning axis at t = 0 (the axis moves with the pivot, the distances
    /// from it do not change as the shape turns about it).
    double reachA, reachB;
    double tolerance; ///< Within the gap plus this counts as the contact (absolute).
};

/// The setup, or false for invalid input (see ShapeCastStatus::InvalidInput).
bool castSetup(const ConvexShape& a, const ConvexMotion& motionA, const ConvexShape& b,
               const ConvexMotion& motionB, float tMax, float gap, CastSetup& setup);

/// The rate mu at which the slab between the shapes along n (unit, from B toward A) can shrink at
/// most: the pivots' closing speed along n plus each shape's turn across n times its reach.
struct ApproachBound {
    double linear;  ///< dot(velocityB - velocityA, n).
    double angular; ///< |angularVelocityA x n| reachA + |angularVelocityB x n| reachB.
    double rate;    ///< linear + angular.
};
ApproachBound approachBound(const ConvexMotion& motionA, const ConvexMotion& motionB, const CastSetup& setup,
                            const glm::dvec3& n);

/// The fast path's observer: every hook does nothing.
struct CastNoTrace {
    template <class... T>
    void start(const T&...) {}
    template <class... T>
    void step(const T&...) {}
};

/// castConvexConvex (shape_cast.hpp) with its hooks: start(setup) once, then per step
/// step(t, shapeA, shapeB, gjk, bound, next) with the shapes posed at t, GJK's answer there, the
/// approach bound (rate 0 when the step ends the cast within the gap) and the next safe time
/// (t itself when the step ends the cast there, +infinity for a miss by the bound).
template <class Observe>
ShapeCast castSteps(const ConvexShape& a, const ConvexMotion& motionA, const ConvexShape& b,
                    const ConvexMotion& motionB, float tMax, float gap, Observe& observe) {
    const glm::vec3 zero(0.0f);
    CastSetup setup{};
    if (!castSetup(a, motionA, b, motionB, tMax, gap, setup)) {
        return {ShapeCastStatus::InvalidInput, false, 0.0f, INFINITY, zero, zero, zero, 0};
    }
    observe.start(setup);
    const ShapeCast miss{ShapeCastStatus::Miss, false, tMax, INFINITY, zero, zero, zero, 0};
    // Each step aims at the gap plus half the tolerance, so that the shapes end apart (GJK gives
    // a normal there) yet within the tolerance of the gap.
    const double target = double(gap) + 0.5 * setup.tolerance;
    double t = 0.0;
    glm::vec3 lastNormal(0.0f);
    for (int step = 1; step <= kCastMaxIterations; ++step) {
        const float tf = float(t);
        const ConvexShape shapeA = shapeAtTime(a, motionA, tf);
        const ConvexShape shapeB = shapeAtTime(b, motionB, tf);
        const GjkResult g = closestPtConvexConvex(shapeA, shapeB);
        if (g.status == GjkStatus::InvalidInput) { // a pose that rounding made degenerate
            observe.step(tf, shapeA, shapeB, g, ApproachBound{}, INFINITY);
            return {ShapeCastStatus::InvalidInput, false, tf, INFINITY, zero, zero, zero, step};
        }
        // Touching at the end after a step (rounding): the normal is the last step's.
        const glm::vec3 normal = g.normal == zero ? lastNormal : g.normal;
        ShapeCast here{ShapeCastStatus::Hit, true, tf, g.distance, g.pointA, g.pointB, normal, step};
        if (g.overlap || double(g.distance) <= double(gap) + setup.tolerance) {
            observe.step(tf, shapeA, shapeB, g, ApproachBound{}, double(tf));
            if (step == 1) here.status = ShapeCastStatus::StartsTouching;
            return here;
        }
        const ApproachBound bound = approachBound(motionA, motionB, setup, glm::dvec3(g.normal));
        // GJK's certified lower bound: the step never passes the contact by GJK's own error.
        const double next = bound.rate > 0.0 ? t + (double(g.lowerBound) - target) / bound.rate : INFINITY;
        observe.step(tf, shapeA, shapeB, g, bound, next);
        if (!(next <= double(tMax))) {
            ShapeCast out = miss;
            out.iterations = step;
            return out;
        }
        if (step == kCastMaxIterations) { // the safe time reached, as a hit
            here.status = ShapeCastStatus::IterationCap;
            return here;
        }
        t = std::max(t, next);
        lastNormal = g.normal;
    }
    return miss; // not reached: the loop returns at its last step
}

} // namespace kz::detail
