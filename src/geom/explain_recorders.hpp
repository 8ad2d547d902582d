// Internal to kz_geom: the observers of the queries the lab explains. Each such query is written
// once, as a template on an observer, in an internal header (closest_steps.hpp, contact_steps.hpp,
// contact_obb_steps.hpp, contact_obb_triangle_steps.hpp, sweep_steps.hpp). Its fast function runs
// it with NoTrace, whose hooks are empty and vanish when inlined, so the fast code is what it was
// (each template is always inlined into its one fast caller: left to itself, GCC outlined
// closestPtPointTriangleSteps with worse code, 19% slower sphere-triangle contacts);
// the explain functions (explain_*.cpp, other translation units, so the fast ones are compiled as
// before) run it with a recorder below, which fills the trace structs of explain_contact.hpp. One
// body of code: a trace cannot drift from its query. A hook only copies what the query computed;
// the few numbers a recorder makes for drawing (world axes, corners) never feed back.
#pragma once

#include "closest.hpp"
#include "contact.hpp"
#include "explain_contact.hpp"
#include "explain_sweep.hpp"
#include "obb_pair.hpp"

#include <cmath>
#include <optional>

namespace kz::detail {

/// The fast path's observer: every hook does nothing.
struct NoTrace {
    // closestPtPointTriangle
    template <class... T>
    void canonicalOrder(const T&...) {}
    template <class... T>
    void terms(const T&...) {}
    template <class... T>
    void vertex(const T&...) {}
    template <class... T>
    void sliver(const T&...) {}
    template <class... T>
    void edge(const T&...) {}
    template <class... T>
    void face(const T&...) {}
    // closestPtLinePieces
    template <class... T>
    void setup(const T&...) {}
    template <class... T>
    void s(const T&...) {}
    template <class... T>
    void t(const T&...) {}
    template <class... T>
    void sAgain(const T&...) {}
    // contactSphereSphere, contactSphereObb, contactSphereTriangle, contactObbPlane
    template <class... T>
    void centres(const T&...) {}
    template <class... T>
    void local(const T&...) {}
    template <class... T>
    void outside(const T&...) {}
    template <class... T>
    void exitAxis(const T&...) {}
    template <class... T>
    void away(const T&...) {}
    template <class... T>
    void faceNormal(const T&...) {}
    template <class... T>
    void plane(const T&...) {}
    template <class... T>
    void corner(const T&...) {}
    // contactObbObb
    template <class... T>
    void leastPenetration(const T&...) {}
    template <class... T>
    void edgePair(const T&...) {}
    template <class... T>
    void referenceFace(const T&...) {}
    template <class... T>
    void incidentFace(const T&...) {}
    template <class... T>
    void clipped(const T&...) {}
    template <class... T>
    void kept(const T&...) {}
    template <class... T>
    void deepestCorner(const T&...) {}
    // contactObbTriangle
    template <class... T>
    void boxFrame(const T&...) {}
    template <class... T>
    void separations(const T&...) {}
    template <class... T>
    void choice(const T&...) {}
    template <class... T>
    void feature(const T&...) {}
    // sweepSphereTriangle
    template <class... T>
    void start(const T&...) {}
    template <class... T>
    void candidate(const T&...) {}
    template <class... T>
    void rejected(const T&...) {}
    // sweepSpherePlane, sweepSphereSphere
    template <class... T>
    void approach(const T&...) {}
    template <class... T>
    void linearRoot(const T&...) {}
    template <class... T>
    void quadratic(const T&...) {}
    template <class... T>
    void discriminant(const T&...) {}
    template <class... T>
    void quadraticRoot(const T&...) {}
};

/// closestPtPointTriangleSteps: the canonical order, the d's, the region.
struct PointTriangleRecorder {
    const Triangle& tri; ///< The caller's triangle (the query sorts pointers to its vertices).
    PointTriangleTrace& out;

