// Reading the shapes file of `kolize explain` with the scenario loader's readers: its syntax pass
// (json_syntax), its value readers (json_values), its body and mesh-obstacle readers
// (read_scenario) and its mesh files (mesh_files). Every failure throws the loader's LoadError at
// a JSON pointer, caught once in readExplainInput.
#include "app/explain/shapes.hpp"

#include "geom/convex_hull.hpp"
#include "scenario/body_checks.hpp"
#include "scenario/json_syntax.hpp"
#include "scenario/json_values.hpp"
#include "scenario/mesh_files.hpp"
#include "scenario/read_scenario.hpp"

#include <array>
#include <exception>
#include <filesystem>
#include <glm/gtc/quaternion.hpp>
#include <memory>
#include <utility>
#include <vector>

namespace kz {

namespace {

using namespace scenario_detail;

/// A shape-cast's longest "t_max", in s: casts are for a step or a few seconds of motion.
constexpr float kMaxCastTime = 1000.0f;

constexpr std::array<std::pair<ExplainShapeKind, const char*>, 10> kShapeNames{{
    {ExplainShapeKind::Sphere, "sphere"},
    {ExplainShapeKind::Box, "box"},
    {ExplainShapeKind::Mesh, "mesh"},
    {ExplainShapeKind::Triangle, "triangle"},
    {ExplainShapeKind::Plane, "plane"},
    {ExplainShapeKind::Segment, "segment"},
    {ExplainShapeKind::Capsule, "capsule"},
    {ExplainShapeKind::Cylinder, "cylinder"},
    {ExplainShapeKind::Hull, "hull"},
    {ExplainShapeKind::Convex, "convex shape (sphere, box, capsule, cylinder or hull)"},
}};

bool isConvexKind(ExplainShapeKind kind) {
    return kind == ExplainShapeKind::Sphere || kind == ExplainShapeKind::Box ||
           kind == ExplainShapeKind::Capsule || kind == ExplainShapeKind::Cylinder ||
           kind == ExplainShapeKind::Hull;
}

/// The object's "shape", which must be `wanted` (the query's kind), or any convex kind when the
/// query wants a Convex one: the kind read.
ExplainShapeKind checkShapeKind(const json& j, const std::string& p, ExplainShapeKind wanted) {
    expectObject(j, p);
    const json& shape = require(j, p, "shape");
    for (const auto& [kind, name] : kShapeNames) {
        if (shape != name || kind == ExplainShapeKind::Convex) continue;
        if (kind != wanted && !(wanted == ExplainShapeKind::Convex && isConvexKind(kind)))
            fail(child(p, "shape"),
                 std::string("this query needs a ") + explainShapeName(wanted) + ", " + got(shape));
        return kind;
    }
    fail(child(p, "shape"),
         "must be \"sphere\", \"box\", \"capsule\", \"cylinder\", \"hull\", \"mesh\", \"triangle\", "
         "\"plane\" or \"segment\", " +
             got(shape));
}

/// How a query moves its shapes: not at all, a sweep's "a" (its "velocity" required), a cast's
/// "a" and "b" (their "velocity" and "angular_velocity" allowed).
enum class Motion { Still, Sweep, Cast };

/// A capsule, cylinder or hull's "velocity" and "angular_velocity" (in a cast), within the
/// scenario's speed limits.
void readConvexMotion(const json& j, const std::string& p, ExplainShape& shape) {
    if (const json* v = find(j, "velocity"))
        shape.velocity = readVec3WithLength(*v, child(p, "velocity"), kSpeedLimit);
    if (const json* w = find(j, "angular_velocity"))
        shape.angularVelocity = readVec3WithLength(*w, child(p, "angular_velocity"), kAngularSpeedLimit);
}

/// A capsule or a cylinder: "radius" and "half_height" (the half axis along its local y) in the
/// bodies' size range, "position", and "orientation" or "euler_deg".
void readRoundShape(const json& j, const std::string& p, Motion motion, ExplainShape& shape) {
    if (motion == Motion::Cast)
        checkKeys(j, p,
                  {"shape", "radius", "half_height", "position", "orientation", "euler_deg", "velocity",
                   "angular_velocity"});
    else
        checkKeys(j, p, {"shape", "radius", "half_height", "position", "orientation", "euler_deg"});
    readConvexMotion(j, p, shape);
    const float radius = readPositive(require(j, p, "radius"), child(p, "radius"), kBodySizeLimit);
    const float half = readPositive(require(j, p, "half_height"), child(p, "half_height"), kBodySizeLimit);
    const glm::vec3 position = readVec3(require(j, p, "position"), child(p, "position"));
    const glm::mat3 axes = glm::mat3_cast(readOrientation(j, p));
    if (shape.kind == ExplainShapeKind::Capsule)
        shape.capsule = capsuleFromPose(position, axes, half, radius);
    else
        shape.cylinder = cylinderFromPose(position, axes, half, radius);
}

/// A hull: its "points" (local frame, at least 4, at most kMaxHullPoints, not all on one plane),
/// "position", and "orientation" or "euler_deg".
void readHull(const json& j, const std::string& p, Motion motion, ExplainShape& shape) {
    if (motion == Motion::Cast)
        checkKeys(
            j, p,
            {"shape", "points", "position", "orientation", "euler_deg", "velocity", "angular_velocity"});
    else
        checkKeys(j, p, {"shape", "points", "position", "orientation", "euler_deg"});
    readConvexMotion(j, p, shape);
    const json& list = require(j, p, "points");
    const std::string listPointer = child(p, "points");
    if (!list.is_array()) fail(listPointer, "must be an array of points [x, y, z], " + got(list));
    if (list.size() > kMaxHullPoints)
        fail(listPointer, "has " + std::to_string(list.size()) + " points, more than the " +
                              std::to_string(kMaxHullPoints) + " a hull may have");
    std::vector<glm::vec3> points;
    points.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        points.push_back(readVec3(list[i], child(listPointer, i)));
    HullBuild build = buildConvexHull(points);
    if (!build.hull) fail(listPointer, build.error);
    shape.hull = std::make_shared<const ConvexHull>(std::move(*build.hull));
    shape.hullPosition = readVec3(require(j, p, "position"), child(p, "position"));
    shape.hullAxes = glm::mat3_cast(readOrientation(j, p));
}

/// An array of exactly N points [x, y, z].
template <std::size_t N>
std::array<glm::vec3, N> readPoints(const json& j, const std::string& p) {
    if (!j.is_array() || j.size() != N)
        fail(p, "must be an array of " + std::to_string(N) + " points [x, y, z], " +
                    (j.is_array() ? "got " + std::to_string(j.size()) + " elements" : got(j)));
    std::array<glm::vec3, N> points{};
    for (std::size_t i = 0; i < N; ++i)
        points[i] = readVec3(j[i], child(p, i));
    return points;
}

/// A sphere or a box, read as a scenario's listed body (every body key allowed and checked).
void readBodyShape(const json& j, const std::string& p, Motion motion, ExplainShape& shape) {
    const BodyDesc body = readBody(j, p, 0, Scenario{});
    if (shape.kind == ExplainShapeKind::Sphere)
        shape.sphere = {body.position, body.radius};
    else
        shape.box = obbOfDesc(body);
    if (motion == Motion::Sweep && !find(j, "velocity"))
        fail(child(p, "velocity"), "required key is missing (the sweep moves this shape by its velocity)");
    shape.velocity = body.velocity;
    shape.angularVelocity = body.angularVelocity;
}

ExplainShape readShape(const json& j, const std::string& p, ExplainShapeKind wanted, Motion motion,
                       MeshFiles& meshes) {
    ExplainShape shape;
    shape.kind = checkShapeKind(j, p, wanted);
    switch (shape.kind) {
    case ExplainShapeKind::Sphere:
    case ExplainShapeKind::Box:
        readBodyShape(j, p, motion, shape);
        break;
    case ExplainShapeKind::Mesh: {
        std::string error;
        shape.mesh = makeObstacle(readObstacleDesc(j, p, meshes), error);
        if (!shape.mesh) fail(p, error);
        break;
    }
    case ExplainShapeKind::Triangle: {
        checkKeys(j, p, {"shape", "vertices"});
        const auto v = readPoints<3>(require(j, p, "vertices"), child(p, "vertices"));
        shape.triangle = {v[0], v[1], v[2]};
        if (!isValid(shape.triangle))
            fail(child(p, "vertices"), "the triangle has no area (its vertices coincide or lie on one line)");
        break;
    }
    case ExplainShapeKind::Plane:
        checkKeys(j, p, {"shape", "normal", "d"});
        shape.plane = readPlaneValues(j, p);
        break;
    case ExplainShapeKind::Segment:
        checkKeys(j, p, {"shape", "points"});
        shape.segment = readPoints<2>(require(j, p, "points"), child(p, "points"));
        break;
    case ExplainShapeKind::Capsule:
    case ExplainShapeKind::Cylinder:
        readRoundShape(j, p, motion, shape);
        break;
    case ExplainShapeKind::Hull:
        readHull(j, p, motion, shape);
        break;
    case ExplainShapeKind::Convex: // never the kind read
        break;
    }
    return shape;
}

/// A "t_max" value: a number >= 0.
float readTMax(const json& j, const std::string& p) {
    const float tMax = readFloat(j, p);
    if (!(tMax >= 0.0f)) fail(p, "must be >= 0, " + got(j));
    return tMax;
}

void readRay(const json& j, ExplainInput& input) {
    const std::string p = "/ray";
    expectObject(j, p);
    checkKeys(j, p, {"origin", "dir", "t_max"});
    const Ray ray{readVec3(require(j, p, "origin"), child(p, "origin")),
                  readVec3(require(j, p, "dir"), child(p, "dir"))};
    if (!isValid(ray))
        fail(child(p, "dir"), "must not be zero (nor so short that its squared length underflows)");
    input.ray = ray;
    if (const json* tMax = find(j, "t_max")) input.rayTMax = readTMax(*tMax, child(p, "t_max"));
}

/// A cast's "t_max" (> 0 and at most kMaxCastTime: a turning shape has no natural end; 1 when not
/// given) and "gap" (0 to the bodies' size limit; 0 when not given).
void readCastLimits(const json& doc, ExplainInput& input) {
    if (const json* tMax = find(doc, "t_max")) {
        input.castTMax = readFloat(*tMax, "/t_max");
        if (!(input.castTMax > 0.0f)) fail("/t_max", "must be > 0, " + got(*tMax));
        checkLimit(input.castTMax, "/t_max", Limit{0.0f, kMaxCastTime, "s"});
    }
    if (const json* gap = find(doc, "gap")) {
        input.castGap = readFloat(*gap, "/gap");
        checkLimit(input.castGap, "/gap", Limit{0.0f, kBodySizeLimit.hi, "m"});
    }
}

ExplainInput readDocument(const json& doc, const std::string& sourceName, const ExplainNeeds& needs) {
    expectObject(doc, "");
    if (needs.ray)
        checkKeys(doc, "", {"ray", "b"});
    else if (needs.sweep)
        checkKeys(doc, "", {"a", "b", "t_max"});
    else if (needs.cast)
        checkKeys(doc, "", {"a", "b", "t_max", "gap"});
    else
        checkKeys(doc, "", {"a", "b"});
    // Mesh files beside the shapes file; for stdin (no such file) beside the current folder.
    std::error_code ec;
    MeshFiles meshes(std::filesystem::is_regular_file(sourceName, ec) ? sourceName : "./" + sourceName);
    ExplainInput input;
    if (needs.ray)
        readRay(require(doc, "", "ray"), input);
    else
        input.a = readShape(require(doc, "", "a"), "/a", needs.a,
                            needs.sweep  ? Motion::Sweep
                            : needs.cast ? Motion::Cast
                                         : Motion::Still,
                            meshes);
    input.b =
        readShape(require(doc, "", "b"), "/b", needs.b, needs.cast ? Motion::Cast : Motion::Still, meshes);
    if (const json* tMax = needs.sweep ? find(doc, "t_max") : nullptr)
        input.sweepTMax = readTMax(*tMax, "/t_max");
    if (needs.cast) readCastLimits(doc, input);
    return input;
}

} // namespace

const char* explainShapeName(ExplainShapeKind kind) {
    for (const auto& [k, name] : kShapeNames)
        if (k == kind) return name;
    return "?";
}

std::optional<ExplainInput> readExplainInput(std::string_view text, const std::string& sourceName,
                                             const ExplainNeeds& needs, std::string& error) {
    try {
        if (text.size() > kMaxScenarioBytes) {
            error =
                sourceName + ": is larger than " + std::to_string(kMaxScenarioBytes) + " bytes, the limit";
            return std::nullopt;
        }
        if (const auto syntax = checkSyntax(text)) {
            error = oneLine(sourceName + ": " + *syntax);
            return std::nullopt;
        }
        const json doc = json::parse(text.begin(), text.end(), nullptr, false);
        if (doc.is_discarded()) {
            error = sourceName + ": not valid JSON";
            return std::nullopt;
        }
        ExplainInput input = readDocument(doc, sourceName, needs);
        error.clear();
        return input;
    } catch (const LoadError& e) {
        error = errorLine(sourceName, e.pointer, e.what);
    } catch (const std::exception& e) {
        error = oneLine(sourceName + ": " + e.what());
    }
    return std::nullopt;
}

} // namespace kz
