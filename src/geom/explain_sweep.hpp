// Trace of sweepSphereTriangle: the candidate time of every feature of the triangle grown by the
// radius (its face, three edge cylinders, three corner spheres), why a feature gave none, and which
// one won. explainSweepSphereTriangle runs the query's own code (one template with an observer), so
// its time is the fast query's, bit for bit. Part of the query lab (explain_contact.hpp).
#pragma once

#include "types.hpp"

#include <array>
#include <optional>

namespace kz {

/// What one feature of the grown triangle gave.
enum class SweepCandidateStatus {
    NotTried,      ///< The query stopped before this feature (invalid input or an initial overlap).
    BestSoFar,     ///< A time within [0, tMax], earlier than every candidate tried before it (the
                   ///< winner is the last of these).
    NotEarlier,    ///< A time within [0, tMax], but not earlier than an earlier feature's.
    OutOfRange,    ///< A time, but below 0 or above tMax.
    MovingAway,    ///< Not moving toward the face plane, cylinder or sphere (along or away from
                   ///< it, or not moving at all).
    AlreadyWithin, ///< The centre starts within r of the face plane, or inside the edge's infinite
                   ///< cylinder or the corner's sphere (beyond the edge's ends it can first touch
                   ///< only a corner, which the corner spheres find).
    Parallel,      ///< Edge: the velocity runs along the edge (no motion across its cylinder).
    Misses,        ///< Edge or corner: the path passes by (negative discriminant).
    OffFeature,    ///< A touch of the face plane outside the triangle, or of the edge's cylinder
                   ///< beyond the edge's ends.
};

/// One feature's candidate: its time (when it has one) and what became of it.
struct SweepCandidate {
    SweepCandidateStatus status; ///< NotTried until the query reaches the feature.
    /// The candidate time for BestSoFar, NotEarlier, OutOfRange and OffFeature (NaN possible for
    /// OutOfRange when the numbers overflowed); else 0.
    float t;
};

/// Which feature of the grown triangle gave the time of impact.
enum class SweepFeature {
    None,           ///< No impact by tMax (or invalid input).
    InitialOverlap, ///< The sphere touches or overlaps the triangle already: t = 0.
    Face,           ///< The face plane offset by r.
    Edge,           ///< An edge cylinder (winnerIndex: 0 ab, 1 bc, 2 ca).
    Corner,         ///< A corner sphere (winnerIndex: 0 a, 1 b, 2 c).
};

/// How sweepSphereTriangle found the first time the moving sphere touches the triangle
/// (Ericson, Real-Time Collision Detection, 5.5.7). The candidates are tried in the order face,
/// edges ab, bc, ca, corners a, b, c; a later one wins only when strictly earlier.
struct SphereTriangleSweepTrace {
    bool valid;           ///< radius >= 0, finite centre and velocity, a valid triangle and tMax >= 0.
    float startDistance;  ///< The centre's distance to the triangle at t = 0 (0 when not valid).
    bool initialOverlap;  ///< startDistance <= radius (compared squared, as the query does): t = 0.
    glm::vec3 faceNormal; ///< Unit (b - a) x (c - a); zero when not valid or initially overlapping.
    float height;         ///< Signed distance of the start centre from the face plane along faceNormal.
    SweepCandidate face;  ///< The face plane offset by r toward the centre.
    std::array<SweepCandidate, 3> edges;   ///< The cylinders about ab, bc, ca.
    std::array<SweepCandidate, 3> corners; ///< The spheres about a, b, c.
    SweepFeature winner;                   ///< Which candidate gave the time.
    int winnerIndex;                       ///< The edge or corner that won; -1 for the others.
    std::optional<float> time;             ///< sweepSphereTriangle(s, velocity, tri, tMax), bit for bit.
};

/// sweepSphereTriangle(s, velocity, tri, tMax) with its steps.
SphereTriangleSweepTrace explainSweepSphereTriangle(const Sphere& s, const glm::vec3& velocity,
                                                    const Triangle& tri, float tMax = INFINITY);

} // namespace kz
