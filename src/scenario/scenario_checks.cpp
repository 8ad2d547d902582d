#include "scenario_checks.hpp"

#include "body_checks.hpp"
#include "geom/mass_properties.hpp"
#include "geom/plane.hpp"
#include "physics/hull_body.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kz::scenario_detail {

namespace {

inline constexpr Limit kCameraLimit{-limits::kMaxCameraExtent, limits::kMaxCameraExtent, "m"};

/// An upper bound of the speed of any point of the body: |v| + |w| r, r its bounding radius.
double fastestPointSpeed(const BodyDesc& body) {
    return glm::length(glm::dvec3(body.velocity)) +
           glm::length(glm::dvec3(body.angularVelocity)) * boundingRadius(body);
}

/// The room's smallest width: over its walls, the least of the largest distance of any wall
/// vertex from that wall's plane.
double smallestWidth(const Room& room) {
    double width = INFINITY;
    for (const Plane& plane : room.planes) {
        double across = 0.0;
        for (const auto& wall : room.walls)
            for (const glm::vec3& v : wall)
                across = std::max(across, static_cast<double>(signedDistance(plane, v)));
        width = std::min(width, across);
    }
    return width;
}

/// The planes of a room built in code: finite unit normals and finite offsets, closing a room
/// (the walls and bounds are rebuilt from them, so a hand-made Room cannot disagree with them).
void checkRoomPlanes(const Room& room) {
    if (room.planes.empty()) fail("", "the room has no walls");
    for (std::size_t i = 0; i < room.planes.size(); ++i) {
        const Plane& plane = room.planes[i];
        const std::string p = child("/planes", i);
        checkFiniteVec3(plane.normal, child(p, "normal"));
        checkFinite(plane.d, child(p, "d"));
        if (!(std::abs(glm::length(plane.normal) - 1.0f) <= 1e-4f))
            fail(child(p, "normal"), "must be a unit vector, got " + str(plane.normal));
    }
    const RoomResult rebuilt = makeRoom(room.planes);
    if (!rebuilt.room) fail("/planes", rebuilt.error.empty() ? "do not bound a closed room" : rebuilt.error);
    checkRoomReach(*rebuilt.room);
}

} // namespace

void checkFinite(float v, const std::string& p) {
    if (!std::isfinite(v)) fail(p, "must be a finite number, got " + str(v));
}

void checkFiniteVec3(const glm::vec3& v, const std::string& p) {
    for (std::size_t i = 0; i < 3; ++i)
        checkFinite(v[static_cast<glm::length_t>(i)], child(p, i));
}

void checkPositive(float v, const std::string& p, const Limit& limit) {
    checkFinite(v, p);
    if (!(v > 0.0f)) fail(p, "must be > 0, got " + str(v));
    checkLimit(v, p, limit);
}

void checkUnitInterval(float v, const std::string& p) {
    if (!(v >= 0.0f && v <= 1.0f)) fail(p, "must be in [0, 1], got " + str(v));
}

void checkCoefficient(float v, const std::string& p, const Limit& limit) {
    checkFinite(v, p);
    if (v < 0.0f) fail(p, "must be >= 0, got " + str(v));
    checkLimit(v, p, limit);
}

void checkPositiveVec3(const glm::vec3& v, const std::string& p, const Limit& limit) {
    for (std::size_t i = 0; i < 3; ++i)
        checkPositive(v[static_cast<glm::length_t>(i)], child(p, i), limit);
}

void checkVec3WithLength(const glm::vec3& v, const std::string& p, const Limit& limit) {
    checkFiniteVec3(v, p);
    checkLimit(glm::length(glm::dvec3(v)), p, limit, "its length ");
}