    void canonicalOrder(const glm::vec3* a, const glm::vec3* b, const glm::vec3* c) {
        const auto index = [&](const glm::vec3* v) { return v == &tri.a ? 0 : v == &tri.b ? 1 : 2; };
        out.order = {index(a), index(b), index(c)};
    }
    void terms(int first, double x, double y) {
        out.d[static_cast<std::size_t>(first)] = x;
        out.d[static_cast<std::size_t>(first + 1)] = y;
        out.dComputed = first + 2;
    }
    void vertex(int k) { out.feature = static_cast<TriangleFeature>(out.order[static_cast<std::size_t>(k)]); }
    void sliver() { out.sliver = true; }
    /// The canonical edge from vertex `from` to `to`, `fraction` of the way: renamed to the caller's
    /// AB (a to b), BC or CA, the fraction turned round when the edge runs the other way.
    void edge(int from, int to, double fraction) {
        const int p = out.order[static_cast<std::size_t>(from)], q = out.order[static_cast<std::size_t>(to)];
        const bool forward = (p + 1) % 3 == q;
        out.feature =
            static_cast<TriangleFeature>(static_cast<int>(TriangleFeature::EdgeAB) + (forward ? p : q));
        out.edgeFraction = forward ? fraction : 1.0 - fraction;
    }
    void face(double scale) {
        out.feature = TriangleFeature::Face;
        out.faceScale = scale;
    }
};

/// closestPtLinePiecesSteps: the case, the dot products, each parameter before and after its clamp.
struct LinePiecesRecorder {
    const LinePiece& first;
    const LinePiece& second;
    LinePiecesTrace& out;

    void setup(LinePiecesCase kind, float a, float b, float c, float e, float f, float denom) {
        out.valid = true;
        out.kind = kind;
        out.a = a, out.b = b, out.c = c, out.e = e, out.f = f, out.denom = denom;
    }
    void s(float raw, float clamped) {
        out.sUnclamped = raw;
        out.sFirst = clamped;
        out.sClamped = raw < first.lo || raw > first.hi;
    }
    void t(float raw, float clamped) {
        out.tUnclamped = raw;
        out.tFinal = clamped;
        out.tClamped = raw < second.lo || raw > second.hi;
    }
    void sAgain(float raw, float clamped) {
        out.sAgainUnclamped = raw;
        out.sAgain = clamped;
        out.sAgainClamped = raw < first.lo || raw > first.hi;
    }
};

/// contactSphereObbSteps: the centre in the box frame, the clamped point, the exit face.
struct SphereObbRecorder {
    SphereObbTrace& out;

    void local(const glm::vec3& centreInBox, const glm::vec3& excess) {
        out.centreInBox = centreInBox;
        out.excess = excess;
        const int outside = (excess.x > 0.0f) + (excess.y > 0.0f) + (excess.z > 0.0f);
        out.region = static_cast<BoxRegion>(outside);
    }
    void outside(const glm::vec3& closest, float distSq) {
        out.closest = closest;
        out.distance = std::sqrt(distSq);
    }
    void exitAxis(int axis) { out.exitAxis = axis; }
};

/// contactSphereTriangleSteps: the closest point's trace, the distance, the normal's fallback.
struct SphereTriangleRecorder {
    const Sphere& sphere;
    PointTriangleRecorder point; ///< The closest point's recorder .
    SphereTriangleTrace& out;

    void away(const glm::vec3& closest, float distSq) {
        out.closestPoint.closest = closest;
        out.distance = std::sqrt(distSq);
        out.overlap = !(distSq > sphere.radius * sphere.radius); // the query's own test
    }
    void faceNormal() { out.faceNormal = true; }
};

/// The sphere-triangle contact's closest point, run with the point recorder (explain_contact.cpp).
glm::vec3 closestPointOf(const glm::vec3& p, const Triangle& tri, SphereTriangleRecorder& recorder);

/// contactObbPlaneSteps: the unit plane and every corner's signed distance.
/// contactSphereSphereSteps: the centres' offset and the radii.
struct SphereSphereRecorder {
    SphereSphereTrace& out;

