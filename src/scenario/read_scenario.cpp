#include "read_scenario.hpp"

#include "body_checks.hpp"
#include "geom/plane.hpp"
#include "mesh_files.hpp"
#include "physics/hull_body.hpp"
#include "scenario_checks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace kz::scenario_detail {

namespace {

namespace fs = std::filesystem;

Room readRoom(const json& doc) {
    const json* size = find(doc, "size");
    const json* planes = find(doc, "planes");
    if (size && planes) fail("/planes", "give the room as size or as planes, not both");
    if (size) return boxRoom(readPositiveVec3(*size, "/size", kRoomSizeLimit));
    if (!planes) fail("/size", "required key is missing (the room is given as size or as planes)");

    if (!planes->is_array() || planes->empty())
        fail("/planes", "must be a non-empty array of planes, " + got(*planes));
    std::vector<Plane> list;
    for (std::size_t i = 0; i < planes->size(); ++i) {
        const std::string p = child("/planes", i);
        const json& plane = (*planes)[i];
        expectObject(plane, p);
        checkKeys(plane, p, {"normal", "d"});
        list.push_back(readPlaneValues(plane, p));
    }
    RoomResult room = makeRoom(list);
    if (!room.room) fail("/planes", room.error.empty() ? "do not bound a closed room" : room.error);
    checkRoomReach(*room.room);
    return std::move(*room.room);
}

std::optional<CameraDesc> readCamera(const json& doc) {
    const json* j = find(doc, "camera");
    if (!j) return std::nullopt;
    const std::string p = "/camera";
    expectObject(*j, p);
    checkKeys(*j, p, {"eye", "target", "fov_deg"});
    CameraDesc camera;
    camera.eye = readVec3(require(*j, p, "eye"), child(p, "eye"));
    camera.target = readVec3(require(*j, p, "target"), child(p, "target"));
    if (const json* fov = find(*j, "fov_deg")) camera.fovDeg = readFloat(*fov, child(p, "fov_deg"));
    checkCamera(camera);
    return camera;
}

ListedObstacle readObstacle(const json& j, const std::string& p, std::size_t index, const Scenario& s,
                            MeshFiles& meshes) {
    const ObstacleDesc desc = readObstacleDesc(j, p, meshes);
    std::string error;
    auto obstacle = makeObstacle(desc, error);
    if (!obstacle) fail(p, error);
    checkObstacleInRoom(*obstacle, s.room, p);
    return {std::move(*obstacle), index};
}

/// The shapes a listed body may have, by their "shape" key.
constexpr std::array<std::pair<const char*, ShapeType>, 5> kBodyShapes{{{"sphere", ShapeType::Sphere},
                                                                        {"box", ShapeType::Box},
                                                                        {"capsule", ShapeType::Capsule},
                                                                        {"cylinder", ShapeType::Cylinder},
                                                                        {"hull", ShapeType::Hull}}};

/// The keys of a body of any shape, after its size's.
constexpr std::array<const char*, 13> kBodyKeys{
    "shape", "name",    "position",    "orientation", "euler_deg",          "velocity", "angular_velocity",
    "mass",  "density", "restitution", "friction",    "rolling_resistance", "color"};

/// A hull's points: its "points" [[x, y, z], ...] or the vertices of its "mesh" (an OBJ file), in
/// the frame its position and orientation place; then its body frame (makeHullBody).
HullBody readHull(const json& j, const std::string& p, MeshFiles* meshes) {
    const json* list = find(j, "points");
    const json* mesh = find(j, "mesh");
    if (list && mesh) fail(child(p, "mesh"), "give points or mesh, not both");
    if (!list && !mesh)
        fail(child(p, "points"), "required key is missing (a hull is given as points or as a mesh)");
    std::vector<glm::vec3> points;
    const std::string at = child(p, list ? "points" : "mesh");
    if (list) {
        if (!list->is_array()) fail(at, "must be an array of points [x, y, z], " + got(*list));
        if (list->size() > kMaxHullPoints)
            fail(at, "has " + std::to_string(list->size()) + " points, more than the " +
                         std::to_string(kMaxHullPoints) + " a hull may have");
        points.reserve(list->size());
        for (std::size_t i = 0; i < list->size(); ++i)
            points.push_back(readVec3((*list)[i], child(at, i)));
    } else {
        if (!mesh->is_string()) fail(at, "must be a file name, " + got(*mesh));
        if (!meshes) fail(at, "a hull's mesh file is read only from a scenario file");
        const auto shape = meshes->load(mesh->get<std::string>(), at);
        if (shape->vertices.size() > kMaxHullPoints)
            fail(at, "has " + std::to_string(shape->vertices.size()) + " vertices, more than the " +
                         std::to_string(kMaxHullPoints) + " a hull may have");
        points = shape->vertices;
    }
    HullBody hull = makeHullBody(points);
    if (!hull.hull) fail(at, hull.error);
    return hull;
}

/// The body's "shape" and its size ("radius", "half_extents", "half_height", or a hull's
/// "points" or "mesh"), after checking the keys the body may have (they depend on the shape).
/// A hull's frame (where its body frame sits among its points) goes to `hull`.
void readShapeAndSize(const json& j, const std::string& p, BodyDesc& body, MeshFiles* meshes,
                      HullBody& hull) {
    expectObject(j, p);
    const json& shape = require(j, p, "shape");
    const auto known = std::find_if(kBodyShapes.begin(), kBodyShapes.end(),
                                    [&](const auto& entry) { return shape == entry.first; });
    if (known == kBodyShapes.end())
        fail(child(p, "shape"),
             "must be \"sphere\", \"box\", \"capsule\", \"cylinder\", \"hull\" or \"mesh\", " + got(shape));
    body.shape = known->second;
    const bool sphere = body.shape == ShapeType::Sphere, box = body.shape == ShapeType::Box;
    const bool round = body.shape == ShapeType::Capsule || body.shape == ShapeType::Cylinder;

    if (sphere && find(j, "half_extents"))
        fail(child(p, "half_extents"), "a sphere has no half_extents (give radius)");
    if (box && find(j, "radius")) fail(child(p, "radius"), "a box has no radius (give half_extents)");
    if (round && find(j, "half_extents"))
        fail(child(p, "half_extents"),
             std::string("a ") + known->first + " has no half_extents (give radius and half_height)");
    std::vector<std::string_view> keys(kBodyKeys.begin(), kBodyKeys.end());
    if (sphere) keys.emplace_back("radius");
    if (box) keys.emplace_back("half_extents");
    if (round) keys.insert(keys.end(), {"radius", "half_height"});
    if (body.shape == ShapeType::Hull) keys.insert(keys.end(), {"points", "mesh"});
    checkKeys(j, p, std::span<const std::string_view>(keys));

    if (sphere || round)
        body.radius = readPositive(require(j, p, "radius"), child(p, "radius"), kBodySizeLimit);
    if (round)
        body.halfHeight = readPositive(require(j, p, "half_height"), child(p, "half_height"), kBodySizeLimit);
    if (box)
        body.halfExtents =
            readPositiveVec3(require(j, p, "half_extents"), child(p, "half_extents"), kBodySizeLimit);
    if (body.shape == ShapeType::Hull) {
        hull = readHull(j, p, meshes);
        body.hull = hull.hull;
    }
}

/// "velocity" and "angular_velocity", the fastest point of the body within the speed limit.
void readMotion(const json& j, const std::string& p, BodyDesc& body) {
    if (const json* v = find(j, "velocity"))
        body.velocity = readVec3WithLength(*v, child(p, "velocity"), kSpeedLimit);
    if (const json* w = find(j, "angular_velocity")) {
        body.angularVelocity = readVec3(*w, child(p, "angular_velocity"));
        checkAngularVelocity(body, p);
    }
}

/// "mass" or "density" (not both); neither leaves mass 0, "from density".
void readMass(const json& j, const std::string& p, BodyDesc& body) {
    const json* mass = find(j, "mass");
    const json* density = find(j, "density");
    if (mass && density) fail(child(p, "density"), "give mass or density, not both");
    body.mass = 0.0f; // "from density"
    if (mass) body.mass = readPositive(*mass, child(p, "mass"), kMassLimit);
    if (density) {
        body.density = readFloat(*density, child(p, "density"));
        checkDensity(body, p);
    }
}

/// "restitution", "friction" and "rolling_resistance", each defaulting to the scenario's.
void readMaterial(const json& j, const std::string& p, const Scenario& s, BodyDesc& body) {
    body.restitution = s.restitution;
    body.friction = s.friction;
    if (const json* e = find(j, "restitution"))
        body.restitution = readUnitInterval(*e, child(p, "restitution"));
    if (const json* f = find(j, "friction"))
        body.friction = readCoefficient(*f, child(p, "friction"), kFrictionLimit);
    body.rollingResistance = s.rollingResistance;
    if (const json* r = find(j, "rolling_resistance"))
        body.rollingResistance = readCoefficient(*r, child(p, "rolling_resistance"), kRollingResistanceLimit);
}

} // namespace

