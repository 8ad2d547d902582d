// Closest points and distances (Ericson, Real-Time Collision Detection, chapter 5).
#pragma once

#include "types.hpp"

#include <optional>
#include <span>

namespace kz {

/// Closest point to p on the box (p itself when inside). Ericson 5.1.3.
glm::vec3 closestPtPointAabb(const glm::vec3& p, const Aabb& box);
/// Squared distance from p to the box; 0 inside. Ericson 5.1.3.1.
float sqDistPointAabb(const glm::vec3& p, const Aabb& box);
/// Closest point to p on the oriented box (p itself when inside). Ericson 5.1.4.
glm::vec3 closestPtPointObb(const glm::vec3& p, const Obb& box);
/// Squared distance from p to the oriented box; 0 inside. Ericson 5.1.4.1.
float sqDistPointObb(const glm::vec3& p, const Obb& box);

/// Closest point to p on the triangle, vertices and edges included: the projection along the normal
/// when it falls inside, else the closest point on an edge it falls outside of (the regions of
/// Ericson 5.1.5; the face point as in Jolt's ClosestPoint::GetClosestPointOnTriangle). Computed in
/// double, so even a long thin triangle's answer is within about an ulp of its largest coordinate
/// from the exact one, and the same, to the bit, for every order of the vertices. A degenerate
/// triangle (zero area, or all its angles' sines below 1e-5) gives the closest point on its edges,
/// segment or point.
glm::vec3 closestPtPointTriangle(const glm::vec3& p, const Triangle& tri);

/// Closest point to p on the segment [a, b] (a itself when a == b).
glm::vec3 closestPtPointSegment(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b);

/// A parametric line piece x(s) = origin + s * dir with s in [lo, hi]:
/// a line is [-inf, inf], a ray [0, inf], a segment [0, 1] with dir = end - start.
struct LinePiece {
    glm::vec3 origin;
    glm::vec3 dir;
    float lo;
    float hi;
};
inline LinePiece asLine(const glm::vec3& origin, const glm::vec3& dir) {
    return {origin, dir, -INFINITY, INFINITY};
}
inline LinePiece asRay(const Ray& ray) {
    return {ray.origin, ray.dir, 0.0f, INFINITY};
}
inline LinePiece asSegment(const glm::vec3& a, const glm::vec3& b) {
    return {a, b - a, 0.0f, 1.0f};
}

/// The closest pair of points between two line pieces.
struct ClosestPoints {
    float s;       ///< Parameter on the first piece, within [lo, hi].
    float t;       ///< Parameter on the second piece, within [lo, hi].
    glm::vec3 p1;  ///< origin1 + s * dir1.
    glm::vec3 p2;  ///< origin2 + t * dir2.
    float sqDist;  ///< |p1 - p2|^2.
    bool parallel; ///< Directions parallel (or one of zero length): the pair is one of many; s is chosen as
                   ///< close to 0 as the range allows.
};

/// Minimises |x1(s) - x2(t)|^2 over both ranges (Ericson 5.1.9 generalised from segments to
/// any closed parameter intervals; a zero-length dir is treated as a point).
/// Empty for non-finite input or an empty range (lo > hi).
std::optional<ClosestPoints> closestPtLinePieces(const LinePiece& first, const LinePiece& second);

/// How two rays relate.
enum class RayPairKind {
    Intersecting, ///< Their closest approach (t >= 0 on both) is within the tolerance.
    Parallel,     ///< Directions parallel: no single meeting point, even when collinear.
    Skew,         ///< Not parallel, and their closest approach is farther than the tolerance
                  ///< (skew lines, or lines that cross behind an origin).
};

struct RayPairResult {
    RayPairKind kind;
    float tFirst;    ///< Parameter of the closest approach on the first ray (>= 0).
    float tSecond;   ///< Parameter of the closest approach on the second ray (>= 0).
    glm::vec3 point; ///< Intersecting: the midpoint of the closest pair; else that midpoint too.
    float distance;  ///< Distance between the closest points (between the lines when Parallel).
};

/// "Do two rays intersect, and where": closest points between the rays (t >= 0 on both),
/// compared with an absolute distance tolerance. Parallel is decided on the angle between the
/// directions: sin(angle) <= kParallelSine. Empty for an invalid ray or a negative or non-finite
/// tolerance.
std::optional<RayPairResult> intersectRays(const Ray& first, const Ray& second, float tolerance);

/// Below this sin(angle) between two directions they count as parallel.
inline constexpr float kParallelSine = 1e-6f;

/// Unit normal of a polygon by Newell's method; its sign follows the winding (counter-clockwise
/// seen from the front). Empty for fewer than 3 vertices, zero area or non-finite vertices.
std::optional<glm::vec3> polygonNormal(std::span<const glm::vec3> polygon);

/// Whether p, projected along the polygon's normal, lies inside a convex polygon (either
/// winding). Boundary counts as inside. False for a degenerate polygon or a non-finite p.
bool pointInConvexPolygon(const glm::vec3& p, std::span<const glm::vec3> convexPolygon);

} // namespace kz
