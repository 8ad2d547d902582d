// Private to kz_physics: a body's time of impact with another body, a wall or an obstacle
// (World::searchTimeOfImpact: pairTimeOfImpact and obstacleTimeOfImpact) written once, as
// templates on an observer, over the bodies as given (a SearchStart), not the world's. Each
// reads the world only for what never changes in a step: the walls and the obstacles.
// time_of_impact.cpp runs them with NoImpactTrace, whose hooks vanish, so a step's code is what it
// was; explain_advancement.cpp (another translation unit, so the step's is compiled as before)
// runs them with ImpactRecorder, which fills an AdvancementTrace, on the bodies as they are now
// (the lab) or as an impact record kept them (the impact log's "Why here?").
#pragma once

#include "explain_advancement.hpp"
#include "free_flight.hpp"
#include "geom/closest.hpp"
#include "geom/contact.hpp"
#include "geom/epa.hpp"
#include "geom/gjk.hpp"
#include "geom/sweep.hpp"
#include "narrow_phase.hpp"
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace kz {

/// Where a time-of-impact search starts: body a and its partner as they are then, each with its
/// flight path and how far into it (s) the search starts: the search reads every later pose of a
/// body from its path, as the step flies it.
/// The paths are read (and flown, when they are not yet) only by conservative advancement.
struct World::SearchStart {
    const Body& a;
    double spinA; ///< Its rotational energy (World::Impl::spinEnergy), which its flight keeps.
    SharedPath pathA;
    Partner partner;
    const Body* b = nullptr; ///< The partner body (a body partner only).
    double spinB = 0.0;
    SharedPath pathB; ///< A body partner's.
};

namespace {

/// One look at a pair during conservative advancement: the gap's lower bound now, and a bound on
/// how fast it can close from here.
struct Gauge {
    float gap;
    float bound;
};

/// The signed gap of two convex shapes: GJK's distance when they are apart (the axis from a toward
/// b along the closest points), minus EPA's depth when they overlap (the axis along its normal).
float convexGap(const ConvexShape& a, const ConvexShape& b, glm::vec3& axis) {
    const GjkResult gjk = closestPtConvexConvex(a, b);
    if (!gjk.overlap) {
        axis = -gjk.normal;
        return gjk.distance;
    }
    const EpaResult epa = penetrationConvexConvex(a, b);
    axis = -epa.normal;
    return -epa.depth;
}

/// The separation of two bodies that are not both spheres along one axis, a lower bound of their
/// distance: for two boxes the best of the 15 separating axes, for a sphere and a box the direction
/// of the box's point nearest the sphere's centre. `axis` is that direction (unit, from a towards
/// b), or zero when a sphere's centre lies in the box (there is none). A capsule, a cylinder or a
/// hull (or a sphere or box against one): their signed gap by GJK and EPA (convexGap), exact.
float separationBetween(const Body& a, const Body& b, glm::vec3& axis) {
    if (isConvexShape(a.shape) || isConvexShape(b.shape)) return convexGap(convexOf(a), convexOf(b), axis);
    if (a.shape == ShapeType::Box && b.shape == ShapeType::Box)
        return separationObbObb(obbOf(a), obbOf(b), axis);
    const bool aIsSphere = a.shape == ShapeType::Sphere;
    const Body& sphere = aIsSphere ? a : b;
    const glm::vec3 offset = sphere.position - closestPtPointObb(sphere.position, obbOf(aIsSphere ? b : a));
    const float length = glm::length(offset);
    axis = length > 0.0f ? (aIsSphere ? -offset : offset) / length : glm::vec3(0.0f);
    return length - sphere.radius;
}

/// The gap between two bodies that are not both spheres (separationBetween) and the bound on its
/// closing speed. The true distance is at least the separation along the gap's axis for as long as
/// that axis is held fixed, so the bound need only cover the closing along it: the centres approach
/// at axis . (va - vb), and a turning body's support point along a fixed axis moves at most at its
/// rotation bound (Bullet's btContinuousConvexCollision bounds the same); `spinA`, `spinB` are
/// those bounds (rotationSpeedBound, constant in free flight). No axis: the full relative speed.
Gauge gaugeBetween(const Body& a, const Body& b, float spinA, float spinB) {
    glm::vec3 axis;
    const float gap = separationBetween(a, b, axis);
    const float closing = axis == glm::vec3(0.0f) ? glm::length(a.velocity - b.velocity)
                                                  : std::max(0.0f, glm::dot(axis, a.velocity - b.velocity));
    return {gap, closing + spinA + spinB};
}

/// A lower bound of the distance between two bodies' surfaces (exact but for box-box, where
/// it is the largest separation over the 15 separating axes).
float distanceBetween(const Body& a, const Body& b) {
    if (a.shape == ShapeType::Sphere && b.shape == ShapeType::Sphere) {
        return glm::length(a.position - b.position) - a.radius - b.radius;
    }
    glm::vec3 axis;
    return separationBetween(a, b, axis);
}

/// A lower bound of the distance between a body's surface and a set of triangles; INFINITY for
/// none. Exact for a sphere, a capsule, a cylinder and a hull (GJK and EPA on each triangle). For a box, per
/// triangle the larger of two lower bounds: the centre's distance less the bounding radius (cheap), and the
/// largest separation over the 13 separating axes, computed only when the cheap bound does not already rule
/// the triangle out.
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
    const bool convex = isConvexShape(a.shape);
    const ConvexShape shape = convex ? convexOf(a) : ConvexShape{};
    const float reach = boundingRadius(a);
    float best = INFINITY;
    for (const Triangle& t : triangles) {
        const glm::vec3 d = a.position - closestPtPointTriangle(a.position, t);
        const float cheap = std::sqrt(glm::dot(d, d)) - reach;
        if (cheap >= best) continue;
        glm::vec3 axis;
        const float exact = convex ? convexGap(shape, triangleShape(t), axis) : separationObbTriangle(box, t);
        best = std::min(best, std::max(cheap, exact));
    }
    return best;
}

/// How far body a's surface can move in `remaining` (its speed plus its spin bound), and whether
/// its bounding sphere is farther than that, less the margin, from the obstacle's box: then there
/// is no impact.
struct ObstacleReach {
    float bound;  ///< The speed bound of its surface.
    float travel; ///< bound x remaining.
    float gap;    ///< Its bounding sphere's distance to the obstacle's box.
    bool apart;
};
ObstacleReach obstacleReach(const Body& a, double spin, const Obstacle& o, float remaining) {
    const float bound = glm::length(a.velocity) + rotationSpeedBound(a, spin);
    const float travel = bound * remaining;
    const float gap = std::sqrt(sqDistPointAabb(a.position, o.bounds)) - boundingRadius(a);
    return {bound, travel, gap, gap - kMargin > travel};
}

/// Conservative advancement stops once the gap is within this of its target.
constexpr float kAdvanceTolerance = 0.125f * kMargin;

/// Whether a gap that is at least `sphereGap` now and closes no faster than `closing` stays
/// beyond `target` and the advancement's tolerance for the whole of `remaining`: then no search
/// can find an impact. The bounding spheres give such a gap for a box (they do not turn, and
/// their centres close at most at their relative speed), which the advancement's own bound, the
/// closing speed plus each box's spin bound, can make far slower to prove: a 1 mm box spinning at
/// 1e6 rad/s after an impact, sliding along a wall, advances by micrometres.
bool staysApart(float sphereGap, float closing, float target, float remaining) {
    return sphereGap - (target + kAdvanceTolerance) > closing * remaining;
}

/// The time before which a gap of at least `sphereGap`, closing no faster than `closing`, stays
/// beyond `target` and the tolerance: no impact can come sooner. 0 when it is within them already;
/// INFINITY when it is beyond them and does not close.
float clearUntil(float sphereGap, float closing, float target) {
    const float beyond = sphereGap - (target + kAdvanceTolerance);
    if (!(beyond > 0.0f)) return 0.0f;
    return closing > 0.0f ? beyond / closing : INFINITY;
}

/// Conservative advancement (Mirtich 1996): the gap d, starting at `first.gap`, cannot close
/// faster than the gauge's bound, so flying (d - target) / bound is always safe. `flyTo(t)` takes
/// the poses t seconds after the search's start and returns the gap and bound there; `observe` sees each
/// iteration. The time the gap comes within kAdvanceTolerance of `target`, or INFINITY when that
/// is beyond `remaining` (or the gap can no longer close). kAdvanceIterations advances at most;
/// when the last of them would stop short of `clear` (the bounding spheres' clearUntil), it flies
/// to `clear` instead and the search goes on for as many again (once): a fast-spinning box whose
/// spin bound makes every advance tiny would otherwise stop at a time that is no impact, search
/// again from there and do the same, event after event, until the step's events ran out (and
/// with them every other body's impacts: how 1 mm boxes at 1000 m/s in a 2000 m room left it).
/// After the last advance: the time reached, still safe.
template <class FlyTo, class Observe>
float advanceConservatively(Gauge first, float target, float remaining, float clear, FlyTo&& flyTo,
                            Observe& observe) {
    float t = 0.0f;
    Gauge now = first;
    observe.tolerance(kAdvanceTolerance);
    int budget = kAdvanceIterations;
    for (int iteration = 0; iteration < budget; ++iteration) {
        observe.step(t, now.gap, now.bound);
        if (now.gap <= target + kAdvanceTolerance) return t;
        float advanceBy = (now.gap - target) / now.bound; // +inf for a bound of 0: never closes
        if (iteration + 1 == kAdvanceIterations && clear > t + advanceBy) {
            advanceBy = clear - t; // nothing can touch sooner
            budget += kAdvanceIterations;
            observe.jump();
        }
        observe.advance(advanceBy);
        if (!(t + advanceBy <= remaining)) {
            observe.end(AdvancementEnd::BeyondRemaining);
            return INFINITY;
        }
        t += advanceBy;
        now = flyTo(t);
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

/// A step's observer: every hook does nothing, and it asks for no triangle indices.
struct NoImpactTrace {
    template <class... T>
    void start(const T&...) {}
    template <class... T>
    void spherePlane(const T&...) {}
    template <class... T>
    void sphereSphere(const T&...) {}
    template <class... T>
    void sphereTriangle(const T&...) {}
    template <class... T>
    void nearTriangles(const T&...) {}
    template <class... T>
    void bound(const T&...) {}
    template <class... T>
    void tolerance(const T&...) {}
    template <class... T>
    void step(const T&...) {}
    template <class... T>
    void advance(const T&...) {
        ++advances;
    }
    template <class... T>
    void end(const T&...) {}
    int advances = 0; ///< Counted for the step's advance cap (World::advanceCap).
    template <class... T>
    void jump(const T&...) {}
    std::vector<std::uint32_t>* triangleIds() { return nullptr; }
};

/// Body a and a body (not a), a wall or an obstacle in range: a pair World::searchTimeOfImpact takes.
[[maybe_unused]] bool isPairInRange(const World& world, int a, Partner partner) {
    const auto bodies = static_cast<int>(world.bodies().size());
    if (a < 0 || a >= bodies || partner.index < 0) return false;
    if (partner.isBody()) return partner.index < bodies && partner.index != a;
    if (partner.isWall()) return partner.index < static_cast<int>(world.room().planes.size());
    return partner.index < static_cast<int>(world.obstacles().size());
}

} // namespace

template <class Observe>
float World::searchTimeOfImpact(const SearchStart& start, float remaining, float& target,
                                std::vector<Triangle>& near, Observe& observe) const {
    if (start.partner.isObstacle()) return obstacleTimeOfImpact(start, remaining, target, near, observe);
    return pairTimeOfImpact(start, remaining, target, observe);
}

template <class Observe>
float World::pairTimeOfImpact(const SearchStart& start, float remaining, float& target,
                              Observe& observe) const {
    const Body& a = start.a;
    const Body* b = start.b;
    const Plane* wall = b ? nullptr : &room_.planes[start.partner.index];

    // Body a's bounding sphere and its partner's (a body b, else the wall): when they cannot close
    // their gap, less the margin, in `remaining`, there is no impact (the common case, and far
    // cheaper than the exact distance). Bounding spheres do not turn.
    const float sphereGap = b ? glm::length(a.position - b->position) - boundingRadius(a) - boundingRadius(*b)
                              : signedDistance(*wall, a.position) - boundingRadius(a);
    const float closing =
        b ? glm::length(a.velocity - b->velocity) : std::max(0.0f, -glm::dot(wall->normal, a.velocity));
    if (sphereGap - kMargin > closing * remaining) return INFINITY;
    // Conservative advancement's first look (the gap and the bound on its closing speed), or the
    // exact pair's gap.
    // The rotation bounds hold for the whole free flight: taken once.
    const float spinBoundA = rotationSpeedBound(a, start.spinA);
    const float spinBoundB = b ? rotationSpeedBound(*b, start.spinB) : 0.0f;
    const auto gauge = [&](const Body& pa, const Body* pb) -> Gauge {
        if (pb) return gaugeBetween(pa, *pb, spinBoundA, spinBoundB);
        return {distanceToPlane(pa, *wall),
                std::max(0.0f, -glm::dot(wall->normal, pa.velocity)) + spinBoundA};
    };
    const bool exact = meetExactly(a, b);
    const Gauge first =
        exact ? Gauge{b ? distanceBetween(a, *b) : distanceToPlane(a, *wall), 0.0f} : gauge(a, b);
    const float d0 = first.gap;
    target = impactTarget(exact, d0);
    // A box whose bounding sphere stays beyond the gap it would stop at: no impact, whatever its spin.
    if (!exact && staysApart(sphereGap, closing, target, remaining)) return INFINITY;
    observe.start(d0, target);

    if (!b && a.shape == ShapeType::Sphere) {
        observe.spherePlane(sphereOf(a), a.velocity, *wall, remaining, target);
        return orInfinity(sweepSpherePlane(sphereOf(a), a.velocity, *wall, remaining, target));
    }
    if (b && a.shape == ShapeType::Sphere && b->shape == ShapeType::Sphere) {
        observe.sphereSphere(sphereOf(a), a.velocity, sphereOf(*b), b->velocity, remaining, target);
        return orInfinity(
            sweepSphereSphere(sphereOf(a), a.velocity, sphereOf(*b), b->velocity, remaining, target));
    }

    // Conservative advancement: the gap cannot close faster than the gauge's bound.
    observe.bound(first.bound, first.bound > 1e-9f);
    if (!(first.bound > 1e-9f)) return INFINITY;
    Body pa = a;
    std::optional<Body> pb;
    if (b) pb = *b;
    const PathView pathA = start.pathA.read();
    const PathView pathB = b ? start.pathB.read() : PathView{};
    return advanceConservatively(
        first, target, remaining, clearUntil(sphereGap, closing, target),
        [&](float t) {
            pathA.placeAt(pathA.since + t, pa);
            if (pb) pathB.placeAt(pathB.since + t, *pb);
            return gauge(pa, pb ? &*pb : nullptr);
        },
        observe);
}

template <class Observe>
float World::obstacleTimeOfImpact(const SearchStart& start, float remaining, float& target,
                                  std::vector<Triangle>& near, Observe& observe) const {
    // The triangles the body can reach in the time left. A sphere meets them exactly (gap 0,
    // like a wall): its centre flies straight, against each triangle grown by its radius. A box
    // advances conservatively to half the margin (like boxes against anything): its surface
    // cannot approach any triangle faster than its speed plus the spin bound.
    const Body& a = start.a;
    const Obstacle& o = obstacles_[start.partner.index];
    const ObstacleReach reach = obstacleReach(a, start.spinA, o, remaining);
    if (reach.apart) return INFINITY;
    const float bound = reach.bound, travel = reach.travel, gap = reach.gap;
    std::vector<std::uint32_t>* ids = observe.triangleIds();
    trianglesNear(a, start.partner.index, travel + 2.0f * kMargin, near, ids);
    observe.nearTriangles(near, ids);
    if (near.empty()) return INFINITY;
    const float d0 = distanceToTriangles(a, near);
    if (a.shape == ShapeType::Sphere) {
        target = impactTarget(true, d0);
        observe.start(d0, target);
        const Sphere grown{a.position, a.radius + target};
        float first = INFINITY;
        for (std::size_t k = 0; k < near.size(); ++k) {
            const float limit = std::min(first, remaining);
            if (const auto hit = sweepSphereTriangle(grown, a.velocity, near[k], limit)) {
                observe.sphereTriangle(k, grown, a.velocity, limit, *hit, first);
                first = std::min(first, *hit);
            }
        }
        return first;
    }
    target = impactTarget(false, d0);
    // Its bounding sphere against the mesh's box, closing at most at its speed (as for a wall).
    const float speed = glm::length(a.velocity);
    if (staysApart(gap, speed, target, remaining)) return INFINITY;
    observe.start(d0, target);
    observe.bound(bound, bound > 1e-9f);
    if (!(bound > 1e-9f)) return INFINITY;
    Body pa = a;
    const PathView pathA = start.pathA.read();
    return advanceConservatively(
        Gauge{d0, bound}, target, remaining, clearUntil(gap, speed, target),
        [&](float t) {
            pathA.placeAt(pathA.since + t, pa);
            return Gauge{distanceToTriangles(pa, near), bound};
        },
        observe);
}

} // namespace kz
