// The report of a window run (src/app/cli/frame_report.hpp): its keys in order, the medians of the
// frame times, and the file it goes to.
#include "app/cli/frame_report.hpp"
#include "physics/state_hash.hpp"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace {

kz::BodyDesc ball(const char* name, glm::vec3 position) {
    kz::BodyDesc d;
    d.name = name;
    d.position = position;
    d.radius = 0.5f;
    return d;
}

TEST(FrameReport, HoldsItsKeysInOrderWithTheMediansOfTheFrameTimes) {
    kz::World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(ball("a", {-2, 0, 0}));
    world.addBody(ball("b", {2, 0, 0}));
    kz::FrameTimes times;
    times.add(10.0f, 1.0f, 0.5f, 2.0f, 3.0f);
    times.add(30.0f, 3.0f, 0.5f, 2.0f, 5.0f);
    times.add(20.0f, 2.0f, 0.1f, 4.0f, 4.0f);
    const nlohmann::ordered_json report = kz::frameReport(times, 3, 0.5, world, "Two balls", 42);

    std::vector<std::string> keys;
    for (const auto& item : report.items())
        keys.push_back(item.key());
    const std::vector<std::string> expected = {"frames",
                                               "seconds",
                                               "fps",
                                               "ms_per_frame_median",
                                               "physics_ms_median",
                                               "picking_ms_median",
                                               "ui_ms_median",
                                               "draw_ms_median",
                                               "bodies",
                                               "obstacles",
                                               "obstacle_triangles",
                                               "scenario",
                                               "seed",
                                               "msaa_samples",
                                               "shadows",
                                               "state_hash",
                                               "threads",
                                               "effective_time_scale",
                                               "physics_behind_frames"};
    EXPECT_EQ(keys, expected);
    EXPECT_EQ(report["frames"], 3);
    EXPECT_DOUBLE_EQ(report["fps"].get<double>(), 6.0);
    EXPECT_DOUBLE_EQ(report["ms_per_frame_median"].get<double>(), 20.0);
    EXPECT_DOUBLE_EQ(report["picking_ms_median"].get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(report["draw_ms_median"].get<double>(), 4.0);
    EXPECT_EQ(report["bodies"], 2);
    EXPECT_EQ(report["obstacles"], 0);
    EXPECT_TRUE(report["obstacle_triangles"].empty());
    EXPECT_EQ(report["scenario"], "Two balls");
    EXPECT_EQ(report["seed"], 42);
    EXPECT_EQ(report["msaa_samples"], 0) << "not multisampled unless said";
    EXPECT_EQ(report["shadows"], true);
    EXPECT_EQ(report["state_hash"], kz::stateHashText(kz::stateHash(world)));
    EXPECT_EQ(report["threads"], 1) << "one thread unless said";
    EXPECT_EQ(report["effective_time_scale"], 0.0);
    EXPECT_EQ(report["physics_behind_frames"], 0);
}

TEST(FrameReport, SaysHowThePhysicsKeptPace) {
    const kz::World world(kz::boxRoom(glm::vec3(10.0f)));
    const nlohmann::ordered_json report =
        kz::frameReport({}, 0, 0.0, world, "Empty", 1, {}, kz::PaceSummary{4, 0.31f, 17});
    EXPECT_EQ(report["threads"], 4);
    EXPECT_EQ(report["effective_time_scale"], 0.31) << "a float's shortest decimal";
    EXPECT_EQ(report["physics_behind_frames"], 17);
}

TEST(FrameReport, SaysHowTheFramesWereDrawn) {
    const kz::World world(kz::boxRoom(glm::vec3(10.0f)));
    const nlohmann::ordered_json report =
        kz::frameReport(kz::FrameTimes{}, 0, 0.0, world, "Empty", 1, kz::DrawSettings{4, false});
    EXPECT_EQ(report["msaa_samples"], 4);
    EXPECT_EQ(report["shadows"], false);
}

TEST(FrameReport, NoTimeNoFramesGivesZeroFps) {
    kz::World world(kz::boxRoom(glm::vec3(10.0f)));
    const nlohmann::ordered_json report = kz::frameReport(kz::FrameTimes{}, 0, 0.0, world, "Empty", 0);
    EXPECT_EQ(report["fps"].get<double>(), 0.0);
    EXPECT_EQ(report["ms_per_frame_median"].get<double>(), 0.0);
}

TEST(FrameReportFile, WritesTheReportIndentedToItsFile) {
    const std::string path = testing::TempDir() + "kz_frame_report.json";
    kz::FrameReportFile file;
    std::string error;
    ASSERT_TRUE(file.open(path, error)) << error;
    EXPECT_TRUE(file.enabled());
    nlohmann::ordered_json report;
    report["frames"] = 1;
    ASSERT_TRUE(file.write(report, error)) << error;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "{\n  \"frames\": 1\n}\n");
    std::remove(path.c_str());
}

TEST(FrameReportFile, WithoutATargetWritesNothingAndABadPathFailsAtOnce) {
    kz::FrameReportFile none;
    std::string error;
    EXPECT_TRUE(none.open("", error));
    EXPECT_FALSE(none.enabled());
    EXPECT_TRUE(none.write(nlohmann::ordered_json::object(), error));

    kz::FrameReportFile bad;
    EXPECT_FALSE(bad.open("/no/such/folder/report.json", error));
    EXPECT_EQ(error.rfind("--report: cannot write '/no/such/folder/report.json': ", 0), 0u) << error;
}

} // namespace
