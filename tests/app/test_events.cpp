// Tests for the event log (src/app/cli/events.hpp): the exact JSON lines the xdotool tests read.
#include "app/cli/events.hpp"
#include "app/lab/query.hpp"
#include "app/view/framing.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> lines(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::string> result;
    for (std::string line; std::getline(in, line);)
        result.push_back(line);
    return result;
}

class EventLogFile : public ::testing::Test {
protected:
    void SetUp() override {
        file_ = std::filesystem::temp_directory_path() /
                ("kolize_events_" + std::to_string(::getpid()) + ".jsonl");
    }
    void TearDown() override { std::filesystem::remove(file_); }
    std::filesystem::path file_;
};

TEST_F(EventLogFile, EveryEventIsOneFlushedLineWithFrameAndEventFirst) {
    kz::EventLog log;
    std::string error;
    ASSERT_TRUE(log.open(file_.string(), error)) << error;

    kz::Body body{};
    body.name = "red ball";
    body.shape = kz::ShapeType::Sphere;
    const kz::RayHit hit{12.5f, {0.1f, 0.0f, -1.0f}, {0.0f, 0.0f, 1.0f}};
    log.pick(3, &body, &hit);
    // Flushed at once: readable before the log is closed.
    ASSERT_EQ(lines(file_).size(), 1u);
    log.pick(4, nullptr, nullptr);
    log.simple(5, "pause");
    log.reset(6, "random", 18446744073709551615ull);
    log.cameraSpin(7, false);
    log.drag(8, true, "red ball");
    log.drag(9, false, "red ball");
    log.screenshot(10, "kolize-10.png");
    log.replayEnd(11, 1043, 0x0123456789abcdefull, true);
    log.quit(12, 0xfedcba9876543210ull, 1050);

    const std::vector<std::string> written = lines(file_);
    ASSERT_EQ(written.size(), 10u);
    EXPECT_EQ(written[0], R"({"frame":3,"event":"pick","body":"red ball","shape":"sphere","t":12.5,)"
                          R"("point":[0.1,0.0,-1.0],"normal":[0.0,0.0,1.0]})");
    EXPECT_EQ(written[1], R"({"frame":4,"event":"pick","body":null})");
    EXPECT_EQ(written[2], R"({"frame":5,"event":"pause"})");
    EXPECT_EQ(written[3], R"({"frame":6,"event":"reset","scenario":"random","seed":18446744073709551615})");
    EXPECT_EQ(written[4], R"({"frame":7,"event":"camera_spin","on":false})");
    EXPECT_EQ(written[5], R"({"frame":8,"event":"drag_start","body":"red ball"})");
    EXPECT_EQ(written[6], R"({"frame":9,"event":"drag_end","body":"red ball"})");
    EXPECT_EQ(written[7], R"({"frame":10,"event":"screenshot","file":"kolize-10.png"})");
    EXPECT_EQ(
        written[8],
        R"({"frame":11,"event":"replay_end","tick":1043,"state_hash":"0123456789abcdef","matches":true})");
    EXPECT_EQ(written[9], R"({"frame":12,"event":"quit","tick":1050,"state_hash":"fedcba9876543210"})");
    for (const std::string& line : written)
        EXPECT_TRUE(Json::accept(line)) << line;
}

TEST_F(EventLogFile, BoxPicksNameTheirShape) {
    kz::EventLog log;
    std::string error;
    ASSERT_TRUE(log.open(file_.string(), error));
    kz::Body box{};
    box.name = "crate";
    box.shape = kz::ShapeType::Box;
    const kz::RayHit hit{0.0f, {1.0f, 2.0f, 3.0f}, {-1.0f, 0.0f, 0.0f}};
    log.pick(0, &box, &hit);
    const Json line = Json::parse(lines(file_).at(0));
    EXPECT_EQ(line["shape"], "box");
    EXPECT_EQ(line["t"], 0.0);
}

