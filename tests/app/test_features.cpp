// The window's feature objects without a window: the query lab (Lab, app/lab/lab.hpp), the mouse
// probe (MouseProbe, app/lab/probe.hpp), the timeline (Timeline, app/timeline/timeline.hpp), the
// impact log (Impacts, app/timeline/impacts.hpp) and a replay (Playback,
// app/timeline/playback.hpp), each driven through its own entry points as the App drives it.
#include "app/lab/lab.hpp"
#include "app/lab/probe.hpp"
#include "app/timeline/impacts.hpp"
#include "app/timeline/playback.hpp"
#include "app/timeline/timeline.hpp"
#include "physics/room.hpp"
#include "physics/state_hash.hpp"
#include "session/session_test_support.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::filesystem::path tempFile(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("kolize_features_" + std::to_string(::getpid()) + "_" + name);
}

std::vector<std::string> lines(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::string> result;
    for (std::string line; std::getline(in, line);)
        result.push_back(line);
    return result;
}

/// An event log writing to a file of its own, removed at the end.
struct EventFile {
    explicit EventFile(const std::string& name) : path(tempFile(name)) {
        std::string error;
        EXPECT_TRUE(log.open(path.string(), error)) << error;
    }
    ~EventFile() { std::filesystem::remove(path); }
    std::filesystem::path path;
    kz::EventLog log;
};

kz::OrbitCamera scenarioCamera() {
    return kz::OrbitCamera::forRoom(kz::boxRoom(glm::vec3(10.0f)).bounds, std::nullopt);
}

// ------------------------------------------------------------------ Lab

TEST(Lab, OpensOnItsQueryWithTheLabsCameraAndGivesTheScenariosCameraBack) {
    kz::Lab lab;
    kz::OrbitCamera camera = scenarioCamera();
    const glm::vec3 scenarioEye = camera.eye();
    EXPECT_FALSE(lab.isOpen());
    EXPECT_FALSE(lab.query().has_value());

    lab.open(kz::LabQuery::BoxBox, camera);
    ASSERT_TRUE(lab.isOpen());
    EXPECT_EQ(lab.query(), kz::LabQuery::BoxBox);
    EXPECT_EQ(lab.scene().query, kz::LabQuery::BoxBox);
    EXPECT_GT(glm::length(camera.eye() - scenarioEye), 0.1f) << "the lab's own view";
    // Another query while open: the camera kept for close() is still the scenarios', not the lab's.
    lab.open(kz::LabQuery::SphereSphere, camera);
    EXPECT_EQ(lab.query(), kz::LabQuery::SphereSphere);

    lab.close(camera);
    EXPECT_FALSE(lab.isOpen());
    EXPECT_EQ(camera.eye(), scenarioEye);
    lab.close(camera); // closed already: nothing
    EXPECT_EQ(camera.eye(), scenarioEye);
}

TEST(Lab, TheLayersStayFromOneQueryToTheNextButEachStartsOnItsOwnAnswer) {
    kz::Lab lab;
    kz::OrbitCamera camera = scenarioCamera();
    lab.view().shown[0] = false;
    lab.view().satAxis = 4;
    lab.view().bvhStep = 7;
    lab.view().convexStep = 3;
    lab.open(kz::LabQuery::BoxBox, camera);
    EXPECT_FALSE(lab.view().shown[0]) << "the layers the user switched off stay off";
    EXPECT_EQ(lab.view().satAxis, -1);
    EXPECT_EQ(lab.view().bvhStep, -1);
    EXPECT_EQ(lab.view().convexStep, -1);
}

