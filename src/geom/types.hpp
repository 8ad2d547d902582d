// Plain shape and result types shared by every geometry query.
#pragma once

#include <cfloat>
#include <cmath>
#include <glm/glm.hpp>

namespace kz {

/// A ray R(t) = origin + t * dir for t >= 0. `dir` need not be unit length: every t a query
/// returns is measured in units of `dir`.
struct Ray {
    glm::vec3 origin; ///< Where t = 0.
    glm::vec3 dir;    ///< Direction; a zero-length or non-finite dir makes every query miss.
};

/// The plane dot(normal, x) + d = 0. The normal is unit length; queries that take a plane
/// also accept a non-unit normal (with d scaled alike) and still return unit normals.
struct Plane {
    glm::vec3 normal; ///< Unit normal; the "front" half-space is dot(normal, x) + d > 0.
    float d;          ///< Offset: -dot(normal, p) for any point p on the plane.
};

struct Sphere {
    glm::vec3 center;
    float radius; ///< >= 0; a zero radius is a point, a negative one is degenerate.
};

/// An axis-aligned box; min == max on an axis is a flat box, min > max is degenerate.
struct Aabb {
    glm::vec3 min;
    glm::vec3 max;
};

/// An oriented box: the set center + axes * u with |u_i| <= half_i.
struct Obb {
    glm::vec3 center;
    glm::vec3 half; ///< Half extents along the box's local axes, each >= 0.
    glm::mat3 axes; ///< Columns: the box's unit local x, y, z axes (orthonormal).
};

struct Triangle {
    glm::vec3 a, b, c;
};

/// Where a ray first meets a shape.
struct RayHit {
    float t;          ///< Ray parameter in units of dir: 0 <= t <= tMax; 0 if the ray starts inside a solid.
    glm::vec3 point;  ///< origin + t * dir.
    glm::vec3 normal; ///< Unit surface normal facing the ray origin; -normalize(dir) for an inside start.
};

/// True when every component is finite (no NaN, no infinity).
inline bool isFinite(float x) {
    return std::isfinite(x);
}
inline bool isFinite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
inline bool isFinite(const glm::mat3& m) {
    return isFinite(m[0]) && isFinite(m[1]) && isFinite(m[2]);
}

/// A ray is usable when origin and dir are finite and dir is not zero (nor so short that its
/// squared length underflows). Inline: every ray query starts with it.
inline bool isValid(const Ray& ray) {
    // The squared length must neither underflow (a "zero" direction) nor overflow.
    const float lengthSq = glm::dot(ray.dir, ray.dir);
    return isFinite(ray.origin) && isFinite(ray.dir) && lengthSq >= FLT_MIN && std::isfinite(lengthSq);
}
/// Finite centre, finite radius >= 0.
bool isValid(const Sphere& sphere);
/// Finite normal of non-zero length, finite d.
bool isValid(const Plane& plane);
/// Finite corners with min <= max on every axis.
bool isValid(const Aabb& box);
/// Finite centre, half extents >= 0, finite axes of non-zero length.
bool isValid(const Obb& box);
/// Finite corners spanning a non-zero area.
bool isValid(const Triangle& tri);

/// Eight corners of a box; bit 0, 1, 2 of the index select +half on x, y, z.
void corners(const Obb& box, glm::vec3 out[8]);
/// The smallest Aabb that holds the box.
Aabb bounds(const Obb& box);
/// An Obb with identity axes that covers the same points as `box`.
Obb toObb(const Aabb& box);

} // namespace kz
