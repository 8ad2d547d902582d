#include "hull_body.hpp"

#include "geom/mass_properties.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kz {

HullBody makeHullBody(std::span<const glm::vec3> points) {
    HullBody out;
    HullBuild given = buildConvexHull(points);
    if (!given.hull) {
        out.error = given.error;
        return out;
    }
    const MassProperties mass = massPropertiesOfHull(*given.hull);
    const PrincipalAxes axes = principalAxes(mass.inertia);
    std::vector<glm::vec3> local;
    local.reserve(given.hull->vertices.size());
    const glm::dmat3 toBody = glm::transpose(axes.axes);
    for (const glm::vec3& v : given.hull->vertices)
        local.push_back(glm::vec3(toBody * (glm::dvec3(v) - mass.centroid)));
    HullBuild built = buildConvexHull(local);
    if (!built.hull) {
        out.error = built.error;
        return out;
    }
    out.hull = std::make_shared<const ConvexHull>(std::move(*built.hull));
    out.centre = glm::vec3(mass.centroid);
    out.rotation = glm::normalize(glm::quat(glm::mat3(axes.axes)));
    return out;
}

bool isInBodyFrame(const ConvexHull& hull) {
    const MassProperties mass = massPropertiesOfHull(hull);
    if (!(mass.volume > 0.0)) return false;
    double size = 0.0;
    for (const glm::vec3& v : hull.vertices)
        size = std::max(size, glm::length(glm::dvec3(v)));
    const glm::dmat3& i = mass.inertia;
    const double largest = std::max({i[0][0], i[1][1], i[2][2]});
    return glm::length(mass.centroid) <= 1e-4 * size && std::abs(i[0][1]) <= 1e-4 * largest &&
           std::abs(i[0][2]) <= 1e-4 * largest && std::abs(i[1][2]) <= 1e-4 * largest;
}

} // namespace kz
