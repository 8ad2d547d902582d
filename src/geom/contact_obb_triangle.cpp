// Box against triangle: the 13 separating axes, the contact features (triangle face, box face,
// edge pair) and their manifolds, whose steps are in contact_obb_triangle_steps.hpp (shared with
// the lab's trace); separationObbTriangle for conservative advancement.
#include "closest.hpp"
#include "contact.hpp"
#include "contact_detail.hpp"
#include "contact_obb_triangle_steps.hpp"
#include "explain_recorders.hpp"

#include <algorithm>
#include <cfloat>

namespace kz {
using namespace detail;

std::optional<Manifold> contactObbTriangle(const Obb& a, const Triangle& b) {
    NoTrace none;
    return contactObbTriangleSteps(a, b, none);
}

float separationObbTriangle(const Obb& a, const Triangle& b) {
    const auto local = validBoxFrame(a, b);
    if (!local) return INFINITY;
    const float separation = separations(*local, a.half).largest();
    return std::isnan(separation) ? INFINITY : separation; // overflow
}

} // namespace kz
