#include "contact.hpp"

#include "closest.hpp"
#include "plane.hpp"

#include <algorithm>
#include <cfloat>

namespace kz {
namespace {

Manifold singlePoint(const glm::vec3& normal, const glm::vec3& position, float depth) {
    Manifold m{normal, 1, {}, depth};
    m.points[0] = {position, depth};
    return m;
}

/// No NaN or infinity may leave a contact query.
std::optional<Manifold> finiteOrNone(const Manifold& m) {
    if (!isFinite(m.normal) || !std::isfinite(m.depth) || m.count < 1 || m.count > 4) return std::nullopt;
    for (int i = 0; i < m.count; ++i) {
        if (!isFinite(m.points[i].position) || !std::isfinite(m.points[i].depth)) return std::nullopt;
    }
    return m;
}

/// Picks 4 of n > 4 points that keep the deepest point and span the largest area
/// (the usual manifold reduction: deepest, farthest from it, largest triangle, farthest outside it).
int reduceToFour(const ContactPoint* in, int n, const glm::vec3& normal, ContactPoint out[4]) {
    int chosen[4] = {0, -1, -1, -1};
    for (int i = 1; i < n; ++i) {
        if (in[i].depth > in[chosen[0]].depth) chosen[0] = i;
    }
    float best = -1.0f;
    for (int i = 0; i < n; ++i) {
        const glm::vec3 d = in[i].position - in[chosen[0]].position;
        if (glm::dot(d, d) > best) best = glm::dot(d, d), chosen[1] = i;
    }
    const auto signedArea = [&](int p, int q, int r) {
        return glm::dot(glm::cross(in[q].position - in[p].position, in[r].position - in[p].position), normal);
    };
    best = -1.0f;
    for (int i = 0; i < n; ++i) {
        const float area = std::abs(signedArea(chosen[0], chosen[1], i));
        if (i != chosen[0] && i != chosen[1] && area > best) best = area, chosen[2] = i;
    }
    // Orient the triangle counter-clockwise about the normal, then take the point farthest outside it.
    if (signedArea(chosen[0], chosen[1], chosen[2]) < 0.0f) std::swap(chosen[1], chosen[2]);
    best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        if (i == chosen[0] || i == chosen[1] || i == chosen[2]) continue;
        const float outside =
            -std::min({signedArea(chosen[0], chosen[1], i), signedArea(chosen[1], chosen[2], i),
                       signedArea(chosen[2], chosen[0], i)});
        if (outside > best) best = outside, chosen[3] = i;
    }
    for (int k = 0; k < 4; ++k)
        out[k] = in[chosen[k]];
    return 4;
}

Manifold fromPoints(const glm::vec3& normal, const ContactPoint* points, int n) {
    Manifold m{normal, 0, {}, 0.0f};
    if (n > 4) {
        m.count = reduceToFour(points, n, normal, m.points.data());
    } else {
        m.count = n;
        std::copy(points, points + n, m.points.begin());
    }
    for (int i = 0; i < m.count; ++i)
        m.depth = std::max(m.depth, m.points[i].depth);
    return m;
}

float sign(float x) {
    return x < 0.0f ? -1.0f : 1.0f;
}

/// Sutherland-Hodgman: keeps the part of `in` with dot(p, n) <= offset.
int clipPolygon(const glm::vec3* in, int n, const glm::vec3& planeNormal, float offset, glm::vec3* out) {
    int count = 0;
    for (int i = 0; i < n; ++i) {
        const glm::vec3& p = in[i];
        const glm::vec3& q = in[(i + 1) % n];
        const float dp = glm::dot(p, planeNormal) - offset;
        const float dq = glm::dot(q, planeNormal) - offset;
        if (dp <= 0.0f) out[count++] = p;
        if ((dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f))
            out[count++] = p + (dp / (dp - dq)) * (q - p);
    }
    return count;
}

} // namespace

std::optional<Manifold> contactSpherePlane(const Sphere& a, const Plane& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const float nLength = glm::length(b.normal);
    const glm::vec3 normal = b.normal / nLength;
    const float distance = signedDistance(b, a.center) / nLength;
    if (distance > a.radius) return std::nullopt;
    return finiteOrNone(singlePoint(normal, a.center - distance * normal, a.radius - distance));
}

std::optional<Manifold> contactSphereSphere(const Sphere& a, const Sphere& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const glm::vec3 d = a.center - b.center;
    const float radiusSum = a.radius + b.radius;
    const float distSq = glm::dot(d, d);
    if (distSq > radiusSum * radiusSum) return std::nullopt;
    const float dist = std::sqrt(distSq);
    const glm::vec3 normal = dist > 0.0f ? d / dist : glm::vec3(0.0f, 1.0f, 0.0f);
    return finiteOrNone(singlePoint(normal, b.center + b.radius * normal, radiusSum - dist));
}

