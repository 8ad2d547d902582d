// Traces of the sweeps. sweepSphereTriangle: the candidate time of every feature of the triangle
// grown by the radius (its face, three edge cylinders, three corner spheres), why a feature gave
// none, and which one won. sweepSpherePlane and sweepSphereSphere (the physics' exact times of
// impact): the linear or quadratic equation with its terms and the root taken. Each explain
// function runs the query's own code (one template with an observer), so its time is the fast
// query's, bit for bit. Part of the query lab (explain_contact.hpp) and of the impact log's
// "Why here?" (physics/explain_advancement.hpp).
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

/// How a root sweep (sphere against plane or sphere) ended.
enum class SweepRootEnd {
    NotApproaching, ///< Not closing in (plane: n . v >= 0; spheres: dp . dv >= 0): no time.
    AlreadyWithin,  ///< Within the gap already (and approaching): time 0.
    Misses,         ///< Spheres: the paths pass farther apart than the reach (discriminant < 0): no time.
    BeyondTMax,     ///< The root lies after tMax: no time.
    Root,           ///< The root is the time.
};

/// How sweepSpherePlane found when the sphere's surface comes within `gap` of the plane: its
/// signed distance d(t) = d0 - approach t is linear in t, so t = (d0 - gap) / approach.
struct SpherePlaneSweepTrace {
    float approach; ///< -n . velocity: how fast the surface closes on the plane (m/s; <= 0: not approaching).
    float distance; ///< d0: the centre's signed distance from the plane less the radius (m); 0 when not
                    ///< approaching (the query stops before it).
    float gap;      ///< The gap asked for (m).
    float tMax;     ///< The time limit asked for.
    float root;     ///< (d0 - gap) / approach, before the clamp at 0; 0 when not approaching.
    SweepRootEnd end;
    std::optional<float> time; ///< sweepSpherePlane(s, velocity, plane, tMax, gap), bit for bit.
};

/// How sweepSphereSphere found when two moving spheres come within `gap`: with dp = cA - cB and
/// dv = vA - vB, |dp + dv t|^2 = reach^2 is a t^2 + 2 b t + c = 0, whose smaller root is taken as
/// c / (-b + sqrt(b^2 - a c)) so that it does not cancel (Ericson 5.5.5).
struct SphereSphereSweepTrace {
    glm::vec3 offset;           ///< dp = centre A - centre B (m).
    glm::vec3 relativeVelocity; ///< dv = velocity A - velocity B (m/s).
    float reach;                ///< rA + rB + gap (m).
    float gap;                  ///< The gap asked for (m).
    float tMax;                 ///< The time limit asked for.
    float a;                    ///< dv . dv; this and the terms below: 0 where the query stopped before them.
    float b;                    ///< dp . dv: < 0 when approaching.
    float c;                    ///< dp . dp - reach^2: <= 0 when within the gap already.
    float discriminant;         ///< b^2 - a c: < 0 when the paths pass each other farther apart.
    float root;                 ///< c / (-b + sqrt(discriminant)).
    SweepRootEnd end;
    std::optional<float> time; ///< sweepSphereSphere(a, vA, b, vB, tMax, gap), bit for bit.
};

/// sweepSpherePlane(s, velocity, plane, tMax, gap) with its steps.
SpherePlaneSweepTrace explainSweepSpherePlane(const Sphere& s, const glm::vec3& velocity, const Plane& plane,
                                              float tMax = INFINITY, float gap = 0.0f);

/// sweepSphereSphere(a, velocityA, b, velocityB, tMax, gap) with its steps.
SphereSphereSweepTrace explainSweepSphereSphere(const Sphere& a, const glm::vec3& velocityA, const Sphere& b,
                                                const glm::vec3& velocityB, float tMax = INFINITY,
                                                float gap = 0.0f);

} // namespace kz
