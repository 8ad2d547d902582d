// Internal to kz_geom: GJK's iteration on the shapes' cores, written once as a template on an
// observer (as the explain traces of explain_recorders.hpp are): gjk.cpp runs it with
// GjkNoTrace, whose hooks vanish; a recorder can copy each iteration's numbers (search direction,
// support points, the simplex, its nearest point, the bounds) for the lab without a second copy
// of the algorithm. EPA (epa.cpp) starts from the simplex it leaves.
#pragma once

#include "convex_detail.hpp"
#include "gjk.hpp"
#include "gjk_simplex.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace kz::detail {

/// One point of GJK's simplex: w = a - b, with the core support points it came from.
struct SimplexVertex {
    glm::dvec3 w; ///< In the cores' Minkowski difference.
    glm::dvec3 a; ///< On A's core.
    glm::dvec3 b; ///< On B's core.
};

/// GJK's state when it stops, in double, on the cores.
struct GjkCore {
    std::array<SimplexVertex, 4> simplex{};
    int count = 0;            ///< Points in the simplex (0 only for invalid input).
    glm::dvec3 v{0.0};        ///< The simplex's point nearest the origin (zero when overlapping).
    glm::dvec3 pointA{0.0};   ///< sum lambda_i a_i: the nearest point on A's core (set when it stops).
    glm::dvec3 pointB{0.0};   ///< sum lambda_i b_i: the nearest point on B's core (set when it stops).
    SimplexWeights weights{}; ///< lambda_i of the points kept, in simplex order.
    double upper = INFINITY;  ///< |v|: the cores' distance from above.
    double lower = 0.0;       ///< The best dot(v, w) / |v|: from below.
    double tolerance = 0.0;   ///< The absolute bound gap that ends it (kGjkTolerance * size).
    double touching = 0.0;    ///< Nearer than this counts as touching (kGjkTouchingTolerance * size).
    int iterations = 0;
    GjkStatus status = GjkStatus::InvalidInput;
    /// Where the next support of a hull starts its climb (supportCore's warm start): the vertex
    /// the last one reached, on A and on B; EPA continues from them.
    std::uint32_t climbA = kColdClimb, climbB = kColdClimb;
};

/// The fast path's observer: every hook does nothing (booleanSimplex and restart are
/// gjk_boolean_steps.hpp's).
struct GjkNoTrace {
    template <class... T>
    void support(const T&...) {}
    template <class... T>
    void simplex(const T&...) {}
    template <class... T>
    void booleanSimplex(const T&...) {}
    void restart() {}
    template <class... T>
    void stop(const T&...) {}
};

/// What the iteration is for: the distance, or only whether the shapes (with radii) overlap.
enum class GjkMode { Distance, Overlap };

/// Keeps the simplex points with a non-zero weight and their weights, and sets v.
inline void reduceSimplex(GjkCore& g, const SimplexWeights& lambda) {
    int kept = 0;
    glm::dvec3 v(0.0);
    for (int i = 0; i < g.count; ++i) {
        if (!(lambda[std::size_t(i)] > 0.0)) continue;
        const SimplexVertex& s = g.simplex[std::size_t(i)];
        v += lambda[std::size_t(i)] * s.w;
        g.weights[std::size_t(kept)] = lambda[std::size_t(i)];
        g.simplex[std::size_t(kept++)] = s;
    }
    g.count = kept;
    g.v = v;
}

/// Sets the witness points from the kept simplex and its weights (once, when GJK stops; the
/// trace's recorder each iteration).
inline void setWitnessPoints(GjkCore& g) {
    glm::dvec3 pa(0.0), pb(0.0);
    for (int i = 0; i < g.count; ++i) {
        pa += g.weights[std::size_t(i)] * g.simplex[std::size_t(i)].a;
        pb += g.weights[std::size_t(i)] * g.simplex[std::size_t(i)].b;
    }
    g.pointA = pa;
    g.pointB = pb;
}