BodyDesc readBody(const json& j, const std::string& p, std::size_t index, const Scenario& s,
                  MeshFiles* meshes) {
    BodyDesc body;
    HullBody hull;
    readShapeAndSize(j, p, body, meshes, hull);
    body.name = defaultBodyName(body.shape, index);
    if (const json* name = find(j, "name")) body.name = readName(*name, child(p, "name"));
    body.position = readVec3(require(j, p, "position"), child(p, "position"));
    body.orientation = readOrientation(j, p);
    if (body.shape == ShapeType::Hull) {
        // The position and orientation place the points; the body is its centre of mass, turned
        // to its principal axes.
        const glm::quat q = glm::normalize(body.orientation);
        body.position += q * hull.centre;
        body.orientation = q * hull.rotation;
    }
    readMotion(j, p, body);
    readMass(j, p, body);
    readMaterial(j, p, s, body);
    body.color = kBodyPalette[index % kBodyPalette.size()];
    if (const json* c = find(j, "color")) body.color = readColor(*c, child(p, "color"));
    return body;
}

ObstacleDesc readObstacleDesc(const json& j, const std::string& p, MeshFiles& meshes) {
    checkKeys(j, p, {"shape", "mesh", "name", "position", "orientation", "euler_deg", "scale", "color"});
    ObstacleDesc desc;
    const json& mesh = require(j, p, "mesh");
    if (!mesh.is_string()) fail(child(p, "mesh"), "must be a file name, " + got(mesh));
    desc.mesh = meshes.load(mesh.get<std::string>(), child(p, "mesh"));
    desc.name = fs::path(mesh.get<std::string>()).stem().string();
    if (const json* name = find(j, "name")) desc.name = readName(*name, child(p, "name"));
    desc.position = readVec3(require(j, p, "position"), child(p, "position"));
    desc.orientation = readOrientation(j, p);
    if (const json* scale = find(j, "scale")) {
        desc.scale = scale->is_number() ? glm::vec3(readPositive(*scale, child(p, "scale"), kMeshScaleLimit))
                                        : readPositiveVec3(*scale, child(p, "scale"), kMeshScaleLimit);
    }
    if (const json* c = find(j, "color")) desc.color = readColor(*c, child(p, "color"));
    return desc;
}

