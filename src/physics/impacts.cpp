// Flying to the next impacts: take the earliest time of impact off a heap, fly the bodies
// involved (each keeps its own clock) to it, resolve their contacts, record the impacts, and
// recompute the impacts of the bodies whose velocity changed. Until the step is used up.
#include "world_impl.hpp"

#include <algorithm>

namespace kz {
namespace {

ImpactBodyState stateOf(const Body& b, double spinEnergy, double flightStart) {
    return {b.position,        b.orientation, b.velocity, b.angularVelocity,
            b.angularMomentum, spinEnergy,    flightStart};
}

/// A body at an impact, after its solve: its velocity before is the search's, which free flight kept.
ImpactPose poseOf(const Body& b, const ImpactBodyState& searched) {
    return {b.position, b.orientation, searched.velocity, b.velocity};
}

/// How a step finds the time of impact of body a and its partner (time_of_impact_steps.hpp).
ImpactMethod methodOf(const Body& a, Partner partner, const Body* b) {
    if (a.shape != ShapeType::Sphere || (b && b->shape != ShapeType::Sphere))
        return ImpactMethod::Conservative;
    return partner.isWall()   ? ImpactMethod::SpherePlaneRoot
           : partner.isBody() ? ImpactMethod::SphereSphereRoot
                              : ImpactMethod::SphereTriangleSweep;
}

/// Flies each body of a chunk from its state at the step's start (ParallelScratch::flightBefore)
/// to the step's end, into ParallelScratch::flightAfter: the workers' free flight ahead, the same
/// flight finishStep would fly.
struct FlyAhead {
    const std::vector<Body>& bodies;
    ParallelScratch& parallel;
    float h;

