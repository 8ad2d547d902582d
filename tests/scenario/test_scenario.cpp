// Tests for scenario/scenario.hpp: the built-in files, the JSON format and its errors, and the
// seeded random generator (inside the room, no overlaps, bit-identical per seed).
#include "geom/gjk.hpp"
#include "geom/overlap.hpp"
#include "geom/plane.hpp"
#include "scenario/scenario.hpp"
#include "support/temp_dir.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <iterator>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using kz::test::TempDir;

namespace fs = std::filesystem;
using kz::Body;
using kz::parseScenario;
using kz::ShapeType;

/// A small valid document with `bodies` spliced in.
std::string roomWith(const std::string& bodies, const std::string& extra = "") {
    return R"({"name": "t", "size": [10, 10, 10], )" + extra + R"("bodies": [)" + bodies + "]}";
}

std::string sphereAt(float x, float radius = 0.5f) {
    return R"({"shape": "sphere", "radius": )" + std::to_string(radius) + R"(, "position": [)" +
           std::to_string(x) + ", 0, 0]}";
}

kz::Scenario mustParse(const std::string& text) {
    const kz::ScenarioResult r = parseScenario(text, "test.json");
    EXPECT_TRUE(r.scenario) << r.error;
    return r.scenario ? *r.scenario : kz::Scenario{};
}

kz::World mustInstantiate(const kz::Scenario& s, std::optional<std::uint64_t> seed = {}) {
    kz::InstantiateResult r = kz::instantiate(s, seed);
    EXPECT_TRUE(r.world) << r.error;
    if (!r.world) return kz::World(kz::boxRoom(glm::vec3(1.0f)));
    return std::move(*r.world);
}

bool overlaps(const Body& a, const Body& b) {
    if (kz::isConvexShape(a.shape) || kz::isConvexShape(b.shape))
        return kz::testConvexConvex(kz::convexOf(a), kz::convexOf(b));
    const bool aSphere = a.shape == ShapeType::Sphere;
    const bool bSphere = b.shape == ShapeType::Sphere;
    if (aSphere && bSphere) return kz::testSphereSphere(kz::sphereOf(a), kz::sphereOf(b));
    if (aSphere) return kz::testSphereObb(kz::sphereOf(a), kz::obbOf(b));
    if (bSphere) return kz::testSphereObb(kz::sphereOf(b), kz::obbOf(a));
    return kz::testObbObb(kz::obbOf(a), kz::obbOf(b));
}

/// Radius of the sphere about the centre that holds the body (a capsule's, cylinder's or hull's
/// as placing it took it: the world's is 1e-6 larger, for rounding).
float boundingRadius(const Body& b) {
    if (kz::isConvexShape(b.shape)) return b.radius / (1.0f + 1e-6f);
    return b.shape == ShapeType::Sphere ? b.radius : glm::length(b.halfExtents);
}

/// Every body fully inside every wall (by its bounding sphere for random boxes, exactly for
/// listed boxes, capsules, cylinders and hulls: both imply the corners are inside) and no two
/// bodies touching.
void expectSeparatedAndInside(const kz::World& world, bool boxesByCorners) {
    const auto bodies = world.bodies();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Body& b = bodies[i];
        for (const kz::Plane& plane : world.room().planes) {
            if (kz::isConvexShape(b.shape) && boxesByCorners) { // exactly, as listed boxes
                EXPECT_GE(kz::signedDistance(plane, kz::support(kz::convexOf(b), -plane.normal)), -1e-5f)
                    << b.name;
            } else if (b.shape == ShapeType::Box && boxesByCorners) {
                glm::vec3 c[8];
                kz::corners(kz::obbOf(b), c);
                for (const glm::vec3& corner : c)
                    EXPECT_GE(kz::signedDistance(plane, corner), -1e-5f) << b.name;
            } else {
                EXPECT_GE(kz::signedDistance(plane, b.position), boundingRadius(b)) << b.name;
            }
        }
        for (std::size_t k = 0; k < i; ++k)
            EXPECT_FALSE(overlaps(b, bodies[k])) << b.name << " overlaps " << bodies[k].name;
    }
}

std::uint32_t bits(float f) {
    return std::bit_cast<std::uint32_t>(f);
}

/// Every field of every body, bit for bit.
bool sameBits(std::span<const Body> a, std::span<const Body> b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const Body& x = a[i];
        const Body& y = b[i];
        const float xs[] = {x.radius,        x.halfExtents.x, x.halfExtents.y, x.halfExtents.z,
                            x.position.x,    x.position.y,    x.position.z,    x.orientation.w,
                            x.orientation.x, x.orientation.y, x.orientation.z, x.velocity.x,
                            x.velocity.y,    x.velocity.z,    x.mass};
        const float ys[] = {y.radius,        y.halfExtents.x, y.halfExtents.y, y.halfExtents.z,
                            y.position.x,    y.position.y,    y.position.z,    y.orientation.w,
                            y.orientation.x, y.orientation.y, y.orientation.z, y.velocity.x,
                            y.velocity.y,    y.velocity.z,    y.mass};
        for (std::size_t k = 0; k < std::size(xs); ++k)
            if (bits(xs[k]) != bits(ys[k])) return false;
        if (x.name != y.name || x.shape != y.shape || x.color != y.color) return false;
    }
    return true;
}

// ---- Built-in scenarios ------------------------------------------------------------------------

TEST(BuiltinScenarios, EveryRequiredScenarioHasAFileAndNamesAreSorted) {
    const std::vector<std::string> names = kz::builtinScenarioNames();
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    for (const char* required :
         {"two-balls", "random", "deterministic", "boxes", "mixed-100", "high-speed", "gravity-pile",
          "slanted-room", "lamp-arch", "mesh-playground", "rolling-race", "tumbling-hull", "mixed-pile"}) {
        EXPECT_NE(std::find(names.begin(), names.end(), required), names.end()) << required;
        EXPECT_TRUE(fs::is_regular_file(kz::scenarioDirectory() / (std::string(required) + ".json")))
            << required;
    }
}

TEST(BuiltinScenarios, EveryFileInTheDirectoryLoadsAndInstantiates) {
    const std::vector<std::string> names = kz::builtinScenarioNames();
    ASSERT_FALSE(names.empty()) << kz::scenarioDirectory();
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        const kz::ScenarioResult loaded = kz::resolveScenario(name);
        ASSERT_TRUE(loaded.scenario) << loaded.error;
        EXPECT_TRUE(loaded.error.empty());
        const kz::Scenario& s = *loaded.scenario;
        EXPECT_FALSE(s.name.empty());
        EXPECT_EQ(fs::path(s.source).stem().string(), name);
        kz::InstantiateResult r = kz::instantiate(s, std::nullopt);
        ASSERT_TRUE(r.world) << r.error;
        const std::size_t expected =
            s.bodies.size() + (s.random ? static_cast<std::size_t>(s.random->count) : 0);
        EXPECT_EQ(r.world->bodies().size(), expected);
        EXPECT_GT(expected, 0u);
        EXPECT_EQ(r.world->escapedCount(), 0);
        expectSeparatedAndInside(*r.world, !s.random);
    }
}

/// The sentences of `text`: each ends in '.', '!' or '?' followed by a space or the end.
std::size_t sentenceCount(const std::string& text) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool end = text[i] == '.' || text[i] == '!' || text[i] == '?';
        if (end && (i + 1 == text.size() || text[i + 1] == ' ')) ++count;
    }
    return count;
}

TEST(BuiltinScenarios, EveryBuiltinSaysWhatToWatchInTwoOrThreeSentences) {
    const std::vector<std::string> names = kz::builtinScenarioNames();
    ASSERT_FALSE(names.empty()) << kz::scenarioDirectory();
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        const kz::ScenarioResult loaded = kz::resolveScenario(name);
        ASSERT_TRUE(loaded.scenario) << loaded.error;
        const std::string& text = loaded.scenario->description;
        ASSERT_FALSE(text.empty());
        EXPECT_GE(text.size(), 80u) << text;
        EXPECT_LE(text.size(), 600u) << text;
        EXPECT_GE(sentenceCount(text), 2u) << text;
        EXPECT_LE(sentenceCount(text), 3u) << text;
        EXPECT_TRUE(text.back() == '.' || text.back() == '!' || text.back() == '?') << text;
    }
}

TEST(BuiltinScenarios, TwoBallsIsTwoBallsMovingApartWithoutGravity) {
    const kz::ScenarioResult r = kz::resolveScenario("two-balls");
    ASSERT_TRUE(r.scenario) << r.error;
    const kz::Scenario& s = *r.scenario;
    ASSERT_EQ(s.bodies.size(), 2u);
    EXPECT_EQ(s.settings.gravity, glm::vec3(0.0f));
    EXPECT_EQ(s.restitution, 1.0f);
    EXPECT_EQ(s.friction, 0.0f);
    EXPECT_EQ(s.room.bounds.max - s.room.bounds.min, glm::vec3(10.0f));
    const glm::vec3 a = glm::normalize(s.bodies[0].velocity);
    const glm::vec3 b = glm::normalize(s.bodies[1].velocity);
    EXPECT_LT(glm::dot(a, b), 0.9f);
}

TEST(BuiltinScenarios, DeterministicIsTwoEqualBallsOnTheXAxisWithACameraLookingDownZ) {
    const kz::ScenarioResult r = kz::resolveScenario("deterministic");
    ASSERT_TRUE(r.scenario) << r.error;
    const kz::Scenario& s = *r.scenario;
    ASSERT_EQ(s.bodies.size(), 2u);
    EXPECT_FALSE(s.random);
    for (const kz::BodyDesc& b : s.bodies) {
        EXPECT_EQ(b.shape, ShapeType::Sphere);
        EXPECT_EQ(b.radius, 0.5f);
        EXPECT_EQ(b.mass, 1.0f);
        EXPECT_EQ(b.position.y, 0.0f);
        EXPECT_EQ(b.position.z, 0.0f);
        EXPECT_NE(b.velocity.x, 0.0f);
        EXPECT_EQ(b.velocity.y, 0.0f);
        EXPECT_EQ(b.velocity.z, 0.0f);
        EXPECT_EQ(b.restitution, 1.0f);
        EXPECT_EQ(b.friction, 0.0f);
    }
    EXPECT_LT(s.bodies[0].position.x, s.bodies[1].position.x);
    EXPECT_GT(s.bodies[0].velocity.x, s.bodies[1].velocity.x); // A catches up with B
    ASSERT_TRUE(s.camera);
    const glm::vec3 view = glm::normalize(s.camera->target - s.camera->eye);
    EXPECT_NEAR(view.z, -1.0f, 1e-6f);
}

