// Internal to kz_geom: box against triangle (the triangle in the box's frame, the 13 separating
// axes, the contact features) written once, contactObbTriangle's steps as a template on an
// observer (explain_recorders.hpp). contact_obb_triangle.cpp runs it with NoTrace, whose hooks
// vanish, so the fast code is what it was; explain_contact.cpp (another translation unit, so the
// fast one is compiled exactly as before) runs it with the lab's recorder.
#pragma once

#include "closest.hpp"
#include "contact.hpp"
#include "contact_detail.hpp"
#include "explain_contact.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>

namespace kz::detail {
namespace {

/// The triangle in the box's frame, where the box is [-half, half].
struct LocalTriangle {
    glm::vec3 p[3];
    glm::vec3 edge[3]; ///< edge[i] = p[i + 1] - p[i].
    glm::vec3 normal;  ///< Unit (b - a) x (c - a); zero when that underflows or overflows.
};

LocalTriangle toBoxFrame(const Obb& box, const Triangle& tri) {
    const glm::mat3 toLocal = glm::transpose(box.axes); // axes are orthonormal
    LocalTriangle t{};
    t.p[0] = toLocal * (tri.a - box.center);
    t.p[1] = toLocal * (tri.b - box.center);
    t.p[2] = toLocal * (tri.c - box.center);
    for (int i = 0; i < 3; ++i)
        t.edge[i] = t.p[(i + 1) % 3] - t.p[i];
    // In double: a float cross product of a sliver's nearly parallel edges loses most of its
    // digits, and the corners would then spread along the normal by that error times their size.
    const glm::dvec3 p0(t.p[0]);
    const glm::dvec3 n = glm::cross(glm::dvec3(t.p[1]) - p0, glm::dvec3(t.p[2]) - p0);
    const double length = glm::length(n);
    t.normal = length > 0.0 && std::isfinite(length) ? glm::vec3(n / length) : glm::vec3(0.0f);
    return t;
}

/// sin(angle) below which a box edge and a triangle edge count as parallel. The axis is built
/// from the edge vector itself (not from a padded rotation as in contactObbObb), so it stays
/// meaningful far closer to parallel; a larger cut-off would let a gap along a skipped axis go
/// unseen by up to about sin * size.
constexpr float kEdgeAxisMinSine = 1e-5f;

/// The triangle projects to [lo, hi] and the box to [-r, r] on an axis. Moving the box by hi + r
/// along +axis, or by r - lo along -axis, separates them; minus the shorter is the separation,
/// max(lo, -hi) - r (> 0: apart).
float separationOnAxis(float t0, float t1, float t2, float r) {
    const float lo = std::min(t0, std::min(t1, t2)), hi = std::max(t0, std::max(t1, t2));
    return std::max(lo, -hi) - r;
}

/// Which way the box leaves along an axis: +1 when hi + r <= r - lo (+axis on a tie), else -1.
float pushOnAxis(float t0, float t1, float t2) {
    const float lo = std::min(t0, std::min(t1, t2)), hi = std::max(t0, std::max(t1, t2));
    return hi + lo <= 0.0f ? 1.0f : -1.0f;
}

/// Box axis k x triangle edge e, written out (one component is zero).
glm::vec3 edgeAxis(int k, const glm::vec3& e) {
    glm::vec3 axis(0.0f);
    axis[(k + 1) % 3] = -e[(k + 2) % 3];
    axis[(k + 2) % 3] = e[(k + 1) % 3];
    return axis;
}

/// The separation along each of the 13 axes (Akenine-Möller's triangle-box test, each gap
/// divided by its axis's length). All 13, with no early exit: on a mix of hits and misses the
/// exit branches cost about what they save, and the contact and separation queries then agree
/// exactly on which pairs touch.
struct ObbTriangleSeparations {
    /// [0]: the triangle normal; [1 + k]: box axis k; [4 + 3k + j]: box axis k x triangle
    /// edge j, -INFINITY when skipped as parallel.
    float gap[13];

    float triangle() const { return gap[0]; }
    float face(int k) const { return gap[1 + k]; }
    float edge(int k, int j) const { return gap[4 + 3 * k + j]; }