Plane readPlaneValues(const json& plane, const std::string& p) {
    const glm::vec3 normal = readVec3(require(plane, p, "normal"), child(p, "normal"));
    const float d = readFloat(require(plane, p, "d"), child(p, "d"));
    const float len = glm::length(normal);
    if (!(len > 1e-6f) || !std::isfinite(len)) fail(child(p, "normal"), "must not be zero");
    return {normal / len, d / len};
}

namespace {

RandomDesc readRandom(const json& j) {
    const std::string p = "/random";
    expectObject(j, p);
    checkKeys(
        j, p,
        {"count", "seed", "speed", "sphere_radius", "box_half", "box_fraction", "shapes", "half_height"});
    RandomDesc r{0, 1, {1.0f, 5.0f}, {0.2f, 0.5f}, {0.2f, 0.5f}, 0.5f, std::nullopt, {0.2f, 0.5f}};

    const json& count = require(j, p, "count");
    if (!count.is_number_integer()) fail(child(p, "count"), "must be an integer, " + got(count));
    const std::int64_t n = count.get<std::int64_t>();
    if (count.is_number_unsigned() ? count.get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxRandomCount)
                                   : (n < 0 || n > kMaxRandomCount))
        fail(child(p, "count"), "must be in [0, " + std::to_string(kMaxRandomCount) + "], " + got(count));
    r.count = static_cast<int>(n);

