#include "body.hpp"

namespace kz {

ConvexShape convexOf(const Body& b) {
    switch (b.shape) {
    case ShapeType::Sphere:
        return sphereOf(b);
    case ShapeType::Box:
        return obbOf(b);
    case ShapeType::Capsule:
        return capsuleFromPose(b.position, glm::mat3_cast(b.orientation), b.halfHeight, roundRadius(b));
    case ShapeType::Cylinder:
        return cylinderFromPose(b.position, glm::mat3_cast(b.orientation), b.halfHeight, roundRadius(b));
    case ShapeType::Hull:
        break;
    }
    return PosedHull{b.hull.get(), b.position, glm::mat3_cast(b.orientation)};
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
