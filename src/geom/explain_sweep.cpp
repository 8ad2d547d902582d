// The sweeps' traces: sweepSphereTriangle's, sweepSpherePlane's and sweepSphereSphere's own code
// (sweep_steps.hpp) run with a recorder.
#include "explain_sweep.hpp"

#include "explain_recorders.hpp"
#include "sweep_steps.hpp"

namespace kz {

SphereTriangleSweepTrace explainSweepSphereTriangle(const Sphere& s, const glm::vec3& velocity,
                                                    const Triangle& tri, float tMax) {
    SphereTriangleSweepTrace out{};
    out.winner = SweepFeature::None;
    out.winnerIndex = -1;
    detail::SphereTriangleSweepRecorder recorder{out};
    out.time = detail::sweepSphereTriangleSteps(s, velocity, tri, tMax, recorder);
    return out;
}

SpherePlaneSweepTrace explainSweepSpherePlane(const Sphere& s, const glm::vec3& velocity, const Plane& plane,
                                              float tMax, float gap) {
    SpherePlaneSweepTrace out{};
    out.gap = gap;
    out.tMax = tMax;
    detail::SpherePlaneSweepRecorder recorder{out};
    out.time = detail::sweepSpherePlaneSteps(s, velocity, plane, tMax, gap, recorder);
    return out;
}

SphereSphereSweepTrace explainSweepSphereSphere(const Sphere& a, const glm::vec3& velocityA, const Sphere& b,
                                                const glm::vec3& velocityB, float tMax, float gap) {
    SphereSphereSweepTrace out{};
    out.gap = gap;
    out.tMax = tMax;
    detail::SphereSphereSweepRecorder recorder{out};
    out.time = detail::sweepSphereSphereSteps(a, velocityA, b, velocityB, tMax, gap, recorder);
    return out;
}

} // namespace kz