TEST(BuiltinScenarios, SlantedRoomHasATiltedCeiling) {
    const kz::ScenarioResult r = kz::resolveScenario("slanted-room");
    ASSERT_TRUE(r.scenario) << r.error;
    const auto& planes = r.scenario->room.planes;
    EXPECT_EQ(planes.size(), 6u);
    EXPECT_TRUE(std::any_of(planes.begin(), planes.end(), [](const kz::Plane& p) {
        return p.normal.y < -0.5f && std::abs(p.normal.y) < 0.999f; // faces down, not level
    }));
}

TEST(BuiltinScenarios, TheDocumentedExampleLoadsAndInstantiates) {
    std::ifstream in(fs::path(KZ_SOURCE_DIR) / "docs" / "scenarios.md");
    ASSERT_TRUE(in);
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t section = page.find("## An example");
    ASSERT_NE(section, std::string::npos);
    const std::size_t begin = page.find("```json\n", section);
    ASSERT_NE(begin, std::string::npos);
    const std::size_t end = page.find("```", begin + 8);
    ASSERT_NE(end, std::string::npos);
    const kz::Scenario s = mustParse(page.substr(begin + 8, end - begin - 8));
    EXPECT_EQ(s.bodies.size(), 3u);
    EXPECT_TRUE(s.random);
    EXPECT_TRUE(s.camera);
    EXPECT_FALSE(s.description.empty());
    const kz::World world = mustInstantiate(s);
    EXPECT_EQ(world.bodies().size(), 13u);
}

// ---- The format ------------------------------------------------------------------------------

TEST(ScenarioFormat, DefaultsApplyWhenKeysAreLeftOut) {
    const kz::Scenario s = mustParse(roomWith(sphereAt(0.0f)));
    EXPECT_EQ(s.name, "t");
    EXPECT_EQ(s.source, "test.json");
    EXPECT_EQ(s.settings.gravity, glm::vec3(0.0f));
    EXPECT_EQ(s.settings.timeStep, 1.0f / 120.0f);
    EXPECT_EQ(s.restitution, 1.0f);
    EXPECT_EQ(s.friction, 0.0f);
    EXPECT_FALSE(s.camera);
    EXPECT_FALSE(s.random);
    ASSERT_EQ(s.bodies.size(), 1u);
    const kz::BodyDesc& b = s.bodies[0];
    EXPECT_FALSE(b.name.empty());
    EXPECT_EQ(b.velocity, glm::vec3(0.0f));
    EXPECT_EQ(b.orientation, glm::quat(1, 0, 0, 0));
    EXPECT_EQ(b.mass, 0.0f); // from the default density
}

TEST(ScenarioFormat, EveryKeyIsRead) {
    const kz::Scenario s = mustParse(R"({
        "name": "all", "size": [8, 6, 4], "gravity": [0, -9.81, 0], "time_step": 0.005,
        "restitution": 0.5, "friction": 0.25, "rolling_resistance": 0.0625,
        "camera": {"eye": [0, 1, 9], "target": [0, 0, 0], "fov_deg": 50},
        "bodies": [
          {"shape": "box", "name": "crate", "half_extents": [0.5, 0.25, 0.4], "position": [1, 2, -1],
           "orientation": [0, 0, 2, 0], "velocity": [1, 2, 3], "angular_velocity": [0, 1, 0],
           "density": 500, "restitution": 0.75, "friction": 0.125, "rolling_resistance": 0.5,
           "color": "#12aBcD"},
          {"shape": "sphere", "radius": 0.3, "position": [-2, 0, 0], "mass": 2.5}
        ],
        "random": {"count": 3, "seed": 18446744073709551615, "speed": [1, 2], "sphere_radius": [0.1, 0.2],
                   "box_half": [0.1, 0.3], "box_fraction": 0.25}
    })");
    EXPECT_EQ(s.room.bounds.min, glm::vec3(-4, -3, -2));
    EXPECT_EQ(s.room.bounds.max, glm::vec3(4, 3, 2));
    EXPECT_EQ(s.settings.gravity, glm::vec3(0, -9.81f, 0));
    EXPECT_EQ(s.settings.timeStep, 0.005f);
    ASSERT_TRUE(s.camera);
    EXPECT_EQ(s.camera->eye, glm::vec3(0, 1, 9));
    EXPECT_EQ(s.camera->fovDeg, 50.0f);
    ASSERT_EQ(s.bodies.size(), 2u);
    const kz::BodyDesc& box = s.bodies[0];
    EXPECT_EQ(box.name, "crate");
    EXPECT_EQ(box.shape, ShapeType::Box);
    EXPECT_EQ(box.halfExtents, glm::vec3(0.5f, 0.25f, 0.4f));
    EXPECT_EQ(box.orientation, glm::quat(0, 0, 1, 0)); // normalised
    EXPECT_EQ(box.angularVelocity, glm::vec3(0, 1, 0));
    EXPECT_EQ(box.mass, 0.0f);
    EXPECT_EQ(box.density, 500.0f);
    EXPECT_EQ(box.restitution, 0.75f);
    EXPECT_EQ(box.friction, 0.125f);
    EXPECT_EQ(box.rollingResistance, 0.5f);
    EXPECT_EQ(box.color, 0x12abcdu);
    const kz::BodyDesc& ball = s.bodies[1];
    EXPECT_EQ(ball.mass, 2.5f);
    EXPECT_EQ(ball.restitution, 0.5f); // the scenario's defaults
    EXPECT_EQ(ball.friction, 0.25f);
    EXPECT_EQ(ball.rollingResistance, 0.0625f);
    ASSERT_TRUE(s.random);
    EXPECT_EQ(s.random->count, 3);
    EXPECT_EQ(s.random->seed, 18446744073709551615ull);
    EXPECT_EQ(s.random->speed, glm::vec2(1, 2));
    EXPECT_EQ(s.random->boxFraction, 0.25f);
}

TEST(ScenarioFormat, TheDescriptionIsReadWholeAndMeasuredInCharactersNotBytes) {
    EXPECT_EQ(mustParse(roomWith(sphereAt(0.0f))).description, "");
    // JSON's escapes are read: a quote, a degree sign.
    EXPECT_EQ(mustParse(roomWith(sphereAt(0.0f), R"("description": "It rolls \"down\" (20\u00b0).", )"))
                  .description,
              "It rolls \"down\" (20\u00b0).");
    // 1000 two-byte characters (2000 bytes) are within the limit; 1001 are not.
    std::string longest;
    for (int i = 0; i < 1000; ++i)
        longest += "\u00e9";
    EXPECT_EQ(
        mustParse(roomWith(sphereAt(0.0f), R"("description": ")" + longest + R"(", )")).description.size(),
        2000u);
    const kz::ScenarioResult over =
        parseScenario(roomWith(sphereAt(0.0f), R"("description": ")" + longest + R"(\u00e9", )"), "d.json");
    EXPECT_FALSE(over.scenario);
    EXPECT_EQ(over.error, "d.json: /description: must be at most 1000 characters, got 1001");
}

TEST(ScenarioFormat, PlaneNormalsAreNormalisedWithTheirOffsets) {
    const kz::Scenario s = mustParse(R"({"name": "p", "planes": [
        {"normal": [0, 2, 0], "d": 6}, {"normal": [0, -1, 0], "d": 3},
        {"normal": [3, 0, 0], "d": 9}, {"normal": [-1, 0, 0], "d": 3},
        {"normal": [0, 0, 0.5], "d": 1.5}, {"normal": [0, 0, -1], "d": 3}]})");
    ASSERT_FALSE(s.room.planes.empty());
    for (const kz::Plane& p : s.room.planes) {
        EXPECT_NEAR(glm::length(p.normal), 1.0f, 1e-6f);
        EXPECT_NEAR(p.d, 3.0f, 1e-6f);
    }
}

TEST(ScenarioFormat, EulerAnglesRotateAboutXThenYThenZ) {
    // x by 90 takes the local y axis to z; y by 90 then takes z to x: local y ends on world x.
    const kz::Scenario s =
        mustParse(roomWith(R"({"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0, 0],
                                                   "euler_deg": [90, 90, 0]})"));
    ASSERT_EQ(s.bodies.size(), 1u);
    const glm::quat q = s.bodies[0].orientation;
    const glm::vec3 y = q * glm::vec3(0, 1, 0);
    EXPECT_NEAR(y.x, 1.0f, 1e-6f);
    EXPECT_NEAR(y.y, 0.0f, 1e-6f);
    EXPECT_NEAR(y.z, 0.0f, 1e-6f);

    // All three angles: q = qz * qy * qx.
    const kz::Scenario t =
        mustParse(roomWith(R"({"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0, 0],
                                                   "euler_deg": [30, -50, 70]})"));
    const glm::quat expected = glm::angleAxis(glm::radians(70.0f), glm::vec3(0, 0, 1)) *
                               glm::angleAxis(glm::radians(-50.0f), glm::vec3(0, 1, 0)) *
                               glm::angleAxis(glm::radians(30.0f), glm::vec3(1, 0, 0));
    const glm::quat got = t.bodies.at(0).orientation;
    EXPECT_NEAR(std::abs(glm::dot(got, expected)), 1.0f, 1e-6f);
}

// ---- Errors: one line, "<file>: <JSON pointer>: <what>", and no scenario ------------------

struct BadCase {
    const char* what;
    std::string text;
    const char* where;   ///< The JSON pointer (or "line L, column C") that must appear.
    const char* message; ///< A part of the explanation.
};

