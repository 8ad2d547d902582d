// The contact traces: each query's own code (contact.cpp, contact_obb.cpp,
// contact_obb_triangle.cpp) run with a recorder; for box against box also the 15 axes with the
// numbers testObbObb compares, from the same ObbPairFrame.
#include "explain_contact.hpp"

#include "closest_steps.hpp"
#include "contact_detail.hpp"
#include "contact_obb_steps.hpp"
#include "contact_obb_triangle_steps.hpp"
#include "contact_steps.hpp"
#include "explain_recorders.hpp"
#include "obb_pair.hpp"

#include <algorithm>

namespace kz {
using namespace detail;

/// The fast path's overload is in contact_steps.hpp.
glm::vec3 detail::closestPointOf(const glm::vec3& p, const Triangle& tri, SphereTriangleRecorder& recorder) {
    return closestPtPointTriangleSteps(p, tri, recorder.point);
}

namespace {

/// A face axis: the box axis turned toward B, the centres' signed distance along it.
SatAxis faceAxis(SatAxisKind kind, const glm::vec3& boxAxis, float signedDistance, float radiusA,
                 float radiusB, float separation) {
    return {kind, boxAxis * sign(signedDistance), radiusA, radiusB, std::abs(signedDistance), separation,
            false};
}

/// Edge axis a_i x b_j: the frame's unnormalised numbers are projections on e_i x R_j (B's axis j
/// in A's frame), so they are divided by its length, sqrt(R_i1j^2 + R_i2j^2), which keeps its
/// digits near parallel. Numbers as they are when the edges are too close to parallel.
SatAxis edgeAxis(const Obb& a, const Obb& b, const ObbPairFrame& f, int i, int j) {
    const auto edge = f.edgeAxis(a.half, b.half, i, j);
    if (edgeAxisLength(f, i, j) < kMinEdgeAxisLength) {
        return {SatAxisKind::Edge,       glm::vec3(0.0f),   edge.ra, edge.rb,
                std::abs(edge.distance), edge.separation(), true};
    }
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    glm::vec3 local(0.0f); // e_i x R_j
    local[i1] = -f.rot[i2][j];
    local[i2] = f.rot[i1][j];
    const float length = glm::length(local);
    return {SatAxisKind::Edge,
            a.axes * (local * (sign(edge.distance) / length)),
            edge.ra / length,
            edge.rb / length,
            std::abs(edge.distance) / length,
            edge.separation() / length,
            false};
}

} // namespace

ObbObbTrace explainObbObb(const Obb& a, const Obb& b) {
    ObbObbTrace out{};
    out.separatingAxis = out.leastFaceA = out.leastFaceB = out.leastEdge = out.leastPenetrationAxis = -1;
    out.manifold.referenceBox = out.manifold.referenceAxis = out.manifold.incidentAxis = -1;
    if (!isValid(a) || !isValid(b)) return out;
    out.valid = true;

    // The axes in testObbObb's order, from the frame it uses, each checked as it checks it.
    const ObbPairFrame f = obbPairFrame(a, b, kObbPairPadding);
    const glm::vec3 &ea = a.half, &eb = b.half;
    for (int i = 0; i < 3; ++i) {
        out.axes[static_cast<std::size_t>(i)] =
            faceAxis(SatAxisKind::FaceA, a.axes[i], f.t[i], ea[i], f.radiusOfBOnFaceA(eb, i),
                     f.separationOnFaceA(ea, eb, i));
        out.axes[static_cast<std::size_t>(3 + i)] =
            faceAxis(SatAxisKind::FaceB, b.axes[i], f.distanceOnFaceB(i), f.radiusOfAOnFaceB(ea, i), eb[i],
                     f.separationOnFaceB(ea, eb, i));
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j)
            out.axes[static_cast<std::size_t>(6 + 3 * i + j)] = edgeAxis(a, b, f, i, j);
    }
    for (int k = 0; k < 15 && out.separatingAxis < 0; ++k) {
        // An edge's sign is the unnormalised separation's: its length is >= 1e-3, or it is as it is.
        if (out.axes[static_cast<std::size_t>(k)].separation > 0.0f) out.separatingAxis = k;
    }
    out.overlap = out.separatingAxis < 0;

