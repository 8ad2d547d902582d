// `kolize explain` on the convex shapes (kz_explain, no display): the capsule, cylinder and hull
// keys of the shapes file, the gjk, epa and ray-convex queries' results against closed forms, their
// steps (each iteration of the trace) agreeing with the result, and the one-line errors of bad
// convex input.
#include "app/explain/explain.hpp"
#include "support/explain_test_support.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using namespace kz::explaintest;

/// A capsule at the origin (radius 0.5, its segment y in [-1, 1]) as "a", and `b`.
std::string withCapsule(const std::string& b) {
    return R"({"a": {"shape": "capsule", "radius": 0.5, "half_height": 1, "position": [0, 0, 0]}, "b": )" +
           b + "}";
}

const std::string kTetrahedronAt3 =
    R"({"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], "position": [3, 0, 0]})";

TEST(ExplainConvex, GjkGivesTheDistanceAndClosestPointsOfACapsuleAndAHull) {
    const Json out = explain("gjk", withCapsule(kTetrahedronAt3));
    EXPECT_EQ(out["query"], "gjk");
    const Json& r = out["result"];
    EXPECT_EQ(r["overlap"], false);
    // The hull's edge from (3, 0, 0) to (3, 1, 0) faces the capsule's side at distance 2.5 all
    // along: the closest points are a pair (0.5, y, 0) and (3, y, 0) for any y in [0, 1].
    EXPECT_NEAR(r["distance"].get<double>(), 2.5, 1e-6);
    const double y = r["point_b"][1].get<double>();
    EXPECT_GE(y, -1e-6);
    EXPECT_LE(y, 1.0 + 1e-6);
    expectVec(r["point_a"], 0.5, y, 0.0);
    expectVec(r["point_b"], 3.0, y, 0.0);
    // The steps: GJK on the cores (the capsule's segment), the radius added at the end.
    EXPECT_EQ(out["status"], "converged");
    EXPECT_EQ(out["radius_a"], 0.5);
    EXPECT_EQ(out["radius_b"], 0.0);
    const Json& iterations = out["iterations"];
    ASSERT_FALSE(iterations.empty());
    double lower = 0.0;
    for (const Json& it : iterations) {
        EXPECT_GE(it["lower_bound"].get<double>(), lower) << "the lower bound never falls";
        lower = it["lower_bound"].get<double>();
        EXPECT_LE(it["simplex"].size(), 4u);
    }
    EXPECT_NEAR(iterations.back()["upper_bound"].get<double>(), 3.0, 1e-9) << "the cores' distance";
    EXPECT_NEAR(lower, 3.0, 1e-9);
}

TEST(ExplainConvex, GjkOnOverlappingShapesSaysSoWithDistanceZero) {
    const Json out = explain(
        "gjk",
        withCapsule(R"({"shape": "cylinder", "radius": 1, "half_height": 0.5, "position": [1.2, 0, 0]})"));
    EXPECT_EQ(out["result"]["overlap"], true);
    EXPECT_EQ(out["result"]["distance"], 0.0);
}

TEST(ExplainConvex, EpaAgreesWithTheBoxBoxContactsDepthAndNormal) {
    const std::string boxes = R"({"a": {"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0, 0]},
        "b": {"shape": "box", "half_extents": [1, 1, 1], "position": [1.5, 0.2, 0]}})";
    const Json epa = explain("epa", boxes);
    const Json boxBox = explain("box-box", boxes);
    EXPECT_EQ(epa["result"]["overlap"], true);
    EXPECT_NEAR(epa["result"]["depth"].get<double>(), boxBox["result"]["contact"]["depth"].get<double>(),
                1e-6);
    expectVec(epa["result"]["normal"], -1.0, 0.0, 0.0); // from b toward a, as the contacts
    EXPECT_EQ(epa["status"], "converged");
    EXPECT_EQ(epa["gjk"]["status"], "overlapping");
    const Json& iterations = epa["iterations"];
    ASSERT_FALSE(iterations.empty());
    for (const Json& it : iterations) {
        ASSERT_GE(it["nearest"].get<int>(), 0);
        ASSERT_LT(it["nearest"].get<std::size_t>(), it["faces"].size());
        EXPECT_LE(it["lower_bound"].get<double>(), it["reach"].get<double>() + 1e-12);
    }
    EXPECT_NEAR(iterations.back()["lower_bound"].get<double>(), 0.5, 1e-6);
}

