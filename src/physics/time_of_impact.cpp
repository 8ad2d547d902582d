// Times of impact: when a candidate pair next comes within its target gap. Exact for a sphere
// against a wall, a sphere or an obstacle's triangles (geom/sweep.hpp); conservative
// advancement (Mirtich 1996) for a box against anything.
#include "free_flight.hpp"
#include "geom/closest.hpp"
#include "geom/sweep.hpp"
#include "narrow_phase.hpp"
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace kz {
namespace {

/// A lower bound of the distance between two bodies' surfaces (exact but for box-box, where
/// it is the largest separation over the 15 separating axes).
float distanceBetween(const Body& a, const Body& b) {
    if (a.shape == ShapeType::Sphere && b.shape == ShapeType::Sphere) {
        return glm::length(a.position - b.position) - a.radius - b.radius;
    }
    if (a.shape == ShapeType::Sphere || b.shape == ShapeType::Sphere) {
        const Body& sphere = a.shape == ShapeType::Sphere ? a : b;
        const Body& box = a.shape == ShapeType::Sphere ? b : a;
        return std::sqrt(sqDistPointObb(sphere.position, obbOf(box))) - sphere.radius;
    }
    return separationObbObb(obbOf(a), obbOf(b));
}

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

/// Conservative advancement (Mirtich 1996): the gap d, starting at d0, cannot close faster than
/// `bound`, so flying (d - target) / bound is always safe. `flyBy(dt)` moves the look-ahead
/// poses on by dt and returns the new gap. The time the gap comes within an eighth of the margin
/// of `target`, or INFINITY when that is beyond `remaining` (after 64 advances: the time reached,
/// still safe).
template <class FlyBy>
float advanceConservatively(float d0, float target, float bound, float remaining, FlyBy&& flyBy) {
    float t = 0.0f, d = d0;
    const float tolerance = 0.125f * kMargin;
    for (int iteration = 0; iteration < 64; ++iteration) {
        if (d <= target + tolerance) return t;
        const float advanceBy = (d - target) / bound;
        if (t + advanceBy > remaining) return INFINITY;
        t += advanceBy;
        d = flyBy(advanceBy);
    }
    return t;
}

/// The gap at which a pair's next impact counts. Spheres against walls and spheres meet exactly
/// (gap 0); other pairs advance conservatively to half the margin. A pair touching already fires
/// again only once it closes by another half margin (so resting or separating pairs stay quiet).
float impactTarget(bool exact, float d0) {
    if (exact) return d0 > 0.0f ? 0.0f : d0 - 0.5f * kMargin;
    return d0 > kMargin ? 0.5f * kMargin : d0 - 0.5f * kMargin;
}

float orInfinity(std::optional<float> t) {
    return t ? *t : INFINITY;
}

} // namespace

float World::timeOfImpact(int candidate, float remaining) const {
    Candidate& c = impl_->candidates[candidate];
    if (c.partner.isObstacle()) return timeOfImpactWithObstacle(candidate, remaining);
    const Body& a = bodies_[c.a];
    const Body* b = c.partner.isBody() ? &bodies_[c.partner.index] : nullptr;
    const Plane* wall = b ? nullptr : &room_.planes[c.partner.index];

    // Bounding spheres do not turn: if even they cannot close the gap in the time left, there is
    // no impact (the common case, and far cheaper than the exact distance).
    if (b) {
        const float gap = glm::length(a.position - b->position) - boundingRadius(a) - boundingRadius(*b);
        if (gap - kMargin > glm::length(a.velocity - b->velocity) * remaining) return INFINITY;
    } else {
        const float gap = signedDistance(*wall, a.position) - boundingRadius(a);
        if (gap - kMargin > std::max(0.0f, -glm::dot(wall->normal, a.velocity)) * remaining) return INFINITY;
    }
    const float d0 = b ? distanceBetween(a, *b) : distanceToPlane(a, *wall);
    c.target = impactTarget(meetExactly(a, b), d0);

    if (!b && a.shape == ShapeType::Sphere)
        return orInfinity(sweepSpherePlane(sphereOf(a), a.velocity, *wall, remaining, c.target));
    if (b && a.shape == ShapeType::Sphere && b->shape == ShapeType::Sphere)
        return orInfinity(
            sweepSphereSphere(sphereOf(a), a.velocity, sphereOf(*b), b->velocity, remaining, c.target));

    // Conservative advancement: |d'(t)| <= bound, so the gap cannot close faster than that.
    const float bound =
        b ? glm::length(a.velocity - b->velocity) + rotationSpeedBound(a) + rotationSpeedBound(*b)
          : std::max(0.0f, -glm::dot(wall->normal, a.velocity)) + rotationSpeedBound(a);
    if (!(bound > 1e-9f)) return INFINITY;
    Body pa = a;
    std::optional<Body> pb;
    if (b) pb = *b;
    return advanceConservatively(d0, c.target, bound, remaining, [&](float by) {
        lookAhead(pa, c.a, by);
        if (pb) lookAhead(*pb, c.partner.index, by);
        return pb ? distanceBetween(pa, *pb) : distanceToPlane(pa, *wall);
    });
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
    return advanceConservatively(d0, c.target, bound, remaining, [&](float by) {
        lookAhead(pa, c.a, by);
        return distanceToTriangles(pa, near);
    });
}

} // namespace kz