std::vector<BadCase> badCases() {
    const std::string sphere = R"("shape": "sphere", "radius": 0.5, "position": [0, 0, 0])";
    const std::string box = R"("shape": "box", "half_extents": [0.5, 0.5, 0.5], "position": [0, 0, 0])";
    return {
        {"not JSON", "{\"name\": \"x\",\n  \"size\": [10, 10, 10]\n  oops\n}", "line 3, column 3",
         "not valid JSON"},
        {"truncated JSON", R"({"name": "x")", "line 1, column 13", "not valid JSON"},
        {"not an object", "[1, 2]", ": /: ", "must be an object"},
        {"wrong type for name", R"({"name": 5, "size": [10, 10, 10]})", "/name", "must be a string"},
        {"wrong type for description", R"({"name": "x", "description": 5, "size": [10, 10, 10]})",
         "/description", "must be a string, got 5"},
        {"a description as a list of lines",
         R"({"name": "x", "description": ["one", "two"], "size": [10, 10, 10]})", "/description",
         "must be a string, got an array"},
        {"empty description", R"({"name": "x", "description": "", "size": [10, 10, 10]})", "/description",
         "must not be empty (leave the key out for none)"},
        {"description too long",
         R"({"name": "x", "description": ")" + std::string(1001, 'a') + R"(", "size": [10, 10, 10]})",
         "/description", "must be at most 1000 characters, got 1001"},
        {"a line break in a description",
         R"({"name": "x", "description": "One.\nTwo.", "size": [10, 10, 10]})", "/description",
         "must hold no control characters (line breaks, tabs): character 5 is U+000A"},
        {"a tab in a description", R"({"name": "x", "description": "\tOne.", "size": [10, 10, 10]})",
         "/description", "character 1 is U+0009"},
        {"a C1 control in a description",
         R"({"name": "x", "description": "\u00e9\u0085", "size": [10, 10, 10]})", "/description",
         "character 2 is U+0085"},
        {"wrong type for a radius",
         roomWith(R"({"shape": "sphere", "radius": "big", "position": [0, 0, 0]})"), "/bodies/0/radius",
         "must be a number"},
        {"a vector of the wrong length", roomWith(R"({"shape": "sphere", "radius": 1, "position": [0, 0]})"),
         "/bodies/0/position", "array of 3 numbers"},
        {"bodies not an array", R"({"name": "x", "size": [10, 10, 10], "bodies": {}})", "/bodies",
         "must be an array"},
        {"unknown top-level key", R"({"name": "x", "size": [10, 10, 10], "colour": 1})", "/colour",
         "unknown key"},
        {"unknown body key", roomWith("{" + sphere + R"(, "colour": "#ffffff"})"), "/bodies/0/colour",
         "unknown key"},
        {"unknown camera key",
         roomWith("", R"("camera": {"eye": [0, 0, 9], "target": [0, 0, 0], "fov": 40}, )"), "/camera/fov",
         "unknown key"},
        {"unknown random key", R"({"name": "x", "size": [10, 10, 10], "random": {"count": 1, "sed": 2}})",
         "/random/sed", "unknown key"},
        {"unknown plane key", R"({"name": "x", "planes": [{"normal": [0, 1, 0], "d": 1, "w": 2}]})",
         "/planes/0/w", "unknown key"},
        {"a radius on a box", roomWith("{" + box + R"(, "radius": 1})"), "/bodies/0/radius", "half_extents"},
        {"duplicate key", R"({"name": "x", "size": [10, 10, 10], "name": "y"})", "/name", "duplicate key"},
        {"missing name", R"({"size": [10, 10, 10]})", "/name", "missing"},
        {"missing room", R"({"name": "x"})", "/size", "missing"},
        {"missing position", roomWith(R"({"shape": "sphere", "radius": 1})"), "/bodies/0/position",
         "missing"},
        {"missing shape", roomWith(R"({"radius": 1, "position": [0, 0, 0]})"), "/bodies/0/shape", "missing"},
        {"missing radius", roomWith(R"({"shape": "sphere", "position": [0, 0, 0]})"), "/bodies/0/radius",
         "missing"},
        {"missing random count", R"({"name": "x", "size": [10, 10, 10], "random": {"seed": 2}})",
         "/random/count", "missing"},
        {"unknown shape", roomWith(R"({"shape": "cone", "position": [0, 0, 0]})"), "/bodies/0/shape",
         R"(must be "sphere", "box", "capsule", "cylinder", "hull" or "mesh", got "cone")"},
        {"size and planes", R"({"name": "x", "size": [1, 1, 1], "planes": []})", "/planes", "not both"},
        {"sphere outside the room", roomWith(sphereAt(4.75f)), "/bodies/0/position", "not inside the room"},
        {"box corner outside the room",
         roomWith(
             R"({"shape": "box", "half_extents": [1, 1, 1], "position": [3.9, 0, 0], "euler_deg": [0, 0, 45]})"),
         "/bodies/0/position", "not inside the room"},
        {"touching spheres", roomWith(sphereAt(-0.5f) + ", " + sphereAt(0.5f)), "/bodies/1",
         "overlaps /bodies/0"},
        {"sphere in a box",
         roomWith(R"({"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0, 0]}, )" +
                  sphereAt(1.25f)),
         "/bodies/1", "overlaps /bodies/0"},
        {"overlapping boxes",
         roomWith("{" + box +
                  R"(}, {"shape": "box", "half_extents": [0.5, 0.5, 0.5], "position": [0.7, 0.7, 0],
                  "euler_deg": [0, 0, 45]})"),
         "/bodies/1", "overlaps /bodies/0"},
        {"orientation and euler",
         roomWith("{" + box + R"(, "orientation": [1, 0, 0, 0], "euler_deg": [0, 0, 0]})"),
         "/bodies/0/euler_deg", "not both"},
        {"mass and density", roomWith("{" + sphere + R"(, "mass": 1, "density": 1})"), "/bodies/0/density",
         "not both"},
        {"zero room size", R"({"name": "x", "size": [10, 0, 10]})", "/size/1", "must be > 0, got 0"},
        {"zero half extent",
         roomWith(R"({"shape": "box", "half_extents": [1, 1, 0], "position": [0, 0, 0]})"),
         "/bodies/0/half_extents/2", "must be > 0"},
        {"zero mass", roomWith("{" + sphere + R"(, "mass": 0})"), "/bodies/0/mass", "must be > 0, got 0"},
        {"negative density", roomWith("{" + sphere + R"(, "density": -5})"), "/bodies/0/density",
         "must be > 0, got -5"},
        {"restitution above one", R"({"name": "x", "size": [10, 10, 10], "restitution": 1.5})",
         "/restitution", "must be in [0, 1], got 1.5"},
        {"negative body restitution", roomWith("{" + sphere + R"(, "restitution": -0.1})"),
         "/bodies/0/restitution", "must be in [0, 1]"},
        {"negative friction", roomWith("{" + sphere + R"(, "friction": -1})"), "/bodies/0/friction",
         "must be >= 0"},
        {"negative rolling resistance", roomWith("{" + sphere + R"(, "rolling_resistance": -0.5})"),
         "/bodies/0/rolling_resistance", "must be >= 0"},
        {"rolling resistance not a number",
         R"({"name": "x", "size": [10, 10, 10], "rolling_resistance": "a"})", "/rolling_resistance",
         "must be a number"},
        {"number overflowing a double",
         roomWith(R"({"shape": "sphere", "radius": 1, "position": [1e999, 0, 0]})"), "/bodies/0/position/0",
         "must be a finite number, got 1e999"},
        {"number overflowing a float", R"({"name": "x", "size": [10, 10, 10], "gravity": [0, -1e300, 0]})",
         "/gravity/1", "must fit a float"},
        {"colour without hash", roomWith("{" + sphere + R"(, "color": "ff0000"})"), "/bodies/0/color",
         "#rrggbb"},
        {"colour with a bad digit", roomWith("{" + sphere + R"(, "color": "#12345g"})"), "/bodies/0/color",
         "#rrggbb"},
        {"colour too short", roomWith("{" + sphere + R"(, "color": "#fff"})"), "/bodies/0/color", "#rrggbb"},
        {"open room", R"({"name": "x", "planes": [{"normal": [0, 1, 0], "d": 5}]})", "/planes", ""},
        {"zero plane normal", R"({"name": "x", "planes": [{"normal": [0, 0, 0], "d": 5}]})",
         "/planes/0/normal", "must not be zero"},
        {"empty name", R"({"name": "", "size": [10, 10, 10]})", "/name", "must not be empty"},
        {"empty body name", roomWith("{" + sphere + R"(, "name": ""})"), "/bodies/0/name",
         "must not be empty"},
        {"time step too large", R"({"name": "x", "size": [10, 10, 10], "time_step": 0.5})", "/time_step",
         "must be in (0, 0.1]"},
        {"zero time step", R"({"name": "x", "size": [10, 10, 10], "time_step": 0})", "/time_step",
         "must be in (0, 0.1]"},
        {"camera eye on target", roomWith("", R"("camera": {"eye": [1, 1, 1], "target": [1, 1, 1]}, )"),
         "/camera/target", "must differ"},
        {"fractional random count", R"({"name": "x", "size": [10, 10, 10], "random": {"count": 2.5}})",
         "/random/count", "must be an integer"},
        {"negative random count", R"({"name": "x", "size": [10, 10, 10], "random": {"count": -1}})",
         "/random/count", "must be in [0, "},
        {"negative seed", R"({"name": "x", "size": [10, 10, 10], "random": {"count": 1, "seed": -1}})",
         "/random/seed", "must be an integer"},
        {"inverted random range",
         R"({"name": "x", "size": [10, 10, 10], "random": {"count": 1, "sphere_radius": [0.5, 0.2]}})",
         "/random/sphere_radius/1", "must be >= the minimum"},
        {"box fraction above one",
         R"({"name": "x", "size": [10, 10, 10], "random": {"count": 1, "box_fraction": 2}})",
         "/random/box_fraction", "must be in [0, 1]"},
    };
}

TEST(ScenarioErrors, EveryBadDocumentGivesOneLineWithTheFileAndThePath) {
    for (const BadCase& c : badCases()) {
        SCOPED_TRACE(c.what);
        const kz::ScenarioResult r = parseScenario(c.text, "test.json");
        EXPECT_FALSE(r.scenario);
        EXPECT_EQ(r.error.rfind("test.json: ", 0), 0u) << r.error;
        EXPECT_NE(r.error.find(c.where), std::string::npos) << r.error;
        EXPECT_NE(r.error.find(c.message), std::string::npos) << r.error;
        EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
        EXPECT_GT(r.error.size(), std::string("test.json: ").size() + std::string(c.where).size() + 2)
            << r.error;
    }
}

TEST(ScenarioErrors, ANegativeRadiusNamesTheBodyAndTheValue) {
    const kz::ScenarioResult r =
        parseScenario(roomWith(sphereAt(-3.0f) + ", " + sphereAt(0.0f) +
                               R"(, {"shape": "sphere", "radius": -1, "position": [3, 0, 0]})"),
                      "assets/scenarios/x.json");
    EXPECT_FALSE(r.scenario);
    EXPECT_EQ(r.error, "assets/scenarios/x.json: /bodies/2/radius: must be > 0, got -1");
}

TEST(ScenarioErrors, AnOpenRoomReportsTheRoomBuildersReason) {
    const kz::ScenarioResult r =
        parseScenario(R"({"name": "x", "planes": [{"normal": [0, 1, 0], "d": 5}]})", "o.json");
    EXPECT_FALSE(r.scenario);
    EXPECT_EQ(r.error.rfind("o.json: /planes: ", 0), 0u) << r.error;
    EXPECT_GT(r.error.size(), std::string("o.json: /planes: ").size()) << r.error;
}

TEST(ScenarioErrors, KeysInPointersAreEscaped) {
    const kz::ScenarioResult r =
        parseScenario(R"({"name": "x", "size": [10, 10, 10], "a/b~c": 1})", "e.json");
    EXPECT_NE(r.error.find("/a~1b~0c: unknown key"), std::string::npos) << r.error;
}

TEST(ScenarioErrors, AMissingFileNamesTheFile) {
    const TempDir dir;
    const fs::path missing = dir.path() / "nope.json";
    const kz::ScenarioResult r = kz::loadScenarioFile(missing);
    EXPECT_FALSE(r.scenario);
    EXPECT_EQ(r.error.rfind(missing.string() + ": ", 0), 0u) << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos);
}

