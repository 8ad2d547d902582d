// The steps of `kolize explain`'s contact, sweep and closest-point queries
// (their units in src/app/lab/queries/): each query's trace keys at the top level and its values on
// hand-made shapes, then, on random shapes (fixed seed), the trace's verdict against the printed
// result's for all eight.
#include "support/explain_test_support.hpp"

#include <cstddef>
#include <random>
#include <sstream>
#include <string>

namespace {

using namespace kz::explaintest;

TEST(ExplainContactSteps, SphereSpherePrintsTheCentreDistanceTheRadiusSumAndTheSeparation) {
    const Json out =
        explain("sphere-sphere", R"({"a": {"shape": "sphere", "radius": 1, "position": [3, 0, 0]},
        "b": {"shape": "sphere", "radius": 0.5, "position": [0, 0, 0]}})");
    expectVec(out["centre_offset"], 3, 0, 0);
    EXPECT_EQ(out["centre_distance"], 3.0);
    EXPECT_EQ(out["radius_a"], 1.0);
    EXPECT_EQ(out["radius_b"], 0.5);
    EXPECT_EQ(out["radius_sum"], 1.5);
    EXPECT_EQ(out["separation"], 1.5);
    EXPECT_EQ(out["overlap"], false);
    EXPECT_EQ(out["result"]["overlap"], false);
}

TEST(ExplainContactSteps, SphereBoxNamesTheRegionOfTheCentreAndTheFaceAnInsideCentreLeavesBy) {
    const Json out =
        explain("sphere-box", R"({"a": {"shape": "sphere", "radius": 1, "position": [1.5, 0, 0]}, )" +
                                  std::string(kUnitBox) + "}");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "valid", "overlap", "centre_in_box", "excess", "region",
                                   "closest", "distance", "exit_axis", "contact"}));
    EXPECT_EQ(out["region"], "face");
    expectVec(out["excess"], 0.5, -1, -1);
    expectVec(out["closest"], 1, 0, 0);
    EXPECT_EQ(out["distance"], 0.5);
    EXPECT_TRUE(out["exit_axis"].is_null());
    EXPECT_EQ(out["overlap"], true);
    EXPECT_EQ(out["contact"], out["result"]["contact"]);

    const Json inside =
        explain("sphere-box", R"({"a": {"shape": "sphere", "radius": 0.5, "position": [0, 0.75, 0.25]}, )" +
                                  std::string(kUnitBox) + "}");
    EXPECT_EQ(inside["region"], "inside");
    EXPECT_EQ(inside["exit_axis"], 1);
    EXPECT_EQ(inside["result"]["overlap"], true);
}

TEST(ExplainContactSteps, BoxBoxThreeApartAlongXIsSeparatedByTheFirstFaceAxisOfA) {
    const Json out =
        explain("box-box", R"({"a": {"shape": "box", "half_extents": [1, 1, 1], "position": [3, 0, 0]}, )" +
                               std::string(kUnitBox) + "}");
    EXPECT_EQ(keysOf(out),
              sorted({"query", "result", "overlap", "axes", "separating_axis", "least_penetration_axis"}));
    EXPECT_EQ(out["overlap"], false);
    EXPECT_EQ(out["separating_axis"], 0);
    EXPECT_TRUE(out["least_penetration_axis"].is_null());
    ASSERT_EQ(out["axes"].size(), 15u);
    const Json& x = out["axes"][0];
    EXPECT_EQ(x["kind"], "face_a");
    expectVec(x["axis"], -1, 0, 0); // toward b
    EXPECT_EQ(x["distance"], 3.0);
    // testObbObb pads each |R_ij| by its rounding allowance (1e-6), so radius_b is 1 + 3e-6 here.
    EXPECT_NEAR(x["radius_b"].get<double>(), 1.0, 1e-5);
    EXPECT_NEAR(x["separation"].get<double>(), 1.0, 1e-5);
    EXPECT_NEAR(x["separation"].get<double>(),
                x["distance"].get<double>() - x["radius_a"].get<double>() - x["radius_b"].get<double>(),
                1e-6);
    EXPECT_EQ(out["axes"][3]["kind"], "face_b");
    EXPECT_EQ(out["axes"][6]["kind"], "edge");
    EXPECT_EQ(out["axes"][6]["degenerate"], true); // a_x x b_x: parallel edges, no axis
    EXPECT_TRUE(out["axes"][6]["separation"].is_null());
    EXPECT_EQ(out["axes"][7]["degenerate"], false);
}

