// The query lab's mouse without a window (src/app/lab/mouse.hpp): what a press grabs (a
// shape, a handle, nothing), how a drag moves it in the plane facing the camera and how a right
// drag (or Shift) turns it, releases, and the press over the panel. The picture is the lab's own
// camera in a 1280 x 720 window.
#include "app/lab/mouse.hpp"
#include "app/lab/query.hpp"
#include "support/screen_camera.hpp"

#include <gtest/gtest.h>

namespace {

using kz::LabButton;
using kz::LabInteraction;
using kz::LabItem;
using kz::LabQuery;
using kz::LabScene;
using kz::ScreenCamera;

ScreenCamera labScreen() {
    return kz::test::screenCamera(kz::kLabEye, kz::kLabTarget, {1280, 720}, kz::kLabFovDeg);
}

using kz::test::pixelOf;

/// The pointer over the scene at `pos` with both buttons held (whichever grabbed).
kz::Pointer held(glm::vec2 pos) {
    kz::Pointer p;
    p.pos = pos;
    p.leftDown = p.rightDown = true;
    p.overScene = true;
    return p;
}

/// The pointer at `pos` with no button held.
kz::Pointer released(glm::vec2 pos) {
    kz::Pointer p = held(pos);
    p.leftDown = p.rightDown = false;
    return p;
}

float angleBetween(const glm::quat& a, const glm::quat& b) {
    return 2.0f * std::acos(std::min(std::abs(glm::dot(a, b)), 1.0f));
}

class LabInteractionTest : public testing::Test {
protected:
    LabScene scene_ = kz::makeLabScene(LabQuery::BoxBox);
    ScreenCamera screen_ = labScreen();
    LabInteraction mouse_;
};

TEST_F(LabInteractionTest, ALeftDragMovesBoxAInThePlaneFacingTheCameraAndKeepsItsTurn) {
    const glm::vec3 start = scene_.shapes[0].position;
    const glm::quat turn = scene_.shapes[0].orientation;
    const glm::vec2 press = pixelOf(screen_, start);
    ASSERT_TRUE(mouse_.press(scene_, screen_, press, LabButton::Left, false, false));
    EXPECT_EQ(mouse_.grabbed(), (LabItem{false, 0}));
    EXPECT_FALSE(mouse_.turning());
    // The grabbed point: where the press's ray meets the box.
    const auto grabbed = kz::pickLabItem(scene_, screen_.rayAt(press));
    ASSERT_TRUE(grabbed);
    const float depth = screen_.depthOf(grabbed->point);

    const glm::vec2 to = press + glm::vec2(120.0f, -40.0f);
    mouse_.drag(scene_, screen_, held(to));
    const glm::vec3 moved = scene_.shapes[0].position;
    // The grabbed point is now under the cursor at its depth; the box moved with it, not nearer.
    const auto under = screen_.pointAtDepth(to, depth);
    ASSERT_TRUE(under);
    EXPECT_LT(glm::distance(moved - start, *under - grabbed->point), 1e-4f);
    EXPECT_NEAR(screen_.depthOf(moved), screen_.depthOf(start), 1e-4f);
    EXPECT_GT(pixelOf(screen_, moved).x, press.x + 100.0f);
    EXPECT_EQ(scene_.shapes[0].orientation, turn);
    EXPECT_EQ(scene_.shapes[1].position, kz::makeLabScene(LabQuery::BoxBox).shapes[1].position);

    mouse_.release(LabButton::Left);
    EXPECT_FALSE(mouse_.grabbed());
    mouse_.drag(scene_, screen_, held(press));
    EXPECT_EQ(scene_.shapes[0].position, moved); // released: the cursor no longer moves it
}

TEST_F(LabInteractionTest, DraggingBoxAOntoBoxBTurnsTheVerdictToOverlap) {
    ASSERT_FALSE(kz::runLabQuery(scene_).positive);
    const glm::vec2 press = pixelOf(screen_, scene_.shapes[0].position);
    ASSERT_TRUE(mouse_.press(scene_, screen_, press, LabButton::Left, false, false));
    mouse_.drag(scene_, screen_, held(pixelOf(screen_, scene_.shapes[1].position)));
    EXPECT_TRUE(kz::runLabQuery(scene_).positive);
}

TEST_F(LabInteractionTest, ARightDragTurnsAShapeAboutTheCameraAxesWithoutMovingIt) {
    const glm::vec3 centre = scene_.shapes[1].position;
    const glm::quat before = scene_.shapes[1].orientation;
    const glm::vec2 press = pixelOf(screen_, centre);
    ASSERT_TRUE(mouse_.press(scene_, screen_, press, LabButton::Right, false, false));
    EXPECT_TRUE(mouse_.turning());
    mouse_.drag(scene_, screen_, held(press + glm::vec2(30.0f, 0.0f)));
    EXPECT_EQ(scene_.shapes[1].position, centre);
    // 30 px about the camera's up axis.
    const glm::vec3 up(screen_.view[0][1], screen_.view[1][1], screen_.view[2][1]);
    const glm::quat want =
        glm::angleAxis(30.0f * LabInteraction::kRadiansPerPixel, glm::normalize(up)) * before;
    EXPECT_LT(angleBetween(scene_.shapes[1].orientation, want), 1e-4f);
    // The side facing the camera moves with the cursor: a point in front of the centre goes right.
    const glm::vec3 front = centre + 0.5f * glm::normalize(screen_.eye - centre);
    const glm::vec3 turned =
        centre + (scene_.shapes[1].orientation * glm::inverse(before)) * (front - centre);
    EXPECT_GT(pixelOf(screen_, turned).x, pixelOf(screen_, front).x);

    mouse_.drag(scene_, screen_, held(press + glm::vec2(30.0f, 20.0f))); // 20 px down: about the right axis
    const glm::vec3 right(screen_.view[0][0], screen_.view[1][0], screen_.view[2][0]);
    const glm::quat down =
        glm::angleAxis(20.0f * LabInteraction::kRadiansPerPixel, glm::normalize(right)) * want;
    EXPECT_LT(angleBetween(scene_.shapes[1].orientation, down), 1e-4f);
    mouse_.release(LabButton::Left); // not the button that grabbed it
    EXPECT_TRUE(mouse_.grabbed());
    mouse_.release(LabButton::Right);
    EXPECT_FALSE(mouse_.grabbed());
}

TEST_F(LabInteractionTest, ShiftWithTheLeftButtonTurnsToo) {
    const glm::quat before = scene_.shapes[0].orientation;
    const glm::vec2 press = pixelOf(screen_, scene_.shapes[0].position);
    ASSERT_TRUE(mouse_.press(scene_, screen_, press, LabButton::Left, true, false));
    EXPECT_TRUE(mouse_.turning());
    mouse_.drag(scene_, screen_, held(press + glm::vec2(0.0f, 50.0f)));
    EXPECT_GT(angleBetween(scene_.shapes[0].orientation, before), 0.4f);
}

TEST_F(LabInteractionTest, ARightPressOnEmptySpaceOrAHandleGrabsNothingSoTheCameraOrbits) {
    EXPECT_FALSE(mouse_.press(scene_, screen_, {1270.0f, 10.0f}, LabButton::Right, false, false));
    LabScene ray = kz::makeLabScene(LabQuery::RayBox);
    EXPECT_FALSE(mouse_.press(ray, screen_, pixelOf(screen_, ray.handles[0].position), LabButton::Right,
                              false, false));
    EXPECT_FALSE(mouse_.grabbed());
}

TEST_F(LabInteractionTest, TheRaysEndsAreHandlesADraggedEndMovesAlone) {
    LabScene ray = kz::makeLabScene(LabQuery::RayBox);
    const glm::vec3 origin = ray.handles[0].position, box = ray.shapes[0].position;
    const glm::vec2 press = pixelOf(screen_, ray.handles[1].position);
    ASSERT_TRUE(mouse_.press(ray, screen_, press, LabButton::Left, false, false));
    EXPECT_EQ(mouse_.grabbed(), (LabItem{true, 1}));
    mouse_.drag(ray, screen_, held(press + glm::vec2(0.0f, -200.0f)));
    EXPECT_GT(ray.handles[1].position.y, 0.5f); // dragged up above the box: the ray now misses it
    EXPECT_EQ(ray.handles[0].position, origin);
    EXPECT_EQ(ray.shapes[0].position, box);
    EXPECT_FALSE(kz::runLabQuery(ray).positive);
}

TEST_F(LabInteractionTest, TheSweptSphereTakesItsEndHandleAlong) {
    LabScene sweep = kz::makeLabScene(LabQuery::SweepSphereTriangle);
    const glm::vec3 motion = sweep.handles[0].position - sweep.shapes[0].position;
    const glm::vec2 press = pixelOf(screen_, sweep.shapes[0].position);
    ASSERT_TRUE(mouse_.press(sweep, screen_, press, LabButton::Left, false, false));
    EXPECT_EQ(mouse_.grabbed(), (LabItem{false, 0}));
    mouse_.drag(sweep, screen_, held(press + glm::vec2(0.0f, 60.0f)));
    EXPECT_NE(sweep.shapes[0].position, kz::makeLabScene(LabQuery::SweepSphereTriangle).shapes[0].position);
    EXPECT_LT(glm::distance(sweep.handles[0].position - sweep.shapes[0].position, motion), 1e-5f);
}

TEST_F(LabInteractionTest, APressOverThePanelGrabsNothingAndAButtonReleasedUnseenEndsTheGrab) {
    const glm::vec2 press = pixelOf(screen_, scene_.shapes[0].position);
    EXPECT_FALSE(mouse_.press(scene_, screen_, press, LabButton::Left, false, true));
    ASSERT_TRUE(mouse_.press(scene_, screen_, press, LabButton::Left, false, false));
    mouse_.drag(scene_, screen_, released(press + glm::vec2(50.0f, 0.0f))); // released outside the window
    EXPECT_FALSE(mouse_.grabbed());
    EXPECT_EQ(scene_.shapes[0].position, kz::makeLabScene(LabQuery::BoxBox).shapes[0].position);
}

TEST_F(LabInteractionTest, ATurnEndsWhenItsOwnButtonIsFoundUpWhateverTheOtherDoes) {
    const glm::vec2 press = pixelOf(screen_, scene_.shapes[1].position);
    ASSERT_TRUE(mouse_.press(scene_, screen_, press, LabButton::Right, false, false));
    kz::Pointer leftOnly = held(press + glm::vec2(10.0f, 0.0f));
    leftOnly.rightDown = false;
    mouse_.drag(scene_, screen_, leftOnly);
    EXPECT_FALSE(mouse_.grabbed());
    EXPECT_EQ(scene_.shapes[1].orientation, kz::makeLabScene(LabQuery::BoxBox).shapes[1].orientation);
}

TEST_F(LabInteractionTest, TheHoverNamesWhatIsUnderTheCursorOnlyOverTheScene) {
    kz::Pointer pointer;
    pointer.pos = pixelOf(screen_, scene_.shapes[1].position);
    pointer.overScene = true;
    mouse_.hover(scene_, screen_, pointer);
    EXPECT_EQ(mouse_.hovered(), (LabItem{false, 1}));
    pointer.overScene = false;
    mouse_.hover(scene_, screen_, pointer);
    EXPECT_FALSE(mouse_.hovered());
}

} // namespace
