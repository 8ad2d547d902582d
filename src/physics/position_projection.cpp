// The position projection at the end of a step: what still overlaps by more than kSlop is
// pushed apart, positions only (no energy added).
#include "narrow_phase.hpp"
#include "world_impl.hpp"

namespace kz {

void World::projectPositions() {
    Impl& scratch = *impl_;
    JobSystem* jobs = jobs_.get();
    ParallelScratch& parallel = scratch.parallel.value;
    std::vector<WorkerScratch>& workers = scratch.workers(jobs);
    // The push a candidate pair's contact asks for, from the bodies as they are.
    const auto look = [&](const Candidate& c, WorkerScratch& local) -> ProjectionContact {
        if (c.partner.isObstacle()) {
            // The deepest triangle first; the next pass sees what is left.
            obstacleContactsOf(c.a, c.partner.index, 0.0f, local.manifolds, local);
            if (local.manifolds.empty()) return {glm::vec3(0.0f), 0.0f, false};
            return {local.manifolds[0].manifold.normal, local.manifolds[0].manifold.depth, true};
        }
        const auto m = contactOf(c.a, c.partner);
        return m ? ProjectionContact{m->normal, m->depth, true}
                 : ProjectionContact{glm::vec3(0.0f), 0.0f, false};
    };
    // Each pass walks the pairs in order, and a push moves bodies that later pairs read. So every
    // pair is looked at first in parallel, and the walk looks again only at a pair whose body a
    // push has moved since; the second pass looks again, in parallel, only at the pairs whose
    // bodies the first moved (the others' contacts asked for no push in the first pass).
    std::vector<ProjectionContact>& looked = parallel.projection;
    std::vector<std::uint32_t>& moved = parallel.movedStamp; // the pass (1, 2) that last moved a body
    looked.resize(scratch.candidates.size());
    moved.assign(bodies_.size(), 0);
    const auto movedIn = [&](const Candidate& c, std::uint32_t pass) {
        return moved[c.a] == pass || (c.partner.isBody() && moved[c.partner.index] == pass);
    };
    // Split, mass-weighted position correction of what still overlaps: velocities untouched.
    for (std::uint32_t pass = 1; pass <= 2; ++pass) {
        parallelFor(jobs, scratch.candidates.size(), kPairGrain, [&](const JobChunk& chunk) {
            WorkerScratch& local = workers[static_cast<std::size_t>(chunk.worker)];
            for (std::size_t k = chunk.begin; k < chunk.end; ++k) {
                const Candidate& c = scratch.candidates[k];
                if (pass == 1 || movedIn(c, 1)) looked[k] = look(c, local);
            }
        });
        for (std::size_t k = 0; k < scratch.candidates.size(); ++k) {
            const Candidate& c = scratch.candidates[k];
            const ProjectionContact m = movedIn(c, pass) ? look(c, scratch.local) : looked[k];
            if (!m.touching || m.depth <= kSlop) continue;
            const float correction = 0.8f * (m.depth - kSlop);
            Body& a = bodies_[c.a];
            moved[c.a] = pass;
            if (!c.partner.isBody()) {
                a.position += m.normal * correction;
                continue;
            }
            Body& b = bodies_[c.partner.index];
            moved[c.partner.index] = pass;
            const float total = a.invMass + b.invMass;
            a.position += m.normal * (correction * a.invMass / total);
            b.position -= m.normal * (correction * b.invMass / total);
        }
    }
}

} // namespace kz