TEST(ExplainContactSteps, OverlappingBoxesHaveNoSeparatingAxisAndShowTheClippedManifold) {
    const Json out =
        explain("box-box", R"({"a": {"shape": "box", "half_extents": [1, 1, 1], "position": [1.5, 0, 0]}, )" +
                               std::string(kUnitBox) + "}");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "overlap", "axes", "separating_axis",
                                   "least_penetration_axis", "contact"}));
    EXPECT_EQ(out["overlap"], true);
    EXPECT_EQ(out["result"]["overlap"], true);
    EXPECT_TRUE(out["separating_axis"].is_null());
    EXPECT_EQ(out["least_penetration_axis"], 0);
    EXPECT_EQ(out["contact"]["feature"], "face");
    EXPECT_EQ(out["contact"]["normal"], out["result"]["contact"]["normal"]);
    EXPECT_EQ(out["contact"]["points"], out["result"]["contact"]["points"]);
    EXPECT_EQ(out["contact"]["clipped_polygon"].size(), 4u);
}

TEST(ExplainContactSteps, BoxPlaneListsEachCornerWithItsSignedDistance) {
    const Json out =
        explain("box-plane", R"({"a": {"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0.5, 0]},
        "b": {"shape": "plane", "normal": [0, 1, 0], "d": 0}})");
    EXPECT_EQ(keysOf(out),
              sorted({"query", "result", "valid", "normal", "d", "corners", "touching_count", "contact"}));
    ASSERT_EQ(out["corners"].size(), 8u);
    EXPECT_EQ(out["corners"][0]["distance"], -0.5); // bit 1 clear: the corner at y = -0.5
    EXPECT_EQ(out["corners"][0]["touching"], true);
    EXPECT_EQ(out["corners"][2]["distance"], 1.5);
    EXPECT_EQ(out["touching_count"], 4);
    EXPECT_EQ(out["contact"], out["result"]["contact"]);
}

TEST(ExplainContactSteps, SphereTriangleNamesTheClosestFeature) {
    const Json out = explain(
        "sphere-triangle", R"({"a": {"shape": "sphere", "radius": 1, "position": [0.25, 0.25, 0.5]}, "b": )" +
                               std::string(kCornerTriangle) + "}");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "valid", "overlap", "closest_point", "distance",
                                   "face_normal", "contact"}));
    EXPECT_EQ(out["closest_point"]["feature"], "face");
    expectVec(out["closest_point"]["closest"], 0.25, 0.25, 0);
    EXPECT_EQ(out["distance"], 0.5);
    EXPECT_EQ(out["overlap"], true);

    const Json corner = explain(
        "sphere-triangle", R"({"a": {"shape": "sphere", "radius": 0.5, "position": [-1, -1, 0]}, "b": )" +
                               std::string(kCornerTriangle) + "}");
    EXPECT_EQ(corner["closest_point"]["feature"], "vertex_a");
    EXPECT_EQ(corner["overlap"], false);
    EXPECT_EQ(corner["result"]["overlap"], false);
}

