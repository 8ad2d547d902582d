#include "closest.hpp"

#include "detail.hpp"

#include <algorithm>
#include <array>
#include <cfloat>

namespace kz {

glm::vec3 closestPtPointAabb(const glm::vec3& p, const Aabb& box) {
    return glm::clamp(p, box.min, box.max);
}

float sqDistPointAabb(const glm::vec3& p, const Aabb& box) {
    const glm::vec3 outside = p - closestPtPointAabb(p, box);
    return glm::dot(outside, outside);
}

glm::vec3 closestPtPointObb(const glm::vec3& p, const Obb& box) {
    const glm::vec3 d = p - box.center;
    glm::vec3 q = box.center;
    for (int i = 0; i < 3; ++i) {
        const float along = glm::clamp(glm::dot(d, box.axes[i]), -box.half[i], box.half[i]);
        q += along * box.axes[i];
    }
    return q;
}

float sqDistPointObb(const glm::vec3& p, const Obb& box) {
    // Sum of squared excesses along each axis (exact for orthonormal axes).
    const glm::vec3 d = p - box.center;
    float sqDist = 0.0f;
    for (int i = 0; i < 3; ++i) {
        const float along = std::abs(glm::dot(d, box.axes[i]));
        if (along > box.half[i]) sqDist += (along - box.half[i]) * (along - box.half[i]);
    }
    return sqDist;
}

namespace {

bool lexicographicLess(const glm::vec3& u, const glm::vec3& v) {
    if (u.x != v.x) return u.x < v.x;
    if (u.y != v.y) return u.y < v.y;
    return u.z < v.z;
}

/// The vertices sorted by lexicographicLess, in double: every vertex order of a triangle then
/// makes the same computation, to the bit.
std::array<glm::dvec3, 3> canonicalVertices(const Triangle& tri) {
    const glm::vec3 *a = &tri.a, *b = &tri.b, *c = &tri.c;
    if (lexicographicLess(*b, *a)) std::swap(a, b);
    if (lexicographicLess(*c, *b)) std::swap(b, c);
    if (lexicographicLess(*b, *a)) std::swap(a, b);
    return {glm::dvec3(*a), glm::dvec3(*b), glm::dvec3(*c)};
}

glm::dvec3 closestPtPointSegmentDouble(const glm::dvec3& p, const glm::dvec3& a, const glm::dvec3& b) {
    const glm::dvec3 ab = b - a;
    const double lengthSq = glm::dot(ab, ab);
    if (!(lengthSq > 0.0)) return a;
    return a + std::clamp(glm::dot(p - a, ab) / lengthSq, 0.0, 1.0) * ab;
}

} // namespace

glm::vec3 closestPtPointTriangle(const glm::vec3& p, const Triangle& tri) {
    // Ericson 5.1.5's Voronoi regions, in double: the edges (differences of floats) are exact there
    // and the products of the tests keep 29 more bits, where in float the differences of large
    // products lose the digits of a long thin triangle (Jolt's TestLongTriangle).
    const std::array<glm::dvec3, 3> v = canonicalVertices(tri);
    const glm::dvec3 &a = v[0], &b = v[1], &c = v[2];
    const glm::dvec3 q(p);
    const glm::dvec3 ab = b - a, ac = c - a;

    // The vertex regions first: their tests hold for degenerate triangles too.
    const glm::dvec3 aq = q - a, bq = q - b, cq = q - c;
    const double d1 = glm::dot(ab, aq), d2 = glm::dot(ac, aq);
    if (d1 <= 0.0 && d2 <= 0.0) return glm::vec3(a);
    const double d3 = glm::dot(ab, bq), d4 = glm::dot(ac, bq);
    if (d3 >= 0.0 && d4 <= d3) return glm::vec3(b);
    const double d5 = glm::dot(ab, cq), d6 = glm::dot(ac, cq);
    if (d6 >= 0.0 && d5 <= d6) return glm::vec3(c);

    // A zero-area or sliver triangle (sine of its largest angle, the one between its two shortest
    // edges, below 1e-5): the edge tests would divide by ~0, and it is within 1e-5 of its edges.
    const glm::dvec3 n = glm::cross(ab, ac), bc = c - b;
    const double nSq = glm::dot(n, n);
    const double abSq = glm::dot(ab, ab), acSq = glm::dot(ac, ac), bcSq = glm::dot(bc, bc);
    if (!(nSq > 1e-10 * std::min({abSq * acSq, abSq * bcSq, acSq * bcSq}))) {
        glm::dvec3 best = closestPtPointSegmentDouble(q, a, b);
        for (const glm::dvec3& onEdge :
             {closestPtPointSegmentDouble(q, b, c), closestPtPointSegmentDouble(q, c, a)})
            if (glm::distance(q, onEdge) < glm::distance(q, best)) best = onEdge;
        return glm::vec3(best);
    }

    if (d1 * d4 <= d3 * d2 && d1 >= 0.0 && d3 <= 0.0) return glm::vec3(a + (d1 / (d1 - d3)) * ab);
    if (d5 * d2 <= d1 * d6 && d2 >= 0.0 && d6 <= 0.0) return glm::vec3(a + (d2 / (d2 - d6)) * ac);
    const double onBc = d4 - d3, offBc = d5 - d6;
    if (d3 * d6 <= d5 * d4 && onBc >= 0.0 && offBc >= 0.0) return glm::vec3(b + (onBc / (onBc + offBc)) * bc);

    // The face: project along the normal, not through barycentric weights (as Jolt does).
    return glm::vec3(q - (glm::dot(aq, n) / nSq) * n);
}

glm::vec3 closestPtPointSegment(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b) {
    const glm::vec3 ab = b - a;
    const float lengthSq = glm::dot(ab, ab);
    if (!(lengthSq > 0.0f)) return a;
    const float t = glm::clamp(glm::dot(p - a, ab) / lengthSq, 0.0f, 1.0f);
    return a + t * ab;
}

std::optional<ClosestPoints> closestPtLinePieces(const LinePiece& first, const LinePiece& second) {
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
        s = clamp1(0.0f);
        t = clamp2(0.0f);
    } else if (a < FLT_MIN) { // the first is a point
        s = clamp1(0.0f);
        t = clamp2(f / e);
    } else {
        const float c = glm::dot(d1, r);
        if (e < FLT_MIN) { // the second is a point
            t = clamp2(0.0f);
            s = clamp1(-c / a);
        } else {
            const float b = glm::dot(d1, d2);
            const float denom = a * e - b * b; // = |d1 x d2|^2 >= 0
            parallel = denom <= kParallelSine * kParallelSine * a * e;
            s = parallel ? clamp1(0.0f) : clamp1((b * f - c * e) / denom);
            t = (b * s + f) / e;
            if (t < second.lo || t > second.hi) {
                t = clamp2(t);
                s = clamp1((b * t - c) / a);
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

std::optional<RayPairResult> intersectRays(const Ray& first, const Ray& second, float tolerance) {
    if (!isValid(first) || !isValid(second) || !(tolerance >= 0.0f) || !std::isfinite(tolerance)) {
        return std::nullopt;
    }
    const auto closest = closestPtLinePieces(asRay(first), asRay(second));
    if (!closest) return std::nullopt;

    RayPairResult out{RayPairKind::Skew, closest->s, closest->t, 0.5f * (closest->p1 + closest->p2),
                      std::sqrt(closest->sqDist)};
    if (closest->parallel) {
        // Distance between the two lines: the part of o2 - o1 perpendicular to d1.
        const glm::vec3 u = glm::normalize(first.dir);
        const glm::vec3 offset = second.origin - first.origin;
        out.kind = RayPairKind::Parallel;
        out.distance = glm::length(offset - glm::dot(offset, u) * u);
    } else if (out.distance <= tolerance) {
        out.kind = RayPairKind::Intersecting;
    }
    if (!std::isfinite(out.distance) || !isFinite(out.point)) return std::nullopt;
    return out;
}

std::optional<glm::vec3> polygonNormal(std::span<const glm::vec3> polygon) {
    if (polygon.size() < 3) return std::nullopt;
    for (const glm::vec3& v : polygon) {
        if (!isFinite(v)) return std::nullopt;
    }
    // Newell's method, relative to the first vertex for precision.
    glm::vec3 n(0.0f);
    const glm::vec3 origin = polygon[0];
    for (std::size_t i = 0; i < polygon.size(); ++i) {
        const glm::vec3 cur = polygon[i] - origin;
        const glm::vec3 next = polygon[(i + 1) % polygon.size()] - origin;
        n.x += (cur.y - next.y) * (cur.z + next.z);
        n.y += (cur.z - next.z) * (cur.x + next.x);
        n.z += (cur.x - next.x) * (cur.y + next.y);
    }
    const float lengthSq = glm::dot(n, n);
    if (!(lengthSq >= FLT_MIN) || !std::isfinite(lengthSq)) return std::nullopt;
    return n / std::sqrt(lengthSq);
}

bool detail::insideConvexPolygon(const glm::vec3& p, std::span<const glm::vec3> convexPolygon,
                                 const glm::vec3& normal) {
    // p is inside when it is left of every edge seen from the front, within a relative
    // tolerance of kEdgeSine so points computed on a shared edge count for both polygons.
    constexpr float kEdgeSine = 1e-6f;
    for (std::size_t i = 0; i < convexPolygon.size(); ++i) {
        const glm::vec3& from = convexPolygon[i];
        const glm::vec3 edge = convexPolygon[(i + 1) % convexPolygon.size()] - from;
        const glm::vec3 toPoint = p - from;
        const float side = glm::dot(glm::cross(edge, toPoint), normal);
        if (side < 0.0f &&
            side * side > kEdgeSine * kEdgeSine * glm::dot(edge, edge) * glm::dot(toPoint, toPoint)) {
            return false;
        }
    }
    return true;
}

bool pointInConvexPolygon(const glm::vec3& p, std::span<const glm::vec3> convexPolygon) {
    const auto normal = polygonNormal(convexPolygon);
    if (!normal || !isFinite(p)) return false;
    return detail::insideConvexPolygon(p, convexPolygon, *normal);
}

} // namespace kz
