// Times of impact: when a candidate pair next comes within its target gap. Exact for a sphere
// against a wall, a sphere or an obstacle's triangles (geom/sweep.hpp); conservative
// advancement (Mirtich 1996) for a box against anything. The pair part against a body or a wall
// is in time_of_impact_steps.hpp (shared with the lab's trace).
#include "free_flight.hpp"
#include "geom/closest.hpp"
#include "geom/sweep.hpp"
#include "narrow_phase.hpp"
#include "time_of_impact_steps.hpp"
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace kz {
namespace {

/// A lower bound of the distance between a body's surface and a set of triangles; INFINITY for
/// none. Exact for a sphere. For a box, per triangle the larger of two lower bounds: the centre's
/// distance less the bounding radius (cheap), and the largest separation over the 13 separating
/// axes, computed only when the cheap bound does not already rule the triangle out.
float distanceToTriangles(const Body& a, std::span<const Triangle> triangles) {
    if (a.shape == ShapeType::Sphere) {
        float bestSq = INFINITY;
        for (const Triangle& t : triangles) {
            const glm::vec3 d = a.position - closestPtPointTriangle(a.position, t);
            bestSq = std::min(bestSq, glm::dot(d, d));
        }
        return triangles.empty() ? INFINITY : std::sqrt(bestSq) - a.radius;
    }
    const Obb box = obbOf(a);
    const float reach = boundingRadius(a);
    float best = INFINITY;
    for (const Triangle& t : triangles) {
        const glm::vec3 d = a.position - closestPtPointTriangle(a.position, t);
        const float cheap = std::sqrt(glm::dot(d, d)) - reach;
        if (cheap >= best) continue;
        best = std::min(best, std::max(cheap, separationObbTriangle(box, t)));
    }
    return best;
}

} // namespace

float World::timeOfImpact(int candidate, float remaining) const {
    Candidate& c = impl_->candidates[candidate];
    if (c.partner.isObstacle()) return timeOfImpactWithObstacle(candidate, remaining);
    NoImpactTrace none;
    return pairTimeOfImpact(c.a, c.partner, remaining, c.target, none);
}

float World::timeOfImpactWithObstacle(int candidate, float remaining) const {
    Candidate& c = impl_->candidates[candidate];
    // The triangles the body can reach in the time left. A sphere meets them exactly (gap 0,
    // like a wall): its centre flies straight, against each triangle grown by its radius. A box
    // advances conservatively to half the margin (like boxes against anything): its surface
    // cannot approach any triangle faster than its speed plus the spin bound.
    const Body& a = bodies_[c.a];
    const Obstacle& o = obstacles_[c.partner.index];
    const float bound = glm::length(a.velocity) + rotationSpeedBound(a);
    const float travel = bound * remaining;
    const float gap = std::sqrt(sqDistPointAabb(a.position, o.bounds)) - boundingRadius(a);
    if (gap - kMargin > travel) return INFINITY;
    std::vector<Triangle>& near = impl_->nearTriangles;
    trianglesNear(a, c.partner.index, travel + 2.0f * kMargin, near);
    if (near.empty()) return INFINITY;
    const float d0 = distanceToTriangles(a, near);
    if (a.shape == ShapeType::Sphere) {
        c.target = impactTarget(true, d0);
        const Sphere grown{a.position, a.radius + c.target};
        float first = INFINITY;
        for (const Triangle& t : near) {
            if (const auto hit = sweepSphereTriangle(grown, a.velocity, t, std::min(first, remaining)))
                first = std::min(first, *hit);
        }
        return first;
    }
    c.target = impactTarget(false, d0);
    if (!(bound > 1e-9f)) return INFINITY;
    Body pa = a;
    NoImpactTrace none;
    return advanceConservatively(
        d0, c.target, bound, remaining,
        [&](float by) {
            lookAhead(pa, c.a, by);
            return distanceToTriangles(pa, near);
        },
        none);
}

} // namespace kz
