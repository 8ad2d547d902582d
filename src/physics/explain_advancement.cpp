// The time-of-impact trace and its fast twin: World::pairTimeOfImpact (time_of_impact_steps.hpp),
// the code a step runs, with the lab's recorder or with nothing.
#include "explain_advancement.hpp"

#include "time_of_impact_steps.hpp"

namespace kz {
namespace {

/// Fills an AdvancementTrace from pairTimeOfImpact's hooks.
struct ImpactRecorder {
    AdvancementTrace& out;

    void start(float d0, float target) {
        out.method = ImpactMethod::Conservative; // until exact() or bound() say otherwise
        out.initialDistance = d0;
        out.target = target;
    }
    void exact() { out.method = ImpactMethod::Exact; }
    void bound(float bound, bool approaching) {
        out.bound = bound;
        if (!approaching) out.method = ImpactMethod::NotApproaching;
    }
    void tolerance(float tolerance) { out.tolerance = tolerance; }
    void step(float time, float distance) {
        out.steps[static_cast<std::size_t>(out.stepCount++)] = {time, distance, 0.0f};
    }
    void advance(float by) { out.steps[static_cast<std::size_t>(out.stepCount - 1)].advance = by; }
    void end(AdvancementEnd why) { out.end = why; }
};

} // namespace

float World::timeOfImpactBetween(int a, Partner partner, float remaining) const {
    if (!isBodyOrWallPair(*this, a, partner)) return INFINITY;
    NoImpactTrace none;
    float target = 0.0f;
    return pairTimeOfImpact(a, partner, remaining, target, none);
}

AdvancementTrace World::explainTimeOfImpact(int a, Partner partner, float remaining) const {
    AdvancementTrace out{};
    out.method = ImpactMethod::BoundingSpheresApart;
    out.end = AdvancementEnd::Converged;
    out.time = INFINITY;
    if (!isBodyOrWallPair(*this, a, partner)) return out;
    out.valid = true;
    ImpactRecorder recorder{out};
    float target = 0.0f;
    out.time = pairTimeOfImpact(a, partner, remaining, target, recorder);
    return out;
}

} // namespace kz
