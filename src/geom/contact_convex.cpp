// The contact manifold of two convex shapes (contact_convex.hpp): penetrationConvexConvex, then
// the face steps of contact_convex_steps.hpp with the no-trace observer.
#include "contact_convex.hpp"

#include "contact_convex_steps.hpp"

namespace kz {

std::optional<Manifold> contactConvexConvex(const ConvexShape& a, const ConvexShape& b) {
    detail::ContactConvexNoTrace none;
    return detail::contactConvexSteps(a, b, penetrationConvexConvex(a, b), none);
}

std::optional<Manifold> contactConvexConvex(const ConvexShape& a, const ConvexShape& b, float maxSeparation) {
    if (!(maxSeparation > 0.0f)) return contactConvexConvex(a, b);
    const GjkResult gjk = closestPtConvexConvex(a, b);
    if (gjk.status == GjkStatus::InvalidInput || gjk.distance > maxSeparation) return std::nullopt;
    detail::ContactConvexNoTrace none;
    if (gjk.distance > 0.0f && gjk.normal != glm::vec3(0.0f))
        return detail::speculativeContactSteps(a, b, gjk, maxSeparation, none);
    // Touching or overlapping: EPA's manifold, its points up to maxSeparation in front kept too.
    const EpaResult epa = penetrationConvexConvex(a, b);
    return detail::contactConvexSteps(a, b, epa, none, maxSeparation);
}

std::optional<Manifold> contactConvexPlane(const ConvexShape& a, const Plane& b, float maxSeparation) {
    if (!isValid(a) || !isFinite(b.normal) || !std::isfinite(b.d) || !(maxSeparation >= 0.0f))
        return std::nullopt;
    return detail::convexPlaneSteps(a, b, std::max(0.0f, maxSeparation));
}

} // namespace kz
