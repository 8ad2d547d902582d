// Tests for capsule, cylinder and hull bodies in scenario files (docs/scenarios.md, "A body"):
// their keys and one-line errors, a hull given by points or by an OBJ file placed at its centre of
// mass, the checks at load (overlaps, walls) on their exact shapes, the random block's "shapes"
// table, and the built-in scenarios that use them.
#include "geom/gjk.hpp"
#include "physics/hull_body.hpp"
#include "physics/state_hash.hpp"
#include "scenario/scenario.hpp"
#include "support/temp_dir.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using kz::ShapeType;
using kz::test::TempDir;

std::string roomWith(const std::string& bodies, const std::string& extra = "") {
    return R"({"name": "t", "size": [10, 10, 10], )" + extra + R"("bodies": [)" + bodies + "]}";
}

kz::Scenario mustParse(const std::string& text) {
    const kz::ScenarioResult r = kz::parseScenario(text, "test.json");
    EXPECT_TRUE(r.scenario) << r.error;
    return r.scenario ? *r.scenario : kz::Scenario{};
}

const char* kHullPoints = R"([[1, 0, 0], [-1, 0, 0], [0, 0.5, 0], [0, -0.5, 0], [0, 0, 0.25], [0, 0, -0.25],
                               [0.6, 0.3, 0.1], [0.6, -0.3, 0.1]])";

TEST(ScenarioShapes, CapsulesCylindersAndHullsLoadWithTheirSizesAndNames) {
    const kz::Scenario s = mustParse(roomWith(
        R"({"shape": "capsule", "radius": 0.25, "half_height": 0.5, "position": [-3, 0, 0]},
           {"shape": "cylinder", "radius": 0.4, "half_height": 0.2, "position": [0, 0, 0], "euler_deg": [90, 0, 0]},
           {"shape": "hull", "points": )" +
        std::string(kHullPoints) + R"(, "position": [3, 1, 0], "euler_deg": [0, 30, 0]})"));
    ASSERT_EQ(s.bodies.size(), 3u);
    EXPECT_EQ(s.bodies[0].shape, ShapeType::Capsule);
    EXPECT_FLOAT_EQ(s.bodies[0].radius, 0.25f);
    EXPECT_FLOAT_EQ(s.bodies[0].halfHeight, 0.5f);
    EXPECT_EQ(s.bodies[0].name, "capsule-0");
    EXPECT_EQ(s.bodies[1].shape, ShapeType::Cylinder);
    EXPECT_EQ(s.bodies[1].name, "cylinder-1");
    EXPECT_EQ(s.bodies[2].shape, ShapeType::Hull);
    EXPECT_EQ(s.bodies[2].name, "hull-2");
    ASSERT_TRUE(s.bodies[2].hull);
    // The hull body is placed at its centre of mass: the points' centroid, turned and moved.
    const kz::HullBody made = kz::makeHullBody(std::vector<glm::vec3>{{1, 0, 0},
                                                                      {-1, 0, 0},
                                                                      {0, 0.5f, 0},
                                                                      {0, -0.5f, 0},
                                                                      {0, 0, 0.25f},
                                                                      {0, 0, -0.25f},
                                                                      {0.6f, 0.3f, 0.1f},
                                                                      {0.6f, -0.3f, 0.1f}});
    ASSERT_TRUE(made.hull);
    const glm::quat turn = glm::angleAxis(glm::radians(30.0f), glm::vec3(0, 1, 0));
    EXPECT_LT(glm::length(s.bodies[2].position - (glm::vec3(3, 1, 0) + turn * made.centre)), 1e-5f);
    EXPECT_GT(glm::length(made.centre), 0.05f) << "the test hull should be off its centroid";

    const kz::World world = kz::instantiate(s).world.value();
    EXPECT_EQ(world.bodies()[2].hull->vertices.size(), made.hull->vertices.size());
    EXPECT_LT(world.maxPenetration(), 1e-6f);
}

TEST(ScenarioShapes, AHullMayBeTheHullOfAnObjFilesVertices) {
    const TempDir dir;
    dir.write("rock.obj",
              "v 0.5 0 0\nv -0.4 0.1 0.2\nv 0 0.45 -0.1\nv 0 -0.4 0\nv -0.1 0 -0.5\nv 0.2 -0.1 0.4\n"
              "f 1 2 3\nf 1 3 4\n");
    const auto file =
        dir.write("s.json", roomWith(R"({"shape": "hull", "mesh": "rock.obj", "position": [1, 2, 3]})"));
    const kz::ScenarioResult r = kz::loadScenarioFile(file);
    ASSERT_TRUE(r.scenario) << r.error;
    ASSERT_TRUE(r.scenario->bodies[0].hull);
    EXPECT_EQ(r.scenario->bodies[0].hull->vertices.size(), 6u);
}

