// Private to kz_physics: the narrow phase's shared pieces, used by the contact resolution, the
// times of impact, the position projection and the queries.
#pragma once

#include "body.hpp"
#include "geom/contact.hpp"
#include "geom/plane.hpp"

#include <cmath>
#include <optional>

namespace kz {

/// Signed distance of a body's surface from a plane (negative: through it).
inline float distanceToPlane(const Body& b, const Plane& p) {
    const float centre = signedDistance(p, b.position);
    if (b.shape == ShapeType::Sphere) return centre - b.radius;
    if (isConvexShape(b.shape)) return signedDistance(p, support(convexOf(b), -p.normal));
    const glm::mat3 axes = glm::mat3_cast(b.orientation);
    const float support = b.halfExtents.x * std::abs(glm::dot(axes[0], p.normal)) +
                          b.halfExtents.y * std::abs(glm::dot(axes[1], p.normal)) +
                          b.halfExtents.z * std::abs(glm::dot(axes[2], p.normal));
    return centre - support;
}

/// Spheres against walls and against spheres have exact times of impact: they meet at gap 0.
/// b == nullptr: a wall.
inline bool meetExactly(const Body& a, const Body* b) {
    return a.shape == ShapeType::Sphere && (b == nullptr || b->shape == ShapeType::Sphere);
}

/// Contacts of body A with body B, found with A (or, for a box A against a sphere B, the sphere)
/// grown by `margin`; depths are real (negative: a gap smaller than the margin). Margin 0: the
/// contact of the shapes as they are.
std::optional<Manifold> contactBodies(const Body& a, const Body& b, float margin);
/// The same for body A and a wall's plane.
std::optional<Manifold> contactBodyPlane(const Body& a, const Plane& wall, float margin);
/// The same for body A and a triangle (of an obstacle's mesh).
std::optional<Manifold> contactBodyTriangle(const Body& a, const Triangle& t, float margin);

/// A triangle as a shape for GJK and EPA (triangleHull): valid until this thread's next call.
PosedHull triangleShape(const Triangle& t);

} // namespace kz