/// GJK on the cores of a and b (valid shapes), at most maxIterations support points. In Overlap
/// mode it also leaves as soon as the answer to "do the shapes, radii included, overlap" is known
/// (SeparatingAxis, WithinRadii).
template <class Observe>
[[gnu::always_inline]] inline GjkCore gjkSteps(const CoreShape& a, const CoreShape& b, GjkMode mode,
                                               int maxIterations, Observe& observe) {
    GjkCore g;
    const double radii = a.margin + b.margin;
    const double size = std::max(a.size, b.size);
    g.tolerance = kGjkTolerance * size;
    g.touching = kGjkTouchingTolerance * size;
    // The first direction: between the cores' centres (any non-zero vector would do).
    glm::dvec3 v = a.centre - b.centre;
    if (glm::dot(v, v) == 0.0) v = glm::dvec3(1.0, 0.0, 0.0);
    double upperSq = INFINITY;
    SimplexVertex last{}; // the last support pair taken
    g.status = GjkStatus::IterationCap;
    while (g.iterations < std::clamp(maxIterations, 1, kGjkMaxIterations)) {
        ++g.iterations;
        const SimplexVertex s{glm::dvec3(0.0), supportCore(a, -v, g.climbA), supportCore(b, v, g.climbB)};
        const glm::dvec3 w = s.a - s.b;
        last = {w, s.a, s.b};
        // The plane through w perpendicular to v supports A - B: every point x of it has
        // dot(v, x) >= dot(v, w), so the distance is at least the gap along v (any v, the first
        // one included).
        // |v| is the last upper bound (its square root of the same sum) once the simplex has one.
        const double vLength = g.count > 0 ? g.upper : std::sqrt(glm::dot(v, v));
        const double gapAlongV = glm::dot(v, w) / vLength;
        g.lower = std::max(g.lower, gapAlongV);
        observe.support(g.iterations, v, s.a, s.b, w, g.lower);
        if (mode == GjkMode::Overlap && g.lower - radii > g.touching) {
            g.status = GjkStatus::SeparatingAxis;
            break;
        }
        // Converged on the current v's gap (not the best of all iterations'), so that v, the
        // normal, is itself a separating direction within the tolerance.
        if (g.count > 0 && g.upper - gapAlongV <= std::max(kGjkTolerance * g.upper, g.tolerance)) {
            g.status = GjkStatus::Converged;
            break;
        }
        const bool repeated = std::any_of(g.simplex.begin(), g.simplex.begin() + g.count,
                                          [&](const SimplexVertex& old) { return old.w == w; });
        if (repeated) {
            g.status = GjkStatus::RepeatedSupport;
            break;
        }
        // The new point goes in the free slot; it joins the simplex only if the result comes
        // nearer the origin (else rounding has the last word: the simplex stays as it was).
        g.simplex[std::size_t(g.count)] = {w, s.a, s.b};
        const int n = g.count + 1;
        glm::dvec3 points[4];
        for (int i = 0; i < n; ++i)
            points[i] = g.simplex[std::size_t(i)].w;
        const SimplexWeights lambda = signedVolumes(points, n);
        glm::dvec3 next(0.0);
        for (int i = 0; i < n; ++i)
            next += lambda[std::size_t(i)] * points[i];
        const double vSq = glm::dot(next, next);
        const bool enclosed =
            n == 4 && lambda[0] > 0.0 && lambda[1] > 0.0 && lambda[2] > 0.0 && lambda[3] > 0.0;
        if (!enclosed && !(vSq < upperSq)) {
            g.status = GjkStatus::NoProgress;
            break;
        }
        g.count = n;
        reduceSimplex(g, lambda);
        observe.simplex(g, lambda);
        if (enclosed) {
            g.v = glm::dvec3(0.0);
            g.upper = 0.0;
            g.status = GjkStatus::Overlapping;
            break;
        }
        upperSq = vSq;
        g.upper = std::sqrt(vSq);
        v = g.v;
        if (g.upper <= g.touching) {
            g.status = GjkStatus::Overlapping;
            break;
        }
        if (mode == GjkMode::Overlap && g.upper <= radii + g.touching) {
            g.status = GjkStatus::WithinRadii;
            break;
        }
    }
    if (g.count == 0) {
        // Stopped before any point was kept (a separating axis on the first support): the
        // first support pair is the answer so far.
        g.count = 1;
        g.simplex[0] = last;
        g.weights[0] = 1.0;
        g.v = last.w;
        g.upper = glm::length(g.v);
    }
    setWitnessPoints(g);
    g.lower = std::min(g.lower, g.upper);
    observe.stop(g);
    return g;
}

/// gjkSteps on the shapes as given (valid ones).
template <class Observe>
[[gnu::always_inline]] inline GjkCore gjkSteps(const ConvexShape& a, const ConvexShape& b, GjkMode mode,
                                               int maxIterations, Observe& observe) {
    return gjkSteps(prepareCore(a), prepareCore(b), mode, maxIterations, observe);
}

/// closestPtConvexConvex's answer for invalid input (gjk.cpp).
GjkResult invalidGjkResult();
/// closestPtConvexConvex's answer from GJK's state on the cores (gjk.cpp): the radii added.
GjkResult gjkResultFromCores(const GjkCore& g, double radiusA, double radiusB);
/// testConvexConvex's verdict from GJK's state in Overlap mode (gjk.cpp); radii = the sum.
bool gjkOverlapVerdict(const GjkCore& g, double radii);

} // namespace kz::detail
