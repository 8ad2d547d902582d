// The sphere sweep's trace: sweepSphereTriangle's own code (sweep.cpp) run with a recorder.
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

} // namespace kz