    void centres(const glm::vec3& offset, float radiusSum, float distanceSq) {
        out.offset = offset;
        out.radiusSum = radiusSum;
        out.distanceSq = distanceSq;
    }
};

struct ObbPlaneRecorder {
    ObbPlaneTrace& out;
    int corners = 0;

    void plane(const glm::vec3& normal, float d) {
        out.normal = normal;
        out.d = d;
    }
    void corner(const glm::vec3& corner, float distance) {
        out.corners[static_cast<std::size_t>(corners)] = corner;
        out.distance[static_cast<std::size_t>(corners)] = distance;
        out.touchingCount += distance <= 0.0f;
        ++corners;
    }
};

/// contactObbObbSteps: the least penetrated axes, then the edge pair or the face clipping.
struct ObbObbRecorder {
    ObbObbTrace& out;

    void leastPenetration(const LeastPenetration& l, bool useFaceB, bool tryEdge, float absolute) {
        out.leastFaceA = l.faceAIndex;
        out.leastFaceB = 3 + l.faceBIndex;
        out.leastEdge = l.edge > -INFINITY ? 6 + 3 * l.edgeI + l.edgeJ : -1;
        out.preferenceTolerance = absolute;
        out.manifold.triedEdge = tryEdge;
        out.leastPenetrationAxis = tryEdge ? out.leastEdge : useFaceB ? out.leastFaceB : out.leastFaceA;
    }
    void edgePair(const glm::vec3& a0, const glm::vec3& a1, const glm::vec3& b0, const glm::vec3& b1,
                  const std::optional<ClosestPoints>& closest) {
        out.manifold.segmentA = {a0, a1};
        out.manifold.segmentB = {b0, b1};
        out.manifold.edgeClosest = closest;
        out.manifold.usedEdge = closest.has_value();
    }
    void referenceFace(bool refIsB, int axis, const glm::vec3& normal) {
        out.leastPenetrationAxis = refIsB ? 3 + axis : axis; // also after a failed edge pair
        out.manifold.referenceBox = refIsB ? 1 : 0;
        out.manifold.referenceAxis = axis;
        out.manifold.referenceNormal = normal;
    }
    void incidentFace(int axis, const glm::vec3& normal, const glm::vec3* polygon,
                      const glm::vec3& refCenter) {
        out.manifold.incidentAxis = axis;
        out.manifold.incidentNormal = normal;
        for (std::size_t i = 0; i < 4; ++i)
            out.manifold.incidentFace[i] = polygon[i] + refCenter;
    }
    void clipped(const glm::vec3* polygon, int n, const glm::vec3& refCenter) {
        out.manifold.clippedCount = n;
        for (int i = 0; i < n; ++i)
            out.manifold.clipped[static_cast<std::size_t>(i)] = polygon[i] + refCenter;
    }
    void kept(const ContactPoint* points, int count) {
        out.manifold.keptCount = count;
        for (int i = 0; i < count; ++i)
            out.manifold.kept[static_cast<std::size_t>(i)] = points[i];
    }
    void deepestCorner() { out.manifold.deepestCorner = true; }
};

/// contactObbTriangleSteps: the triangle in the box frame, the 13 separations, the features tried.
struct ObbTriangleRecorder {
    const Obb& box;
    ObbTriangleTrace& out;
    glm::vec3 p[3]{}, edges[3]{}, normal{0.0f}; ///< The triangle in the box frame.

