// Tests for the kolize executable's headless mode: runHeadless and firstNonFinite on worlds built
// here, then the built binary itself (flags, exit codes, the report), run with DISPLAY unset:
// each flag's bad values, the flags that cannot go together and the defaults --help shows.
// Nothing here needs a display.
#include "app/cli/headless.hpp"
#include "app/window/app.hpp"
#include "physics/job_system.hpp"
#include "physics/state_hash.hpp"
#include "session/recording.hpp"
#include "support/small_world.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>
#include <vector>

#ifndef KOLIZE_EXE
#error "KOLIZE_EXE (the path of the built kolize binary) must be defined"
#endif

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

const std::vector<std::string> kReportKeys = {"scenario",
                                              "seed",
                                              "steps",
                                              "sim_seconds",
                                              "ms_per_step_median",
                                              "kinetic_energy_start",
                                              "kinetic_energy_end",
                                              "momentum_start",
                                              "momentum_end",
                                              "max_penetration",
                                              "escaped",
                                              "event_cap",
                                              "advance_cap",
                                              "capped_steps",
                                              "state_hash",
                                              "bodies",
                                              "obstacles"};
const std::vector<std::string> kBodyKeys = {"name",        "shape",    "position",
                                            "orientation", "velocity", "angular_velocity"};

std::vector<std::string> keysOf(const Json& object) {
    std::vector<std::string> keys;
    for (const auto& item : object.items())
        keys.push_back(item.key());
    return keys;
}

using kz::test::smallWorld;

// ---------------------------------------------------------------- runHeadless

TEST(RunHeadless, ReportHasEveryKeyInOrder) {
    kz::World world = smallWorld();
    const Json report = kz::runHeadless(world, {"small", 42, 120});
    EXPECT_EQ(keysOf(report), kReportKeys);
    EXPECT_EQ(report["scenario"], "small");
    EXPECT_EQ(report["seed"], 42u);
    EXPECT_EQ(report["steps"], 120u);
    EXPECT_EQ(report["sim_seconds"].get<double>(), 1.0);
    EXPECT_GE(report["ms_per_step_median"].get<double>(), 0.0);
    EXPECT_EQ(report["momentum_start"].size(), 3u);
    EXPECT_EQ(report["momentum_end"].size(), 3u);
    EXPECT_EQ(report["escaped"], 0);
    EXPECT_EQ(report["event_cap"], 8 * 3 + 64);
    EXPECT_EQ(report["advance_cap"], 64 * 3 + 4096);
    EXPECT_EQ(report["capped_steps"], 0u);
    ASSERT_EQ(report["bodies"].size(), 3u);
    for (const Json& body : report["bodies"]) {
        EXPECT_EQ(keysOf(body), kBodyKeys);
        EXPECT_EQ(body["position"].size(), 3u);
        EXPECT_EQ(body["orientation"].size(), 4u);
        EXPECT_EQ(body["velocity"].size(), 3u);
        EXPECT_EQ(body["angular_velocity"].size(), 3u);
    }
    EXPECT_EQ(report["bodies"][0]["name"], "left");
    EXPECT_EQ(report["bodies"][0]["shape"], "sphere");
    EXPECT_EQ(report["bodies"][2]["name"], "box");
    EXPECT_EQ(report["bodies"][2]["shape"], "box");
    EXPECT_FALSE(kz::firstNonFinite(report).has_value());
}

TEST(RunHeadless, ObstaclesAreListedWithTheirMeshAndTriangleCount) {
    kz::World world = smallWorld();
    EXPECT_EQ(kz::runHeadless(world, {"small", 0, 0})["obstacles"], Json::array());

    // A unit square of two triangles, placed high above the bodies.
    std::string error;
    auto mesh = kz::MeshShape::make("square.obj", {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}},
                                    {0, 2, 1, 0, 3, 2}, error);
    ASSERT_NE(mesh, nullptr) << error;
    kz::ObstacleDesc desc;
    desc.name = "shelf";
    desc.mesh = mesh;
    desc.position = {-0.5f, 4.5f, -0.5f};
    auto obstacle = kz::makeObstacle(desc, error);
    ASSERT_TRUE(obstacle.has_value()) << error;
    world.addObstacle(std::move(*obstacle));
    const Json report = kz::runHeadless(world, {"small", 0, 3});
    EXPECT_EQ(keysOf(report), kReportKeys);
    EXPECT_EQ(report["obstacles"].dump(), R"([{"name":"shelf","mesh":"square.obj","triangles":2}])");
}

TEST(RunHeadless, TakesExactlyTheRequestedSteps) {
    kz::World world = smallWorld();
    kz::runHeadless(world, {"small", 0, 37});
    EXPECT_EQ(world.stepCount(), 37u);
}

TEST(RunHeadless, ReportsTheFinalStateOfTheWorld) {
    kz::World world = smallWorld();
    const Json report = kz::runHeadless(world, {"small", 0, 50});
    const kz::Body& box = world.bodies()[2];
    const Json& reported = report["bodies"][2];
    EXPECT_FLOAT_EQ(reported["position"][1].get<float>(), box.position.y);
    EXPECT_FLOAT_EQ(reported["orientation"][0].get<float>(), box.orientation.w);
    EXPECT_FLOAT_EQ(reported["orientation"][2].get<float>(), box.orientation.y);
    EXPECT_FLOAT_EQ(reported["angular_velocity"][1].get<float>(), box.angularVelocity.y);
    EXPECT_DOUBLE_EQ(report["kinetic_energy_end"].get<double>(), world.kineticEnergy());
    EXPECT_DOUBLE_EQ(report["momentum_end"][0].get<double>(), world.linearMomentum().x);
}

