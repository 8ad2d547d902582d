// Internal to kz_geom: the GJK ray cast (gjk.hpp's raycastConvex), written once as a template on
// an observer (as gjk_steps.hpp): gjk.cpp runs it with RayCastNoTrace, whose hooks vanish; the
// explain trace (explain_gjk.cpp) records each iteration's t, x, support point and simplex.
#pragma once

#include "convex_detail.hpp"
#include "detail.hpp"
#include "gjk.hpp"
#include "gjk_simplex.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

namespace kz::detail {

/// The ray cast's running state: x = origin + t dir and GJK's simplex of core points.
struct RayState {
    glm::dvec3 origin{0.0}, dir{0.0}, x{0.0};
    double t = 0.0;
    glm::dvec3 points[4]{}; ///< Points of the shape's core; the simplex is x - points.
    int count = 0;
    glm::dvec3 v{0.0};           ///< x minus the simplex's nearest point (x's nearest on the core so far).
    glm::dvec3 planeNormal{0.0}; ///< The last support plane that moved x (its normal, not unit).
};

/// The fast path's observer: every hook does nothing.
struct RayCastNoTrace {
    template <class... T>
    void start(const T&...) {}
    template <class... T>
    void support(const T&...) {}
    template <class... T>
    void advance(const T&...) {}
    template <class... T>
    void simplex(const T&...) {}
};

/// Adds p to the simplex (unless it is already there: then false) and replaces the simplex by its
/// sub-simplex nearest x, setting v.
inline bool addPoint(RayState& s, const glm::dvec3& p) {
    const bool repeated = std::find(s.points, s.points + s.count, p) != s.points + s.count;
    if (!repeated) s.points[s.count++] = p;
    glm::dvec3 y[4];
    for (int i = 0; i < s.count; ++i)
        y[i] = s.x - s.points[i];
    const SimplexWeights lambda = signedVolumes(y, s.count);
    int kept = 0;
    glm::dvec3 v(0.0);
    for (int i = 0; i < s.count; ++i) {
        if (!(lambda[std::size_t(i)] > 0.0)) continue;
        v += lambda[std::size_t(i)] * y[i];
        s.points[kept++] = s.points[i];
    }
    s.count = kept;
    s.v = v;
    return !repeated;
}

/// The hit at s.t: on the shape's surface, with the outward normal (see raycastConvex).
inline std::optional<RayHit> hitAt(const RayState& s, const Ray& ray, double radius) {
    if (s.t == 0.0) return insideHit(ray);
    const glm::dvec3 toward = radius > 0.0 && glm::dot(s.v, s.v) > 0.0 ? s.v : s.planeNormal;
    const glm::vec3 normal(unitOrZero(toward));
    return finiteOrNone({float(s.t), ray.origin + float(s.t) * ray.dir, normal});
}

/// raycastConvex (gjk.hpp) with its hooks: start(state, radius, tolerance) once, then per
/// iteration support(state before the move, p, gap, moves), advance(t) when t moves, and, unless
/// it missed there, simplex(state after, added).
template <class Observe>
[[gnu::always_inline]] inline ConvexRayCast raycastConvexSteps(const Ray& ray, const ConvexShape& shape,
                                                               float tMax, Observe& observe) {
    if (!isValid(ray) || !isValid(shape) || !validTMax(tMax)) {
        return {std::nullopt, 0, RayCastStatus::InvalidInput};
    }
    const CoreShape core = prepareCore(shape);
    const double radius = core.margin;
    RayState s;
    s.origin = s.x = glm::dvec3(ray.origin);
    s.dir = glm::dvec3(ray.dir);
    s.v = s.x - core.centre;
    // The tolerance on x's distance to the surface: kGjkTolerance of the shape's size, or of the
    // origin's distance from it when that is larger (a point-like shape far away). Small, as a
    // grazing ray's t errs by this over the sine of its angle with the surface.
    const double tolerance = kGjkTolerance * std::max(core.size, glm::length(s.v));
    if (glm::dot(s.v, s.v) == 0.0) s.v = -s.dir; // the origin is the core's point: any direction
    observe.start(s, radius, tolerance);
    int iterations = 0;
    double previousSq = INFINITY;
    std::uint32_t climb = kColdClimb; // supportCore's warm start on a hull
    while (iterations < kGjkMaxIterations) {
        ++iterations;
        const glm::dvec3 p = supportCore(core, s.v, climb);
        const double vLength = glm::length(s.v);
        // x's height above the support plane of the core grown by the radius, times |v|.
        const double gap = glm::dot(s.v, s.x - p) - radius * vLength;
        const bool moves = gap > tolerance * vLength;
        observe.support(s, p, gap, moves);
        if (moves) {
            const double approach = glm::dot(s.v, s.dir);
            if (approach >= 0.0) return {std::nullopt, iterations, RayCastStatus::Miss};
            s.t -= gap / approach;
            observe.advance(s.t);
            if (!(s.t <= double(tMax))) return {std::nullopt, iterations, RayCastStatus::Miss};
            s.x = s.origin + s.t * s.dir;
            s.planeNormal = s.v;
            previousSq = INFINITY; // x moved: the simplex's distances start again
        }
        const bool added = addPoint(s, p);
        observe.simplex(s, added);
        const double vSq = glm::dot(s.v, s.v);
        // Inside the core, within the radius plus tolerance of it, or no nearer point to be found
        // (a repeated support point, or rounding): x is on the surface.
        const bool done = s.count == 4 || std::sqrt(vSq) <= radius + tolerance ||
                          (!moves && (!added || !(vSq < previousSq)));
        if (done) {
            const auto hit = hitAt(s, ray, radius);
            return {hit, iterations, s.t == 0.0 ? RayCastStatus::StartsInside : RayCastStatus::Hit};
        }
        previousSq = vSq;
    }
    return {hitAt(s, ray, radius), iterations, RayCastStatus::IterationCap};
}

} // namespace kz::detail
