// `kolize explain` (kz_explain, no display): every query's output keys and values on hand-made
// shapes, the trace keys of the five ray queries (the other eight's in
// test_explain_contact_steps.cpp), bad input of every kind (one line naming the file and the key,
// exit code 2), then the built kolize binary run from the shell.
#include "app/explain/explain.hpp"
#include "support/explain_test_support.hpp"
#include "support/temp_dir.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#ifndef KOLIZE_EXE
#error "KOLIZE_EXE (the path of the built kolize binary) must be defined"
#endif

namespace {

using namespace kz::explaintest;
using kz::test::TempDir;

// =============================================================================================
// The ray queries: result and steps

TEST(Explain, RayBoxPrintsEachSlabTheIntervalAndTheEnteredFace) {
    const Json out = explain("ray-box", R"({"ray": {"origin": [-5, 0.5, 0.25], "dir": [1, 0.1, 0]}, )" +
                                            std::string(kUnitBox) + "}");
    EXPECT_EQ(keysOf(out),
              sorted({"query", "result", "reason", "local_origin", "local_dir", "slabs", "t_enter", "t_exit",
                      "hit", "entering_axis", "entering_face", "miss_slab", "t_max"}));
    EXPECT_EQ(out["result"]["hit"], true);
    EXPECT_EQ(out["result"]["t"], 4.0);
    expectVec(out["result"]["normal"], -1, 0, 0);
    ASSERT_EQ(out["slabs"].size(), 3u);
    expectVec(out["slabs"][0]["axis"], 1, 0, 0);
    EXPECT_EQ(out["slabs"][0]["kind"], "crossing");
    EXPECT_EQ(out["slabs"][0]["t_enter"], 4.0);
    EXPECT_EQ(out["slabs"][0]["t_exit"], 6.0);
    EXPECT_NEAR(out["slabs"][1]["t_enter"].get<double>(), -15.0, 1e-5);
    EXPECT_EQ(out["slabs"][2]["kind"], "parallel_inside");
    EXPECT_TRUE(out["slabs"][2]["t_enter"].is_null()); // -infinity: JSON has no infinities
    EXPECT_EQ(out["t_enter"], 4.0);
    EXPECT_NEAR(out["t_exit"].get<double>(), 5.0, 1e-5);
    EXPECT_EQ(out["hit"], true);
    EXPECT_EQ(out["entering_axis"], 0);
    EXPECT_EQ(out["entering_face"], "-x");
    EXPECT_TRUE(out["miss_slab"].is_null());
    EXPECT_TRUE(out["t_max"].is_null()); // not given: no limit
}

TEST(Explain, RayBoxOnATurnedBoxGivesWorldAxesAndNamesTheSlabThatMisses) {
    const Json out = explain("ray-box", R"({"ray": {"origin": [-5, 3, 0], "dir": [1, 0, 0], "t_max": 100},
        "b": {"shape": "box", "half_extents": [1, 2, 1], "position": [0, 0, 0], "euler_deg": [0, 0, 90]}})");
    EXPECT_EQ(out["result"], Json({{"hit", false}}));
    expectVec(out["slabs"][0]["axis"], 0, 1, 0);  // local x turned onto world y
    expectVec(out["slabs"][1]["axis"], -1, 0, 0); // local y onto world -x
    EXPECT_EQ(out["reason"], "missed_by_slab");
    EXPECT_EQ(out["miss_slab"], 0); // y = 3 is outside the half extent 1 of local x, which the ray runs along
    EXPECT_EQ(out["hit"], false);
    EXPECT_EQ(out["t_max"], 100.0);
}

TEST(Explain, RaySpherePrintsTheQuadraticAndWhichRootIsTaken) {
    const Json out = explain("ray-sphere", R"({"ray": {"origin": [0, 0, -5], "dir": [0, 0, 2]},
        "b": {"shape": "sphere", "radius": 1, "position": [0, 0, 0]}})");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "reason", "m", "dir_length", "unit_dir", "quadratic",
                                   "roots", "taken", "t_max"}));
    EXPECT_EQ(out["result"]["t"], 2.0);
    EXPECT_EQ(out["reason"], "near_root");
    EXPECT_EQ(out["taken"], "near");
    EXPECT_EQ(out["quadratic"], Json({{"a", 1.0}, {"b", -5.0}, {"c", 24.0}, {"discriminant", 1.0}}));
    EXPECT_EQ(out["roots"], Json({{"s_near", 4.0}, {"s_far", 6.0}, {"t_near", 2.0}, {"t_far", 3.0}}));
    EXPECT_EQ(out["dir_length"], 2.0);

    const Json inside = explain("ray-sphere", R"({"ray": {"origin": [0, 0, 0], "dir": [1, 0, 0]},
        "b": {"shape": "sphere", "radius": 1, "position": [0, 0, 0]}})");
    EXPECT_EQ(inside["reason"], "inside_start");
    EXPECT_EQ(inside["taken"], "zero");
    EXPECT_EQ(inside["result"]["t"], 0.0);
    EXPECT_EQ(inside["roots"]["t_far"], 1.0);
}