TEST(ScenarioErrors, ABadFileOnDiskNamesTheFileAndThePath) {
    const TempDir dir;
    for (const BadCase& c : badCases()) {
        SCOPED_TRACE(c.what);
        const fs::path file = dir.write("bad.json", c.text);
        const kz::ScenarioResult r = kz::loadScenarioFile(file);
        EXPECT_FALSE(r.scenario);
        EXPECT_EQ(r.error.rfind(file.string() + ": ", 0), 0u) << r.error;
        EXPECT_NE(r.error.find(c.where), std::string::npos) << r.error;
        EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    }
}

TEST(ScenarioErrors, ADirectoryIsNotAScenarioFile) {
    const TempDir dir;
    const kz::ScenarioResult r = kz::loadScenarioFile(dir.path());
    EXPECT_FALSE(r.scenario);
    EXPECT_EQ(r.error.rfind(dir.path().string() + ": ", 0), 0u) << r.error;
}

// ---- Finding scenarios -----------------------------------------------------------------------

TEST(ScenarioLookup, AFilePathWinsOverABuiltinName) {
    const TempDir dir;
    const fs::path file = dir.write("mine.json", roomWith(sphereAt(1.0f)));
    const kz::ScenarioResult r = kz::resolveScenario(file.string());
    ASSERT_TRUE(r.scenario) << r.error;
    EXPECT_EQ(r.scenario->source, file.string());
}

TEST(ScenarioLookup, AnUnknownNameListsTheBuiltins) {
    const kz::ScenarioResult r = kz::resolveScenario("no-such-scenario");
    EXPECT_FALSE(r.scenario);
    EXPECT_EQ(r.error.rfind("no-such-scenario: ", 0), 0u) << r.error;
    EXPECT_NE(r.error.find("two-balls"), std::string::npos) << r.error;
}

TEST(ScenarioLookup, TheAssetDirectoryCanBeOverriddenByTheEnvironment) {
    const TempDir dir;
    dir.write("scenarios/zeta.json", roomWith(sphereAt(1.0f)));
    dir.write("scenarios/alpha.json", roomWith(sphereAt(2.0f)));
    dir.write("scenarios/notes.txt", "not a scenario");
    ASSERT_EQ(::setenv("KOLIZE_ASSET_DIR", dir.path().c_str(), 1), 0);
    const std::vector<std::string> names = kz::builtinScenarioNames();
    const fs::path directory = kz::scenarioDirectory();
    const kz::ScenarioResult alpha = kz::resolveScenario("alpha");
    ::unsetenv("KOLIZE_ASSET_DIR");
    EXPECT_EQ(names, (std::vector<std::string>{"alpha", "zeta"}));
    EXPECT_EQ(directory, dir.path() / "scenarios");
    ASSERT_TRUE(alpha.scenario) << alpha.error;
    EXPECT_EQ(alpha.scenario->bodies.at(0).position.x, 2.0f);
}

// ---- Instantiating and the random generator -------------------------------------------------

std::string randomRoom(int count, std::uint64_t seed, const std::string& room = R"("size": [8, 8, 8])") {
    return R"({"name": "r", )" + room + R"(, "random": {"count": )" + std::to_string(count) +
           R"(, "seed": )" + std::to_string(seed) +
           R"(, "speed": [1, 3], "sphere_radius": [0.2, 0.5], "box_half": [0.1, 0.45], "box_fraction": 0.5}})";
}

TEST(ScenarioInstantiate, ListedBodiesComeFirstInOrderWithTheirSettings) {
    const kz::Scenario s = mustParse(roomWith(sphereAt(-2.0f) + ", " + sphereAt(2.0f, 0.25f),
                                              R"("gravity": [0, -1, 0], "random": {"count": 4}, )"));
    const kz::World world = mustInstantiate(s);
    ASSERT_EQ(world.bodies().size(), 6u);
    EXPECT_EQ(world.bodies()[0].position.x, -2.0f);
    EXPECT_EQ(world.bodies()[1].radius, 0.25f);
    EXPECT_EQ(world.settings().gravity, glm::vec3(0, -1, 0));
    EXPECT_EQ(world.room().planes.size(), s.room.planes.size());
}

TEST(ScenarioInstantiate, RandomBodiesNeverOverlapAndStayInsideTheRoom) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const kz::Scenario s = mustParse(randomRoom(150, seed));
        const kz::World world = mustInstantiate(s);
        ASSERT_EQ(world.bodies().size(), 150u);
        expectSeparatedAndInside(world, false);
        int boxes = 0;
        for (std::size_t i = 0; i < world.bodies().size(); ++i) {
            const Body& b = world.bodies()[i];
            EXPECT_EQ(b.name, (b.shape == ShapeType::Box ? "box-" : "ball-") + std::to_string(i));
            const float speed = glm::length(b.velocity);
            EXPECT_GE(speed, 1.0f - 1e-5f) << b.name;
            EXPECT_LE(speed, 3.0f + 1e-5f) << b.name;
            if (b.shape == ShapeType::Box) {
                ++boxes;
                for (int axis = 0; axis < 3; ++axis) {
                    EXPECT_GE(b.halfExtents[axis], 0.1f);
                    EXPECT_LE(b.halfExtents[axis], 0.45f);
                }
            } else {
                EXPECT_GE(b.radius, 0.2f);
                EXPECT_LE(b.radius, 0.5f);
            }
        }
        EXPECT_GT(boxes, 30);
        EXPECT_LT(boxes, 120);
    }
}

TEST(ScenarioInstantiate, RandomBodiesAvoidListedBodiesAndSlantedWalls) {
    const std::string planes = R"("planes": [{"normal": [0, 1, 0], "d": 3}, {"normal": [1, 0, 0], "d": 4},
        {"normal": [-1, 0, 0], "d": 4}, {"normal": [0, 0, 1], "d": 4}, {"normal": [0, 0, -1], "d": 4},
        {"normal": [0.5, -1, 0.25], "d": 3}])";
    std::string text = randomRoom(80, 3, planes);
    text.insert(text.size() - 1,
                R"(, "bodies": [{"shape": "sphere", "radius": 1.5, "position": [0, -1, 0]}])");
    const kz::Scenario s = mustParse(text);
    const kz::World world = mustInstantiate(s);
    ASSERT_EQ(world.bodies().size(), 81u);
    expectSeparatedAndInside(world, false);
}

TEST(ScenarioInstantiate, AnOverfullRoomFailsWithAClearError) {
    const kz::Scenario s = mustParse(R"({"name": "full", "size": [2, 2, 2],
        "random": {"count": 50, "sphere_radius": [0.45, 0.5], "box_fraction": 0}})");
    const kz::InstantiateResult r = kz::instantiate(s, std::nullopt);
    EXPECT_FALSE(r.world);
    EXPECT_EQ(r.error.rfind("test.json: /random/count: ", 0), 0u) << r.error;
    EXPECT_NE(r.error.find("too full"), std::string::npos) << r.error;
}

TEST(ScenarioInstantiate, ABodyLargerThanTheRoomFails) {
    const kz::Scenario s = mustParse(R"({"name": "tiny", "size": [1, 1, 1],
        "random": {"count": 1, "sphere_radius": [0.6, 0.6], "box_fraction": 0}})");
    const kz::InstantiateResult r = kz::instantiate(s, std::nullopt);
    EXPECT_FALSE(r.world);
    EXPECT_NE(r.error.find("/random"), std::string::npos) << r.error;
}

TEST(ScenarioInstantiate, OverlappingBodiesBuiltInCodeAreRejected) {
    kz::Scenario s = mustParse(roomWith(sphereAt(-2.0f) + ", " + sphereAt(2.0f)));
    s.bodies[1].position.x = -1.5f;
    const kz::InstantiateResult r = kz::instantiate(s, std::nullopt);
    EXPECT_FALSE(r.world);
    EXPECT_NE(r.error.find("/bodies/1: "), std::string::npos) << r.error;
}

/// A valid scenario built in code: a 10 m room, a camera, a ball and a box, random bodies.
kz::Scenario codeScenario() {
    kz::Scenario s;
    s.name = "code";
    s.source = "code.json";
    s.room = kz::boxRoom(glm::vec3(10.0f));
    s.camera = kz::CameraDesc{{0, 2, 14}, {0, 0, 0}, 50.0f};
    kz::BodyDesc ball;
    ball.name = "ball";
    ball.position = {-2, 0, 0};
    ball.velocity = {3, 0, 0};
    kz::BodyDesc box;
    box.name = "box";
    box.shape = ShapeType::Box;
    box.halfExtents = {0.3f, 0.4f, 0.5f};
    box.position = {2, 0, 0};
    box.angularVelocity = {0, 2, 0};
    box.mass = 2.0f;
    s.bodies = {ball, box};
    s.random =
        kz::RandomDesc{5, 1, {1.0f, 4.0f}, {0.2f, 0.4f}, {0.2f, 0.4f}, 0.5f, std::nullopt, {0.2f, 0.5f}};
    return s;
}

