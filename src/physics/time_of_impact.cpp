// Times of impact: when a candidate pair next comes within its target gap. Exact for a sphere
// against a wall, a sphere or an obstacle's triangles (geom/sweep.hpp); conservative
// advancement (Mirtich 1996) for a box against anything. The searches are in
// time_of_impact_steps.hpp (shared with the traces of the lab and the impact log).
#include "time_of_impact_steps.hpp"

namespace kz {

float World::timeOfImpact(int candidate, double now, float remaining, std::vector<Triangle>& near,
                          int& advances) const {
    Candidate& c = impl_->candidates[candidate];
    ParallelScratch& parallel = impl_->parallel.value;
    const auto spin = [&](int i) { return impl_->spinEnergy[static_cast<std::size_t>(i)]; };
    // Flown by the first search that reads it (the body is where its flight begins until then).
    const auto path = [&](int i) {
        const auto k = static_cast<std::size_t>(i);
        return SharedPath{
            &parallel.flights[k],     0.0f, &parallel.flown[k], &bodies_[k], &impl_->spinEnergy[k],
            &parallel.flightStart[k], now,  settings_.timeStep};
    };
    const bool body = c.partner.isBody();
    const int b = body ? c.partner.index : c.a;
    const SearchStart start{bodies_[c.a],
                            spin(c.a),
                            path(c.a),
                            c.partner,
                            body ? &bodies_[b] : nullptr,
                            body ? spin(b) : 0.0,
                            body ? path(b) : SharedPath{}};
    NoImpactTrace none;
    const float time = searchTimeOfImpact(start, remaining, c.target, near, none);
    advances = none.advances;
    return time;
}

} // namespace kz