TEST(ExplainConvex, ConvexConvexGivesTheBoxBoxManifoldForTwoBoxesAndClipsACylindersCap) {
    const std::string boxes = R"({"a": {"shape": "box", "half_extents": [1, 1, 1], "position": [0, 1.9, 0]},
        "b": {"shape": "box", "half_extents": [1.5, 1, 1.5], "position": [0, 0, 0]}})";
    const Json convex = explain("convex-convex", boxes);
    const Json boxBox = explain("box-box", boxes);
    EXPECT_EQ(convex["result"]["overlap"], true);
    const Json& contact = convex["result"]["contact"];
    const Json& expected = boxBox["result"]["contact"];
    expectVec(contact["normal"], 0.0, 1.0, 0.0);
    EXPECT_NEAR(contact["depth"].get<double>(), expected["depth"].get<double>(), 1e-6);
    ASSERT_EQ(contact["points"].size(), 4u) << "a box resting flat: its four corners";
    EXPECT_EQ(contact["points"].size(), expected["points"].size());
    EXPECT_EQ(convex["reference"], "a") << "parallel faces: A's is the reference, as box-box's";
    EXPECT_FALSE(convex["clips"].empty());
    EXPECT_EQ(convex["epa"]["status"], "converged");
    // A cylinder standing on a box: its cap clipped by the box's top face, 4 points kept.
    const Json cap = explain("convex-convex", R"({"a": {"shape": "cylinder", "radius": 0.5, "half_height": 1,
        "position": [0, 1.95, 0]}, "b": {"shape": "box", "half_extents": [2, 1, 2], "position": [0, 0, 0]}})");
    ASSERT_EQ(cap["result"]["overlap"], true);
    EXPECT_EQ(cap["result"]["contact"]["points"].size(), 4u);
    EXPECT_NEAR(cap["result"]["contact"]["depth"].get<double>(), 0.05, 1e-5);
    const Json apart = explain("convex-convex", withCapsule(kTetrahedronAt3));
    EXPECT_EQ(apart["result"], Json({{"overlap", false}, {"contact", nullptr}}));
}

TEST(ExplainConvex, EpaOnShapesApartHasNoDepthNormalOrPoints) {
    const Json out = explain("epa", withCapsule(kTetrahedronAt3));
    EXPECT_EQ(out["result"], Json({{"overlap", false},
                                   {"depth", nullptr},
                                   {"normal", nullptr},
                                   {"point_a", nullptr},
                                   {"point_b", nullptr}}));
    EXPECT_EQ(out["status"], "separated");
    EXPECT_TRUE(out["iterations"].empty());
}

TEST(ExplainConvex, RayConvexHitsACylindersCapWhereTheClosedFormDoes) {
    // The cylinder's axis along x (turned 90 degrees about z): its cap at x = -2.
    const Json out = explain("ray-convex", R"({"ray": {"origin": [-5, 0.2, 0], "dir": [1, 0, 0]},
        "b": {"shape": "cylinder", "radius": 1, "half_height": 2, "position": [0, 0, 0], "euler_deg": [0, 0, 90]}})");
    EXPECT_EQ(out["result"]["hit"], true);
    EXPECT_NEAR(out["result"]["t"].get<double>(), 3.0, 1e-5);
    expectVec(out["result"]["normal"], -1.0, 0.0, 0.0, 1e-5);
    EXPECT_EQ(out["status"], "hit");
    ASSERT_FALSE(out["iterations"].empty());
    EXPECT_NEAR(out["iterations"].back()["t"].get<double>(), 3.0, 1e-5);
    const Json miss = explain("ray-convex", R"({"ray": {"origin": [-5, 3, 0], "dir": [1, 0, 0]},
        "b": {"shape": "sphere", "radius": 1, "position": [0, 0, 0]}})");
    EXPECT_EQ(miss["result"], Json({{"hit", false}}));
    EXPECT_EQ(miss["status"], "miss");
}

