// The view framed beside the panel (src/app/view/framing.hpp): which part of the window the panel
// leaves free, and the off-centre projection that puts the camera's target (the room's centre in
// the default view) at that part's centre, with picking through the same matrices still exact.
#include "app/view/camera.hpp"
#include "app/view/framing.hpp"
#include "app/view/interaction.hpp"
#include "scenario/scenario.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <optional>

namespace {

using kz::ScreenRect;

constexpr glm::vec2 kWindow{1280.0f, 720.0f};
/// The panel where it opens (ui.cpp's panelStartRect at 1280x720).
const ScreenRect kPanel{{8.0f, 8.0f}, {368.0f, 712.0f}};
const kz::Aabb kRoom{glm::vec3(-5.0f), glm::vec3(5.0f)};

void expectRect(const ScreenRect& r, glm::vec2 min, glm::vec2 max) {
    EXPECT_EQ(r.min, min) << r.min.x << "," << r.min.y;
    EXPECT_EQ(r.max, max) << r.max.x << "," << r.max.y;
}

glm::vec2 projected(const glm::mat4& viewProj, const glm::vec3& p, glm::vec2 window = kWindow) {
    const std::optional<glm::vec2> at = kz::projectToWindow(viewProj, p, window);
    EXPECT_TRUE(at.has_value());
    return at.value_or(glm::vec2(NAN));
}

TEST(FreeArea, IsTheWholeWindowWithoutAPanelAndTheStripBesideOne) {
    expectRect(kz::freeArea(kWindow, std::nullopt), {0, 0}, kWindow);
    // The panel at the left edge: the strip right of it, full height.
    expectRect(kz::freeArea(kWindow, kPanel), {368, 0}, kWindow);
    // Moved to the right edge: the strip left of it.
    expectRect(kz::freeArea(kWindow, ScreenRect{{900, 100}, {1270, 500}}), {0, 0}, {900, 720});
}

TEST(FreeArea, OnlyThePanelsPartInsideTheWindowCountsAndANarrowStripIsNotUsed) {
    // Pushed partly off the window's top-left corner (as ImGui leaves it after the window shrank).
    expectRect(kz::freeArea({800, 600}, ScreenRect{{-18, -18}, {342, 542}}), {342, 0}, {800, 600});
    // Entirely outside: nothing covered.
    expectRect(kz::freeArea(kWindow, ScreenRect{{1400, 0}, {1700, 700}}), {0, 0}, kWindow);
    // As wide as the window leaves less than kMinFreeShare on either side: the whole window.
    expectRect(kz::freeArea({400, 300}, ScreenRect{{8, 8}, {368, 292}}), {0, 0}, {400, 300});
    // An empty panel rectangle covers nothing.
    expectRect(kz::freeArea(kWindow, ScreenRect{{100, 100}, {100, 600}}), {0, 0}, kWindow);
}

TEST(FramedPerspective, OverTheWholeLandscapeWindowIsGlmsPerspective) {
    const float fov = glm::radians(50.0f);
    const glm::mat4 framed = kz::framedPerspective(fov, 0.1f, 100.0f, kWindow, ScreenRect{{0, 0}, kWindow});
    const glm::mat4 plain = glm::perspective(fov, kWindow.x / kWindow.y, 0.1f, 100.0f);
    for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r)
            EXPECT_NEAR(framed[c][r], plain[c][r], 1e-6f) << c << "," << r;
    }
}

TEST(FramedPerspective, PutsTheRoomsCentreAtTheFreeAreasCentre) {
    const kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    const ScreenRect free = kz::freeArea(kWindow, kPanel);
    const glm::mat4 viewProj = camera.projMatrix(kWindow, free) * camera.viewMatrix();
    const glm::vec2 centre = projected(viewProj, 0.5f * (kRoom.min + kRoom.max));
    EXPECT_NEAR(centre.x, free.centre().x, 1e-3f);
    EXPECT_NEAR(centre.y, free.centre().y, 1e-3f);
    EXPECT_NEAR(centre.x, 824.0f, 1e-3f) << "halfway between the panel's right edge (368) and 1280";
    // The whole room shows inside the free area: its eight corners land in it.
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? 5.0f : -5.0f, (i & 2) ? 5.0f : -5.0f, (i & 4) ? 5.0f : -5.0f);
        const glm::vec2 p = projected(viewProj, corner);
        EXPECT_GT(p.x, free.min.x) << i;
        EXPECT_LT(p.x, free.max.x) << i;
        EXPECT_GT(p.y, free.min.y) << i;
        EXPECT_LT(p.y, free.max.y) << i;
    }
}