    /// The largest; NaN when an overflow made any NaN (or +INFINITY, which meets a skipped axis's
    /// -INFINITY in the sum).
    float largest() const {
        float best = gap[0], sum = gap[0];
        for (int i = 1; i < 13; ++i)
            best = std::max(best, gap[i]), sum += gap[i];
        return std::isnan(sum) ? sum : best;
    }
};

/// Separation along box axis K x triangle edge e, over the axis's length (-INFINITY when the two
/// are within kEdgeAxisMinSine of parallel). Compile-time K: glm's runtime indexing is a switch.
template <int K>
float edgeSeparation(const LocalTriangle& t, const glm::vec3& h, const glm::vec3& e) {
    constexpr int u = (K + 1) % 3, v = (K + 2) % 3;
    const float au = -e[v], av = e[u]; // the axis: component u, component v, 0 along K
    const auto project = [&](const glm::vec3& p) { return au * p[u] + av * p[v]; };
    const float lengthSq = au * au + av * av;
    const float gap = separationOnAxis(project(t.p[0]), project(t.p[1]), project(t.p[2]),
                                       h[u] * std::abs(au) + h[v] * std::abs(av));
    return lengthSq > kEdgeAxisMinSine * kEdgeAxisMinSine * glm::dot(e, e) ? gap / std::sqrt(lengthSq)
                                                                           : -INFINITY;
}

ObbTriangleSeparations separations(const LocalTriangle& t, const glm::vec3& h) {
    ObbTriangleSeparations s{};
    const glm::vec3& n = t.normal;
    s.gap[0] = separationOnAxis(glm::dot(n, t.p[0]), glm::dot(n, t.p[1]), glm::dot(n, t.p[2]),
                                glm::dot(h, glm::abs(n)));
    s.gap[1] = separationOnAxis(t.p[0].x, t.p[1].x, t.p[2].x, h.x);
    s.gap[2] = separationOnAxis(t.p[0].y, t.p[1].y, t.p[2].y, h.y);
    s.gap[3] = separationOnAxis(t.p[0].z, t.p[1].z, t.p[2].z, h.z);
    for (int j = 0; j < 3; ++j) {
        s.gap[4 + j] = edgeSeparation<0>(t, h, t.edge[j]);
        s.gap[7 + j] = edgeSeparation<1>(t, h, t.edge[j]);
        s.gap[10 + j] = edgeSeparation<2>(t, h, t.edge[j]);
    }
    return s;
}

/// What the contact features need: the box, the triangle in its frame, and a rounding allowance
/// for points exactly on a face (touching).
struct ObbTriangleFrame {
    const Obb& box;
    const LocalTriangle& tri;
    float slop;

    ContactPoint worldPoint(const glm::vec3& local, float depth) const {
        return {box.center + box.axes * local, std::max(depth, 0.0f)};
    }
};

/// Triangle normal n (unit, box frame, toward the box): where the incident box face (the one
/// most anti-parallel to n), seen along n, covers the triangle, and how far below the triangle
/// it is there. That is the incident face clipped to the triangle's side planes and projected
/// onto its plane, but computed the other way round (the triangle clipped to the face's four
/// side planes, swept along n) for precision: the triangle's side planes meet at a sliver's sharp
/// corner at a grazing angle, so clipping against them can slide a point off the triangle, while
/// the face's side planes meet at a good angle (n is within 55 degrees of the face's normal).
int triangleFacePoints(const ObbTriangleFrame& f, const glm::vec3& n, ContactPoint* points) {
    const glm::vec3& h = f.box.half;
    int k = 0;
    for (int i = 1; i < 3; ++i) {
        if (std::abs(n[i]) > std::abs(n[k])) k = i;
    }
    // A point x of the triangle lies over the face point x - s n, with s = (x_k - face) / n_k.
    const float face = -sign(n[k]) * h[k];
    glm::vec3 polygon[8] = {f.tri.p[0], f.tri.p[1], f.tri.p[2]}, scratch[8];
    int count = 3;
    for (const int side : {(k + 1) % 3, (k + 2) % 3}) {
        // (x - s n)_side = dot(x, m) + offset, kept within [-h, h].
        const float slope = n[side] / n[k];
        glm::vec3 m(0.0f);
        m[side] = 1.0f;
        m[k] = -slope;
        const float offset = slope * face;
        count = clipPolygon(polygon, count, m, h[side] - offset, scratch);
        count = clipPolygon(scratch, count, -m, h[side] + offset, polygon);
    }
    int kept = 0;
    for (int i = 0; i < count; ++i) {
        const float depth = (polygon[i][k] - face) / n[k];
        if (depth >= -f.slop) points[kept++] = f.worldPoint(polygon[i], depth);
    }
    return kept;
}

/// Box face k, the box leaving along push * axis k: the triangle clipped to that face's side
/// planes, its points behind the face looking toward the triangle.
int boxFacePoints(const ObbTriangleFrame& f, int k, float push, ContactPoint* points) {
    const glm::vec3& h = f.box.half;
    glm::vec3 polygon[8] = {f.tri.p[0], f.tri.p[1], f.tri.p[2]}, scratch[8];
    int count = 3;
    for (const int side : {(k + 1) % 3, (k + 2) % 3}) {
        glm::vec3 axis(0.0f);
        axis[side] = 1.0f;
        count = clipPolygon(polygon, count, axis, h[side], scratch);
        count = clipPolygon(scratch, count, -axis, h[side], polygon);
    }
    int kept = 0;
    for (int i = 0; i < count; ++i) {
        const float depth = h[k] + push * polygon[i][k];
        if (depth >= -f.slop) points[kept++] = f.worldPoint(polygon[i], depth);
    }
    return kept;
}

/// Edge axis n (unit, box frame, toward the box): the box edge along axis k deepest toward the
/// triangle against triangle edge j; the point on the triangle's edge. Should the opposite corner
/// reach deeper along n than edge j (a tie with another axis), that corner is the point.
int edgePoint(const ObbTriangleFrame& f, int k, int j, const glm::vec3& n, float depth,
              ContactPoint* points) {
    const glm::vec3 &p = f.tri.p[j], &q = f.tri.p[(j + 1) % 3], &opposite = f.tri.p[(j + 2) % 3];
    if (glm::dot(n, opposite) > std::max(glm::dot(n, p), glm::dot(n, q))) {
        points[0] = f.worldPoint(opposite, depth);
        return 1;
    }
    const glm::vec3& h = f.box.half;
    glm::vec3 mid(0.0f), along(0.0f);
    for (int i = 0; i < 3; ++i) {
        if (i != k) mid[i] = -sign(n[i]) * h[i];
    }
    along[k] = h[k];
    const auto closest = closestPtLinePieces(asSegment(mid - along, mid + along), asSegment(p, q));
    if (!closest) return 0;
    points[0] = f.worldPoint(closest->p2, depth);
    return 1;
}

/// Valid shapes whose triangle keeps a finite, non-zero normal in the box's frame.
std::optional<LocalTriangle> validBoxFrame(const Obb& a, const Triangle& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const LocalTriangle t = toBoxFrame(a, b);
    if (t.normal == glm::vec3(0.0f)) return std::nullopt;
    return t;
}

template <class Observe>
[[gnu::always_inline]] inline std::optional<Manifold> contactObbTriangleSteps(const Obb& a, const Triangle& b,
                                                                              Observe& observe) {
    const auto local = validBoxFrame(a, b);
    if (!local) return std::nullopt;
    const LocalTriangle& tri = *local;
    observe.boxFrame(tri.p, tri.edge, tri.normal);
    const ObbTriangleSeparations gaps = separations(tri, a.half);
    const float largest = gaps.largest();
    observe.separations(gaps.gap, largest);
    if (!(largest <= 0.0f)) return std::nullopt; // apart, or NaN

    int face = 0, edgeBox = 0, edgeTri = 0;
    for (int k = 1; k < 3; ++k) {
        if (gaps.face(k) > gaps.face(face)) face = k;
    }
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j) {
            if (gaps.edge(k, j) > gaps.edge(edgeBox, edgeTri)) edgeBox = k, edgeTri = j;
        }
    }
    const float edgeGap = gaps.edge(edgeBox, edgeTri);

