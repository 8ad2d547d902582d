// Closest points and distances; the steps of point-triangle and of two line pieces are in
// closest_steps.hpp (shared with the lab's traces).
#include "closest.hpp"

#include "closest_steps.hpp"
#include "detail.hpp"
#include "explain_recorders.hpp"

#include <algorithm>
#include <array>
#include <cfloat>

namespace kz {
using namespace detail;

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

glm::vec3 closestPtPointTriangle(const glm::vec3& p, const Triangle& tri) {
    NoTrace none;
    return closestPtPointTriangleSteps(p, tri, none);
}

glm::vec3 closestPtPointSegment(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b) {
    const glm::vec3 ab = b - a;
    const float lengthSq = glm::dot(ab, ab);
    if (!(lengthSq > 0.0f)) return a;
    const float t = glm::clamp(glm::dot(p - a, ab) / lengthSq, 0.0f, 1.0f);
    return a + t * ab;
}

std::optional<ClosestPoints> closestPtLinePieces(const LinePiece& first, const LinePiece& second) {
    NoTrace none;
    return closestPtLinePiecesSteps(first, second, none);
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
