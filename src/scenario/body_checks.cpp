#include "body_checks.hpp"

#include "geom/closest.hpp"
#include "geom/contact.hpp"
#include "geom/overlap.hpp"
#include "geom/plane.hpp"

#include <charconv>
#include <glm/gtc/quaternion.hpp>

namespace kz::scenario_detail {

std::string formatFloat(float v) {
    std::array<char, 32> buf{};
    const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

Obb obbOfDesc(const BodyDesc& body) {
    return {body.position, body.halfExtents, glm::mat3_cast(glm::normalize(body.orientation))};
}

float boundingRadius(const BodyDesc& body) {
    return body.shape == ShapeType::Sphere ? body.radius : glm::length(body.halfExtents);
}

bool bodiesOverlap(const BodyDesc& a, const BodyDesc& b) {
    const bool aSphere = a.shape == ShapeType::Sphere;
    const bool bSphere = b.shape == ShapeType::Sphere;
    if (aSphere && bSphere) return testSphereSphere({a.position, a.radius}, {b.position, b.radius});
    if (aSphere) return testSphereObb({a.position, a.radius}, obbOfDesc(b));
    if (bSphere) return testSphereObb({b.position, b.radius}, obbOfDesc(a));
    return testObbObb(obbOfDesc(a), obbOfDesc(b));
}

bool touchesObstacle(const BodyDesc& body, const Obstacle& obstacle) {
    const float r = boundingRadius(body);
    const glm::vec3 reach(r);
    if (!testAabbAabb({body.position - reach, body.position + reach}, obstacle.bounds)) return false;
    const Obb box = obbOfDesc(body);
    bool touches = false;
    obstacle.mesh->bvh.forEachTriangleOverlapping(
        obstacle.localBox({body.position - reach, body.position + reach}),
        [&](std::uint32_t, const Triangle& local) {
            if (touches) return;
            const Triangle t{obstacle.toWorld(local.a), obstacle.toWorld(local.b), obstacle.toWorld(local.c)};
            if (body.shape == ShapeType::Sphere) {
                const glm::vec3 d = body.position - closestPtPointTriangle(body.position, t);
                touches = glm::dot(d, d) <= body.radius * body.radius;
            } else {
                touches = separationObbTriangle(box, t) <= 0.0f;
            }
        });
    return touches;
}

std::optional<std::size_t> touchedObstacle(const BodyDesc& body,
                                           const std::vector<ListedObstacle>& obstacles) {
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
        if (touchesObstacle(body, obstacles[i].obstacle)) return i;
    }
    return std::nullopt;
}

std::optional<WallCrossing> wallCrossing(const Room& room, const BodyDesc& body) {
    std::optional<WallCrossing> worst;
    const auto consider = [&](int plane, float depth) {
        if (depth > 0.0f && (!worst || depth > worst->depth)) worst = WallCrossing{plane, depth};
    };
    glm::vec3 boxCorners[8];
    if (body.shape == ShapeType::Box) corners(obbOfDesc(body), boxCorners);
    for (int i = 0; i < static_cast<int>(room.planes.size()); ++i) {
        const Plane& plane = room.planes[static_cast<std::size_t>(i)];
        if (body.shape == ShapeType::Sphere) {
            consider(i, body.radius - signedDistance(plane, body.position));
        } else {
            for (const glm::vec3& c : boxCorners)
                consider(i, -signedDistance(plane, c));
        }
    }
    return worst;
}

} // namespace kz::scenario_detail
