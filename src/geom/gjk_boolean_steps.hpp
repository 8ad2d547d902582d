// Internal to kz_geom: the boolean GJK of testConvexConvex for shapes without radii (boxes,
// cylinders, hulls), written once as a template on an observer (as gjk_steps.hpp).
//
// It is GJK as libccd's ccdGJKIntersect and Muratori's "Implementing GJK" (2006) run it: no
// nearest point and no weights. Each support point w of the cores' difference along the search
// direction d (toward the origin) must pass the origin, or the plane through w across d
// separates the shapes; the simplex then keeps the face, edge or point of (simplex + w) whose
// Voronoi region holds the origin (w always among them: the regions beyond the older points
// were already left), and d becomes that feature's normal toward the origin. A few cross products
// an iteration instead of the signed volumes: the overlap test needs only the answer.
// It stops on
//   - a support plane that separates the shapes by more than the touching tolerance (the same
//     test as gjkSteps' SeparatingAxis): false;
//   - a tetrahedron around the origin, or the origin on the simplex: true.
// Where it cannot tell (a support plane within the touching tolerance of the origin, as for
// touching shapes; a repeated point; a flat tetrahedron or a triangle of collinear points;
// kGjkBooleanMaxIterations), it hands over to gjkSteps' overlap mode from the start, whose verdict
// is the distance's. Both verdicts are proofs (a separating plane, a simplex of the difference
// around the origin), so they agree with closestPtConvexConvex's overlap.
#pragma once

#include "gjk_steps.hpp"

#include <array>
#include <cmath>