    // Prefer the triangle normal, then the box faces, unless the next kind clearly penetrates
    // less (Box2D's relative and absolute tolerances, as in contactObbObb).
    constexpr float kRelative = 0.95f;
    const float absolute = 0.005f * std::max({a.half.x, a.half.y, a.half.z});
    const bool useBoxFace = gaps.face(face) > kRelative * gaps.triangle() + absolute;
    const float faceGap = useBoxFace ? gaps.face(face) : gaps.triangle();
    const bool useEdge = edgeGap > kRelative * faceGap + absolute;

    // Rounding allowance for points exactly on the reference plane (a touching pair).
    float scale = std::max({a.half.x, a.half.y, a.half.z});
    for (const glm::vec3& p : tri.p)
        scale = std::max({scale, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
    const ObbTriangleFrame frame{a, tri, 8.0f * FLT_EPSILON * scale};

    // The preferred feature first; should its clipping leave nothing (an axis kept by the
    // tolerance whose feature is not where they touch), the next one.
    using enum ObbTriangleFeature;
    ObbTriangleFeature order[3] = {TriangleFace, BoxFace, Edge};
    if (useEdge) {
        order[0] = Edge, order[1] = TriangleFace, order[2] = BoxFace;
    } else if (useBoxFace) {
        order[0] = BoxFace, order[1] = TriangleFace;
    }
    observe.choice(face, edgeBox, edgeTri, useBoxFace, useEdge, order);
    ContactPoint points[8];
    for (int slot = 0; slot < 3; ++slot) {
        const ObbTriangleFeature feature = order[slot];
        glm::vec3 normal(0.0f); // box frame, from the triangle toward the box
        int count = 0;
        if (feature == TriangleFace) {
            const glm::vec3& n = tri.normal;
            normal = n * pushOnAxis(glm::dot(n, tri.p[0]), glm::dot(n, tri.p[1]), glm::dot(n, tri.p[2]));
            count = triangleFacePoints(frame, normal, points);
        } else if (feature == BoxFace) {
            const float push = pushOnAxis(tri.p[0][face], tri.p[1][face], tri.p[2][face]);
            normal[face] = push;
            count = boxFacePoints(frame, face, push, points);
        } else if (edgeGap > -INFINITY) {
            const glm::vec3 axis = glm::normalize(edgeAxis(edgeBox, tri.edge[edgeTri]));
            normal = axis *
                     pushOnAxis(glm::dot(axis, tri.p[0]), glm::dot(axis, tri.p[1]), glm::dot(axis, tri.p[2]));
            count = edgePoint(frame, edgeBox, edgeTri, normal, -edgeGap, points);
        }
        observe.feature(slot, feature, count);
        if (count > 0) return finiteOrNone(fromPoints(glm::normalize(a.axes * normal), points, count));
    }
    return std::nullopt;
}

} // namespace
} // namespace kz::detail
