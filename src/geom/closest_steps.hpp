// Internal to kz_geom: closestPtPointTriangle and closestPtLinePieces written once, as templates
// on an observer (explain_recorders.hpp). closest.cpp runs them with NoTrace, whose hooks vanish,
// so the fast code is what it was; explain_closest.cpp (another translation unit, so the fast
// one is compiled exactly as before) runs them with the recorders of the lab's traces.
#pragma once

#include "closest.hpp"
#include "explain_closest.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <optional>

namespace kz::detail {
namespace {

bool lexicographicLess(const glm::vec3& u, const glm::vec3& v) {
    if (u.x != v.x) return u.x < v.x;
    if (u.y != v.y) return u.y < v.y;
    return u.z < v.z;
}

/// The vertices sorted by lexicographicLess, in double: every vertex order of a triangle then
/// makes the same computation, to the bit.
template <class Observe>
std::array<glm::dvec3, 3> canonicalVertices(const Triangle& tri, Observe& observe) {
    const glm::vec3 *a = &tri.a, *b = &tri.b, *c = &tri.c;
    if (lexicographicLess(*b, *a)) std::swap(a, b);
    if (lexicographicLess(*c, *b)) std::swap(b, c);
    if (lexicographicLess(*b, *a)) std::swap(a, b);
    observe.canonicalOrder(a, b, c);
    return {glm::dvec3(*a), glm::dvec3(*b), glm::dvec3(*c)};
}

/// The closest point of a segment, and how far along it lies (0 at a, 1 at b).
struct SegmentPoint {
    glm::dvec3 point;
    double fraction;
};

SegmentPoint closestPtPointSegmentDouble(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b) {
    const glm::dvec3 ab = b - a;
    const double lengthSq = glm::dot(ab, ab);
    if (!(lengthSq > 0.0)) return {a, 0.0};
    const double fraction = std::clamp(glm::dot(p - a, ab) / lengthSq, 0.0, 1.0);
    return {a + fraction * ab, fraction};
}

template <class Observe>
[[gnu::always_inline]] inline glm::vec3 closestPtPointTriangleSteps(const glm::vec3& p, const Triangle& tri,
                                                                    Observe& observe) {
    // Ericson 5.1.5's Voronoi regions, in double: the edges (differences of floats) are exact there
    // and the products of the tests keep 29 more bits, where in float the differences of large
    // products lose the digits of a long thin triangle (Jolt's TestLongTriangle).
    const std::array<glm::dvec3, 3> v = canonicalVertices(tri, observe);
    const glm::dvec3 &a = v[0], &b = v[1], &c = v[2];
    const glm::dvec3 q(p);
    const glm::dvec3 ab = b - a, ac = c - a;

    // The vertex regions first: their tests hold for degenerate triangles too.
    const glm::dvec3 aq = q - a, bq = q - b, cq = q - c;
    const double d1 = glm::dot(ab, aq), d2 = glm::dot(ac, aq);
    observe.terms(0, d1, d2);
    if (d1 <= 0.0 && d2 <= 0.0) {
        observe.vertex(0);
        return glm::vec3(a);
    }
    const double d3 = glm::dot(ab, bq), d4 = glm::dot(ac, bq);
    observe.terms(2, d3, d4);
    if (d3 >= 0.0 && d4 <= d3) {
        observe.vertex(1);
        return glm::vec3(b);
    }
    const double d5 = glm::dot(ab, cq), d6 = glm::dot(ac, cq);
    observe.terms(4, d5, d6);
    if (d6 >= 0.0 && d5 <= d6) {
        observe.vertex(2);
        return glm::vec3(c);
    }

    // A zero-area or sliver triangle (sine of its largest angle, the one between its two shortest
    // edges, below 1e-5): the edge tests would divide by ~0, and it is within 1e-5 of its edges.
    const glm::dvec3 n = glm::cross(ab, ac), bc = c - b;
    const double nSq = glm::dot(n, n);
    const double abSq = glm::dot(ab, ab), acSq = glm::dot(ac, ac), bcSq = glm::dot(bc, bc);
    if (!(nSq > 1e-10 * std::min({abSq * acSq, abSq * bcSq, acSq * bcSq}))) {
        observe.sliver();
        const SegmentPoint onEdge[3] = {closestPtPointSegmentDouble(q, a, b),
                                        closestPtPointSegmentDouble(q, b, c),
                                        closestPtPointSegmentDouble(q, c, a)};
        int best = 0; // edge k runs from vertex k to k + 1
        for (int k = 1; k < 3; ++k)
            if (glm::distance(q, onEdge[k].point) < glm::distance(q, onEdge[best].point)) best = k;
        observe.edge(best, (best + 1) % 3, onEdge[best].fraction);
        return glm::vec3(onEdge[best].point);
    }

    if (d1 * d4 <= d3 * d2 && d1 >= 0.0 && d3 <= 0.0) {
        const double along = d1 / (d1 - d3);
        observe.edge(0, 1, along);
        return glm::vec3(a + along * ab);
    }
    if (d5 * d2 <= d1 * d6 && d2 >= 0.0 && d6 <= 0.0) {
        const double along = d2 / (d2 - d6);
        observe.edge(0, 2, along);
        return glm::vec3(a + along * ac);
    }
    const double onBc = d4 - d3, offBc = d5 - d6;
    if (d3 * d6 <= d5 * d4 && onBc >= 0.0 && offBc >= 0.0) {
        const double along = onBc / (onBc + offBc);
        observe.edge(1, 2, along);
        return glm::vec3(b + along * bc);
    }

    // The face: project along the normal, not through barycentric weights (as Jolt does).
    const double scale = glm::dot(aq, n) / nSq;
    observe.face(scale);
    return glm::vec3(q - scale * n);
}

template <class Observe>
[[gnu::always_inline]] inline std::optional<ClosestPoints>
closestPtLinePiecesSteps(const LinePiece& first, const LinePiece& second, Observe& observe) {
    if (!isFinite(first.origin) || !isFinite(first.dir) || !isFinite(second.origin) ||
        !isFinite(second.dir)) {
        return std::nullopt;
    }
    if (!(first.lo <= first.hi) || !(second.lo <= second.hi)) return std::nullopt; // empty range or NaN

    // Minimise |r + s d1 - t d2|^2, r = o1 - o2 (Ericson 5.1.9, with [lo, hi] for [0, 1]).
    const glm::vec3 &d1 = first.dir, &d2 = second.dir;
    const glm::vec3 r = first.origin - second.origin;
    const float a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
    const auto clamp1 = [&](float x) { return std::clamp(x, first.lo, first.hi); };
    const auto clamp2 = [&](float x) { return std::clamp(x, second.lo, second.hi); };

    float s = 0.0f, t = 0.0f;
    bool parallel = true;
    if (a < FLT_MIN && e < FLT_MIN) { // two points
        observe.setup(LinePiecesCase::TwoPoints, a, 0.0f, 0.0f, e, f, 0.0f);
        s = clamp1(0.0f);
        t = clamp2(0.0f);
        observe.s(0.0f, s);
        observe.t(0.0f, t);
    } else if (a < FLT_MIN) { // the first is a point
        observe.setup(LinePiecesCase::FirstIsPoint, a, 0.0f, 0.0f, e, f, 0.0f);
        s = clamp1(0.0f);
        t = clamp2(f / e);
        observe.s(0.0f, s);
        observe.t(f / e, t);
    } else {
        const float c = glm::dot(d1, r);
        if (e < FLT_MIN) { // the second is a point
            observe.setup(LinePiecesCase::SecondIsPoint, a, 0.0f, c, e, f, 0.0f);
            t = clamp2(0.0f);
            s = clamp1(-c / a);
            observe.s(-c / a, s);
            observe.t(0.0f, t);
        } else {
            const float b = glm::dot(d1, d2);
            const float denom = a * e - b * b; // = |d1 x d2|^2 >= 0
            parallel = denom <= kParallelSine * kParallelSine * a * e;
            observe.setup(parallel ? LinePiecesCase::Parallel : LinePiecesCase::Skew, a, b, c, e, f, denom);
            const float sUnclamped = parallel ? 0.0f : (b * f - c * e) / denom;
            s = clamp1(sUnclamped);
            observe.s(sUnclamped, s);
            t = (b * s + f) / e;
            observe.t(t, clamp2(t));
            if (t < second.lo || t > second.hi) {
                t = clamp2(t);
                const float sAgain = (b * t - c) / a;
                s = clamp1(sAgain);
                observe.sAgain(sAgain, s);
            }
        }
    }
    ClosestPoints out{s, t, first.origin + s * d1, second.origin + t * d2, 0.0f, parallel};
    const glm::vec3 gap = out.p1 - out.p2;
    out.sqDist = glm::dot(gap, gap);
    if (!std::isfinite(out.s) || !std::isfinite(out.t) || !isFinite(out.p1) || !isFinite(out.p2) ||
        !std::isfinite(out.sqDist)) {
        return std::nullopt;
    }
    return out;
}

} // namespace
} // namespace kz::detail