void checkRange(const glm::vec2& v, const std::string& p, bool strictlyPositive, const Limit& limit) {
    checkFinite(v.x, child(p, std::size_t{0}));
    checkFinite(v.y, child(p, 1));
    if (strictlyPositive ? !(v.x > 0.0f) : v.x < 0.0f)
        fail(child(p, std::size_t{0}),
             std::string(strictlyPositive ? "must be > 0, got " : "must be >= 0, got ") + str(v.x));
    if (v.y < v.x) fail(child(p, 1), "must be >= the minimum " + str(v.x) + ", got " + str(v.y));
    checkLimit(v.x, child(p, std::size_t{0}), limit);
    checkLimit(v.y, child(p, 1), limit);
}

void checkName(const std::string& name, const std::string& p) {
    if (name.empty()) fail(p, "must not be empty");
}

void checkDescription(const std::string& text, const std::string& p) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if ((byte & 0xC0u) == 0x80u) continue; // a UTF-8 continuation byte: the same character
        ++chars;
        // C1 controls, U+0080 to U+009F, are 0xC2 followed by 0x80 to 0x9F in UTF-8.
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0u;
        const bool c1 = byte == 0xC2u && next >= 0x80u && next < 0xA0u;
        if (byte < 0x20u || byte == 0x7Fu || c1) {
            char code[8];
            std::snprintf(code, sizeof code, "%04X", c1 ? next : byte);
            fail(p, "must hold no control characters (line breaks, tabs): character " +
                        std::to_string(chars) + " is U+" + code);
        }
    }
    if (chars > kMaxDescriptionChars)
        fail(p, "must be at most " + std::to_string(kMaxDescriptionChars) + " characters, got " +
                    std::to_string(chars));
}

void checkQuaternion(const glm::quat& q, const std::string& p) {
    const float len = glm::length(q);
    if (!(len > 1e-6f) || !std::isfinite(len)) fail(p, "must be a non-zero quaternion [w, x, y, z]");
}

void checkTimeStep(float dt, const std::string& p) {
    if (!(dt > 0.0f && dt <= 0.1f)) fail(p, "must be in (0, 0.1], got " + str(dt));
}

void checkRoomReach(const Room& room) {
    const Aabb& bounds = room.bounds;
    float reach = 0.0f;
    for (glm::length_t k = 0; k < 3; ++k)
        reach = std::max({reach, std::abs(bounds.min[k]), std::abs(bounds.max[k])});
    if (!(reach <= limits::kMaxRoomExtent))
        fail("/planes", "the room reaches " + str(reach) + " m from the origin; it must lie within " +
                            str(limits::kMaxRoomExtent) + " m of it along every axis");
}

void checkCamera(const CameraDesc& camera) {
    const std::string p = "/camera";
    for (const auto& [v, key] : {std::pair{camera.eye, "eye"}, std::pair{camera.target, "target"}}) {
        checkFiniteVec3(v, child(p, key));
        for (std::size_t i = 0; i < 3; ++i)
            checkLimit(v[static_cast<glm::length_t>(i)], child(child(p, key), i), kCameraLimit);
    }
    const double apart = glm::length(glm::dvec3(camera.target) - glm::dvec3(camera.eye));
    if (!(apart >= limits::kMinCameraDistance))
        fail(child(p, "target"), "must differ from eye by at least " + str(limits::kMinCameraDistance) +
                                     " m, got " + str(static_cast<float>(apart)) + " m");
    if (!(camera.fovDeg > 0.0f && camera.fovDeg < 180.0f))
        fail(child(p, "fov_deg"), "must be in (0, 180), got " + str(camera.fovDeg));
}

void checkObstacleInRoom(const Obstacle& obstacle, const Room& room, const std::string& p) {
    for (std::size_t w = 0; w < room.planes.size(); ++w) {
        float deepest = 0.0f;
        for (const glm::vec3& v : obstacle.mesh->vertices)
            deepest = std::max(deepest, -signedDistance(room.planes[w], obstacle.toWorld(v)));
        if (!(deepest <= 1e-3f))
            fail(child(p, "position"), "mesh \"" + obstacle.name + "\" is not inside the room: it reaches " +
                                           str(deepest) + " past wall " + std::to_string(w));
    }
}