TEST(FramedPerspective, TheFieldOfViewSpansTheFreeAreasSmallerSide) {
    const float fov = glm::radians(60.0f);
    const glm::mat4 view = glm::lookAt(glm::vec3(0.0f, 0.0f, 10.0f), glm::vec3(0.0f), glm::vec3(0, 1, 0));
    const float halfExtent = 10.0f * std::tan(0.5f * fov); // at the target's depth
    // Landscape free area: the vertical field of view spans its height.
    const ScreenRect wide{{368, 0}, kWindow};
    const glm::mat4 a = kz::framedPerspective(fov, 0.1f, 100.0f, kWindow, wide) * view;
    EXPECT_NEAR(projected(a, {0.0f, halfExtent, 0.0f}).y, 0.0f, 1e-2f) << "the top edge";
    EXPECT_NEAR(projected(a, {0.0f, -halfExtent, 0.0f}).y, 720.0f, 1e-2f) << "the bottom edge";
    // Portrait free area (a narrow window): the same angle spans its width instead.
    const glm::vec2 narrow{800, 600};
    const ScreenRect tall{{342, 0}, narrow};
    const glm::mat4 b = kz::framedPerspective(fov, 0.1f, 100.0f, narrow, tall) * view;
    EXPECT_NEAR(projected(b, {-halfExtent, 0.0f, 0.0f}, narrow).x, 342.0f, 1e-2f) << "the left edge";
    EXPECT_NEAR(projected(b, {halfExtent, 0.0f, 0.0f}, narrow).x, 800.0f, 1e-2f) << "the right edge";
    EXPECT_EQ(kz::fieldOfViewSpan(wide), 720.0f);
    EXPECT_EQ(kz::fieldOfViewSpan(tall), 458.0f);
}

TEST(FramedPerspective, AClickUnprojectsExactlyThroughTheFramedView) {
    // The ray through the pixel a point lands on passes through the point, at 1x and on a 2x
    // (high-DPI) framebuffer, where SDL's mouse positions are in points and GL's pixels are half
    // as large.
    const kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    const ScreenRect free = kz::freeArea(kWindow, kPanel);
    for (const int scale : {1, 2}) {
        kz::ScreenCamera screen;
        screen.windowSize = glm::ivec2(kWindow);
        screen.drawableSize = glm::ivec2(kWindow) * scale;
        screen.view = camera.viewMatrix();
        screen.proj = camera.projMatrix(kWindow, free);
        for (const glm::vec3 point :
             {glm::vec3(0.0f), glm::vec3(3.0f, -2.0f, 1.5f), glm::vec3(-4.0f, 4.0f, -4.0f)}) {
            // The SDL position whose pixel centre shows the point (rayAt adds half a pixel).
            const glm::vec2 pos = projected(screen.proj * screen.view, point) - 0.5f;
            const kz::Ray ray = screen.rayAt(pos);
            const glm::vec3 toPoint = point - ray.origin;
            const float off = glm::length(toPoint - glm::dot(toPoint, ray.dir) * ray.dir);
            EXPECT_LT(off, 1e-3f) << "scale " << scale << ", point " << point.x << "," << point.y << ","
                                  << point.z;
        }
    }
}

TEST(FramedPerspective, PanningByTheFieldOfViewsSpanMovesThePointUnderTheCursorWithIt) {
    // Middle-drag: the target's depth plane follows the mouse point for point in the framed view.
    kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    camera.setSpinning(false);
    for (const ScreenRect free : {kz::freeArea(kWindow, kPanel), ScreenRect{{342, 0}, {800, 600}}}) {
        const glm::vec2 window = free.max;
        camera.reset();
        const glm::vec3 anchor = camera.view().target;
        const glm::vec2 before =
            projected(camera.projMatrix(window, free) * camera.viewMatrix(), anchor, window);
        camera.pan(30.0f, -12.0f, kz::fieldOfViewSpan(free));
        const glm::vec2 after =
            projected(camera.projMatrix(window, free) * camera.viewMatrix(), anchor, window);
        EXPECT_NEAR(after.x - before.x, 30.0f, 0.05f);
        EXPECT_NEAR(after.y - before.y, -12.0f, 0.05f);
    }
}

TEST(FramedPerspective, ADegenerateWindowOrFreeAreaGivesAFiniteMatrix) {
    for (const glm::vec2 window : {glm::vec2(1.0f), glm::vec2(0.0f), glm::vec2(1280.0f, 1.0f)}) {
        for (const ScreenRect free : {ScreenRect{}, ScreenRect{{0, 0}, window}, ScreenRect{{5, 5}, {5, 5}}}) {
            const glm::mat4 proj = kz::framedPerspective(glm::radians(60.0f), 0.1f, 100.0f, window, free);
            for (int c = 0; c < 4; ++c) {
                for (int r = 0; r < 4; ++r)
                    EXPECT_TRUE(std::isfinite(proj[c][r])) << c << "," << r;
            }
        }
    }
}

} // namespace