namespace kz::detail {

/// The boolean GJK's iteration cap before it hands over (polytopes need about 5, round rims
/// about 10 for shapes 1e-5 of their size apart).
inline constexpr int kGjkBooleanMaxIterations = 32;

/// One simplex update: which points of `tried` (the simplex with the new point last) stay,
/// newest last, and the next search direction; or the origin in or on them; or no decision.
struct BooleanUpdate {
    std::array<int, 4> kept;
    int count;
    glm::dvec3 d;  ///< The next search direction (toward the origin, not unit).
    bool enclosed; ///< The origin is in (or on) the points kept: the cores overlap or touch.
    bool stuck;    ///< Degenerate (collinear or flat): hand over to gjkSteps.
};

/// (a x b) x a: b's part across a, times |a|^2 (from the line along a toward b).
inline glm::dvec3 acrossAxis(const glm::dvec3& a, const glm::dvec3& b) {
    return glm::cross(glm::cross(a, b), a);
}

/// The edge [w[p], w[n]] when the origin lies beyond w[n] toward w[p], else w[n] alone (n newest).
inline BooleanUpdate booleanEdge(const glm::dvec3* w, int p, int n) {
    const glm::dvec3 ao = -w[n], ab = w[p] - w[n];
    if (glm::dot(ab, ao) > 0.0) {
        const glm::dvec3 d = acrossAxis(ab, ao);
        // d zero: the origin on the edge's line, between its ends (the side beyond w[p] was left).
        return {{p, n}, 2, d, d == glm::dvec3(0.0), false};
    }
    return {{n}, 1, ao, ao == glm::dvec3(0.0), false};
}

/// The triangle (w[c], w[b], w[a]), a newest: one of its two edges through w[a], w[a] alone, or the
/// triangle with d its normal on the origin's side (the origin on it: enclosed).
inline BooleanUpdate booleanTriangle(const glm::dvec3* w, int c, int b, int a) {
    const glm::dvec3 ao = -w[a], ab = w[b] - w[a], ac = w[c] - w[a];
    const glm::dvec3 abc = glm::cross(ab, ac);
    if (abc == glm::dvec3(0.0)) return {{a}, 1, ao, false, true};
    if (glm::dot(glm::cross(abc, ac), ao) > 0.0) { // beyond the edge a-c
        if (glm::dot(ac, ao) > 0.0) {
            const glm::dvec3 d = acrossAxis(ac, ao);
            return {{c, a}, 2, d, d == glm::dvec3(0.0), false};
        }
        return booleanEdge(w, b, a);
    }
    if (glm::dot(glm::cross(ab, abc), ao) > 0.0) return booleanEdge(w, b, a); // beyond a-b
    const double side = glm::dot(abc, ao);
    if (side > 0.0) return {{c, b, a}, 3, abc, false, false};
    if (side < 0.0) return {{b, c, a}, 3, -abc, false, false};
    return {{c, b, a}, 3, abc, true, false}; // the origin on the triangle
}

/// The tetrahedron (w[d], w[c], w[b], w[a]), a newest: enclosed when the origin is on the inner
/// side of the three faces through w[a] (strictly; the face opposite it was the last triangle,
/// whose normal pointed at the origin), else the triangle case on a face it lies beyond (on a
/// face's plane counts as beyond: that face's triangle case then finds it on the face).
inline BooleanUpdate booleanTetrahedron(const glm::dvec3* w, int d, int c, int b, int a) {
    const glm::dvec3 ao = -w[a], ab = w[b] - w[a], ac = w[c] - w[a], ad = w[d] - w[a];
    // Six times the signed volume; also dot(adb, ac) and dot(acd, ab) (cyclic determinants): the
    // side of each face through a that its opposite vertex lies on. Each face's normal is made
    // only when the faces before it hold the origin on their inner side.
    const glm::dvec3 abc = glm::cross(ab, ac);
    const double volume = glm::dot(abc, ad);
    if (volume == 0.0) return {{a}, 1, ao, false, true};
    if (!sameSign(glm::dot(abc, ao), volume)) return booleanTriangle(w, c, b, a);
    if (!sameSign(glm::dot(glm::cross(ad, ab), ao), volume)) return booleanTriangle(w, d, b, a);
    if (!sameSign(glm::dot(glm::cross(ac, ad), ao), volume)) return booleanTriangle(w, d, c, a);
    return {{d, c, b, a}, 4, glm::dvec3(0.0), true, false};
}

/// The simplex update for `n` tried points (the new one last).
inline BooleanUpdate booleanUpdate(const glm::dvec3* w, int n) {
    switch (n) {
    case 4:
        return booleanTetrahedron(w, 0, 1, 2, 3);
    case 3:
        return booleanTriangle(w, 0, 1, 2);
    case 2:
        return booleanEdge(w, 0, 1);
    default:
        return {{0}, 1, -w[0], w[0] == glm::dvec3(0.0), false};
    }
}

/// The state gjkSteps leaves, from the boolean run's stop: separated, the last support pair (an
/// upper bound on the distance, as gjkSteps' overlap mode gives); overlapping, the simplex around
/// the origin with its signed-volumes weights (a point both cores contain).
inline void finishBoolean(GjkCore& g, const SimplexVertex& last) {
    if (g.status == GjkStatus::SeparatingAxis) {
        g.count = 1;
        g.simplex[0] = last;
        g.weights = {1.0, 0.0, 0.0, 0.0};
        g.v = last.w;
        g.upper = glm::length(last.w);
    } else {
        glm::dvec3 w[4];
        for (int i = 0; i < g.count; ++i)
            w[i] = g.simplex[std::size_t(i)].w;
        g.weights = signedVolumes(w, g.count);
        g.v = glm::dvec3(0.0);
        g.upper = 0.0;
    }
    setWitnessPoints(g);
    g.lower = std::min(g.lower, g.upper);
}

/// testConvexConvex on cores without radii (a.margin + b.margin == 0), see above. The observer
/// sees support (as gjkSteps'), booleanSimplex(points, count, v, update) after each update,
/// restart() before a hand-over to gjkSteps (which then reports as usual) and stop(g).
template <class Observe>
[[gnu::always_inline]] inline GjkCore gjkBooleanSteps(const CoreShape& a, const CoreShape& b,
                                                      Observe& observe) {
    GjkCore g;
    g.tolerance = kGjkTolerance * std::max(a.size, b.size);
    g.touching = kGjkTouchingTolerance * std::max(a.size, b.size);
    // v = -d, as gjkSteps' v: the first from B's centre to A's.
    glm::dvec3 v = a.centre - b.centre;
    if (glm::dot(v, v) == 0.0) v = glm::dvec3(1.0, 0.0, 0.0);
    // The simplex in buffers[current][0, count), the new point after it; each update copies the
    // points kept, in their new order, to the other buffer (GjkCore's simplex is set at the end).
    std::array<SimplexVertex, 4> buffers[2];
    int current = 0;
    glm::dvec3 w[4];
    bool decided = false;
    while (g.iterations < kGjkBooleanMaxIterations) {
        ++g.iterations;
        const int n = g.count + 1;
        SimplexVertex* tried = buffers[current].data();
        SimplexVertex& s = tried[n - 1];
        s.a = supportCore(a, -v, g.climbA);
        s.b = supportCore(b, v, g.climbB);
        s.w = s.a - s.b;
        // The gap along v, dot(v, w) / |v|, is tested squared: no square root and division for
        // the branches to wait on (earlier gaps were all within the tolerance).
        const double along = glm::dot(v, s.w), lengthSq = glm::dot(v, v);
        g.lower = std::max(g.lower, along / std::sqrt(lengthSq));
        observe.support(g.iterations, v, s.a, s.b, s.w, g.lower);
        if (along > 0.0 && along * along > g.touching * g.touching * lengthSq) {
            g.status = GjkStatus::SeparatingAxis;
            finishBoolean(g, s);
            decided = true;
            break;
        }
        // A plane within the tolerance of the origin (w has not passed it): touching, or nearly.
        if (along > 0.0) break;
        bool repeated = false;
        for (int i = 0; i < n; ++i) {
            repeated = repeated || (i < n - 1 && tried[i].w == s.w);
            w[i] = tried[i].w;
        }
        if (repeated) break;
        const BooleanUpdate u = booleanUpdate(w, n);
        if (u.stuck) break;
        SimplexVertex* kept = buffers[1 - current].data();
        for (int i = 0; i < u.count; ++i)
            kept[i] = tried[u.kept[std::size_t(i)]];
        current = 1 - current;
        g.count = u.count;
        v = -u.d;
        observe.booleanSimplex(kept, u.count, v, u);
        if (u.enclosed) {
            g.status = GjkStatus::Overlapping;
            for (int i = 0; i < u.count; ++i)
                g.simplex[std::size_t(i)] = kept[i];
            finishBoolean(g, kept[0]);
            decided = true;
            break;
        }
    }
    if (decided) {
        observe.stop(g);
    } else {
        observe.restart();
        g = gjkSteps(a, b, GjkMode::Overlap, kGjkMaxIterations, observe);
    }
    return g; // one object returned on every path: no copy
}

} // namespace kz::detail