TEST(ScenarioInstantiate, AScenarioBuiltInCodeWithinTheRangesInstantiates) {
    const kz::World world = mustInstantiate(codeScenario());
    EXPECT_EQ(world.bodies().size(), 7u);
}

TEST(ScenarioInstantiate, EveryFieldOfAScenarioBuiltInCodeIsCheckedAsTheLoaderChecksIt) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    struct Case {
        const char* what;
        std::function<void(kz::Scenario&)> spoil;
        const char* message; ///< The whole line after "code.json: ".
    };
    const std::vector<Case> cases = {
        {"empty name", [](kz::Scenario& s) { s.name.clear(); }, "/name: must not be empty"},
        {"a description too long", [](kz::Scenario& s) { s.description = std::string(1200, 'w'); },
         "/description: must be at most 1000 characters, got 1200"},
        {"a line break in the description", [](kz::Scenario& s) { s.description = "One.\r\nTwo."; },
         "/description: must hold no control characters (line breaks, tabs): character 5 is U+000D"},
        {"no walls", [](kz::Scenario& s) { s.room = kz::Room{}; }, "/: the room has no walls"},
        {"a wall with a NaN normal", [&](kz::Scenario& s) { s.room.planes[2].normal.y = nan; },
         "/planes/2/normal/1: must be a finite number, got nan"},
        {"a room beyond the limit", [](kz::Scenario& s) { s.room = kz::boxRoom(glm::vec3(3000.0f)); },
         "/planes: the room reaches 1500 m from the origin; it must lie within 1000 m of it along every "
         "axis"},
        {"infinite gravity", [&](kz::Scenario& s) { s.settings.gravity.y = -inf; },
         "/gravity/1: must be a finite number, got -inf"},
        {"gravity beyond the limit",
         [](kz::Scenario& s) {
             s.settings.gravity = {0, -2000, 0};
         },
         "/gravity: its length must be in [0, 1000] m/s^2, got 2000"},
        {"a NaN time step", [&](kz::Scenario& s) { s.settings.timeStep = nan; },
         "/time_step: must be in (0, 0.1], got nan"},
        {"a long time step", [](kz::Scenario& s) { s.settings.timeStep = 0.5f; },
         "/time_step: must be in (0, 0.1], got 0.5"},
        {"restitution above one", [](kz::Scenario& s) { s.restitution = 1.5f; },
         "/restitution: must be in [0, 1], got 1.5"},
        {"friction beyond the limit", [](kz::Scenario& s) { s.friction = 11.0f; },
         "/friction: must be in [0, 10], got 11"},
        {"a NaN camera eye", [&](kz::Scenario& s) { s.camera->eye.x = nan; },
         "/camera/eye/0: must be a finite number, got nan"},
        {"a camera target beyond the limit", [](kz::Scenario& s) { s.camera->target.z = 5000.0f; },
         "/camera/target/2: must be in [-4000, 4000] m, got 5000"},
        {"a camera eye on its target", [](kz::Scenario& s) { s.camera->eye = s.camera->target; },
         "/camera/target: must differ from eye by at least 0.001 m, got 0 m"},
        {"a camera field of view of 180", [](kz::Scenario& s) { s.camera->fovDeg = 180.0f; },
         "/camera/fov_deg: must be in (0, 180), got 180"},
        {"a NaN radius", [&](kz::Scenario& s) { s.bodies[0].radius = nan; },
         "/bodies/0/radius: must be a finite number, got nan"},
        {"a radius of 1e-30", [](kz::Scenario& s) { s.bodies[0].radius = 1e-30f; },
         "/bodies/0/radius: must be in [0.001, 100] m, got 1e-30"},
        {"a zero half extent", [](kz::Scenario& s) { s.bodies[1].halfExtents.z = 0.0f; },
         "/bodies/1/half_extents/2: must be > 0, got 0"},
        {"a half extent beyond the limit", [](kz::Scenario& s) { s.bodies[1].halfExtents.x = 200.0f; },
         "/bodies/1/half_extents/0: must be in [0.001, 100] m, got 200"},
        {"an empty body name", [](kz::Scenario& s) { s.bodies[1].name.clear(); },
         "/bodies/1/name: must not be empty"},
        {"an infinite position", [&](kz::Scenario& s) { s.bodies[0].position.z = inf; },
         "/bodies/0/position/2: must be a finite number, got inf"},
        {"a zero quaternion", [](kz::Scenario& s) { s.bodies[1].orientation = glm::quat(0, 0, 0, 0); },
         "/bodies/1/orientation: must be a non-zero quaternion [w, x, y, z]"},
        {"a speed beyond the limit",
         [](kz::Scenario& s) {
             s.bodies[0].velocity = {1000, 1000, 0};
         },
         "/bodies/0/velocity: its length must be in [0, 1000] m/s, got 1414.2136"},
        {"an angular speed beyond the limit",
         [](kz::Scenario& s) {
             s.bodies[1].angularVelocity = {0, 0, -2000};
         },
         "/bodies/1/angular_velocity: its length must be in [0, 1000] rad/s, got 2000"},
        {"a fastest point beyond the limit",
         [](kz::Scenario& s) {
             s.bodies[1].velocity = {900, 0, 0};
             s.bodies[1].angularVelocity = {0, 500, 0};
         },
         "/bodies/1/angular_velocity: the speed of the body's fastest point (|velocity| + |angular_velocity| "
         "x "
         "bounding radius) must be in [0, 1000] m/s, got 1253.5533"},
        {"a negative mass", [](kz::Scenario& s) { s.bodies[1].mass = -1.0f; },
         "/bodies/1/mass: must be > 0, got -1"},
        {"a mass of 1e-45", [](kz::Scenario& s) { s.bodies[1].mass = 1e-45f; },
         "/bodies/1/mass: must be in [1e-06, 1e+10] kg, got 1e-45"},
        {"a zero density", [](kz::Scenario& s) { s.bodies[0].density = 0.0f; },
         "/bodies/0/density: must be > 0, got 0"},
        {"a density giving too heavy a body", [](kz::Scenario& s) { s.bodies[0].density = 1e30f; },
         "/bodies/0/density: the mass it gives (density x volume) must be in [1e-06, 1e+10] kg, got "
         "5.2359877e+29"},
        {"a NaN restitution", [&](kz::Scenario& s) { s.bodies[0].restitution = nan; },
         "/bodies/0/restitution: must be in [0, 1], got nan"},
        {"a negative friction", [](kz::Scenario& s) { s.bodies[0].friction = -1.0f; },
         "/bodies/0/friction: must be >= 0, got -1"},
        {"a rolling resistance beyond the limit",
         [](kz::Scenario& s) { s.bodies[0].rollingResistance = 2.0f; },
         "/bodies/0/rolling_resistance: must be in [0, 1], got 2"},
        {"a colour beyond 24 bits", [](kz::Scenario& s) { s.bodies[0].color = 0x1000000u; },
         "/bodies/0/color: must be a colour 0xRRGGBB, got 16777216"},
        {"a body entry per body", [](kz::Scenario& s) { s.bodyEntries = {0}; },
         "/bodies: lists 2 bodies but 1 entries (bodyEntries)"},
        {"a body named by its file entry",
         [](kz::Scenario& s) {
             s.bodyEntries = {3, 5};
             s.bodies[1].radius = -1.0f; // a box: its radius is not read
             s.bodies[1].halfExtents.y = -1.0f;
         },
         "/bodies/5/half_extents/1: must be > 0, got -1"},
        {"a negative random count", [](kz::Scenario& s) { s.random->count = -1; },
         "/random/count: must be in [0, 20000], got -1"},
        {"too many random bodies", [](kz::Scenario& s) { s.random->count = 20001; },
         "/random/count: must be in [0, 20000], got 20001"},
        {"random speeds beyond the limit",
         [](kz::Scenario& s) {
             s.random->speed = {1, 5000};
         },
         "/random/speed/1: must be in [0, 1000] m/s, got 5000"},
        {"an inverted random radius range",
         [](kz::Scenario& s) {
             s.random->sphereRadius = {0.5f, 0.2f};
         },
         "/random/sphere_radius/1: must be >= the minimum 0.5, got 0.2"},
        {"NaN random half extents", [&](kz::Scenario& s) { s.random->boxHalf.x = nan; },
         "/random/box_half/0: must be a finite number, got nan"},
        {"a random box fraction above one", [](kz::Scenario& s) { s.random->boxFraction = 2.0f; },
         "/random/box_fraction: must be in [0, 1], got 2"},
        {"a step letting a body cross the room",
         [](kz::Scenario& s) {
             s.settings.timeStep = 0.1f;
             s.random->speed = {1, 1000};
         },
         "/time_step: must be at most 0.01 s here, so that no body travels farther than the room's smallest "
         "width (10 m) in one step at the 1000 m/s it can reach (its top speed, plus gravity over the room's "
         "diagonal); got 0.1"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        kz::Scenario s = codeScenario();
        c.spoil(s);
        const kz::InstantiateResult r = kz::instantiate(s);
        EXPECT_FALSE(r.world);
        EXPECT_EQ(r.error, "code.json: " + std::string(c.message));
    }
}

TEST(ScenarioDeterminism, TheSameSeedGivesBitIdenticalBodies) {
    const kz::Scenario s = mustParse(randomRoom(100, 42));
    const kz::InstantiateResult a = kz::instantiate(s, std::nullopt);
    const kz::InstantiateResult b = kz::instantiate(s, std::nullopt);
    ASSERT_TRUE(a.world && b.world);
    EXPECT_EQ(a.seed, 42u);
    EXPECT_TRUE(sameBits(a.world->bodies(), b.world->bodies()));

    const kz::InstantiateResult overridden = kz::instantiate(s, 42u);
    ASSERT_TRUE(overridden.world);
    EXPECT_TRUE(sameBits(a.world->bodies(), overridden.world->bodies()));
}