TEST(Lab, TheConvexQueriesTakeAnyConvexShapeWhereTheOldOneWas) {
    kz::Lab lab;
    kz::OrbitCamera camera = scenarioCamera();
    EXPECT_FALSE(lab.setShapeKind(0, kz::LabShapeKind::Sphere)) << "closed";
    lab.open(kz::LabQuery::Gjk, camera);
    const kz::LabShape before = lab.scene().shapes[1];
    const float distance = *lab.result().number("distance");
    ASSERT_TRUE(lab.setShapeKind(1, kz::LabShapeKind::Cylinder));
    const kz::LabShape& after = lab.scene().shapes[1];
    EXPECT_EQ(after.kind, kz::LabShapeKind::Cylinder);
    EXPECT_EQ(after.name, before.name);
    EXPECT_EQ(after.position, before.position);
    EXPECT_EQ(after.orientation, before.orientation);
    ASSERT_TRUE(after.mesh) << "drawn as its tessellation";
    ASSERT_TRUE(lab.result().number("distance"));
    EXPECT_NE(*lab.result().number("distance"), distance) << "the answer is the new pair's";
    for (const kz::LabShapeKind kind :
         {kz::LabShapeKind::Sphere, kz::LabShapeKind::Box, kz::LabShapeKind::Capsule,
          kz::LabShapeKind::Cylinder, kz::LabShapeKind::Hull}) {
        EXPECT_TRUE(lab.setShapeKind(0, kind));
        EXPECT_EQ(lab.scene().shapes[0].kind, kind);
        EXPECT_TRUE(lab.result().number("distance").has_value());
        EXPECT_TRUE(lab.result().trace.gjk.has_value());
    }
    EXPECT_FALSE(lab.setShapeKind(1, kz::LabShapeKind::Mesh)) << "not a convex shape";
    EXPECT_FALSE(lab.setShapeKind(2, kz::LabShapeKind::Sphere)) << "no third shape";
    lab.open(kz::LabQuery::BoxBox, camera);
    EXPECT_FALSE(lab.setShapeKind(0, kz::LabShapeKind::Sphere)) << "box-box takes boxes only";
}

TEST(Lab, UpdateLogsTheLabEventWhenTheVerdictIsNewNotEveryFrame) {
    EventFile events("lab.jsonl");
    kz::Lab lab;
    kz::OrbitCamera camera = scenarioCamera();
    const kz::ScreenCamera screen{};
    const kz::Pointer away{}; // not over the scene: no drag, no hover

    lab.update(screen, away, events.log, 1); // closed: nothing
    EXPECT_TRUE(lines(events.path).empty());
    lab.open(kz::LabQuery::SphereSphere, camera);
    const bool verdict = lab.result().positive;
    for (std::uint64_t frame = 2; frame < 6; ++frame)
        lab.update(screen, away, events.log, frame);
    ASSERT_EQ(lines(events.path).size(), 1u);
    EXPECT_NE(lines(events.path)[0].find("\"sphere-sphere\""), std::string::npos) << lines(events.path)[0];
    EXPECT_EQ(lab.result().positive, verdict);
    // A query opened again starts without a logged verdict: its first frame logs it.
    lab.open(kz::LabQuery::SphereSphere, camera);
    lab.update(screen, away, events.log, 6);
    EXPECT_EQ(lines(events.path).size(), 2u);
}

TEST(Lab, NothingHeldOrHoveredMeansNoHoverTextAndNoRim) {
    kz::Lab lab;
    kz::OrbitCamera camera = scenarioCamera();
    lab.open(kz::LabQuery::BoxTriangle, camera);
    EXPECT_EQ(lab.hoverText(), "");
    const kz::Lab::Picture picture = lab.picture();
    EXPECT_FALSE(picture.world.bodies().empty()) << "the box is drawn as a body";
    EXPECT_EQ(picture.outlinedBody, -1);
    EXPECT_EQ(picture.selectedObstacle, -1);
    kz::LabCanvas canvas;
    lab.drawConstruction(canvas);
    EXPECT_FALSE(canvas.lines.empty() && canvas.topLines.empty()) << "the construction draws";
}

// ------------------------------------------------------------------ MouseProbe

TEST(MouseProbe, OffOrOffTheSceneFindsNothingElseTheRaysAnswer) {
    const kz::Session session = kz::test::startSession(kz::test::loadOf("two-balls"));
    const kz::World& world = session.world();
    const glm::vec3 target = world.bodies()[0].position;
    const kz::Ray ray{target + glm::vec3(0.0f, 0.0f, 4.0f), {0.0f, 0.0f, -1.0f}};

    kz::MouseProbe probe;
    probe.update(world, ray);
    EXPECT_EQ(probe.result.mode, kz::ProbeMode::Off);
    EXPECT_FALSE(probe.result.ray.has_value());

    probe.mode = kz::ProbeMode::Ray;
    probe.update(world, std::nullopt);
    EXPECT_FALSE(probe.result.ray.has_value()) << "the cursor is not over the scene";
    probe.update(world, ray);
    ASSERT_TRUE(probe.result.nearest.has_value());
    EXPECT_EQ(probe.result.nearest->body, 0);

    probe.mode = kz::ProbeMode::SphereCast;
    probe.radius = 0.5f;
    probe.update(world, ray);
    EXPECT_FALSE(probe.result.nearest.has_value()) << "last frame's answer is gone";
    ASSERT_TRUE(probe.result.cast.has_value());
    EXPECT_FLOAT_EQ(probe.result.radius, 0.5f);
}

