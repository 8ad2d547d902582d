// The one watertight ray-triangle test of Kolize (private to src/geom): raycastBarycentric calls
// WatertightRay::intersect and MeshBvh's leaves intersectValid, the same template with only the
// checks skipped that the leaves' (isValid) triangles always pass, so they agree bit for bit.
#pragma once

#include "explain_ray.hpp"
#include "raycast.hpp"
#include "types.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>

namespace kz::detail {

/// A ray prepared for the watertight test (Woop, Benthin, Wald, "Watertight Ray/Triangle
/// Intersection", JCGT 2013): the shear's axes and constants and |dir| are computed once per ray,
/// so a query testing many triangles (MeshBvh) pays them once. intersect() rejects by the signs
/// of the edge functions first, the cheapest test, then by the triangle's own checks.
struct WatertightRay {
    glm::vec3 origin;
    glm::vec3 dir;
    float dirLength;
    float tMax;
    int ix, iy, iz;    ///< The shear frame's axes: the ray runs along iz (its largest |component|).
    double ox, oy, oz; ///< origin[ix], origin[iy], origin[iz].
    double sx, sy, sz;

    /// For a ray that isValid and a tMax that validTMax (the callers check both).
    WatertightRay(const Ray& ray, float tMaxIn)
        : origin(ray.origin), dir(ray.dir), dirLength(glm::length(ray.dir)), tMax(tMaxIn) {
        // Shear the vertices into a frame where the ray is the +z axis through the origin; the 2D
        // edge functions U, V, W are then evaluated identically for an edge shared by two
        // triangles, so no ray slips between them.
        // iz is x if |x| > |y| and |x| > |z|, else y if |y| > |z|, else z; then ix, iy follow
        // it cyclically, swapped when dir[iz] < 0 to keep the winding. Computed with arithmetic
        // on the comparisons and a table, not branches (which GCC makes of selects and of
        // glm::abs here): which axis wins changes unpredictably from one ray to the next.
        static constexpr int kNextAxis[3] = {1, 2, 0};
        const float absX = std::abs(ray.dir.x), absY = std::abs(ray.dir.y), absZ = std::abs(ray.dir.z);
        const int axisOfXY = absX > absY ? 0 : 1;
        const int zWins = std::max(absX, absY) > absZ ? 0 : 1;
        iz = axisOfXY + zWins * (2 - axisOfXY);
        const int next = kNextAxis[iz];
        const int nextNext = kNextAxis[next];
        // The components by index through glm::value_ptr: glm's operator[] is a switch.
        const float* o = glm::value_ptr(ray.origin);
        const float* d = glm::value_ptr(ray.dir);
        const int swap = d[iz] < 0.0f ? 1 : 0;
        ix = next + swap * (nextNext - next);
        iy = nextNext + swap * (next - nextNext);
        ox = o[ix];
        oy = o[iy];
        oz = o[iz];
        sx = static_cast<double>(d[ix]) / d[iz];
        sy = static_cast<double>(d[iy]) / d[iz];
        sz = 1.0 / d[iz];
    }

    /// The hit with 0 <= t <= tMax of the contract of raycastBarycentric (raycast.hpp): false for
    /// a miss, a zero-area or non-finite triangle, a ray parallel to it or a non-finite result.
    bool intersect(const Triangle& tri, TriangleHit& hit) const {
        return run<false>(glm::value_ptr(tri.a), glm::value_ptr(tri.b), glm::value_ptr(tri.c), hit, nullptr);
    }

    /// intersect() for a triangle that isValid (types.hpp; MeshBvh keeps only those), read where
    /// it lies in a leaf: coordinate `axis` of vertex a, b, c at a[axis * stride],
    /// b[axis * stride], c[axis * stride]. The same arithmetic on the same floats, so the same
    /// result to the bit; it skips only checks that such a triangle always passes (see run), and
    /// is inlined into MeshBvh's traversal (as a call it cost spills of the traversal's vectors
    /// and a copy of the triangle out of its leaf).
    [[gnu::always_inline]] bool intersectValid(const float* a, const float* b, const float* c,
                                               std::size_t stride, TriangleHit& hit) const {
        return run<false, true>(a, b, c, hit, nullptr, stride);
    }

