// The window's mouse interaction without a window (src/app/view/interaction.hpp): what a click picks,
// what the cursor hovers, how a drag moves a body and a release throws it, and the event lines
// each logs. The picture is a camera at z = 12 looking down -z into an 800 x 600 window.
#include "app/view/interaction.hpp"
#include "physics/obstacle.hpp"
#include "support/screen_camera.hpp"

#include <cstdio>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using kz::BodyDesc;
using kz::Interaction;
using kz::Pointer;
using kz::ScreenCamera;
using kz::World;
using Json = nlohmann::json;

constexpr std::uint64_t kFrame = 7;

ScreenCamera screen() {
    return kz::test::screenCamera({0.0f, 0.0f, 12.0f}, {0.0f, 0.0f, 0.0f}, {800, 600}, 60.0f);
}

using kz::test::pixelOf;

BodyDesc ball(const char* name, glm::vec3 position, float radius = 1.0f) {
    BodyDesc d;
    d.name = name;
    d.position = position;
    d.radius = radius;
    return d;
}

World roomWorld() {
    return World(kz::boxRoom(glm::vec3(40.0f)));
}

/// A 2 m square facing the camera at z = 1 (two triangles), an obstacle named "panel".
void addSquareObstacle(World& world) {
    std::string error;
    auto mesh = kz::MeshShape::make(
        "square", {{-1.0f, -1.0f, 0.0f}, {1.0f, -1.0f, 0.0f}, {1.0f, 1.0f, 0.0f}, {-1.0f, 1.0f, 0.0f}},
        {0, 1, 2, 0, 2, 3}, error);
    ASSERT_TRUE(mesh) << error;
    kz::ObstacleDesc d;
    d.name = "panel";
    d.mesh = std::move(mesh);
    d.position = {0.0f, 0.0f, 1.0f};
    auto obstacle = kz::makeObstacle(d, error);
    ASSERT_TRUE(obstacle) << error;
    world.addObstacle(*obstacle);
}

/// An Interaction logging into a temporary file, and the lines it has logged.
class InteractionTest : public testing::Test {
protected:
    void SetUp() override {
        path_ = testing::TempDir() + "kz_interaction_" +
                testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl";
        std::string error;
        ASSERT_TRUE(log_.open(path_, error)) << error;
    }
    void TearDown() override { std::remove(path_.c_str()); }

    std::vector<Json> events() const {
        std::vector<Json> lines;
        std::ifstream in(path_);
        for (std::string line; std::getline(in, line);)
            lines.push_back(Json::parse(line));
        return lines;
    }

    /// A ball at the origin, pressed at the centre of its picture: the press position.
    glm::vec2 pressOnBall(World& world) {
        world.addBody(ball("ball", {0, 0, 0}));
        const glm::vec2 press = pixelOf(screen_, {0, 0, 0});
        interaction_.press(world, screen_, press, false, kFrame);
        return press;
    }

    /// One frame of `frameSeconds` with the cursor at `pointer`: the drag's velocity, if it gives
    /// one, applied to the world as the app's session applies it.
    void drag(World& world, const Pointer& pointer, float frameSeconds, std::uint64_t frame) {
        if (const std::optional<kz::SetBodyVelocity> v =
                interaction_.drag(world, screen_, pointer, frameSeconds, frame))
            world.setBodyVelocity(v->body, v->velocity, v->angularVelocity);
    }

    /// One frame of 1/60 s with the cursor at `pos`.
    void dragTo(World& world, glm::vec2 pos, bool leftDown = true, std::uint64_t frame = kFrame) {
        drag(world, pointerAt(pos, leftDown), 1.0f / 60.0f, frame);
    }

    Pointer pointerAt(glm::vec2 pos, bool leftDown = true) const {
        Pointer p;
        p.pos = pos;
        p.leftDown = leftDown;
        p.overScene = true;
        return p;
    }

    std::string path_;
    kz::EventLog log_;
    Interaction interaction_{log_};
    ScreenCamera screen_ = screen();
};

TEST_F(InteractionTest, AClickPicksTheNearestBodyUnderTheCursor) {
    World world = roomWorld();
    world.addBody(ball("far", {0, 0, -4}));
    world.addBody(ball("near", {0, 0, 0}));
    interaction_.press(world, screen_, pixelOf(screen_, {0, 0, 0}), false, kFrame);

    const kz::PickState& picks = interaction_.picks();
    EXPECT_EQ(picks.selectedBody(), 1);
    EXPECT_EQ(picks.selectedObstacle(), -1);
    ASSERT_TRUE(picks.selection && picks.ray);
    EXPECT_NEAR(picks.selection->hit.point.z, 1.0f, 1e-4f); // the near ball's front
    // The ray goes through the pixel's point: the near ball's centre.
    const glm::vec3 toCentre = -picks.ray->origin;
    EXPECT_LT(glm::length(toCentre - glm::dot(toCentre, picks.ray->dir) * picks.ray->dir), 1e-3f);
    const std::vector<Json> lines = events();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0]["frame"], kFrame);
    EXPECT_EQ(lines[0]["event"], "pick");
    EXPECT_EQ(lines[0]["body"], "near");
}