TEST(Explain, RayPlanePrintsTheDenominatorAndTheFacingSide) {
    // The normal is normalised as a scenario's planes are: y = -1.
    const Json out = explain("ray-plane", R"({"ray": {"origin": [0, 3, 0], "dir": [0, -2, 0]},
        "b": {"shape": "plane", "normal": [0, 2, 0], "d": 2}})");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "reason", "denominator", "parallel_limit", "facing",
                                   "numerator", "t", "t_max"}));
    EXPECT_EQ(out["reason"], "hit");
    EXPECT_EQ(out["denominator"], -2.0);
    EXPECT_EQ(out["facing"], true);
    EXPECT_EQ(out["numerator"], -4.0);
    EXPECT_EQ(out["t"], 2.0);
    expectVec(out["result"]["normal"], 0, 1, 0);

    const Json parallel = explain("ray-plane", R"({"ray": {"origin": [0, 3, 0], "dir": [1, 0, 0]},
        "b": {"shape": "plane", "normal": [0, 1, 0], "d": 1}})");
    EXPECT_EQ(parallel["reason"], "parallel");
    EXPECT_TRUE(parallel["t"].is_null());
    EXPECT_EQ(parallel["result"]["hit"], false);
}

TEST(Explain, RayTrianglePrintsTheShearTheEdgeFunctionsAndTheBarycentrics) {
    const Json out =
        explain("ray-triangle", R"({"ray": {"origin": [0.25, 0.25, -1], "dir": [0, 0, 1]}, "b": )" +
                                    std::string(kCornerTriangle) + "}");
    EXPECT_EQ(keysOf(out),
              sorted({"query", "result", "reason", "shear", "sheared", "edge_functions", "det", "det_error",
                      "face_normal", "dir_dot_normal", "parallel_limit", "t", "barycentric", "t_max"}));
    EXPECT_EQ(out["result"]["t"], 1.0);
    EXPECT_EQ(out["result"]["u"], 0.25);
    EXPECT_EQ(out["result"]["v"], 0.25);
    EXPECT_EQ(out["shear"]["axes"], Json({0, 1, 2}));
    EXPECT_EQ(out["edge_functions"], Json({{"u", -0.5}, {"v", -0.25}, {"w", -0.25}}));
    EXPECT_EQ(out["det"], -1.0);
    expectVec(out["barycentric"], 0.5, 0.25, 0.25);

    const Json outside =
        explain("ray-triangle", R"({"ray": {"origin": [1, 1, -1], "dir": [0, 0, 1]}, "b": )" +
                                    std::string(kCornerTriangle) + "}");
    EXPECT_EQ(outside["reason"], "outside_an_edge");
    EXPECT_TRUE(outside["face_normal"].is_null()); // a step the test never reached
    EXPECT_TRUE(outside["t"].is_null());
}

/// Checks the BVH events of a ray-mesh output against its totals and result.
void expectConsistentEvents(const Json& out) {
    const Json& totals = out["totals"];
    EXPECT_EQ(totals["entered"].get<int>() + totals["culled"].get<int>() + totals["skipped"].get<int>(),
              totals["children_considered"].get<int>());
    int best = 0;
    Json lastBest;
    for (const Json& e : out["events"]) {
        EXPECT_TRUE(e.contains("box") && e.contains("depth") && (e.contains("node") || e.contains("leaf")))
            << e;
        if (e["event"] == "new_best_hit") {
            ++best;
            lastBest = e;
        }
    }
    EXPECT_EQ(best, totals["new_best_hits"].get<int>());
    if (out["result"]["hit"] == true) {
        ASSERT_FALSE(lastBest.is_null());
        EXPECT_EQ(lastBest["triangle"], out["result"]["triangle"]);
        EXPECT_EQ(lastBest["t"], out["result"]["t"]);
    }
}

