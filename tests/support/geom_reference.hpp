// Test support: double-precision reference formulations for the geometry tests, written
// independently of the library's float code (different algorithms where it matters), so that a
// property test compares two ways of computing the same answer.
#pragma once

#include "geom/types.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <utility>

namespace kz::test {

/// Signed distance from p to the plane in world units (the normal need not be unit).
inline double refDistPlane(const glm::dvec3& p, const Plane& plane) {
    const glm::dvec3 n(plane.normal);
    return (glm::dot(n, p) + double(plane.d)) / glm::length(n);
}

/// p in the box's frame (its centre at the origin, its axes the coordinate axes).
inline glm::dvec3 refLocal(const glm::dvec3& p, const Obb& box) {
    return glm::inverse(glm::dmat3(box.axes)) * (p - glm::dvec3(box.center));
}

/// Corners of a box with every half extent grown by `grow` (negative shrinks).
inline std::array<glm::dvec3, 8> refCorners(const Obb& box, double grow) {
    std::array<glm::dvec3, 8> out{};
    const glm::dmat3 axes(box.axes);
    const glm::dvec3 h = glm::dvec3(box.half) + grow;
    for (int i = 0; i < 8; ++i) {
        const glm::dvec3 u((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
        out[std::size_t(i)] = glm::dvec3(box.center) + axes * u;
    }
    return out;
}

/// Does the segment [p0, p1] meet the solid box (grown by `grow`)? Slab clip in the box's frame.
inline bool refSegmentHitsBox(const glm::dvec3& p0, const glm::dvec3& p1, const Obb& box, double grow) {
    const glm::dvec3 a = refLocal(p0, box), b = refLocal(p1, box);
    const glm::dvec3 d = b - a;
    double t0 = 0.0, t1 = 1.0;
    for (int i = 0; i < 3; ++i) {
        const double h = double(box.half[i]) + grow;
        if (std::abs(d[i]) < 1e-300) {
            if (std::abs(a[i]) > h) return false;
            continue;
        }
        double ta = (-h - a[i]) / d[i], tb = (h - a[i]) / d[i];
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1) return false;
    }
    return true;
}

/// Two convex polyhedra share a point iff an edge of one meets the other solid (this also covers
/// one box inside the other). Both boxes grown by `grow`.
inline bool refObbOverlap(const Obb& a, const Obb& b, double grow) {
    for (int pass = 0; pass < 2; ++pass) {
        const Obb& p = pass == 0 ? a : b;
        const Obb& q = pass == 0 ? b : a;
        const auto c = refCorners(p, grow);
        for (int i = 0; i < 8; ++i)
            for (const int bit : {1, 2, 4})
                if ((i & bit) == 0 && refSegmentHitsBox(c[std::size_t(i)], c[std::size_t(i | bit)], q, grow))
                    return true;
    }
    return false;
}

/// The point of segment [a, b] closest to p.
inline glm::dvec3 refClosestSegment(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b) {
    const glm::dvec3 ab = b - a;
    const double len2 = glm::dot(ab, ab);
    if (len2 == 0.0) return a;
    return a + std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) * ab;
}

/// Closest point on a triangle: the plane projection when it falls inside, else the best edge
/// point (a formulation independent of Ericson's Voronoi-region walk).
inline glm::dvec3 refClosestTriangle(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b,
                                     const glm::dvec3& c) {
    const glm::dvec3 n = glm::cross(b - a, c - a);
    const double n2 = glm::dot(n, n);
    if (n2 > 1e-18) {
        const glm::dvec3 q = p - glm::dot(p - a, n) / n2 * n;
        const double u = glm::dot(glm::cross(b - a, q - a), n);
        const double v = glm::dot(glm::cross(c - b, q - b), n);
        const double w = glm::dot(glm::cross(a - c, q - c), n);
        if (u >= 0.0 && v >= 0.0 && w >= 0.0) return q;
    }
    glm::dvec3 best = refClosestSegment(p, a, b);
    for (const glm::dvec3& q : {refClosestSegment(p, b, c), refClosestSegment(p, c, a)})
        if (glm::distance(p, q) < glm::distance(p, best)) best = q;
    return best;
}

inline glm::dvec3 refClosestTriangle(const glm::dvec3& p, const Triangle& t) {
    return refClosestTriangle(p, glm::dvec3(t.a), glm::dvec3(t.b), glm::dvec3(t.c));
}

/// Distance from p to the solid box: p in the box's frame, minus its clamp to the half extents.
inline double refDistObb(const glm::dvec3& p, const Obb& box) {
    const glm::dvec3 local = refLocal(p, box);
    const glm::dvec3 half(box.half);
    return glm::length(local - glm::clamp(local, -half, half));
}

/// The first touch of a sphere of radius r, its centre moving along a line, with a convex shape
/// whose distance from the centre at time t is `at(t)`: the distance is convex in t, so a ternary
/// search finds the closest approach on [0, tMax] and a bisection before it the first t where the
/// distance drops to r.
struct ConvexTouch {
    double closest; ///< The smallest distance on [0, tMax].
    double start;   ///< The distance at t = 0.
    double t;       ///< The first touch when closest <= r (0 when start <= r), else tMax.
};

template <typename Distance>
ConvexTouch refFirstTouch(const Distance& at, double tMax, double r) {
    double lo = 0.0, hi = tMax;
    for (int k = 0; k < 200; ++k) {
        const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        (at(m1) < at(m2) ? hi : lo) = (at(m1) < at(m2) ? m2 : m1);
    }
    ConvexTouch touch{at(lo), at(0.0), tMax};
    if (touch.closest > r) return touch;
    double a = 0.0, b = lo; // at(a) > r >= at(b)
    if (touch.start <= r) b = 0.0;
    for (int k = 0; k < 100 && b > 0.0; ++k) {
        const double m = 0.5 * (a + b);
        (at(m) > r ? a : b) = m;
    }
    touch.t = b;
    return touch;
}

} // namespace kz::test