std::optional<Manifold> contactSphereObb(const Sphere& a, const Obb& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const glm::vec3 d = a.center - b.center;
    const glm::vec3 local(glm::dot(d, b.axes[0]), glm::dot(d, b.axes[1]), glm::dot(d, b.axes[2]));
    const glm::vec3 excess = glm::abs(local) - b.half; // > 0 on an axis where the centre is outside
    if (excess.x > 0.0f || excess.y > 0.0f || excess.z > 0.0f) {
        const glm::vec3 closest = closestPtPointObb(a.center, b);
        const glm::vec3 away = a.center - closest;
        const float distSq = glm::dot(away, away);
        if (distSq > a.radius * a.radius) return std::nullopt;
        const float dist = std::sqrt(distSq);
        if (dist > 0.0f) return finiteOrNone(singlePoint(away / dist, closest, a.radius - dist));
    }
    // The centre is inside (or on) the box: leave through the nearest face.
    int face = 0;
    for (int i = 1; i < 3; ++i) {
        if (excess[i] > excess[face]) face = i;
    }
    const float toFace = -excess[face]; // >= 0
    const glm::vec3 normal = glm::normalize(b.axes[face]) * sign(local[face]);
    return finiteOrNone(singlePoint(normal, a.center + toFace * normal, a.radius + toFace));
}

std::optional<Manifold> contactObbPlane(const Obb& a, const Plane& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const float nLength = glm::length(b.normal);
    const glm::vec3 normal = b.normal / nLength;
    const float d = b.d / nLength;
    glm::vec3 boxCorners[8];
    corners(a, boxCorners);
    ContactPoint touching[8];
    int n = 0;
    for (const glm::vec3& corner : boxCorners) {
        const float distance = glm::dot(normal, corner) + d;
        if (distance <= 0.0f) touching[n++] = {corner - distance * normal, -distance};
    }
    if (n == 0) return std::nullopt;
    // The deepest four (a box resting on a face has exactly four).
    const int kept = std::min(n, 4);
    for (int i = 0; i < kept; ++i) { // selection sort: at most 8 corners
        int deepest = i;
        for (int j = i + 1; j < n; ++j) {
            if (touching[j].depth > touching[deepest].depth) deepest = j;
        }
        std::swap(touching[i], touching[deepest]);
    }
    return finiteOrNone(fromPoints(normal, touching, kept));
}