TEST_F(EventLogFile, ObstaclePicksGiveBodyMinusOneTheObstacleTriangleAndBarycentrics) {
    kz::EventLog log;
    std::string error;
    ASSERT_TRUE(log.open(file_.string(), error));
    auto mesh = kz::MeshShape::make("meshes/tri.obj", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 1, 2}, error);
    ASSERT_NE(mesh, nullptr) << error;
    kz::ObstacleDesc desc;
    desc.name = "lamp";
    desc.mesh = mesh;
    const std::optional<kz::Obstacle> lamp = kz::makeObstacle(desc, error);
    ASSERT_TRUE(lamp.has_value()) << error;
    kz::PickHit hit{-1, kz::RayHit{2.5f, {0.25f, 0.5f, 0.0f}, {0.0f, 0.0f, 1.0f}}};
    hit.obstacle = 3;
    hit.triangle = 0;
    hit.u = 0.25f;
    hit.v = 0.5f;
    log.pickObstacle(7, *lamp, hit);
    ASSERT_EQ(lines(file_).size(), 1u);
    EXPECT_EQ(lines(file_)[0],
              R"({"frame":7,"event":"pick","body":null,"obstacle":"lamp","obstacle_index":3,"shape":"mesh",)"
              R"("mesh":"meshes/tri.obj","triangle":0,"u":0.25,"v":0.5,"t":2.5,)"
              R"("point":[0.25,0.5,0.0],"normal":[0.0,0.0,1.0]})");
}

TEST_F(EventLogFile, PickNumbersAreTheShortestDecimalsOfTheirFloats) {
    kz::EventLog log;
    std::string error;
    ASSERT_TRUE(log.open(file_.string(), error)) << error;
    kz::Body body{};
    body.name = "ball";
    // nlohmann's dump() writes the double nearest -0.000605667 as -0.0006056669999999999.
    const kz::RayHit hit{2.25f, {1.5f, -0.000605667f, 3.0f}, {-0.000605667f, 0.0f, 1.0f}};
    log.pick(2, &body, &hit);
    EXPECT_EQ(lines(file_).at(0), R"({"frame":2,"event":"pick","body":"ball","shape":"sphere","t":2.25,)"
                                  R"("point":[1.5,-0.000605667,3.0],"normal":[-0.000605667,0.0,1.0]})");
}

TEST_F(EventLogFile, LabLinesNameTheQueryItsVerdictAsHitOrOverlapAndItsNumbers) {
    kz::EventLog log;
    std::string error;
    ASSERT_TRUE(log.open(file_.string(), error)) << error;
    kz::LabResult apart;
    apart.numbers = {{"separation", 0.3f}};
    kz::LabResult overlap;
    overlap.positive = true;
    overlap.numbers = {{"depth", 0.12f}};
    kz::LabResult miss;
    miss.isHit = true;
    kz::LabResult hit = miss;
    hit.positive = true;
    hit.numbers = {{"t", 0.43f}, {"u", 0.25f}};
    kz::logLabResult(log, 1, "box-box", apart);
    kz::logLabResult(log, 2, "box-box", overlap);
    kz::logLabResult(log, 3, "ray-triangle", miss);
    kz::logLabResult(log, 4, "ray-triangle", hit);
    const std::vector<std::string> written = lines(file_);
    ASSERT_EQ(written.size(), 4u);
    EXPECT_EQ(written[0], R"({"frame":1,"event":"lab","query":"box-box","overlap":false,"separation":0.3})");
    EXPECT_EQ(written[1], R"({"frame":2,"event":"lab","query":"box-box","overlap":true,"depth":0.12})");
    EXPECT_EQ(written[2], R"({"frame":3,"event":"lab","query":"ray-triangle","hit":false})");
    EXPECT_EQ(written[3], R"({"frame":4,"event":"lab","query":"ray-triangle","hit":true,"t":0.43,"u":0.25})");
}

TEST_F(EventLogFile, ViewGivesTheWindowAndItsFreePartAndShadowsTheirSwitch) {
    kz::EventLog log;
    std::string error;
    ASSERT_TRUE(log.open(file_.string(), error)) << error;
    const kz::ScreenRect free{{368.0f, 0.0f}, {1280.0f, 720.0f}};
    log.view(0, {1280, 720}, free.min, free.size());
    log.shadows(4, false);
    const std::vector<std::string> written = lines(file_);
    ASSERT_EQ(written.size(), 2u);
    EXPECT_EQ(written[0], R"({"frame":0,"event":"view","window":[1280,720],"free":[368.0,0.0,912.0,720.0]})");
    EXPECT_EQ(written[1], R"({"frame":4,"event":"shadows","on":false})");
}

