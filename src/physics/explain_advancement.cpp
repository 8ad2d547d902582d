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

/// A body as a recorded search saw it: its fixed parts from the world, its motion from the record.
Body bodyAt(const Body& fixed, const ImpactBodyState& state) {
    Body b = fixed;
    b.position = state.position;
    b.orientation = state.orientation;
    b.velocity = state.velocity;
    b.angularVelocity = state.angularVelocity;
    b.angularMomentum = state.angularMomentum;
    return b;
}

} // namespace

float World::timeOfImpactBetween(int a, Partner partner, float remaining) const {
    if (!isPairInRange(*this, a, partner)) return INFINITY;
    const auto spin = [&](int i) { return impl_->spinEnergy[static_cast<std::size_t>(i)]; };
    const Body* b = partner.isBody() ? &bodies_[partner.index] : nullptr;
    const SearchStart start{bodies_[a], spin(a), partner, b, b ? spin(partner.index) : 0.0};
    NoImpactTrace none;
    std::vector<Triangle> near;
    float target = 0.0f;
    return searchTimeOfImpact(start, remaining, target, near, none);
}

AdvancementTrace World::explainTimeOfImpact(int a, Partner partner, float remaining) const {
    AdvancementTrace out = emptyTrace();
    if (!isPairInRange(*this, a, partner)) return out;
    out.valid = true;
    const auto spin = [&](int i) { return impl_->spinEnergy[static_cast<std::size_t>(i)]; };
    const Body* b = partner.isBody() ? &bodies_[partner.index] : nullptr;
    const SearchStart start{bodies_[a], spin(a), partner, b, b ? spin(partner.index) : 0.0};
    ImpactRecorder recorder{out, {}};
    std::vector<Triangle> near;
    float target = 0.0f;
    out.time = searchTimeOfImpact(start, remaining, target, near, recorder);
    return out;
}

AdvancementTrace World::explainImpact(const ImpactRecord& record) const {
    AdvancementTrace out = emptyTrace();
    if (!isPairInRange(*this, record.body, record.partner)) return out;
    out.valid = true;
    const Body a = bodyAt(bodies_[record.body], record.search.body);
    std::optional<Body> b;
    if (record.partner.isBody()) b = bodyAt(bodies_[record.partner.index], record.search.partner);
    const SearchStart start{a, record.search.body.spinEnergy, record.partner, b ? &*b : nullptr,
                            record.search.partner.spinEnergy};
    std::vector<Triangle> near;
    if (record.method == ImpactMethod::TouchingAtStepStart) {
        // No search: the gap it was bounced at, within the reach the step start's solve took.
        out.method = ImpactMethod::TouchingAtStepStart;
        out.initialDistance = gapAtStart(start, near);
        out.target = contactReach(a, b ? &*b : nullptr);
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