    /// intersect() that also writes its steps and its reason to `trace` (explainRaycastTriangle).
    /// The same template runs both, so the two cannot disagree; intersect() instantiates it without
    /// the recording, which compiles to the code it had before traces existed.
    bool intersectExplained(const Triangle& tri, TriangleHit& hit, RayTriangleTrace& trace) const {
        trace.ix = ix;
        trace.iy = iy;
        trace.iz = iz;
        trace.shear = {sx, sy, sz};
        return run<true>(glm::value_ptr(tri.a), glm::value_ptr(tri.b), glm::value_ptr(tri.c), hit, &trace);
    }

private:
    /// The test (see intersect). The shear and the edge functions run in double (as fast as float
    /// for these scalar operations): a float vertex minus a float origin is exact there, and the
    /// edge functions of float-sized inputs lose about 2^-53 of their terms instead of 2^-24. In
    /// float, a needle (one edge hundreds of times shorter than the others) amplifies that loss by
    /// its aspect, so a ray passing units beside it could be accepted with a hit point off the
    /// triangle; in double the hit point stays within a tiny fraction of a float ulp of the
    /// triangle. With kTrace, every step is copied to `trace` as it is computed.
    /// The vertices' coordinates are pa[axis * stride], pb[...], pc[...] (by index: glm's
    /// operator[] is a switch). kValid: the caller guarantees isValid(triangle), whose checks
    /// (finite vertices; areaSq = |face normal|^2 > 0 and finite, so its square root is too) are
    /// the triangle's own rejections here, skipped; so are the final checks of u, v and the normal,
    /// which such a triangle always passes: no input is then NaN or infinite, u, v, w share their
    /// sign and det is their sum, so v / det and w / det lie in [0, 1], and a finite face normal
    /// divided by its positive finite length is finite.
    template <bool kTrace, bool kValid = false>
    [[gnu::always_inline]] bool run(const float* pa, const float* pb, const float* pc, TriangleHit& hit,
                                    RayTriangleTrace* trace, std::size_t stride = 1) const {
        static_assert(!(kTrace && kValid), "a trace records every check");
        // Records the reason of a rejection (trace only); a constant argument, so free otherwise.
        const auto reject = [&](RayTriangleReason reason) {
            if constexpr (kTrace) trace->reason = reason;
            return false;
        };
        const double az = pa[iz * stride] - oz, bz = pb[iz * stride] - oz, cz = pc[iz * stride] - oz;
        const double ax = (pa[ix * stride] - ox) - sx * az, ay = (pa[iy * stride] - oy) - sy * az;
        const double bx = (pb[ix * stride] - ox) - sx * bz, by = (pb[iy * stride] - oy) - sy * bz;
        const double cx = (pc[ix * stride] - ox) - sx * cz, cy = (pc[iy * stride] - oy) - sy * cz;
        const Triangle tri{{pa[0], pa[stride], pa[2 * stride]},
                           {pb[0], pb[stride], pb[2 * stride]},
                           {pc[0], pc[stride], pc[2 * stride]}};

        const double u = cx * by - cy * bx; // edge b-c: weight of a
        const double v = ax * cy - ay * cx; // edge c-a: weight of b
        const double w = bx * ay - by * ax; // edge a-b: weight of c
        if constexpr (kTrace) {
            trace->sheared = {glm::dvec3(ax, ay, az), glm::dvec3(bx, by, bz), glm::dvec3(cx, cy, cz)};
            trace->u = u;
            trace->v = v;
            trace->w = w;
            trace->det = u + v + w;
            trace->detError = detError(ax, ay, bx, by, cx, cy, maxAbs3(az, bz, cz));
        }
        if ((u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0))
            return reject(RayTriangleReason::OutsideAnEdge);
        const double det = u + v + w;
        if (!(std::abs(det) > detError(ax, ay, bx, by, cx, cy, maxAbs3(az, bz, cz))))
            return reject(RayTriangleReason::BelowRounding); // no area, or less than the rounding can
                                                             // resolve: a triangle 1e-9 wide seen from
                                                             // 1e8 away passes any sign test by chance

        // The ray crosses the triangle's edges: now the triangle's own rejections.
        if (!kValid && (!isFinite(tri.a) || !isFinite(tri.b) || !isFinite(tri.c)))
            return reject(RayTriangleReason::NonFiniteTriangle);
        const glm::vec3 faceNormal = glm::cross(tri.b - tri.a, tri.c - tri.a);
        const float faceNormalLength = glm::length(faceNormal);
        if constexpr (kTrace) trace->faceNormal = faceNormal;
        if (!kValid && (!(faceNormalLength > 0.0f) || !std::isfinite(faceNormalLength)))
            return reject(RayTriangleReason::ZeroArea);
        const float dirDotNormal = glm::dot(faceNormal, dir);
        if constexpr (kTrace) {
            trace->dirDotNormal = dirDotNormal;
            trace->parallelLimit = kParallelCosine * faceNormalLength * dirLength;
        }
        if (std::abs(dirDotNormal) <= kParallelCosine * faceNormalLength * dirLength)
            return reject(RayTriangleReason::Parallel);

        // t = (u Az + v Bz + w Cz) / det: the weights share det's sign, so t is a convex
        // combination of the vertices' depths (never before the nearest one).
        const double t = (u * az + v * bz + w * cz) * sz / det;
        if constexpr (kTrace) {
            trace->t = t;
            trace->barycentric = glm::dvec3(u, v, w) / det;
            trace->reason = t >= 0.0 ? RayTriangleReason::BeyondTMax : RayTriangleReason::BehindOrigin;
        }
        if (!(t >= 0.0 && t <= tMax)) return false;
        hit = {static_cast<float>(t) + 0.0f, static_cast<float>(v / det) + 0.0f,
               static_cast<float>(w / det) + 0.0f, faceNormal / faceNormalLength};
        if (dirDotNormal > 0.0f) hit.normal = -hit.normal; // face the ray origin
        if constexpr (kTrace) {
            const bool finite =
                std::isfinite(hit.t) && std::isfinite(hit.u) && std::isfinite(hit.v) && isFinite(hit.normal);
            trace->reason = !finite         ? RayTriangleReason::NonFiniteResult
                            : hit.t <= tMax ? RayTriangleReason::Hit
                                            : RayTriangleReason::BeyondTMax;
        }
        if constexpr (kValid) return std::isfinite(hit.t) && hit.t <= tMax; // t alone can overflow float
        return std::isfinite(hit.t) && std::isfinite(hit.u) && std::isfinite(hit.v) && isFinite(hit.normal) &&
               hit.t <= tMax;
    }

    /// The largest of |a|, |b|, |c|, folded from the left as std::max({...}) does.
    static double maxAbs3(double a, double b, double c) {
        return std::max(std::max(std::abs(a), std::abs(b)), std::abs(c));
    }

public:
    /// A bound on the rounding error of det = u + v + w given the sheared coordinates and the
    /// largest |depth| of the vertices: each sheared coordinate is off by at most about 2^-51 of
    /// its inputs (|vertex - origin| <= |coordinate| + |depth| as |sx|, |sy| <= 1), which the edge
    /// functions multiply by the other coordinates, plus the products' own rounding.
    static double detError(double ax, double ay, double bx, double by, double cx, double cy, double depth) {
        const double q = std::max(
            std::max(std::max(std::max(std::max(std::abs(ax), std::abs(ay)), std::abs(bx)), std::abs(by)),
                     std::abs(cx)),
            std::abs(cy));
        const double shear = 0x1p-50 * (q + depth);
        return 12.0 * shear * q + 0x1p-49 * q * q;
    }
};

} // namespace kz::detail
