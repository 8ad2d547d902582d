// Internal to kz_geom: contactConvexConvex's steps (the supporting faces, the reference face, the
// clipping, the points kept) written once, as templates on an observer. contact_convex.cpp runs
// them with ContactConvexNoTrace, whose hooks vanish; explain_contact_convex.cpp (another
// translation unit) with the lab's recorder, so the trace's manifold is the fast one bit for bit.
// In double inside (the faces' corners come from the float shapes once, as the support functions
// do), rounded once at the end.
#pragma once

#include "contact_convex.hpp"
#include "contact_detail.hpp"
#include "convex_detail.hpp"
#include "epa.hpp"
#include "gjk.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <optional>

namespace kz::detail {
namespace {

using glm::dvec3;

/// The clipped incident face: its corners plus at most one per reference side.
constexpr int kMaxClipped = 2 * kMaxSupportingFaceVertices;
/// A reference face this close to perpendicular to the normal gives no usable plane.
constexpr double kMinReferenceCosine = 1e-3;
/// 1 - cos(1e-5): a reference face within 1e-5 rad of the normal gives its own normal.
constexpr double kSnapCosine = 1.0 - 5e-11;
/// Points up to this (times the size) in front of the reference plane still touch (depth 0).
constexpr double kTouchingTolerance = 1e-6;
/// Clipped points shallower than EPA's depth by more than this (times the size) miss the deepest
/// point: EPA's witness point joins them.
constexpr double kMissedDepthTolerance = 1e-5;

/// A shape's supporting feature toward the other shape.
struct SupportingFace {
    std::array<dvec3, kMaxSupportingFaceVertices> points;
    int count = 1;     ///< 1: a point (no face), 2: a segment, >= 3: a convex polygon in loop order.
    dvec3 normal{0.0}; ///< A polygon's unit outward normal; zero otherwise.
};

void setSegment(SupportingFace& f, const dvec3& p, const dvec3& q) {
    f.points[0] = p;
    f.points[1] = q;
    f.count = 2;
}

/// The unit part of `toward` perpendicular to the unit `axis` (zero when along it), as the cross
/// products (axis x t) x axis: perpendicular to the axis to its own rounding.
dvec3 acrossAxis(const dvec3& axis, const dvec3& toward) {
    return unitOrZero(glm::cross(glm::cross(axis, toward), axis));
}

/// A box's face whose outward normal is nearest `toward` (Jolt's AABox::GetSupportingFace).
void boxFace(const Obb& box, const dvec3& toward, SupportingFace& f) {
    int k = 0;
    double best = -1.0;
    for (int i = 0; i < 3; ++i) {
        const double align = std::abs(glm::dot(unitOrZero(dvec3(box.axes[i])), toward));
        if (align > best) best = align, k = i;
    }
    const dvec3 axis(box.axes[k]);
    const double side = glm::dot(axis, toward) < 0.0 ? -1.0 : 1.0;
    const int u = (k + 1) % 3, v = (k + 2) % 3;
    const dvec3 centre = dvec3(box.center) + (side * double(box.half[k])) * axis;
    const dvec3 du = double(box.half[u]) * dvec3(box.axes[u]), dv = double(box.half[v]) * dvec3(box.axes[v]);
    f.points[0] = centre + du + dv;
    f.points[1] = centre - du + dv;
    f.points[2] = centre - du - dv;
    f.points[3] = centre + du - dv;
    f.count = 4;
    f.normal = side * unitOrZero(axis);
}

/// A capsule lying flat (its segment within kFlatSideSine of perpendicular to `toward`): the line
/// of its surface facing `toward`, the segment moved out by the radius; else a point.
void capsuleFace(const Capsule& capsule, const dvec3& toward, SupportingFace& f) {
    const dvec3 a(capsule.a), b(capsule.b);
    const dvec3 axis = unitOrZero(b - a);
    const dvec3 across = acrossAxis(axis, toward);
    if (axis == dvec3(0.0) || across == dvec3(0.0)) return;
    if (std::abs(glm::dot(axis, toward)) > kFlatSideSine) return;
    const dvec3 shift = double(capsule.radius) * across;
    setSegment(f, a + shift, b + shift);
}

/// A cylinder's side segment when |toward_perp| h > r |toward_axis| (Jolt's CylinderShape rule),
/// else its cap facing `toward` as a kCylinderCapVertices-gon starting at the rim point farthest
/// along `toward`.
void cylinderFace(const Cylinder& cylinder, const dvec3& toward, SupportingFace& f) {
    const dvec3 a(cylinder.a), b(cylinder.b);
    const double length = glm::length(b - a);
    const dvec3 axis = (b - a) / length; // isValid: length > 0
    const double along = glm::dot(toward, axis);
    const dvec3 acrossRaw = glm::cross(glm::cross(axis, toward), axis);
    const double across = glm::length(acrossRaw);
    const double radius = cylinder.radius;
    if (across * (0.5 * length) > radius * std::abs(along)) {
        setSegment(f, a + (radius / across) * acrossRaw, b + (radius / across) * acrossRaw);
        return;
    }
    if (!(radius > 0.0)) return; // a segment standing on its end: a point
    // The polygon's first corner: the rim point farthest along `toward`, or any rim point when
    // `toward` is along the axis (a cylinder standing flat: every rim point is as deep).
    dvec3 x = across > 1e-9 ? acrossRaw / across : dvec3(0.0);
    if (x == dvec3(0.0)) {
        const int k = std::abs(axis.x) < 0.6 ? 0 : (std::abs(axis.y) < 0.6 ? 1 : 2);
        dvec3 e(0.0);
        e[k] = 1.0;
        x = glm::normalize(glm::cross(glm::cross(axis, e), axis));
    }
    const dvec3 normal = along < 0.0 ? -axis : axis;
    const dvec3 y = glm::cross(normal, x);
    const dvec3 centre = along < 0.0 ? a : b;
    for (int i = 0; i < kCylinderCapVertices; ++i) {
        const double angle = 2.0 * std::numbers::pi * double(i) / double(kCylinderCapVertices);
        f.points[std::size_t(i)] = centre + radius * (std::cos(angle) * x + std::sin(angle) * y);
    }
    f.count = kCylinderCapVertices;
    f.normal = normal;
}

/// The hull face whose world outward normal is nearest `toward` (all faces scanned, as Jolt's
/// ConvexHullShape::GetSupportingFace). Normals map through det(M) M^-T = [c1 x c2, c2 x c0,
/// c0 x c1], with det's sign: defined for any orientation, a scale or a mirror included. A hull
/// without faces, a flat orientation or broken face links give a point.
void hullFace(const PosedHull& posed, const dvec3& toward, SupportingFace& f) {
    const ConvexHull& hull = *posed.hull;
    const glm::dmat3 m(posed.orientation);
    const double det = glm::dot(m[0], glm::cross(m[1], m[2]));
    if (hull.faces.empty() || !(std::abs(det) > 0.0)) return;
    const glm::dmat3 cofactor(glm::cross(m[1], m[2]), glm::cross(m[2], m[0]), glm::cross(m[0], m[1]));
    const double handedness = det < 0.0 ? -1.0 : 1.0;
    std::size_t best = 0;
    double bestAlign = -INFINITY;
    dvec3 bestNormal(0.0);
    for (std::size_t i = 0; i < hull.faces.size(); ++i) {
        const dvec3 normal = unitOrZero(handedness * (cofactor * dvec3(hull.faces[i].normal)));
        const double align = glm::dot(normal, toward);
        if (align > bestAlign) bestAlign = align, best = i, bestNormal = normal;
    }
    // The loop's length first (every index checked, bounded by the edge count), then its corners,
    // evenly spaced when there are more than kMaxSupportingFaceVertices.
    const std::uint32_t first = hull.faces[best].edge;
    std::size_t loop = 0;
    for (std::uint32_t e = first;; ++loop) {
        if (e >= hull.edges.size() || hull.edges[e].origin >= hull.vertices.size() ||
            loop > hull.edges.size())
            return;
        e = hull.edges[e].next;
        if (e == first) {
            ++loop;
            break;
        }
    }
    if (loop < 3 || bestNormal == dvec3(0.0)) return;
    const std::size_t take = std::min(loop, std::size_t(kMaxSupportingFaceVertices));
    std::size_t taken = 0;
    std::uint32_t e = first;
    for (std::size_t i = 0; i < loop; ++i, e = hull.edges[e].next) {
        if (taken < take && i == taken * loop / take)
            f.points[taken++] = dvec3(posed.position) + m * dvec3(hull.vertices[hull.edges[e].origin]);
    }
    f.count = int(taken);
    f.normal = bestNormal;
}

/// The shape's supporting face toward the other shape (a sphere's is its point).
void supportingFace(const ConvexShape& shape, const dvec3& toward, SupportingFace& f) {
    if (const auto* box = std::get_if<Obb>(&shape))
        boxFace(*box, toward, f);
    else if (const auto* capsule = std::get_if<Capsule>(&shape))
        capsuleFace(*capsule, toward, f);
    else if (const auto* cylinder = std::get_if<Cylinder>(&shape))
        cylinderFace(*cylinder, toward, f);
    else if (const auto* hull = std::get_if<PosedHull>(&shape))
        hullFace(*hull, toward, f);
}

/// Sutherland-Hodgman on a polygon (n >= 3) or a segment (n == 2): the part with
/// dot(x, normal) <= offset. -1 if the output would not fit in kMaxClipped points (not convex).
int clipAgainstPlane(const dvec3* in, int n, const dvec3& normal, double offset, dvec3* out) {
    if (n == 2) {
        const double dp = glm::dot(in[0], normal) - offset, dq = glm::dot(in[1], normal) - offset;
        if (dp > 0.0 && dq > 0.0) return 0;
        out[0] = dp > 0.0 ? in[0] + (dp / (dp - dq)) * (in[1] - in[0]) : in[0];
        out[1] = dq > 0.0 ? in[1] + (dq / (dq - dp)) * (in[0] - in[1]) : in[1];
        return 2;
    }
    int count = 0;
    for (int i = 0; i < n; ++i) {
        const dvec3& p = in[i];
        const dvec3& q = in[(i + 1) % n];
        const double dp = glm::dot(p, normal) - offset, dq = glm::dot(q, normal) - offset;
        if (count + 2 > kMaxClipped) return -1;
        if (dp <= 0.0) out[count++] = p;
        if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) out[count++] = p + (dp / (dp - dq)) * (q - p);
    }
    return count;
}

/// The reference face's plane (a point on it and its unit outward normal) and which shape it is.
struct ReferencePlane {
    dvec3 origin;
    dvec3 normal;
    bool isB;
};

/// Clips the incident face (in `polygon`, n points) against the planes through the reference
/// face's sides along `normal`: its edges' planes for a polygon, its end planes for a segment.
/// Returns the points left (0 when none, -1 on overflow).
template <class Observe>
int clipToReferenceSides(const SupportingFace& ref, const dvec3& normal, dvec3* polygon, int n,
                         Observe& observe) {
    std::array<dvec3, kMaxClipped> scratch;
    const int sides = ref.count >= 3 ? ref.count : 2;
    dvec3 centre(0.0);
    for (int i = 0; i < ref.count; ++i)
        centre += ref.points[std::size_t(i)];
    centre /= double(ref.count);
    for (int i = 0; i < sides && n > 0; ++i) {
        const dvec3& p = ref.points[std::size_t(i)];
        const dvec3& q = ref.points[std::size_t((i + 1) % ref.count)];
        // A polygon's side plane holds the edge and the normal; a segment's end plane at p is
        // perpendicular to it (within the plane across the normal).
        const dvec3 edge = q - p;
        dvec3 side = ref.count >= 3 ? glm::cross(edge, normal) : glm::cross(glm::cross(normal, edge), normal);
        if (glm::dot(side, centre - p) > 0.0) side = -side;
        if (!(glm::length(side) > 1e-12 * glm::length(edge))) continue; // an edge along the normal
        n = clipAgainstPlane(polygon, n, side, glm::dot(side, p), scratch.data());
        for (int k = 0; k < n; ++k)
            polygon[k] = scratch[std::size_t(k)];
        observe.clipped(side, glm::dot(side, p), polygon, n);
    }
    return n;
}

/// Picks the reference face (the polygon more parallel to the normal, A's on a tie; a polygon
/// against a segment; A's of two parallel segments) and its plane. False when the faces give no
/// manifold (a point, crossing segments, a plane along the normal).
bool chooseReference(const SupportingFace& fa, const SupportingFace& fb, const dvec3& normal,
                     ReferencePlane& plane) {
    if (fa.count < 2 || fb.count < 2) return false;
    if (fa.count >= 3 && fb.count >= 3) {
        plane.isB = std::abs(glm::dot(fb.normal, normal)) > std::abs(glm::dot(fa.normal, normal));
    } else if (fa.count >= 3 || fb.count >= 3) {
        plane.isB = fb.count >= 3;
    } else {
        const dvec3 ea = unitOrZero(fa.points[1] - fa.points[0]);
        const dvec3 eb = unitOrZero(fb.points[1] - fb.points[0]);
        if (!(glm::length(glm::cross(ea, eb)) <= kFlatSideSine)) return false;
        plane.isB = false;
    }
    const SupportingFace& ref = plane.isB ? fb : fa;
    const dvec3 toward = plane.isB ? normal : -normal;
    plane.origin = ref.points[0];
    if (ref.count >= 3) {
        plane.normal = ref.normal;
    } else {
        // Jolt's plane through a segment: it holds the segment, and is as square to the normal as can be.
        const dvec3 edge = ref.points[1] - ref.points[0];
        plane.normal = unitOrZero(glm::cross(glm::cross(edge, toward), edge));
    }
    return std::abs(glm::dot(plane.normal, normal)) >= kMinReferenceCosine;
}

/// Which clipped points a manifold keeps: those behind the reference plane or in front of it by
/// at most `reach`, their depth clamped at 0 (`touching`: a contact of shapes that overlap) or
/// kept negative (a speculative contact: the gap, contactConvexConvex with a separation).
struct KeepRule {
    double reach;
    bool clampAtZero;
};

/// The incident face's clipped points carried along the normal onto the reference plane, those
/// the rule keeps with their depth, at B's face. Returns how many.
int keepPointsBehindReference(const dvec3* clipped, int n, const ReferencePlane& plane, const dvec3& normal,
                              KeepRule rule, ContactPoint* points) {
    const double cosine = glm::dot(plane.normal, normal);
    int count = 0;
    for (int i = 0; i < n; ++i) {
        const double depth = glm::dot(plane.normal, plane.origin - clipped[i]) / std::abs(cosine);
        if (depth < -rule.reach) continue;
        const dvec3 onReference = clipped[i] + (cosine < 0.0 ? -depth : depth) * normal;
        const dvec3 onB = plane.isB ? onReference : clipped[i];
        points[count++] = {glm::vec3(onB), float(rule.clampAtZero ? std::max(0.0, depth) : depth)};
    }
    return count;
}

/// The face points of the manifold (count 0 when the faces give none); `normal` becomes the
/// reference face's own when within kSnapCosine of it.
template <class Observe>
int faceContactPoints(const ConvexShape& a, const ConvexShape& b, dvec3& normal, KeepRule rule,
                      ContactPoint* points, Observe& observe) {
    SupportingFace fa, fb;
    supportingFace(a, -normal, fa);
    supportingFace(b, normal, fb);
    observe.faces(fa, fb);
    ReferencePlane plane{};
    if (!chooseReference(fa, fb, normal, plane)) return 0;
    const double cosine = glm::dot(plane.normal, normal);
    const bool snapped = std::abs(cosine) >= kSnapCosine;
    if (snapped) normal = cosine < 0.0 ? -plane.normal : plane.normal;
    observe.reference(plane, normal, snapped);

    const SupportingFace& ref = plane.isB ? fb : fa;
    const SupportingFace& inc = plane.isB ? fa : fb;
    std::array<dvec3, kMaxClipped> clipped;
    for (int i = 0; i < inc.count; ++i)
        clipped[std::size_t(i)] = inc.points[std::size_t(i)];
    const int n = clipToReferenceSides(ref, normal, clipped.data(), inc.count, observe);
    if (n <= 0) return 0;
    const int kept = keepPointsBehindReference(clipped.data(), n, plane, normal, rule, points);
    observe.kept(points, kept);
    return kept;
}

/// contactConvexConvex(a, b) from penetrationConvexConvex(a, b)'s answer `epa`.
template <class Observe>
[[gnu::always_inline]] inline std::optional<Manifold>
contactConvexSteps(const ConvexShape& a, const ConvexShape& b, const EpaResult& epa, Observe& observe,
                   float maxSeparation = 0.0f) {
    if (!epa.overlap) return std::nullopt; // apart, or invalid input
    const auto witness = [&] {
        observe.witness(true);
        return finiteOrNone(singlePoint(epa.normal, epa.pointB, epa.depth));
    };
    const double size = std::max(shapeSize(a), shapeSize(b));
    dvec3 normal(epa.normal);
    std::array<ContactPoint, kMaxClipped + 1> points;
    // Points in front of the reference face count up to the rounding (depth 0), or with their gap
    // up to maxSeparation.
    const KeepRule rule = maxSeparation > 0.0f
                              ? KeepRule{double(maxSeparation) + kTouchingTolerance * size, false}
                              : KeepRule{kTouchingTolerance * size, true};
    int count = faceContactPoints(a, b, normal, rule, points.data(), observe);
    if (count == 0) return witness();
    // The faces can miss the deepest point (a polygon's corner off the rim): EPA's joins them.
    float deepest = 0.0f;
    for (int i = 0; i < count; ++i)
        deepest = std::max(deepest, points[std::size_t(i)].depth);
    if (double(deepest) < double(epa.depth) - kMissedDepthTolerance * size) {
        points[std::size_t(count++)] = {epa.pointB, epa.depth};
        observe.witness(false);
    }
    const auto manifold = finiteOrNone(fromPoints(glm::vec3(normal), points.data(), count));
    return manifold ? manifold : witness();
}

/// fromPoints for depths that may be negative (a speculative manifold's gaps): the manifold's
/// depth is its deepest point's.
inline Manifold fromGapPoints(const glm::vec3& normal, const ContactPoint* points, int n) {
    Manifold m = fromPoints(normal, points, n);
    m.depth = m.points[0].depth;
    for (int i = 1; i < m.count; ++i)
        m.depth = std::max(m.depth, m.points[std::size_t(i)].depth);
    return m;
}

/// contactConvexConvex(a, b, maxSeparation) for shapes that GJK found apart by `gap` (at most
/// maxSeparation): the faces along GJK's normal, their points within maxSeparation of each other
/// kept with their negative depths; the closest points' pair when the faces give none.
template <class Observe>
std::optional<Manifold> speculativeContactSteps(const ConvexShape& a, const ConvexShape& b,
                                                const GjkResult& gjk, float maxSeparation, Observe& observe) {
    const double size = std::max(shapeSize(a), shapeSize(b));
    dvec3 normal(gjk.normal);
    std::array<ContactPoint, kMaxClipped + 1> points;
    const KeepRule rule{double(maxSeparation) + kTouchingTolerance * size, false};
    int count = faceContactPoints(a, b, normal, rule, points.data(), observe);
    float deepest = -INFINITY;
    for (int i = 0; i < count; ++i)
        deepest = std::max(deepest, points[std::size_t(i)].depth);
    // The closest points join the faces' when these miss them (a corner, an edge, a round rim).
    if (count == 0 || double(deepest) < -double(gjk.distance) - kMissedDepthTolerance * size)
        points[std::size_t(count++)] = {gjk.pointB, -gjk.distance};
    return finiteOrNone(fromGapPoints(glm::vec3(normal), points.data(), count));
}

/// contactConvexPlane's points: the shape's supporting face toward the plane (its support point
/// when that is a point), each within maxSeparation of the plane, projected onto it; the support
/// point joins them when they miss the deepest point.
inline std::optional<Manifold> convexPlaneSteps(const ConvexShape& a, const Plane& plane,
                                                float maxSeparation) {
    const dvec3 n = unitOrZero(dvec3(plane.normal));
    if (n == dvec3(0.0)) return std::nullopt;
    const double offset = double(plane.d) / glm::length(dvec3(plane.normal));
    const auto height = [&](const dvec3& p) { return glm::dot(n, p) + offset; };
    const dvec3 deepest(support(a, glm::vec3(-n)));
    if (!(height(deepest) <= double(maxSeparation))) return std::nullopt; // apart, or not finite
    SupportingFace face;
    supportingFace(a, -n, face);
    std::array<ContactPoint, kMaxSupportingFaceVertices + 1> points;
    int count = 0;
    double lowest = INFINITY; // the deepest face point's height
    for (int i = 0; i < face.count && face.count >= 2; ++i) {
        const dvec3& p = face.points[std::size_t(i)];
        const double h = height(p);
        if (h > double(maxSeparation)) continue;
        points[std::size_t(count++)] = {glm::vec3(p - h * n), float(-h)};
        lowest = std::min(lowest, h);
    }
    const double size = shapeSize(a);
    if (count == 0 || lowest > height(deepest) + kMissedDepthTolerance * size) {
        const double h = height(deepest);
        points[std::size_t(count++)] = {glm::vec3(deepest - h * n), float(-h)};
    }
    return finiteOrNone(fromGapPoints(glm::vec3(n), points.data(), count));
}

/// The fast path's observer: every hook does nothing.
struct ContactConvexNoTrace {
    void faces(const SupportingFace&, const SupportingFace&) {}
    void reference(const ReferencePlane&, const dvec3&, bool) {}
    void clipped(const dvec3&, double, const dvec3*, int) {}
    void kept(const ContactPoint*, int) {}
    void witness(bool) {}
};

} // namespace
} // namespace kz::detail
