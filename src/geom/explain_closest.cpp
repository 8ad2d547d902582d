// The closest-point traces: closestPtPointTriangle's and closestPtLinePieces's own code
// (closest.cpp) run with a recorder.
#include "explain_closest.hpp"

#include "closest_steps.hpp"
#include "explain_recorders.hpp"

namespace kz {

PointTriangleTrace explainClosestPtPointTriangle(const glm::vec3& p, const Triangle& tri) {
    PointTriangleTrace out{};
    detail::PointTriangleRecorder recorder{tri, out};
    out.closest = detail::closestPtPointTriangleSteps(p, tri, recorder);
    return out;
}

LinePiecesTrace explainClosestPtLinePieces(const LinePiece& first, const LinePiece& second) {
    LinePiecesTrace out{};
    detail::LinePiecesRecorder recorder{first, second, out};
    out.result = detail::closestPtLinePiecesSteps(first, second, recorder);
    return out;
}

} // namespace kz
