// Times of impact: when a candidate pair next comes within its target gap. Exact for a sphere
// against a wall, a sphere or an obstacle's triangles (geom/sweep.hpp); conservative
// advancement (Mirtich 1996) for a box against anything. The searches are in
// time_of_impact_steps.hpp (shared with the traces of the lab and the impact log).
#include "time_of_impact_steps.hpp"

namespace kz {

float World::timeOfImpact(int candidate, double now, float remaining, std::vector<Triangle>& near) const {
    Candidate& c = impl_->candidates[candidate];
    const ParallelScratch& parallel = impl_->parallel.value;
    const auto spin = [&](int i) { return impl_->spinEnergy[static_cast<std::size_t>(i)]; };
    const auto path = [&](int i) -> const FlightPath& {
        return parallel.flights[static_cast<std::size_t>(i)];
    };
    const auto since = [&](int i) {
        return static_cast<float>(now - parallel.flightStart[static_cast<std::size_t>(i)]);
    };
    const bool body = c.partner.isBody();
    const int b = body ? c.partner.index : c.a;
    const SearchStart start{bodies_[c.a],
                            spin(c.a),
                            path(c.a),
                            since(c.a),
                            c.partner,
                            body ? &bodies_[b] : nullptr,
                            body ? spin(b) : 0.0,
                            body ? &path(b) : nullptr,
                            body ? since(b) : 0.0f};
    NoImpactTrace none;
    return searchTimeOfImpact(start, remaining, c.target, near, none);
}

bool World::searchReadsPaths(int candidate, float remaining) const {
    // The same tests as the searches' first (time_of_impact_steps.hpp): the paths are read only
    // past them, by conservative advancement.
    const Candidate& c = impl_->candidates[candidate];
    const Body& a = bodies_[c.a];
    if (c.partner.isObstacle()) {
        if (a.shape == ShapeType::Sphere) return false; // swept exactly
        const auto spin = impl_->spinEnergy[static_cast<std::size_t>(c.a)];
        return !obstacleReach(a, spin, obstacles_[c.partner.index], remaining).apart;
    }
    const Body* b = c.partner.isBody() ? &bodies_[c.partner.index] : nullptr;
    const Plane* wall = b ? nullptr : &room_.planes[c.partner.index];
    return !boundingSpheres(a, b, wall, remaining).apart && !meetExactly(a, b);
}

} // namespace kz