TEST_F(InteractionTest, AClickOnEmptySpaceClearsTheSelectionAndKeepsItsRay) {
    World world = roomWorld();
    world.addBody(ball("ball", {0, 0, 0}));
    interaction_.press(world, screen_, pixelOf(screen_, {0, 0, 0}), false, kFrame);
    interaction_.release(world, kFrame);
    interaction_.press(world, screen_, {5.0f, 5.0f}, false, kFrame + 1);

    EXPECT_FALSE(interaction_.picks().selection);
    EXPECT_EQ(interaction_.picks().selectedBody(), -1);
    EXPECT_TRUE(interaction_.picks().ray); // the pick-ray overlay still shows where it went
    const std::vector<Json> lines = events();
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_TRUE(lines[1]["body"].is_null());
    EXPECT_FALSE(lines[1].contains("obstacle"));
}

TEST_F(InteractionTest, APressOverThePanelPicksNothing) {
    World world = roomWorld();
    world.addBody(ball("ball", {0, 0, 0}));
    interaction_.press(world, screen_, pixelOf(screen_, {0, 0, 0}), true, kFrame);
    EXPECT_FALSE(interaction_.picks().selection);
    EXPECT_FALSE(interaction_.picks().ray);
    EXPECT_TRUE(events().empty());
}

TEST_F(InteractionTest, TheHoverFollowsTheCursorAndLeavesTheSelectionAlone) {
    World world = roomWorld();
    world.addBody(ball("left", {-3, 0, 0}));
    world.addBody(ball("right", {3, 0, 0}));
    interaction_.press(world, screen_, pixelOf(screen_, {-3, 0, 0}), false, kFrame);

    interaction_.hover(world, screen_, pointerAt(pixelOf(screen_, {-3, 0, 0}), false));
    EXPECT_EQ(interaction_.picks().hoveredBody(), 0);
    interaction_.hover(world, screen_, pointerAt(pixelOf(screen_, {3, 0, 0}), false));
    EXPECT_EQ(interaction_.picks().hoveredBody(), 1);
    interaction_.hover(world, screen_, pointerAt({5.0f, 5.0f}, false));
    EXPECT_FALSE(interaction_.picks().hover);
    Pointer overPanel = pointerAt(pixelOf(screen_, {3, 0, 0}), false);
    overPanel.overScene = false;
    interaction_.hover(world, screen_, overPanel);
    EXPECT_EQ(interaction_.picks().hoveredBody(), -1);
    EXPECT_EQ(interaction_.picks().selectedBody(), 0);
    EXPECT_EQ(events().size(), 1u); // hovering logs nothing
}

TEST_F(InteractionTest, TheHoverNamesAnObstacleAndItsTriangle) {
    World world = roomWorld();
    addSquareObstacle(world);
    interaction_.hover(world, screen_, pointerAt(pixelOf(screen_, {0.3f, 0.2f, 1.0f}), false));
    const kz::PickState& picks = interaction_.picks();
    EXPECT_EQ(picks.hoveredBody(), -1);
    EXPECT_EQ(picks.hoveredObstacle(), 0);
    ASSERT_TRUE(picks.hover);
    const kz::Triangle t = world.obstacles()[0].worldTriangle(picks.hover->triangle);
    EXPECT_NEAR(t.a.z, 1.0f, 1e-5f); // a triangle of the face towards the camera
}

TEST_F(InteractionTest, ADragMovesTheGrabbedPointUnderTheCursor) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    const glm::vec3 grabbed = interaction_.picks().selection->hit.point;
    const glm::vec3 grabOffset = world.bodies()[0].position - grabbed;

    // One frame of six fixed steps: the velocity takes the grabbed point to the cursor (slower
    // than kMaxDragSpeed).
    const float frameSeconds = 6.0f * world.settings().timeStep;
    const glm::vec2 cursor = press + glm::vec2(40.0f, -25.0f);
    drag(world, pointerAt(cursor), frameSeconds, kFrame + 1);
    EXPECT_TRUE(interaction_.dragging());
    const glm::vec3 velocity = world.bodies()[0].velocity;
    EXPECT_GT(velocity.x, 0.0f); // right and up on screen
    EXPECT_GT(velocity.y, 0.0f);
    for (int i = 0; i < 6; ++i)
        world.step();
    const glm::vec2 shown = pixelOf(screen_, world.bodies()[0].position - grabOffset);
    EXPECT_NEAR(shown.x, cursor.x, 0.05f);
    EXPECT_NEAR(shown.y, cursor.y, 0.05f);
    // At the grab depth: the grabbed point stays in the plane facing the camera.
    EXPECT_NEAR((world.bodies()[0].position - grabOffset).z, grabbed.z, 1e-4f);

    const std::vector<Json> lines = events();
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[1]["event"], "drag_start");
    EXPECT_EQ(lines[1]["frame"], kFrame + 1);
    EXPECT_EQ(lines[1]["body"], "ball");
}

