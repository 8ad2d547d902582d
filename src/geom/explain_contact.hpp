// The query lab's traces: each explain function returns a query's intermediate steps as plain
// structs beside its result. Each runs the query's own code, a template with an observer whose
// fast-path instance does nothing (so the fast path compiles as before), and its result is the
// fast query's, bit for bit. Contacts here; closest points in explain_closest.hpp, the sphere
// sweep in explain_sweep.hpp, the boxes' conservative advancement in physics/explain_advancement.hpp.
#pragma once

#include "contact.hpp"
#include "explain_closest.hpp" // IWYU pragma: export
#include "explain_sweep.hpp"   // IWYU pragma: export
#include "types.hpp"

#include <array>
#include <optional>

namespace kz {

// ------------------------------------------------------------------ box against box

/// The kind of one of the 15 separating axes of two boxes (Ericson 4.4.1).
enum class SatAxisKind {
    FaceA, ///< A face normal of box A: axes 0-2 are a.axes[0..2].
    FaceB, ///< A face normal of box B: axes 3-5 are b.axes[0..2].
    Edge,  ///< a.axes[i] x b.axes[j]: axes 6-14, index 6 + 3 i + j (i major).
};

/// One separating axis, with the numbers testObbObb compares on it.
struct SatAxis {
    SatAxisKind kind; ///< Which kind (fixed by the index).
    /// Unit, world frame, turned toward B (dot(axis, cB - cA) >= 0); zero when degenerate.
    glm::vec3 axis;
    /// A's projected radius: sum_k a.half[k] |a_k . axis|, with testObbObb's padding of every
    /// |R_ij| by 1e-6 (so up to 1e-6 times the sum of the half extents above the exact radius).
    /// For an edge axis, the unnormalised number over |a_i x b_j| (from R's two other entries in
    /// row j, which keep their digits near parallel, where contactObbObb's own sqrt(1 - R_ij^2),
    /// used to pick its edge, can be off by several percent).
    float radiusA;
    float radiusB;  ///< B's projected radius, likewise.
    float distance; ///< |axis . (cB - cA)| (for an edge, the unnormalised one over its length).
    /// distance - radiusA - radiusB as testObbObb rounds it (for an edge, its unnormalised
    /// separation over the axis's length): > 0 means this axis separates the boxes. Within
    /// rounding of distance - radiusA - radiusB.
    float separation;
    /// Edge axes only: the edges are within about 0.06 degrees of parallel (|a_i x b_j| < 1e-3),
    /// so the cross product gives no usable direction. contactObbObb never takes such an axis for
    /// its normal; testObbObb still tests it (its padding keeps it from a false separation). The
    /// axis is then zero and radiusA, radiusB, distance and separation are the unnormalised
    /// numbers (their sign is still the test's verdict).
    bool degenerate;
};

/// How contactObbObb built its manifold from the axis of least penetration.
struct ObbManifoldTrace {
    /// The edge axis won the preference test: the contact is the closest points of the two edges
    /// deepest along it (segmentA, segmentB, edgeClosest).
    bool triedEdge;
    bool usedEdge; ///< triedEdge and those closest points existed; else the face steps below ran.
    std::array<glm::vec3, 2> segmentA;        ///< Edge: A's edge, world ends (zero unless triedEdge).
    std::array<glm::vec3, 2> segmentB;        ///< Edge: B's edge, world ends (zero unless triedEdge).
    std::optional<ClosestPoints> edgeClosest; ///< Edge: closestPtLinePieces of the two segments.