TEST(RunHeadless, TheStateHashIsTheFinalWorldsAsSixteenHexDigits) {
    kz::World world = smallWorld();
    const Json report = kz::runHeadless(world, {"small", 0, 50});
    EXPECT_EQ(report["state_hash"], kz::stateHashText(kz::stateHash(world)));
    EXPECT_EQ(report["state_hash"].get<std::string>().find_first_not_of("0123456789abcdef"),
              std::string::npos);
    EXPECT_EQ(report["state_hash"].get<std::string>().size(), 16u);
}

TEST(RunHeadless, SimSecondsCountsTheTimeStepAsWritten) {
    for (const auto& [timeStep, steps, seconds] :
         {std::tuple{1.0f / 120.0f, 1200u, 10.0}, std::tuple{1.0f / 60.0f, 90u, 1.5},
          std::tuple{0.01f, 250u, 2.5}, std::tuple{0.003f, 1000u, 3.0}}) {
        SCOPED_TRACE(timeStep);
        kz::WorldSettings settings;
        settings.timeStep = timeStep;
        kz::World world(kz::boxRoom({4.0f, 4.0f, 4.0f}), settings);
        const Json report = kz::runHeadless(world, {"clock", 0, steps});
        EXPECT_EQ(report["sim_seconds"].get<double>(), seconds);
    }
}

TEST(RunHeadless, ZeroStepsReportsTheInitialState) {
    kz::World world = smallWorld();
    const Json report = kz::runHeadless(world, {"small", 0, 0});
    EXPECT_EQ(report["steps"], 0u);
    EXPECT_EQ(report["sim_seconds"].get<double>(), 0.0);
    EXPECT_EQ(report["ms_per_step_median"].get<double>(), 0.0);
    EXPECT_EQ(report["kinetic_energy_start"], report["kinetic_energy_end"]);
    EXPECT_EQ(report["momentum_start"], report["momentum_end"]);
    EXPECT_EQ(report["bodies"][0]["position"], Json::array({-2.0, 0.0, 0.0}));
    EXPECT_EQ(report["bodies"][0]["orientation"], Json::array({1.0, 0.0, 0.0, 0.0}));
}

TEST(RunHeadless, FloatsAreWrittenAsTheirShortestDecimal) {
    kz::World world(kz::boxRoom({10.0f, 10.0f, 10.0f}));
    kz::BodyDesc ball;
    ball.name = "ball";
    ball.position = {0.1f, -0.3f, 1.7f};
    ball.velocity = {0.2f, 0.0f, 0.0f};
    world.addBody(ball);
    const Json report = kz::runHeadless(world, {"shortest", 0, 0});
    EXPECT_EQ(report["bodies"][0]["position"].dump(), "[0.1,-0.3,1.7]");
    EXPECT_EQ(report["bodies"][0]["velocity"].dump(), "[0.2,0.0,0.0]");
}

TEST(RunHeadless, NonFiniteStateReachesTheReport) {
    kz::World world = smallWorld();
    kz::Body broken = world.bodies()[1];
    broken.velocity.y = std::numeric_limits<float>::quiet_NaN();
    world.setBody(1, broken);
    const Json report = kz::runHeadless(world, {"broken", 0, 0});
    EXPECT_TRUE(kz::firstNonFinite(report).has_value());
    EXPECT_TRUE(std::isnan(report["bodies"][1]["velocity"][1].get<double>()));
}

// ---------------------------------------------------------------- runHeadlessReplay

/// A session on the built-in `key`, driven by a few inputs of every kind and a reset, `ticks` steps.
kz::Session drivenSession(const std::string& key = "two-balls", std::uint64_t ticks = 300) {
    std::string error;
    const auto scenario = kz::readSessionScenario(key, error);
    EXPECT_TRUE(scenario) << error;
    std::optional<kz::Session> session = kz::Session::start(kz::loadWithSeed(scenario, std::nullopt), error);
    EXPECT_TRUE(session) << error;
    for (std::uint64_t tick = 0; tick < ticks; ++tick) {
        std::string applied;
        if (tick == 10)
            applied = session->apply(kz::SetBodyVelocity{0, {3.0f, 1.0f, 0.5f}, {0.0f, 2.0f, 0.0f}});
        if (tick == 40) applied = session->apply(kz::SetMaterial{0.6f, 0.3f, 0.01f});
        if (tick == 80) applied = session->apply(kz::SetGravity{{0.0f, -9.81f, 0.0f}});
        if (tick == 120)
            applied = session->apply(kz::loadWithSeed(kz::readSessionScenario("random", error), 5));
        if (tick == 200) applied = session->apply(kz::SetBodyVelocity{3, {-2.0f, 0.0f, 1.0f}, {}});
        EXPECT_EQ(applied, "") << "tick " << tick;
        session->step();
    }
    EXPECT_EQ(session->apply(kz::SetPaused{true}), "");
    return std::move(*session);
}

TEST(RunHeadlessReplay, EndsInTheRecordedStateWithTheReportOfARun) {
    const kz::Session session = drivenSession();
    const kz::HeadlessReplay replay = kz::runHeadlessReplay(kz::recordingOf(session));
    ASSERT_EQ(replay.error, "");
    EXPECT_EQ(replay.verdict, "");
    const Json& report = replay.report;
    EXPECT_EQ(keysOf(report), kReportKeys);
    EXPECT_EQ(report["steps"], 300u);
    EXPECT_EQ(report["scenario"], session.scenario().scenario.name);
    EXPECT_EQ(report["seed"], 5u);
    EXPECT_EQ(report["state_hash"], kz::stateHashText(kz::stateHash(session.world())));
    EXPECT_EQ(report["bodies"].size(), session.world().bodies().size());
    // Twice: the same report, but for the timing.
    kz::HeadlessReplay again = kz::runHeadlessReplay(kz::recordingOf(session));
    again.report["ms_per_step_median"] = report["ms_per_step_median"];
    EXPECT_EQ(again.report, report);
}

