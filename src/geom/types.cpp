#include "types.hpp"

#include <cfloat>

namespace kz {

bool isValid(const Sphere& sphere) {
    return isFinite(sphere.center) && std::isfinite(sphere.radius) && sphere.radius >= 0.0f;
}

bool isValid(const Plane& plane) {
    const float lengthSq = glm::dot(plane.normal, plane.normal);
    return isFinite(plane.normal) && std::isfinite(plane.d) && lengthSq >= FLT_MIN && std::isfinite(lengthSq);
}

bool isValid(const Aabb& box) {
    return isFinite(box.min) && isFinite(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y &&
           box.min.z <= box.max.z;
}

bool isValid(const Obb& box) {
    if (!isFinite(box.center) || !isFinite(box.half) || !isFinite(box.axes)) return false;
    if (box.half.x < 0.0f || box.half.y < 0.0f || box.half.z < 0.0f) return false;
    for (int i = 0; i < 3; ++i) {
        if (glm::dot(box.axes[i], box.axes[i]) < FLT_MIN) return false;
    }
    return true;
}

bool isValid(const Triangle& tri) {
    if (!isFinite(tri.a) || !isFinite(tri.b) || !isFinite(tri.c)) return false;
    const glm::vec3 n = glm::cross(tri.b - tri.a, tri.c - tri.a);
    const float areaSq = glm::dot(n, n);
    return areaSq > 0.0f && std::isfinite(areaSq);
}

void corners(const Obb& box, glm::vec3 out[8]) {
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 sign((i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f);
        out[i] = box.center + box.axes * (sign * box.half);
    }
}

Aabb bounds(const Obb& box) {
    // Extent along world axis k: sum_i half_i |axes[i][k]| (Ericson 4.2.6).
    const glm::mat3& a = box.axes;
    const glm::vec3 extent =
        glm::abs(a[0]) * box.half.x + glm::abs(a[1]) * box.half.y + glm::abs(a[2]) * box.half.z;
    return {box.center - extent, box.center + extent};
}

Obb toObb(const Aabb& box) {
    return {(box.min + box.max) * 0.5f, (box.max - box.min) * 0.5f, glm::mat3(1.0f)};
}

} // namespace kz