    void operator()(const JobChunk& chunk) const {
        for (std::size_t i = chunk.begin; i < chunk.end; ++i) {
            const ImpactBodyState& from = parallel.flightBefore[i];
            Body b;
            b.shape = bodies[i].shape; // shape and inertia never change in a step
            b.inertiaLocal = bodies[i].inertiaLocal;
            setMotion(b, from);
            flyToHorizon(b, from.spinEnergy, flightHorizon(h, 0.0), b); // as finishStep flies it
            parallel.flightAfter[i] = {b.position, b.orientation, b.angularVelocity};
        }
    }
};

} // namespace

void World::flyToImpacts() {
    Impl& scratch = *impl_;
    const float h = settings_.timeStep;
    // Impacts come off a min-heap of (time, candidate); an entry whose candidate has been
    // recomputed since (its version moved on) is stale and skipped.
    scratch.heap.clear();
    scratch.stale.clear();
    for (int ci = 0; ci < static_cast<int>(scratch.candidates.size()); ++ci) {
        if (!scratch.candidates[ci].fresh) scratch.stale.push_back(ci);
    }
    double now = 0.0;
    const int maxEvents = eventCap();
    const std::int64_t maxAdvances = advanceCap();
    // Free flight to the step's end, ahead of time: once the first searches are done, the workers
    // fly every body from its state then to the end of the step while this thread goes from impact
    // to impact; finishStep keeps that for each body whose flight no impulse has ended since.
    ParallelScratch& parallel = scratch.parallel.value;
    parallel.flownAhead = false;
    FlyAhead flyAhead{bodies_, parallel, h};
    JobSystem::Background ahead;
    bool capped = false;
    for (int event = 0;; ++event) {
        const float remaining = h - static_cast<float>(now);
        searchStaleImpacts(now, remaining);
        if (event == 0 && readyFlightAhead()) ahead = jobs_->start(bodies_.size(), kBodyGrain, flyAhead);
        pushSearchedImpacts(now, remaining);
        scratch.stale.clear();
        if (event == maxEvents || lastStepAdvances_ >= maxAdvances) {
            capped = impactDue(); // a cap is reached: is another impact still due in the step?
            break;
        }
        const std::optional<double> earliest = popEarliestImpacts();
        if (!earliest) break;
        now = *earliest;
        resolveContacts(now, ResolvePass::Impact);
        recordImpacts(now, false);
    }
    ahead.wait();
    // Cut short: every body stops at the last impact's time, where every impact before it has
    // been taken (finishStep flies each body there, not to the step's end).
    scratch.stepEnd = capped ? now : static_cast<double>(h);
    lastStepCapped_ = capped;
    lastStepLost_ = capped ? h - static_cast<float>(now) : 0.0f;
    cappedSteps_ += capped ? 1 : 0;
}

void World::searchStaleImpacts(double now, float remaining) {
    Impl& scratch = *impl_;
    std::vector<int>& searches = scratch.parallel.value.searches;
    searches.clear();
    for (int ci : scratch.stale) {
        Candidate& c = scratch.candidates[ci];
        if (c.fresh) continue;
        c.fresh = true; // a pair listed twice is searched once
        searches.push_back(ci);
        syncBody(c.a, now);
        if (c.partner.isBody()) syncBody(c.partner.index, now);
    }
    // The searches fly the paths they read, each once (SharedPath).
    std::vector<WorkerScratch>& workers = scratch.workers(jobs_.get());
    std::vector<int>& advances = scratch.parallel.value.searchAdvances;
    advances.resize(searches.size());
    parallelFor(jobs_.get(), searches.size(), kImpactGrain, [&](const JobChunk& chunk) {
        std::vector<Triangle>& near = workers[static_cast<std::size_t>(chunk.worker)].nearTriangles;
        for (std::size_t k = chunk.begin; k < chunk.end; ++k) {
            const int ci = searches[k];
            scratch.candidates[ci].toi = now + timeOfImpact(ci, now, remaining, near, advances[k]);
        }
    });
    for (const int taken : advances) // summed in order: the same count on any thread count
        lastStepAdvances_ += taken;
}

bool World::readyFlightAhead() {
    if (!jobs_ || jobs_->threads() <= 1 || chunkCount(jobs_.get(), bodies_.size(), kBodyGrain) <= 1)
        return false;
    // No impact has moved a body yet: their states now are the step start's, resolved.
    Impl& scratch = *impl_;
    ParallelScratch& parallel = scratch.parallel.value;
    const std::size_t n = bodies_.size();
    parallel.flightBefore.resize(n);
    parallel.flightAfter.resize(n);
    parallelFor(jobs_.get(), n, kBodyGrain, [&](const JobChunk& chunk) {
        for (std::size_t i = chunk.begin; i < chunk.end; ++i) {
            const Body& b = bodies_[i];
            parallel.flightBefore[i] = {
                b.position,        b.orientation,         b.velocity, b.angularVelocity,
                b.angularMomentum, scratch.spinEnergy[i], 0.0};
        }
    });
    parallel.flownAhead = true;
    return true;
}

void World::pushSearchedImpacts(double now, float remaining) {
    Impl& scratch = *impl_;
    const float h = settings_.timeStep;
    // Each body's flight as the search read it: its state where the flight began, and when.
    const ParallelScratch& parallel = scratch.parallel.value;
    const auto stateAt = [&](int i) {
        const auto k = static_cast<std::size_t>(i);
        // A body whose path is not flown has not moved since its flight began.
        return parallel.flown[k] ? parallel.flights[k].start(parallel.flightStart[k])
                                 : stateOf(bodies_[i], scratch.spinEnergy[k], parallel.flightStart[k]);
    };
    for (int ci : scratch.parallel.value.searches) {
        const Candidate& c = scratch.candidates[ci];
        if (!(c.toi <= h)) continue; // beyond the step, or no impact (NaN included)
        // Where this search started, for the impact's record should it fire.
        const int search = static_cast<int>(scratch.searchStarts.size());
        scratch.searchStarts.push_back({now, remaining, stateAt(c.a),
                                        c.partner.isBody() ? stateAt(c.partner.index) : ImpactBodyState{}});
        scratch.pushImpact({c.toi, ci, c.version, search});
    }
}

bool World::impactDue() {
    Impl& scratch = *impl_;
    while (!scratch.heap.empty() && !scratch.isCurrent(scratch.heap.front()))
        scratch.popImpact();
    return !scratch.heap.empty();
}

std::optional<double> World::popEarliestImpacts() {
    Impl& scratch = *impl_;
    if (!impactDue()) return std::nullopt;
    const double earliest = scratch.heap.front().toi;
    ++lastStepImpacts_;
    scratch.involved.clear();
    scratch.fired.clear();
    while (!scratch.heap.empty() && scratch.heap.front().toi <= earliest) {
        const Impl::HeapEntry e = scratch.popImpact();
        if (!scratch.isCurrent(e)) continue;
        const Candidate& c = scratch.candidates[e.candidate];
        scratch.involved.push_back(c.a);
        if (c.partner.isBody()) scratch.involved.push_back(c.partner.index);
        scratch.fired.push_back(e);
        invalidate(e.candidate); // fired: look for its next impact
    }
    return earliest;
}

void World::noteStepStartImpacts() {
    Impl& scratch = *impl_;
    scratch.fired.clear();
    const float resting = restingSpeedOf(settings_);
    const auto spin = [&](int i) { return scratch.spinEnergy[static_cast<std::size_t>(i)]; };
    for (const SolverPoint& p : scratch.solver.points()) {
        if (!(p.speedBefore < -resting)) continue;
        // A pair's points are contiguous: note it once.
        if (!scratch.fired.empty() && scratch.fired.back().candidate == p.candidate) continue;
        const int search = static_cast<int>(scratch.searchStarts.size());
        scratch.searchStarts.push_back(
            {0.0, settings_.timeStep, stateOf(bodies_[p.a], spin(p.a), 0.0),
             p.b >= 0 ? stateOf(bodies_[p.b], spin(p.b), 0.0) : ImpactBodyState{}});
        scratch.fired.push_back({0.0, p.candidate, 0, search});
    }
}

void World::recordImpacts(double now, bool atStepStart) {
    // Each fired pair's solver points (a manifold each, or one per touched triangle of an
    // obstacle), weighted by their normal impulses: a pair that took none was not hit.
    const Impl& scratch = *impl_;
    const std::vector<SolverPoint>& points = scratch.solver.points();
    for (const Impl::HeapEntry& e : scratch.fired) {
        float impulse = 0.0f;
        for (const SolverPoint& p : points) {
            if (p.candidate == e.candidate && p.lambdaN > 0.0f) impulse += p.lambdaN;
        }
        if (!(impulse > 0.0f)) continue;
        const Candidate& c = scratch.candidates[e.candidate];
        const Body& a = bodies_[c.a];
        const Body* b = c.partner.isBody() ? &bodies_[c.partner.index] : nullptr;
        ImpactRecord record{};
        record.step = stepCount_ + 1;
        record.time = now;
        record.body = c.a;
        record.partner = c.partner;
        record.impulse = impulse;
        record.method = atStepStart ? ImpactMethod::TouchingAtStepStart : methodOf(a, c.partner, b);
        record.search = scratch.searchStarts[static_cast<std::size_t>(e.search)];
        record.bodyPose = poseOf(a, record.search.body);
        if (b) record.partnerPose = poseOf(*b, record.search.partner);
        float largest = 0.0f; // the manifold (an obstacle's triangle) that took the most
        for (std::size_t k = 0; k < points.size();) {
            std::size_t end = k;
            float manifold = 0.0f;
            for (; end < points.size() && points[end].group == points[k].group; ++end) {
                const SolverPoint& p = points[end];
                if (p.candidate != e.candidate || !(p.lambdaN > 0.0f)) continue;
                manifold += p.lambdaN;
                const float w = p.lambdaN / impulse; // 1 exactly for a single point
                const glm::vec3 vAfter =
                    a.velocity + glm::cross(a.angularVelocity, p.rA) -
                    (b ? b->velocity + glm::cross(b->angularVelocity, p.rB) : glm::vec3(0.0f));
                record.point += w * (a.position + p.rA);
                record.speedBefore += w * p.speedBefore;
                record.speedAfter += w * glm::dot(vAfter, p.normal);
            }
            if (manifold > largest) {
                largest = manifold;
                record.normal = points[k].normal;
                record.triangle = c.partner.isObstacle() ? points[k].triangle : 0;
            }
            k = end;
        }
        impacts_.push_back(record);
    }
}

} // namespace kz