TEST(ScenarioShapes, BadShapeKeysGiveOneLineWithThePathAndTheReason) {
    struct Case {
        const char* what;
        std::string body;
        const char* where;
        const char* message;
    };
    const std::string at = R"(, "position": [0, 0, 0])";
    const std::vector<Case> cases = {
        {"unknown shape", R"({"shape": "cone")" + at + "}", "/bodies/0/shape",
         "\"capsule\", \"cylinder\", \"hull\""},
        {"capsule without half height", R"({"shape": "capsule", "radius": 0.2)" + at + "}", "/bodies/0",
         "half_height"},
        {"capsule with half extents", R"({"shape": "capsule", "half_extents": [1, 1, 1])" + at + "}",
         "/bodies/0/half_extents", "give radius and half_height"},
        {"cylinder of zero height", R"({"shape": "cylinder", "radius": 0.2, "half_height": 0)" + at + "}",
         "/bodies/0/half_height", "must be > 0"},
        {"cylinder too long", R"({"shape": "cylinder", "radius": 0.2, "half_height": 200)" + at + "}",
         "/bodies/0/half_height", "[0.001, 100]"},
        {"hull with points and mesh", R"({"shape": "hull", "points": [], "mesh": "a.obj")" + at + "}",
         "/bodies/0/mesh", "give points or mesh, not both"},
        {"hull without points", R"({"shape": "hull")" + at + "}", "/bodies/0/points", "missing"},
        {"flat hull",
         R"({"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]])" + at + "}",
         "/bodies/0/points", "plane"},
        {"hull point not finite",
         R"({"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1e999]])" + at + "}",
         "/bodies/0/points/3/2", "finite"},
        {"hull with a radius",
         R"({"shape": "hull", "radius": 1, "points": )" + std::string(kHullPoints) + at + "}",
         "/bodies/0/radius", ""},
        {"hull mesh outside a file", R"({"shape": "hull", "mesh": "a.obj")" + at + "}", "/bodies/0/mesh", ""},
        {"capsule through a wall",
         R"({"shape": "capsule", "radius": 0.5, "half_height": 1, "position": [4.8, 0, 0], "euler_deg": [0, 0, 90]})",
         "/bodies/0", "wall"},
        {"capsule overlapping a ball",
         R"({"shape": "capsule", "radius": 0.2, "half_height": 1, "position": [0, 0, 0]},
            {"shape": "sphere", "radius": 0.2, "position": [0.3, 0.9, 0]})",
         "/bodies/1", "overlaps /bodies/0"},
        {"all shape weights zero", "", "/random/shapes", "above 0"},
        {"shapes and box fraction", "", "/random/shapes", "not both"},
        {"negative shape weight", "", "/random/shapes/capsule", ">= 0"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        std::string text = roomWith(c.body);
        const std::string what = c.what;
        if (what == "all shape weights zero")
            text = R"({"name": "t", "size": [10, 10, 10], "random": {"count": 1, "shapes": {"box": 0}}})";
        if (what == "shapes and box fraction")
            text =
                R"({"name": "t", "size": [10, 10, 10], "random": {"count": 1, "box_fraction": 0.5, "shapes": {"box": 1}}})";
        if (what == "negative shape weight")
            text =
                R"({"name": "t", "size": [10, 10, 10], "random": {"count": 1, "shapes": {"capsule": -1}}})";
        const kz::ScenarioResult r = kz::parseScenario(text, "test.json");
        EXPECT_FALSE(r.scenario);
        EXPECT_EQ(r.error.rfind("test.json: ", 0), 0u) << r.error;
        EXPECT_NE(r.error.find(c.where), std::string::npos) << r.error;
        EXPECT_NE(r.error.find(c.message), std::string::npos) << r.error;
        EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    }
}

TEST(ScenarioShapes, ACapsuleLyingAlongAWallByAMillimetreIsInsideAndItsTipIsWhatCounts) {
    // Its bounding sphere reaches 1.2 m, its surface 0.5 m: only the exact shape fits.
    mustParse(
        roomWith(R"({"shape": "capsule", "radius": 0.5, "half_height": 0.7, "position": [4.499, 0, 0]})"));
    mustParse(roomWith(R"({"shape": "capsule", "radius": 0.2, "half_height": 1, "position": [0, 0, 0]},
                          {"shape": "sphere", "radius": 0.2, "position": [0.41, 0.9, 0]})"));
}

TEST(ScenarioShapes, TheShapesTableMixesEveryShapeWithoutOverlapsInsideTheRoom) {
    const kz::Scenario s = mustParse(
        R"({"name": "t", "size": [6, 6, 6], "random": {"count": 120, "seed": 3, "sphere_radius": [0.1, 0.3],
            "half_height": [0.1, 0.4], "shapes": {"sphere": 1, "box": 1, "capsule": 2, "cylinder": 2}}})");
    const kz::World world = kz::instantiate(s).world.value();
    std::array<int, 5> counts{};
    for (const kz::Body& b : world.bodies())
        ++counts[static_cast<std::size_t>(b.shape)];
    EXPECT_GT(counts[0], 5);
    EXPECT_GT(counts[1], 5);
    EXPECT_GT(counts[2], counts[0]) << "capsules weigh twice the spheres";
    EXPECT_GT(counts[3], counts[1]) << "cylinders weigh twice the boxes";
    EXPECT_EQ(counts[4], 0);
    EXPECT_LT(world.maxPenetration(), 1e-6f);
    EXPECT_EQ(world.escapedCount(), 0);
    const auto bodies = world.bodies();
    for (std::size_t i = 0; i < bodies.size(); ++i)
        for (std::size_t j = i + 1; j < bodies.size(); ++j)
            EXPECT_FALSE(kz::testConvexConvex(kz::convexOf(bodies[i]), kz::convexOf(bodies[j])))
                << i << " " << j;
    // The same seed, the same bodies.
    EXPECT_EQ(kz::stateHash(kz::instantiate(s).world.value()), kz::stateHash(world));
}

TEST(ScenarioShapes, TheBuiltInShapeScenariosLoadAndRun) {
    for (const char* name : {"rolling-race", "tumbling-hull", "mixed-pile"}) {
        SCOPED_TRACE(name);
        const kz::ScenarioResult r = kz::resolveScenario(name);
        ASSERT_TRUE(r.scenario) << r.error;
        kz::World world = kz::instantiate(*r.scenario).world.value();
        for (int i = 0; i < 240; ++i)
            world.step();
        EXPECT_EQ(world.escapedCount(), 0);
        EXPECT_LT(world.maxPenetration(), 0.01f);
    }
}

} // namespace
