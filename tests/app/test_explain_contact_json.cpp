// Tests for app/lab/queries/trace_json.hpp: the keys, their order and the values of the traces'
// JSON for hand-made cases (two box-box pairs, one case of every other trace), and no number
// that is not finite anywhere.
#include "app/lab/queries/trace_json.hpp"
#include "geom/geom.hpp"
#include "physics/explain_advancement.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <string>
#include <vector>

namespace {

using namespace kz;
using Json = nlohmann::ordered_json;

std::vector<std::string> keys(const Json& object) {
    std::vector<std::string> out;
    for (const auto& item : object.items())
        out.push_back(item.key());
    return out;
}

/// Every number in `value` is finite (a NaN or infinity would be written as null, silently).
bool allFinite(const Json& value) {
    if (value.is_number_float()) return std::isfinite(value.get<double>());
    if (value.is_structured()) {
        for (const auto& item : value)
            if (!allFinite(item)) return false;
    }
    return true;
}

void expectVector(const Json& v, float x, float y, float z) {
    ASSERT_TRUE(v.is_array()) << v.dump();
    ASSERT_EQ(v.size(), 3u);
    EXPECT_NEAR(v[0].get<double>(), x, 1e-6);
    EXPECT_NEAR(v[1].get<double>(), y, 1e-6);
    EXPECT_NEAR(v[2].get<double>(), z, 1e-6);
}

Obb unitBox(const glm::vec3& centre) {
    return {centre, glm::vec3(1.0f), glm::mat3(1.0f)};
}

TEST(ExplainContactJson, SeparatedBoxesNameTheirSeparatingAxisAndHaveNoContact) {
    const Json j = traceToJson(explainObbObb(unitBox({0, 0, 0}), unitBox({3, 0.5f, 0})));
    EXPECT_EQ(keys(j),
              (std::vector<std::string>{"overlap", "axes", "separating_axis", "least_penetration_axis"}));
    EXPECT_EQ(j["overlap"], false);
    ASSERT_EQ(j["axes"].size(), 15u);
    const Json& x = j["axes"][0];
    EXPECT_EQ(keys(x), (std::vector<std::string>{"kind", "axis", "radius_a", "radius_b", "distance",
                                                 "separation", "degenerate"}));
    EXPECT_EQ(x["kind"], "face_a");
    expectVector(x["axis"], 1, 0, 0);
    EXPECT_EQ(x["radius_a"], 1.0);
    EXPECT_NEAR(x["radius_b"].get<double>(), 1.0, 1e-5);
    EXPECT_EQ(x["distance"], 3.0);
    EXPECT_NEAR(x["separation"].get<double>(), 1.0, 1e-5);
    EXPECT_EQ(x["degenerate"], false);
    EXPECT_EQ(j["axes"][3]["kind"], "face_b");
    // a_x x b_x: parallel edges, no axis.
    EXPECT_EQ(j["axes"][6]["kind"], "edge");
    EXPECT_EQ(j["axes"][6]["degenerate"], true);
    expectVector(j["axes"][6]["axis"], 0, 0, 0);
    EXPECT_TRUE(j["axes"][6]["separation"].is_null());
    EXPECT_EQ(j["separating_axis"], 0);
    EXPECT_TRUE(j["least_penetration_axis"].is_null());
    EXPECT_TRUE(allFinite(j));
}

TEST(ExplainContactJson, BoxesPressedFaceToFaceShowTheirClippedFaceAndPoints) {
    const Json j = traceToJson(explainObbObb(unitBox({0, 1.9f, 0}), unitBox({0, 0, 0})));
    EXPECT_EQ(j["overlap"], true);
    EXPECT_TRUE(j["separating_axis"].is_null());
    EXPECT_EQ(j["least_penetration_axis"], 1); // A's y face
    const Json& c = j["contact"];
    EXPECT_EQ(keys(c), (std::vector<std::string>{"normal", "depth", "points", "feature", "reference_face",
                                                 "incident_face", "clipped_polygon", "kept_points",
                                                 "deepest_corner"}));
    expectVector(c["normal"], 0, 1, 0);
    EXPECT_NEAR(c["depth"].get<double>(), 0.1, 1e-6);
    ASSERT_EQ(c["points"].size(), 4u);
    EXPECT_EQ(keys(c["points"][0]), (std::vector<std::string>{"position", "depth"}));
    EXPECT_EQ(c["feature"], "face");
    EXPECT_EQ(c["reference_face"]["box"], "a");
    EXPECT_EQ(c["reference_face"]["axis"], 1);
    expectVector(c["reference_face"]["normal"], 0, -1, 0);
    EXPECT_EQ(c["incident_face"]["box"], "b");
    expectVector(c["incident_face"]["normal"], 0, 1, 0);
    EXPECT_EQ(c["incident_face"]["polygon"].size(), 4u);
    EXPECT_EQ(c["clipped_polygon"].size(), 4u);
    EXPECT_EQ(c["kept_points"].size(), 4u);
    EXPECT_EQ(c["deepest_corner"], false);
    EXPECT_TRUE(allFinite(j));
}

TEST(ExplainContactJson, ABoxCornerInAPlaneListsEveryCornerDistance) {
    const Json j = traceToJson(explainObbPlane(unitBox({0, 0.9f, 0}), Plane{{0, 1, 0}, 0}));
    EXPECT_EQ(keys(j),
              (std::vector<std::string>{"valid", "normal", "d", "corners", "touching_count", "contact"}));
    ASSERT_EQ(j["corners"].size(), 8u);
    EXPECT_NEAR(j["corners"][0]["distance"].get<double>(), -0.1, 1e-6);
    EXPECT_EQ(j["corners"][0]["touching"], true);
    EXPECT_EQ(j["corners"][7]["touching"], false);
    EXPECT_EQ(j["touching_count"], 4);
    EXPECT_EQ(j["contact"]["points"].size(), 4u);
}

TEST(ExplainContactJson, ASphereOffABoxCornerIsInTheVertexRegion) {
    const Json j = traceToJson(explainSphereObb({{1.5f, 1.5f, 1.5f}, 1}, unitBox({0, 0, 0})));
    EXPECT_EQ(keys(j), (std::vector<std::string>{"valid", "overlap", "centre_in_box", "excess", "region",
                                                 "closest", "distance", "exit_axis", "contact"}));
    EXPECT_EQ(j["region"], "vertex");
    expectVector(j["closest"], 1, 1, 1);
    EXPECT_NEAR(j["distance"].get<double>(), std::sqrt(0.75), 1e-6);
    EXPECT_TRUE(j["exit_axis"].is_null());
    EXPECT_EQ(j["overlap"], true);
}

TEST(ExplainContactJson, APointBesideAnEdgeNamesTheEdgeAndItsFraction) {
    const Json j = traceToJson(explainClosestPtPointTriangle({-1, 1, 0}, {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}));
    EXPECT_EQ(keys(j), (std::vector<std::string>{"feature", "canonical_order", "d", "sliver", "edge_fraction",
                                                 "face_scale", "closest"}));
    EXPECT_EQ(j["feature"], "edge_ca");
    EXPECT_EQ(j["canonical_order"], (Json{"a", "c", "b"}));
    EXPECT_EQ(j["d"].size(), 6u);
    EXPECT_EQ(j["edge_fraction"], 0.75);
    EXPECT_TRUE(j["face_scale"].is_null());
    expectVector(j["closest"], 0, 1, 0);
}

TEST(ExplainContactJson, ASphereOverATriangleNestsItsClosestPoint) {
    const Json j = traceToJson(explainSphereTriangle({{1, 1, 0.5f}, 1}, {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}));
    EXPECT_EQ(keys(j), (std::vector<std::string>{"valid", "overlap", "closest_point", "distance",
                                                 "face_normal", "contact"}));
    EXPECT_EQ(j["closest_point"]["feature"], "face");
    EXPECT_EQ(j["distance"], 0.5);
    EXPECT_EQ(j["face_normal"], false);
    expectVector(j["contact"]["normal"], 0, 0, 1);
}

TEST(ExplainContactJson, ABoxOnATriangleListsThirteenAxesAndTheFeatureTried) {
    const Triangle tri{{-5, 0, -5}, {5, 0, -5}, {0, 0, 5}};
    const Json j = traceToJson(explainObbTriangle({{0, 0.95f, 0}, glm::vec3(1.0f), glm::mat3(1.0f)}, tri));
    EXPECT_EQ(keys(j), (std::vector<std::string>{"valid", "overlap", "separation", "axes", "largest_axis",
                                                 "features_tried", "contact"}));
    ASSERT_EQ(j["axes"].size(), 13u);
    EXPECT_EQ(j["axes"][0]["kind"], "triangle_normal");
    expectVector(j["axes"][0]["axis"], 0, 1, 0);
    EXPECT_EQ(j["axes"][4]["kind"], "edge");
    EXPECT_NEAR(j["separation"].get<double>(), -0.05, 1e-6);
    EXPECT_EQ(j["features_tried"], (Json{{{"feature", "triangle_face"}, {"points", 4}}}));
    EXPECT_TRUE(allFinite(j));
}

TEST(ExplainContactJson, SegmentsMeetingBeyondAnEndShowEachClamp) {
    const Json j = traceToJson(explainClosestPtLinePieces(asSegment({-1, 0, 0}, {1, 0, 0}),
                                                          asSegment({0.5f, -3, 0}, {0.5f, -1, 0})));
    EXPECT_EQ(keys(j), (std::vector<std::string>{"valid", "case", "a", "b", "c", "e", "f", "denom", "s", "t",
                                                 "s_again", "result"}));
    EXPECT_EQ(j["case"], "skew");
    EXPECT_EQ(j["s"], (Json{{"unclamped", 0.75}, {"clamped", 0.75}, {"was_clamped", false}}));
    EXPECT_EQ(j["t"], (Json{{"unclamped", 1.5}, {"clamped", 1.0}, {"was_clamped", true}}));
    EXPECT_EQ(j["s_again"]["clamped"], 0.75);
    EXPECT_EQ(j["result"]["distance"], 1.0);
}

TEST(ExplainContactJson, ASphereFallingOntoATriangleIsWonByTheFace) {
    const Json j = traceToJson(
        explainSweepSphereTriangle({{1, 1, 3}, 1}, {0, 0, -1}, {{0, 0, 0}, {4, 0, 0}, {0, 4, 0}}));
    EXPECT_EQ(keys(j), (std::vector<std::string>{"valid", "hit", "time", "start_distance", "initial_overlap",
                                                 "face_normal", "height", "candidates", "winner"}));
    EXPECT_EQ(j["time"], 2.0);
    EXPECT_EQ(j["candidates"]["face"], (Json{{"status", "best_so_far"}, {"t", 2.0}}));
    EXPECT_EQ(j["candidates"]["edges"].size(), 3u);
    EXPECT_EQ(j["winner"], (Json{{"feature", "face"}, {"index", nullptr}}));
}

TEST(ExplainContactJson, BoxesClosingHeadOnListTheirIterations) {
    World world(boxRoom(glm::vec3(20.0f)));
    BodyDesc d;
    d.shape = ShapeType::Box;
    d.mass = 1.0f;
    d.position = {-2, 0, 0};
    d.velocity = {1, 0, 0};
    world.addBody(d);
    d.position = {2, 0, 0};
    d.velocity = {0, 0, 0};
    world.addBody(d);
    const Json j = traceToJson(world.explainTimeOfImpact(0, Partner::body(1), 10.0f));
    EXPECT_EQ(keys(j), (std::vector<std::string>{"valid", "method", "initial_distance", "target", "tolerance",
                                                 "bound", "iterations", "end", "root", "near_triangles",
                                                 "triangle", "sweep", "time"}));
    EXPECT_TRUE(j["root"].is_null());
    EXPECT_EQ(j["method"], "conservative");
    EXPECT_EQ(j["initial_distance"], 3.0);
    ASSERT_EQ(j["iterations"].size(), 2u);
    EXPECT_EQ(keys(j["iterations"][0]), (std::vector<std::string>{"time", "distance", "bound", "advance"}));
    EXPECT_EQ(j["end"], "converged");
    EXPECT_NEAR(j["time"].get<double>(), 2.999, 1e-6);
    // No impact in the time left: the time is null, never infinity.
    EXPECT_TRUE(traceToJson(world.explainTimeOfImpact(0, Partner::body(1), 1.0f))["time"].is_null());
}

TEST(ExplainContactJson, TwoBallsHeadOnGiveTheirQuadraticRoot) {
    World world(boxRoom(glm::vec3(20.0f)));
    BodyDesc d;
    d.mass = 1.0f;
    d.position = {-2, 0, 0};
    d.velocity = {1, 0, 0};
    world.addBody(d);
    d.position = {2, 0, 0};
    d.velocity = {-1, 0, 0};
    world.addBody(d);
    const Json j = traceToJson(world.explainTimeOfImpact(0, Partner::body(1), 10.0f));
    EXPECT_EQ(j["method"], "sphere_sphere_root");
    EXPECT_EQ(keys(j["root"]), (std::vector<std::string>{"offset", "relative_velocity", "reach", "gap", "a",
                                                         "b", "c", "discriminant", "root", "end", "time"}));
    EXPECT_EQ(j["root"]["a"], 4.0);
    EXPECT_EQ(j["root"]["b"], -8.0);
    EXPECT_EQ(j["root"]["c"], 15.0);
    EXPECT_EQ(j["root"]["end"], "root");
    EXPECT_EQ(j["time"], 1.5);
    EXPECT_TRUE(j["iterations"].empty());
}

} // namespace
