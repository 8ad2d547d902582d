// Scenarios: a room, world settings, a camera and bodies, read from JSON files in
// assets/scenarios/ (format: docs/scenarios.md), and turned into a World.
//
// Loading and instantiating report failure through the result's `error` (one line,
// "<file>: <JSON pointer>: <what is wrong>"); none throws, and a failed load returns no
// scenario at all, never a partial one.
#pragma once

#include "physics/body.hpp"
#include "physics/room.hpp"
#include "physics/world.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kz {

/// Scenario files (and texts given to parseScenario) larger than this are refused before any
/// parsing: 4 MiB, which keeps the loader's memory to about 100 MB for any text.
inline constexpr std::size_t kMaxScenarioBytes = std::size_t{4} << 20;
/// Objects and arrays nested deeper than this are refused while checking the syntax, before any
/// document is built (a scenario needs 4 levels: /bodies/0/position/0).
inline constexpr std::size_t kMaxScenarioDepth = 16;
/// The mesh files one scenario loads add up to at most this many bytes (each OBJ file is also
/// limited by kMaxObjBytes, meshio/obj.hpp).
inline constexpr std::uintmax_t kMaxScenarioMeshBytes = std::uintmax_t{8} << 20;
/// A scenario's "description" holds at most this many characters (Unicode code points): two or
/// three sentences, shown whole in the panel and by `kolize --list-scenarios`.
inline constexpr std::size_t kMaxDescriptionChars = 1000;

/// A fixed viewpoint the app starts from.
struct CameraDesc {
    glm::vec3 eye;     ///< Camera position.
    glm::vec3 target;  ///< The point looked at (differs from eye).
    float fovDeg = 60; ///< Vertical field of view in degrees, in (0, 180).
};

/// Bodies scattered at random, fully inside the room and never overlapping anything.
struct RandomDesc {
    int count;              ///< How many bodies (>= 0).
    std::uint64_t seed;     ///< Seed of the std::mt19937_64 stream; same seed, same bodies.
    glm::vec2 speed;        ///< Speed range [min, max] in m/s (0 <= min <= max).
    glm::vec2 sphereRadius; ///< Sphere radius range [min, max] (0 < min <= max).
    glm::vec2 boxHalf;      ///< Range of each box half extent [min, max] (0 < min <= max).
    float boxFraction;      ///< Probability that a body is a box, in [0, 1].
    /// The "shapes" table: the weights (>= 0, not all 0) of sphere, box, capsule and cylinder;
    /// without it, boxFraction alone picks between spheres and boxes.
    std::optional<std::array<float, 4>> shapeWeights;
    /// Capsule and cylinder half height range [min, max] (their radius is drawn in sphereRadius).
    glm::vec2 halfHeight{0.2f, 0.5f};
};

/// A static mesh obstacle listed among the bodies ("shape": "mesh"), its mesh file loaded.
struct ListedObstacle {
    Obstacle obstacle; ///< Placed, inside the room.
    std::size_t entry; ///< Its index in the file's "bodies" array (for messages).
};

/// A validated scenario: every body and obstacle is inside the room and no two listed bodies
/// (or a body and an obstacle) touch.
struct Scenario {
    std::string name; ///< Non-empty display name.
    /// What to watch, in two or three sentences (the panel and `kolize --list-scenarios` show it):
    /// at most kMaxDescriptionChars characters, no control characters; empty when there is none.
    std::string description;
    std::string source;                    ///< The file it came from (or the name given to parseScenario).
    Room room;                             ///< Closed and bounded (built by boxRoom or makeRoom).
    WorldSettings settings;                ///< Gravity and time step from the file; the rest default.
    float restitution = 1.0f;              ///< Default restitution of bodies that give none, in [0, 1].
    float friction = 0.0f;                 ///< Default friction of bodies that give none, >= 0.
    float rollingResistance = 0.0f;        ///< Default rolling resistance of bodies that give none, >= 0.
    std::optional<CameraDesc> camera;      ///< Empty: the app chooses its own view.
    std::vector<BodyDesc> bodies;          ///< Listed bodies, each with material and colour resolved.
    std::vector<std::size_t> bodyEntries;  ///< Index of each listed body in the file's "bodies" array
                                           ///< (empty: the same as in `bodies`).
    std::vector<ListedObstacle> obstacles; ///< Listed mesh obstacles, in file order.
    std::optional<RandomDesc> random;      ///< Random bodies added after the listed ones.
};

