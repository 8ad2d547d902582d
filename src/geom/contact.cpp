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

namespace {

// ------------------------------------------------------------------ box against triangle

/// The triangle in the box's frame, where the box is [-half, half].
struct LocalTriangle {
    glm::vec3 p[3];
    glm::vec3 edge[3]; ///< edge[i] = p[i + 1] - p[i].
    glm::vec3 normal;  ///< Unit (b - a) x (c - a); zero when that underflows or overflows.
};

LocalTriangle toBoxFrame(const Obb& box, const Triangle& tri) {
    const glm::mat3 toLocal = glm::transpose(box.axes); // axes are orthonormal
    LocalTriangle t{};
    t.p[0] = toLocal * (tri.a - box.center);
    t.p[1] = toLocal * (tri.b - box.center);
    t.p[2] = toLocal * (tri.c - box.center);
    for (int i = 0; i < 3; ++i)
        t.edge[i] = t.p[(i + 1) % 3] - t.p[i];
    // In double: a float cross product of a sliver's nearly parallel edges loses most of its
    // digits, and the corners would then spread along the normal by that error times their size.
    const glm::dvec3 p0(t.p[0]);
    const glm::dvec3 n = glm::cross(glm::dvec3(t.p[1]) - p0, glm::dvec3(t.p[2]) - p0);
    const double length = glm::length(n);
    t.normal = length > 0.0 && std::isfinite(length) ? glm::vec3(n / length) : glm::vec3(0.0f);
    return t;
}

/// sin(angle) below which a box edge and a triangle edge count as parallel. The axis is built
/// from the edge vector itself (not from a padded rotation as in contactObbObb), so it stays
/// meaningful far closer to parallel; a larger cut-off would let a gap along a skipped axis go
/// unseen by up to about sin * size.
constexpr float kEdgeAxisMinSine = 1e-5f;

/// The triangle projects to [lo, hi] and the box to [-r, r] on an axis. Moving the box by hi + r
/// along +axis, or by r - lo along -axis, separates them; minus the shorter is the separation,
/// max(lo, -hi) - r (> 0: apart).
float separationOnAxis(float t0, float t1, float t2, float r) {
    const float lo = std::min(t0, std::min(t1, t2)), hi = std::max(t0, std::max(t1, t2));
    return std::max(lo, -hi) - r;
}

/// Which way the box leaves along an axis: +1 when hi + r <= r - lo (+axis on a tie), else -1.
float pushOnAxis(float t0, float t1, float t2) {
    const float lo = std::min(t0, std::min(t1, t2)), hi = std::max(t0, std::max(t1, t2));
    return hi + lo <= 0.0f ? 1.0f : -1.0f;
}

/// Box axis k x triangle edge e, written out (one component is zero).
glm::vec3 edgeAxis(int k, const glm::vec3& e) {
    glm::vec3 axis(0.0f);
    axis[(k + 1) % 3] = -e[(k + 2) % 3];
    axis[(k + 2) % 3] = e[(k + 1) % 3];
    return axis;
}

/// The separation along each of the 13 axes (Akenine-Möller's triangle-box test, each gap
/// divided by its axis's length). All 13, with no early exit: on a mix of hits and misses the
/// exit branches cost about what they save, and the contact and separation queries then agree
/// exactly on which pairs touch.
struct ObbTriangleSeparations {
    /// [0]: the triangle normal; [1 + k]: box axis k; [4 + 3k + j]: box axis k x triangle
    /// edge j, -INFINITY when skipped as parallel.
    float gap[13];

    float triangle() const { return gap[0]; }
    float face(int k) const { return gap[1 + k]; }
    float edge(int k, int j) const { return gap[4 + 3 * k + j]; }