TEST(Explain, RayMeshOnABuiltInMeshListsTheTraversalAndEndsOnTheHit) {
    // The torus around +y, radius 0.7, tube 0.25: a ray down through the tube at x = 0.7.
    const Json out = explain("ray-mesh", R"({"ray": {"origin": [0.7, 3, 0], "dir": [0, -1, 0]},
        "b": {"shape": "mesh", "mesh": "meshes/torus.obj", "position": [0, 0, 0]}})");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "local_ray", "events", "totals", "t_max"}));
    EXPECT_EQ(out["result"]["hit"], true);
    EXPECT_NEAR(out["result"]["t"].get<double>(), 2.75, 0.01);
    expectVec(out["result"]["normal"], 0, 1, 0, 0.2); // a faceted tube
    EXPECT_TRUE(out["result"].contains("triangle") && out["result"].contains("u") &&
                out["result"].contains("v"));
    EXPECT_GT(out["totals"]["leaves_tested"].get<int>(), 0);
    expectConsistentEvents(out);
}

TEST(Explain, RayMeshFindsAMeshFileBesideTheShapesFileAndHonoursItsPlacement) {
    TempDir dir;
    dir.write("quad.obj", "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nf 1 2 3\nf 1 3 4\n");
    const auto shapes = dir.write("shapes.json", R"({"ray": {"origin": [0, 0, -10], "dir": [0, 0, 1]},
        "b": {"shape": "mesh", "mesh": "quad.obj", "position": [0, 0, 2], "scale": 3}})");
    std::istringstream noInput;
    const kz::ExplainOutcome outcome = kz::explainFile("ray-mesh", shapes.string(), noInput);
    ASSERT_EQ(outcome.exitCode, 0) << outcome.error;
    const Json out = Json::parse(outcome.json);
    EXPECT_EQ(out["result"]["t"], 12.0);
    expectVec(out["local_ray"]["origin"], 0, 0, -4); // (-10 - 2) / 3 in the mesh's frame
    expectConsistentEvents(out);
}

// =============================================================================================
// The other queries: the fast results

TEST(Explain, SphereSpherePrintsOverlapDistanceAndContact) {
    const Json out =
        explain("sphere-sphere", R"({"a": {"shape": "sphere", "radius": 1, "position": [1.5, 0, 0]},
        "b": {"shape": "sphere", "radius": 1, "position": [0, 0, 0]}})");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "centre_offset", "centre_distance", "radius_a",
                                   "radius_b", "radius_sum", "separation", "overlap"}));
    EXPECT_EQ(out["result"]["overlap"], true);
    EXPECT_EQ(out["result"]["distance"], -0.5);
    expectVec(out["result"]["contact"]["normal"], 1, 0, 0); // from b toward a
    EXPECT_EQ(out["result"]["contact"]["depth"], 0.5);
    ASSERT_EQ(out["result"]["contact"]["points"].size(), 1u);

    const Json apart =
        explain("sphere-sphere", R"({"a": {"shape": "sphere", "radius": 1, "position": [3, 0, 0]},
        "b": {"shape": "sphere", "radius": 1, "position": [0, 0, 0]}})");
    EXPECT_EQ(apart["result"]["overlap"], false);
    EXPECT_EQ(apart["result"]["distance"], 1.0);
    EXPECT_TRUE(apart["result"]["contact"].is_null());
}

TEST(Explain, SphereBoxPrintsTheClosestPointOfTheBox) {
    const Json out =
        explain("sphere-box", R"({"a": {"shape": "sphere", "radius": 1, "position": [1.5, 0, 0]}, )" +
                                  std::string(kUnitBox) + "}");
    EXPECT_EQ(out["result"]["overlap"], true);
    expectVec(out["result"]["closest_point"], 1, 0, 0);
    EXPECT_EQ(out["result"]["distance"], -0.5);
    expectVec(out["result"]["contact"]["normal"], 1, 0, 0);
    EXPECT_EQ(out["result"]["contact"]["depth"], 0.5);
}

TEST(Explain, BoxBoxPrintsTheSeparationAndTheClippedManifold) {
    const Json out =
        explain("box-box", R"({"a": {"shape": "box", "half_extents": [1, 1, 1], "position": [1.5, 0, 0]}, )" +
                               std::string(kUnitBox) + "}");
    EXPECT_EQ(out["result"]["overlap"], true);
    EXPECT_EQ(out["result"]["separation"], -0.5);
    expectVec(out["result"]["contact"]["normal"], 1, 0, 0);
    EXPECT_EQ(out["result"]["contact"]["points"].size(), 4u);
}

