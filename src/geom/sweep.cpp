// Sweeps: sphere against plane, sphere and triangle (their steps in sweep_steps.hpp, shared with
// the lab's traces), sphere against box.
#include "sweep.hpp"

#include "closest.hpp"
#include "explain_recorders.hpp"
#include "plane.hpp"
#include "sweep_steps.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
using namespace detail;

namespace {

/// The entry root of |m + t d|^2 = r^2 (a circle in 2-D, a sphere in 3-D) for a point outside it
/// moving toward it: the smaller root, taken as c / (-b + sqrt(b^2 - a c)) so that it does not
/// cancel. Empty when the point starts inside, does not approach (or d is zero), or passes by.
template <typename Vec>
std::optional<float> entryRoot(const Vec& m, const Vec& d, float r) {
    const float qa = glm::dot(d, d);
    const float qb = glm::dot(m, d);
    const float qc = glm::dot(m, m) - r * r;
    if (qc < 0.0f || !(qa > 0.0f) || qb >= 0.0f) return std::nullopt;
    const float disc = qb * qb - qa * qc;
    if (disc < 0.0f) return std::nullopt;
    return qc / (-qb + std::sqrt(disc));
}

/// Where o + t d (t >= 0) enters the box [-g, g] (slabs; Ericson 5.3.3): 0 when o is inside, empty
/// when it misses.
std::optional<float> slabEntry(const glm::vec3& o, const glm::vec3& d, const glm::vec3& g) {
    float tEnter = 0.0f;
    float tExit = INFINITY;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0.0f) {
            if (std::abs(o[i]) > g[i]) return std::nullopt;
            continue;
        }
        float tNear = (-g[i] - o[i]) / d[i];
        float tFar = (g[i] - o[i]) / d[i];
        if (tNear > tFar) std::swap(tNear, tFar);
        tEnter = std::max(tEnter, tNear);
        tExit = std::min(tExit, tFar);
        if (!(tEnter <= tExit)) return std::nullopt;
    }
    return tEnter;
}

/// The first entry of o + t d into the rounded box's 12 edge cylinders (each within its edge) and
/// 8 corner spheres, in the box's frame: INFINITY when it enters none.
float firstEdgeOrCorner(const glm::vec3& o, const glm::vec3& d, const glm::vec3& h, float r) {
    float best = INFINITY;
    for (int k = 0; k < 3; ++k) {
        // The four edges along axis k, at (+-h_i, +-h_j) across it: a circle in the (i, j) plane.
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        for (const float si : {-1.0f, 1.0f}) {
            for (const float sj : {-1.0f, 1.0f}) {
                const glm::vec2 m(o[i] - si * h[i], o[j] - sj * h[j]);
                const auto t = entryRoot(m, glm::vec2(d[i], d[j]), r);
                if (t && *t < best && std::abs(o[k] + *t * d[k]) <= h[k]) best = *t;
            }
        }
    }
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p((corner & 1) ? h.x : -h.x, (corner & 2) ? h.y : -h.y, (corner & 4) ? h.z : -h.z);
        if (const auto t = entryRoot(o - p, d, r); t && *t < best) best = *t;
    }
    return best;
}

} // namespace

std::optional<float> sweepSpherePlane(const Sphere& s, const glm::vec3& velocity, const Plane& plane,
                                      float tMax, float gap) {
    NoTrace none;
    return sweepSpherePlaneSteps(s, velocity, plane, tMax, gap, none);
}

std::optional<float> sweepSphereSphere(const Sphere& a, const glm::vec3& velocityA, const Sphere& b,
                                       const glm::vec3& velocityB, float tMax, float gap) {
    NoTrace none;
    return sweepSphereSphereSteps(a, velocityA, b, velocityB, tMax, gap, none);
}

std::optional<float> sweepSphereTriangle(const Sphere& s, const glm::vec3& velocity, const Triangle& tri,
                                         float tMax) {
    NoTrace none;
    return sweepSphereTriangleSteps(s, velocity, tri, tMax, none);
}

std::optional<float> sweepSphereObb(const Sphere& s, const glm::vec3& velocity, const Obb& box, float tMax) {
    const float r = s.radius;
    if (!(r >= 0.0f) || !isFinite(s.center) || !isFinite(velocity) || !isValid(box) || !(tMax >= 0.0f)) {
        return std::nullopt;
    }
    // Into the box's frame: o = A^T (c - centre), d = A^T v; a rigid change of frame keeps t.
    const glm::mat3 toLocal = glm::transpose(box.axes);
    const glm::vec3 o = toLocal * (s.center - box.center);
    const glm::vec3 d = toLocal * velocity;
    const glm::vec3 h = box.half;
    const glm::vec3 outside = o - glm::clamp(o, -h, h);
    if (glm::dot(outside, outside) <= r * r) return 0.0f;

    // The box grown by r holds the rounded box: no entry, no touch. Its entry is found without
    // the limit, which applies to the touch itself: an edge's or a corner's root can come out a
    // rounding error before the grown box's entry, and a limit between the two would drop a touch
    // at exactly the limit (the answer must be the unlimited one whenever it is <= tMax).
    const auto entry = slabEntry(o, d, h + glm::vec3(r));
    if (!entry || *entry == INFINITY) return std::nullopt; // not entered at a finite time
    // Entered beside one face only (the entered one): that is the rounded box's flat face.
    const glm::vec3 p = o + *entry * d;
    int beside = 0;
    for (int i = 0; i < 3; ++i)
        beside += std::abs(p[i]) > h[i] ? 1 : 0;
    if (beside <= 1) {
        if (!(*entry <= tMax)) return std::nullopt;
        return *entry;
    }

    // In a pocket beside an edge or a corner: an edge cylinder or a corner sphere comes first, if any.
    const float t = firstEdgeOrCorner(o, d, h, r);
    if (t == INFINITY || !(t <= tMax)) return std::nullopt;
    return t;
}

} // namespace kz
