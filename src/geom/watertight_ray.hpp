// The one watertight ray-triangle test of Kolize (private to src/geom): raycastBarycentric and
// MeshBvh's leaves both call WatertightRay::intersect, so they agree bit for bit by construction.
#pragma once

#include "raycast.hpp"
#include "types.hpp"

#include <cmath>
#include <utility>

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
    int ix, iy, iz; ///< The shear frame's axes: the ray runs along iz (its largest |component|).
    float sx, sy, sz;

    /// For a ray that isValid and a tMax that validTMax (the callers check both).
    WatertightRay(const Ray& ray, float tMaxIn)
        : origin(ray.origin), dir(ray.dir), dirLength(glm::length(ray.dir)), tMax(tMaxIn) {
        // Shear the vertices into a frame where the ray is the +z axis through the origin; the 2D
        // edge functions U, V, W are then evaluated identically for an edge shared by two
        // triangles, so no ray slips between them.
        const glm::vec3 absDir = glm::abs(ray.dir);
        iz = absDir.x > absDir.y ? (absDir.x > absDir.z ? 0 : 2) : (absDir.y > absDir.z ? 1 : 2);
        ix = (iz + 1) % 3;
        iy = (ix + 1) % 3;
        if (ray.dir[iz] < 0.0f) std::swap(ix, iy); // keep the winding
        sx = ray.dir[ix] / ray.dir[iz];
        sy = ray.dir[iy] / ray.dir[iz];
        sz = 1.0f / ray.dir[iz];
    }

    /// The hit with 0 <= t <= tMax of the contract of raycastBarycentric (raycast.hpp): false for
    /// a miss, a zero-area or non-finite triangle, a ray parallel to it or a non-finite result.
    bool intersect(const Triangle& tri, TriangleHit& hit) const {
        const float az = tri.a[iz] - origin[iz], bz = tri.b[iz] - origin[iz], cz = tri.c[iz] - origin[iz];
        const float ax = (tri.a[ix] - origin[ix]) - sx * az, ay = (tri.a[iy] - origin[iy]) - sy * az;
        const float bx = (tri.b[ix] - origin[ix]) - sx * bz, by = (tri.b[iy] - origin[iy]) - sy * bz;
        const float cx = (tri.c[ix] - origin[ix]) - sx * cz, cy = (tri.c[iy] - origin[iy]) - sy * cz;

        float u = cx * by - cy * bx; // edge b-c: weight of a
        float v = ax * cy - ay * cx; // edge c-a: weight of b
        float w = bx * ay - by * ax; // edge a-b: weight of c
        if (u == 0.0f || v == 0.0f || w == 0.0f) [[unlikely]] {
            // On an edge in float: decide it in double so both triangles of the edge agree.
            u = static_cast<float>(static_cast<double>(cx) * by - static_cast<double>(cy) * bx);
            v = static_cast<float>(static_cast<double>(ax) * cy - static_cast<double>(ay) * cx);
            w = static_cast<float>(static_cast<double>(bx) * ay - static_cast<double>(by) * ax);
        }
        if ((u < 0.0f || v < 0.0f || w < 0.0f) && (u > 0.0f || v > 0.0f || w > 0.0f)) return false;
        const float det = u + v + w;
        if (det == 0.0f) return false;

        // The ray crosses the triangle's edges: now the triangle's own rejections.
        if (!isFinite(tri.a) || !isFinite(tri.b) || !isFinite(tri.c)) return false;
        const glm::vec3 faceNormal = glm::cross(tri.b - tri.a, tri.c - tri.a);
        const float faceNormalLength = glm::length(faceNormal);
        if (!(faceNormalLength > 0.0f) || !std::isfinite(faceNormalLength)) return false; // zero area
        const float dirDotNormal = glm::dot(faceNormal, dir);
        if (std::abs(dirDotNormal) <= kParallelCosine * faceNormalLength * dirLength) return false;

        // t = (u Az + v Bz + w Cz) / det, checked against [0, tMax] before dividing.
        const float tScaled = u * (sz * az) + v * (sz * bz) + w * (sz * cz);
        if (det > 0.0f ? (tScaled < 0.0f || tScaled > tMax * det)
                       : (tScaled > 0.0f || tScaled < tMax * det)) {
            return false;
        }
        const float invDet = 1.0f / det;
        hit = {tScaled * invDet + 0.0f, v * invDet, w * invDet, faceNormal / faceNormalLength};
        if (dirDotNormal > 0.0f) hit.normal = -hit.normal; // face the ray origin
        return std::isfinite(hit.t) && std::isfinite(hit.u) && std::isfinite(hit.v) && isFinite(hit.normal) &&
               hit.t <= tMax;
    }
};

} // namespace kz::detail