// ------------------------------------------------------------------ Timeline

TEST(Timeline, APastStepIsShownWithoutTouchingTheSessionWhichGoesOnFromItOnlyWhenAsked) {
    kz::Session session = kz::test::startSession(kz::test::loadOf("two-balls"));
    kz::Timeline timeline;
    timeline.attach(session, {std::size_t{64} << 20, 8});
    std::uint64_t hashAt40 = 0;
    for (int i = 0; i < 100; ++i) {
        session.step();
        if (session.tick() == 40) hashAt40 = kz::stateHash(session.world());
    }
    const std::uint64_t hashAt100 = kz::stateHash(session.world());
    EXPECT_TRUE(timeline.history().covers(40));

    std::string error;
    ASSERT_TRUE(timeline.show(40, session, error)) << error;
    ASSERT_NE(timeline.past(), nullptr);
    EXPECT_EQ(timeline.past()->tick, 40u);
    EXPECT_EQ(timeline.shownTick(session), 40u);
    EXPECT_EQ(kz::stateHash(timeline.past()->world), hashAt40) << "bit-identical to the live run";
    EXPECT_TRUE(timeline.past()->world.paused());
    EXPECT_EQ(session.tick(), 100u);
    EXPECT_EQ(kz::stateHash(session.world()), hashAt100);

    ASSERT_TRUE(timeline.show(100, session, error)); // the session's own step: the present
    EXPECT_EQ(timeline.past(), nullptr);
    EXPECT_EQ(timeline.shownTick(session), 100u);
    EXPECT_FALSE(timeline.goOnFromPast(session)) << "nothing to go on from";

    EXPECT_FALSE(timeline.show(5000, session, error)) << "not kept";
    EXPECT_EQ(error, "");

    ASSERT_TRUE(timeline.show(40, session, error));
    timeline.showPresent();
    EXPECT_EQ(timeline.past(), nullptr);
    EXPECT_EQ(session.tick(), 100u) << "back to the present, the session unchanged";

    ASSERT_TRUE(timeline.show(40, session, error));
    EXPECT_TRUE(timeline.goOnFromPast(session));
    EXPECT_EQ(timeline.past(), nullptr);
    EXPECT_EQ(session.tick(), 40u);
    EXPECT_EQ(kz::stateHash(session.world()), hashAt40);
    EXPECT_FALSE(timeline.history().covers(41)) << "the later steps are dropped";
}

// ------------------------------------------------------------------ Impacts

TEST(Impacts, EachStepsImpactsAreLoggedWithTheSessionsTickAndARewindForgetsTheLaterOnes) {
    EventFile events("impacts.jsonl");
    kz::Session session = kz::test::startSession(kz::test::loadOf("two-balls"));
    kz::Impacts impacts;
    session.setStepObserver([&] { impacts.onStep(session.world(), session.tick(), events.log, 3); });
    std::size_t logged = 0;
    std::optional<kz::World> worldAtImpact;
    while (session.tick() < 3000 && impacts.log().size() < 3) {
        session.step();
        const std::size_t stepImpacts = session.world().impacts().size();
        logged += stepImpacts;
        if (stepImpacts > 0) {
            EXPECT_EQ(impacts.log().newest(0).step, session.tick());
            if (!worldAtImpact) worldAtImpact.emplace(session.world());
        }
    }
    ASSERT_GE(impacts.log().size(), 3u) << "the two balls hit the walls";
    EXPECT_EQ(impacts.log().size(), logged);
    EXPECT_EQ(lines(events.path).size(), logged) << "one `impact` event a record";

    const kz::ImpactRecord first = impacts.log().newest(impacts.log().size() - 1);
    impacts.show(*worldAtImpact, first);
    ASSERT_NE(impacts.shown(), nullptr);
    EXPECT_EQ(impacts.shown()->record.step, first.step);
    EXPECT_TRUE(impacts.shown()->why.valid);
    kz::LabCanvas canvas;
    impacts.draw(*worldAtImpact, canvas);
    EXPECT_FALSE(canvas.lines.empty() && canvas.topLines.empty());

    impacts.keepTo(first.step); // back at its step: it stays
    EXPECT_NE(impacts.shown(), nullptr);
    EXPECT_EQ(impacts.log().newest(0).step, first.step);
    impacts.keepTo(first.step - 1); // before it: forgotten, and no longer shown
    EXPECT_EQ(impacts.shown(), nullptr);
    EXPECT_TRUE(impacts.log().empty());

    impacts.show(*worldAtImpact, first);
    impacts.hide();
    EXPECT_EQ(impacts.shown(), nullptr);
}