void checkBodySize(const BodyDesc& body, const std::string& p) {
    switch (body.shape) {
    case ShapeType::Sphere:
        checkPositive(body.radius, child(p, "radius"), kBodySizeLimit);
        return;
    case ShapeType::Box:
        checkPositiveVec3(body.halfExtents, child(p, "half_extents"), kBodySizeLimit);
        return;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
        checkPositive(body.radius, child(p, "radius"), kBodySizeLimit);
        checkPositive(body.halfHeight, child(p, "half_height"), kBodySizeLimit);
        return;
    case ShapeType::Hull:
        if (!body.hull || !isInBodyFrame(*body.hull))
            fail(child(p, "points"), "must be a hull in its body frame (makeHullBody)");
        checkLimit(boundingRadius(body), child(p, "points"), kBodySizeLimit,
                   "the hull's reach from its centre of mass ");
        return;
    }
    fail(child(p, "shape"), "must be \"sphere\", \"box\", \"capsule\", \"cylinder\" or \"hull\"");
}

double bodyVolume(const BodyDesc& body) {
    switch (body.shape) {
    case ShapeType::Sphere:
        return 4.0 / 3.0 * 3.14159265358979 * std::pow(double{body.radius}, 3);
    case ShapeType::Box:
        return 8.0 * double{body.halfExtents.x} * body.halfExtents.y * body.halfExtents.z;
    case ShapeType::Capsule:
        return massPropertiesOfCapsule(body.radius, body.halfHeight).volume;
    case ShapeType::Cylinder:
        return massPropertiesOfCylinder(body.radius, body.halfHeight).volume;
    case ShapeType::Hull:
        break;
    }
    return body.hull ? massPropertiesOfHull(*body.hull).volume : 0.0;
}

void checkAngularVelocity(const BodyDesc& body, const std::string& p) {
    checkVec3WithLength(body.angularVelocity, child(p, "angular_velocity"), kAngularSpeedLimit);
    checkLimit(fastestPointSpeed(body), child(p, "angular_velocity"), kSpeedLimit,
               "the speed of the body's fastest point (|velocity| + |angular_velocity| x bounding radius) ");
}

void checkDensity(const BodyDesc& body, const std::string& p) {
    const std::string at = child(p, "density");
    checkFinite(body.density, at);
    if (!(body.density > 0.0f)) fail(at, "must be > 0, got " + str(body.density));
    checkLimit(body.density * bodyVolume(body), at, kMassLimit, "the mass it gives (density x volume) ");
}

void checkMaterial(const BodyDesc& body, const std::string& p) {
    checkUnitInterval(body.restitution, child(p, "restitution"));
    checkCoefficient(body.friction, child(p, "friction"), kFrictionLimit);
    checkCoefficient(body.rollingResistance, child(p, "rolling_resistance"), kRollingResistanceLimit);
}

void checkBody(const BodyDesc& body, const std::string& p) {
    checkBodySize(body, p);
    checkName(body.name, child(p, "name"));
    checkFiniteVec3(body.position, child(p, "position"));
    checkQuaternion(body.orientation, child(p, "orientation"));
    checkVec3WithLength(body.velocity, child(p, "velocity"), kSpeedLimit);
    checkAngularVelocity(body, p);
    if (body.mass != 0.0f)
        checkPositive(body.mass, child(p, "mass"), kMassLimit);
    else
        checkDensity(body, p);
    checkMaterial(body, p);
    if (body.color > 0xffffffu)
        fail(child(p, "color"), "must be a colour 0xRRGGBB, got " + std::to_string(body.color));
}