TEST(RunHeadlessReplay, AnotherEndIsAVerdictAndABadInputAnErrorNamingItsLine) {
    kz::Recording recording = kz::recordingOf(drivenSession());
    recording.stateHash += 1;
    const kz::HeadlessReplay diverged = kz::runHeadlessReplay(recording);
    EXPECT_EQ(diverged.error, "");
    EXPECT_EQ(diverged.verdict.rfind("(recording): replay diverged: state_hash ", 0), 0u) << diverged.verdict;

    recording.inputs.insert(recording.inputs.begin() + 1, kz::TimedInput{5, kz::SetBodyVelocity{7, {}, {}}});
    recording.source = "x.kzr";
    recording.lines = {2, 3, 4, 5, 6, 7, 8, 9};
    const kz::HeadlessReplay broken = kz::runHeadlessReplay(recording);
    EXPECT_EQ(broken.error, "x.kzr:3: velocity: body 7 is out of range (the world has 2 bodies)");
}

// ---------------------------------------------------------------- firstNonFinite

TEST(FirstNonFinite, FiniteJsonHasNone) {
    const Json json = {{"a", 1.5}, {"b", Json::array({1, 2.0, "x"})}, {"c", {{"d", -0.0}}}};
    EXPECT_FALSE(kz::firstNonFinite(json).has_value());
}

TEST(FirstNonFinite, NamesThePathOfTheFirstNaN) {
    Json json = {{"steps", 3}, {"bodies", Json::array()}};
    json["bodies"].push_back({{"velocity", Json::array({0.0, 1.0, 2.0})}});
    json["bodies"].push_back({{"velocity", Json::array({0.0, std::nan(""), 2.0})}});
    EXPECT_EQ(kz::firstNonFinite(json), "bodies[1].velocity[1]");
}

TEST(FirstNonFinite, FindsInfinityAtTheTopLevel) {
    const Json json = {{"kinetic_energy_end", std::numeric_limits<double>::infinity()}};
    EXPECT_EQ(kz::firstNonFinite(json), "kinetic_energy_end");
    EXPECT_EQ(kz::firstNonFinite(Json(-std::numeric_limits<double>::infinity())), "(the report)");
}

// ---------------------------------------------------------------- the kolize binary

struct Outcome {
    int exitCode = -1;
    std::string out;
    std::string err;
};

