// The query lab's trace of a time of impact between a body and another body or a wall, as a
// step computes it: the bounding-sphere cull, then the exact sweep (sphere against sphere or
// wall) or the conservative advancement (Mirtich 1996) for boxes, iteration by iteration.
// World::explainTimeOfImpact runs the step's own code (one template with an observer, the step's
// observer doing nothing: time_of_impact_steps.hpp), so its time is the step's, bit for bit.
#pragma once

#include "world.hpp"

#include <array>

namespace kz {

/// How the time of impact was found.
enum class ImpactMethod {
    BoundingSpheresApart, ///< The bounding spheres cannot close the gap in the time left: INFINITY.
    Exact,                ///< A sphere against a sphere or a wall: the exact root (geom/sweep.hpp).
    NotApproaching,       ///< Conservative advancement with a closing-speed bound of about 0: INFINITY.
    Conservative,         ///< Conservative advancement: the iterations below.
};

/// One iteration of conservative advancement: at `time` the gap is at least `distance`; it
/// cannot close faster than the bound, so flying (distance - target) / bound is safe.
struct AdvancementStep {
    float time;     ///< Seconds from now reached before this iteration (0 for the first).
    float distance; ///< The gap's lower bound there (for two boxes, separationObbObb's).
    /// (distance - target) / bound, the time flown next; on a last iteration that went beyond the
    /// time left, the advance that would have; 0 on one that converged.
    float advance;
};

/// Why conservative advancement stopped.
enum class AdvancementEnd {
    Converged,       ///< The gap came within tolerance of the target: the time is the impact.
    BeyondRemaining, ///< The next advance would pass the time left: no impact (INFINITY).
    IterationLimit,  ///< 64 advances without converging: the time reached, still safe.
};

/// World::timeOfImpact for one pair, step by step.
struct AdvancementTrace {
    /// A body index and a body (not the same one) or wall partner in range; when false nothing
    /// else is set and time is INFINITY.
    bool valid;
    ImpactMethod method;   ///< How the time was found (BoundingSpheresApart when not valid).
    float initialDistance; ///< The gap's lower bound now (0 when the bounding spheres were apart).
    /// The gap at which the impact counts: 0 for an exact pair, half the contact margin for a
    /// conservative one, or, for a pair touching already, its gap less another half margin (so
    /// resting pairs stay quiet). 0 when the bounding spheres were apart.
    float target;
    float tolerance; ///< Conservative: the advancement stops within this of the target (kMargin / 8).
    /// Conservative or NotApproaching: the bound on the closing speed, |relative velocity| plus
    /// each box's rotation bound (for a wall, the approach speed plus the rotation bound).
    float bound;
    std::array<AdvancementStep, 64> steps; ///< Conservative: the iterations, stepCount used (1 to 64).
    int stepCount;
    AdvancementEnd end; ///< Conservative: why it stopped; Converged otherwise.
    float time;         ///< Seconds from now to the impact, INFINITY for none: the step's own, bit for bit.
};

} // namespace kz
