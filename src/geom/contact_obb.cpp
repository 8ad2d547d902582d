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
    glm::vec3 axis;
    return separationObbObb(a, b, axis);
}

float separationObbObb(const Obb& a, const Obb& b, glm::vec3& axis) {
    // Separation along the 15 axes, everything in a's frame (Ericson 4.4.1): R = A^T B.
    const ObbPairFrame f = obbPairFrame(a, b, 0.0f);
    const glm::vec3 &ea = a.half, &eb = b.half;
    float best = -INFINITY;
    // The best axis so far, by kind (0: a's face, 1: b's face, 2: an edge pair) and indices; its
    // world direction is built once at the end.
    int kind = 0, bestI = 0, bestJ = 0;
    float sign = 1.0f;
    const auto keep = [&](float separation, int k, int i, int j, float distance) {
        if (!(separation > best)) return;
        best = separation;
        kind = k;
        bestI = i;
        bestJ = j;
        sign = distance < 0.0f ? -1.0f : 1.0f;
    };
    for (int i = 0; i < 3; ++i) {
        keep(std::abs(f.t[i]) - ea[i] - f.radiusOfBOnFaceA(eb, i), 0, i, 0, f.t[i]);
        const float onB = f.distanceOnFaceB(i);
        keep(std::abs(onB) - eb[i] - f.radiusOfAOnFaceB(ea, i), 1, i, 0, onB);
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            // |a_i x b_j|^2 = R_i1j^2 + R_i2j^2 (= 1 - R_ij^2, without its cancellation for nearly
            // parallel edges, so the value is the separation along the unit axis returned);
            // near-parallel edges are covered by the face axes.
            const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
            const float lengthSq = f.rot[i1][j] * f.rot[i1][j] + f.rot[i2][j] * f.rot[i2][j];
            if (lengthSq < 1e-6f) continue;
            const auto edge = f.edgeAxis(ea, eb, i, j);
            const float unnormalised = std::abs(edge.distance) - edge.ra - edge.rb;
            // Not separating, and a separating axis found already: it cannot be the best (no root).
            if (!(unnormalised > 0.0f) && best >= 0.0f) continue;
            keep(unnormalised / std::sqrt(lengthSq), 2, i, j, edge.distance);
        }
    }
    const glm::vec3 direction = kind == 0   ? a.axes[bestI]
                                : kind == 1 ? b.axes[bestI]
                                            : glm::normalize(glm::cross(a.axes[bestI], b.axes[bestJ]));
    axis = sign * direction;
    return best;
}

} // namespace kz