TEST(Explain, BoxPlanePrintsTheCornersBehindThePlane) {
    const Json out =
        explain("box-plane", R"({"a": {"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0.5, 0]},
        "b": {"shape": "plane", "normal": [0, 1, 0], "d": 0}})");
    EXPECT_EQ(out["result"]["overlap"], true);
    expectVec(out["result"]["contact"]["normal"], 0, 1, 0);
    EXPECT_EQ(out["result"]["contact"]["depth"], 0.5);
    EXPECT_EQ(out["result"]["contact"]["points"].size(), 4u);
}

TEST(Explain, SphereTriangleAndBoxTrianglePrintTheirContacts) {
    const Json sphere = explain(
        "sphere-triangle", R"({"a": {"shape": "sphere", "radius": 1, "position": [0.25, 0.25, 0.5]}, "b": )" +
                               std::string(kCornerTriangle) + "}");
    EXPECT_EQ(sphere["result"]["overlap"], true);
    expectVec(sphere["result"]["closest_point"], 0.25, 0.25, 0);
    EXPECT_EQ(sphere["result"]["distance"], -0.5);
    expectVec(sphere["result"]["contact"]["normal"], 0, 0, 1);

    const Json box = explain(
        "box-triangle",
        R"({"a": {"shape": "box", "half_extents": [0.1, 0.1, 0.1], "position": [0.25, 0.25, 0.05]}, "b": )" +
            std::string(kCornerTriangle) + "}");
    EXPECT_EQ(box["result"]["overlap"], true);
    EXPECT_NEAR(box["result"]["separation"].get<double>(), -0.05, 1e-6);
    expectVec(box["result"]["contact"]["normal"], 0, 0, 1);
}

TEST(Explain, SweepSphereTrianglePrintsTheTimeOfImpact) {
    const std::string shapes =
        R"({"a": {"shape": "sphere", "radius": 0.5, "position": [0.25, 0.25, 3], "velocity": [0, 0, -1]},
        "b": )" +
        std::string(kCornerTriangle);
    const Json out = explain("sweep-sphere-triangle", shapes + "}");
    EXPECT_EQ(out["result"]["hit"], true);
    EXPECT_EQ(out["result"]["time_of_impact"], 2.5);
    expectVec(out["result"]["center_at_impact"], 0.25, 0.25, 0.5);
    EXPECT_TRUE(out["result"]["t_max"].is_null());
    const Json cut = explain("sweep-sphere-triangle", shapes + R"(, "t_max": 2})");
    EXPECT_EQ(cut["result"], Json({{"hit", false}, {"t_max", 2.0}}));
}

TEST(Explain, SegmentSegmentPrintsTheClosestPoints) {
    const Json out =
        explain("segment-segment", R"({"a": {"shape": "segment", "points": [[0, 0, 0], [2, 0, 0]]},
        "b": {"shape": "segment", "points": [[1, -1, 1], [1, 1, 1]]}})");
    EXPECT_EQ(out["result"], Json({{"s", 0.5},
                                   {"t", 0.5},
                                   {"point_a", {1.0, 0.0, 0.0}},
                                   {"point_b", {1.0, 0.0, 1.0}},
                                   {"distance", 1.0},
                                   {"parallel", false}}));
}

TEST(Explain, EveryQueryIsListedAndNumbersAreWrittenShortest) {
    EXPECT_EQ(kz::explainQueryNames(),
              std::vector<std::string>({"ray-sphere", "ray-box", "ray-plane", "ray-triangle", "ray-mesh",
                                        "sphere-sphere", "sphere-box", "box-box", "box-plane",
                                        "sphere-triangle", "box-triangle", "sweep-sphere-triangle",
                                        "segment-segment", "gjk", "epa", "ray-convex", "convex-convex", "shape-cast"}));
    const kz::ExplainOutcome outcome = kz::explainText(
        "ray-sphere",
        R"({"ray": {"origin": [0, 0, -5], "dir": [0, 0, 1]}, "b": {"shape": "sphere", "radius": 0.1, "position": [0, 0, 0]}})",
        "shapes.json");
    EXPECT_NE(outcome.json.find("\"t\": 4.9"), std::string::npos) << outcome.json; // 4.9f, not 4.900000095...
    EXPECT_FALSE(Json::parse(outcome.json, nullptr, false).is_discarded()); // NaN and infinity are not JSON
}

// =============================================================================================
// Bad input: one line naming the file and the key, exit code 2