TEST(ScenarioDeterminism, ADifferentSeedGivesDifferentBodies) {
    const kz::Scenario s = mustParse(randomRoom(100, 42));
    const kz::InstantiateResult a = kz::instantiate(s, std::nullopt);
    const kz::InstantiateResult b = kz::instantiate(s, 43u);
    ASSERT_TRUE(a.world && b.world);
    EXPECT_EQ(b.seed, 43u);
    EXPECT_FALSE(sameBits(a.world->bodies(), b.world->bodies()));
    EXPECT_NE(bits(a.world->bodies()[0].position.x), bits(b.world->bodies()[0].position.x));
}

TEST(ScenarioDeterminism, TheRandomStreamIsPinned) {
    // std::mt19937_64 is fully specified by the standard and the float mapping is our own, so
    // these bits hold on every platform; a change here changes every saved random scenario.
    const kz::Scenario s = mustParse(randomRoom(3, 1));
    const kz::World world = mustInstantiate(s);
    ASSERT_EQ(world.bodies().size(), 3u);
    const Body& first = world.bodies()[0];
    EXPECT_EQ(first.name, "box-0");
    EXPECT_EQ(bits(first.position.x), 0x400895a9u);
    EXPECT_EQ(bits(first.velocity.y), 0xbf6978c9u);
}

// ---- Mesh obstacles ---------------------------------------------------------------------------

/// The cube [-0.5, 0.5]^3 as an OBJ file: 8 vertices, 6 quads (12 triangles once split).
const char* const kCubeObj = R"(# cube
v -0.5 -0.5 -0.5
v 0.5 -0.5 -0.5
v -0.5 0.5 -0.5
v 0.5 0.5 -0.5
v -0.5 -0.5 0.5
v 0.5 -0.5 0.5
v -0.5 0.5 0.5
v 0.5 0.5 0.5
f 1 5 7 3
f 2 4 8 6
f 1 2 6 5
f 3 7 8 4
f 1 3 4 2
f 5 6 8 7
)";

std::string meshAt(const std::string& file, const std::string& extra = "") {
    return R"({"shape": "mesh", "mesh": ")" + file + R"(", "position": [0, 0, 0])" + extra + "}";
}