std::optional<Manifold> contactObbObb(const Obb& a, const Obb& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    constexpr float kEpsilon = 1e-6f;
    glm::mat3 rot, absRot; // rot[i][j] = dot(a_i, b_j)
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            rot[i][j] = glm::dot(a.axes[i], b.axes[j]);
            absRot[i][j] = std::abs(rot[i][j]) + kEpsilon;
        }
    }
    const glm::vec3 toB = b.center - a.center;
    const glm::vec3 t(glm::dot(toB, a.axes[0]), glm::dot(toB, a.axes[1]), glm::dot(toB, a.axes[2]));
    const glm::vec3 &ea = a.half, &eb = b.half;

    // Separation along each axis (> 0: a separating axis, no contact); keep the largest.
    float faceA = -INFINITY, faceB = -INFINITY, edge = -INFINITY;
    int faceAIndex = 0, faceBIndex = 0, edgeI = 0, edgeJ = 0;
    for (int i = 0; i < 3; ++i) {
        const float rb = eb[0] * absRot[i][0] + eb[1] * absRot[i][1] + eb[2] * absRot[i][2];
        const float separation = std::abs(t[i]) - (ea[i] + rb);
        if (separation > 0.0f) return std::nullopt;
        if (separation > faceA) faceA = separation, faceAIndex = i;
    }
    for (int j = 0; j < 3; ++j) {
        const float ra = ea[0] * absRot[0][j] + ea[1] * absRot[1][j] + ea[2] * absRot[2][j];
        const float distance = t[0] * rot[0][j] + t[1] * rot[1][j] + t[2] * rot[2][j];
        const float separation = std::abs(distance) - (ra + eb[j]);
        if (separation > 0.0f) return std::nullopt;
        if (separation > faceB) faceB = separation, faceBIndex = j;
    }
    for (int i = 0; i < 3; ++i) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const float ra = ea[i1] * absRot[i2][j] + ea[i2] * absRot[i1][j];
            const float rb = eb[j1] * absRot[i][j2] + eb[j2] * absRot[i][j1];
            const float distance = t[i2] * rot[i1][j] - t[i1] * rot[i2][j];
            const float separation = std::abs(distance) - (ra + rb);
            if (separation > 0.0f) return std::nullopt;
            // |a_i x b_j| = sin(angle); near-parallel edges give no usable axis (the face
            // axes already cover them), so they are not candidates for the contact normal.
            const float axisLength = std::sqrt(std::max(0.0f, 1.0f - rot[i][j] * rot[i][j]));
            if (axisLength < 1e-3f) continue;
            const float normalised = separation / axisLength;
            if (normalised > edge) edge = normalised, edgeI = i, edgeJ = j;
        }
    }

    // Prefer a's faces, then b's, then edges, unless the other clearly penetrates less
    // (Box2D's relative and absolute tolerances): this keeps manifolds stable frame to frame.
    constexpr float kRelative = 0.95f;
    const float absolute = 0.005f * std::max({ea.x, ea.y, ea.z, eb.x, eb.y, eb.z});
    const bool useFaceB = faceB > kRelative * faceA + absolute;
    const float faceSeparation = useFaceB ? faceB : faceA;

    if (edge > kRelative * faceSeparation + absolute) {
        // Edge a_i against edge b_j; L points from a to b.
        glm::vec3 axis = glm::normalize(glm::cross(a.axes[edgeI], b.axes[edgeJ]));
        if (glm::dot(axis, toB) < 0.0f) axis = -axis;
        glm::vec3 onA = a.center, onB = b.center;
        for (int k = 0; k < 3; ++k) {
            if (k != edgeI) onA += a.axes[k] * (ea[k] * sign(glm::dot(a.axes[k], axis)));
            if (k != edgeJ) onB -= b.axes[k] * (eb[k] * sign(glm::dot(b.axes[k], axis)));
        }
        const glm::vec3 alongA = a.axes[edgeI] * ea[edgeI], alongB = b.axes[edgeJ] * eb[edgeJ];
        const auto closest =
            closestPtLinePieces(asSegment(onA - alongA, onA + alongA), asSegment(onB - alongB, onB + alongB));
        if (closest) return finiteOrNone(singlePoint(-axis, closest->p2, -edge));
    }

    // Face contact: the reference face (outward normal toward the other box) and the incident
    // face of the other box most anti-parallel to it.
    const Obb& ref = useFaceB ? b : a;
    const Obb& inc = useFaceB ? a : b;
    const int refAxis = useFaceB ? faceBIndex : faceAIndex;
    const glm::vec3 refToInc = inc.center - ref.center;
    const glm::vec3 refNormal = ref.axes[refAxis] * sign(glm::dot(refToInc, ref.axes[refAxis]));

    int incAxis = 0;
    float bestAlign = -1.0f;
    for (int k = 0; k < 3; ++k) {
        const float align = std::abs(glm::dot(inc.axes[k], refNormal));
        if (align > bestAlign) bestAlign = align, incAxis = k;
    }
    const glm::vec3 incNormal = -inc.axes[incAxis] * sign(glm::dot(inc.axes[incAxis], refNormal));
    const int u = (incAxis + 1) % 3, v = (incAxis + 2) % 3;
    const glm::vec3 incCenter = inc.center + incNormal * inc.half[incAxis];
    const glm::vec3 du = inc.axes[u] * inc.half[u], dv = inc.axes[v] * inc.half[v];
    glm::vec3 polygon[8] = {incCenter + du + dv, incCenter - du + dv, incCenter - du - dv,
                            incCenter + du - dv};
    glm::vec3 scratch[8];
    int n = 4;

    // Clip against the four side planes of the reference face, in coordinates about ref.center.
    for (glm::vec3& p : polygon)
        p -= ref.center;
    for (int k = 0; k < 3 && n > 0; ++k) {
        if (k == refAxis) continue;
        n = clipPolygon(polygon, n, ref.axes[k], ref.half[k], scratch);
        n = clipPolygon(scratch, n, -ref.axes[k], ref.half[k], polygon);
    }

    // Keep the clipped points at or below the reference face.
    ContactPoint points[8];
    int count = 0;
    for (int i = 0; i < n; ++i) {
        const float separation = glm::dot(polygon[i], refNormal) - ref.half[refAxis];
        if (separation > 0.0f) continue;
        const glm::vec3 world = polygon[i] + ref.center;
        // Points lie on b's surface: on the incident face when b is incident, else projected
        // onto b's reference face.
        points[count++] = {useFaceB ? world - separation * refNormal : world, -separation};
    }
    const glm::vec3 normal = useFaceB ? refNormal : -refNormal; // from b toward a
    if (count == 0) {
        // Rounding can clip every point away on a barely touching pair: fall back to the
        // incident box's corner deepest along the reference normal.
        glm::vec3 corner = inc.center;
        for (int k = 0; k < 3; ++k)
            corner -= inc.axes[k] * (inc.half[k] * sign(glm::dot(inc.axes[k], refNormal)));
        const float separation = glm::dot(corner - ref.center, refNormal) - ref.half[refAxis];
        const float depth = std::max(0.0f, -separation);
        return finiteOrNone(singlePoint(normal, useFaceB ? corner - separation * refNormal : corner, depth));
    }
    return finiteOrNone(fromPoints(normal, points, count));
}

std::optional<Manifold> contactSphereTriangle(const Sphere& a, const Triangle& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const glm::vec3 closest = closestPtPointTriangle(a.center, b);
    const glm::vec3 away = a.center - closest;
    const float distSq = glm::dot(away, away);
    if (distSq > a.radius * a.radius) return std::nullopt;
    const float dist = std::sqrt(distSq);
    glm::vec3 normal = dist > 0.0f ? away / dist : glm::vec3(0.0f);
    if (!(dist > 0.0f) || !isFinite(normal)) normal = glm::normalize(glm::cross(b.b - b.a, b.c - b.a));
    return finiteOrNone(singlePoint(normal, closest, a.radius - dist));
}

} // namespace kz