    /// The largest; NaN when an overflow made any NaN (or +INFINITY, which meets a skipped axis's
    /// -INFINITY in the sum).
    float largest() const {
        float best = gap[0], sum = gap[0];
        for (int i = 1; i < 13; ++i)
            best = std::max(best, gap[i]), sum += gap[i];
        return std::isnan(sum) ? sum : best;
    }
};

/// Separation along box axis K x triangle edge e, over the axis's length (-INFINITY when the two
/// are within kEdgeAxisMinSine of parallel). Compile-time K: glm's runtime indexing is a switch.
template <int K>
float edgeSeparation(const LocalTriangle& t, const glm::vec3& h, const glm::vec3& e) {
    constexpr int u = (K + 1) % 3, v = (K + 2) % 3;
    const float au = -e[v], av = e[u]; // the axis: component u, component v, 0 along K
    const auto project = [&](const glm::vec3& p) { return au * p[u] + av * p[v]; };
    const float lengthSq = au * au + av * av;
    const float gap = separationOnAxis(project(t.p[0]), project(t.p[1]), project(t.p[2]),
                                       h[u] * std::abs(au) + h[v] * std::abs(av));
    return lengthSq > kEdgeAxisMinSine * kEdgeAxisMinSine * glm::dot(e, e) ? gap / std::sqrt(lengthSq)
                                                                           : -INFINITY;
}

ObbTriangleSeparations separations(const LocalTriangle& t, const glm::vec3& h) {
    ObbTriangleSeparations s{};
    const glm::vec3& n = t.normal;
    s.gap[0] = separationOnAxis(glm::dot(n, t.p[0]), glm::dot(n, t.p[1]), glm::dot(n, t.p[2]),
                                glm::dot(h, glm::abs(n)));
    s.gap[1] = separationOnAxis(t.p[0].x, t.p[1].x, t.p[2].x, h.x);
    s.gap[2] = separationOnAxis(t.p[0].y, t.p[1].y, t.p[2].y, h.y);
    s.gap[3] = separationOnAxis(t.p[0].z, t.p[1].z, t.p[2].z, h.z);
    for (int j = 0; j < 3; ++j) {
        s.gap[4 + j] = edgeSeparation<0>(t, h, t.edge[j]);
        s.gap[7 + j] = edgeSeparation<1>(t, h, t.edge[j]);
        s.gap[10 + j] = edgeSeparation<2>(t, h, t.edge[j]);
    }
    return s;
}

/// What the contact features need: the box, the triangle in its frame, and a rounding allowance
/// for points exactly on a face (touching).
struct ObbTriangleFrame {
    const Obb& box;
    const LocalTriangle& tri;
    float slop;

    ContactPoint worldPoint(const glm::vec3& local, float depth) const {
        return {box.center + box.axes * local, std::max(depth, 0.0f)};
    }
};

/// Triangle normal n (unit, box frame, toward the box): where the incident box face (the one
/// most anti-parallel to n), seen along n, covers the triangle, and how far below the triangle
/// it is there. That is the incident face clipped to the triangle's side planes and projected
/// onto its plane, but computed the other way round (the triangle clipped to the face's four
/// side planes, swept along n) for precision: the triangle's side planes meet at a sliver's sharp
/// corner at a grazing angle, so clipping against them can slide a point off the triangle, while
/// the face's side planes meet at a good angle (n is within 55 degrees of the face's normal).
int triangleFacePoints(const ObbTriangleFrame& f, const glm::vec3& n, ContactPoint* points) {
    const glm::vec3& h = f.box.half;
    int k = 0;
    for (int i = 1; i < 3; ++i) {
        if (std::abs(n[i]) > std::abs(n[k])) k = i;
    }
    // A point x of the triangle lies over the face point x - s n, with s = (x_k - face) / n_k.
    const float face = -sign(n[k]) * h[k];
    glm::vec3 polygon[8] = {f.tri.p[0], f.tri.p[1], f.tri.p[2]}, scratch[8];
    int count = 3;
    for (const int side : {(k + 1) % 3, (k + 2) % 3}) {
        // (x - s n)_side = dot(x, m) + offset, kept within [-h, h].
        const float slope = n[side] / n[k];
        glm::vec3 m(0.0f);
        m[side] = 1.0f;
        m[k] = -slope;
        const float offset = slope * face;
        count = clipPolygon(polygon, count, m, h[side] - offset, scratch);
        count = clipPolygon(scratch, count, -m, h[side] + offset, polygon);
    }
    int kept = 0;
    for (int i = 0; i < count; ++i) {
        const float depth = (polygon[i][k] - face) / n[k];
        if (depth >= -f.slop) points[kept++] = f.worldPoint(polygon[i], depth);
    }
    return kept;
}

/// Box face k, the box leaving along push * axis k: the triangle clipped to that face's side
/// planes, its points behind the face looking toward the triangle.
int boxFacePoints(const ObbTriangleFrame& f, int k, float push, ContactPoint* points) {
    const glm::vec3& h = f.box.half;
    glm::vec3 polygon[8] = {f.tri.p[0], f.tri.p[1], f.tri.p[2]}, scratch[8];
    int count = 3;
    for (const int side : {(k + 1) % 3, (k + 2) % 3}) {
        glm::vec3 axis(0.0f);
        axis[side] = 1.0f;
        count = clipPolygon(polygon, count, axis, h[side], scratch);
        count = clipPolygon(scratch, count, -axis, h[side], polygon);
    }
    int kept = 0;
    for (int i = 0; i < count; ++i) {
        const float depth = h[k] + push * polygon[i][k];
        if (depth >= -f.slop) points[kept++] = f.worldPoint(polygon[i], depth);
    }
    return kept;
}

/// Edge axis n (unit, box frame, toward the box): the box edge along axis k deepest toward the
/// triangle against triangle edge j; the point on the triangle's edge. Should the opposite corner
/// reach deeper along n than edge j (a tie with another axis), that corner is the point.
int edgePoint(const ObbTriangleFrame& f, int k, int j, const glm::vec3& n, float depth,
              ContactPoint* points) {
    const glm::vec3 &p = f.tri.p[j], &q = f.tri.p[(j + 1) % 3], &opposite = f.tri.p[(j + 2) % 3];
    if (glm::dot(n, opposite) > std::max(glm::dot(n, p), glm::dot(n, q))) {
        points[0] = f.worldPoint(opposite, depth);
        return 1;
    }
    const glm::vec3& h = f.box.half;
    glm::vec3 mid(0.0f), along(0.0f);
    for (int i = 0; i < 3; ++i) {
        if (i != k) mid[i] = -sign(n[i]) * h[i];
    }
    along[k] = h[k];
    const auto closest = closestPtLinePieces(asSegment(mid - along, mid + along), asSegment(p, q));
    if (!closest) return 0;
    points[0] = f.worldPoint(closest->p2, depth);
    return 1;
}

/// Valid shapes whose triangle keeps a finite, non-zero normal in the box's frame.
std::optional<LocalTriangle> validBoxFrame(const Obb& a, const Triangle& b) {
    if (!isValid(a) || !isValid(b)) return std::nullopt;
    const LocalTriangle t = toBoxFrame(a, b);
    if (t.normal == glm::vec3(0.0f)) return std::nullopt;
    return t;
}

} // namespace

