#include "screen_ray.hpp"

#include <glm/gtc/matrix_inverse.hpp>

namespace kz {

Ray screenRay(glm::vec2 pixel, glm::vec2 viewportSize, const glm::mat4& view, const glm::mat4& proj) {
    const Ray none{glm::vec3(0.0f), glm::vec3(0.0f)};
    if (!(viewportSize.x > 0.0f) || !(viewportSize.y > 0.0f) || !std::isfinite(viewportSize.x) ||
        !std::isfinite(viewportSize.y) || !std::isfinite(pixel.x) || !std::isfinite(pixel.y)) {
        return none;
    }
    // Window (y down, continuous) to normalised device coordinates (y up, [-1, 1]).
    const double ndcX = 2.0 * static_cast<double>(pixel.x) / viewportSize.x - 1.0;
    const double ndcY = 1.0 - 2.0 * static_cast<double>(pixel.y) / viewportSize.y;

    const glm::dmat4 viewProj = glm::dmat4(proj) * glm::dmat4(view);
    const double det = glm::determinant(viewProj);
    if (!std::isfinite(det) || det == 0.0) return none;
    const glm::dmat4 inverse = glm::inverse(viewProj);

    // Unproject at the near (z = -1) and far (z = +1) clip planes.
    const glm::dvec4 nearH = inverse * glm::dvec4(ndcX, ndcY, -1.0, 1.0);
    const glm::dvec4 farH = inverse * glm::dvec4(ndcX, ndcY, 1.0, 1.0);
    if (nearH.w == 0.0 || farH.w == 0.0) return none;
    const glm::dvec3 nearPoint = glm::dvec3(nearH) / nearH.w;
    const glm::dvec3 farPoint = glm::dvec3(farH) / farH.w;
    const glm::dvec3 dir = farPoint - nearPoint;
    const double length = glm::length(dir);
    if (!(length > 0.0) || !std::isfinite(length)) return none;

    const Ray ray{glm::vec3(nearPoint), glm::vec3(dir / length)};
    if (!isFinite(ray.origin) || !isFinite(ray.dir)) return none;
    return ray;
}

} // namespace kz
