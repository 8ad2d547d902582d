#include "overlap.hpp"

#include "closest.hpp"
#include "plane.hpp"

#include <algorithm>

namespace kz {

bool testSpherePlane(const Sphere& sphere, const Plane& plane) {
    if (!isValid(sphere) || !isValid(plane)) return false;
    // |dot(n, c) + d| <= r |n|, which is |distance| <= r without normalising n.
    return std::abs(signedDistance(plane, sphere.center)) <= sphere.radius * glm::length(plane.normal);
}

bool testSphereSphere(const Sphere& a, const Sphere& b) {
    if (!isValid(a) || !isValid(b)) return false;
    const glm::vec3 d = a.center - b.center;
    const float radiusSum = a.radius + b.radius;
    return glm::dot(d, d) <= radiusSum * radiusSum;
}

bool testSphereAabb(const Sphere& sphere, const Aabb& box) {
    if (!isValid(sphere) || !isValid(box)) return false;
    return sqDistPointAabb(sphere.center, box) <= sphere.radius * sphere.radius;
}

bool testSphereObb(const Sphere& sphere, const Obb& box) {
    if (!isValid(sphere) || !isValid(box)) return false;
    return sqDistPointObb(sphere.center, box) <= sphere.radius * sphere.radius;
}

bool testObbPlane(const Obb& box, const Plane& plane) {
    if (!isValid(box) || !isValid(plane)) return false;
    // The box's extent along n: r = sum_i half_i |dot(axis_i, n)|.
    const float radius = box.half.x * std::abs(glm::dot(box.axes[0], plane.normal)) +
                         box.half.y * std::abs(glm::dot(box.axes[1], plane.normal)) +
                         box.half.z * std::abs(glm::dot(box.axes[2], plane.normal));
    return std::abs(signedDistance(plane, box.center)) <= radius;
}

bool testObbPlaneCorners(const Obb& box, const Plane& plane) {
    if (!isValid(box) || !isValid(plane)) return false;
    glm::vec3 boxCorners[8];
    corners(box, boxCorners);
    float lowest = INFINITY, highest = -INFINITY;
    for (const glm::vec3& corner : boxCorners) {
        const float distance = signedDistance(plane, corner);
        lowest = std::min(lowest, distance);
        highest = std::max(highest, distance);
    }
    return lowest <= 0.0f && highest >= 0.0f;
}

bool testAabbAabb(const Aabb& a, const Aabb& b) {
    if (!isValid(a) || !isValid(b)) return false;
    return a.min.x <= b.max.x && a.max.x >= b.min.x && a.min.y <= b.max.y && a.max.y >= b.min.y &&
           a.min.z <= b.max.z && a.max.z >= b.min.z;
}

bool testObbObb(const Obb& a, const Obb& b) {
    if (!isValid(a) || !isValid(b)) return false;
    // Ericson 4.4.1: everything in a's frame. R expresses b's axes in a's frame.
    constexpr float kEpsilon = 1e-6f; // keeps near-zero edge cross products from separating
    glm::mat3 rot, absRot;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            rot[i][j] = glm::dot(a.axes[i], b.axes[j]);
            absRot[i][j] = std::abs(rot[i][j]) + kEpsilon;
        }
    }
    const glm::vec3 toB = b.center - a.center;
    const glm::vec3 t(glm::dot(toB, a.axes[0]), glm::dot(toB, a.axes[1]), glm::dot(toB, a.axes[2]));
    const glm::vec3 &ea = a.half, &eb = b.half;

    for (int i = 0; i < 3; ++i) { // a's face normals
        const float rb = eb[0] * absRot[i][0] + eb[1] * absRot[i][1] + eb[2] * absRot[i][2];
        if (std::abs(t[i]) > ea[i] + rb) return false;
    }
    for (int j = 0; j < 3; ++j) { // b's face normals
        const float ra = ea[0] * absRot[0][j] + ea[1] * absRot[1][j] + ea[2] * absRot[2][j];
        const float distance = t[0] * rot[0][j] + t[1] * rot[1][j] + t[2] * rot[2][j];
        if (std::abs(distance) > ra + eb[j]) return false;
    }
    for (int i = 0; i < 3; ++i) { // a_i x b_j
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const float ra = ea[i1] * absRot[i2][j] + ea[i2] * absRot[i1][j];
            const float rb = eb[j1] * absRot[i][j2] + eb[j2] * absRot[i][j1];
            const float distance = t[i2] * rot[i1][j] - t[i1] * rot[i2][j];
            if (std::abs(distance) > ra + rb) return false;
        }
    }
    return true;
}

} // namespace kz
