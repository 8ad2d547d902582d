// Times of impact: when a candidate pair next comes within its target gap. Exact for a sphere
// against a wall, a sphere or an obstacle's triangles (geom/sweep.hpp); conservative
// advancement (Mirtich 1996) for a box against anything. The searches are in
// time_of_impact_steps.hpp (shared with the traces of the lab and the impact log).
#include "time_of_impact_steps.hpp"

namespace kz {

float World::timeOfImpact(int candidate, float remaining, std::vector<Triangle>& near) const {
    Candidate& c = impl_->candidates[candidate];
    const auto spin = [&](int i) { return impl_->spinEnergy[static_cast<std::size_t>(i)]; };
    const bool body = c.partner.isBody();
    const SearchStart start{bodies_[c.a], spin(c.a), c.partner, body ? &bodies_[c.partner.index] : nullptr,
                            body ? spin(c.partner.index) : 0.0};
    NoImpactTrace none;
    return searchTimeOfImpact(start, remaining, c.target, near, none);
}

} // namespace kz
