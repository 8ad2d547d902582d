// Traces of the closest-point queries: how closestPtPointTriangle picks its Voronoi region and how
// closestPtLinePieces clamps its parameters. Each explain function runs the query's own code (one
// template with an observer, the fast path's observer doing nothing), so its result is the fast
// query's, bit for bit. Part of the query lab (explain_contact.hpp has the contact traces).
#pragma once

#include "closest.hpp"
#include "types.hpp"

#include <array>
#include <optional>

namespace kz {

/// A feature of a triangle, named by the caller's vertices a, b, c.
enum class TriangleFeature { VertexA, VertexB, VertexC, EdgeAB, EdgeBC, EdgeCA, Face };

/// How closestPtPointTriangle reached its point (Ericson, Real-Time Collision Detection, 5.1.5).
/// It works in double on the vertices sorted lexicographically (so every vertex order gives the
/// same bits); the d's and parameters below are in that canonical order, the feature in the
/// caller's names.
struct PointTriangleTrace {
    /// The canonical order: order[k] is the caller's vertex (0: a, 1: b, 2: c) the query calls
    /// its k-th; ties keep the caller's order.
    std::array<int, 3> order;
    /// Ericson's d1..d6 (d[0] = d1): with canonical A, B, C and AB = B - A, AC = C - A,
    /// d1 = AB.(P-A), d2 = AC.(P-A), d3 = AB.(P-B), d4 = AC.(P-B), d5 = AB.(P-C), d6 = AC.(P-C).
    /// Only the first dComputed are computed; the rest are 0.
    std::array<double, 6> d;
    int dComputed; ///< 2, 4 or 6: the query stops as soon as a vertex region holds P.
    /// The triangle is a sliver (zero area, or the sine of its largest angle below 1e-5): the
    /// edge tests would divide by about 0, so the point is the closest of its three edges.
    bool sliver;
    TriangleFeature feature; ///< Where the closest point lies (a sliver's: the edge it came from).
    /// On an edge: where along it, 0 at the edge's first named vertex (a of AB, b of BC, c of CA),
    /// 1 at the second. For a sliver it may be 0 or 1 (the segment's clamp). 0 off the edges.
    double edgeFraction;
    /// Face: the point is P - faceScale * n with n = (B - A) x (C - A) in the canonical order,
    /// faceScale = (P - A).n / |n|^2 (Jolt's projection); 0 for the other features.
    double faceScale;
    glm::vec3 closest; ///< closestPtPointTriangle(p, tri), bit for bit.
};

/// closestPtPointTriangle(p, tri) with its steps.
PointTriangleTrace explainClosestPtPointTriangle(const glm::vec3& p, const Triangle& tri);

/// Which case of closestPtLinePieces the two pieces fall in.
enum class LinePiecesCase {
    TwoPoints,     ///< Both directions below FLT_MIN in squared length: two points.
    FirstIsPoint,  ///< The first direction is (about) zero: t = f / e, clamped.
    SecondIsPoint, ///< The second direction is (about) zero: s = -c / a, clamped.
    Parallel,      ///< |d1 x d2|^2 <= kParallelSine^2 |d1|^2 |d2|^2: s starts at 0 (clamped).
    Skew,          ///< The general case: s = (b f - c e) / denom, clamped.
};

/// How closestPtLinePieces clamped its way to the closest pair (Ericson 5.1.9 with [lo, hi] for
/// [0, 1]): s first, then t = (b s + f) / e, then, when t left its range, t clamped and s again.
/// With r = origin1 - origin2: a = d1.d1, b = d1.d2, c = d1.r, e = d2.d2, f = d2.r.
struct LinePiecesTrace {
    bool valid;          ///< Finite origins and directions and lo <= hi on both; false: nothing else is set.
    LinePiecesCase kind; ///< The case; TwoPoints when not valid.
    float a, b, c, e, f; ///< The dot products; b and c are 0 where the case does not compute them.
    float denom;         ///< a e - b^2 = |d1 x d2|^2 (Parallel and Skew only, else 0).
    float sUnclamped;    ///< s before its first clamp: 0 (TwoPoints, FirstIsPoint, Parallel), -c / a, or
                         ///< (b f - c e) / denom.
    float sFirst;        ///< sUnclamped clamped to [lo1, hi1].
    bool sClamped;       ///< sUnclamped lay outside [lo1, hi1] (a NaN counts as inside).
    float tUnclamped;    ///< t before its clamp: 0 (TwoPoints, SecondIsPoint), f / e, or (b sFirst + f) / e.
    float tFinal;        ///< tUnclamped clamped to [lo2, hi2]: the result's t.
    bool tClamped;       ///< tUnclamped lay outside [lo2, hi2], so t was clamped.
    /// Parallel and Skew, when tClamped: s recomputed for the clamped t, (b t - c) / a before its
    /// clamp; 0 otherwise.
    float sAgainUnclamped;
    float sAgain;       ///< sAgainUnclamped clamped to [lo1, hi1]: the result's s (0 when not recomputed).
    bool sAgainClamped; ///< sAgainUnclamped lay outside [lo1, hi1].
    /// closestPtLinePieces(first, second), bit for bit (empty for invalid or non-finite results).
    std::optional<ClosestPoints> result;
};

/// closestPtLinePieces(first, second) with its steps; for two segments pass asSegment(p, q).
LinePiecesTrace explainClosestPtLinePieces(const LinePiece& first, const LinePiece& second);

} // namespace kz
