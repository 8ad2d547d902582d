// The position projection at the end of a step: what still overlaps by more than kSlop is
// pushed apart, positions only (no energy added).
#include "narrow_phase.hpp"
#include "world_impl.hpp"

namespace kz {

void World::projectPositions() {
    Impl& scratch = *impl_;
    // Split, mass-weighted position correction of what still overlaps: velocities untouched.
    for (int pass = 0; pass < 2; ++pass) {
        for (const Candidate& c : scratch.candidates) {
            Body& a = bodies_[c.a];
            if (c.partner.isObstacle()) {
                // The deepest triangle first; the next pass sees what is left.
                obstacleContactsOf(c.a, c.partner.index, 0.0f, scratch.manifolds);
                if (scratch.manifolds.empty() || scratch.manifolds[0].manifold.depth <= kSlop) continue;
                a.position += scratch.manifolds[0].manifold.normal *
                              (0.8f * (scratch.manifolds[0].manifold.depth - kSlop));
                continue;
            }
            const auto m = contactOf(c.a, c.partner);
            if (!m || m->depth <= kSlop) continue;
            const float correction = 0.8f * (m->depth - kSlop);
            if (!c.partner.isBody()) {
                a.position += m->normal * correction;
                continue;
            }
            Body& b = bodies_[c.partner.index];
            const float total = a.invMass + b.invMass;
            a.position += m->normal * (correction * a.invMass / total);
            b.position -= m->normal * (correction * b.invMass / total);
        }
    }
}

} // namespace kz
