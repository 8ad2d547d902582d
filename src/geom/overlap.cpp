#include "overlap.hpp"

#include "closest.hpp"
#include "obb_pair.hpp"
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
    // The padding keeps near-zero edge cross products from separating.
    const detail::ObbPairFrame frame = detail::obbPairFrame(a, b, detail::kObbPairPadding);
    const glm::vec3 &ea = a.half, &eb = b.half;
    for (int i = 0; i < 3; ++i) { // a's face normals
        if (std::abs(frame.t[i]) > ea[i] + frame.radiusOfBOnFaceA(eb, i)) return false;
    }
    for (int j = 0; j < 3; ++j) { // b's face normals
        if (std::abs(frame.distanceOnFaceB(j)) > frame.radiusOfAOnFaceB(ea, j) + eb[j]) return false;
    }
    for (int i = 0; i < 3; ++i) { // a_i x b_j
        for (int j = 0; j < 3; ++j) {
            const auto axis = frame.edgeAxis(ea, eb, i, j);
            if (std::abs(axis.distance) > axis.ra + axis.rb) return false;
        }
    }
    return true;
}

} // namespace kz
