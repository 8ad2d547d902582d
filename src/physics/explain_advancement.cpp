// The time-of-impact traces and their fast twin: World::searchTimeOfImpact
// (time_of_impact_steps.hpp), the code a step runs, with a recorder or with nothing. The lab's
// pair as it is now (explainTimeOfImpact), or the search that found a recorded impact, from the
// bodies' states the record kept (explainImpact; for a pair bounced at the step start, its gap
// then).
#include "explain_advancement.hpp"

#include "time_of_impact_steps.hpp"

namespace kz {
namespace {

/// Fills an AdvancementTrace from the search's hooks.
struct ImpactRecorder {
    AdvancementTrace& out;
    std::vector<std::uint32_t> ids; ///< The obstacle triangles near the path, by their index in the mesh.

    void start(float d0, float target) {
        out.method = ImpactMethod::Conservative; // until a root, a sweep or bound() says otherwise
        out.initialDistance = d0;
        out.target = target;
    }
    void spherePlane(const Sphere& s, const glm::vec3& velocity, const Plane& wall, float remaining,
                     float gap) {
        out.method = ImpactMethod::SpherePlaneRoot;
        out.plane = explainSweepSpherePlane(s, velocity, wall, remaining, gap);
    }
    void sphereSphere(const Sphere& a, const glm::vec3& va, const Sphere& b, const glm::vec3& vb,
                      float remaining, float gap) {
        out.method = ImpactMethod::SphereSphereRoot;
        out.spheres = explainSweepSphereSphere(a, va, b, vb, remaining, gap);
    }
    void nearTriangles(const std::vector<Triangle>& near, const std::vector<std::uint32_t>*) {
        out.nearTriangles = static_cast<int>(near.size());
        placedNear = &near;
    }
    /// A triangle's sweep hit at `hit` within `limit`; the earliest so far was `first`.
    void sphereTriangle(std::size_t k, const Sphere& grown, const glm::vec3& velocity, float limit, float hit,
                        float first) {
        out.method = ImpactMethod::SphereTriangleSweep;
        if (!(hit < first)) return; // not earlier: the first of equal times keeps the win
        out.triangle = ids[k];
        out.placed = (*placedNear)[k];
        out.sweep = explainSweepSphereTriangle(grown, velocity, out.placed, limit);
    }
    void bound(float bound, bool approaching) {
        out.bound = bound;
        if (!approaching) out.method = ImpactMethod::NotApproaching;
    }
    void tolerance(float tolerance) { out.tolerance = tolerance; }
    void step(float time, float distance, float bound) {
        out.steps[static_cast<std::size_t>(out.stepCount++)] = {time, distance, bound, 0.0f};
    }
    void advance(float by) { out.steps[static_cast<std::size_t>(out.stepCount - 1)].advance = by; }
    void end(AdvancementEnd why) { out.end = why; }
    void jump() { out.jumpStep = out.stepCount - 1; }
    std::vector<std::uint32_t>* triangleIds() { return &ids; }