struct ScenarioResult {
    std::optional<Scenario> scenario; ///< Empty on error.
    std::string error;                ///< One line, "<file>: <JSON pointer>: <what>"; empty on success.
};

/// Reads and validates a scenario file, and the mesh files its obstacles name. A file over
/// kMaxScenarioBytes, nesting deeper than kMaxScenarioDepth, a value outside the ranges of
/// physics/limits.hpp (docs/scenarios.md), a missing file,
/// invalid JSON (reported by line and column), a wrong type, an unknown or missing key, an
/// invalid value or a mesh file that does not load (missing, malformed, no triangles) is an
/// error. A mesh path is looked up beside the scenario file, then in the asset root.
ScenarioResult loadScenarioFile(const std::filesystem::path& file);

/// The same from text; `sourceName` stands for the file name in errors and Scenario::source.
ScenarioResult parseScenario(std::string_view jsonText, const std::string& sourceName);

/// assetDirectory() / "scenarios".
std::filesystem::path scenarioDirectory();

/// The asset root (it holds scenarios/ and meshes/): $KOLIZE_ASSET_DIR when set and not empty,
/// else <prefix>/share/kolize/assets when it exists (after cmake --install), else the
/// compile-time KZ_ASSET_DIR, the source tree's assets/ (dataDirectory, data_dir/data_dir.hpp).
std::filesystem::path assetDirectory();

/// The stems of the *.json files in scenarioDirectory(), sorted; empty if it cannot be read.
std::vector<std::string> builtinScenarioNames();

/// `nameOrFile` as a path when such a file exists, else the built-in scenario of that name
/// (scenarioDirectory() / (name + ".json")).
ScenarioResult resolveScenario(const std::string& nameOrFile);

/// A scenario as text: its JSON and the text of every mesh file it names, so it can be parsed
/// again anywhere without its files (a recording embeds it: src/session).
struct ScenarioText {
    std::string source;                        ///< The file it was read from: the name errors use.
    std::string json;                          ///< The scenario file's bytes.
    std::map<std::string, std::string> meshes; ///< Each mesh file's bytes, by the name the JSON gives it.
};

struct ScenarioTextResult {
    std::optional<ScenarioText> text; ///< Empty on error.
    std::optional<Scenario> scenario; ///< Parsed from the files (as parseScenarioText(*text) parses it).
    std::string error;                ///< As resolveScenario's; empty on success.
};

/// resolveScenario, keeping the texts: the scenario file `nameOrFile` names and every mesh file it
/// names, read, found and checked exactly as resolveScenario finds and checks them (the same errors).
ScenarioTextResult readScenarioText(const std::string& nameOrFile);

/// Parses `text`: parseScenario(text.json, text.source), with the mesh files taken from
/// text.meshes only (a name missing there is an error naming its JSON pointer); no file is read.
ScenarioResult parseScenarioText(const ScenarioText& text);

struct InstantiateResult {
    std::optional<World> world; ///< Empty on error.
    std::string error;          ///< One line; empty on success.
    std::uint64_t seed;         ///< The seed the random bodies used (override, file seed, or 0 if none).
};

/// Builds the world: the room and settings, the obstacles, the listed bodies in order, then the
/// random bodies. Random numbers come from std::mt19937_64 mapped to floats by hand in a fixed draw
/// order, so one seed gives bit-identical bodies on every run. A random body is placed with its
/// bounding sphere inside every wall, touching no other body or obstacle (up to 1000 tries each), and is
/// named "ball-<i>", "box-<i>", "capsule-<i>" or "cylinder-<i>" (i: its index in the world), like an
/// unnamed listed body.
/// Fails (with no world) when a value is outside the ranges the loader enforces (physics/limits.hpp;
/// a Scenario built in code gets the same checks and the same one-line errors, naming the field by
/// its JSON pointer), when a listed body is outside the room or touches another, or the random
/// bodies do not fit ("the room is too full").
InstantiateResult instantiate(const Scenario& scenario, std::optional<std::uint64_t> seedOverride = {});

} // namespace kz