    ObbObbRecorder recorder{out};
    out.contact = contactObbObbSteps(a, b, recorder);
    return out;
}

SphereSphereTrace explainSphereSphere(const Sphere& a, const Sphere& b) {
    SphereSphereTrace out{};
    if (!isValid(a) || !isValid(b)) return out;
    out.valid = true;
    SphereSphereRecorder recorder{out};
    out.contact = contactSphereSphereSteps(a, b, recorder);
    out.overlap = out.distanceSq <= out.radiusSum * out.radiusSum;
    out.distance = std::sqrt(out.distanceSq);
    out.separation = out.distance - out.radiusSum;
    return out;
}

ObbPlaneTrace explainObbPlane(const Obb& a, const Plane& b) {
    ObbPlaneTrace out{};
    if (!isValid(a) || !isValid(b)) return out;
    out.valid = true;
    ObbPlaneRecorder recorder{out};
    out.contact = contactObbPlaneSteps(a, b, recorder);
    return out;
}

SphereObbTrace explainSphereObb(const Sphere& a, const Obb& b) {
    SphereObbTrace out{};
    out.exitAxis = -1;
    if (!isValid(a) || !isValid(b)) return out;
    out.valid = true;
    out.closest = a.center; // inside; the query's clamped point replaces it outside
    SphereObbRecorder recorder{out};
    out.contact = contactSphereObbSteps(a, b, recorder);
    out.overlap = out.contact.has_value();
    return out;
}

SphereTriangleTrace explainSphereTriangle(const Sphere& a, const Triangle& b) {
    SphereTriangleTrace out{};
    if (!isValid(a) || !isValid(b)) return out;
    out.valid = true;
    SphereTriangleRecorder recorder{a, PointTriangleRecorder{b, out.closestPoint}, out};
    out.contact = contactSphereTriangleSteps(a, b, recorder);
    return out;
}

ObbTriangleTrace explainObbTriangle(const Obb& a, const Triangle& b) {
    ObbTriangleTrace out{};
    out.separation = INFINITY;
    out.largestAxis = out.leastBoxFace = out.leastEdgeBoxAxis = out.leastEdgeTriangleEdge = -1;
    out.pointCount = {-1, -1, -1};
    ObbTriangleRecorder recorder{a, out};
    out.contact = contactObbTriangleSteps(a, b, recorder);
    return out;
}

void ObbTriangleRecorder::separations(const float* gap, float largest) {
    out.separation = std::isnan(largest) ? INFINITY : largest; // as separationObbTriangle
    out.overlap = out.separation <= 0.0f;
    out.largestAxis = 0;
    for (int i = 0; i < 13; ++i) {
        ObbTriangleAxis& x = out.axes[static_cast<std::size_t>(i)];
        x.kind = i == 0  ? ObbTriangleAxisKind::TriangleNormal
                 : i < 4 ? ObbTriangleAxisKind::BoxFace
                         : ObbTriangleAxisKind::Edge;
        x.separation = gap[i];
        x.skipped = x.kind == ObbTriangleAxisKind::Edge && gap[i] == -INFINITY;
        if (gap[i] > gap[out.largestAxis]) out.largestAxis = i;
        if (x.skipped) continue;
        glm::vec3 boxAxis(0.0f); // box axis k, for the face axes (1 + k) and the edge axes (4 + 3 k + j)
        boxAxis[i < 4 ? std::max(i - 1, 0) : (i - 4) / 3] = 1.0f;
        const glm::vec3 local = glm::normalize(i == 0  ? normal
                                               : i < 4 ? boxAxis
                                                       : glm::cross(boxAxis, edges[(i - 4) % 3]));
        float lo = INFINITY, hi = -INFINITY;
        for (const glm::vec3& corner : p)
            lo = std::min(lo, glm::dot(local, corner)), hi = std::max(hi, glm::dot(local, corner));
        const float push = hi + lo <= 0.0f ? 1.0f : -1.0f; // the triangle toward -axis
        x.axis = push * (box.axes * local);
        x.boxRadius = glm::dot(box.half, glm::abs(local));
        x.triangleMin = push > 0.0f ? lo : -hi;
        x.triangleMax = push > 0.0f ? hi : -lo;
    }
}

} // namespace kz