void checkRandom(const RandomDesc& r) {
    const std::string p = "/random";
    if (r.count < 0 || r.count > kMaxRandomCount)
        fail(child(p, "count"),
             "must be in [0, " + std::to_string(kMaxRandomCount) + "], got " + std::to_string(r.count));
    checkRange(r.speed, child(p, "speed"), false, kSpeedLimit);
    checkRange(r.sphereRadius, child(p, "sphere_radius"), true, kBodySizeLimit);
    checkRange(r.boxHalf, child(p, "box_half"), true, kBodySizeLimit);
    checkUnitInterval(r.boxFraction, child(p, "box_fraction"));
    checkRange(r.halfHeight, child(p, "half_height"), true, kBodySizeLimit);
    checkShapeWeights(r, p);
}

void checkShapeWeights(const RandomDesc& r, const std::string& p) {
    if (!r.shapeWeights) return;
    const std::string at = child(p, "shapes");
    float total = 0.0f;
    constexpr const char* kNames[] = {"sphere", "box", "capsule", "cylinder"};
    for (std::size_t i = 0; i < r.shapeWeights->size(); ++i) {
        checkCoefficient((*r.shapeWeights)[i], child(at, kNames[i]), kShapeWeightLimit);
        total += (*r.shapeWeights)[i];
    }
    if (!(total > 0.0f)) fail(at, "must give some shape a weight above 0");
}

void checkTravelPerStep(const Scenario& s) {
    double top = s.random ? s.random->speed.y : 0.0;
    for (const BodyDesc& body : s.bodies)
        top = std::max(top, fastestPointSpeed(body));
    const double diagonal = glm::length(glm::dvec3(s.room.bounds.max) - glm::dvec3(s.room.bounds.min));
    const double reach = std::sqrt(top * top + 2.0 * glm::length(glm::dvec3(s.settings.gravity)) * diagonal);
    const double width = smallestWidth(s.room);
    if (static_cast<double>(s.settings.timeStep) * reach > width) {
        fail("/time_step",
             "must be at most " + str(static_cast<float>(width / reach)) +
                 " s here, so that no body travels farther than the room's smallest width (" +
                 str(static_cast<float>(width)) + " m) in one step at the " + str(static_cast<float>(reach)) +
                 " m/s it can reach (its top speed, plus gravity over the room's diagonal); got " +
                 str(s.settings.timeStep));
    }
}

void checkScenario(const Scenario& s) {
    checkName(s.name, "/name");
    checkDescription(s.description, "/description");
    checkRoomPlanes(s.room);
    checkVec3WithLength(s.settings.gravity, "/gravity", kGravityLimit);
    checkTimeStep(s.settings.timeStep, "/time_step");
    checkUnitInterval(s.restitution, "/restitution");
    checkCoefficient(s.friction, "/friction", kFrictionLimit);
    checkCoefficient(s.rollingResistance, "/rolling_resistance", kRollingResistanceLimit);
    if (s.camera) checkCamera(*s.camera);
    if (!s.bodyEntries.empty() && s.bodyEntries.size() != s.bodies.size())
        fail("/bodies", "lists " + std::to_string(s.bodies.size()) + " bodies but " +
                            std::to_string(s.bodyEntries.size()) + " entries (bodyEntries)");
    const auto entry = [&](std::size_t i) { return i < s.bodyEntries.size() ? s.bodyEntries[i] : i; };
    for (std::size_t i = 0; i < s.bodies.size(); ++i)
        checkBody(s.bodies[i], child("/bodies", entry(i)));
    for (const ListedObstacle& listed : s.obstacles) {
        const std::string p = child("/bodies", listed.entry);
        const Obstacle& o = listed.obstacle;
        if (!o.mesh) fail(child(p, "mesh"), "is missing (no mesh loaded)");
        checkFiniteVec3(o.position, child(p, "position"));
        checkQuaternion(o.orientation, child(p, "orientation"));
        checkPositiveVec3(o.scale, child(p, "scale"), kMeshScaleLimit);
        checkObstacleInRoom(o, s.room, p);
    }
    if (s.random) checkRandom(*s.random);
    checkTravelPerStep(s);
}

} // namespace kz::scenario_detail