const std::string kRay = R"("ray": {"origin": [-5, 0, 0], "dir": [1, 0, 0]})";

TEST(ExplainBadInput, EachKindOfMistakeIsOneLineNamingTheFileAndTheKey) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{" + kRay + "}", "shapes.json: /b: required key is missing"},
        {R"({"ray": {"origin": [-5, 0, 0]}, )" + std::string(kUnitBox) + "}",
         "shapes.json: /ray/dir: required key is missing"},
        {"{" + kRay +
             R"(, "b": {"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0, 0], "colour": "red"}})",
         "shapes.json: /b/colour: unknown key"},
        {"{" + kRay + R"(, "b": {"shape": "box", "half_extents": [1, -1, 1], "position": [0, 0, 0]}})",
         "shapes.json: /b/half_extents/1: must be > 0"},
        {"{" + kRay + R"(, "b": {"shape": "box", "half_extents": [1, 1, 1], "position": [0, "x", 0]}})",
         "shapes.json: /b/position/1: "},
        {"{" + kRay + R"(, "b": {"shape": "box", "half_extents": [1, 1, 1], "position": [0, 1e999, 0]}})",
         "shapes.json: "},
        {R"({"ray": {"origin": [-5, 0, 0], "dir": [0, 0, 0]}, )" + std::string(kUnitBox) + "}",
         "shapes.json: /ray/dir: must not be zero"},
        {R"({"ray": {"origin": [-5, 0, 0], "dir": [1, 0, 0], "t_max": -1}, )" + std::string(kUnitBox) + "}",
         "shapes.json: /ray/t_max: must be >= 0"},
        {"{" + kRay + R"(, "b": {"shape": "sphere", "radius": 1, "position": [0, 0, 0]}})",
         "shapes.json: /b/shape: this query needs a box, got \"sphere\""},
        {"{" + kRay + R"(, "b": {"shape": "cone", "position": [0, 0, 0]}})",
         "shapes.json: /b/shape: must be"},
        {"{" + kRay + ", " + std::string(kUnitBox) + R"(, "a": {"shape": "sphere"}})",
         "shapes.json: /a: unknown key"},
        {"{" + kRay + ", " + std::string(kUnitBox), "shapes.json: line 1, column"},
        {"{" + kRay + R"(, "b": {"shape": "box", "half_extents": [1, NaN, 1], "position": [0, 0, 0]}})",
         "shapes.json: line 1, column"},
        {"[1, 2]", "shapes.json: /: must be an object"},
        {"{" + kRay + R"(, "b": {"shape": "mesh", "position": [0, 0, 0]}})",
         "shapes.json: /b/shape: this query needs a box, got \"mesh\""},
    };
    for (const auto& [shapes, expected] : cases) {
        SCOPED_TRACE(shapes);
        const std::string error = explainError("ray-box", shapes);
        EXPECT_EQ(error.rfind(expected, 0), 0u) << error;
    }
}

TEST(ExplainBadInput, ADegenerateTriangleAZeroRayAndAMissingVelocityAreRefused) {
    EXPECT_EQ(
        explainError("ray-triangle",
                     "{" + kRay +
                         R"(, "b": {"shape": "triangle", "vertices": [[0, 0, 0], [1, 1, 1], [2, 2, 2]]}})")
            .rfind("shapes.json: /b/vertices: the triangle has no area", 0),
        0u);
    EXPECT_EQ(
        explainError("ray-triangle",
                     "{" + kRay + R"(, "b": {"shape": "triangle", "vertices": [[0, 0, 0], [1, 1, 1]]}})")
            .rfind("shapes.json: /b/vertices: must be an array of 3 points", 0),
        0u);
    EXPECT_EQ(explainError("sweep-sphere-triangle",
                           R"({"a": {"shape": "sphere", "radius": 1, "position": [0, 0, 2]}, "b": )" +
                               std::string(kCornerTriangle) + "}")
                  .rfind("shapes.json: /a/velocity: required key is missing", 0),
              0u);
    EXPECT_EQ(
        explainError("segment-segment", R"({"a": {"shape": "segment", "points": [[0, 0, 0], [1, 0, 0]]}})")
            .rfind("shapes.json: /b: required key is missing", 0),
        0u);
}

