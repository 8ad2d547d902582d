#include "body.hpp"

namespace kz {

ConvexShape convexShapeAt(ShapeType shape, const glm::vec3& position, const glm::mat3& axes, float radius,
                          const glm::vec3& halfExtents, float halfHeight, const ConvexHull* hull) {
    switch (shape) {
    case ShapeType::Sphere:
        return Sphere{position, radius};
    case ShapeType::Box:
        return Obb{position, halfExtents, axes};
    case ShapeType::Capsule:
        return capsuleFromPose(position, axes, halfHeight, radius);
    case ShapeType::Cylinder:
        return cylinderFromPose(position, axes, halfHeight, radius);
    case ShapeType::Hull:
        break;
    }
    return PosedHull{hull, position, axes};
}

ConvexShape convexOf(const Body& b) {
    const float radius = b.shape == ShapeType::Sphere ? b.radius : roundRadius(b);
    return convexShapeAt(b.shape, b.position, glm::mat3_cast(b.orientation), radius, b.halfExtents,
                         b.halfHeight, b.hull.get());
}

glm::mat3 inverseInertiaWorld(const Body& b) {
    const glm::mat3 r = glm::mat3_cast(b.orientation);
    const glm::vec3 inv = 1.0f / b.inertiaLocal;
    return r * glm::mat3(inv.x, 0, 0, 0, inv.y, 0, 0, 0, inv.z) * glm::transpose(r);
}

glm::mat3 inertiaWorld(const Body& b) {
    const glm::mat3 r = glm::mat3_cast(b.orientation);
    const glm::vec3& i = b.inertiaLocal;
    return r * glm::mat3(i.x, 0, 0, 0, i.y, 0, 0, 0, i.z) * glm::transpose(r);
}

double kineticEnergy(const Body& b) {
    // 1/2 m v.v + 1/2 w_b . (I w_b), with w_b the angular velocity in the body frame.
    const glm::dvec3 v(b.velocity);
    const glm::dvec3 wBody = glm::dvec3(glm::inverse(b.orientation) * b.angularVelocity);
    const glm::dvec3 inertia(b.inertiaLocal);
    return 0.5 * static_cast<double>(b.mass) * glm::dot(v, v) + 0.5 * glm::dot(wBody, inertia * wBody);
}

} // namespace kz