TEST(ExplainConvex, EveryConvexShapeIsTakenForAAndB) {
    const std::vector<std::string> shapes = {
        R"({"shape": "sphere", "radius": 0.5, "position": [2, 0, 0]})",
        R"({"shape": "box", "half_extents": [0.5, 0.5, 0.5], "position": [2, 0, 0], "euler_deg": [10, 20, 30]})",
        R"({"shape": "capsule", "radius": 0.3, "half_height": 0.4, "position": [2, 0, 0], "orientation": [1, 0, 0, 0]})",
        R"({"shape": "cylinder", "radius": 0.3, "half_height": 0.4, "position": [2, 0, 0]})",
        R"({"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.2, 0.2, 0.2]], "position": [2, 0, 0]})"};
    for (const std::string& b : shapes) {
        SCOPED_TRACE(b);
        const Json out = explain("gjk", withCapsule(b));
        EXPECT_EQ(out["result"]["overlap"], false);
        EXPECT_GT(out["result"]["distance"].get<double>(), 0.0);
        EXPECT_LT(out["result"]["distance"].get<double>(), 2.0);
    }
}

TEST(ExplainConvexBadInput, EachMistakeIsOneLineNamingTheFileAndTheKey) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {withCapsule(R"({"shape": "mesh", "mesh": "ring", "position": [0, 0, 0]})"),
         "shapes.json: /b/shape: this query needs a convex shape (sphere, box, capsule, cylinder or hull), "
         "got "
         "\"mesh\""},
        {withCapsule(R"({"shape": "capsule", "radius": 0, "half_height": 1, "position": [0, 0, 0]})"),
         "shapes.json: /b/radius: must be"},
        {withCapsule(R"({"shape": "cylinder", "radius": 1, "position": [0, 0, 0]})"),
         "shapes.json: /b/half_height: required key is missing"},
        {withCapsule(
             R"({"shape": "capsule", "radius": 1, "half_height": 1, "position": [0, 0, 0], "size": 2})"),
         "shapes.json: /b/size: unknown key"},
        {withCapsule(
             R"({"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "position": [0, 0, 0]})"),
         "shapes.json: /b/points: "},
        {withCapsule(
             R"({"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], "position": [0, 0, 0]})"),
         "shapes.json: /b/points: "},
        {withCapsule(
             R"({"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1], [0, 0, 1]], "position": [0, 0, 0]})"),
         "shapes.json: /b/points/2: "},
        {withCapsule(R"({"shape": "hull", "points": "many", "position": [0, 0, 0]})"),
         "shapes.json: /b/points: must be an array of points"},
        {withCapsule(R"({"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]})"),
         "shapes.json: /b/position: required key is missing"},
    };
    for (const auto& [shapes, expected] : cases) {
        SCOPED_TRACE(shapes);
        const std::string error = explainError("gjk", shapes);
        EXPECT_EQ(error.rfind(expected, 0), 0u) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
    EXPECT_EQ(explainError("box-box", withCapsule(kTetrahedronAt3))
                  .rfind("shapes.json: /a/shape: this query needs a box, got \"capsule\"", 0),
              0u);
}