std::optional<Manifold> contactObbTriangle(const Obb& a, const Triangle& b) {
    const auto local = validBoxFrame(a, b);
    if (!local) return std::nullopt;
    const LocalTriangle& tri = *local;
    const ObbTriangleSeparations gaps = separations(tri, a.half);
    if (!(gaps.largest() <= 0.0f)) return std::nullopt; // apart, or NaN

    int face = 0, edgeBox = 0, edgeTri = 0;
    for (int k = 1; k < 3; ++k) {
        if (gaps.face(k) > gaps.face(face)) face = k;
    }
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j) {
            if (gaps.edge(k, j) > gaps.edge(edgeBox, edgeTri)) edgeBox = k, edgeTri = j;
        }
    }
    const float edgeGap = gaps.edge(edgeBox, edgeTri);

    // Prefer the triangle normal, then the box faces, unless the next kind clearly penetrates
    // less (Box2D's relative and absolute tolerances, as in contactObbObb).
    constexpr float kRelative = 0.95f;
    const float absolute = 0.005f * std::max({a.half.x, a.half.y, a.half.z});
    const bool useBoxFace = gaps.face(face) > kRelative * gaps.triangle() + absolute;
    const float faceGap = useBoxFace ? gaps.face(face) : gaps.triangle();
    const bool useEdge = edgeGap > kRelative * faceGap + absolute;

    // Rounding allowance for points exactly on the reference plane (a touching pair).
    float scale = std::max({a.half.x, a.half.y, a.half.z});
    for (const glm::vec3& p : tri.p)
        scale = std::max({scale, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
    const ObbTriangleFrame frame{a, tri, 8.0f * FLT_EPSILON * scale};

    // The preferred feature first; should its clipping leave nothing (an axis kept by the
    // tolerance whose feature is not where they touch), the next one.
    enum Feature { TriangleFace, BoxFace, Edge };
    Feature order[3] = {TriangleFace, BoxFace, Edge};
    if (useEdge) {
        order[0] = Edge, order[1] = TriangleFace, order[2] = BoxFace;
    } else if (useBoxFace) {
        order[0] = BoxFace, order[1] = TriangleFace;
    }
    ContactPoint points[8];
    for (const Feature feature : order) {
        glm::vec3 normal(0.0f); // box frame, from the triangle toward the box
        int count = 0;
        if (feature == TriangleFace) {
            const glm::vec3& n = tri.normal;
            normal = n * pushOnAxis(glm::dot(n, tri.p[0]), glm::dot(n, tri.p[1]), glm::dot(n, tri.p[2]));
            count = triangleFacePoints(frame, normal, points);
        } else if (feature == BoxFace) {
            const float push = pushOnAxis(tri.p[0][face], tri.p[1][face], tri.p[2][face]);
            normal[face] = push;
            count = boxFacePoints(frame, face, push, points);
        } else if (edgeGap > -INFINITY) {
            const glm::vec3 axis = glm::normalize(edgeAxis(edgeBox, tri.edge[edgeTri]));
            normal = axis *
                     pushOnAxis(glm::dot(axis, tri.p[0]), glm::dot(axis, tri.p[1]), glm::dot(axis, tri.p[2]));
            count = edgePoint(frame, edgeBox, edgeTri, normal, -edgeGap, points);
        }
        if (count > 0) return finiteOrNone(fromPoints(glm::normalize(a.axes * normal), points, count));
    }
    return std::nullopt;
}

float separationObbTriangle(const Obb& a, const Triangle& b) {
    const auto local = validBoxFrame(a, b);
    if (!local) return INFINITY;
    const float separation = separations(*local, a.half).largest();
    return std::isnan(separation) ? INFINITY : separation; // overflow
}

} // namespace kz