    int referenceBox;          ///< Face: 0 when A holds the reference face, 1 when B does; -1 for an edge.
    int referenceAxis;         ///< Face: the reference face's axis in its box (0-2); -1 for an edge.
    glm::vec3 referenceNormal; ///< Face: its outward normal (world), toward the incident box.
    int incidentAxis;          ///< Face: the other box's axis most parallel to referenceNormal (0-2), or -1.
    glm::vec3 incidentNormal; ///< Face: the incident face's outward normal (world), toward the reference box.
    std::array<glm::vec3, 4> incidentFace; ///< Face: the incident face's corners (world), before clipping.
    /// Face: the incident face clipped to the reference face's four side planes
    /// (Sutherland-Hodgman), world; clippedCount used (0 to 8).
    std::array<glm::vec3, 8> clipped;
    int clippedCount;
    /// Face: the clipped points at or below the reference face, on B's surface (projected onto
    /// B's face when B is the reference), each with its depth; keptCount used (0 to 8). More than
    /// 4 are reduced to 4 (the deepest, then the widest spread) in the manifold.
    std::array<ContactPoint, 8> kept;
    int keptCount;
    /// Face: rounding clipped every point away (a barely touching pair): the manifold is the
    /// incident box's corner deepest along the reference normal.
    bool deepestCorner;
};

/// testObbObb and contactObbObb step by step.
struct ObbObbTrace {
    bool valid; ///< Both boxes valid (isValid); when false nothing else is set and overlap is false.
    /// The 15 axes: faces of A (0-2), faces of B (3-5), edges a_i x b_j (6 + 3 i + j).
    std::array<SatAxis, 15> axes;
    /// The first axis in index order whose separation is > 0 (the one testObbObb stops at), or
    /// -1 when none is.
    int separatingAxis;
    bool overlap; ///< testObbObb(a, b): valid and no separating axis.
    /// Overlap: the least penetrated axis of each kind (the largest separation; for edges over the
    /// non-degenerate axes only, -1 when every edge axis is degenerate); else -1.
    int leastFaceA, leastFaceB, leastEdge;
    /// Overlap: the absolute part of contactObbObb's preference, 0.005 times the largest half
    /// extent: face B's axis wins over face A's only when its separation exceeds 0.95 times
    /// A's plus this, and the edge over the faces likewise. 0 when not overlapping.
    float preferenceTolerance;
    /// Overlap: the axis the manifold's normal comes from (contactObbObb's choice); -1 otherwise.
    int leastPenetrationAxis;
    ObbManifoldTrace manifold;       ///< Overlap: how the manifold was built; zero otherwise.
    std::optional<Manifold> contact; ///< contactObbObb(a, b), bit for bit.
};

/// testObbObb(a, b) and contactObbObb(a, b) with their steps.
ObbObbTrace explainObbObb(const Obb& a, const Obb& b);

// ------------------------------------------------------------------ sphere against sphere

/// contactSphereSphere step by step: the centre line is the only axis that can separate two
/// spheres, and on it their intervals are the radii about the centres.
struct SphereSphereTrace {
    bool valid;       ///< Two valid spheres; when false nothing else is set.
    glm::vec3 offset; ///< centre_a - centre_b: the axis, from B toward A.
    float distanceSq; ///< |offset|^2, which the query compares with radiusSum^2 (no root).
    float radiusSum;  ///< radius_a + radius_b.
    float distance;   ///< |offset| (sqrt of distanceSq), for the panel.
    float separation; ///< distance - radiusSum: > 0 apart, <= 0 the penetration depth negated.
    bool overlap;     ///< distanceSq <= radiusSum^2: there is a contact (testSphereSphere's verdict).
    std::optional<Manifold> contact; ///< contactSphereSphere(a, b), bit for bit.
};

/// contactSphereSphere(a, b) with its steps.
SphereSphereTrace explainSphereSphere(const Sphere& a, const Sphere& b);

// ------------------------------------------------------------------ box against plane

/// contactObbPlane step by step: every corner's signed distance.
struct ObbPlaneTrace {
    bool valid;                       ///< A valid box and plane; when false nothing else is set.
    glm::vec3 normal;                 ///< The plane's normal made unit (the query divides by its length).
    float d;                          ///< The plane's d over that length.
    std::array<glm::vec3, 8> corners; ///< The box's corners (bit k of the index: +half on axis k).
    std::array<float, 8> distance;    ///< Each corner's signed distance, dot(normal, corner) + d.
    /// The corners with distance <= 0 (behind or on the plane); the manifold keeps the deepest
    /// four of them, each projected onto the plane.
    int touchingCount;
    std::optional<Manifold> contact; ///< contactObbPlane(a, b), bit for bit.
};

/// contactObbPlane(a, b) with its steps.
ObbPlaneTrace explainObbPlane(const Obb& a, const Plane& b);

// ------------------------------------------------------------------ sphere against box

/// Where a point lies against a box: how many of the box's slabs it is outside of.
enum class BoxRegion {
    Inside, ///< Within every slab (on the surface counts as inside).
    Face,   ///< Outside one slab: the closest point is on a face.
    Edge,   ///< Outside two: on an edge.
    Vertex, ///< Outside all three: a corner.
};

/// contactSphereObb step by step (Ericson 5.1.4).
struct SphereObbTrace {
    bool valid;            ///< A valid sphere and box; when false nothing else is set.
    glm::vec3 centreInBox; ///< The sphere centre in the box frame: dot(c - box.center, axis_k).
    glm::vec3 excess;      ///< |centreInBox| - half: > 0 on the axes where the centre is outside.
    BoxRegion region;      ///< How many components of excess are > 0.
    glm::vec3 closest;     ///< Outside: closestPtPointObb(c, box), the centre clamped to the box.
                           ///< Inside: the centre itself.
    float distance;        ///< Outside: |c - closest|; inside: 0.
    /// Inside (or outside by less than rounding, closest == centre): the axis (0-2) of the face
    /// nearest the centre (the largest excess), through which the sphere is pushed out; else -1.
    int exitAxis;
    bool overlap;                    ///< Whether contactSphereObb found a contact.
    std::optional<Manifold> contact; ///< contactSphereObb(a, b), bit for bit.
};

/// contactSphereObb(a, b) with its steps.
SphereObbTrace explainSphereObb(const Sphere& a, const Obb& b);

// ------------------------------------------------------------------ sphere against triangle

/// contactSphereTriangle step by step.
struct SphereTriangleTrace {
    bool valid;                      ///< A valid sphere and triangle; when false nothing else is set.
    PointTriangleTrace closestPoint; ///< How the triangle's point closest to the centre was found.
    float distance;                  ///< |c - closest| (the square root of its squared length).
    bool overlap;                    ///< |c - closest|^2 <= r^2 (as the query compares): there is a contact.
    /// The centre lies on the triangle (distance 0, or a direction that overflows): the normal
    /// is the face normal (b - a) x (c - a) normalised instead of (c - closest) / distance.
    bool faceNormal;
    std::optional<Manifold> contact; ///< contactSphereTriangle(a, b), bit for bit.
};

/// contactSphereTriangle(a, b) with its steps.
SphereTriangleTrace explainSphereTriangle(const Sphere& a, const Triangle& b);

// ------------------------------------------------------------------ box against triangle

/// The kind of one of the 13 separating axes of a box and a triangle.
enum class ObbTriangleAxisKind {
    TriangleNormal, ///< Axis 0: the triangle's unit normal.
    BoxFace,        ///< Axes 1-3: the box's axes 0-2.
    Edge,           ///< Axes 4-12: box axis k x triangle edge j (edge j from vertex j to j + 1),
                    ///< index 4 + 3 k + j.
};

/// The feature contactObbTriangle builds its points from.
enum class ObbTriangleFeature { TriangleFace, BoxFace, Edge };

/// One separating axis of a box and a triangle.
struct ObbTriangleAxis {
    ObbTriangleAxisKind kind; ///< Which kind (fixed by the index).
    /// Unit, world frame, the way the box leaves along it (from the triangle toward the box);
    /// zero when skipped.
    glm::vec3 axis;
    /// The box's projected radius on the unit axis, and the triangle's interval on it measured
    /// from the box centre, computed here for drawing (float): the triangle lies toward the
    /// negative side, and the separation is the query's own, -triangleMax - boxRadius up to
    /// rounding. 0 when skipped.
    float boxRadius, triangleMin, triangleMax;
    /// The query's separation over the axis (in the box frame, over the axis's length): > 0 means
    /// it separates them. -INFINITY when skipped.
    float separation;
    /// Edge axes only: the box axis and the triangle edge are within sin 1e-5 of parallel, so
    /// the query skips the axis (the other axes decide those poses).
    bool skipped;
};

/// contactObbTriangle and separationObbTriangle step by step.
struct ObbTriangleTrace {
    /// A valid box and triangle whose normal stays finite and non-zero in the box's frame; when
    /// false nothing else is set, separation is +INFINITY and there is no contact.
    bool valid;
    std::array<ObbTriangleAxis, 13> axes; ///< Triangle normal (0), box faces (1-3), edges (4-12).
    /// separationObbTriangle(a, b), bit for bit: the largest axis separation (+INFINITY when not
    /// valid or on an overflow to NaN).
    float separation;
    int largestAxis; ///< The axis with that largest separation (the first on a tie), -1 when not valid.
    bool overlap;    ///< separation <= 0: contactObbTriangle looks for a manifold.
    /// Overlap: the box face axis (0-2) and the edge pair (box axis, triangle edge) with the
    /// largest separations of their kinds; edge -1, -1 when every edge axis is skipped.
    int leastBoxFace, leastEdgeBoxAxis, leastEdgeTriangleEdge;
    /// Overlap: the preference, as in contactObbObb: a box face over the triangle normal only when
    /// it penetrates clearly less, an edge over that face likewise.
    bool preferBoxFace, preferEdge;
    /// Overlap: the features in the order tried: the preferred one first; the next ones are tried
    /// only when clipping left the earlier ones without points.
    std::array<ObbTriangleFeature, 3> order;
    /// Overlap: the points each feature of `order` gave (-1 for one not tried, 0 for none).
    std::array<int, 3> pointCount;
    std::optional<Manifold> contact; ///< contactObbTriangle(a, b), bit for bit.
};

/// contactObbTriangle(a, b) and separationObbTriangle(a, b) with their steps.
ObbTriangleTrace explainObbTriangle(const Obb& a, const Triangle& b);

} // namespace kz
