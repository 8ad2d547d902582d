// The trace of a time of impact between a body and another body, a wall or a mesh obstacle, as a
// step computes it: the bounding-sphere cull, then the exact sweep (the linear root against a
// wall, the quadratic root against a sphere, sweepSphereTriangle over an obstacle's triangles
// near the path) or the conservative advancement (Mirtich 1996) for boxes, iteration by
// iteration. World::explainTimeOfImpact (the query lab: the pair as it is now) and
// World::explainImpact (the impact log's "Why here?": the search that found a recorded impact)
// run the step's own code (one template with an observer, the step's observer doing nothing:
// time_of_impact_steps.hpp), so their time is the step's, bit for bit.
#pragma once

#include "geom/explain_sweep.hpp"
#include "world.hpp"

#include <array>
#include <cstdint>

namespace kz {

/// One iteration of conservative advancement: at `time` the gap is at least `distance`; it
/// cannot close faster than `bound`, so flying (distance - target) / bound is safe.
struct AdvancementStep {
    float time;     ///< Seconds from now reached before this iteration (0 for the first).
    float distance; ///< The gap's lower bound there (for two boxes, separationObbObb's).
    /// The bound on the gap's closing speed from there: the relative velocity's component along
    /// the axis the gap was measured on (for a wall, its normal; for an obstacle, the whole speed)
    /// plus each box's rotation bound.
    float bound;
    /// (distance - target) / bound, the time flown next; on a last iteration that went beyond the
    /// time left, the advance that would have; 0 on one that converged.
    float advance;
};

/// Conservative advancement's advances per search: one budget, and a second after a jump to where
/// the bounding spheres could first come within the target (time_of_impact_steps.hpp).
inline constexpr int kAdvanceIterations = 64;

/// Why conservative advancement stopped.
enum class AdvancementEnd {
    Converged,       ///< The gap came within tolerance of the target: the time is the impact.
    BeyondRemaining, ///< The next advance would pass the time left: no impact (INFINITY).
    IterationLimit,  ///< Its advances used up without converging: the time reached, still safe.
};

/// World::timeOfImpact for one pair, step by step.
struct AdvancementTrace {
    /// A body index and a body (not the same one), wall or obstacle partner in range; when false
    /// nothing else is set and time is INFINITY.
    bool valid;
    ImpactMethod method; ///< How the time was found (BoundingSpheresApart when not valid).
    /// The gap's lower bound now (0 when the bounding spheres were apart); TouchingAtStepStart:
    /// the gap (negative: overlap) at the step start.
    float initialDistance;
    /// The gap at which the impact counts: 0 for an exact pair, half the contact margin for a
    /// conservative one, or, for a pair touching already, its gap less another half margin (so
    /// resting pairs stay quiet). 0 when the bounding spheres were apart. TouchingAtStepStart:
    /// the contact reach, the largest gap the step start's solve takes as touching.
    float target;
    float tolerance; ///< Conservative: the advancement stops within this of the target (kMargin / 8).
    /// Conservative or NotApproaching: the first iteration's bound on the closing speed (see
    /// AdvancementStep::bound; each iteration has its own).
    float bound;
    /// Conservative: the iterations, stepCount used (1 to 2 kAdvanceIterations).
    std::array<AdvancementStep, 2 * kAdvanceIterations> steps;
    int stepCount;
    /// Conservative: the step whose advance, the last of the first kAdvanceIterations, flew on to
    /// where the bounding spheres could first come within the target (no impact can come sooner)
    /// instead of stopping short of it, after which the search went on; -1 when none did.
    int jumpStep;
    AdvancementEnd end; ///< Conservative: why it stopped; Converged otherwise.
    float time;         ///< Seconds from now to the impact, INFINITY for none: the step's own, bit for bit.

    SpherePlaneSweepTrace plane;    ///< SpherePlaneRoot: the linear equation, its terms and root.
    SphereSphereSweepTrace spheres; ///< SphereSphereRoot: the quadratic, its terms and root.
    /// Obstacle partner (SphereTriangleSweep or Conservative): the triangles near the path, which
    /// the sweeps or the advancement's distance bound run over (0 otherwise).
    int nearTriangles;
    /// SphereTriangleSweep: the mesh triangle whose sweep gave the time (the earliest; of equal
    /// times the first found), or -1 when none did; its world corners and its sweep's steps, run
    /// with the limit that triangle was swept with (the earliest time found before it, or the time
    /// left).
    std::int64_t triangle;
    Triangle placed;
    SphereTriangleSweepTrace sweep;
};

} // namespace kz