TEST(ExplainShapeCast, AMovingCapsuleMeetsABoxFaceWhenItsRimDoes) {
    // The capsule's side (x = 0.5) flies at 4 m/s to the box's face at x = 2.5: t = 0.5.
    const std::string shapes = R"({"a": {"shape": "capsule", "radius": 0.5, "half_height": 1,
        "position": [0, 0, 0], "velocity": [4, 0, 0]},
        "b": {"shape": "box", "half_extents": [0.5, 2, 2], "position": [3, 0, 0]}})";
    const Json out = explain("shape-cast", shapes);
    const Json& r = out["result"];
    EXPECT_EQ(r["hit"], true);
    EXPECT_EQ(r["status"], "hit");
    EXPECT_NEAR(r["time_of_impact"].get<double>(), 0.5, 1e-5);
    EXPECT_GT(r["distance"].get<double>(), 0.0); // each step aims just short of touching
    EXPECT_LT(r["distance"].get<double>(), 4e-5);
    expectVec(r["normal"], -1.0, 0.0, 0.0);
    EXPECT_NEAR(r["point_b"][0].get<double>(), 2.5, 1e-6);
    // The steps: the first at t = 0, 2 m apart, approaching at 4 m/s with no turn.
    const Json& steps = out["steps"];
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0]["t"], 0.0);
    EXPECT_NEAR(steps[0]["distance"].get<double>(), 2.0, 1e-6);
    EXPECT_EQ(steps[0]["linear_rate"], 4.0);
    EXPECT_EQ(steps[0]["angular_rate"], 0.0);
    EXPECT_EQ(steps[1]["t"], r["time_of_impact"]);
    EXPECT_EQ(out["t_max"], 1.0);
    EXPECT_EQ(out["gap"], 0.0);
}

TEST(ExplainShapeCast, BothShapesMayMoveAndTurnWithinTMaxAndAGap) {
    // Head on at 1 + 1 m/s over 3 m: they come within the gap of 0.5 at t = 1.25, after t_max 1.
    const std::string apart = R"({"a": {"shape": "sphere", "radius": 0.5, "position": [0, 0, 0],
        "velocity": [1, 0, 0], "angular_velocity": [0, 5, 0]},
        "b": {"shape": "hull", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
        "position": [3.5, 0, 0], "velocity": [-1, 0, 0]}, "gap": 0.5)";
    const Json miss = explain("shape-cast", apart + "}");
    EXPECT_EQ(miss["result"]["hit"], false);
    EXPECT_EQ(miss["result"]["status"], "miss");
    EXPECT_TRUE(miss["result"]["time_of_impact"].is_null());
    const Json hit = explain("shape-cast", apart + R"(, "t_max": 2})");
    EXPECT_NEAR(hit["result"]["time_of_impact"].get<double>(), 1.25, 1e-5);
    // The sphere turning about its own centre moves nothing: no turning part in the bound.
    EXPECT_EQ(hit["steps"][0]["angular_rate"], 0.0);
    EXPECT_EQ(hit["reach_a"], 0.0);
}

TEST(ExplainShapeCastBadInput, EachMistakeIsOneLineNamingTheFileAndTheKey) {
    const std::string b = R"("b": {"shape": "sphere", "radius": 1, "position": [3, 0, 0]})";
    const std::string capsule =
        R"("a": {"shape": "capsule", "radius": 0.5, "half_height": 1, "position": [0, 0, 0])";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"{" + capsule + R"(, "velocity": [1, 0]}, )" + b + "}",
         "shapes.json: /a/velocity: must be an array of 3"},
        {"{" + capsule + R"(, "angular_velocity": [0, 1e9, 0]}, )" + b + "}",
         "shapes.json: /a/angular_velocity: its length must be in"},
        {"{" + capsule + R"(, "spin": [0, 1, 0]}, )" + b + "}", "shapes.json: /a/spin: unknown key"},
        {"{" + capsule + "}, " + b + R"(, "t_max": 0})", "shapes.json: /t_max: must be > 0"},
        {"{" + capsule + "}, " + b + R"(, "t_max": 1e9})", "shapes.json: /t_max: "},
        {"{" + capsule + "}, " + b + R"(, "gap": -1})", "shapes.json: /gap: "},
        {"{" + capsule + "}, " + b + R"(, "gap": "wide"})", "shapes.json: /gap: "},
        {"{" + capsule + "}, " + b + R"(, "ray": {}})", "shapes.json: /ray: unknown key"},
    };
    for (const auto& [shapes, expected] : cases) {
        SCOPED_TRACE(shapes);
        const std::string error = explainError("shape-cast", shapes);
        EXPECT_EQ(error.rfind(expected, 0), 0u) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
    // Only the cast reads a capsule's motion.
    EXPECT_EQ(explainError("gjk", "{" + capsule + R"(, "velocity": [1, 0, 0]}, )" + b + "}")
                  .rfind("shapes.json: /a/velocity: unknown key", 0),
              0u);
}

} // namespace
