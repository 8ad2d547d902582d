// Internal to kz_geom: contactObbObb's steps (the least penetrated axes, the edge pair, the
// reference and incident faces, the clipping) written once, as templates on an observer
// (explain_recorders.hpp). contact_obb.cpp runs them with NoTrace, whose hooks vanish, so the fast
// code is what it was; explain_contact.cpp (another translation unit, so the fast one is compiled
// exactly as before) runs them with the lab's recorder.
#pragma once

#include "closest.hpp"
#include "contact.hpp"
#include "contact_detail.hpp"
#include "obb_pair.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace kz::detail {
namespace {

/// Separation along each of the 15 axes (> 0: a separating axis, no contact); keeps the largest
/// of each kind. Empty when an axis separates the boxes.
std::optional<LeastPenetration> findLeastPenetration(const Obb& a, const Obb& b, const ObbPairFrame& f) {
    const glm::vec3 &ea = a.half, &eb = b.half;
    LeastPenetration l;
    for (int i = 0; i < 3; ++i) {
        const float separation = f.separationOnFaceA(ea, eb, i);
        if (separation > 0.0f) return std::nullopt;
        if (separation > l.faceA) l.faceA = separation, l.faceAIndex = i;
    }
    for (int j = 0; j < 3; ++j) {
        const float separation = f.separationOnFaceB(ea, eb, j);
        if (separation > 0.0f) return std::nullopt;
        if (separation > l.faceB) l.faceB = separation, l.faceBIndex = j;
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            const float separation = f.edgeAxis(ea, eb, i, j).separation();
            if (separation > 0.0f) return std::nullopt;
            // |a_i x b_j| = sin(angle); near-parallel edges give no usable axis (the face
            // axes already cover them), so they are not candidates for the contact normal.
            const float axisLength = edgeAxisLength(f, i, j);
            if (axisLength < kMinEdgeAxisLength) continue;
            const float normalised = separation / axisLength;
            if (normalised > l.edge) l.edge = normalised, l.edgeI = i, l.edgeJ = j;
        }
    }
    return l;
}

/// Edge a_i against edge b_j: the closest points of the two edges deepest along the axis; the
/// point on b's edge (not yet checked for finiteness). Empty when the closest points are
/// undefined.
template <class Observe>
std::optional<Manifold> edgeContact(const Obb& a, const Obb& b, const LeastPenetration& l, Observe& observe) {
    // L points from a to b.
    glm::vec3 axis = glm::normalize(glm::cross(a.axes[l.edgeI], b.axes[l.edgeJ]));
    if (glm::dot(axis, b.center - a.center) < 0.0f) axis = -axis;
    glm::vec3 onA = a.center, onB = b.center;
    for (int k = 0; k < 3; ++k) {
        if (k != l.edgeI) onA += a.axes[k] * (a.half[k] * sign(glm::dot(a.axes[k], axis)));
        if (k != l.edgeJ) onB -= b.axes[k] * (b.half[k] * sign(glm::dot(b.axes[k], axis)));
    }
    const glm::vec3 alongA = a.axes[l.edgeI] * a.half[l.edgeI], alongB = b.axes[l.edgeJ] * b.half[l.edgeJ];
    const auto closest =
        closestPtLinePieces(asSegment(onA - alongA, onA + alongA), asSegment(onB - alongB, onB + alongB));
    observe.edgePair(onA - alongA, onA + alongA, onB - alongB, onB + alongB, closest);
    if (!closest) return std::nullopt;
    return singlePoint(-axis, closest->p2, -l.edge);
}

/// The reference face (outward normal toward the other box) of one box and the face of the other
/// (the incident box) most anti-parallel to it.
struct FacePair {
    const Obb& ref;
    const Obb& inc;
    int refAxis;
    glm::vec3 refNormal; ///< Outward normal of the reference face, toward the incident box.
};

/// The incident box's face most anti-parallel to the reference normal.
struct IncidentFace {
    int axis;         ///< The incident box's axis (0-2).
    glm::vec3 normal; ///< Its outward normal, toward the reference box.
};

/// The incident face and its four corners, in coordinates about ref.center.
IncidentFace incidentFace(const FacePair& f, glm::vec3 polygon[4]) {
    const Obb& inc = f.inc;
    int incAxis = 0;
    float bestAlign = -1.0f;
    for (int k = 0; k < 3; ++k) {
        const float align = std::abs(glm::dot(inc.axes[k], f.refNormal));
        if (align > bestAlign) bestAlign = align, incAxis = k;
    }
    const glm::vec3 incNormal = -inc.axes[incAxis] * sign(glm::dot(inc.axes[incAxis], f.refNormal));
    const int u = (incAxis + 1) % 3, v = (incAxis + 2) % 3;
    const glm::vec3 incCenter = inc.center + incNormal * inc.half[incAxis];
    const glm::vec3 du = inc.axes[u] * inc.half[u], dv = inc.axes[v] * inc.half[v];
    polygon[0] = incCenter + du + dv;
    polygon[1] = incCenter - du + dv;
    polygon[2] = incCenter - du - dv;
    polygon[3] = incCenter + du - dv;
    for (int i = 0; i < 4; ++i)
        polygon[i] -= f.ref.center;
    return {incAxis, incNormal};
}

