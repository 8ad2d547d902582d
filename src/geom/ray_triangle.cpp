#include "closest.hpp"
#include "detail.hpp"
#include "raycast.hpp"

#include <utility>

namespace kz {

std::optional<TriangleHit> raycastBarycentric(const Ray& ray, const Triangle& tri, float tMax) {
    if (!isValid(ray) || !detail::validTMax(tMax)) return std::nullopt;
    if (!isFinite(tri.a) || !isFinite(tri.b) || !isFinite(tri.c)) return std::nullopt;

    const glm::vec3 faceNormal = glm::cross(tri.b - tri.a, tri.c - tri.a);
    const float faceNormalLength = glm::length(faceNormal);
    if (!(faceNormalLength > 0.0f) || !std::isfinite(faceNormalLength)) return std::nullopt; // zero area
    const float dirDotNormal = glm::dot(faceNormal, ray.dir);
    if (std::abs(dirDotNormal) <= kParallelCosine * faceNormalLength * glm::length(ray.dir))
        return std::nullopt;

    // Woop-Benthin-Wald: shear the vertices into a frame where the ray is the +z axis through
    // the origin; the 2D edge functions U, V, W are then evaluated identically for an edge
    // shared by two triangles, so no ray slips between them.
    const glm::vec3 absDir = glm::abs(ray.dir);
    int iz = absDir.x > absDir.y ? (absDir.x > absDir.z ? 0 : 2) : (absDir.y > absDir.z ? 1 : 2);
    int ix = (iz + 1) % 3;
    int iy = (ix + 1) % 3;
    if (ray.dir[iz] < 0.0f) std::swap(ix, iy); // keep the winding
    const float sx = ray.dir[ix] / ray.dir[iz];
    const float sy = ray.dir[iy] / ray.dir[iz];
    const float sz = 1.0f / ray.dir[iz];

    const glm::vec3 a = tri.a - ray.origin;
    const glm::vec3 b = tri.b - ray.origin;
    const glm::vec3 c = tri.c - ray.origin;
    const float ax = a[ix] - sx * a[iz], ay = a[iy] - sy * a[iz];
    const float bx = b[ix] - sx * b[iz], by = b[iy] - sy * b[iz];
    const float cx = c[ix] - sx * c[iz], cy = c[iy] - sy * c[iz];

    float u = cx * by - cy * bx; // edge b-c: weight of a
    float v = ax * cy - ay * cx; // edge c-a: weight of b
    float w = bx * ay - by * ax; // edge a-b: weight of c
    if (u == 0.0f || v == 0.0f || w == 0.0f) {
        // On an edge in float: decide it in double so both triangles of the edge agree.
        u = static_cast<float>(static_cast<double>(cx) * by - static_cast<double>(cy) * bx);
        v = static_cast<float>(static_cast<double>(ax) * cy - static_cast<double>(ay) * cx);
        w = static_cast<float>(static_cast<double>(bx) * ay - static_cast<double>(by) * ax);
    }
    if ((u < 0.0f || v < 0.0f || w < 0.0f) && (u > 0.0f || v > 0.0f || w > 0.0f)) return std::nullopt;
    const float det = u + v + w;
    if (det == 0.0f) return std::nullopt;

    // t = (u Az + v Bz + w Cz) / det, checked against [0, tMax] before dividing.
    const float tScaled = u * (sz * a[iz]) + v * (sz * b[iz]) + w * (sz * c[iz]);
    if (det > 0.0f ? (tScaled < 0.0f || tScaled > tMax * det) : (tScaled > 0.0f || tScaled < tMax * det)) {
        return std::nullopt;
    }
    const float invDet = 1.0f / det;
    TriangleHit hit{tScaled * invDet + 0.0f, v * invDet, w * invDet, faceNormal / faceNormalLength};
    if (dirDotNormal > 0.0f) hit.normal = -hit.normal; // face the ray origin
    if (!std::isfinite(hit.t) || !std::isfinite(hit.u) || !std::isfinite(hit.v) || !isFinite(hit.normal) ||
        hit.t > tMax) {
        return std::nullopt;
    }
    return hit;
}

std::optional<RayHit> raycast(const Ray& ray, const Triangle& tri, float tMax) {
    const auto hit = raycastBarycentric(ray, tri, tMax);
    if (!hit) return std::nullopt;
    return detail::finiteOrNone({hit->t, ray.origin + hit->t * ray.dir, hit->normal});
}

std::optional<RayHit> raycastPolygon(const Ray& ray, std::span<const glm::vec3> convexPlanarPolygon,
                                     float tMax) {
    if (!isValid(ray) || !detail::validTMax(tMax)) return std::nullopt;
    const auto normal = polygonNormal(convexPlanarPolygon);
    if (!normal) return std::nullopt;

    // The polygon's plane through its centroid (the best fit for slightly non-planar input).
    glm::vec3 centroid(0.0f);
    for (const glm::vec3& vertex : convexPlanarPolygon)
        centroid += vertex;
    centroid /= static_cast<float>(convexPlanarPolygon.size());
    const auto planeHit = raycast(ray, Plane{*normal, -glm::dot(*normal, centroid)}, tMax);
    if (!planeHit || !detail::insideConvexPolygon(planeHit->point, convexPlanarPolygon, *normal))
        return std::nullopt;
    return planeHit;
}

} // namespace kz