TEST_F(EventLogFile, PaceLinesSayBehindOrNotWithTheScalesTheLoadAndTheThreads) {
    kz::EventLog log;
    std::string error;
    ASSERT_TRUE(log.open(file_.string(), error)) << error;
    log.pace(90, true, 0.31f, 1.0, 2.4f, 1);
    log.pace(120, false, 0.98f, 1.0, 0.45f, 2);
    const std::vector<std::string> written = lines(file_);
    ASSERT_EQ(written.size(), 2u);
    EXPECT_EQ(
        written[0],
        R"({"frame":90,"event":"pace","behind":true,"time_scale":0.31,"asked":1.0,"physics_load":2.4,"threads":1})");
    EXPECT_EQ(
        written[1],
        R"({"frame":120,"event":"pace","behind":false,"time_scale":0.98,"asked":1.0,"physics_load":0.45,"threads":2})");
}

TEST(EventLog, UnwritablePathIsAnErrorNamingIt) {
    kz::EventLog log;
    std::string error;
    EXPECT_FALSE(log.open("/nonexistent-dir/events.jsonl", error));
    EXPECT_NE(error.find("/nonexistent-dir/events.jsonl"), std::string::npos) << error;
    EXPECT_FALSE(log.enabled());
}

TEST(EventLog, ClosedLogWritesNothingAndDoesNotFail) {
    kz::EventLog log;
    EXPECT_FALSE(log.enabled());
    log.simple(0, "pause");
    log.pick(0, nullptr, nullptr);
}

TEST(ShortestDouble, WritesFloatsAsTheirShortestDecimal) {
    EXPECT_EQ(kz::shortestDouble(0.1f), 0.1);
    EXPECT_EQ(kz::shortestDouble(-2.5f), -2.5);
    EXPECT_EQ(kz::shortestDouble(13.500797f), 13.500797);
}

TEST_F(EventLogFile, ImpactLinesGiveTheStepTimeBodyPartnerSpeedsAndImpulse) {
    kz::EventLog log;
    std::string error;
    ASSERT_TRUE(log.open(file_.string(), error)) << error;
    // A ball 1 cm from the wall x = 5 at 2 m/s: 5 ms into the first step.
    kz::World world(kz::boxRoom(glm::vec3(10.0f)));
    kz::BodyDesc d;
    d.name = "red ball";
    d.position = {4.49f, 0, 0};
    d.velocity = {2, 0, 0};
    d.mass = 1.0f;
    world.addBody(d);
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    const kz::ImpactRecord& r = world.impacts()[0];
    log.impact(12, world, r);
    log.jumpToImpact(13, world, r);
    const std::vector<std::string> written = lines(file_);
    ASSERT_EQ(written.size(), 2u);
    const Json line = Json::parse(written[0]);
    std::vector<std::string> keys;
    for (const auto& item : line.items())
        keys.push_back(item.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"frame", "event", "step", "time", "body", "body_index",
                                              "partner", "partner_kind", "partner_index", "point", "normal",
                                              "speed_before", "speed_after", "impulse"}));
    EXPECT_EQ(line["event"], "impact");
    EXPECT_EQ(line["step"], 1);
    EXPECT_NEAR(line["time"].get<double>(), 0.005, 1e-6);
    EXPECT_EQ(line["body"], "red ball");
    EXPECT_EQ(line["partner"], "wall " + std::to_string(r.partner.index));
    EXPECT_EQ(line["partner_kind"], "wall");
    EXPECT_EQ(line["speed_before"], -2.0);
    EXPECT_EQ(line["speed_after"], 2.0);
    EXPECT_EQ(line["impulse"], 4.0);
    EXPECT_EQ(line["normal"], Json::parse("[-1.0, 0.0, 0.0]"));
    const Json jump = Json::parse(written[1]);
    EXPECT_EQ(jump["event"], "jump_to_impact");
    EXPECT_EQ(jump["frame"], 13);
    EXPECT_EQ(jump["step"], line["step"]);
}

} // namespace
