#include "detail.hpp"
#include "raycast.hpp"

namespace kz {

std::optional<RayHit> raycast(const Ray& ray, const Sphere& sphere, float tMax) {
    if (!isValid(ray) || !isValid(sphere) || !detail::validTMax(tMax)) return std::nullopt;

    // Solve |m + t u|^2 = r^2 with m = o - c and u the unit direction; t in units of dir is
    // then t_u / |dir|. Working with a unit direction keeps huge or tiny dirs from overflowing.
    const glm::vec3 m = ray.origin - sphere.center;
    const float r2 = sphere.radius * sphere.radius;
    const float c = glm::dot(m, m) - r2;
    if (c <= 0.0f) return detail::insideHit(ray); // origin inside or on the surface

    const float invLength = 1.0f / glm::length(ray.dir);
    const glm::vec3 u = ray.dir * invLength;
    const float b = glm::dot(m, u);
    if (b >= 0.0f) return std::nullopt; // outside and moving away (or the origin is the closest point)

    // Discriminant from the perpendicular distance of the centre to the line: r^2 - |m - b u|^2
    // loses no precision when |m| >> r, unlike b^2 - c.
    const glm::vec3 perpendicular = m - b * u;
    const float q = r2 - glm::dot(perpendicular, perpendicular);
    if (q < 0.0f) return std::nullopt;

    // Near root t = -b - sqrt(q), written as c / (-b + sqrt(q)) to avoid cancellation
    // (both roots multiply to c); -b > 0 here, so the denominator is positive.
    const float tUnit = c / (-b + std::sqrt(q));
    const float t = tUnit * invLength;
    if (t > tMax) return std::nullopt;

    const glm::vec3 point = ray.origin + t * ray.dir;
    const glm::vec3 outward = point - sphere.center;
    const float outwardLength = glm::length(outward);
    const glm::vec3 normal =
        outwardLength > 0.0f ? outward / outwardLength : -u; // a zero radius has no surface normal
    return detail::finiteOrNone({t, point, normal});
}

} // namespace kz
