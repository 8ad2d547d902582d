// Loading and validating scenario files (format: README.md, "Writing a scenario").
//
// Two passes over the text: a SAX pass that only checks syntax, finite numbers and duplicate
// keys (it knows the line, column and JSON pointer of the failure), then the DOM, read key by
// key. Every failure inside the reader throws LoadError, caught once at the API boundary and
// turned into one line "<file>: <JSON pointer>: <what is wrong>".
#include "scenario.hpp"

#include "body_checks.hpp"
#include "geom/plane.hpp"
#include "meshio/obj.hpp"
#include "physics/limits.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <glm/gtc/quaternion.hpp>
#include <initializer_list>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <system_error>

namespace kz {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

/// The most random bodies a scenario may ask for.
constexpr std::int64_t kMaxRandomCount = 20000;

/// A failure at a JSON pointer ("" is the whole document).
struct LoadError {
    std::string pointer;
    std::string what;
};

[[noreturn]] void fail(std::string pointer, std::string what) {
    throw LoadError{std::move(pointer), std::move(what)};
}

/// One line, whatever the message holds.
std::string oneLine(std::string s) {
    std::replace_if(
        s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return s;
}

std::string errorLine(const std::string& source, const std::string& pointer, const std::string& what) {
    return oneLine(source + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
}

/// RFC 6901: "~" is written "~0" and "/" is written "~1".
std::string child(const std::string& pointer, std::string_view key) {
    std::string out = pointer + "/";
    for (const char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string child(const std::string& pointer, std::size_t index) {
    return pointer + "/" + std::to_string(index);
}

std::string str(float v) {
    return scenario_detail::formatFloat(v);
}

std::string str(const glm::vec3& v) {
    return "[" + str(v.x) + ", " + str(v.y) + ", " + str(v.z) + "]";
}

/// "got ..." text for a value of the wrong type or range.
std::string got(const json& j) {
    if (j.is_array()) return "got an array";
    if (j.is_object()) return "got an object";
    return "got " + j.dump();
}

// ---- Pass 1: syntax, number range and duplicate keys, with positions -------------------------

struct LineColumn {
    std::size_t line;
    std::size_t column;
};

/// nlohmann's position is the count of characters read, the offending one included.
LineColumn lineColumn(std::string_view text, std::size_t charsRead) {
    const std::size_t last = std::min(charsRead == 0 ? 0 : charsRead - 1, text.size());
    const std::string_view before = text.substr(0, last);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t lineStart = before.rfind('\n');
    const std::size_t column = lineStart == std::string_view::npos ? last + 1 : last - lineStart;
    return {line, column};
}

/// Strips nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: " prefix.
std::string plainMessage(const std::string& what) {
    std::string msg = what;
    if (!msg.empty() && msg.front() == '[') {
        const std::size_t close = msg.find("] ");
        if (close != std::string::npos) msg.erase(0, close + 2);
    }
    if (msg.rfind("parse error", 0) == 0) {
        const std::size_t colon = msg.find(": ");
        if (colon != std::string::npos) msg.erase(0, colon + 2);
    }
    return msg;
}

/// A SAX handler that builds nothing: it tracks the JSON pointer of the current value so that
/// a duplicate key or a number too large for a double (nlohmann error 406, e.g. 1e999) is
/// reported where it is, and a syntax error by line and column.
class SyntaxCheck final : public json::json_sax_t {
public:
    explicit SyntaxCheck(std::string_view text) : text_(text) {}

    std::string error; ///< "<pointer or position>: <what>" once a check failed.

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }

    bool start_object(std::size_t) override { return enter(true); }
    bool key(string_t& name) override {
        Frame& frame = frames_.back();
        frame.key = name;
        if (!frame.keys.insert(name).second) {
            error = pointer() + ": duplicate key";
            return false;
        }
        return true;
    }
    bool end_object() override {
        frames_.pop_back();
        return value();
    }
    bool start_array(std::size_t) override { return enter(false); }
    bool end_array() override {
        frames_.pop_back();
        return value();
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const json::exception& ex) override {
        const LineColumn at = lineColumn(text_, position);
        const std::string where = "line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
        if (ex.id == 406) {
            const std::string p = pointer();
            error =
                (p.empty() ? "/" : p) + ": must be a finite number, got " + lastToken + " (" + where + ")";
        } else {
            error = where + ": not valid JSON: " + plainMessage(ex.what());
        }
        return false;
    }

private:
    struct Frame {
        bool isObject;
        std::set<std::string> keys;
        std::string key;   ///< Object: the key whose value is being read.
        std::size_t index; ///< Array: the index of the value being read.
    };

    /// An object or array opens, unless that nests it deeper than kMaxScenarioDepth.
    bool enter(bool isObject) {
        if (frames_.size() >= kMaxScenarioDepth) {
            const std::string p = pointer();
            error = (p.empty() ? "/" : p) + ": nested deeper than " + std::to_string(kMaxScenarioDepth) +
                    " levels (the limit for scenario files)";
            return false;
        }
        frames_.push_back({isObject, {}, {}, 0});
        return true;
    }

    /// A value ended: an array moves on to its next element.
    bool value() {
        if (!frames_.empty() && !frames_.back().isObject) ++frames_.back().index;
        return true;
    }

    std::string pointer() const {
        std::string p;
        for (const Frame& f : frames_)
            p = f.isObject ? child(p, f.key) : child(p, f.index);
        return p;
    }

    std::string_view text_;
    std::vector<Frame> frames_;
};

// ---- Pass 2: reading values ------------------------------------------------------------------

void expectObject(const json& j, const std::string& p) {
    if (!j.is_object()) fail(p, "must be an object, " + got(j));
}

/// Rejects any key not in `allowed` (listed in the message).
void checkKeys(const json& obj, const std::string& p, std::initializer_list<std::string_view> allowed) {
    for (const auto& item : obj.items()) {
        if (std::find(allowed.begin(), allowed.end(), item.key()) != allowed.end()) continue;
        std::string list;
        for (const std::string_view k : allowed)
            list += (list.empty() ? "" : ", ") + std::string(k);
        fail(child(p, item.key()), "unknown key (allowed here: " + list + ")");
    }
}

const json* find(const json& obj, const char* key) {
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const json& require(const json& obj, const std::string& p, const char* key) {
    const json* j = find(obj, key);
    if (!j) fail(child(p, key), "required key is missing");
    return *j;
}

float readFloat(const json& j, const std::string& p) {
    if (!j.is_number()) fail(p, "must be a number, " + got(j));
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(p, "must be a finite number, " + got(j));
    const float f = static_cast<float>(v);
    if (!std::isfinite(f)) fail(p, "must fit a float (|x| < 3.4e38), " + got(j));
    return f;
}

/// A documented range (physics/limits.hpp) and its unit, for messages.
struct Limit {
    float lo;
    float hi;
    const char* unit; ///< "" for none.
};

constexpr Limit kRoomSizeLimit{limits::kMinRoomSize, 2.0f * limits::kMaxRoomExtent, "m"};
constexpr Limit kBodySizeLimit{limits::kMinBodySize, limits::kMaxBodySize, "m"};
constexpr Limit kMassLimit{limits::kMinMass, limits::kMaxMass, "kg"};
constexpr Limit kSpeedLimit{0.0f, limits::kMaxSpeed, "m/s"};
constexpr Limit kAngularSpeedLimit{0.0f, limits::kMaxAngularSpeed, "rad/s"};
constexpr Limit kGravityLimit{0.0f, limits::kMaxGravity, "m/s^2"};
constexpr Limit kFrictionLimit{0.0f, limits::kMaxFriction, ""};
constexpr Limit kRollingResistanceLimit{0.0f, limits::kMaxRollingResistance, ""};
constexpr Limit kMeshScaleLimit{limits::kMinMeshScale, limits::kMaxMeshScale, ""};

/// "[lo, hi] unit".
std::string str(const Limit& limit) {
    return "[" + str(limit.lo) + ", " + str(limit.hi) + "]" + (*limit.unit ? " " : "") + limit.unit;
}

/// Fails unless lo <= v <= hi.
void checkLimit(double v, const std::string& p, const Limit& limit, const char* what = "") {
    if (!(v >= limit.lo && v <= limit.hi))
        fail(p, std::string(what) + "must be in " + str(limit) + ", got " + str(static_cast<float>(v)));
}

float readPositive(const json& j, const std::string& p, const Limit& limit) {
    const float v = readFloat(j, p);
    if (!(v > 0.0f)) fail(p, "must be > 0, " + got(j));
    checkLimit(v, p, limit);
    return v;
}

float readUnitInterval(const json& j, const std::string& p) {
    const float v = readFloat(j, p);
    if (v < 0.0f || v > 1.0f) fail(p, "must be in [0, 1], " + got(j));
    return v;
}

/// A material coefficient: >= 0 (said first, as before the limits), then within `limit`.
float readCoefficient(const json& j, const std::string& p, const Limit& limit) {
    const float v = readFloat(j, p);
    if (v < 0.0f) fail(p, "must be >= 0, " + got(j));
    checkLimit(v, p, limit);
    return v;
}

template <std::size_t N>
std::array<float, N> readNumbers(const json& j, const std::string& p) {
    if (!j.is_array() || j.size() != N)
        fail(p, "must be an array of " + std::to_string(N) + " numbers, " +
                    (j.is_array() ? "got " + std::to_string(j.size()) + " elements" : got(j)));
    std::array<float, N> out{};
    for (std::size_t i = 0; i < N; ++i)
        out[i] = readFloat(j[i], child(p, i));
    return out;
}

glm::vec3 readVec3(const json& j, const std::string& p) {
    const auto a = readNumbers<3>(j, p);
    return {a[0], a[1], a[2]};
}

glm::vec3 readPositiveVec3(const json& j, const std::string& p, const Limit& limit) {
    const glm::vec3 v = readVec3(j, p);
    for (std::size_t i = 0; i < 3; ++i) {
        const float x = v[static_cast<glm::length_t>(i)];
        if (!(x > 0.0f)) fail(child(p, i), "must be > 0, " + got(j[i]));
        checkLimit(x, child(p, i), limit);
    }
    return v;
}

/// A vector whose length (computed in double: no overflow) lies in the limit.
glm::vec3 readVec3WithLength(const json& j, const std::string& p, const Limit& limit) {
    const glm::vec3 v = readVec3(j, p);
    checkLimit(glm::length(glm::dvec3(v)), p, limit, "its length ");
    return v;
}

/// [min, max] with lowest <= min <= max <= limit.hi (min > 0 when strictlyPositive).
glm::vec2 readRange(const json& j, const std::string& p, bool strictlyPositive, const Limit& limit) {
    const auto a = readNumbers<2>(j, p);
    if (strictlyPositive ? !(a[0] > 0.0f) : a[0] < 0.0f)
        fail(child(p, std::size_t{0}),
             std::string(strictlyPositive ? "must be > 0, " : "must be >= 0, ") + got(j[0]));
    if (a[1] < a[0]) fail(child(p, 1), "must be >= the minimum " + str(a[0]) + ", " + got(j[1]));
    checkLimit(a[0], child(p, std::size_t{0}), limit);
    checkLimit(a[1], child(p, 1), limit);
    return {a[0], a[1]};
}

std::string readName(const json& j, const std::string& p) {
    if (!j.is_string()) fail(p, "must be a string, " + got(j));
    std::string s = j.get<std::string>();
    if (s.empty()) fail(p, "must not be empty");
    return s;
}

std::uint32_t readColor(const json& j, const std::string& p) {
    const auto bad = [&] { fail(p, "must be a colour \"#rrggbb\", " + got(j)); };
    if (!j.is_string()) bad();
    const std::string s = j.get<std::string>();
    if (s.size() != 7 || s[0] != '#') bad();
    std::uint32_t rgb = 0;
    const auto [end, ec] = std::from_chars(s.data() + 1, s.data() + s.size(), rgb, 16);
    if (ec != std::errc{} || end != s.data() + s.size() || s[1] == '+' || s[1] == '-') bad();
    return rgb;
}

/// [w, x, y, z], not zero; normalised.
glm::quat readQuaternion(const json& j, const std::string& p) {
    const auto a = readNumbers<4>(j, p);
    const glm::quat q(a[0], a[1], a[2], a[3]);
    const float len = glm::length(q);
    if (!(len > 1e-6f) || !std::isfinite(len)) fail(p, "must be a non-zero quaternion [w, x, y, z]");
    return q / len;
}

/// Degrees about the world x, then y, then z axis: q = qz * qy * qx.
glm::quat readEulerDeg(const json& j, const std::string& p) {
    const glm::vec3 deg = readVec3(j, p);
    const glm::vec3 rad = glm::radians(deg);
    return glm::angleAxis(rad.z, glm::vec3(0, 0, 1)) * glm::angleAxis(rad.y, glm::vec3(0, 1, 0)) *
           glm::angleAxis(rad.x, glm::vec3(1, 0, 0));
}

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
        const glm::vec3 normal = readVec3(require(plane, p, "normal"), child(p, "normal"));
        const float d = readFloat(require(plane, p, "d"), child(p, "d"));
        const float len = glm::length(normal);
        if (!(len > 1e-6f) || !std::isfinite(len)) fail(child(p, "normal"), "must not be zero");
        list.push_back({normal / len, d / len});
    }
    RoomResult room = makeRoom(list);
    if (!room.room) fail("/planes", room.error.empty() ? "do not bound a closed room" : room.error);
    const Aabb& bounds = room.room->bounds;
    float reach = 0.0f;
    for (glm::length_t k = 0; k < 3; ++k)
        reach = std::max({reach, std::abs(bounds.min[k]), std::abs(bounds.max[k])});
    if (reach > limits::kMaxRoomExtent)
        fail("/planes", "the room reaches " + str(reach) + " m from the origin; it must lie within " +
                            str(limits::kMaxRoomExtent) + " m of it along every axis");
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
    if (camera.eye == camera.target) fail(child(p, "target"), "must differ from eye");
    if (const json* fov = find(*j, "fov_deg")) {
        camera.fovDeg = readFloat(*fov, child(p, "fov_deg"));
        if (!(camera.fovDeg > 0.0f && camera.fovDeg < 180.0f))
            fail(child(p, "fov_deg"), "must be in (0, 180), " + got(*fov));
    }
    return camera;
}

/// Loads the mesh files of a scenario, each once, looked up beside the scenario file and then in
/// the asset root.
class MeshFiles {
public:
    explicit MeshFiles(const std::string& scenarioSource) {
        std::error_code ec;
        const fs::path source(scenarioSource);
        if (source.has_parent_path() && fs::is_directory(source.parent_path(), ec))
            places_.push_back(source.parent_path());
        else if (!source.has_parent_path() && fs::is_regular_file(source, ec))
            places_.push_back(fs::path("."));
        places_.push_back(assetDirectory());
    }

    std::shared_ptr<const MeshShape> load(const std::string& given, const std::string& p) {
        if (given.empty()) fail(p, "must name a mesh file (e.g. \"meshes/arch.obj\")");
        fs::path file(given);
        std::error_code ec;
        if (file.is_relative()) {
            std::string tried;
            bool found = false;
            for (const fs::path& place : places_) {
                if (fs::exists(place / given, ec)) {
                    file = place / given;
                    found = true;
                    break;
                }
                tried += (tried.empty() ? "" : " or ") + (place / given).string();
            }
            if (!found) fail(p, given + ": no such file (looked for " + tried + ")");
        }
        const fs::path canonical = fs::weakly_canonical(file, ec);
        const std::string key = ec ? file.string() : canonical.string();
        if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
        // Every file counts toward one budget, so many meshes cannot add up to unbounded memory.
        const std::uintmax_t bytes = fs::file_size(file, ec);
        if (!ec) totalBytes_ += bytes;
        if (totalBytes_ > kMaxScenarioMeshBytes)
            fail(p, given + ": the scenario's mesh files add up to more than " +
                        std::to_string(kMaxScenarioMeshBytes >> 20) + " MiB (" +
                        std::to_string(kMaxScenarioMeshBytes) + " bytes), the limit per scenario");
        std::string error;
        auto mesh = loadObj(file, error);
        if (!mesh) fail(p, error);
        auto shape = MeshShape::make(given, std::move(mesh->vertices), std::move(mesh->indices), error);
        if (!shape) fail(p, error);
        cache_.emplace(key, shape);
        return shape;
    }

private:
    std::vector<fs::path> places_;
    std::map<std::string, std::shared_ptr<const MeshShape>> cache_;
    std::uintmax_t totalBytes_ = 0;
};

glm::quat readOrientation(const json& j, const std::string& p) {
    const json* orientation = find(j, "orientation");
    const json* euler = find(j, "euler_deg");
    if (orientation && euler) fail(child(p, "euler_deg"), "give orientation or euler_deg, not both");
    if (orientation) return readQuaternion(*orientation, child(p, "orientation"));
    if (euler) return readEulerDeg(*euler, child(p, "euler_deg"));
    return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

ListedObstacle readObstacle(const json& j, const std::string& p, std::size_t index, const Scenario& s,
                            MeshFiles& meshes) {
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
    std::string error;
    auto obstacle = makeObstacle(desc, error);
    if (!obstacle) fail(p, error);
    // Inside the room: every vertex of the placed mesh on or in front of every wall.
    for (std::size_t w = 0; w < s.room.planes.size(); ++w) {
        float deepest = 0.0f;
        for (const glm::vec3& v : desc.mesh->vertices)
            deepest = std::max(deepest, -signedDistance(s.room.planes[w], obstacle->toWorld(v)));
        if (deepest > 1e-3f)
            fail(child(p, "position"), "mesh \"" + desc.name + "\" is not inside the room: it reaches " +
                                           str(deepest) + " past wall " + std::to_string(w));
    }
    return {std::move(*obstacle), index};
}

/// An upper bound of the speed of any point of the body: |v| + |w| r, r its bounding radius.
double fastestPointSpeed(const BodyDesc& body) {
    return glm::length(glm::dvec3(body.velocity)) +
           glm::length(glm::dvec3(body.angularVelocity)) * scenario_detail::boundingRadius(body);
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

/// No body may fly farther than the room's smallest width in one step, even at the fastest it can
/// get: its top speed plus what gravity adds over the room's diagonal (energy: v^2 + 2 |g| d).
/// Within this, the impacts of a step stay few enough for the world to follow every one.
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

BodyDesc readBody(const json& j, const std::string& p, std::size_t index, const Scenario& s) {
    expectObject(j, p);
    BodyDesc body;
    const json& shape = require(j, p, "shape");
    if (shape == "sphere")
        body.shape = ShapeType::Sphere;
    else if (shape == "box")
        body.shape = ShapeType::Box;
    else
        fail(child(p, "shape"), "must be \"sphere\", \"box\" or \"mesh\", " + got(shape));
    const bool sphere = body.shape == ShapeType::Sphere;

    if (sphere && find(j, "half_extents"))
        fail(child(p, "half_extents"), "a sphere has no half_extents (give radius)");
    if (!sphere && find(j, "radius")) fail(child(p, "radius"), "a box has no radius (give half_extents)");
    checkKeys(j, p,
              {"shape", sphere ? "radius" : "half_extents", "name", "position", "orientation", "euler_deg",
               "velocity", "angular_velocity", "mass", "density", "restitution", "friction",
               "rolling_resistance", "color"});

    if (sphere)
        body.radius = readPositive(require(j, p, "radius"), child(p, "radius"), kBodySizeLimit);
    else
        body.halfExtents =
            readPositiveVec3(require(j, p, "half_extents"), child(p, "half_extents"), kBodySizeLimit);
    body.name = (sphere ? "ball-" : "box-") + std::to_string(index);
    if (const json* name = find(j, "name")) body.name = readName(*name, child(p, "name"));
    body.position = readVec3(require(j, p, "position"), child(p, "position"));

    body.orientation = readOrientation(j, p);

    if (const json* v = find(j, "velocity"))
        body.velocity = readVec3WithLength(*v, child(p, "velocity"), kSpeedLimit);
    if (const json* w = find(j, "angular_velocity")) {
        body.angularVelocity = readVec3WithLength(*w, child(p, "angular_velocity"), kAngularSpeedLimit);
        checkLimit(
            fastestPointSpeed(body), child(p, "angular_velocity"), kSpeedLimit,
            "the speed of the body's fastest point (|velocity| + |angular_velocity| x bounding radius) ");
    }

    const json* mass = find(j, "mass");
    const json* density = find(j, "density");
    if (mass && density) fail(child(p, "density"), "give mass or density, not both");
    body.mass = 0.0f; // "from density"
    if (mass) body.mass = readPositive(*mass, child(p, "mass"), kMassLimit);
    if (density) {
        body.density = readFloat(*density, child(p, "density"));
        if (!(body.density > 0.0f)) fail(child(p, "density"), "must be > 0, " + got(*density));
        const double volume =
            sphere ? 4.0 / 3.0 * 3.14159265358979 * std::pow(double{body.radius}, 3)
                   : 8.0 * double{body.halfExtents.x} * body.halfExtents.y * body.halfExtents.z;
        checkLimit(body.density * volume, child(p, "density"), kMassLimit,
                   "the mass it gives (density x volume) ");
    }

    body.restitution = s.restitution;
    body.friction = s.friction;
    if (const json* e = find(j, "restitution"))
        body.restitution = readUnitInterval(*e, child(p, "restitution"));
    if (const json* f = find(j, "friction"))
        body.friction = readCoefficient(*f, child(p, "friction"), kFrictionLimit);
    body.rollingResistance = s.rollingResistance;
    if (const json* r = find(j, "rolling_resistance"))
        body.rollingResistance = readCoefficient(*r, child(p, "rolling_resistance"), kRollingResistanceLimit);
    body.color = scenario_detail::kBodyPalette[index % scenario_detail::kBodyPalette.size()];
    if (const json* c = find(j, "color")) body.color = readColor(*c, child(p, "color"));
    return body;
}

RandomDesc readRandom(const json& j) {
    const std::string p = "/random";
    expectObject(j, p);
    checkKeys(j, p, {"count", "seed", "speed", "sphere_radius", "box_half", "box_fraction"});
    RandomDesc r{0, 1, {1.0f, 5.0f}, {0.2f, 0.5f}, {0.2f, 0.5f}, 0.5f};

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
    return r;
}

Scenario readScenario(const json& doc, const std::string& source) {
    expectObject(doc, "");
    checkKeys(doc, "",
              {"name", "size", "planes", "gravity", "time_step", "restitution", "friction",
               "rolling_resistance", "camera", "bodies", "random"});
    Scenario s;
    s.name = readName(require(doc, "", "name"), "/name");
    s.room = readRoom(doc);
    if (const json* g = find(doc, "gravity"))
        s.settings.gravity = readVec3WithLength(*g, "/gravity", kGravityLimit);
    if (const json* dt = find(doc, "time_step")) {
        s.settings.timeStep = readFloat(*dt, "/time_step");
        if (!(s.settings.timeStep > 0.0f && s.settings.timeStep <= 0.1f))
            fail("/time_step", "must be in (0, 0.1], " + got(*dt));
    }
    if (const json* e = find(doc, "restitution")) s.restitution = readUnitInterval(*e, "/restitution");
    if (const json* f = find(doc, "friction")) s.friction = readCoefficient(*f, "/friction", kFrictionLimit);
    if (const json* r = find(doc, "rolling_resistance"))
        s.rollingResistance = readCoefficient(*r, "/rolling_resistance", kRollingResistanceLimit);
    s.camera = readCamera(doc);

    if (const json* bodies = find(doc, "bodies")) {
        if (!bodies->is_array()) fail("/bodies", "must be an array of bodies, " + got(*bodies));
        MeshFiles meshes(source);
        for (std::size_t i = 0; i < bodies->size(); ++i) {
            const json& entry = (*bodies)[i];
            if (entry.is_object() && entry.contains("shape") && entry["shape"] == "mesh") {
                s.obstacles.push_back(readObstacle(entry, child("/bodies", i), i, s, meshes));
            } else {
                s.bodies.push_back(readBody(entry, child("/bodies", i), i, s));
                s.bodyEntries.push_back(i);
            }
        }
    }
    if (const json* random = find(doc, "random")) s.random = readRandom(*random);
    checkTravelPerStep(s);
    return s;
}

std::string tooLarge(const std::string& source) {
    return oneLine(source + ": is larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB (" +
                   std::to_string(kMaxScenarioBytes) + " bytes), the limit for scenario files");
}

} // namespace

namespace scenario_detail {

/// "<pointer>: <what>" for the first listed body outside the room or touching another; empty
/// when all are fine. Shared with instantiate().
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
        if (const auto m = touchedObstacle(body, s.obstacles)) {
            const ListedObstacle& o = s.obstacles[*m];
            return child("/bodies", entry(i)) + ": body \"" + body.name + "\" touches the mesh at /bodies/" +
                   std::to_string(o.entry) + " (\"" + o.obstacle.name + "\"); bodies must not touch meshes";
        }
    }
    return {};
}

} // namespace scenario_detail

ScenarioResult parseScenario(std::string_view jsonText, const std::string& sourceName) {
    try {
        if (jsonText.size() > kMaxScenarioBytes) return {std::nullopt, tooLarge(sourceName)};
        SyntaxCheck check(jsonText);
        if (!json::sax_parse(jsonText.begin(), jsonText.end(), &check) || !check.error.empty())
            return {std::nullopt,
                    oneLine(sourceName + ": " + (check.error.empty() ? "not valid JSON" : check.error))};
        const json doc = json::parse(jsonText.begin(), jsonText.end(), nullptr, false);
        if (doc.is_discarded()) return {std::nullopt, sourceName + ": not valid JSON"};

        Scenario s = readScenario(doc, sourceName);
        s.source = sourceName;
        if (std::string error = scenario_detail::checkListedBodies(s); !error.empty())
            return {std::nullopt, oneLine(sourceName + ": " + error)};
        return {std::move(s), {}};
    } catch (const LoadError& e) {
        return {std::nullopt, errorLine(sourceName, e.pointer, e.what)};
    } catch (const std::exception& e) {
        return {std::nullopt, oneLine(sourceName + ": " + e.what())};
    }
}

ScenarioResult loadScenarioFile(const fs::path& file) {
    const std::string source = file.string();
    try {
        std::error_code ec;
        if (!fs::exists(file, ec)) return {std::nullopt, source + ": no such file"};
        if (fs::is_directory(file, ec))
            return {std::nullopt, source + ": is a directory, not a scenario file"};
        // Reads at most one byte past the limit, so a huge file or an endless device costs nothing.
        std::ifstream in(file, std::ios::binary);
        if (!in) return {std::nullopt, source + ": cannot read the file"};
        std::string text(kMaxScenarioBytes + 1, '\0');
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        if (in.bad()) return {std::nullopt, source + ": cannot read the file"};
        text.resize(static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxScenarioBytes) return {std::nullopt, tooLarge(source)};
        return parseScenario(text, source);
    } catch (const std::exception& e) {
        return {std::nullopt, oneLine(source + ": " + e.what())};
    }
}

fs::path assetDirectory() {
    return scenarioDirectory().parent_path();
}

fs::path scenarioDirectory() {
    // $KOLIZE_ASSET_DIR, else the installed copy next to the executable (<prefix>/bin/kolize and
    // <prefix>/share/kolize/assets after cmake --install), else the source tree's assets/.
    const char* env = std::getenv("KOLIZE_ASSET_DIR");
    if (env && *env) return fs::path(env) / "scenarios";
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed =
            exe.parent_path().parent_path() / "share" / "kolize" / "assets" / "scenarios";
        if (fs::is_directory(installed, ec)) return installed;
    }
    return fs::path(KZ_ASSET_DIR) / "scenarios";
}

std::vector<std::string> builtinScenarioNames() {
    std::vector<std::string> names;
    try {
        std::error_code ec;
        for (fs::directory_iterator it(scenarioDirectory(), ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code typeError;
            if (it->path().extension() == ".json" && it->is_regular_file(typeError))
                names.push_back(it->path().stem().string());
        }
        std::sort(names.begin(), names.end());
    } catch (const std::exception&) {
        names.clear(); // out of memory: report nothing rather than throw
    }
    return names;
}

ScenarioResult resolveScenario(const std::string& nameOrFile) {
    try {
        if (nameOrFile.empty()) return {std::nullopt, "(no scenario): give a scenario name or file"};
        std::error_code ec;
        const fs::path asGiven(nameOrFile);
        if (fs::is_regular_file(asGiven, ec)) return loadScenarioFile(asGiven);
        const bool looksLikePath = asGiven.has_parent_path() || asGiven.extension() == ".json";
        if (!looksLikePath) {
            const fs::path builtin = scenarioDirectory() / (nameOrFile + ".json");
            if (fs::is_regular_file(builtin, ec)) return loadScenarioFile(builtin);
        }
        std::string known;
        for (const std::string& name : builtinScenarioNames())
            known += (known.empty() ? "" : ", ") + name;
        return {std::nullopt, nameOrFile + ": no such file or built-in scenario (built-in: " +
                                  (known.empty() ? "none found in " + scenarioDirectory().string() : known) +
                                  ")"};
    } catch (const std::exception& e) {
        return {std::nullopt, oneLine(nameOrFile + ": " + e.what())};
    }
}

} // namespace kz
