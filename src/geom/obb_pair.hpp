// Internal to kz_geom: two oriented boxes seen from the first, for the separating-axis tests of
// testObbObb, contactObbObb and separationObbObb (Ericson, Real-Time Collision Detection, 4.4.1).
#pragma once

#include "types.hpp"

#include <algorithm>
#include <cmath>

namespace kz::detail {

/// Box B's frame expressed in box A's: with it, every one of the 15 separating axes is a few
/// multiply-adds. Always inlined: the separating-axis loops are hot (the conservative
/// advancement of box pairs), and GCC would otherwise call edgeAxis nine times per query.
struct ObbPairFrame {
    glm::mat3 rot;    ///< rot[i][j] = dot(a.axes[i], b.axes[j]): B's axes in A's frame.
    glm::mat3 absRot; ///< |rot[i][j]| + epsilon.
    glm::vec3 t;      ///< b.center - a.center in A's frame.

    /// On A's face axis i: B's projected radius (A's is ea[i], the centres' distance |t[i]|).
    [[gnu::always_inline]] float radiusOfBOnFaceA(const glm::vec3& eb, int i) const {
        return eb[0] * absRot[i][0] + eb[1] * absRot[i][1] + eb[2] * absRot[i][2];
    }
    /// On B's face axis j: A's projected radius (B's is eb[j]).
    [[gnu::always_inline]] float radiusOfAOnFaceB(const glm::vec3& ea, int j) const {
        return ea[0] * absRot[0][j] + ea[1] * absRot[1][j] + ea[2] * absRot[2][j];
    }
    /// On B's face axis j: the signed distance of the centres.
    [[gnu::always_inline]] float distanceOnFaceB(int j) const {
        return t[0] * rot[0][j] + t[1] * rot[1][j] + t[2] * rot[2][j];
    }
    /// On A's face axis i: the separation |distance| - (rA + rB) (> 0: the axis separates).
    [[gnu::always_inline]] float separationOnFaceA(const glm::vec3& ea, const glm::vec3& eb, int i) const {
        return std::abs(t[i]) - (ea[i] + radiusOfBOnFaceA(eb, i));
    }
    /// On B's face axis j: the separation |distance| - (rA + rB).
    [[gnu::always_inline]] float separationOnFaceB(const glm::vec3& ea, const glm::vec3& eb, int j) const {
        return std::abs(distanceOnFaceB(j)) - (radiusOfAOnFaceB(ea, j) + eb[j]);
    }

    /// On the edge axis a_i x b_j (unnormalised: its length is sin(angle)): both projected radii
    /// and the signed distance of the centres.
    struct EdgeAxis {
        float ra, rb, distance;
        /// |distance| - (ra + rb), unnormalised (> 0: the axis separates).
        [[gnu::always_inline]] float separation() const { return std::abs(distance) - (ra + rb); }
    };
    [[gnu::always_inline]] EdgeAxis edgeAxis(const glm::vec3& ea, const glm::vec3& eb, int i, int j) const {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        return {ea[i1] * absRot[i2][j] + ea[i2] * absRot[i1][j],
                eb[j1] * absRot[i][j2] + eb[j2] * absRot[i][j1], t[i2] * rot[i1][j] - t[i1] * rot[i2][j]};
    }
};

/// The padding of |R| that testObbObb and contactObbObb use (see obbPairFrame).
inline constexpr float kObbPairPadding = 1e-6f;

/// |a_i x b_j| = sin(angle) below which an edge axis gives no usable direction (edges within
/// about 0.06 degrees of parallel): contactObbObb and separationObbObb skip it.
inline constexpr float kMinEdgeAxisLength = 1e-3f;

/// |a_i x b_j| = sqrt(1 - R_ij^2) for orthonormal axes.
[[gnu::always_inline]] inline float edgeAxisLength(const ObbPairFrame& f, int i, int j) {
    return std::sqrt(std::max(0.0f, 1.0f - f.rot[i][j] * f.rot[i][j]));
}

/// `epsilon` pads |R| so that the cross product of two nearly parallel edges (a zero axis, on
/// which every projection is 0 <= 0) cannot report a false separation; 0 when the caller skips
/// those axes itself.
[[gnu::always_inline]] inline ObbPairFrame obbPairFrame(const Obb& a, const Obb& b, float epsilon) {
    ObbPairFrame f;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            f.rot[i][j] = glm::dot(a.axes[i], b.axes[j]);
            f.absRot[i][j] = std::abs(f.rot[i][j]) + epsilon;
        }
    }
    const glm::vec3 toB = b.center - a.center;
    f.t = glm::vec3(glm::dot(toB, a.axes[0]), glm::dot(toB, a.axes[1]), glm::dot(toB, a.axes[2]));
    return f;
}

/// The least separated axis of each kind found by contactObbObb (separations <= 0: the boxes
/// overlap on every axis).
struct LeastPenetration {
    float faceA = -INFINITY, faceB = -INFINITY; ///< The largest separation over A's, B's face axes.
    float edge = -INFINITY; ///< Over the non-degenerate edge axes, normalised; -INFINITY for none.
    int faceAIndex = 0, faceBIndex = 0, edgeI = 0, edgeJ = 0; ///< edge: a_edgeI x b_edgeJ.
};

} // namespace kz::detail