TEST_F(InteractionTest, AReleaseThrowsTheBodyWithTheDragsLastVelocity) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    dragTo(world, press + glm::vec2(30.0f, 0.0f), true, kFrame + 1);
    const glm::vec3 thrown = world.bodies()[0].velocity;
    ASSERT_GT(glm::length(thrown), 0.0f);

    interaction_.release(world, kFrame + 2);
    EXPECT_FALSE(interaction_.dragging());
    dragTo(world, press + glm::vec2(90.0f, 0.0f), false, kFrame + 3);
    EXPECT_EQ(world.bodies()[0].velocity, thrown);     // released: the cursor no longer steers it
    EXPECT_EQ(interaction_.picks().selectedBody(), 0); // still selected

    const std::vector<Json> lines = events();
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[2]["event"], "drag_end");
    EXPECT_EQ(lines[2]["frame"], kFrame + 2);
}

TEST_F(InteractionTest, AMoveThatComesWithTheReleaseThrowsTowardTheRelease) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    dragTo(world, press + glm::vec2(4.0f, 0.0f), true, kFrame + 1);
    const glm::vec3 before = world.bodies()[0].velocity;
    ASSERT_GT(before.x, 0.0f);

    // The cursor moved on 16 px and the button came up in the same frame (a flick at a low frame
    // rate): the throw follows that move, not the frame before's 4 px.
    const std::optional<kz::SetBodyVelocity> flick =
        interaction_.releaseAt(world, screen_, press + glm::vec2(20.0f, 0.0f), 1.0f / 60.0f, kFrame + 2);
    ASSERT_TRUE(flick.has_value());
    EXPECT_EQ(flick->body, 0);
    EXPECT_NEAR(flick->velocity.x, 5.0f * before.x, 0.01f * before.x) << "20 px from the body, not 4";
    EXPECT_LT(flick->velocity.x, Interaction::kMaxDragSpeed);
    EXPECT_NEAR(flick->velocity.y, 0.0f, 1e-3f * flick->velocity.x);
    EXPECT_FALSE(interaction_.dragging());
    const std::vector<Json> lines = events();
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[2]["event"], "drag_end");
    EXPECT_EQ(lines[2]["frame"], kFrame + 2);
}

TEST_F(InteractionTest, AReleaseWhereTheLastDragAimedKeepsTheDragsVelocity) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    dragTo(world, press + glm::vec2(30.0f, 0.0f), true, kFrame + 1);
    EXPECT_FALSE(
        interaction_.releaseAt(world, screen_, press + glm::vec2(31.0f, 1.0f), 1.0f / 60.0f, kFrame + 2))
        << "within the drag threshold of where it aimed: no new velocity";
    EXPECT_FALSE(interaction_.dragging());
}

TEST_F(InteractionTest, AFlickBetweenTwoFramesStartsAndEndsADragAndThrows) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    const std::optional<kz::SetBodyVelocity> flick =
        interaction_.releaseAt(world, screen_, press + glm::vec2(0.0f, -60.0f), 1.0f / 60.0f, kFrame + 1);
    ASSERT_TRUE(flick.has_value());
    EXPECT_GT(flick->velocity.y, 0.0f); // up on screen
    const std::vector<Json> lines = events();
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[1]["event"], "drag_start");
    EXPECT_EQ(lines[2]["event"], "drag_end");
}

TEST_F(InteractionTest, AReleaseOnThePressIsAClickNotAThrow) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    EXPECT_FALSE(interaction_.releaseAt(world, screen_, press + glm::vec2(1.0f, 1.0f), 1.0f / 60.0f, kFrame));
    EXPECT_EQ(events().size(), 1u) << "the pick only";
    EXPECT_EQ(interaction_.picks().selectedBody(), 0);
}

TEST_F(InteractionTest, APressThatMovesLessThanTheThresholdIsAClickNotADrag) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    dragTo(world, press + glm::vec2(2.0f, 0.0f));
    EXPECT_FALSE(interaction_.dragging());
    EXPECT_EQ(world.bodies()[0].velocity, glm::vec3(0.0f));
    interaction_.release(world, kFrame);
    EXPECT_EQ(events().size(), 1u); // the pick only: no drag_start, no drag_end
}

