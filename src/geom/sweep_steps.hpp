// Internal to kz_geom: sweepSphereTriangle, sweepSpherePlane and sweepSphereSphere written once,
// as templates on an observer (explain_recorders.hpp). sweep.cpp runs them with NoTrace, whose
// hooks vanish, so the fast code is what it was; explain_sweep.cpp (another translation unit, so
// the fast one is compiled exactly as before) runs them with the lab's recorders.
#pragma once

#include "closest.hpp"
#include "explain_sweep.hpp"
#include "plane.hpp"
#include "types.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace kz::detail {
namespace {

/// sweepSphereTriangleSteps' face: the plane offset by r toward the centre,
/// |dot(n, o + t d - a)| = r, with the touching point o + t d - side r n inside the triangle.
template <class Observe, class Consider>
[[gnu::always_inline]] inline void sweepTriangleFace(const glm::vec3& o, const glm::vec3& d, float r,
                                                     const Triangle& tri, Observe& observe,
                                                     Consider& consider) {
    using enum SweepCandidateStatus;
    const glm::vec3 n = glm::normalize(glm::cross(tri.b - tri.a, tri.c - tri.a));
    const float height = glm::dot(n, o - tri.a);
    observe.face(n, height);
    const float side = height >= 0.0f ? 1.0f : -1.0f;
    const float approach = side * glm::dot(n, d); // < 0: moving toward the plane
    if (std::abs(height) > r && approach < 0.0f) {
        const float t = (std::abs(height) - r) / -approach;
        const glm::vec3 p = o + t * d - side * r * n;
        // Inside test with the edge normals of the triangle's own plane.
        const bool inside = glm::dot(glm::cross(tri.b - tri.a, p - tri.a), n) >= 0.0f &&
                            glm::dot(glm::cross(tri.c - tri.b, p - tri.b), n) >= 0.0f &&
                            glm::dot(glm::cross(tri.a - tri.c, p - tri.c), n) >= 0.0f;
        if (inside) {
            consider(SweepFeature::Face, 0, t);
        } else {
            observe.rejected(SweepFeature::Face, 0, OffFeature, t);
        }
    } else {
        observe.rejected(SweepFeature::Face, 0, std::abs(height) > r ? MovingAway : AlreadyWithin, 0.0f);
    }
}

/// sweepSphereTriangleSteps' edges: the infinite cylinder of radius r about each edge's line,
/// |w(t) - (w(t) . e) e / (e . e)|^2 = r^2 with w(t) = o + t d - p0, the entry root, and the
/// touching point within the edge. A centre already inside a cylinder (but beyond the edge's
/// ends) can first touch that edge only at an end: the corner spheres find it.
template <class Observe, class Consider>
[[gnu::always_inline]] inline void sweepTriangleEdges(const glm::vec3& o, const glm::vec3& d, float r,
                                                      const Triangle& tri, Observe& observe,
                                                      Consider& consider) {
    using enum SweepCandidateStatus;
    const glm::vec3 ends[3][2] = {{tri.a, tri.b}, {tri.b, tri.c}, {tri.c, tri.a}};
    for (int k = 0; k < 3; ++k) {
        const glm::vec3 &p0 = ends[k][0], &p1 = ends[k][1];
        const glm::vec3 e = p1 - p0;
        const float ee = glm::dot(e, e);
        const glm::vec3 m = o - p0;
        const glm::vec3 dPerp = d - (glm::dot(d, e) / ee) * e;
        const glm::vec3 mPerp = m - (glm::dot(m, e) / ee) * e;
        const float qa = glm::dot(dPerp, dPerp);
        const float qb = glm::dot(mPerp, dPerp);
        const float qc = glm::dot(mPerp, mPerp) - r * r;
        if (qc < 0.0f || !(qa > 0.0f) || qb >= 0.0f) { // inside, parallel or moving away
            observe.rejected(SweepFeature::Edge, k,
                             qc < 0.0f      ? AlreadyWithin
                             : !(qa > 0.0f) ? Parallel
                                            : MovingAway,
                             0.0f);
            continue;
        }
        const float disc = qb * qb - qa * qc;
        if (disc < 0.0f) {
            observe.rejected(SweepFeature::Edge, k, Misses, 0.0f);
            continue;
        }
        const float t = qc / (-qb + std::sqrt(disc)); // the smaller root, without cancellation
        const float along = glm::dot(m + t * d, e) / ee;
        if (along >= 0.0f && along <= 1.0f) {
            consider(SweepFeature::Edge, k, t);
        } else {
            observe.rejected(SweepFeature::Edge, k, OffFeature, t);
        }
    }
}

/// sweepSphereTriangleSteps' corners: |o + t d - p|^2 = r^2, the entry root.
template <class Observe, class Consider>
[[gnu::always_inline]] inline void sweepTriangleCorners(const glm::vec3& o, const glm::vec3& d, float r,
                                                        const Triangle& tri, Observe& observe,
                                                        Consider& consider) {
    using enum SweepCandidateStatus;
    const glm::vec3 cornerPoints[3] = {tri.a, tri.b, tri.c};
    for (int k = 0; k < 3; ++k) {
        const glm::vec3 m = o - cornerPoints[k];
        const float qa = glm::dot(d, d);
        const float qb = glm::dot(m, d);
        const float qc = glm::dot(m, m) - r * r;
        if (qc < 0.0f || !(qa > 0.0f) || qb >= 0.0f) {
            observe.rejected(SweepFeature::Corner, k, qc < 0.0f ? AlreadyWithin : MovingAway, 0.0f);
            continue;
        }
        const float disc = qb * qb - qa * qc;
        if (disc < 0.0f) {
            observe.rejected(SweepFeature::Corner, k, Misses, 0.0f);
            continue;
        }
        consider(SweepFeature::Corner, k, qc / (-qb + std::sqrt(disc)));
    }
}

/// sweepSphereTriangle (sweep.hpp), telling `observe` each step: the start, then each candidate
/// of the face, the edges and the corners, in that order; the earliest within [0, tMax] wins.
template <class Observe>
[[gnu::always_inline]] inline std::optional<float>
sweepSphereTriangleSteps(const Sphere& s, const glm::vec3& velocity, const Triangle& tri, float tMax,
                         Observe& observe) {
    const float r = s.radius;
    if (!(r >= 0.0f) || !isFinite(s.center) || !isFinite(velocity) || !isValid(tri) || !(tMax >= 0.0f)) {
        return std::nullopt;
    }
    const glm::vec3 toClosest = s.center - closestPtPointTriangle(s.center, tri);
    const float startSq = glm::dot(toClosest, toClosest);
    observe.start(startSq, r);
    if (startSq <= r * r) return 0.0f;

    const glm::vec3 o = s.center, d = velocity;
    float best = INFINITY;
    const auto consider = [&](SweepFeature feature, int index, float t) {
        const bool inRange = t >= 0.0f && t <= tMax;
        const bool earlier = t < best;
        if (inRange && earlier) best = t;
        observe.candidate(feature, index, t, inRange, earlier);
    };

    sweepTriangleFace(o, d, r, tri, observe, consider);
    sweepTriangleEdges(o, d, r, tri, observe, consider);
    sweepTriangleCorners(o, d, r, tri, observe, consider);
    if (best == INFINITY) return std::nullopt;
    return best;
}

template <class Observe>
std::optional<float> sweepSpherePlaneSteps(const Sphere& s, const glm::vec3& velocity, const Plane& plane,
                                           float tMax, float gap, Observe& observe) {
    // d(t) = d0 + (n . v) t = gap.
    const float approach = -glm::dot(plane.normal, velocity);
    observe.approach(approach);
    if (!(approach > 0.0f)) return std::nullopt;
    const float d0 = signedDistance(plane, s.center) - s.radius;
    const float t = (d0 - gap) / approach;
    observe.linearRoot(d0, t);
    if (!(t <= tMax) || t == INFINITY) return std::nullopt; // later than tMax, or than float can tell
    return std::max(t, 0.0f);
}

template <class Observe>
std::optional<float> sweepSphereSphereSteps(const Sphere& a, const glm::vec3& velocityA, const Sphere& b,
                                            const glm::vec3& velocityB, float tMax, float gap,
                                            Observe& observe) {
    // |dp + dv t| = rA + rB + gap, the smaller root.
    const glm::vec3 dp = a.center - b.center, dv = velocityA - velocityB;
    const float reach = a.radius + b.radius + gap;
    const float bq = glm::dot(dp, dv);
    observe.approach(dp, dv, reach, bq);
    if (!(bq < 0.0f)) return std::nullopt; // not approaching
    const float av = glm::dot(dv, dv);
    const float cq = glm::dot(dp, dp) - reach * reach;
    observe.quadratic(av, cq);
    if (cq <= 0.0f) return 0.0f;
    const float disc = bq * bq - av * cq;
    observe.discriminant(disc);
    if (disc < 0.0f) return std::nullopt;
    const float t = cq / (-bq + std::sqrt(disc));
    observe.quadraticRoot(t);
    if (!(t <= tMax) || t == INFINITY) return std::nullopt; // later than tMax, or than float can tell
    return t;
}

} // namespace
} // namespace kz::detail