    void boxFrame(const glm::vec3* points, const glm::vec3* edgeVectors, const glm::vec3& unitNormal) {
        out.valid = true;
        for (int i = 0; i < 3; ++i)
            p[i] = points[i], edges[i] = edgeVectors[i];
        normal = unitNormal;
    }
    void separations(const float* gap, float largest);
    void choice(int face, int edgeBox, int edgeTri, bool useBoxFace, bool useEdge,
                const ObbTriangleFeature* order) {
        for (std::size_t i = 0; i < 3; ++i)
            out.order[i] = order[i];
        out.leastBoxFace = face;
        const bool anyEdge =
            out.axes[static_cast<std::size_t>(4 + 3 * edgeBox + edgeTri)].separation > -INFINITY;
        out.leastEdgeBoxAxis = anyEdge ? edgeBox : -1;
        out.leastEdgeTriangleEdge = anyEdge ? edgeTri : -1;
        out.preferBoxFace = useBoxFace;
        out.preferEdge = useEdge;
    }
    void feature(int slot, ObbTriangleFeature, int count) {
        out.pointCount[static_cast<std::size_t>(slot)] = count;
    }
};

/// sweepSphereTriangleSteps: the start, then each feature's candidate or why it has none.
struct SphereTriangleSweepRecorder {
    SphereTriangleSweepTrace& out;

    void start(float distSq, float radius) {
        out.valid = true;
        out.startDistance = std::sqrt(distSq);
        out.initialOverlap = distSq <= radius * radius; // the query's own test
        if (out.initialOverlap) out.winner = SweepFeature::InitialOverlap;
    }
    void face(const glm::vec3& normal, float height) {
        out.faceNormal = normal;
        out.height = height;
    }
    SweepCandidate& slot(SweepFeature feature, int index) {
        const auto i = static_cast<std::size_t>(index);
        return feature == SweepFeature::Face   ? out.face
               : feature == SweepFeature::Edge ? out.edges[i]
                                               : out.corners[i];
    }
    void candidate(SweepFeature feature, int index, float t, bool inRange, bool earlier) {
        slot(feature, index) = {!inRange  ? SweepCandidateStatus::OutOfRange
                                : earlier ? SweepCandidateStatus::BestSoFar
                                          : SweepCandidateStatus::NotEarlier,
                                t};
        if (inRange && earlier)
            out.winner = feature, out.winnerIndex = feature == SweepFeature::Face ? -1 : index;
    }
    void rejected(SweepFeature feature, int index, SweepCandidateStatus why, float t) {
        slot(feature, index) = {why, t};
    }
};

/// sweepSpherePlaneSteps: the closing speed, the start distance and the root.
struct SpherePlaneSweepRecorder {
    SpherePlaneSweepTrace& out;

    void approach(float speed) {
        out.approach = speed;
        out.end = speed > 0.0f ? SweepRootEnd::Root : SweepRootEnd::NotApproaching;
    }
    void linearRoot(float distance, float root) {
        out.distance = distance;
        out.root = root;
        // The query's own tests, in its order: beyond tMax, else clamped at 0.
        out.end = !(root <= out.tMax) ? SweepRootEnd::BeyondTMax
                  : root < 0.0f       ? SweepRootEnd::AlreadyWithin
                                      : SweepRootEnd::Root;
    }
};

/// sweepSphereSphereSteps: the relative motion, the quadratic's terms and the root.
struct SphereSphereSweepRecorder {
    SphereSphereSweepTrace& out;

    void approach(const glm::vec3& offset, const glm::vec3& relativeVelocity, float reach, float b) {
        out.offset = offset;
        out.relativeVelocity = relativeVelocity;
        out.reach = reach;
        out.b = b;
        out.end = b < 0.0f ? SweepRootEnd::Root : SweepRootEnd::NotApproaching;
    }
    void quadratic(float a, float c) {
        out.a = a;
        out.c = c;
        if (c <= 0.0f) out.end = SweepRootEnd::AlreadyWithin;
    }
    void discriminant(float d) {
        out.discriminant = d;
        if (d < 0.0f) out.end = SweepRootEnd::Misses;
    }
    void quadraticRoot(float root) {
        out.root = root;
        if (!(root <= out.tMax)) out.end = SweepRootEnd::BeyondTMax;
    }
};

} // namespace kz::detail
