// Contacts of spheres (with planes, spheres, boxes and triangles) and of a box with a plane.
// Box against box is in contact_obb.cpp, box against triangle in contact_obb_triangle.cpp. The
// steps of sphere-box, box-plane and sphere-triangle are in contact_steps.hpp (shared with the
// lab's traces).
#include "contact.hpp"

#include "closest.hpp"
#include "contact_detail.hpp"
#include "contact_steps.hpp"
#include "explain_recorders.hpp"
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
    NoTrace none;
    return contactSphereSphereSteps(a, b, none);
}

std::optional<Manifold> contactSphereObb(const Sphere& a, const Obb& b) {
    NoTrace none;
    return contactSphereObbSteps(a, b, none);
}

std::optional<Manifold> contactObbPlane(const Obb& a, const Plane& b) {
    NoTrace none;
    return contactObbPlaneSteps(a, b, none);
}

std::optional<Manifold> contactSphereTriangle(const Sphere& a, const Triangle& b) {
    NoTrace none;
    return contactSphereTriangleSteps(a, b, none);
}

} // namespace kz