TEST_F(InteractionTest, TheDragIsTheInputThatSetsTheGrabbedBodysVelocityAndChangesNothingItself) {
    World world = roomWorld();
    world.addBody(ball("other", {0, 2, 0}));
    const glm::vec2 press = pressOnBall(world); // body 1
    const std::optional<kz::SetBodyVelocity> v =
        interaction_.drag(world, screen_, pointerAt(press + glm::vec2(30.0f, 0.0f)), 1.0f / 60.0f, kFrame);
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(v->body, 1);
    EXPECT_GT(v->velocity.x, 0.0f);
    EXPECT_EQ(v->angularVelocity, world.bodies()[1].angularVelocity * Interaction::kDragAngularDamping);
    EXPECT_EQ(world.bodies()[1].velocity, glm::vec3(0.0f)) << "the caller applies it";
}

TEST_F(InteractionTest, TheDragSpeedIsCapped) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    drag(world, pointerAt(press + glm::vec2(390.0f, 0.0f)), 1.0f / 120.0f, kFrame);
    EXPECT_NEAR(glm::length(world.bodies()[0].velocity), Interaction::kMaxDragSpeed, 1e-3f);
}

TEST_F(InteractionTest, AnObstacleIsPickedButNeverDragged) {
    World world = roomWorld();
    addSquareObstacle(world);
    const glm::vec2 press = pixelOf(screen_, {0.3f, 0.2f, 1.0f});
    interaction_.press(world, screen_, press, false, kFrame);
    EXPECT_EQ(interaction_.picks().selectedObstacle(), 0);
    EXPECT_EQ(interaction_.picks().selectedBody(), -1);
    dragTo(world, press + glm::vec2(40.0f, 0.0f));
    EXPECT_FALSE(interaction_.dragging());

    const std::vector<Json> lines = events();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(lines[0]["body"].is_null());
    EXPECT_EQ(lines[0]["obstacle"], "panel");
    EXPECT_EQ(lines[0]["obstacle_index"], 0);
    EXPECT_NEAR(lines[0]["point"][0].get<double>(), 0.3, 1e-4);
    EXPECT_NEAR(lines[0]["point"][1].get<double>(), 0.2, 1e-4);
    EXPECT_NEAR(lines[0]["point"][2].get<double>(), 1.0, 1e-4);
}

TEST_F(InteractionTest, WhilePausedADragStartsButNothingMoves) {
    World world = roomWorld();
    world.setPaused(true);
    const glm::vec2 press = pressOnBall(world);
    EXPECT_FALSE(
        interaction_.drag(world, screen_, pointerAt(press + glm::vec2(40.0f, 0.0f)), 1.0f / 60.0f, kFrame))
        << "no velocity while paused";
    EXPECT_TRUE(interaction_.dragging());
    EXPECT_EQ(world.bodies()[0].velocity, glm::vec3(0.0f));
    EXPECT_EQ(events().back()["event"], "drag_start");
}

TEST_F(InteractionTest, AButtonReleasedOutsideTheWindowEndsTheDrag) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    dragTo(world, press + glm::vec2(40.0f, 0.0f));
    dragTo(world, press + glm::vec2(80.0f, 0.0f), false, kFrame + 1);
    EXPECT_FALSE(interaction_.dragging());
    EXPECT_EQ(events().back()["event"], "drag_end");
    EXPECT_EQ(events().back()["frame"], kFrame + 1);
}

TEST_F(InteractionTest, ForgettingTheWorldEndsTheDragAndClearsEveryPick) {
    World world = roomWorld();
    const glm::vec2 press = pressOnBall(world);
    dragTo(world, press + glm::vec2(40.0f, 0.0f));
    interaction_.hover(world, screen_, pointerAt(press));
    interaction_.forget(world, kFrame + 1);
    EXPECT_FALSE(interaction_.dragging());
    EXPECT_FALSE(interaction_.picks().selection);
    EXPECT_FALSE(interaction_.picks().hover);
    EXPECT_FALSE(interaction_.picks().ray);
    EXPECT_EQ(events().back()["event"], "drag_end");
}

TEST(ScreenCamera, TheRayGoesThroughThePixelCentreScaledToPhysicalPixels) {
    // A high-DPI window: 400 x 300 points drawn into 800 x 600 pixels. The centre point's pixel
    // centre (199.5 + 0.5 points) is the framebuffer's centre: straight down the view axis.
    ScreenCamera s = screen();
    s.windowSize = {400, 300};
    const kz::Ray ray = s.rayAt({199.5f, 149.5f});
    EXPECT_NEAR(ray.dir.x, 0.0f, 1e-5f);
    EXPECT_NEAR(ray.dir.y, 0.0f, 1e-5f);
    EXPECT_LT(ray.dir.z, 0.0f);
}

} // namespace
