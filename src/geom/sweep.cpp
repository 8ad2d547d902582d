// Sweeps: sphere against plane and sphere (exact roots here), sphere against triangle (its steps
// in sweep_steps.hpp, shared with the lab's trace).
#include "sweep.hpp"

#include "closest.hpp"
#include "explain_recorders.hpp"
#include "plane.hpp"
#include "sweep_steps.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
using namespace detail;

std::optional<float> sweepSpherePlane(const Sphere& s, const glm::vec3& velocity, const Plane& plane,
                                      float tMax, float gap) {
    // d(t) = d0 + (n . v) t = gap.
    const float approach = -glm::dot(plane.normal, velocity);
    if (!(approach > 0.0f)) return std::nullopt;
    const float d0 = signedDistance(plane, s.center) - s.radius;
    const float t = (d0 - gap) / approach;
    if (!(t <= tMax)) return std::nullopt;
    return std::max(t, 0.0f);
}

std::optional<float> sweepSphereSphere(const Sphere& a, const glm::vec3& velocityA, const Sphere& b,
                                       const glm::vec3& velocityB, float tMax, float gap) {
    // |dp + dv t| = rA + rB + gap, the smaller root.
    const glm::vec3 dp = a.center - b.center, dv = velocityA - velocityB;
    const float reach = a.radius + b.radius + gap;
    const float bq = glm::dot(dp, dv);
    if (!(bq < 0.0f)) return std::nullopt; // not approaching
    const float av = glm::dot(dv, dv);
    const float cq = glm::dot(dp, dp) - reach * reach;
    if (cq <= 0.0f) return 0.0f;
    const float disc = bq * bq - av * cq;
    if (disc < 0.0f) return std::nullopt;
    const float t = cq / (-bq + std::sqrt(disc));
    if (!(t <= tMax)) return std::nullopt;
    return t;
}

std::optional<float> sweepSphereTriangle(const Sphere& s, const glm::vec3& velocity, const Triangle& tri,
                                         float tMax) {
    NoTrace none;
    return sweepSphereTriangleSteps(s, velocity, tri, tMax, none);
}

} // namespace kz
