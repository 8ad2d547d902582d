// Private to kz_physics: a body's time of impact with another body or a wall
// (World::pairTimeOfImpact, the pair part of World::timeOfImpact) written once, as a template on an
// observer. time_of_impact.cpp runs it with NoImpactTrace, whose hooks vanish, so a step's code is
// what it was; explain_advancement.cpp (another translation unit, so the step's is compiled as
// before) runs it with ImpactRecorder, which fills the lab's AdvancementTrace.
#pragma once

#include "explain_advancement.hpp"
#include "free_flight.hpp"
#include "geom/closest.hpp"
#include "geom/contact.hpp"
#include "geom/sweep.hpp"
#include "narrow_phase.hpp"
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>

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

/// Conservative advancement (Mirtich 1996): the gap d, starting at d0, cannot close faster than
/// `bound`, so flying (d - target) / bound is always safe. `flyBy(dt)` moves the look-ahead
/// poses on by dt and returns the new gap; `observe` sees each iteration. The time the gap comes within an
/// eighth of the margin of `target`, or INFINITY when that is beyond `remaining` (after 64 advances: the time
/// reached, still safe).
template <class FlyBy, class Observe>
float advanceConservatively(float d0, float target, float bound, float remaining, FlyBy&& flyBy,
                            Observe& observe) {
    float t = 0.0f, d = d0;
    const float tolerance = 0.125f * kMargin;
    observe.tolerance(tolerance);
    for (int iteration = 0; iteration < 64; ++iteration) {
        observe.step(t, d);
        if (d <= target + tolerance) return t;
        const float advanceBy = (d - target) / bound;
        observe.advance(advanceBy);
        if (t + advanceBy > remaining) {
            observe.end(AdvancementEnd::BeyondRemaining);
            return INFINITY;
        }
        t += advanceBy;
        d = flyBy(advanceBy);
    }
    observe.end(AdvancementEnd::IterationLimit);
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

/// A step's observer: every hook does nothing.
struct NoImpactTrace {
    template <class... T>
    void start(const T&...) {}
    template <class... T>
    void exact(const T&...) {}
    template <class... T>
    void bound(const T&...) {}
    template <class... T>
    void tolerance(const T&...) {}
    template <class... T>
    void step(const T&...) {}
    template <class... T>
    void advance(const T&...) {}
    template <class... T>
    void end(const T&...) {}
};

/// Body a and a body (not a) or a wall in range: a pair World::pairTimeOfImpact takes.
[[maybe_unused]] bool isBodyOrWallPair(const World& world, int a, Partner partner) {
    const auto bodies = static_cast<int>(world.bodies().size());
    const auto walls = static_cast<int>(world.room().planes.size());
    if (a < 0 || a >= bodies || partner.index < 0) return false;
    if (partner.isBody()) return partner.index < bodies && partner.index != a;
    return partner.isWall() && partner.index < walls;
}

} // namespace

template <class Observe>
float World::pairTimeOfImpact(int ia, Partner partner, float remaining, float& target,
                              Observe& observe) const {
    const Body& a = bodies_[ia];
    const Body* b = partner.isBody() ? &bodies_[partner.index] : nullptr;
    const Plane* wall = b ? nullptr : &room_.planes[partner.index];

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
    target = impactTarget(meetExactly(a, b), d0);
    observe.start(d0, target);

    if (!b && a.shape == ShapeType::Sphere) {
        observe.exact();
        return orInfinity(sweepSpherePlane(sphereOf(a), a.velocity, *wall, remaining, target));
    }
    if (b && a.shape == ShapeType::Sphere && b->shape == ShapeType::Sphere) {
        observe.exact();
        return orInfinity(
            sweepSphereSphere(sphereOf(a), a.velocity, sphereOf(*b), b->velocity, remaining, target));
    }

    // Conservative advancement: |d'(t)| <= bound, so the gap cannot close faster than that.
    const float bound =
        b ? glm::length(a.velocity - b->velocity) + rotationSpeedBound(a) + rotationSpeedBound(*b)
          : std::max(0.0f, -glm::dot(wall->normal, a.velocity)) + rotationSpeedBound(a);
    observe.bound(bound, bound > 1e-9f);
    if (!(bound > 1e-9f)) return INFINITY;
    Body pa = a;
    std::optional<Body> pb;
    if (b) pb = *b;
    return advanceConservatively(
        d0, target, bound, remaining,
        [&](float by) {
            lookAhead(pa, ia, by);
            if (pb) lookAhead(*pb, partner.index, by);
            return pb ? distanceBetween(pa, *pb) : distanceToPlane(pa, *wall);
        },
        observe);
}

} // namespace kz