TEST(ScenarioMeshes, AMeshEntryLoadsTheObjBesideTheScenarioAndIsPlaced) {
    const TempDir dir;
    dir.write("meshes/cube.obj", kCubeObj);
    const fs::path file = dir.write(
        "s.json", roomWith(sphereAt(3.0f) + ", " +
                           meshAt("meshes/cube.obj",
                                  R"(, "scale": [2, 1, 3], "euler_deg": [0, 90, 0], "color": "#102030")")));
    const kz::ScenarioResult r = kz::loadScenarioFile(file);
    ASSERT_TRUE(r.scenario) << r.error;
    const kz::Scenario& s = *r.scenario;
    ASSERT_EQ(s.bodies.size(), 1u);
    ASSERT_EQ(s.obstacles.size(), 1u);
    EXPECT_EQ(s.bodyEntries, std::vector<std::size_t>{0});
    const kz::ListedObstacle& o = s.obstacles[0];
    EXPECT_EQ(o.entry, 1u);
    EXPECT_EQ(o.obstacle.name, "cube"); // the file's stem when no name is given
    EXPECT_EQ(o.obstacle.mesh->source, "meshes/cube.obj");
    EXPECT_EQ(o.obstacle.mesh->triangleCount(), 12u);
    EXPECT_EQ(o.obstacle.color, 0x102030u);
    // Scaled by (2, 1, 3), then turned 90 degrees about y: x spans +-1.5, z spans +-1.
    EXPECT_NEAR(o.obstacle.bounds.max.x, 1.5f, 1e-5f);
    EXPECT_NEAR(o.obstacle.bounds.max.y, 0.5f, 1e-5f);
    EXPECT_NEAR(o.obstacle.bounds.max.z, 1.0f, 1e-5f);
    const kz::World world = mustInstantiate(s);
    ASSERT_EQ(world.obstacles().size(), 1u);
    EXPECT_EQ(world.bodies().size(), 1u);
}

TEST(ScenarioMeshes, AUniformScaleMayBeOneNumberAndTwoEntriesShareOneMesh) {
    const TempDir dir;
    dir.write("cube.obj", kCubeObj);
    const fs::path file =
        dir.write("s.json", roomWith(meshAt("cube.obj", R"(, "scale": 2, "name": "big")") + ", " +
                                     R"({"shape": "mesh", "mesh": "cube.obj", "position": [3, 0, 0]})"));
    const kz::ScenarioResult r = kz::loadScenarioFile(file);
    ASSERT_TRUE(r.scenario) << r.error;
    ASSERT_EQ(r.scenario->obstacles.size(), 2u);
    EXPECT_EQ(r.scenario->obstacles[0].obstacle.scale, glm::vec3(2.0f));
    EXPECT_EQ(r.scenario->obstacles[0].obstacle.name, "big");
    EXPECT_EQ(r.scenario->obstacles[0].obstacle.mesh, r.scenario->obstacles[1].obstacle.mesh);
}

TEST(ScenarioMeshes, BadMeshEntriesGiveOneLineWithTheFileAndThePath) {
    const TempDir dir;
    dir.write("cube.obj", kCubeObj);
    dir.write("broken.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
    dir.write("empty.obj", "");
    struct Case {
        const char* what;
        std::string bodies;
        const char* where;
        const char* message;
    };
    const std::vector<Case> cases = {
        {"missing mesh file", meshAt("nothere.obj"), "/bodies/0/mesh", "nothere.obj: no such file"},
        {"index out of range", meshAt("broken.obj"), "/bodies/0/mesh",
         "broken.obj:4: face index 9 is out of range"},
        {"empty obj", meshAt("empty.obj"), "/bodies/0/mesh", "empty.obj: the file is empty"},
        {"mesh not a string", R"({"shape": "mesh", "mesh": 3, "position": [0, 0, 0]})", "/bodies/0/mesh",
         "must be a file name"},
        {"no mesh key", R"({"shape": "mesh", "position": [0, 0, 0]})", "/bodies/0/mesh", "missing"},
        {"zero scale", meshAt("cube.obj", R"(, "scale": [1, 0, 1])"), "/bodies/0/scale/1", "must be > 0"},
        {"negative scale", meshAt("cube.obj", R"(, "scale": -2)"), "/bodies/0/scale", "must be > 0"},
        {"a velocity for a static mesh", meshAt("cube.obj", R"(, "velocity": [1, 0, 0])"),
         "/bodies/0/velocity", ""},
        {"mesh outside the room", meshAt("cube.obj", R"(, "scale": 12)"), "/bodies/0/position",
         "is not inside the room"},
        {"a ball touching the mesh", meshAt("cube.obj") + ", " + sphereAt(0.9f), "/bodies/1",
         "touches the mesh at /bodies/0"},
        {"pointers count the mesh entries",
         meshAt("cube.obj") + ", " + sphereAt(2.0f) + ", " + sphereAt(2.5f), "/bodies/2",
         "overlaps /bodies/1"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const fs::path file = dir.write("s.json", roomWith(c.bodies));
        const kz::ScenarioResult r = kz::loadScenarioFile(file);
        EXPECT_FALSE(r.scenario);
        EXPECT_EQ(r.error.rfind(file.string() + ": ", 0), 0u) << r.error;
        EXPECT_NE(r.error.find(c.where), std::string::npos) << r.error;
        EXPECT_NE(r.error.find(c.message), std::string::npos) << r.error;
        EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    }
}

TEST(ScenarioMeshes, RandomBodiesNeverTouchAMesh) {
    const TempDir dir;
    dir.write("cube.obj", kCubeObj);
    const fs::path file = dir.write("s.json", R"({"name": "x", "size": [10, 10, 10], "bodies": [)" +
                                                  meshAt("cube.obj", R"(, "scale": [6, 6, 6])") +
                                                  R"(], "random": {"count": 150, "seed": 5}})");
    const kz::ScenarioResult r = kz::loadScenarioFile(file);
    ASSERT_TRUE(r.scenario) << r.error;
    const kz::World world = mustInstantiate(*r.scenario);
    ASSERT_EQ(world.bodies().size(), 150u);
    EXPECT_EQ(world.maxPenetration(), 0.0f);
    const kz::Aabb inner{glm::vec3(-3.0f), glm::vec3(3.0f)};
    int inside = 0;
    for (const Body& b : world.bodies())
        inside += kz::testSphereAabb({b.position, b.radius}, inner) ? 1 : 0;
    // A mesh is a surface: the hollow cube's inside is free space too, so bodies land on both
    // sides of its walls, none touching them.
    EXPECT_GT(inside, 0);
    EXPECT_LT(inside, 150);
}

TEST(ScenarioMeshes, LampArchFindsItsMeshInTheAssetRoot) {
    const kz::ScenarioResult r = kz::resolveScenario("lamp-arch");
    ASSERT_TRUE(r.scenario) << r.error;
    ASSERT_EQ(r.scenario->obstacles.size(), 1u);
    EXPECT_EQ(r.scenario->obstacles[0].obstacle.mesh->source, "meshes/arch.obj");
    EXPECT_TRUE(fs::is_regular_file(kz::assetDirectory() / "meshes" / "arch.obj"));
    EXPECT_EQ(r.scenario->bodies.size(), 2u);
}

// ---- Scenarios as text (what a recording embeds) ------------------------------------------------

TEST(ScenarioText, ReadingKeepsTheJsonAndEveryMeshFileByTheNameItIsGiven) {
    const TempDir dir;
    dir.write("cube.obj", kCubeObj);
    dir.write("meshes/cube.obj", kCubeObj);
    const std::string json =
        roomWith(meshAt("cube.obj", R"(, "scale": 2)") + ", " +
                 R"({"shape": "mesh", "mesh": "meshes/cube.obj", "position": [3, 0, 0]}, )" +
                 R"({"shape": "mesh", "mesh": "cube.obj", "position": [-3, 0, 0]})");
    const fs::path file = dir.write("s.json", json);
    const kz::ScenarioTextResult read = kz::readScenarioText(file.string());
    ASSERT_TRUE(read.text && read.scenario) << read.error;
    EXPECT_EQ(read.text->source, file.string());
    EXPECT_EQ(read.text->json, json);
    ASSERT_EQ(read.text->meshes.size(), 2u);
    EXPECT_EQ(read.text->meshes.at("cube.obj"), kCubeObj);
    EXPECT_EQ(read.text->meshes.at("meshes/cube.obj"), kCubeObj);
    EXPECT_EQ(read.scenario->obstacles.size(), 3u);
}

TEST(ScenarioText, ParsedWithoutItsFilesItBuildsTheSameWorldBitForBit) {
    for (const char* name : {"lamp-arch", "mesh-playground", "random"}) {
        SCOPED_TRACE(name);
        const kz::ScenarioTextResult read = kz::readScenarioText(name);
        ASSERT_TRUE(read.text) << read.error;
        // Copied somewhere the mesh files are not.
        kz::ScenarioText text = *read.text;
        text.source = "elsewhere/" + std::string(name) + ".json";
        const kz::ScenarioResult parsed = kz::parseScenarioText(text);
        ASSERT_TRUE(parsed.scenario) << parsed.error;
        const kz::ScenarioResult fromFiles = kz::resolveScenario(name);
        ASSERT_TRUE(fromFiles.scenario) << fromFiles.error;
        kz::World a = mustInstantiate(*parsed.scenario);
        kz::World b = mustInstantiate(*fromFiles.scenario);
        for (int step = 0; step < 200; ++step) {
            a.step();
            b.step();
        }
        ASSERT_EQ(a.bodies().size(), b.bodies().size());
        for (std::size_t i = 0; i < a.bodies().size(); ++i) {
            EXPECT_EQ(a.bodies()[i].position, b.bodies()[i].position) << "body " << i;
            EXPECT_EQ(a.bodies()[i].velocity, b.bodies()[i].velocity) << "body " << i;
        }
        ASSERT_EQ(a.obstacles().size(), b.obstacles().size());
        for (std::size_t i = 0; i < a.obstacles().size(); ++i)
            EXPECT_EQ(a.obstacles()[i].mesh->source, b.obstacles()[i].mesh->source);
    }
}

TEST(ScenarioText, AMeshNotGivenWithTheTextIsAnErrorAndNoFileIsRead) {
    const kz::ScenarioTextResult read = kz::readScenarioText("lamp-arch");
    ASSERT_TRUE(read.text) << read.error;
    kz::ScenarioText text = *read.text;
    text.source = "lamp.json";
    text.meshes.clear(); // the file is in the asset root, but only the texts count
    EXPECT_EQ(kz::parseScenarioText(text).error,
              "lamp.json: /bodies/0/mesh: meshes/arch.obj: not among the mesh files given with the scenario");
    text.meshes["meshes/arch.obj"] = "v 0 0 0\nf 1 2 3\n";
    const std::string error = kz::parseScenarioText(text).error;
    EXPECT_EQ(error.rfind("lamp.json: /bodies/0/mesh: meshes/arch.obj:2: ", 0), 0u) << error;
}

TEST(ScenarioText, ReadingGivesTheSameErrorsAsResolving) {
    const TempDir dir;
    const fs::path bad = dir.write("bad.json", roomWith(meshAt("missing.obj")));
    for (const std::string& key :
         {std::string("no-such-scenario"), bad.string(), dir.path().string() + "/none.json"}) {
        SCOPED_TRACE(key);
        const kz::ScenarioTextResult read = kz::readScenarioText(key);
        EXPECT_FALSE(read.text.has_value());
        EXPECT_FALSE(read.scenario.has_value());
        EXPECT_EQ(read.error, kz::resolveScenario(key).error);
        EXPECT_FALSE(read.error.empty());
    }
}

// ---- Documented ranges and input limits (physics/limits.hpp, docs/scenarios.md) ----------------

TEST(ScenarioLimits, EveryValueOutsideItsDocumentedRangeIsRefusedNamingTheKeyAndTheRange) {
    const std::string ball = R"("shape": "sphere", "radius": 0.5, "position": [0, 0, 0])";
    const std::string planeRoom =
        R"({"name": "x", "planes": [{"normal": [1, 0, 0], "d": 600000}, {"normal": [-1, 0, 0], "d": 600000},
            {"normal": [0, 1, 0], "d": 1}, {"normal": [0, -1, 0], "d": 1}, {"normal": [0, 0, 1], "d": 1},
            {"normal": [0, 0, -1], "d": 1}]})";
    const auto random = [](const std::string& keys) {
        return R"({"name": "x", "size": [10, 10, 10], "random": {"count": 1, )" + keys + "}}";
    };
    const std::vector<BadCase> cases = {
        {"a room wider than the limit", R"({"name": "T", "size": [1, 1, 1020000]})", "/size/2",
         "must be in [0.01, 2000] m, got 1020000"},
        {"a room thinner than the limit", R"({"name": "T", "size": [10, 0.001, 10]})", "/size/1",
         "must be in [0.01, 2000] m, got 0.001"},
        {"a plane room reaching beyond the limit", planeRoom, "/planes",
         "the room reaches 6e+05 m from the origin; it must lie within 1000 m of it along every axis"},
        {"a sphere of radius 1e-30",
         roomWith(R"({"shape": "sphere", "radius": 1e-30, "position": [0, 0, 0]})"), "/bodies/0/radius",
         "must be in [0.001, 100] m, got 1e-30"},
        {"a box half extent above the limit",
         roomWith(R"({"shape": "box", "half_extents": [200, 1, 1], "position": [0, 0, 0]})"),
         "/bodies/0/half_extents/0", "must be in [0.001, 100] m, got 200"},
        {"a mass of 1e-45", roomWith("{" + ball + R"(, "mass": 1e-45})"), "/bodies/0/mass",
         "must be in [1e-06, 1e+10] kg, got 1e-45"},
        {"a density giving too light a body",
         roomWith(R"({"shape": "sphere", "radius": 0.01, "density": 0.001, "position": [0, 0, 0]})"),
         "/bodies/0/density", "the mass it gives (density x volume) must be in [1e-06, 1e+10] kg"},
        {"a density giving too heavy a body", roomWith("{" + ball + R"(, "density": 1e30})"),
         "/bodies/0/density",
         "the mass it gives (density x volume) must be in [1e-06, 1e+10] kg, got 5.2359877e+29"},
        {"a speed above the limit", roomWith("{" + ball + R"(, "velocity": [1000, 1000, 0]})"),
         "/bodies/0/velocity", "its length must be in [0, 1000] m/s, got 1414.2136"},
        {"an angular speed above the limit", roomWith("{" + ball + R"(, "angular_velocity": [0, 0, -2000]})"),
         "/bodies/0/angular_velocity", "its length must be in [0, 1000] rad/s, got 2000"},
        {"huge gravity", R"({"name": "x", "size": [10, 10, 10], "gravity": [0, -1e30, 0]})", "/gravity",
         "its length must be in [0, 1000] m/s^2, got 1e+30"},
        {"friction above the limit", R"({"name": "x", "size": [10, 10, 10], "friction": 11})", "/friction",
         "must be in [0, 10], got 11"},
        {"a body's friction above the limit", roomWith("{" + ball + R"(, "friction": 1e38})"),
         "/bodies/0/friction", "must be in [0, 10]"},
        {"rolling resistance above the limit",
         R"({"name": "x", "size": [10, 10, 10], "rolling_resistance": 1.5})", "/rolling_resistance",
         "must be in [0, 1], got 1.5"},
        {"a body's rolling resistance above the limit",
         roomWith("{" + ball + R"(, "rolling_resistance": 2})"), "/bodies/0/rolling_resistance",
         "must be in [0, 1], got 2"},
        {"random speeds above the limit", random(R"("speed": [1, 5000])"), "/random/speed/1",
         "must be in [0, 1000] m/s, got 5000"},
        {"random radii below the limit", random(R"("sphere_radius": [1e-5, 0.1])"), "/random/sphere_radius/0",
         "must be in [0.001, 100] m, got 1e-05"},
        {"random half extents above the limit", random(R"("box_half": [0.1, 200])"), "/random/box_half/1",
         "must be in [0.001, 100] m, got 200"},
    };
    for (const BadCase& c : cases) {
        SCOPED_TRACE(c.what);
        const kz::ScenarioResult r = parseScenario(c.text, "test.json");
        EXPECT_FALSE(r.scenario);
        EXPECT_EQ(r.error.rfind("test.json: " + std::string(c.where) + ": " + c.message, 0), 0u) << r.error;
        EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    }
}

TEST(ScenarioLimits, ACameraOutsideItsRangeIsRefusedNamingTheKeyAndTheRange) {
    const auto camera = [](const std::string& eye, const std::string& target) {
        return roomWith("", R"("camera": {"eye": )" + eye + R"(, "target": )" + target + "}, ");
    };
    const std::vector<BadCase> cases = {
        {"an eye beyond the limit", camera("[0, 2, 4001]", "[0, 0, 0]"), "/camera/eye/2",
         "must be in [-4000, 4000] m, got 4001"},
        {"a target beyond the limit", camera("[0, 2, 14]", "[-1e30, 0, 0]"), "/camera/target/0",
         "must be in [-4000, 4000] m, got -1e+30"},
        {"an eye overflowing a float", camera("[0, 1e39, 0]", "[0, 0, 0]"), "/camera/eye/1",
         "must fit a float"},
        {"a target on the eye", camera("[1, 1, 1]", "[1, 1, 1]"), "/camera/target",
         "must differ from eye by at least 0.001 m, got 0 m"},
        {"a target a micrometre from the eye", camera("[1, 1, 1]", "[1, 1, 1.000001]"), "/camera/target",
         "must differ from eye by at least 0.001 m, got 9.536743e-07 m"},
    };
    for (const BadCase& c : cases) {
        SCOPED_TRACE(c.what);
        const kz::ScenarioResult r = parseScenario(c.text, "test.json");
        EXPECT_FALSE(r.scenario);
        EXPECT_EQ(r.error.rfind("test.json: " + std::string(c.where) + ": " + c.message, 0), 0u) << r.error;
    }
    // The extremes are in range: a view from 4 km away at the widest room, 1 mm from its target.
    for (const auto& [eye, target] : {std::pair<const char*, const char*>{"[4000, -4000, 4000]", "[0, 0, 0]"},
                                      {"[1, 1, 1]", "[1, 1, 1.001]"}}) {
        const kz::Scenario s = mustParse(camera(eye, target));
        ASSERT_TRUE(s.camera);
    }
}

TEST(ScenarioLimits, AMeshScaleOutsideItsRangeIsRefused) {
    const TempDir dir;
    dir.write("cube.obj", kCubeObj);
    for (const auto& [scale, where] : {std::pair<const char*, const char*>{"1e-5", "/bodies/0/scale"},
                                       {"[1, 2000, 1]", "/bodies/0/scale/1"}}) {
        const fs::path file =
            dir.write("s.json", roomWith(meshAt("cube.obj", ", \"scale\": " + std::string(scale))));
        const kz::ScenarioResult r = kz::loadScenarioFile(file);
        EXPECT_FALSE(r.scenario);
        EXPECT_NE(r.error.find(std::string(where) + ": must be in [0.001, 1000], got"), std::string::npos)
            << r.error;
    }
}

TEST(ScenarioLimits, TheWidestAndNarrowestRoomsWithinTheLimitsLoadWithSixWalls) {
    for (const char* size : {"[2000, 2000, 2000]", "[0.01, 0.01, 0.01]", "[1, 1, 2000]"}) {
        SCOPED_TRACE(size);
        const kz::Scenario s = mustParse(R"({"name": "T", "size": )" + std::string(size) + "}");
        ASSERT_EQ(s.room.walls.size(), 6u);
        for (const auto& wall : s.room.walls)
            EXPECT_EQ(wall.size(), 4u);
        EXPECT_EQ(mustInstantiate(s).room().planes.size(), 6u);
    }
}

TEST(ScenarioLimits, AnOversizeTextOrFileIsRefusedBeforeParsing) {
    const std::string message = ": is larger than 4 MiB (4194304 bytes), the limit for scenario files";
    const kz::ScenarioResult text = parseScenario(std::string(kz::kMaxScenarioBytes + 1, '['), "big.json");
    EXPECT_EQ(text.error, "big.json" + message);

    const TempDir dir;
    const fs::path big = dir.write("big.json", std::string(50u << 20, '['));
    EXPECT_EQ(kz::loadScenarioFile(big).error, big.string() + message);
    EXPECT_EQ(kz::loadScenarioFile("/dev/zero").error, "/dev/zero" + message); // endless: read no further

    // Exactly at the limit is allowed.
    std::string padded = R"({"name": "x", "size": [10, 10, 10]})";
    padded.resize(kz::kMaxScenarioBytes, ' ');
    EXPECT_TRUE(kz::loadScenarioFile(dir.write("padded.json", padded)).scenario);
}

TEST(ScenarioLimits, NestingDeeperThanTheLimitIsRefusedWhileCheckingTheSyntax) {
    const std::size_t n = kz::kMaxScenarioDepth;
    const kz::ScenarioResult deep = parseScenario(
        R"({"name": "x", "random": )" + std::string(n, '[') + std::string(n, ']') + "}", "deep.json");
    EXPECT_EQ(
        deep.error, "deep.json: /random" + [&] {
            std::string p;
            for (std::size_t i = 0; i + 1 < n; ++i)
                p += "/0";
            return p;
        }() + ": nested deeper than 16 levels (the limit for scenario files)");
    // One level less is only the wrong type.
    const kz::ScenarioResult deepest =
        parseScenario(R"({"name": "x", "size": [1, 1, 1], "random": )" + std::string(n - 1, '[') +
                          std::string(n - 1, ']') + "}",
                      "ok.json");
    EXPECT_NE(deepest.error.find("/random: must be an object"), std::string::npos) << deepest.error;
}

TEST(ScenarioLimits, MeshFilesAddingUpBeyondTheLimitAreRefused) {
    const TempDir dir;
    // Valid OBJ files padded with comments to 5 MiB each: the second one crosses 8 MiB.
    const std::string padded = kCubeObj + ("# " + std::string((5u << 20) - 3, 'x') + "\n");
    dir.write("a.obj", padded);
    dir.write("b.obj", padded);
    const fs::path file = dir.write(
        "s.json", roomWith(meshAt("a.obj", R"(, "scale": 0.2)") + ", " +
                           R"({"shape": "mesh", "mesh": "b.obj", "position": [3, 0, 0], "scale": 0.2})"));
    const kz::ScenarioResult r = kz::loadScenarioFile(file);
    EXPECT_EQ(r.error, file.string() +
                           ": /bodies/1/mesh: b.obj: the scenario's mesh files add up to more than 8 MiB "
                           "(8388608 bytes), the limit per scenario");
}

/// Runs the scenario for `steps` steps and checks every body's state and the energy after each.
void expectFiniteRun(const std::string& text, int steps) {
    const kz::Scenario s = mustParse(text);
    kz::World world = mustInstantiate(s);
    for (int i = 0; i < steps; ++i) {
        world.step();
        ASSERT_FALSE(world.halted()) << "step " << i << ", body " << world.haltedBody();
        ASSERT_TRUE(std::isfinite(world.kineticEnergy())) << "step " << i;
        for (const Body& b : world.bodies()) {
            for (int k = 0; k < 3; ++k) {
                ASSERT_TRUE(std::isfinite(b.position[k]) && std::isfinite(b.velocity[k]) &&
                            std::isfinite(b.angularVelocity[k]) && std::isfinite(b.orientation[k]))
                    << b.name << " at step " << i;
            }
        }
    }
}

TEST(ScenarioLimits, TheExtremesOfEveryRangeSimulateWithoutNaNOrInfinity) {
    // The strongest gravity and both material extremes in the widest room at its longest step;
    // the smallest, lightest bodies at top speed hitting the largest, heaviest ones (mass ratio
    // 1e16), spinning as fast as their fastest point allows.
    for (const char* material :
         {R"("restitution": 1, "friction": 10)", R"("restitution": 0, "friction": 0)"}) {
        SCOPED_TRACE(material);
        expectFiniteRun(std::string(R"({"name": "x", "size": [2000, 2000, 2000], "gravity": [0, -1000, 0],
            "time_step": 0.1, )") +
                            material + R"(, "bodies": [
            {"shape": "sphere", "radius": 0.001, "mass": 1e-6, "position": [-300, 0, 0], "velocity": [1000, 0, 0]},
            {"shape": "box", "half_extents": [100, 100, 100], "mass": 1e10, "position": [0, 0, 0],
             "angular_velocity": [0, 0, 5.77]},
            {"shape": "box", "half_extents": [0.001, 0.001, 0.001], "mass": 1e-6, "position": [300, 0, 0],
             "velocity": [-998, 0, 0], "angular_velocity": [1000, 0, 0]},
            {"shape": "sphere", "radius": 100, "mass": 1e10, "position": [0, 400, 0], "velocity": [0, -500, 0],
             "angular_velocity": [0, 5, 0]},
            {"shape": "sphere", "radius": 100, "mass": 1e-6, "position": [0, -400, 0], "velocity": [0, 1000, 0]},
            {"shape": "box", "half_extents": [0.001, 0.001, 0.001], "mass": 1e10, "position": [0, 0, 300],
             "velocity": [0, 0, -1000]}]})",
                        300);
    }
    // The narrowest room at the longest step it allows at top speed and gravity.
    expectFiniteRun(
        R"({"name": "x", "size": [0.01, 0.01, 0.01], "gravity": [0, -1000, 0], "time_step": 9.9e-6,
        "friction": 10, "bodies": [
        {"shape": "sphere", "radius": 0.001, "mass": 1e-6, "position": [-0.003, 0, 0], "velocity": [1000, 0, 0]},
        {"shape": "box", "half_extents": [0.001, 0.001, 0.001], "mass": 1e10, "position": [0.003, 0, 0],
         "velocity": [-570, 570, 570], "angular_velocity": [1000, 0, 0]}]})",
        2000);
    // Many bodies of every size at top speed.
    expectFiniteRun(R"({"name": "x", "size": [30, 30, 30], "gravity": [0, 0, -1000], "time_step": 0.0095,
        "restitution": 0.5, "friction": 10, "random": {"count": 200, "seed": 3, "speed": [1000, 1000],
        "sphere_radius": [0.001, 1], "box_half": [0.001, 1]}})",
                    50);
}