    if (const json* seed = find(j, "seed")) {
        if (!seed->is_number_unsigned())
            fail(child(p, "seed"), "must be an integer in [0, 2^64), " + got(*seed));
        r.seed = seed->get<std::uint64_t>();
    }
    if (const json* v = find(j, "speed")) r.speed = readRange(*v, child(p, "speed"), false, kSpeedLimit);
    if (const json* v = find(j, "sphere_radius"))
        r.sphereRadius = readRange(*v, child(p, "sphere_radius"), true, kBodySizeLimit);
    if (const json* v = find(j, "box_half"))
        r.boxHalf = readRange(*v, child(p, "box_half"), true, kBodySizeLimit);
    if (const json* v = find(j, "box_fraction"))
        r.boxFraction = readUnitInterval(*v, child(p, "box_fraction"));
    if (const json* v = find(j, "half_height"))
        r.halfHeight = readRange(*v, child(p, "half_height"), true, kBodySizeLimit);
    if (const json* shapes = find(j, "shapes")) {
        const std::string at = child(p, "shapes");
        if (find(j, "box_fraction")) fail(at, "give shapes or box_fraction, not both");
        expectObject(*shapes, at);
        checkKeys(*shapes, at, {"sphere", "box", "capsule", "cylinder"});
        std::array<float, 4> weights{};
        constexpr const char* kNames[] = {"sphere", "box", "capsule", "cylinder"};
        for (std::size_t i = 0; i < weights.size(); ++i) {
            if (const json* w = find(*shapes, kNames[i]))
                weights[i] = readCoefficient(*w, child(at, kNames[i]), kShapeWeightLimit);
        }
        r.shapeWeights = weights;
    }
    checkShapeWeights(r, p);
    return r;
}

} // namespace

Scenario readScenario(const json& doc, MeshFiles& meshes) {
    expectObject(doc, "");
    checkKeys(doc, "",
              {"name", "description", "size", "planes", "gravity", "time_step", "restitution", "friction",
               "rolling_resistance", "camera", "bodies", "random"});
    Scenario s;
    s.name = readName(require(doc, "", "name"), "/name");
    if (const json* d = find(doc, "description")) s.description = readDescription(*d, "/description");
    s.room = readRoom(doc);
    if (const json* g = find(doc, "gravity"))
        s.settings.gravity = readVec3WithLength(*g, "/gravity", kGravityLimit);
    if (const json* dt = find(doc, "time_step")) {
        s.settings.timeStep = readFloat(*dt, "/time_step");
        checkTimeStep(s.settings.timeStep, "/time_step");
    }
    if (const json* e = find(doc, "restitution")) s.restitution = readUnitInterval(*e, "/restitution");
    if (const json* f = find(doc, "friction")) s.friction = readCoefficient(*f, "/friction", kFrictionLimit);
    if (const json* r = find(doc, "rolling_resistance"))
        s.rollingResistance = readCoefficient(*r, "/rolling_resistance", kRollingResistanceLimit);
    s.camera = readCamera(doc);

    if (const json* bodies = find(doc, "bodies")) {
        if (!bodies->is_array()) fail("/bodies", "must be an array of bodies, " + got(*bodies));
        for (std::size_t i = 0; i < bodies->size(); ++i) {
            const json& entry = (*bodies)[i];
            if (entry.is_object() && entry.contains("shape") && entry["shape"] == "mesh") {
                s.obstacles.push_back(readObstacle(entry, child("/bodies", i), i, s, meshes));
            } else {
                s.bodies.push_back(readBody(entry, child("/bodies", i), i, s, &meshes));
                s.bodyEntries.push_back(i);
            }
        }
    }
    if (const json* random = find(doc, "random")) s.random = readRandom(*random);
    checkTravelPerStep(s);
    return s;
}

} // namespace kz::scenario_detail
