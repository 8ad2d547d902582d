#include "sweep.hpp"

#include "closest.hpp"
#include "plane.hpp"

#include <algorithm>
#include <cmath>

namespace kz {

std::optional<float> sweepSpherePlane(const Sphere& s, const glm::vec3& velocity, const Plane& plane,
                                      float tMax, float gap) {
    // d(t) = d0 + (n . v) t = gap.
    const float approach = -glm::dot(plane.normal, velocity);
    if (!(approach > 0.0f)) return std::nullopt;
    const float d0 = signedDistance(plane, s.center) - s.radius;
    const float t = (d0 - gap) / approach;
    if (!(t <= tMax)) return std::nullopt;
    return std::max(t, 0.0f);
}

std::optional<float> sweepSphereSphere(const Sphere& a, const glm::vec3& velocityA, const Sphere& b,
                                       const glm::vec3& velocityB, float tMax, float gap) {
    // |dp + dv t| = rA + rB + gap, the smaller root.
    const glm::vec3 dp = a.center - b.center, dv = velocityA - velocityB;
    const float reach = a.radius + b.radius + gap;
    const float bq = glm::dot(dp, dv);
    if (!(bq < 0.0f)) return std::nullopt; // not approaching
    const float av = glm::dot(dv, dv);
    const float cq = glm::dot(dp, dp) - reach * reach;
    if (cq <= 0.0f) return 0.0f;
    const float disc = bq * bq - av * cq;
    if (disc < 0.0f) return std::nullopt;
    const float t = cq / (-bq + std::sqrt(disc));
    if (!(t <= tMax)) return std::nullopt;
    return t;
}

std::optional<float> sweepSphereTriangle(const Sphere& s, const glm::vec3& velocity, const Triangle& tri,
                                         float tMax) {
    const float r = s.radius;
    if (!(r >= 0.0f) || !isFinite(s.center) || !isFinite(velocity) || !isValid(tri) || !(tMax >= 0.0f)) {
        return std::nullopt;
    }
    const glm::vec3 toClosest = s.center - closestPtPointTriangle(s.center, tri);
    if (glm::dot(toClosest, toClosest) <= r * r) return 0.0f;

    const glm::vec3 o = s.center, d = velocity;
    float best = INFINITY;
    const auto consider = [&](float t) {
        if (t >= 0.0f && t <= tMax && t < best) best = t;
    };

    // The face: the plane offset by r toward the centre, |dot(n, o + t d - a)| = r, with the
    // touching point o + t d - side r n inside the triangle.
    const glm::vec3 n = glm::normalize(glm::cross(tri.b - tri.a, tri.c - tri.a));
    const float height = glm::dot(n, o - tri.a);
    const float side = height >= 0.0f ? 1.0f : -1.0f;
    const float approach = side * glm::dot(n, d); // < 0: moving toward the plane
    if (std::abs(height) > r && approach < 0.0f) {
        const float t = (std::abs(height) - r) / -approach;
        const glm::vec3 p = o + t * d - side * r * n;
        // Inside test with the edge normals of the triangle's own plane.
        const bool inside = glm::dot(glm::cross(tri.b - tri.a, p - tri.a), n) >= 0.0f &&
                            glm::dot(glm::cross(tri.c - tri.b, p - tri.b), n) >= 0.0f &&
                            glm::dot(glm::cross(tri.a - tri.c, p - tri.c), n) >= 0.0f;
        if (inside) consider(t);
    }

    // The edges: the infinite cylinder of radius r about each edge's line,
    // |w(t) - (w(t) . e) e / (e . e)|^2 = r^2 with w(t) = o + t d - p0, the entry root, and the
    // touching point within the edge. A centre already inside a cylinder (but beyond the edge's
    // ends) can first touch that edge only at an end: the corner spheres find it.
    const glm::vec3 ends[3][2] = {{tri.a, tri.b}, {tri.b, tri.c}, {tri.c, tri.a}};
    for (const auto& [p0, p1] : ends) {
        const glm::vec3 e = p1 - p0;
        const float ee = glm::dot(e, e);
        const glm::vec3 m = o - p0;
        const glm::vec3 dPerp = d - (glm::dot(d, e) / ee) * e;
        const glm::vec3 mPerp = m - (glm::dot(m, e) / ee) * e;
        const float qa = glm::dot(dPerp, dPerp);
        const float qb = glm::dot(mPerp, dPerp);
        const float qc = glm::dot(mPerp, mPerp) - r * r;
        if (qc < 0.0f || !(qa > 0.0f) || qb >= 0.0f) continue; // inside, parallel or moving away
        const float disc = qb * qb - qa * qc;
        if (disc < 0.0f) continue;
        const float t = qc / (-qb + std::sqrt(disc)); // the smaller root, without cancellation
        const float along = glm::dot(m + t * d, e) / ee;
        if (along >= 0.0f && along <= 1.0f) consider(t);
    }

    // The corners: |o + t d - p|^2 = r^2, the entry root.
    for (const glm::vec3& p : {tri.a, tri.b, tri.c}) {
        const glm::vec3 m = o - p;
        const float qa = glm::dot(d, d);
        const float qb = glm::dot(m, d);
        const float qc = glm::dot(m, m) - r * r;
        if (qc < 0.0f || !(qa > 0.0f) || qb >= 0.0f) continue;
        const float disc = qb * qb - qa * qc;
        if (disc < 0.0f) continue;
        consider(qc / (-qb + std::sqrt(disc)));
    }
    if (best == INFINITY) return std::nullopt;
    return best;
}

} // namespace kz