TEST(ExplainBadInput, AnUnknownQueryAndAnUnreadableFileAreRefused) {
    EXPECT_EQ(explainError("ray-cone", "{}")
                  .rfind("explain: unknown query 'ray-cone' (the queries: ray-sphere,", 0),
              0u);
    TempDir dir;
    std::istringstream noInput;
    const kz::ExplainOutcome missing =
        kz::explainFile("ray-box", (dir.path() / "none.json").string(), noInput);
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.error.find("none.json: no such file"), std::string::npos) << missing.error;
    const kz::ExplainOutcome folder = kz::explainFile("ray-box", dir.path().string(), noInput);
    EXPECT_EQ(folder.exitCode, 2);
    EXPECT_NE(folder.error.find("is a directory"), std::string::npos) << folder.error;
    std::istringstream empty;
    EXPECT_EQ(kz::explainFile("ray-box", "-", empty).error.rfind("stdin: line 1, column 1", 0), 0u);
}

// =============================================================================================
// The built binary

struct CliRun {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// Runs `kolize <args> < stdinFile` with no display.
CliRun kolize(const TempDir& dir, const std::string& args, const std::string& stdinText) {
    const auto in = dir.write("stdin.json", stdinText);
    const auto out = dir.path() / "stdout.txt";
    const auto err = dir.path() / "stderr.txt";
    const std::string command = "env -u DISPLAY -u WAYLAND_DISPLAY '" + std::string(KOLIZE_EXE) + "' " +
                                args + " <'" + in.string() + "' >'" + out.string() + "' 2>'" + err.string() +
                                "'";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, kz::test::readBytes(out), kz::test::readBytes(err)};
}

TEST(ExplainCli, KolizeExplainReadsTheShapesFromStdinAndPrintsOneJsonObject) {
    TempDir dir;
    const CliRun run =
        kolize(dir, "explain ray-box --shapes -",
               R"({"ray": {"origin": [-5, 0.5, 0.25], "dir": [1, 0.1, 0]}, )" + std::string(kUnitBox) + "}");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(run.err.empty()) << run.err;
    const Json out = Json::parse(run.out);
    EXPECT_EQ(out["query"], "ray-box");
    EXPECT_EQ(out["result"]["t"], 4.0);
    EXPECT_EQ(out["slabs"].size(), 3u);
}

TEST(ExplainCli, KolizeExplainBoxBoxFromStdinPrintsTheFifteenAxes) {
    TempDir dir;
    const CliRun run =
        kolize(dir, "explain box-box --shapes -",
               R"({"a": {"shape": "box", "half_extents": [1, 1, 1], "position": [3, 0, 0]}, )" +
                   std::string(kUnitBox) + "}");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(run.err.empty()) << run.err;
    const Json out = Json::parse(run.out);
    EXPECT_EQ(keysOf(out),
              sorted({"query", "result", "overlap", "axes", "separating_axis", "least_penetration_axis"}));
    ASSERT_EQ(out["axes"].size(), 15u);
    for (std::size_t k = 0; k < 15; ++k) {
        const Json& axis = out["axes"][k];
        EXPECT_EQ(keysOf(axis),
                  sorted({"kind", "axis", "radius_a", "radius_b", "distance", "separation", "degenerate"}));
        EXPECT_EQ(axis["kind"], k < 3 ? "face_a" : k < 6 ? "face_b" : "edge") << k;
    }
    EXPECT_EQ(out["overlap"], false);
    EXPECT_EQ(out["result"]["overlap"], false);
    EXPECT_EQ(out["separating_axis"], 0);
    EXPECT_TRUE(out["least_penetration_axis"].is_null());
}

TEST(ExplainCli, KolizeExplainOnBadInputPrintsOneLineAndExitsWithTwo) {
    TempDir dir;
    const CliRun bad = kolize(dir, "explain ray-box --shapes -", "{" + kRay + R"(, "b": {"shape": "box"}})");
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.out.empty()) << bad.out;
    EXPECT_EQ(bad.err, "kolize: stdin: /b/half_extents: required key is missing\n");
    const CliRun unknown = kolize(dir, "explain ray-cone --shapes -", "{}");
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_EQ(unknown.err.rfind("kolize: explain: unknown query 'ray-cone'", 0), 0u) << unknown.err;
    const CliRun noShapes = kolize(dir, "explain ray-box", "{}");
    EXPECT_EQ(noShapes.exitCode, 2);
    const CliRun mixed = kolize(dir, "--headless explain ray-box --shapes -", "{}");
    EXPECT_EQ(mixed.exitCode, 2);
    EXPECT_EQ(mixed.err, "kolize: --headless: not with explain (it takes only QUERY and --shapes)\n");
}

} // namespace