// ------------------------------------------------------------------ Playback

/// The two-balls world driven by a drag and a material change for 120 steps, then paused.
kz::Session drivenSession() {
    kz::Session session = kz::test::startSession(kz::test::loadOf("two-balls"));
    for (std::uint64_t tick = 0; tick < 120; ++tick) {
        std::string applied;
        if (tick == 10)
            applied = session.apply(kz::SetBodyVelocity{0, {3.0f, 1.0f, 0.5f}, {0.0f, 2.0f, 0.0f}});
        if (tick == 60) applied = session.apply(kz::SetMaterial{0.6f, 0.3f, 0.01f});
        EXPECT_EQ(applied, "") << "tick " << tick;
        session.step();
    }
    return session;
}

TEST(Playback, AReplayPlaysToTheRecordedEndAndSaysTheHashMatches) {
    const kz::Session recorded = drivenSession();
    const std::filesystem::path file = tempFile("replay.kzr");
    std::string error;
    ASSERT_TRUE(kz::checkRecordTarget(file.string(), error)) << error;
    ASSERT_TRUE(kz::writeRecording(file.string(), recorded, error)) << error;

    std::optional<kz::Playback> playback = kz::Playback::load(file.string(), error);
    ASSERT_TRUE(playback) << error;
    std::optional<kz::Session> session;
    ASSERT_TRUE(playback->start(session, nullptr, error)) << error;
    ASSERT_TRUE(session);
    EXPECT_EQ(session->tick(), 0u);

    // Paused: no tick, but a requested one.
    playback->setPaused(true);
    EXPECT_EQ(playback->play(*session, 1.0f / 60.0f, INFINITY, error), 0);
    playback->requestTick();
    EXPECT_EQ(playback->play(*session, 1.0f / 60.0f, INFINITY, error), 1);
    EXPECT_EQ(playback->play(*session, 1.0f / 60.0f, INFINITY, error), 0) << "one N, one tick";
    playback->setPaused(false);

    EventFile events("replay.jsonl");
    for (int frame = 0; frame < 1000 && !playback->atEnd(*session); ++frame) {
        playback->play(*session, 1.0f / 60.0f, INFINITY, error);
        ASSERT_EQ(error, "");
    }
    ASSERT_TRUE(playback->atEnd(*session));
    EXPECT_TRUE(playback->playing());
    playback->finish(*session, events.log, 9);
    EXPECT_FALSE(playback->playing());
    const kz::ReplayStatus status = playback->status(*session);
    EXPECT_TRUE(status.finished);
    EXPECT_EQ(status.verdict, "");
    EXPECT_EQ(status.file, file.string());
    EXPECT_EQ(status.tick, recorded.tick());
    EXPECT_EQ(status.endTick, recorded.tick());
    EXPECT_EQ(kz::stateHash(session->world()), kz::stateHash(recorded.world()));
    ASSERT_EQ(lines(events.path).size(), 1u);
    EXPECT_NE(lines(events.path)[0].find("\"replay_end\""), std::string::npos) << lines(events.path)[0];
    std::filesystem::remove(file);
}

TEST(Playback, AFileThatCannotBeReadOrWrittenIsOneLineNamingIt) {
    std::string error;
    EXPECT_FALSE(kz::Playback::load("/nonexistent-dir/none.kzr", error));
    EXPECT_NE(error.find("/nonexistent-dir/none.kzr"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;

    EXPECT_FALSE(kz::checkRecordTarget("/nonexistent-dir/out.kzr", error));
    EXPECT_EQ(error.rfind("--record: cannot write '/nonexistent-dir/out.kzr'", 0), 0u) << error;
    const kz::Session session = drivenSession();
    EXPECT_FALSE(kz::writeRecording("/nonexistent-dir/out.kzr", session, error));
    EXPECT_EQ(error.rfind("--record: ", 0), 0u) << error;
}

} // namespace