    const std::vector<Triangle>* placedNear = nullptr;
};

AdvancementTrace emptyTrace() {
    AdvancementTrace out{};
    out.method = ImpactMethod::BoundingSpheresApart;
    out.end = AdvancementEnd::Converged;
    out.time = INFINITY;
    out.triangle = -1;
    out.jumpStep = -1;
    return out;
}

/// A body's flight as a recorded search read it, flown again from the record: its fixed parts from
/// the world, its motion where the flight began from the record, its pose `since` s into the flight
/// (when the search started) into `posed`.
void flightAt(const Body& fixed, const ImpactBodyState& state, float horizon, float since, FlightPath& path,
              Body& posed) {
    posed = fixed;
    setMotion(posed, state);
    path.fly(posed, state.spinEnergy, horizon);
    path.poseAt(since, posed);
}

} // namespace

float World::timeOfImpactBetween(int a, Partner partner, float remaining) const {
    return isPairInRange(*this, a, partner) ? searchNow(a, partner, remaining, nullptr) : INFINITY;
}

AdvancementTrace World::explainTimeOfImpact(int a, Partner partner, float remaining) const {
    AdvancementTrace out = emptyTrace();
    if (!isPairInRange(*this, a, partner)) return out;
    out.valid = true;
    out.time = searchNow(a, partner, remaining, &out);
    return out;
}

float World::searchNow(int a, Partner partner, float remaining, AdvancementTrace* out) const {
    // Each body's flight from its state now, for the time given.
    const auto spin = [&](int i) { return impl_->spinEnergy[static_cast<std::size_t>(i)]; };
    const Body* b = partner.isBody() ? &bodies_[partner.index] : nullptr;
    FlightPath pathA, pathB;
    pathA.fly(bodies_[a], spin(a), remaining);
    if (b) pathB.fly(*b, spin(partner.index), remaining);
    const SearchStart start{bodies_[a],
                            spin(a),
                            SharedPath{&pathA},
                            partner,
                            b,
                            b ? spin(partner.index) : 0.0,
                            SharedPath{b ? &pathB : nullptr}};
    std::vector<Triangle> near;
    float target = 0.0f;
    if (!out) {
        NoImpactTrace none;
        return searchTimeOfImpact(start, remaining, target, near, none);
    }
    ImpactRecorder recorder{*out, {}};
    return searchTimeOfImpact(start, remaining, target, near, recorder);
}

AdvancementTrace World::explainImpact(const ImpactRecord& record) const {
    AdvancementTrace out = emptyTrace();
    if (!isPairInRange(*this, record.body, record.partner)) return out;
    out.valid = true;
    // Each body's flight flown again from where it began, and its pose when the search started.
    const auto horizonOf = [&](const ImpactBodyState& s) {
        return flightHorizon(settings_.timeStep, s.flightStart);
    };
    const auto sinceOf = [&](const ImpactBodyState& s) {
        return static_cast<float>(record.search.time - s.flightStart);
    };
    FlightPath pathA, pathB;
    Body a, posedB;
    flightAt(bodies_[record.body], record.search.body, horizonOf(record.search.body),
             sinceOf(record.search.body), pathA, a);
    const bool body = record.partner.isBody();
    if (body) {
        flightAt(bodies_[record.partner.index], record.search.partner, horizonOf(record.search.partner),
                 sinceOf(record.search.partner), pathB, posedB);
    }
    const SearchStart start{
        a,
        record.search.body.spinEnergy,
        SharedPath{&pathA, sinceOf(record.search.body)},
        record.partner,
        body ? &posedB : nullptr,
        record.search.partner.spinEnergy,
        SharedPath{body ? &pathB : nullptr, body ? sinceOf(record.search.partner) : 0.0f}};
    std::vector<Triangle> near;
    if (record.method == ImpactMethod::TouchingAtStepStart) {
        // No search: the gap it was bounced at, within the reach the step start's solve took.
        out.method = ImpactMethod::TouchingAtStepStart;
        out.initialDistance = gapAtStart(start, near);
        out.target = contactReach(a, body ? &posedB : nullptr);
        out.nearTriangles = static_cast<int>(near.size());
        out.time = 0.0f;
        return out;
    }
    ImpactRecorder recorder{out, {}};
    float target = 0.0f;
    out.time = searchTimeOfImpact(start, record.search.remaining, target, near, recorder);
    return out;
}

float World::gapAtStart(const SearchStart& start, std::vector<Triangle>& near) const {
    if (start.partner.isObstacle()) {
        trianglesNear(start.a, start.partner.index, kMargin, near);
        return distanceToTriangles(start.a, near);
    }
    return start.b ? distanceBetween(start.a, *start.b)
                   : distanceToPlane(start.a, room_.planes[static_cast<std::size_t>(start.partner.index)]);
}

} // namespace kz