std::string readFile(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// A fresh directory for one test's files, removed at the end of the test.
class KolizeCli : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               ("kolize_test_" + std::to_string(::getpid()) + "_" + std::string(info->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    /// Runs kolize with `args` (shell words) and no display: DISPLAY and WAYLAND_DISPLAY unset.
    Outcome kolize(const std::string& args) {
        const fs::path out = dir_ / "stdout.txt";
        const fs::path err = dir_ / "stderr.txt";
        const std::string command = "env -u DISPLAY -u WAYLAND_DISPLAY '" + std::string(KOLIZE_EXE) + "' " +
                                    args + " >'" + out.string() + "' 2>'" + err.string() + "'";
        const int status = std::system(command.c_str());
        Outcome run;
        run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        run.out = readFile(out);
        run.err = readFile(err);
        return run;
    }

    fs::path dir_;
};

/// One line: "kolize: ..." ending in a single newline.
void expectOneErrorLine(const Outcome& run) {
    EXPECT_EQ(run.err.rfind("kolize: ", 0), 0u) << run.err;
    ASSERT_FALSE(run.err.empty());
    EXPECT_EQ(run.err.back(), '\n');
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
}

void expectAllNumbersFiniteAndNoNulls(const Json& json, const std::string& path = "") {
    EXPECT_FALSE(json.is_null()) << "null at " << path;
    if (json.is_number_float()) {
        EXPECT_TRUE(std::isfinite(json.get<double>())) << path;
    }
    if (json.is_structured()) {
        for (const auto& item : json.items())
            expectAllNumbersFiniteAndNoNulls(item.value(), path + "/" + item.key());
    }
}

TEST_F(KolizeCli, HelpExitsZeroAndDocumentsEveryFlag) {
    const Outcome run = kolize("--help");
    EXPECT_EQ(run.exitCode, 0);
    for (const char* flag :
         {"--headless", "--scenario", "--seed", "--steps", "--report", "--help", "--size", "--paused",
          "--no-spin", "--frames", "--screenshot", "--events", "--no-vsync", "--threads"}) {
        EXPECT_NE(run.out.find(flag), std::string::npos) << flag << " is not in:\n" << run.out;
    }
    EXPECT_TRUE(run.err.empty()) << run.err;
}

TEST_F(KolizeCli, UnknownFlagIsOneLineAndExitCodeTwo) {
    const Outcome run = kolize("--headless --bogus");
    EXPECT_EQ(run.exitCode, 2);
    expectOneErrorLine(run);
    EXPECT_NE(run.err.find("--bogus"), std::string::npos) << run.err;
}

TEST_F(KolizeCli, BadValuesAreOneLineAndExitCodeTwo) {
    for (const char* args :
         {"--steps -3", "--steps abc", "--steps 1.5", "--steps ''", "--steps 0x10", "--steps 99999999999",
          "--seed x", "--seed -1", "--seed 18446744073709551616", "--steps", "--scenario"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(std::string("--headless ") + args);
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
    }
}

TEST_F(KolizeCli, BadThreadCountsAreOneLineNamingTheFlagAndExitCodeTwo) {
    for (const char* value : {"0", "-2", "two", "1.5", "''", "257", "99999999999"}) {
        for (const char* mode : {"--headless ", "", "--headless --replay none.kzr "}) {
            SCOPED_TRACE(std::string(mode) + "--threads " + value);
            const Outcome run = kolize(std::string(mode) + "--threads " + value);
            EXPECT_EQ(run.exitCode, 2);
            expectOneErrorLine(run);
            EXPECT_NE(run.err.find("--threads"), std::string::npos) << run.err;
        }
    }
}

TEST_F(KolizeCli, EveryThreadCountGivesTheSameReport) {
    // The report without its timing line: the same text, bit for bit, on 1, 2 and 4 threads.
    std::string first;
    for (const char* threads : {"1", "2", "4"}) {
        SCOPED_TRACE(std::string("--threads ") + threads);
        const Outcome run =
            kolize(std::string("--headless --scenario mesh-playground --steps 400 --threads ") + threads);
        ASSERT_EQ(run.exitCode, 0) << run.err;
        Json report = Json::parse(run.out);
        report.erase("ms_per_step_median");
        if (first.empty()) {
            first = report.dump();
        } else {
            EXPECT_EQ(report.dump(), first);
        }
    }
}

TEST_F(KolizeCli, BadStepsMessageNamesTheFlagAndTheValue) {
    const Outcome run = kolize("--headless --steps -3");
    EXPECT_NE(run.err.find("--steps"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("-3"), std::string::npos) << run.err;
}

TEST_F(KolizeCli, MissingScenarioFileIsOneLineNamingTheFile) {
    const fs::path missing = dir_ / "no_such_scenario.json";
    const Outcome run = kolize("--headless --scenario '" + missing.string() + "'");
    EXPECT_EQ(run.exitCode, 2);
    expectOneErrorLine(run);
    EXPECT_NE(run.err.find("no_such_scenario.json"), std::string::npos) << run.err;
}

TEST_F(KolizeCli, UnknownScenarioNameIsOneLineAndExitCodeTwo) {
    const Outcome run = kolize("--headless --scenario no-such-scenario");
    EXPECT_EQ(run.exitCode, 2);
    expectOneErrorLine(run);
    EXPECT_NE(run.err.find("no-such-scenario"), std::string::npos) << run.err;
}

TEST_F(KolizeCli, InvalidScenarioFileIsOneLineAndExitCodeTwo) {
    const fs::path file = dir_ / "broken.json";
    std::ofstream(file) << "{ \"name\": \"broken\", \n";
    const Outcome run = kolize("--headless --scenario '" + file.string() + "'");
    EXPECT_EQ(run.exitCode, 2);
    expectOneErrorLine(run);
    EXPECT_NE(run.err.find("broken.json"), std::string::npos) << run.err;
}

TEST_F(KolizeCli, ACameraOutsideItsRangeIsOneLineNamingTheFileAndThePointerAndExitCodeTwo) {
    const fs::path file = dir_ / "far.json";
    std::ofstream(file)
        << R"({"name": "far", "size": [10, 10, 10], "camera": {"eye": [0, 1e20, 0], "target": [0, 0, 0]}})";
    const Outcome run = kolize("--headless --scenario '" + file.string() + "'");
    EXPECT_EQ(run.exitCode, 2);
    expectOneErrorLine(run);
    EXPECT_NE(run.err.find(file.string() + ": /camera/eye/1: must be in [-4000, 4000] m, got 1e+20"),
              std::string::npos)
        << run.err;
}

TEST_F(KolizeCli, WithoutHeadlessAndNoDisplayIsOneLineAndExitCodeTwo) {
    for (const char* args : {"", "--frames 10", "--scenario deterministic --paused"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(args);
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_EQ(run.err.rfind("kolize: no display: ", 0), 0u) << run.err;
        EXPECT_NE(run.err.find("(use --headless to run without a window)"), std::string::npos) << run.err;
    }
}

TEST_F(KolizeCli, BadWindowFlagsAreOneLineAndExitCodeTwoBeforeLookingForADisplay) {
    for (const char* args :
         {"--size 0x10", "--size abc", "--size 640x", "--size 10x-5", "--size 100000x100", "--frames 0",
          "--frames -1", "--frames abc", "--seed x", "--steps 10", "--scenario no-such-scenario"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(args);
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_EQ(run.err.find("no display"), std::string::npos) << run.err;
    }
}

TEST_F(KolizeCli, WindowFlagsWithHeadlessAreOneLineAndExitCodeTwo) {
    for (const char* args : {"--size 640x480", "--paused", "--no-spin", "--frames 5", "--screenshot x.png",
                             "--events -", "--no-vsync"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(std::string("--headless ") + args);
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_NE(run.err.find("--headless"), std::string::npos) << run.err;
    }
}

TEST_F(KolizeCli, AnUnknownLabQueryIsOneLineNamingItAndTheQueriesWithExitCode2) {
    for (const char* args : {"--lab nope", "--lab box-boxx --frames 5", "--lab=Box-Box"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(args);
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_EQ(run.err.rfind("kolize: --lab: unknown query '", 0), 0u) << run.err;
        EXPECT_NE(run.err.find("box-box, box-plane"), std::string::npos) << run.err;
        EXPECT_EQ(run.err.find("no display"), std::string::npos) << run.err;
    }
    // A known query, or none (box-box), is for the window: without a display, the usual line.
    for (const char* args : {"--lab", "--lab ray-mesh", "--lab --frames 5"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(args);
        EXPECT_EQ(run.exitCode, 2);
        EXPECT_EQ(run.err.rfind("kolize: no display: ", 0), 0u) << run.err;
    }
    const Outcome headless = kolize("--headless --lab box-box");
    EXPECT_EQ(headless.exitCode, 2);
    expectOneErrorLine(headless);
    EXPECT_NE(headless.err.find("--lab"), std::string::npos) << headless.err;
    EXPECT_NE(kolize("--help").out.find("--lab [QUERY]"), std::string::npos);
}

TEST_F(KolizeCli, ShadowMultisamplingAndUiScaleFlagsAreCheckedAndBelongToTheWindow) {
    const Outcome help = kolize("--help");
    for (const char* flag : {"--no-shadows", "--msaa", "--ui-scale"})
        EXPECT_NE(help.out.find(flag), std::string::npos) << flag << " is not in:\n" << help.out;
    // Bad values: one line naming the flag and the value, before any display is looked for.
    for (const char* args :
         {"--msaa 17", "--msaa -1", "--msaa x", "--msaa ''", "--ui-scale 0.4", "--ui-scale 5",
          "--ui-scale abc", "--ui-scale 1e0", "--ui-scale nan", "--ui-scale ''"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(args);
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_EQ(run.err.find("no display"), std::string::npos) << run.err;
        const std::string flag = std::string(args).substr(0, std::string(args).find(' '));
        EXPECT_NE(run.err.find(flag), std::string::npos) << run.err;
    }
    for (const char* args : {"--no-shadows", "--msaa 4", "--msaa auto", "--ui-scale 2"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(std::string("--headless ") + args);
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_NE(run.err.find("--headless"), std::string::npos) << run.err;
    }
}

TEST_F(KolizeCli, DeterministicRunWritesACompleteReport) {
    const Outcome run = kolize("--headless --scenario deterministic --steps 1200");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(run.err.empty()) << run.err;
    const Json report = Json::parse(run.out); // the whole of stdout is one JSON object
    EXPECT_EQ(keysOf(report), kReportKeys);
    EXPECT_EQ(report["steps"], 1200u);
    EXPECT_EQ(report["sim_seconds"].get<double>(), 10.0);
    EXPECT_EQ(report["escaped"], 0);
    expectAllNumbersFiniteAndNoNulls(report);
    EXPECT_GE(report["max_penetration"].get<double>(), 0.0);
    EXPECT_GT(report["ms_per_step_median"].get<double>(), 0.0);
    const double energyStart = report["kinetic_energy_start"].get<double>();
    const double energyEnd = report["kinetic_energy_end"].get<double>();
    EXPECT_GT(energyStart, 0.0);
    EXPECT_LE(std::abs(energyEnd - energyStart), 1e-3 * energyStart)
        << "start " << energyStart << ", end " << energyEnd;
    ASSERT_FALSE(report["bodies"].empty());
    for (const Json& body : report["bodies"])
        EXPECT_EQ(keysOf(body), kBodyKeys);
}

/// Every number with a fraction or an exponent in JSON text (outside strings).
std::vector<std::string> fractionalNumbers(const std::string& text) {
    std::vector<std::string> numbers;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '"') { // skip the string, escapes included
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            ++i;
        } else if (text[i] == '-' || std::isdigit(static_cast<unsigned char>(text[i]))) {
            const std::size_t end = text.find_first_not_of("0123456789+-.eE", i);
            const std::string number = text.substr(i, end - i);
            if (number.find_first_of(".eE") != std::string::npos) numbers.push_back(number);
            i = end;
        } else {
            ++i;
        }
    }
    return numbers;
}

TEST_F(KolizeCli, ReportNumbersAreTheirShortestRoundTripDecimals) {
    // nlohmann's dump() writes the double nearest -0.000605667 as -0.0006056669999999999.
    const fs::path file = dir_ / "shortest.json";
    std::ofstream(file) << R"({"name": "shortest", "size": [10, 10, 10], "gravity": [0, 0, 0], "bodies": [)"
                        << R"({"name": "ball 1", "shape": "sphere", "radius": 0.5,)"
                        << R"( "position": [-0.000605667, 0.5, 1], "velocity": [0.1, 0, 0]}]})";
    const Outcome run = kolize("--headless --steps 0 --scenario '" + file.string() + "'");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.out.find("-0.000605667,"), std::string::npos) << run.out;

    const Outcome longer = kolize("--headless --scenario deterministic --steps 120");
    ASSERT_EQ(longer.exitCode, 0) << longer.err;
    for (const std::string& text : {run.out, longer.out}) {
        for (const std::string& number : fractionalNumbers(text)) {
            char shortest[32];
            const auto written = std::to_chars(shortest, shortest + sizeof shortest, std::stod(number));
            std::string want(shortest, written.ptr);
            if (want.find_first_of(".e") == std::string::npos) want += ".0";
            EXPECT_EQ(number, want);
        }
    }
}

TEST_F(KolizeCli, LampArchReportListsTheLampMesh) {
    const Outcome run = kolize("--headless --scenario lamp-arch --steps 240");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const Json report = Json::parse(run.out);
    EXPECT_EQ(keysOf(report), kReportKeys);
    ASSERT_EQ(report["obstacles"].size(), 1u) << report.dump();
    EXPECT_EQ(report["obstacles"][0]["name"], "lamp");
    EXPECT_EQ(report["obstacles"][0]["mesh"], "meshes/arch.obj");
    EXPECT_EQ(report["obstacles"][0]["triangles"], 3200);
    EXPECT_EQ(report["bodies"].size(), 2u);
    EXPECT_EQ(report["escaped"], 0);
}

TEST_F(KolizeCli, DefaultsAreTwoBallsFor1200Steps) {
    const Outcome run = kolize("--headless");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const Json report = Json::parse(run.out);
    EXPECT_EQ(report["steps"], 1200u);
    EXPECT_EQ(report["bodies"].size(), 2u);
}

TEST_F(KolizeCli, ReportFlagWritesTheFile) {
    const fs::path file = dir_ / "report.json";
    const Outcome run =
        kolize("--headless --scenario deterministic --steps 30 --report '" + file.string() + "'");
    ASSERT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out;
    ASSERT_TRUE(fs::exists(file));
    const Json report = Json::parse(readFile(file));
    EXPECT_EQ(keysOf(report), kReportKeys);
    EXPECT_EQ(report["steps"], 30u);
}

TEST_F(KolizeCli, UnwritableReportPathIsOneLineAndExitCodeTwo) {
    const fs::path file = dir_ / "no_such_dir" / "report.json";
    const Outcome run = kolize("--headless --steps 5 --report '" + file.string() + "'");
    EXPECT_EQ(run.exitCode, 2);
    expectOneErrorLine(run);
    EXPECT_NE(run.err.find("report.json"), std::string::npos) << run.err;
}

TEST_F(KolizeCli, SameSeedTwiceGivesIdenticalBodies) {
    for (const char* scenario : {"deterministic", "two-balls", "random"}) {
        SCOPED_TRACE(scenario);
        const std::string args =
            std::string("--headless --scenario ") + scenario + " --seed 12345 --steps 600";
        const Outcome first = kolize(args);
        const Outcome second = kolize(args);
        ASSERT_EQ(first.exitCode, 0) << first.err;
        ASSERT_EQ(second.exitCode, 0) << second.err;
        const Json a = Json::parse(first.out);
        const Json b = Json::parse(second.out);
        EXPECT_EQ(a["seed"], 12345u);
        EXPECT_EQ(a["bodies"].dump(), b["bodies"].dump());
        EXPECT_EQ(a["kinetic_energy_end"], b["kinetic_energy_end"]);
    }
}

TEST_F(KolizeCli, DifferentSeedsScatterRandomBodiesDifferently) {
    const Outcome first = kolize("--headless --scenario random --seed 1 --steps 0");
    const Outcome second = kolize("--headless --scenario random --seed 2 --steps 0");
    ASSERT_EQ(first.exitCode, 0) << first.err;
    ASSERT_EQ(second.exitCode, 0) << second.err;
    const Json a = Json::parse(first.out);
    const Json b = Json::parse(second.out);
    EXPECT_EQ(a["seed"], 1u);
    EXPECT_EQ(b["seed"], 2u);
    EXPECT_NE(a["bodies"].dump(), b["bodies"].dump());
}

TEST_F(KolizeCli, HostileScenariosAreRefusedWithOneLineNamingTheKeyAndTheRange) {
    struct Case {
        const char* text;
        const char* message;
    };
    const Case cases[] = {
        {R"({"name": "T", "size": [1, 1, 1020000]})", ": /size/2: must be in [0.01, 2000] m, got 1020000"},
        {R"({"name": "T", "size": [10, 10, 10], "bodies": [{"shape": "sphere", "radius": 1e-30,
            "position": [-1, 0, 0], "velocity": [5, 0, 0]}, {"shape": "sphere", "radius": 0.5, "position": [1, 0, 0]}]})",
         ": /bodies/0/radius: must be in [0.001, 100] m, got 1e-30"},
        {R"({"name": "T", "size": [10, 10, 10], "bodies": [{"shape": "sphere", "radius": 0.1, "mass": 1e-45,
            "position": [-1, 0, 0], "velocity": [5, 0, 0]}, {"shape": "sphere", "radius": 0.5, "position": [1, 0, 0]}]})",
         ": /bodies/0/mass: must be in [1e-06, 1e+10] kg, got 1e-45"},
        {R"({"name": "T", "size": [10, 10, 10], "gravity": [0, -1e30, 0]})",
         ": /gravity: its length must be in [0, 1000] m/s^2, got 1e+30"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const fs::path file = dir_ / "hostile.json";
        std::ofstream(file) << c.text;
        const Outcome run = kolize("--headless --scenario '" + file.string() + "' --steps 100");
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_EQ(run.err, "kolize: " + file.string() + c.message + "\n");
    }
}

TEST_F(KolizeCli, AHeadlessReplayPrintsTheReportWithTheRecordedStateHash) {
    const kz::Session session = drivenSession("lamp-arch", 240);
    const fs::path file = dir_ / "session.kzr";
    std::string error;
    ASSERT_TRUE(kz::saveRecording(file, kz::recordingOf(session), error)) << error;
    const std::string hash = kz::stateHashText(kz::stateHash(session.world()));
    for (int run = 0; run < 2; ++run) {
        SCOPED_TRACE(run);
        const Outcome replay = kolize("--headless --replay '" + file.string() + "' --report -");
        ASSERT_EQ(replay.exitCode, 0) << replay.err;
        EXPECT_TRUE(replay.err.empty()) << replay.err;
        const Json report = Json::parse(replay.out);
        EXPECT_EQ(keysOf(report), kReportKeys);
        EXPECT_EQ(report["state_hash"], hash);
        EXPECT_EQ(report["steps"], 240u);
    }
}

TEST_F(KolizeCli, ABadOrDivergingReplayIsOneLine) {
    const fs::path file = dir_ / "session.kzr";
    std::string error;
    kz::Recording recording = kz::recordingOf(drivenSession("two-balls", 60));
    ASSERT_TRUE(kz::saveRecording(file, recording, error)) << error;
    std::string text = readFile(file);

    // Corrupted: another version, a bad number, cut short, missing.
    const fs::path bad = dir_ / "bad.kzr";
    const std::string badNumber = [&] {
        std::string t = text;
        const std::size_t at = t.find("\nvelocity 10 0 3 ");
        t.replace(at + 15, 1, "x");
        return t;
    }();
    for (const auto& [content, message] :
         {std::pair{"kolize-recording 9\n" + text.substr(text.find('\n') + 1),
                    ":1: recording format version '9'; this kolize reads version 1"},
          std::pair{badNumber, ": velocity: expected a number, got 'x'"},
          std::pair{text.substr(0, text.rfind("end ")), ": truncated: the recording ends after line "}}) {
        SCOPED_TRACE(message);
        std::ofstream(bad, std::ios::trunc) << content;
        const Outcome run = kolize("--headless --replay '" + bad.string() + "'");
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_EQ(run.err.rfind("kolize: " + bad.string() + ":", 0), 0u) << run.err;
        EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
    }
    const Outcome missing = kolize("--headless --replay '" + (dir_ / "none.kzr").string() + "'");
    EXPECT_EQ(missing.exitCode, 2);
    expectOneErrorLine(missing);
    EXPECT_NE(missing.err.find("none.kzr: no such file"), std::string::npos) << missing.err;

    // Diverging: the report, then one line, exit code 1.
    recording.stateHash ^= 0xff;
    ASSERT_TRUE(kz::saveRecording(file, recording, error)) << error;
    const Outcome diverged = kolize("--headless --replay '" + file.string() + "'");
    EXPECT_EQ(diverged.exitCode, 1);
    EXPECT_TRUE(Json::accept(diverged.out)) << diverged.out;
    EXPECT_EQ(diverged.err.rfind("kolize: " + file.string() + ": replay diverged: state_hash ", 0), 0u)
        << diverged.err;
    EXPECT_EQ(std::count(diverged.err.begin(), diverged.err.end(), '\n'), 1) << diverged.err;
}

TEST_F(KolizeCli, ReplayAndRecordFlagsRefuseWhatTheyCannotTakeWithOneLine) {
    const Outcome help = kolize("--help");
    for (const char* flag : {"--record", "--replay"})
        EXPECT_NE(help.out.find(flag), std::string::npos) << flag << " is not in:\n" << help.out;
    for (const char* args : {"--headless --replay x.kzr --scenario random",
                             "--headless --replay x.kzr --seed 3", "--headless --replay x.kzr --steps 10",
                             "--replay x.kzr --record y.kzr", "--replay x.kzr --scenario boxes"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(args);
        EXPECT_EQ(run.exitCode, 2);
        expectOneErrorLine(run);
        EXPECT_NE(run.err.find("not with --replay"), std::string::npos) << run.err;
    }
    const Outcome headlessRecord = kolize("--headless --record x.kzr");
    EXPECT_EQ(headlessRecord.exitCode, 2);
    expectOneErrorLine(headlessRecord);
    EXPECT_NE(headlessRecord.err.find("--record: only for the window"), std::string::npos)
        << headlessRecord.err;
}

TEST_F(KolizeCli, AnOversizeScenarioFileIsRefusedQuicklyWithOneLine) {
    const fs::path file = dir_ / "nested.json";
    {
        std::ofstream out(file);
        const std::string half(25u << 20, '[');
        out << half << std::string(half.size(), ']');
    }
    const auto start = std::chrono::steady_clock::now();
    const Outcome run = kolize("--headless --scenario '" + file.string() + "'");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_EQ(run.exitCode, 2);
    expectOneErrorLine(run);
    EXPECT_NE(run.err.find("is larger than 4 MiB"), std::string::npos) << run.err;
}

// ---------------------------------------------------------------- the flags, as CLI11 reads them

class KolizeFlags : public KolizeCli {
protected:
    struct ErrorLine {
        const char* args; ///< kolize's arguments (shell words).
        const char* line; ///< Its stderr: "kolize: " + line + "\n".
    };

    /// Each command line exits with code 2 and prints exactly its line, nothing on stdout.
    void expectErrorLines(std::initializer_list<ErrorLine> cases) {
        for (const ErrorLine& c : cases) {
            SCOPED_TRACE(c.args);
            const Outcome run = kolize(c.args);
            EXPECT_EQ(run.exitCode, 2);
            EXPECT_EQ(run.err, "kolize: " + std::string(c.line) + "\n");
            EXPECT_TRUE(run.out.empty()) << run.out;
        }
    }
};

TEST_F(KolizeFlags, EachFlagsBadValueIsOneLineNamingTheFlagTheRangeAndTheValue) {
    expectErrorLines({
        {"--headless --steps -3", "--steps: expected a whole number from 0 to 10000000, got '-3'"},
        {"--headless --steps 0x10", "--steps: expected a whole number from 0 to 10000000, got '0x10'"},
        {"--headless --steps ' 5'", "--steps: expected a whole number from 0 to 10000000, got ' 5'"},
        {"--headless --steps +5", "--steps: expected a whole number from 0 to 10000000, got '+5'"},
        {"--headless --steps 10000001",
         "--steps: expected a whole number from 0 to 10000000, got '10000001'"},
        {"--headless --seed -1", "--seed: expected a whole number from 0 to 18446744073709551615, got '-1'"},
        {"--headless --seed 18446744073709551616",
         "--seed: expected a whole number from 0 to 18446744073709551615, got '18446744073709551616'"},
        {"--headless --threads 257", "--threads: expected a whole number from 1 to 256, got '257'"},
        {"--threads -2", "--threads: expected a whole number from 1 to 256, got '-2'"},
        {"--size 640x", "--size: expected WxH with each side a whole number from 1 to 16384, got '640x'"},
        {"--size 16385x1",
         "--size: expected WxH with each side a whole number from 1 to 16384, got '16385x1'"},
        {"--size +5x5", "--size: expected WxH with each side a whole number from 1 to 16384, got '+5x5'"},
        {"--frames 0", "--frames: expected a whole number from 1 to 1000000000, got '0'"},
        {"--frames -1", "--frames: expected a whole number from 1 to 1000000000, got '-1'"},
        {"--msaa 17", "--msaa: expected auto or a whole number from 0 to 16, got '17'"},
        {"--msaa AUTO", "--msaa: expected auto or a whole number from 0 to 16, got 'AUTO'"},
        {"--ui-scale 1e0", "--ui-scale: expected a number from 0.5 to 4, got '1e0'"},
        {"--ui-scale 4.000001", "--ui-scale: expected a number from 0.5 to 4, got '4.000001'"},
        {"--ui-scale 0x1p0", "--ui-scale: expected a number from 0.5 to 4, got '0x1p0'"},
        {"--history-mb 0", "--history-mb: expected a whole number from 1 to 65536, got '0'"},
        {"--history-mb 65537", "--history-mb: expected a whole number from 1 to 65536, got '65537'"},
    });
}

TEST_F(KolizeFlags, LeadingZerosAreDecimalNotOctalAndTheLargestSeedIsTaken) {
    // CLI11 2.1 alone would read "010" as octal 8; kolize reads what a person means.
    const Outcome steps = kolize("--headless --scenario deterministic --steps 010");
    ASSERT_EQ(steps.exitCode, 0) << steps.err;
    EXPECT_EQ(Json::parse(steps.out)["steps"], 10u);
    const Outcome seed = kolize("--headless --scenario random --steps 0 --seed 0010");
    ASSERT_EQ(seed.exitCode, 0) << seed.err;
    EXPECT_EQ(Json::parse(seed.out)["seed"], 10u);
    const Outcome largest = kolize("--headless --scenario random --steps 0 --seed 18446744073709551615");
    ASSERT_EQ(largest.exitCode, 0) << largest.err;
    EXPECT_EQ(Json::parse(largest.out)["seed"], std::numeric_limits<std::uint64_t>::max());
    // An empty seed (`--seed "$SEED"` with SEED unset) is the scenario file's own seed.
    const Outcome empty = kolize("--headless --scenario random --steps 0 --seed ''");
    const Outcome none = kolize("--headless --scenario random --steps 0");
    ASSERT_EQ(empty.exitCode, 0) << empty.err;
    ASSERT_EQ(none.exitCode, 0) << none.err;
    EXPECT_EQ(Json::parse(empty.out)["seed"], Json::parse(none.out)["seed"]);
}

TEST_F(KolizeFlags, GoodWindowValuesPassTheChecksAndReachTheDisplayQuestion) {
    // Without a display the window's run stops at "no display", after every flag was accepted.
    for (const char* args :
         {"--size 640X480", "--size 16384x16384", "--frames 010", "--msaa auto", "--msaa 16",
          "--ui-scale 0.5", "--ui-scale 4", "--ui-scale .5", "--history-mb 1", "--lab ''"}) {
        SCOPED_TRACE(args);
        const Outcome run = kolize(args);
        EXPECT_EQ(run.exitCode, 2);
        EXPECT_EQ(run.err.rfind("kolize: no display: ", 0), 0u) << run.err;
    }
}

TEST_F(KolizeFlags, FlagsThatCannotGoTogetherAreOneLineInKolizesWords) {
    expectErrorLines({
        {"--headless --replay x.kzr --seed 3",
         "--seed: not with --replay (the recording holds its scenarios and seeds)"},
        {"--replay x.kzr --scenario boxes",
         "--scenario: not with --replay (the recording holds its scenarios and seeds)"},
        {"--headless --replay x.kzr --steps 4",
         "--steps: not with --replay (it runs to the recording's end)"},
        {"--replay x.kzr --record y.kzr", "--record: not with --replay"},
        {"--headless --no-vsync", "--no-vsync: only for the window; drop --headless to use it"},
        {"--headless --history-mb 5", "--history-mb: only for the window; drop --headless to use it"},
        {"--steps 10", "--steps: only with --headless (the window runs until quit, or use --frames N)"},
        {"--seed 3 explain ray-box --shapes -",
         "--seed: not with explain (it takes only QUERY and --shapes)"},
        // Two flags that cannot go together are named before a bad value of either.
        {"--headless --size abc", "--size: only for the window; drop --headless to use it"},
        {"--headless --replay x.kzr --seed x",
         "--seed: not with --replay (the recording holds its scenarios and seeds)"},
        {"--steps -3", "--steps: only with --headless (the window runs until quit, or use --frames N)"},
        // explain's missing argument before a flag it does not take, as CLI11 checked it first.
        {"--headless explain ray-box", "--shapes is required (see kolize --help)"},
    });
}

TEST_F(KolizeFlags, AnUnexpectedArgumentIsNamedBeforeABadValueAndHelpWinsOverBoth) {
    const Outcome bogus = kolize("--bogus --headless --steps -3");
    EXPECT_EQ(bogus.exitCode, 2);
    EXPECT_EQ(bogus.err, "kolize: The following argument was not expected: --bogus (see kolize --help)\n");
    const Outcome help = kolize("--headless --steps -3 --bogus --help");
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_TRUE(help.err.empty()) << help.err;
    EXPECT_NE(help.out.find("--steps"), std::string::npos) << help.out;
}

TEST_F(KolizeFlags, HelpShowsEachDefaultFromTheValueTheRunUses) {
    const Outcome help = kolize("--help");
    ASSERT_EQ(help.exitCode, 0);
    const kz::AppOptions window;
    const kz::HeadlessOptions headless;
    for (const std::string& shown : std::vector<std::string>{
             "--scenario NAME|FILE=" + window.scenario, "--steps N=" + std::to_string(headless.steps),
             "--threads N=" + std::to_string(kz::JobSystem::hardwareThreads()), "--report FILE|-=-",
             "--size WxH=" + std::to_string(window.windowSize.x) + "x" + std::to_string(window.windowSize.y),
             "--history-mb MB=" + std::to_string(window.historyMb), "--ui-scale S=1", "--msaa N|auto=auto",
             "--lab [QUERY]=box-box"}) {
        EXPECT_NE(help.out.find(shown), std::string::npos) << shown << " is not in:\n" << help.out;
    }
    EXPECT_EQ(window.uiScale, 1.0f);
    EXPECT_FALSE(window.msaaSamples.has_value()) << "auto";
    // The pairs that cannot go together are listed with the flags.
    const std::string steps = help.out.substr(help.out.find("  --steps"));
    const std::string stepsLine = steps.substr(0, steps.find('\n'));
    EXPECT_NE(stepsLine.find("Needs: --headless"), std::string::npos) << stepsLine;
    EXPECT_NE(stepsLine.find("Excludes: --replay"), std::string::npos) << stepsLine;
}

} // namespace