TEST(ExplainContactSteps, BoxTrianglePrintsThirteenAxesAndTheFeatureThatGavePoints) {
    const Json out = explain(
        "box-triangle",
        R"({"a": {"shape": "box", "half_extents": [0.1, 0.1, 0.1], "position": [0.25, 0.25, 0.05]}, "b": )" +
            std::string(kCornerTriangle) + "}");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "valid", "overlap", "separation", "axes",
                                   "largest_axis", "features_tried", "contact"}));
    ASSERT_EQ(out["axes"].size(), 13u);
    EXPECT_EQ(out["axes"][0]["kind"], "triangle_normal");
    EXPECT_EQ(out["axes"][1]["kind"], "box_face");
    EXPECT_EQ(out["separation"], out["result"]["separation"]);
    EXPECT_NEAR(out["separation"].get<double>(), -0.05, 1e-6);
    EXPECT_EQ(out["overlap"], true);
    ASSERT_FALSE(out["features_tried"].empty());
    EXPECT_EQ(out["features_tried"][0]["feature"], "triangle_face");
    EXPECT_EQ(out["contact"], out["result"]["contact"]);
}

TEST(ExplainContactSteps, SweepSphereTrianglePrintsEachFeaturesCandidateAndTheWinner) {
    const Json out = explain(
        "sweep-sphere-triangle",
        R"({"a": {"shape": "sphere", "radius": 0.5, "position": [0.25, 0.25, 3], "velocity": [0, 0, -1]}, "b": )" +
            std::string(kCornerTriangle) + "}");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "valid", "hit", "time", "start_distance",
                                   "initial_overlap", "face_normal", "height", "candidates", "winner"}));
    EXPECT_EQ(out["candidates"]["face"], Json({{"status", "best_so_far"}, {"t", 2.5}}));
    ASSERT_EQ(out["candidates"]["edges"].size(), 3u);
    ASSERT_EQ(out["candidates"]["corners"].size(), 3u);
    EXPECT_EQ(out["winner"], Json({{"feature", "face"}, {"index", nullptr}}));
    EXPECT_EQ(out["time"], out["result"]["time_of_impact"]);
    EXPECT_EQ(out["height"], 3.0);

    // Beside the triangle, moving along x onto corner b = (1, 0, 0).
    const Json corner = explain(
        "sweep-sphere-triangle",
        R"({"a": {"shape": "sphere", "radius": 0.5, "position": [3, 0, 0], "velocity": [-1, 0, 0]}, "b": )" +
            std::string(kCornerTriangle) + "}");
    EXPECT_EQ(corner["winner"]["feature"], "corner");
    EXPECT_EQ(corner["winner"]["index"], 1);
    EXPECT_EQ(corner["time"], 1.5);
    EXPECT_EQ(corner["result"]["time_of_impact"], 1.5);
}

TEST(ExplainContactSteps, SegmentSegmentPrintsSAndTBeforeAndAfterClamping) {
    const Json out =
        explain("segment-segment", R"({"a": {"shape": "segment", "points": [[0, 0, 0], [2, 0, 0]]},
        "b": {"shape": "segment", "points": [[3, -1, 1], [3, 1, 1]]}})");
    EXPECT_EQ(keysOf(out), sorted({"query", "result", "valid", "case", "a", "b", "c", "e", "f", "denom", "s",
                                   "t", "s_again"}));
    EXPECT_EQ(out["case"], "skew");
    EXPECT_EQ(out["s"], Json({{"unclamped", 1.5}, {"clamped", 1.0}, {"was_clamped", true}}));
    EXPECT_EQ(out["t"], Json({{"unclamped", 0.5}, {"clamped", 0.5}, {"was_clamped", false}}));
    EXPECT_TRUE(out["s_again"].is_null());
    // The output's "result" is the fast query's (the trace's own equal one is not repeated).
    EXPECT_EQ(out["result"]["s"], 1.0);
    expectVec(out["result"]["point_a"], 2, 0, 0);
}

// =============================================================================================
// Random shapes: the trace's verdict is the printed result's