/// Clips the polygon (n points, room for 8) against the four side planes of the reference face
/// (Sutherland-Hodgman); returns the points left.
int clipToReferenceSides(const FacePair& f, glm::vec3 polygon[8], int n) {
    glm::vec3 scratch[8];
    for (int k = 0; k < 3 && n > 0; ++k) {
        if (k == f.refAxis) continue;
        n = clipPolygon(polygon, n, f.ref.axes[k], f.ref.half[k], scratch);
        n = clipPolygon(scratch, n, -f.ref.axes[k], f.ref.half[k], polygon);
    }
    return n;
}

/// The clipped points at or below the reference face, on b's surface: on the incident face when
/// b is incident, else projected onto b's reference face.
int keepPointsBelowReference(const FacePair& f, bool refIsB, const glm::vec3* polygon, int n,
                             ContactPoint points[8]) {
    int count = 0;
    for (int i = 0; i < n; ++i) {
        const float separation = glm::dot(polygon[i], f.refNormal) - f.ref.half[f.refAxis];
        if (separation > 0.0f) continue;
        const glm::vec3 world = polygon[i] + f.ref.center;
        points[count++] = {refIsB ? world - separation * f.refNormal : world, -separation};
    }
    return count;
}

/// Rounding can clip every point away on a barely touching pair: the incident box's corner
/// deepest along the reference normal.
Manifold deepestIncidentCorner(const FacePair& f, bool refIsB, const glm::vec3& normal) {
    const Obb& inc = f.inc;
    glm::vec3 corner = inc.center;
    for (int k = 0; k < 3; ++k)
        corner -= inc.axes[k] * (inc.half[k] * sign(glm::dot(inc.axes[k], f.refNormal)));
    const float separation = glm::dot(corner - f.ref.center, f.refNormal) - f.ref.half[f.refAxis];
    const float depth = std::max(0.0f, -separation);
    return singlePoint(normal, refIsB ? corner - separation * f.refNormal : corner, depth);
}

/// Face contact: the incident face clipped to the reference face's sides, its points below it.
template <class Observe>
std::optional<Manifold> faceContact(const Obb& a, const Obb& b, const LeastPenetration& l, bool useFaceB,
                                    Observe& observe) {
    const Obb& ref = useFaceB ? b : a;
    const Obb& inc = useFaceB ? a : b;
    const int refAxis = useFaceB ? l.faceBIndex : l.faceAIndex;
    const glm::vec3 refToInc = inc.center - ref.center;
    const FacePair f{ref, inc, refAxis, ref.axes[refAxis] * sign(glm::dot(refToInc, ref.axes[refAxis]))};
    observe.referenceFace(useFaceB, refAxis, f.refNormal);

    glm::vec3 polygon[8];
    const IncidentFace incident = incidentFace(f, polygon);
    observe.incidentFace(incident.axis, incident.normal, polygon, ref.center);
    const int n = clipToReferenceSides(f, polygon, 4);
    observe.clipped(polygon, n, ref.center);
    ContactPoint points[8];
    const int count = keepPointsBelowReference(f, useFaceB, polygon, n, points);
    observe.kept(points, count);
    const glm::vec3 normal = useFaceB ? f.refNormal : -f.refNormal; // from b toward a
    if (count == 0) {
        observe.deepestCorner();
        return finiteOrNone(deepestIncidentCorner(f, useFaceB, normal));
    }
    return finiteOrNone(fromPoints(normal, points, count));
}

template <class Observe>
[[gnu::always_inline]] inline std::optional<Manifold> contactObbObbSteps(const Obb& a, const Obb& b,
                                                                         Observe& observe) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const auto least = findLeastPenetration(a, b, obbPairFrame(a, b, kObbPairPadding));
    if (!least) return std::nullopt;

    // Prefer a's faces, then b's, then edges, unless the other clearly penetrates less
    // (Box2D's relative and absolute tolerances): this keeps manifolds stable frame to frame.
    constexpr float kRelative = 0.95f;
    const glm::vec3 &ea = a.half, &eb = b.half;
    const float absolute = 0.005f * std::max({ea.x, ea.y, ea.z, eb.x, eb.y, eb.z});
    const bool useFaceB = least->faceB > kRelative * least->faceA + absolute;
    const float faceSeparation = useFaceB ? least->faceB : least->faceA;
    const bool tryEdge = least->edge > kRelative * faceSeparation + absolute;
    observe.leastPenetration(*least, useFaceB, tryEdge, absolute);
    if (tryEdge) {
        if (const auto edge = edgeContact(a, b, *least, observe)) return finiteOrNone(*edge);
    }
    return faceContact(a, b, *least, useFaceB, observe);
}

} // namespace
} // namespace kz::detail
