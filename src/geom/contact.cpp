// Contacts of spheres (with planes, spheres, boxes and triangles) and of a box with a plane.
// Box against box is in contact_obb.cpp, box against triangle in contact_obb_triangle.cpp.
#include "contact.hpp"

#include "closest.hpp"
#include "contact_detail.hpp"
#include "plane.hpp"

#include <algorithm>

namespace kz {
using namespace detail;

std::optional<Manifold> contactSpherePlane(const Sphere& a, const Plane& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const float nLength = glm::length(b.normal);
    const glm::vec3 normal = b.normal / nLength;
    const float distance = signedDistance(b, a.center) / nLength;
    if (distance > a.radius) return std::nullopt;
    return finiteOrNone(singlePoint(normal, a.center - distance * normal, a.radius - distance));
}

std::optional<Manifold> contactSphereSphere(const Sphere& a, const Sphere& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const glm::vec3 d = a.center - b.center;
    const float radiusSum = a.radius + b.radius;
    const float distSq = glm::dot(d, d);
    if (distSq > radiusSum * radiusSum) return std::nullopt;
    const float dist = std::sqrt(distSq);
    const glm::vec3 normal = dist > 0.0f ? d / dist : glm::vec3(0.0f, 1.0f, 0.0f);
    return finiteOrNone(singlePoint(normal, b.center + b.radius * normal, radiusSum - dist));
}

std::optional<Manifold> contactSphereObb(const Sphere& a, const Obb& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const glm::vec3 d = a.center - b.center;
    const glm::vec3 local(glm::dot(d, b.axes[0]), glm::dot(d, b.axes[1]), glm::dot(d, b.axes[2]));
    const glm::vec3 excess = glm::abs(local) - b.half; // > 0 on an axis where the centre is outside
    if (excess.x > 0.0f || excess.y > 0.0f || excess.z > 0.0f) {
        const glm::vec3 closest = closestPtPointObb(a.center, b);
        const glm::vec3 away = a.center - closest;
        const float distSq = glm::dot(away, away);
        if (distSq > a.radius * a.radius) return std::nullopt;
        const float dist = std::sqrt(distSq);
        if (dist > 0.0f) return finiteOrNone(singlePoint(away / dist, closest, a.radius - dist));
    }
    // The centre is inside (or on) the box: leave through the nearest face.
    int face = 0;
    for (int i = 1; i < 3; ++i) {
        if (excess[i] > excess[face]) face = i;
    }
    const float toFace = -excess[face]; // >= 0
    const glm::vec3 normal = glm::normalize(b.axes[face]) * sign(local[face]);
    return finiteOrNone(singlePoint(normal, a.center + toFace * normal, a.radius + toFace));
}

std::optional<Manifold> contactObbPlane(const Obb& a, const Plane& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const float nLength = glm::length(b.normal);
    const glm::vec3 normal = b.normal / nLength;
    const float d = b.d / nLength;
    glm::vec3 boxCorners[8];
    corners(a, boxCorners);
    ContactPoint touching[8];
    int n = 0;
    for (const glm::vec3& corner : boxCorners) {
        const float distance = glm::dot(normal, corner) + d;
        if (distance <= 0.0f) touching[n++] = {corner - distance * normal, -distance};
    }
    if (n == 0) return std::nullopt;
    // The deepest four (a box resting on a face has exactly four).
    const int kept = std::min(n, 4);
    for (int i = 0; i < kept; ++i) { // selection sort: at most 8 corners
        int deepest = i;
        for (int j = i + 1; j < n; ++j) {
            if (touching[j].depth > touching[deepest].depth) deepest = j;
        }
        std::swap(touching[i], touching[deepest]);
    }
    return finiteOrNone(fromPoints(normal, touching, kept));
}

std::optional<Manifold> contactSphereTriangle(const Sphere& a, const Triangle& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const glm::vec3 closest = closestPtPointTriangle(a.center, b);
    const glm::vec3 away = a.center - closest;
    const float distSq = glm::dot(away, away);
    if (distSq > a.radius * a.radius) return std::nullopt;
    const float dist = std::sqrt(distSq);
    glm::vec3 normal = dist > 0.0f ? away / dist : glm::vec3(0.0f);
    if (!(dist > 0.0f) || !isFinite(normal)) normal = glm::normalize(glm::cross(b.b - b.a, b.c - b.a));
    return finiteOrNone(singlePoint(normal, closest, a.radius - dist));
}

} // namespace kz
