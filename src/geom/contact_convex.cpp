// The contact manifold of two convex shapes (contact_convex.hpp): penetrationConvexConvex, then
// the face steps of contact_convex_steps.hpp with the no-trace observer.
#include "contact_convex.hpp"

#include "contact_convex_steps.hpp"

namespace kz {

std::optional<Manifold> contactConvexConvex(const ConvexShape& a, const ConvexShape& b) {
    detail::ContactConvexNoTrace none;
    return detail::contactConvexSteps(a, b, penetrationConvexConvex(a, b), none);
}

} // namespace kz