/// A random shape of `kind` ("sphere", "box", "plane", "triangle", "segment") near the origin.
std::string randomShape(const std::string& kind, std::mt19937& rng) {
    std::uniform_real_distribution<double> coord(-2.0, 2.0), size(0.1, 1.5), angle(-180.0, 180.0);
    const auto v = [&](auto& dist) {
        std::ostringstream s;
        s << "[" << dist(rng) << ", " << dist(rng) << ", " << dist(rng) << "]";
        return s.str();
    };
    std::ostringstream s;
    if (kind == "sphere")
        s << R"({"shape": "sphere", "radius": )" << size(rng) << R"(, "position": )" << v(coord)
          << R"(, "velocity": )" << v(coord) << "}";
    else if (kind == "box")
        s << R"({"shape": "box", "half_extents": )" << v(size) << R"(, "position": )" << v(coord)
          << R"(, "euler_deg": )" << v(angle) << "}";
    else if (kind == "plane")
        s << R"({"shape": "plane", "normal": )" << v(coord) << R"(, "d": )" << coord(rng) << "}";
    else if (kind == "triangle")
        s << R"({"shape": "triangle", "vertices": [)" << v(coord) << ", " << v(coord) << ", " << v(coord)
          << "]}";
    else
        s << R"({"shape": "segment", "points": [)" << v(coord) << ", " << v(coord) << "]}";
    return s.str();
}

TEST(ExplainContactSteps, OnRandomShapesEveryTraceAgreesWithTheResultPrintedBesideIt) {
    struct Case {
        const char* query;
        const char* a;
        const char* b;
    };
    const Case cases[] = {{"sphere-sphere", "sphere", "sphere"},
                          {"sphere-box", "sphere", "box"},
                          {"box-box", "box", "box"},
                          {"box-plane", "box", "plane"},
                          {"sphere-triangle", "sphere", "triangle"},
                          {"box-triangle", "box", "triangle"},
                          {"sweep-sphere-triangle", "sphere", "triangle"},
                          {"segment-segment", "segment", "segment"}};
    constexpr unsigned kSeed = 20240610;
    std::mt19937 rng(kSeed);
    for (const Case& c : cases) {
        for (int i = 0; i < 300; ++i) {
            const std::string shapes =
                R"({"a": )" + randomShape(c.a, rng) + R"(, "b": )" + randomShape(c.b, rng) + "}";
            SCOPED_TRACE(std::string(c.query) + " seed " + std::to_string(kSeed) + ": " + shapes);
            const kz::ExplainOutcome outcome = kz::explainText(c.query, shapes, "shapes.json");
            if (outcome.exitCode != 0) continue; // a zero-length plane normal or a flat triangle
            const Json out = Json::parse(outcome.json);
            const Json& r = out["result"];
            const std::string q = c.query;
            if (q == "box-plane") {
                EXPECT_EQ(out["contact"], r["contact"]);
            } else if (q == "sweep-sphere-triangle") {
                EXPECT_EQ(out["hit"], r["hit"]);
                if (r["hit"] == true) {
                    EXPECT_EQ(out["time"], r["time_of_impact"]);
                }
            } else if (q == "segment-segment") {
                EXPECT_EQ(out["t"]["clamped"], r["t"]);
                EXPECT_EQ(out["s_again"].is_null() ? out["s"]["clamped"] : out["s_again"]["clamped"], r["s"]);
            } else {
                EXPECT_EQ(out["overlap"], r["overlap"]);
                if (q != "sphere-sphere") { // box-box writes "contact" only when they overlap
                    const Json contact = out.contains("contact") ? out["contact"] : Json();
                    EXPECT_EQ(contact.is_null() ? Json() : contact["points"],
                              r["contact"].is_null() ? Json() : r["contact"]["points"]);
                }
            }
            if (q == "box-box") {
                EXPECT_EQ(out["separating_axis"].is_null(), r["overlap"] == true);
            }
        }
    }
}

} // namespace
