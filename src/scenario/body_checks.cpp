#include "body_checks.hpp"

#include "geom/closest.hpp"
#include "geom/contact.hpp"
#include "geom/gjk.hpp"
#include "geom/overlap.hpp"
#include "geom/plane.hpp"
#include "json_values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <glm/gtc/quaternion.hpp>

namespace kz::scenario_detail {

std::string defaultBodyName(ShapeType shape, std::size_t index) {
    static constexpr const char* kPrefixes[] = {"ball-", "box-", "capsule-", "cylinder-", "hull-"};
    return kPrefixes[static_cast<int>(shape)] + std::to_string(index);
}

std::string formatFloat(float v) {
    std::array<char, 32> buf{};
    const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    return ec == std::errc{} ? std::string(buf.data(), end) : std::string("?");
}

Obb obbOfDesc(const BodyDesc& body) {
    return {body.position, body.halfExtents, glm::mat3_cast(glm::normalize(body.orientation))};
}

float boundingRadius(const BodyDesc& body) {
    switch (body.shape) {
    case ShapeType::Sphere:
        return body.radius;
    case ShapeType::Box:
        return glm::length(body.halfExtents);
    case ShapeType::Capsule:
        return body.halfHeight + body.radius;
    case ShapeType::Cylinder:
        return std::hypot(body.halfHeight, body.radius);
    case ShapeType::Hull:
        break;
    }
    float reach = 0.0f;
    if (body.hull) {
        for (const glm::vec3& v : body.hull->vertices)
            reach = std::max(reach, glm::length(v));
    }
    return reach;
}

ConvexShape convexOfDesc(const BodyDesc& body) {
    return convexShapeAt(body.shape, body.position, glm::mat3_cast(glm::normalize(body.orientation)),
                         body.radius, body.halfExtents, body.halfHeight, body.hull.get());
}

bool bodiesOverlap(const BodyDesc& a, const BodyDesc& b) {
    if (isConvexShape(a.shape) || isConvexShape(b.shape))
        return testConvexConvex(convexOfDesc(a), convexOfDesc(b));
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
    const bool convex = isConvexShape(body.shape);
    const ConvexShape shape = convex ? convexOfDesc(body) : ConvexShape{};
    ConvexHull triangle;
    bool touches = false;
    obstacle.mesh->bvh.forEachTriangleOverlapping(
        obstacle.localBox({body.position - reach, body.position + reach}),
        [&](std::uint32_t, const Triangle& local) {
            if (touches) return;
            const Triangle t{obstacle.toWorld(local.a), obstacle.toWorld(local.b), obstacle.toWorld(local.c)};
            if (convex) {
                triangleHull(t.a, t.b, t.c, triangle);
                touches = testConvexConvex(shape, PosedHull{&triangle, glm::vec3(0.0f), glm::mat3(1.0f)});
            } else if (body.shape == ShapeType::Sphere) {
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
        } else if (isConvexShape(body.shape)) {
            consider(i, -signedDistance(plane, support(convexOfDesc(body), -plane.normal)));
        } else {
            for (const glm::vec3& c : boxCorners)
                consider(i, -signedDistance(plane, c));
        }
    }
    return worst;
}

std::string checkListedBodies(const Scenario& s) {
    const auto entry = [&](std::size_t i) { return i < s.bodyEntries.size() ? s.bodyEntries[i] : i; };
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        const BodyDesc& body = s.bodies[i];
        if (const auto crossing = wallCrossing(s.room, body)) {
            const Plane& plane = s.room.planes[static_cast<std::size_t>(crossing->plane)];
            return child(child("/bodies", entry(i)), "position") + ": body \"" + body.name +
                   "\" is not inside the room: it reaches " + str(crossing->depth) + " past wall " +
                   std::to_string(crossing->plane) + " (normal " + str(plane.normal) + ", d " + str(plane.d) +
                   ")";
        }
        for (std::size_t k = 0; k < i; ++k) {
            if (bodiesOverlap(body, s.bodies[k]))
                return child("/bodies", entry(i)) + ": body \"" + body.name + "\" overlaps /bodies/" +
                       std::to_string(entry(k)) + " (\"" + s.bodies[k].name + "\"); bodies must not touch";
        }
        if (const auto obstacle = touchedObstacle(body, s.obstacles)) {
            const ListedObstacle& o = s.obstacles[*obstacle];
            return child("/bodies", entry(i)) + ": body \"" + body.name + "\" touches the mesh at /bodies/" +
                   std::to_string(o.entry) + " (\"" + o.obstacle.name + "\"); bodies must not touch meshes";
        }
    }
    return {};
}

} // namespace kz::scenario_detail