TEST(ScenarioLimits, ATimeStepLettingABodyCrossTheRoomInOneStepIsRefused) {
    const kz::ScenarioResult r = parseScenario(
        R"({"name": "x", "size": [30, 30, 30], "time_step": 0.1, "random": {"count": 1, "speed": [1, 1000]}})",
        "test.json");
    EXPECT_EQ(r.error,
              "test.json: /time_step: must be at most 0.03 s here, so that no body travels farther "
              "than the room's smallest width (30 m) in one step at the 1000 m/s it can reach (its top "
              "speed, plus gravity over the room's diagonal); got 0.1");
    const kz::ScenarioResult spin = parseScenario(
        roomWith(
            R"({"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0, 0], "velocity": [900, 0, 0],
                     "angular_velocity": [0, 100, 0]})"),
        "test.json");
    EXPECT_NE(spin.error.find("/bodies/0/angular_velocity: the speed of the body's fastest point"),
              std::string::npos)
        << spin.error;
}

TEST(ScenarioInstantiate, AMeshBuiltInCodeOutsideItsRangesOrTheRoomIsRefused) {
    const TempDir dir;
    dir.write("cube.obj", kCubeObj);
    const kz::ScenarioResult loaded = kz::loadScenarioFile(dir.write("s.json", roomWith(meshAt("cube.obj"))));
    ASSERT_TRUE(loaded.scenario) << loaded.error;
    kz::Scenario scaled = *loaded.scenario;
    scaled.obstacles[0].obstacle.scale.y = 2000.0f;
    EXPECT_EQ(kz::instantiate(scaled).error,
              loaded.scenario->source + ": /bodies/0/scale/1: must be in [0.001, 1000], got 2000");
    kz::Scenario moved = *loaded.scenario;
    moved.obstacles[0].obstacle.position.x = 1e6f;
    EXPECT_NE(kz::instantiate(moved).error.find(": /bodies/0/position: mesh \"cube\" is not inside the room"),
              std::string::npos)
        << kz::instantiate(moved).error;
}

} // namespace
