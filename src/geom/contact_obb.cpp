// Box against box: the 15 separating axes, the axis of least penetration, and the manifold of a
// face (the incident face clipped to the reference face's sides) or of an edge pair, whose steps
// are in contact_obb_steps.hpp (shared with the lab's trace); separationObbObb for conservative
// advancement.
#include "closest.hpp"
#include "contact.hpp"
#include "contact_detail.hpp"
#include "contact_obb_steps.hpp"
#include "explain_recorders.hpp"
#include "obb_pair.hpp"

#include <algorithm>

namespace kz {
using namespace detail;

std::optional<Manifold> contactObbObb(const Obb& a, const Obb& b) {
    NoTrace none;
    return contactObbObbSteps(a, b, none);
}

float separationObbObb(const Obb& a, const Obb& b) {
    // Separation along the 15 axes, everything in a's frame (Ericson 4.4.1): R = A^T B.
    const ObbPairFrame f = obbPairFrame(a, b, 0.0f);
    const glm::vec3 &ea = a.half, &eb = b.half;
    float best = -INFINITY;
    for (int i = 0; i < 3; ++i) {
        best = std::max(best, std::abs(f.t[i]) - ea[i] - f.radiusOfBOnFaceA(eb, i));
        best = std::max(best, std::abs(f.distanceOnFaceB(i)) - eb[i] - f.radiusOfAOnFaceB(ea, i));
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            // |a_i x b_j| = sqrt(1 - R_ij^2); near-parallel edges are covered by the face axes.
            const float lengthSq = 1.0f - f.rot[i][j] * f.rot[i][j];
            if (lengthSq < 1e-6f) continue;
            const auto axis = f.edgeAxis(ea, eb, i, j);
            best = std::max(best, (std::abs(axis.distance) - axis.ra - axis.rb) / std::sqrt(lengthSq));
        }
    }
    return best;
}

} // namespace kz
