// The impact log's record: one body meeting its partner (a body, a wall or a mesh obstacle) at a
// time of impact of a step, as the step resolved it (World::impacts()). Made in impacts.cpp
// (World::recordImpacts) from the solver's own points, never reconstructed afterwards.
#pragma once

#include "partner.hpp"

#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace kz {

/// How a time of impact was found (World::timeOfImpact; World::explainImpact gives the numbers).
enum class ImpactMethod {
    /// The bounding spheres (for an obstacle: the body's bounding sphere and the mesh's box, or no
    /// triangle near the path) cannot close the gap in the time left: INFINITY.
    BoundingSpheresApart,
    SpherePlaneRoot,     ///< A sphere and a wall: the linear root of d0 - approach t = gap (geom/sweep.hpp).
    SphereSphereRoot,    ///< Two spheres: the smaller root of |dp + dv t| = rA + rB + gap.
    SphereTriangleSweep, ///< A sphere and an obstacle: the earliest sweepSphereTriangle over the
                         ///< triangles near its path.
    NotApproaching,      ///< Conservative advancement with a closing-speed bound of about 0: INFINITY.
    Conservative,        ///< Conservative advancement (Mirtich 1996): a box against anything.
    /// No search: the pair touched (within the contact reach) at the step start while closing
    /// faster than the resting speed, and the step's first solve bounced it (time 0). It ended the
    /// last step just short of the gap its search stops at (for a box, by at most 0.01 mm; for
    /// spheres, by rounding).
    TouchingAtStepStart,
};

/// A body's free flight as a time-of-impact search read it: the body's state where that flight
/// began (the step's start, or the impact whose impulse last changed its motion) and when. The
/// search read the flight's poses from `flightStart` on; its shape, mass and inertia never change
/// in a step.
struct ImpactBodyState {
    glm::vec3 position;        ///< Centre, world frame (m).
    glm::quat orientation;     ///< Unit quaternion.
    glm::vec3 velocity;        ///< m/s.
    glm::vec3 angularVelocity; ///< rad/s, world frame.
    glm::vec3 angularMomentum; ///< World frame, about the centre.
    double spinEnergy;         ///< The rotational energy free flight keeps.
    double flightStart;        ///< Seconds into the step when this flight began (at most the search's time).
};

/// A body at an impact: where it was and how fast it moved before and after the impulses.
struct ImpactPose {
    glm::vec3 position;       ///< Centre, world frame (m).
    glm::quat orientation;    ///< Unit quaternion.
    glm::vec3 velocityBefore; ///< The centre's velocity before the impact's impulses (m/s).
    glm::vec3 velocityAfter;  ///< And after them (the impact's solve: its other pairs' impulses too).
};

/// What the search that found an impact's time started from, so World::explainImpact can run it
/// again with its steps recorded and get the same time, bit for bit.
struct ImpactSearchStart {
    double time;             ///< Seconds into the step when the search ran (the pair's last change before the
                             ///< impact); 0 for a pair bounced at the step start.
    float remaining;         ///< The step's time left then: the search's limit (s).
    ImpactBodyState body;    ///< The record's body.
    ImpactBodyState partner; ///< The partner body (a body partner only; else zero).
};

/// One impact of the last step: a body and its partner whose time of impact the step stopped at
/// and which the contact solver then pushed apart (a positive normal impulse), or a pair that
/// touched at the step start while closing faster than the resting speed (TouchingAtStepStart). A
/// pair that touched already at the step start and was resting or sliding is not an impact and
/// gives no record, even when an impact elsewhere pushes through it (the balls of a Newton's
/// cradle behind the one that was hit); nor does a pair whose search fired but whose points were
/// already separating (no impulse).
struct ImpactRecord {
    std::uint64_t step;     ///< World::stepCount() right after the step it happened in (the first step is 1).
    double time;            ///< Seconds from the step's start to the impact (0 to the time step).
    int body;               ///< The body (of a body pair, the lower index).
    Partner partner;        ///< The other body, the wall or the obstacle it met.
    std::uint32_t triangle; ///< Obstacle partner: the mesh triangle that took the largest impulse; else 0.
    /// Where the impulse acted: the contact points weighted by their normal impulses (on the
    /// partner's surface; for a box face flat on a wall, the centre of its points).
    glm::vec3 point;
    glm::vec3 normal; ///< Unit, from the partner toward the body (of the triangle that took the most).
    /// The normal relative speed at `point` before the impulse, dot(v_body - v_partner, normal) in
    /// m/s: negative, approaching. Points weighted by their impulses, as `point`.
    float speedBefore;
    /// The same after the impulse: -restitution x speedBefore for a converged solve (0 for a slow
    /// contact under gravity, which the solver brings to rest).
    float speedAfter;
    float impulse;          ///< The total normal impulse the solver applied (N s, > 0).
    ImpactPose bodyPose;    ///< The body at the impact.
    ImpactPose partnerPose; ///< The partner body at the impact (a body partner only; else zero).
    ImpactMethod method; ///< How the time was found (a root, the sweep, advancement, or at the step start).
    ImpactSearchStart search; ///< Where that search started, for World::explainImpact.
};

} // namespace kz
