// Flying to the next impacts: take the earliest time of impact off a heap, fly the bodies
// involved (each keeps its own clock) to it, resolve their contacts, and recompute the impacts
// of the bodies whose velocity changed. Until the step is used up.
#include "world_impl.hpp"

#include <algorithm>

namespace kz {

void World::flyToImpacts() {
    Impl& scratch = *impl_;
    const float h = settings_.timeStep;
    const int n = static_cast<int>(bodies_.size());
    // Impacts come off a min-heap of (time, candidate); an entry whose candidate has been
    // recomputed since (its version moved on) is stale and skipped.
    scratch.heap.clear();
    scratch.stale.clear();
    for (int ci = 0; ci < static_cast<int>(scratch.candidates.size()); ++ci) {
        if (!scratch.candidates[ci].fresh) scratch.stale.push_back(ci);
    }
    // A max-heap on `later` keeps the earliest impact (then the lowest candidate) at the front.
    const auto later = [](const Impl::HeapEntry& x, const Impl::HeapEntry& y) {
        return x.toi > y.toi || (x.toi == y.toi && x.candidate > y.candidate);
    };
    const auto current = [&](const Impl::HeapEntry& e) {
        const Candidate& c = scratch.candidates[e.candidate];
        return c.fresh && c.version == e.version;
    };
    const auto pop = [&] {
        std::pop_heap(scratch.heap.begin(), scratch.heap.end(), later);
        scratch.heap.pop_back();
    };
    double now = 0.0;
    const int maxEvents = 8 * n + 64;
    for (int event = 0; event < maxEvents; ++event) {
        for (int ci : scratch.stale) {
            Candidate& c = scratch.candidates[ci];
            if (c.fresh) continue;
            syncBody(c.a, now);
            if (c.partner.isBody()) syncBody(c.partner.index, now);
            c.toi = now + timeOfImpact(ci, h - static_cast<float>(now));
            c.fresh = true;
            if (c.toi <= h) {
                scratch.heap.push_back({c.toi, ci, c.version});
                std::push_heap(scratch.heap.begin(), scratch.heap.end(), later);
            }
        }
        scratch.stale.clear();
        while (!scratch.heap.empty() && !current(scratch.heap.front()))
            pop();
        if (scratch.heap.empty()) break;
        const double earliest = scratch.heap.front().toi;
        now = earliest;
        ++lastStepImpacts_;
        scratch.involved.clear();
        while (!scratch.heap.empty() && scratch.heap.front().toi <= earliest) {
            const Impl::HeapEntry e = scratch.heap.front();
            pop();
            if (!current(e)) continue;
            const Candidate& c = scratch.candidates[e.candidate];
            scratch.involved.push_back(c.a);
            if (c.partner.isBody()) scratch.involved.push_back(c.partner.index);
            invalidate(e.candidate); // fired: look for its next impact
        }
        resolveContacts(now, ResolvePass::Impact);
    }
}

} // namespace kz
