#include "closest.hpp"
#include "detail.hpp"
#include "raycast.hpp"
#include "watertight_ray.hpp"

namespace kz {

std::optional<TriangleHit> raycastBarycentric(const Ray& ray, const Triangle& tri, float tMax) {
    if (!isValid(ray) || !detail::validTMax(tMax)) return std::nullopt;
    TriangleHit hit;
    if (!detail::WatertightRay(ray, tMax).intersect(tri, hit)) return std::nullopt;
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
