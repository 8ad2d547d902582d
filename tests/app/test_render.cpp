// The renderer drawing into a hidden 320x240 window (Mesa llvmpipe under Xvfb): bodies in their
// colours, the room's edges, the selection's outline, debug lines, the lamp-arch scenario's mesh
// (its colour, outline, picked triangle and BVH boxes), translucent surfaces, shader errors,
// 10,000 bodies and PNG screenshots. Needs a display: scripts/test.sh runs it under Xvfb.
#include "app/render/debug_lines.hpp"
#include "app/render/meshes.hpp"
#include "app/render/renderer.hpp"
#include "app/render/shader_program.hpp"
#include "physics/hull_body.hpp"
#include "physics/pick.hpp"
#include "physics/world.hpp"
#include "scenario/scenario.hpp"
#include "support/gl_window.hpp"

#include <SDL.h>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <glad/gl.h>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <iostream>
#include <string>
#include <unistd.h>

namespace {

using namespace kz;
using namespace kz::render;

constexpr glm::ivec2 kSize = kz::test::kGlWindowSize;

/// The hidden window with its GL 3.3 core context (tests/support/gl_window.hpp).
class RenderTest : public kz::test::GlWindowTest {};

using kz::test::twoBodies;

/// Outside the room (in front of its +z wall), looking at the centre.
SceneView camera() {
    return kz::test::twoBodiesView();
}

/// The pixel (top row first) a world point lands on.
glm::ivec2 project(const SceneView& view, const glm::vec3& p) {
    const glm::vec4 clip = view.proj * view.view * glm::vec4(p, 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    return {static_cast<int>((ndc.x * 0.5f + 0.5f) * static_cast<float>(kSize.x)),
            static_cast<int>((0.5f - ndc.y * 0.5f) * static_cast<float>(kSize.y))};
}

using Rgb = std::array<int, 3>;

Rgb pixelAt(const std::vector<std::uint8_t>& image, glm::ivec2 p) {
    const auto i =
        (static_cast<std::size_t>(p.y) * static_cast<std::size_t>(kSize.x) + static_cast<std::size_t>(p.x)) *
        3;
    return {image[i], image[i + 1], image[i + 2]};
}

bool inside(glm::ivec2 p) {
    return p.x >= 0 && p.y >= 0 && p.x < kSize.x && p.y < kSize.y;
}

std::string str(const Rgb& c) {
    return "(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + ")";
}

/// Draws one frame and reads it back. With KZ_RENDER_SHOT_DIR set, also saves it there as
/// <test name>-<n>.png, to look at.
std::vector<std::uint8_t> drawFrame(Renderer& renderer, const World& world, int selected = -1,
                                    const DebugDraw& debug = {}, const Overlay& overlay = {},
                                    const SceneView& view = camera()) {
    renderer.draw(world, view, selected, debug, overlay);
    auto image = renderer.readPixels(kSize);
    if (const char* dir = std::getenv("KZ_RENDER_SHOT_DIR"); dir != nullptr) {
        static int shot = 0;
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        const std::string name =
            std::string(test != nullptr ? test->name() : "frame") + "-" + std::to_string(shot++);
        std::string error;
        EXPECT_TRUE(writePng(std::filesystem::path(dir) / (name + ".png"), image, kSize, error)) << error;
    }
    return image;
}

std::filesystem::path tempDir(const std::string& name) {
    auto dir =
        std::filesystem::temp_directory_path() / ("kz-render-" + std::to_string(getpid()) + "-" + name);
    std::filesystem::create_directories(dir);
    return dir;
}

TEST_F(RenderTest, SphereIsRedBoxIsBlueAndTheCornerIsBackground) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const World world = twoBodies();
    const auto image = drawFrame(*renderer, world);
    ASSERT_EQ(image.size(), static_cast<std::size_t>(kSize.x * kSize.y * 3));
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    const Rgb sphere = pixelAt(image, project(camera(), world.bodies()[0].position));
    EXPECT_GT(sphere[0], sphere[1] + 40) << str(sphere);
    EXPECT_GT(sphere[0], sphere[2] + 40) << str(sphere);
    const Rgb box = pixelAt(image, project(camera(), world.bodies()[1].position));
    EXPECT_GT(box[2], box[0] + 40) << str(box);
    EXPECT_GT(box[2], box[1] + 40) << str(box);

    // The clear colour, dark blue-grey, where the room does not reach.
    const Rgb corner = pixelAt(image, {1, 1});
    EXPECT_NEAR(corner[0], 28, 2) << str(corner);
    EXPECT_NEAR(corner[1], 33, 2) << str(corner);
    EXPECT_NEAR(corner[2], 43, 2) << str(corner);
}

TEST_F(RenderTest, RoomEdgesDrawBrightLinesAndTheNearWallIsNotFilled) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const World world(boxRoom(glm::vec3(10.0f)));
    const auto image = drawFrame(*renderer, world);

    // The near top edge (the camera-side wall's top): its line is far brighter than walls.
    const glm::ivec2 mid = project(camera(), {0.0f, 5.0f, 5.0f});
    ASSERT_TRUE(inside(mid));
    int brightest = 0;
    for (int dy = -2; dy <= 2; ++dy) {
        for (int dx = -2; dx <= 2; ++dx) {
            const glm::ivec2 p = mid + glm::ivec2(dx, dy);
            if (!inside(p)) continue;
            const Rgb c = pixelAt(image, p);
            brightest = std::max(brightest, c[0] + c[1] + c[2]);
        }
    }
    EXPECT_GT(brightest, 450);

    // Through the unfilled near wall the far wall shows: not background, not an edge.
    const Rgb far = pixelAt(image, project(camera(), {1.5f, 1.5f, -5.0f}));
    EXPECT_NE(far, pixelAt(image, {1, 1})) << str(far);
    EXPECT_LT(far[0] + far[1] + far[2], 450) << str(far);
}

TEST_F(RenderTest, SelectingTheSphereOutlinesItsSilhouetteAndLeavesTheBox) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const World world = twoBodies();
    const auto plain = drawFrame(*renderer, world, -1);
    const auto selected = drawFrame(*renderer, world, 0);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    const SceneView view = camera();
    const glm::vec3 centre = world.bodies()[0].position;
    const glm::ivec2 c = project(view, centre);
    const glm::vec3 right = glm::vec3(glm::transpose(view.view)[0]);
    const float radiusPx = glm::length(glm::vec2(project(view, centre + right) - c));

    int rimChanged = 0, yellowRim = 0, farChanged = 0;
    for (int y = 0; y < kSize.y; ++y) {
        for (int x = 0; x < kSize.x; ++x) {
            const Rgb a = pixelAt(plain, {x, y});
            const Rgb b = pixelAt(selected, {x, y});
            if (a == b) continue;
            const float d = glm::length(glm::vec2(x, y) - glm::vec2(c));
            if (d > radiusPx * 1.3f + 6.0f) {
                ++farChanged;
            } else if (d > radiusPx * 0.95f) {
                ++rimChanged;
                if (b[0] > 200 && b[1] > 180 && b[2] < 120) ++yellowRim;
            }
        }
    }
    EXPECT_EQ(farChanged, 0);
    // A rim at least ~2 px wide all around.
    EXPECT_GT(rimChanged, static_cast<int>(2.0f * 6.28f * radiusPx));
    EXPECT_GT(yellowRim, static_cast<int>(6.28f * radiusPx));
    // The body itself is tinted brighter.
    const Rgb before = pixelAt(plain, c);
    const Rgb after = pixelAt(selected, c);
    EXPECT_GT(after[0] + after[1] + after[2], before[0] + before[1] + before[2] + 30)
        << str(before) << str(after);
    EXPECT_GT(after[0], after[2] + 40) << "still red: " << str(after);
}

/// A red capsule lying along x on the left, a green cylinder standing in the middle, a blue hull
/// (an octahedron stretched along x) on the right.
World roundBodies() {
    World world(boxRoom(glm::vec3(10.0f)));
    BodyDesc capsule;
    capsule.shape = ShapeType::Capsule;
    capsule.radius = 0.6f;
    capsule.halfHeight = 1.0f;
    capsule.position = {-3.2f, 0.0f, 0.0f};
    capsule.orientation = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0.0f, 0.0f, 1.0f)); // y -> -x
    capsule.color = 0xd02020;
    world.addBody(capsule);
    BodyDesc cylinder = capsule;
    cylinder.shape = ShapeType::Cylinder;
    cylinder.halfHeight = 1.2f;
    cylinder.position = {0.0f, 0.0f, 0.0f};
    cylinder.orientation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    cylinder.color = 0x20c020;
    world.addBody(cylinder);
    const HullBody hull = makeHullBody(std::vector<glm::vec3>{
        {1.2f, 0, 0}, {-1.2f, 0, 0}, {0, 0.9f, 0}, {0, -0.9f, 0}, {0, 0, 0.9f}, {0, 0, -0.9f}});
    EXPECT_TRUE(hull.hull) << hull.error;
    BodyDesc rock;
    rock.shape = ShapeType::Hull;
    rock.hull = hull.hull;
    rock.position = glm::vec3(3.2f, 0.0f, 0.0f) + hull.centre;
    rock.orientation = hull.rotation;
    rock.color = 0x2040e0;
    world.addBody(rock);
    return world;
}

TEST_F(RenderTest, CapsulesCylindersAndHullsAreDrawnInTheirShapes) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const World world = roundBodies();
    const SceneView view = camera();
    const auto image = drawFrame(*renderer, world);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    const auto dominant = [&](const glm::vec3& p, int channel) {
        const Rgb c = pixelAt(image, project(view, p));
        const int other = std::max(c[(channel + 1) % 3], c[(channel + 2) % 3]);
        return c[static_cast<std::size_t>(channel)] > other + 40;
    };
    // The capsule: its middle, and its round end 1.5 m out along the axis (inside the cap).
    EXPECT_TRUE(dominant({-3.2f, 0.0f, 0.0f}, 0));
    EXPECT_TRUE(dominant({-3.2f - 1.45f, 0.0f, 0.0f}, 0)) << "the end cap";
    // Beside its end, where its bounding box has a corner but the round cap does not reach.
    EXPECT_FALSE(dominant({-3.2f - 1.5f, 0.55f, 0.6f}, 0)) << "a capsule, not a box";
    // The cylinder: its side and its flat top edge, and nothing above it.
    EXPECT_TRUE(dominant({0.0f, 0.0f, 0.0f}, 1));
    EXPECT_TRUE(dominant({0.0f, 1.15f, 0.55f}, 1)) << "the top rim";
    EXPECT_FALSE(dominant({0.0f, 1.5f, 0.0f}, 1));
    // The hull: its centre, and not the corners of its bounding box.
    EXPECT_TRUE(dominant({3.2f, 0.0f, 0.0f}, 2));
    EXPECT_FALSE(dominant({3.2f + 1.0f, 0.8f, 0.8f}, 2)) << "an octahedron, not a box";

    // Selected, each gets its yellow rim and nothing far from it changes.
    for (int body = 0; body < 3; ++body) {
        SCOPED_TRACE("body " + std::to_string(body));
        const auto selected = drawFrame(*renderer, world, body);
        int yellow = 0;
        for (int y = 0; y < kSize.y; ++y)
            for (int x = 0; x < kSize.x; ++x) {
                const Rgb b = pixelAt(selected, {x, y});
                if (pixelAt(image, {x, y}) != b && b[0] > 200 && b[1] > 180 && b[2] < 120) ++yellow;
            }
        EXPECT_GT(yellow, 100);
    }
}

TEST_F(RenderTest, DebugLinesDrawWhenEnabled) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    World world = twoBodies();
    for (int i = 0; i < 30; ++i)
        world.step(); // the sphere reaches the wall: contacts, maybe

    const auto plain = drawFrame(*renderer, world, -1, DebugDraw{false, false, false, false, false});
    const SceneView view = camera();
    Overlay overlay;
    overlay.pickRay = Ray{view.eye, glm::normalize(world.bodies()[1].position - view.eye)};
    overlay.pickRayLength = 50.0f;
    overlay.pickHit =
        RayHit{10.0f, world.bodies()[1].position + glm::vec3(0.0f, 0.0f, 0.8f), {0.0f, 0.0f, 1.0f}};
    overlay.previewBody = 0;
    ASSERT_TRUE(world.impactPreview(0).has_value());
    const auto lines = drawFrame(*renderer, world, 1, DebugDraw{true, true, true, true, true}, overlay);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    int changed = 0;
    for (std::size_t i = 0; i < plain.size(); i += 3) {
        if (plain[i] != lines[i] || plain[i + 1] != lines[i + 1] || plain[i + 2] != lines[i + 2]) ++changed;
    }
    EXPECT_GT(changed, 200);

    // An out-of-range preview body or selection draws nothing extra and raises no error.
    overlay.previewBody = 99;
    drawFrame(*renderer, world, 99, DebugDraw{}, overlay);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

/// No debug line of any kind.
DebugDraw noDebug() {
    DebugDraw debug;
    debug.pickRay = debug.impactPreview = debug.bounds = debug.contacts = debug.velocities = false;
    debug.hitTriangle = debug.bvhBoxes = false;
    return debug;
}

/// The built-in lamp-arch scenario (a lamp-like arch mesh, obstacle 0, and two balls) and its
/// camera at the test window's size.
struct LampArch {
    World world{boxRoom(glm::vec3(10.0f))};
    SceneView view;

    static std::optional<LampArch> load() {
        const ScenarioResult resolved = resolveScenario("lamp-arch");
        EXPECT_TRUE(resolved.scenario.has_value()) << resolved.error;
        if (!resolved.scenario || !resolved.scenario->camera) return std::nullopt;
        InstantiateResult made = instantiate(*resolved.scenario);
        EXPECT_TRUE(made.world.has_value()) << made.error;
        if (!made.world || made.world->obstacles().size() != 1) return std::nullopt;
        LampArch lamp;
        lamp.world = std::move(*made.world);
        const CameraDesc& camera = *resolved.scenario->camera;
        lamp.view.eye = camera.eye;
        lamp.view.view = glm::lookAt(camera.eye, camera.target, glm::vec3(0.0f, 1.0f, 0.0f));
        lamp.view.proj =
            glm::perspective(glm::radians(camera.fovDeg),
                             static_cast<float>(kSize.x) / static_cast<float>(kSize.y), 0.1f, 100.0f);
        lamp.view.framebuffer = kSize;
        return lamp;
    }
    const Obstacle& lamp() const { return world.obstacles()[0]; }
    /// The screen rectangle (min, max pixel) that holds the lamp's world bounds.
    std::pair<glm::ivec2, glm::ivec2> screenBounds() const {
        glm::ivec2 lo(kSize), hi(-1);
        const Aabb& b = lamp().bounds;
        for (int i = 0; i < 8; ++i) {
            const glm::vec3 corner((i & 1) ? b.max.x : b.min.x, (i & 2) ? b.max.y : b.min.y,
                                   (i & 4) ? b.max.z : b.min.z);
            const glm::ivec2 p = project(view, corner);
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
        return {lo, hi};
    }
    /// The ray from the eye through pixel p's centre.
    Ray rayThrough(glm::ivec2 p) const {
        const glm::vec4 viewport(0.0f, 0.0f, static_cast<float>(kSize.x), static_cast<float>(kSize.y));
        const glm::vec3 win(static_cast<float>(p.x) + 0.5f, static_cast<float>(kSize.y - p.y) - 0.5f, 1.0f);
        const glm::vec3 far = glm::unProject(win, view.view, view.proj, viewport);
        return Ray{view.eye, glm::normalize(far - view.eye)};
    }
};

/// The lamp's colour (#b8b0a0) lit: a warm grey, red >= green >= blue, unlike the blue-grey walls,
/// the red and blue balls and the yellow outline.
bool lampLike(const Rgb& c) {
    return c[0] >= c[1] - 3 && c[1] >= c[2] - 3 && c[0] - c[2] >= 6 && c[0] - c[2] <= 40 && c[0] >= 40;
}

int countDifferent(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
    int changed = 0;
    for (std::size_t i = 0; i + 2 < a.size() && i + 2 < b.size(); i += 3) {
        if (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) ++changed;
    }
    return changed;
}

TEST_F(RenderTest, LampArchDrawsTheLampInItsColourWhereItProjects) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const std::optional<LampArch> scene = LampArch::load();
    ASSERT_TRUE(scene.has_value());
    const auto image = drawFrame(*renderer, scene->world, -1, noDebug(), {}, scene->view);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    // Points on the lamp (world frame; the arch stands on the floor at (-0.5, -5, 0), scaled
    // 1.5): the top of the base in front of the post, and the post halfway up. Each pixel the
    // ray through it meets is the lamp (checked with the picking code), drawn in the lamp's colour.
    int checked = 0;
    for (const glm::vec3 onLamp : {glm::vec3(-0.5f, -4.84f, 0.45f), glm::vec3(-0.5f, -3.5f, 0.0f)}) {
        const glm::ivec2 p = project(scene->view, onLamp);
        ASSERT_TRUE(inside(p));
        const std::optional<PickHit> hit = pickNearest(scene->world, scene->rayThrough(p));
        ASSERT_TRUE(hit.has_value());
        ASSERT_EQ(hit->obstacle, 0) << "the ray through " << p.x << "," << p.y << " misses the lamp";
        const Rgb c = pixelAt(image, p);
        EXPECT_TRUE(lampLike(c)) << "at " << p.x << "," << p.y << ": " << str(c);
        ++checked;
    }
    EXPECT_EQ(checked, 2);

    // Many lamp-coloured pixels inside the lamp's screen bounds, none outside them.
    const auto [lo, hi] = scene->screenBounds();
    int in = 0, out = 0;
    for (int y = 0; y < kSize.y; ++y) {
        for (int x = 0; x < kSize.x; ++x) {
            if (!lampLike(pixelAt(image, {x, y}))) continue;
            const bool within = x >= lo.x - 1 && x <= hi.x + 1 && y >= lo.y - 1 && y <= hi.y + 1;
            (within ? in : out) += 1;
        }
    }
    const int area = (hi.x - lo.x + 1) * (hi.y - lo.y + 1);
    EXPECT_GT(in, area / 8) << "lamp-coloured pixels in its " << area << "-pixel screen bounds";
    EXPECT_LT(out, 20) << "lamp-coloured pixels outside its screen bounds";

    // The same room without the lamp has none of them there.
    World empty(scene->world.room());
    const auto without = drawFrame(*renderer, empty, -1, noDebug(), {}, scene->view);
    int inWithout = 0;
    for (int y = std::max(lo.y, 0); y <= std::min(hi.y, kSize.y - 1); ++y) {
        for (int x = std::max(lo.x, 0); x <= std::min(hi.x, kSize.x - 1); ++x)
            inWithout += lampLike(pixelAt(without, {x, y})) ? 1 : 0;
    }
    EXPECT_LT(inWithout, 20);
}

TEST_F(RenderTest, SelectedObstacleGetsTheYellowRimAndNothingElseChanges) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const std::optional<LampArch> scene = LampArch::load();
    ASSERT_TRUE(scene.has_value());
    const auto plain = drawFrame(*renderer, scene->world, -1, noDebug(), {}, scene->view);
    Overlay selected;
    selected.selectedObstacle = 0;
    const auto outlined = drawFrame(*renderer, scene->world, -1, noDebug(), selected, scene->view);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    const auto [lo, hi] = scene->screenBounds();
    int yellow = 0, far = 0;
    for (int y = 0; y < kSize.y; ++y) {
        for (int x = 0; x < kSize.x; ++x) {
            const Rgb a = pixelAt(plain, {x, y});
            const Rgb b = pixelAt(outlined, {x, y});
            if (a == b) continue;
            if (x < lo.x - 8 || x > hi.x + 8 || y < lo.y - 8 || y > hi.y + 8) ++far;
            if (b[0] > 200 && b[1] > 180 && b[2] < 120) ++yellow;
        }
    }
    EXPECT_EQ(far, 0);
    EXPECT_GT(yellow, 150) << "yellow rim pixels around the selected lamp";
    // The lamp itself is tinted brighter where the base shows.
    const glm::ivec2 base = project(scene->view, {-0.5f, -4.84f, 0.45f});
    const Rgb before = pixelAt(plain, base);
    const Rgb after = pixelAt(outlined, base);
    EXPECT_GT(after[0] + after[1] + after[2], before[0] + before[1] + before[2] + 30)
        << str(before) << str(after);

    // An obstacle index out of range selects nothing.
    selected.selectedObstacle = 7;
    EXPECT_EQ(countDifferent(plain, drawFrame(*renderer, scene->world, -1, noDebug(), selected, scene->view)),
              0);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(RenderTest, PickedTriangleIsDrawnOnTopWhereItProjects) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const std::optional<LampArch> scene = LampArch::load();
    ASSERT_TRUE(scene.has_value());
    // The triangle under the post's middle, as a click there picks it.
    const glm::ivec2 p = project(scene->view, {-0.5f, -3.5f, 0.0f});
    const std::optional<PickHit> hit = pickNearest(scene->world, scene->rayThrough(p));
    ASSERT_TRUE(hit.has_value());
    ASSERT_EQ(hit->obstacle, 0);

    Overlay overlay;
    overlay.selectedObstacle = 0;
    overlay.pickTriangle = hit->triangle;
    DebugDraw debug = noDebug();
    const auto off = drawFrame(*renderer, scene->world, -1, debug, overlay, scene->view);
    debug.hitTriangle = true;
    const auto on = drawFrame(*renderer, scene->world, -1, debug, overlay, scene->view);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    // Changed pixels only around the triangle's projection, some of them bright lime.
    const Triangle tri = scene->lamp().worldTriangle(hit->triangle);
    glm::ivec2 lo(kSize), hi(-1);
    for (const glm::vec3& v : {tri.a, tri.b, tri.c}) {
        lo = glm::min(lo, project(scene->view, v));
        hi = glm::max(hi, project(scene->view, v));
    }
    int changed = 0, outside = 0, lime = 0;
    for (int y = 0; y < kSize.y; ++y) {
        for (int x = 0; x < kSize.x; ++x) {
            const Rgb a = pixelAt(off, {x, y});
            const Rgb b = pixelAt(on, {x, y});
            if (a == b) continue;
            ++changed;
            if (x < lo.x - 2 || x > hi.x + 2 || y < lo.y - 2 || y > hi.y + 2) ++outside;
            if (b[1] > 200 && b[1] > b[2] + 80 && b[1] > b[0] + 30) ++lime;
        }
    }
    EXPECT_GT(changed, 3) << "the picked triangle drew nothing";
    EXPECT_EQ(outside, 0) << "pixels changed away from the triangle's projection " << lo.x << "," << lo.y
                          << " - " << hi.x << "," << hi.y;
    EXPECT_GT(lime, 0);

    // Without a selected obstacle, or with a triangle index out of range, nothing is drawn.
    Overlay none = overlay;
    none.selectedObstacle = -1;
    EXPECT_EQ(countDifferent(drawFrame(*renderer, scene->world, -1, debug, none, scene->view),
                             drawFrame(*renderer, scene->world, -1, noDebug(), none, scene->view)),
              0);
    Overlay bad = overlay;
    bad.pickTriangle = 1u << 30;
    EXPECT_EQ(countDifferent(drawFrame(*renderer, scene->world, -1, debug, bad, scene->view), off), 0);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

/// The cube of half size `half` about `centre` as a translucent surface of `color`.
TranslucentSurface cubeSurface(const glm::vec3& centre, float half, const glm::vec4& color) {
    const MeshData cube = unitCube();
    TranslucentSurface surface{{}, cube.indices, color};
    for (const MeshVertex& v : cube.vertices)
        surface.positions.push_back(centre + half * v.position);
    return surface;
}

int colorDistance(const Rgb& a, const Rgb& b) {
    return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

TEST_F(RenderTest, ATranslucentSurfaceIsBlendedHiddenBehindBodiesAndLeavesTheLinesInsideIt) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const World world = twoBodies();
    const glm::vec3 green(0.0f, 1.0f, 0.0f);
    const glm::vec4 tint(0.2f, 0.9f, 0.3f, 0.3f);
    // A line through a cube between the two bodies, and a cube behind the box, hidden by it.
    DebugLines extra;
    extra.lines = {{glm::vec3(-0.5f, 0.3f, 0.0f), green}, {glm::vec3(0.5f, 0.3f, 0.0f), green}};
    Overlay overlay;
    overlay.extra = &extra;
    const auto none = drawFrame(*renderer, world, -1, noDebug(), overlay);
    extra.surfaces = {cubeSurface(glm::vec3(0.0f, 0.6f, 0.0f), 0.6f, tint),
                      cubeSurface(glm::vec3(2.0f, 0.0f, -2.5f), 0.6f, tint)};
    const auto translucent = drawFrame(*renderer, world, -1, noDebug(), overlay);
    extra.surfaces[0].color.a = 1.0f;
    const auto opaque = drawFrame(*renderer, world, -1, noDebug(), overlay);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    // Inside the cube away from the line: neither what lies behind nor the cube's opaque colour,
    // and greener than what lies behind.
    const glm::ivec2 inCube = project(camera(), {0.0f, 0.9f, 0.0f});
    const Rgb behind = pixelAt(none, inCube), blended = pixelAt(translucent, inCube),
              solid = pixelAt(opaque, inCube);
    EXPECT_GT(colorDistance(blended, behind), 10) << str(blended) << str(behind);
    EXPECT_GT(colorDistance(blended, solid), 10) << str(blended) << str(solid);
    EXPECT_GT(blended[1], behind[1] + 5) << str(blended) << str(behind);
    // The box hides the cube behind it: its centre's pixel does not change.
    const glm::ivec2 boxCentre = project(camera(), world.bodies()[1].position);
    EXPECT_EQ(pixelAt(translucent, boxCentre), pixelAt(none, boxCentre));
    // The line is drawn after the surfaces, in its own colour: every pixel it drew stays.
    int linePixels = 0, kept = 0;
    for (int y = 0; y < kSize.y; ++y) {
        for (int x = 0; x < kSize.x; ++x) {
            if (pixelAt(none, {x, y}) != Rgb{0, 255, 0}) continue;
            ++linePixels;
            if (pixelAt(translucent, {x, y}) == Rgb{0, 255, 0}) ++kept;
        }
    }
    EXPECT_GT(linePixels, 10);
    EXPECT_EQ(kept, linePixels);

    // Fully transparent, or no triangle with an area: nothing changes.
    extra.surfaces = {cubeSurface(glm::vec3(0.0f, 0.6f, 0.0f), 0.6f, glm::vec4(1.0f, 1.0f, 1.0f, 0.0f)),
                      cubeSurface(glm::vec3(0.0f, 0.6f, 0.0f), 0.0f, tint)};
    EXPECT_EQ(countDifferent(drawFrame(*renderer, world, -1, noDebug(), overlay), none), 0);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST_F(RenderTest, BvhBoxesDrawDeeperLevelsAsTheDepthGrows) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const std::optional<LampArch> scene = LampArch::load();
    ASSERT_TRUE(scene.has_value());
    const int treeDepth = scene->lamp().mesh->bvh.depth();
    ASSERT_GE(treeDepth, 4);

    DebugDraw debug = noDebug();
    const auto off = drawFrame(*renderer, scene->world, -1, debug, {}, scene->view);
    debug.bvhBoxes = true;
    debug.bvhDepth = 0;
    const auto root = drawFrame(*renderer, scene->world, -1, debug, {}, scene->view);
    debug.bvhDepth = 3;
    const auto deeper = drawFrame(*renderer, scene->world, -1, debug, {}, scene->view);
    debug.bvhDepth = 1000; // clamped to the tree's last level
    const auto deepest = drawFrame(*renderer, scene->world, -1, debug, {}, scene->view);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    const int rootChanged = countDifferent(off, root);
    const int deeperChanged = countDifferent(off, deeper);
    EXPECT_GT(rootChanged, 100) << "the root's box (12 edges)";
    EXPECT_GT(deeperChanged, rootChanged + 100) << "levels 0 to 3";
    EXPECT_GT(countDifferent(off, deepest), deeperChanged);

    // The root box is the mesh's local bounds placed in the world: its corners' pixels changed
    // (each corner checked in a 3x3 block: a line covers at least one of those pixels).
    const Obstacle& lamp = scene->lamp();
    const Aabb local = lamp.mesh->bvh.bounds();
    int cornersSeen = 0;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? local.max.x : local.min.x, (i & 2) ? local.max.y : local.min.y,
                               (i & 4) ? local.max.z : local.min.z);
        const glm::ivec2 p = project(scene->view, lamp.toWorld(corner));
        bool seen = false;
        for (int dy = -1; dy <= 1 && !seen; ++dy) {
            for (int dx = -1; dx <= 1 && !seen; ++dx) {
                const glm::ivec2 q = p + glm::ivec2(dx, dy);
                seen = inside(q) && pixelAt(off, q) != pixelAt(root, q);
            }
        }
        cornersSeen += seen ? 1 : 0;
    }
    EXPECT_EQ(cornersSeen, 8);

    // With the lamp selected the same boxes are drawn (it is the only obstacle).
    Overlay selected;
    selected.selectedObstacle = 0;
    debug.bvhDepth = 3;
    DebugDraw outlineOnly = noDebug();
    EXPECT_GT(countDifferent(drawFrame(*renderer, scene->world, -1, outlineOnly, selected, scene->view),
                             drawFrame(*renderer, scene->world, -1, debug, selected, scene->view)),
              rootChanged);
}

TEST_F(RenderTest, MissingShaderDirectoryGivesOneLineNamingTheFile) {
    std::string error;
    const auto renderer = Renderer::create("/nonexistent/kolize-shaders", error);
    EXPECT_EQ(renderer, nullptr);
    EXPECT_EQ(error.rfind("/nonexistent/kolize-shaders/scene.vert: cannot read: ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST_F(RenderTest, ShaderCompileErrorGivesFileAndLine) {
    const auto dir = tempDir("broken");
    for (const auto& entry : std::filesystem::directory_iterator(shaderDirectory())) {
        std::filesystem::copy_file(entry.path(), dir / entry.path().filename(),
                                   std::filesystem::copy_options::overwrite_existing);
    }
    {
        std::ofstream out(dir / "room.frag", std::ios::trunc);
        out << "#version 330 core\n\nout vec4 fragColor;\n\nvoid main() { fragColor = vec4(undeclared, 1.0); "
               "}\n";
    }
    std::string error;
    const auto renderer = Renderer::create(dir, error);
    EXPECT_EQ(renderer, nullptr);
    const std::string prefix = (dir / "room.frag").string() + ":5: ";
    EXPECT_EQ(error.rfind(prefix, 0), 0u) << error;
    EXPECT_NE(error.find("undeclared"), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    std::filesystem::remove_all(dir);
}

TEST_F(RenderTest, TenThousandBodiesDrawWithoutGlErrors) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    World world(boxRoom(glm::vec3(10.0f)));
    int count = 0;
    for (int i = 0; i < 22 && count < 10000; ++i) {
        for (int j = 0; j < 22 && count < 10000; ++j) {
            for (int k = 0; k < 22 && count < 10000; ++k, ++count) {
                BodyDesc desc;
                desc.shape = count % 2 == 0 ? ShapeType::Sphere : ShapeType::Box;
                desc.radius = 0.12f;
                desc.halfExtents = glm::vec3(0.1f, 0.08f, 0.12f);
                desc.orientation =
                    glm::angleAxis(0.1f * static_cast<float>(count), glm::vec3(0.0f, 1.0f, 0.0f));
                desc.position =
                    glm::vec3(static_cast<float>(i), static_cast<float>(j), static_cast<float>(k)) * 0.4f -
                    glm::vec3(4.2f);
                desc.velocity = {1.0f, 0.0f, 0.0f};
                desc.color = static_cast<std::uint32_t>(0x102030 * (count % 7 + 1)) & 0xffffffu;
                world.addBody(desc);
            }
        }
    }
    ASSERT_EQ(world.bodies().size(), 10000u);
    const auto image = drawFrame(*renderer, world, 1234, DebugDraw{true, true, true, true, true});
    glFinish();
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    // The crowd covers the centre of the view.
    EXPECT_NE(pixelAt(image, kSize / 2), pixelAt(image, {1, 1}));

    const auto start = std::chrono::steady_clock::now();
    renderer->draw(world, camera(), 1234, DebugDraw{false, false, false, false, false}, Overlay{});
    glFinish();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    std::cout << "10,000 bodies, no debug lines: " << ms << " ms per frame (llvmpipe here)\n";
}

TEST_F(RenderTest, ScreenshotWritesAPng) {
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const auto image = drawFrame(*renderer, twoBodies());
    const auto dir = tempDir("png");
    const auto file = dir / "shot.png";
    std::string error;
    ASSERT_TRUE(writePng(file, image, kSize, error)) << error;
    ASSERT_GT(std::filesystem::file_size(file), 0u);
    std::ifstream in(file, std::ios::binary);
    std::array<char, 8> signature{};
    in.read(signature.data(), signature.size());
    EXPECT_EQ(std::string(signature.data(), signature.size()), std::string("\x89PNG\r\n\x1a\n", 8));

    EXPECT_FALSE(writePng(dir / "no-such-dir" / "shot.png", image, kSize, error));
    EXPECT_NE(error.find("no-such-dir/shot.png"), std::string::npos) << error;
    EXPECT_FALSE(writePng(file, image, {10, 10}, error));
    EXPECT_NE(error.find("shot.png"), std::string::npos) << error;
    std::filesystem::remove_all(dir);
}

// No GL below: the CPU side of the renderer.

TEST(RenderMeshes, CubeHas24VerticesAnd36OutwardIndices) {
    const MeshData cube = unitCube();
    EXPECT_EQ(cube.vertices.size(), 24u);
    ASSERT_EQ(cube.indices.size(), 36u);
    for (std::size_t i = 0; i < cube.indices.size(); i += 3) {
        const auto& a = cube.vertices[cube.indices[i]];
        const auto& b = cube.vertices[cube.indices[i + 1]];
        const auto& c = cube.vertices[cube.indices[i + 2]];
        const glm::vec3 n = glm::normalize(glm::cross(b.position - a.position, c.position - a.position));
        EXPECT_NEAR(glm::dot(n, a.normal), 1.0f, 1e-6f);
    }
}

TEST(RenderMeshes, SphereTrianglesFaceOutwardOnTheUnitSphere) {
    const MeshData sphere = unitSphere(32, 16);
    EXPECT_EQ(sphere.vertices.size(), 33u * 17u);
    EXPECT_EQ(sphere.indices.size(), (32u * 16u * 2u - 2u * 32u) * 3u);
    for (const MeshVertex& v : sphere.vertices)
        EXPECT_NEAR(glm::length(v.position), 1.0f, 1e-6f);
    for (std::size_t i = 0; i < sphere.indices.size(); i += 3) {
        const glm::vec3 a = sphere.vertices[sphere.indices[i]].position;
        const glm::vec3 b = sphere.vertices[sphere.indices[i + 1]].position;
        const glm::vec3 c = sphere.vertices[sphere.indices[i + 2]].position;
        EXPECT_GT(glm::dot(glm::cross(b - a, c - a), a + b + c), 0.0f);
    }
}

/// Every triangle faces out (its normal away from the y axis, or along y on a cap) and agrees
/// with its vertices' normals (a smooth side: within the slice's half angle).
void expectOutward(const MeshData& mesh, float minCosine) {
    ASSERT_FALSE(mesh.indices.empty());
    for (std::size_t i = 0; i < mesh.indices.size(); i += 3) {
        const MeshVertex& a = mesh.vertices[mesh.indices[i]];
        const MeshVertex& b = mesh.vertices[mesh.indices[i + 1]];
        const MeshVertex& c = mesh.vertices[mesh.indices[i + 2]];
        const glm::vec3 cross = glm::cross(b.position - a.position, c.position - a.position);
        ASSERT_GT(glm::length(cross), 0.0f) << "triangle " << i / 3;
        const glm::vec3 n = glm::normalize(cross);
        for (const MeshVertex* v : {&a, &b, &c}) {
            EXPECT_NEAR(glm::length(v->normal), 1.0f, 1e-5f);
            EXPECT_GT(glm::dot(n, v->normal), minCosine) << "triangle " << i / 3;
        }
    }
}

TEST(RenderMeshes, TubeCylinderAndHemisphereFaceOutwardWithTheirNormals) {
    const float slice = std::cos(glm::two_pi<float>() / 32.0f);
    const MeshData tube = unitTube(32);
    EXPECT_EQ(tube.vertices.size(), 66u);
    EXPECT_EQ(tube.indices.size(), 32u * 6u);
    expectOutward(tube, slice);
    const MeshData cylinder = unitCylinder(32);
    EXPECT_EQ(cylinder.indices.size(), 32u * 6u + 2u * 32u * 3u);
    expectOutward(cylinder, slice);
    for (const MeshVertex& v : cylinder.vertices) {
        EXPECT_LE(std::abs(v.position.y), 1.0f);
        EXPECT_LE(glm::length(glm::vec2(v.position.x, v.position.z)), 1.0f + 1e-6f);
    }
    const MeshData cap = unitHemisphere(32, 8);
    expectOutward(cap, std::cos(glm::half_pi<float>() / 8.0f + glm::two_pi<float>() / 32.0f));
    for (const MeshVertex& v : cap.vertices) {
        EXPECT_NEAR(glm::length(v.position), 1.0f, 1e-6f);
        EXPECT_GE(v.position.y, -1e-6f);
    }
}

TEST(RenderMeshes, AHullsFacesBecomeOutwardTriangleFans) {
    std::vector<glm::vec3> points;
    for (int i = 0; i < 8; ++i)
        points.emplace_back(i & 1 ? 1.0f : -1.0f, i & 2 ? 0.5f : -0.5f, i & 4 ? 0.25f : -0.25f);
    points.emplace_back(0.0f, 0.0f, 0.6f); // a roof on one face: triangles besides quads
    const auto built = kz::buildConvexHull(points);
    ASSERT_TRUE(built.hull) << built.error;
    std::vector<glm::vec3> positions;
    std::vector<std::uint32_t> indices;
    hullTriangles(*built.hull, positions, indices);
    std::size_t expected = 0;
    for (const kz::ConvexHull::Face& f : built.hull->faces) {
        std::size_t corners = 0;
        std::uint32_t e = f.edge;
        do {
            ++corners;
            e = built.hull->edges[e].next;
        } while (e != f.edge);
        expected += 3 * (corners - 2);
    }
    EXPECT_EQ(indices.size(), expected);
    const MeshData flat = flatShaded(positions, indices);
    EXPECT_EQ(flat.indices.size(), expected) << "no degenerate triangle";
    for (std::size_t i = 0; i < flat.vertices.size(); i += 3)
        EXPECT_GT(glm::dot(flat.vertices[i].normal, flat.vertices[i].position - built.hull->centroid), 0.0f)
            << "outward";
}

/// A unit tetrahedron wound counter-clockwise seen from outside, plus a degenerate triangle.
struct Tetrahedron {
    std::vector<glm::vec3> positions{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    std::vector<std::uint32_t> indices{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3, /* degenerate: */ 0, 0, 1};
};

TEST(RenderMeshes, FlatShadingGivesEachTriangleItsOwnVerticesAndFaceNormal) {
    const Tetrahedron tet;
    const MeshData flat = flatShaded(tet.positions, tet.indices);
    ASSERT_EQ(flat.vertices.size(), 12u); // the degenerate triangle is left out
    ASSERT_EQ(flat.indices.size(), 12u);
    const glm::vec3 centre(0.25f);
    for (std::size_t i = 0; i < flat.indices.size(); i += 3) {
        EXPECT_EQ(flat.indices[i], i);
        const MeshVertex& a = flat.vertices[i];
        const MeshVertex& b = flat.vertices[i + 1];
        const MeshVertex& c = flat.vertices[i + 2];
        EXPECT_EQ(a.normal, b.normal);
        EXPECT_EQ(a.normal, c.normal);
        EXPECT_NEAR(glm::length(a.normal), 1.0f, 1e-6f);
        EXPECT_GT(glm::dot(a.normal, a.position - centre), 0.0f) << "outward";
        EXPECT_NEAR(glm::dot(a.normal, b.position - a.position), 0.0f, 1e-6f);
    }
    // An index out of range drops its triangle, not the mesh.
    const std::vector<std::uint32_t> bad{0, 1, 9, 0, 2, 1};
    EXPECT_EQ(flatShaded(tet.positions, bad).vertices.size(), 3u);
}

TEST(RenderMeshes, SmoothHullWeldsPositionsAndPointsNormalsOutEitherWinding) {
    // Each face with its own copies of the corners (as an exporter writes flat meshes).
    const Tetrahedron tet;
    std::vector<glm::vec3> split;
    std::vector<std::uint32_t> splitIndices;
    for (std::size_t i = 0; i + 2 < 12; i += 3) {
        for (int k = 0; k < 3; ++k) {
            splitIndices.push_back(static_cast<std::uint32_t>(split.size()));
            split.push_back(tet.positions[tet.indices[i + static_cast<std::size_t>(k)]]);
        }
    }
    std::vector<std::uint32_t> clockwise = splitIndices;
    for (std::size_t i = 0; i + 2 < clockwise.size(); i += 3)
        std::swap(clockwise[i + 1], clockwise[i + 2]);

    for (const auto* indices : {&splitIndices, &clockwise}) {
        const MeshData hull = smoothHull(split, *indices);
        ASSERT_EQ(hull.vertices.size(), 4u) << "welded to the 4 corners";
        ASSERT_EQ(hull.indices.size(), 12u);
        const glm::vec3 centre(0.25f);
        for (const MeshVertex& v : hull.vertices) {
            EXPECT_NEAR(glm::length(v.normal), 1.0f, 1e-5f);
            EXPECT_GT(glm::dot(v.normal, v.position - centre), 0.0f) << "outward";
        }
        for (std::size_t i = 0; i < hull.indices.size(); i += 3) {
            const glm::vec3 a = hull.vertices[hull.indices[i]].position;
            const glm::vec3 b = hull.vertices[hull.indices[i + 1]].position;
            const glm::vec3 c = hull.vertices[hull.indices[i + 2]].position;
            EXPECT_GT(glm::dot(glm::cross(b - a, c - a), a + b + c - 3.0f * centre), 0.0f)
                << "counter-clockwise seen from outside";
        }
    }
}

/// Every debug option off but `on`.
DebugDraw only(bool DebugDraw::*on) {
    DebugDraw debug = noDebug();
    debug.*on = true;
    return debug;
}

/// The tetrahedron as an obstacle placed with a rotation, a non-uniform scale and an offset.
Obstacle placedTetrahedron() {
    const Tetrahedron tet;
    std::string error;
    std::vector<std::uint32_t> indices(tet.indices.begin(), tet.indices.begin() + 12);
    ObstacleDesc desc;
    desc.mesh = MeshShape::make("tetrahedron", tet.positions, indices, error);
    EXPECT_NE(desc.mesh, nullptr) << error;
    desc.position = {1.0f, -2.0f, 0.5f};
    desc.orientation = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1.0f, 2.0f, 0.5f)));
    desc.scale = {2.0f, 0.5f, 1.5f};
    std::optional<Obstacle> obstacle = makeObstacle(desc, error);
    EXPECT_TRUE(obstacle.has_value()) << error;
    return *obstacle;
}

TEST(RenderDebugLines, AWorldBoxIsItsTwelveEdgesAlongTheAxes) {
    std::vector<LineVertex> lines;
    const Aabb box{{-1.0f, 0.0f, 2.0f}, {1.0f, 3.0f, 6.0f}};
    const glm::vec3 color(0.1f, 0.2f, 0.3f);
    addBox(lines, box, color);
    ASSERT_EQ(lines.size(), 24u);
    glm::vec3 lengths(0.0f);
    for (std::size_t i = 0; i < lines.size(); i += 2) {
        const glm::vec3 edge = lines[i + 1].position - lines[i].position;
        EXPECT_EQ(lines[i].color, color);
        int axes = 0;
        for (int axis = 0; axis < 3; ++axis) {
            if (edge[axis] == 0.0f) continue;
            ++axes;
            lengths[axis] += edge[axis];
        }
        EXPECT_EQ(axes, 1) << "an edge runs along one axis";
        for (const glm::vec3& p : {lines[i].position, lines[i + 1].position}) {
            EXPECT_TRUE(glm::all(glm::greaterThanEqual(p, box.min)) &&
                        glm::all(glm::lessThanEqual(p, box.max)));
        }
    }
    EXPECT_EQ(lengths, 4.0f * (box.max - box.min)) << "4 edges per axis, each the box's extent";
}

TEST(RenderDebugLines, APlacedBoxIsTheLocalBoxsEdgesMappedByTheObstacle) {
    const Obstacle obstacle = placedTetrahedron();
    const Aabb local{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};
    std::vector<LineVertex> world, placed;
    addBox(world, local, glm::vec3(1.0f));
    addBox(placed, local, glm::vec3(1.0f), &obstacle);
    ASSERT_EQ(placed.size(), world.size());
    for (std::size_t i = 0; i < placed.size(); ++i)
        EXPECT_EQ(placed[i].position, obstacle.toWorld(world[i].position)) << i;
}

TEST(RenderDebugLines, NothingSwitchedOnDrawsNothing) {
    World world = twoBodies();
    Overlay overlay;
    overlay.pickRay = Ray{glm::vec3(0.0f, 0.0f, 20.0f), glm::vec3(0.0f, 0.0f, -1.0f)};
    overlay.previewBody = 0;
    BvhBoxCache cache;
    DebugLines out;
    out.lines.push_back({}); // cleared first
    buildDebugLines(world, glm::vec3(0.0f, 3.0f, 18.0f), noDebug(), overlay, cache, out);
    EXPECT_TRUE(out.lines.empty());
    EXPECT_TRUE(out.topLines.empty());
    EXPECT_TRUE(out.topTriangles.empty());
}

TEST(RenderDebugLines, ExtraLinesAreAddedWhateverTheToggles) {
    World world = twoBodies();
    DebugLines extra;
    extra.lines = {{glm::vec3(0.0f), glm::vec3(1.0f)}, {glm::vec3(1.0f), glm::vec3(1.0f)}};
    extra.topLines = {{glm::vec3(2.0f), glm::vec3(1.0f, 0.0f, 0.0f)},
                      {glm::vec3(3.0f), glm::vec3(1.0f, 0.0f, 0.0f)}};
    Overlay overlay;
    overlay.extra = &extra;
    BvhBoxCache cache;
    DebugLines out;
    buildDebugLines(world, glm::vec3(0.0f, 3.0f, 18.0f), noDebug(), overlay, cache, out);
    ASSERT_EQ(out.lines.size(), 2u);
    EXPECT_EQ(out.lines[1].position, glm::vec3(1.0f));
    ASSERT_EQ(out.topLines.size(), 2u);
    EXPECT_EQ(out.topLines[0].position, glm::vec3(2.0f));
    EXPECT_TRUE(out.topTriangles.empty());
    EXPECT_TRUE(out.surfaces.empty());

    extra.surfaces.push_back({{glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f)},
                              {0u, 1u, 2u},
                              glm::vec4(0.5f)});
    buildDebugLines(world, glm::vec3(0.0f, 3.0f, 18.0f), noDebug(), overlay, cache, out);
    ASSERT_EQ(out.surfaces.size(), 1u);
    EXPECT_EQ(out.surfaces[0].indices.size(), 3u);
    EXPECT_EQ(out.surfaces[0].color, glm::vec4(0.5f));
}

TEST(RenderDebugLines, TheAppsOverlayComesFromItsPicks) {
    World world = twoBodies();
    PickState picks;
    Overlay overlay = overlayOf(world, picks, 80.0f);
    EXPECT_FALSE(overlay.pickRay || overlay.pickHit || overlay.pickTriangle);
    EXPECT_EQ(overlay.pickRayLength, 80.0f);
    EXPECT_EQ(overlay.previewBody, 0) << "nothing selected: body 0's preview";
    EXPECT_EQ(overlay.selectedObstacle, -1);

    // A click on body 1: its ray drawn to the hit, its preview.
    picks.ray = Ray{glm::vec3(0.0f, 0.0f, 20.0f), glm::vec3(0.0f, 0.0f, -1.0f)};
    picks.selection = PickHit{1, RayHit{4.0f, {0.0f, 0.0f, 16.0f}, {0.0f, 0.0f, 1.0f}}};
    overlay = overlayOf(world, picks, 80.0f);
    ASSERT_TRUE(overlay.pickRay && overlay.pickHit);
    EXPECT_EQ(overlay.pickRay->origin, picks.ray->origin);
    EXPECT_EQ(overlay.pickHit->point, glm::vec3(0.0f, 0.0f, 16.0f));
    EXPECT_EQ(overlay.pickRayLength, 4.0f);
    EXPECT_EQ(overlay.previewBody, 1);
    EXPECT_FALSE(overlay.pickTriangle);

    // A click on obstacle 0's triangle 7: outlined, its triangle drawn, body 0 previewed.
    picks.selection = PickHit{-1, RayHit{5.0f, {0.0f, 0.0f, 15.0f}, {0.0f, 0.0f, 1.0f}}, 0, 7u};
    overlay = overlayOf(world, picks, 80.0f);
    EXPECT_EQ(overlay.selectedObstacle, 0);
    EXPECT_EQ(overlay.pickTriangle, std::optional<std::uint32_t>(7u));
    EXPECT_EQ(overlay.previewBody, 0);

    // An empty world previews nothing.
    EXPECT_EQ(overlayOf(World(boxRoom(glm::vec3(10.0f))), PickState{}, 80.0f).previewBody, -1);
}

TEST(RenderDebugLines, PickRayIsASegmentOfItsLengthAndTheHitACrossAndANormal) {
    World world = twoBodies();
    const glm::vec3 eye(0.0f, 3.0f, 18.0f);
    Overlay overlay;
    overlay.pickRay = Ray{eye, glm::vec3(0.0f, 0.0f, -1.0f)};
    overlay.pickRayLength = 7.0f;
    BvhBoxCache cache;
    DebugLines out;
    buildDebugLines(world, eye, only(&DebugDraw::pickRay), overlay, cache, out);
    ASSERT_EQ(out.lines.size(), 2u) << "no hit: the ray alone";
    EXPECT_EQ(out.lines[1].position, eye + glm::vec3(0.0f, 0.0f, -7.0f));

    overlay.pickHit = RayHit{7.0f, eye + glm::vec3(0.0f, 0.0f, -7.0f), {0.0f, 0.0f, 1.0f}};
    buildDebugLines(world, eye, only(&DebugDraw::pickRay), overlay, cache, out);
    EXPECT_EQ(out.lines.size(), 2u + 6u + 2u) << "the ray, a 3-segment cross, the normal";

    overlay.pickRay->dir = glm::vec3(std::nanf(""), 0.0f, 0.0f);
    buildDebugLines(world, eye, only(&DebugDraw::pickRay), overlay, cache, out);
    EXPECT_TRUE(out.lines.empty()) << "a non-finite ray draws nothing";
}

TEST(RenderDebugLines, ImpactPreviewRunsFromTheCentreToTheImpactAndSkipsBadIndices) {
    World world = twoBodies();
    const auto preview = world.impactPreview(0);
    ASSERT_TRUE(preview.has_value());
    Overlay overlay;
    overlay.previewBody = 0;
    BvhBoxCache cache;
    DebugLines out;
    buildDebugLines(world, glm::vec3(0.0f, 3.0f, 18.0f), only(&DebugDraw::impactPreview), overlay, cache,
                    out);
    ASSERT_EQ(out.lines.size(), 2u + 6u) << "the segment and a cross at the impact";
    EXPECT_EQ(out.lines[0].position, world.bodies()[0].position);
    EXPECT_EQ(out.lines[1].position, preview->point);
    for (int bad : {-1, 2, 99}) {
        overlay.previewBody = bad;
        buildDebugLines(world, glm::vec3(0.0f, 3.0f, 18.0f), only(&DebugDraw::impactPreview), overlay, cache,
                        out);
        EXPECT_TRUE(out.lines.empty()) << bad;
    }
}

TEST(RenderDebugLines, BoundsVelocitiesAndContactsCountTheirBodies) {
    World world = twoBodies();
    const glm::vec3 eye(0.0f, 3.0f, 18.0f);
    BvhBoxCache cache;
    DebugLines out;
    buildDebugLines(world, eye, only(&DebugDraw::velocities), {}, cache, out);
    EXPECT_EQ(out.lines.size(), 2u) << "the box is at rest: the sphere's arrow only";
    for (int i = 0; i < 30; ++i)
        world.step(); // the sphere reaches the wall
    buildDebugLines(world, eye, only(&DebugDraw::bounds), {}, cache, out);
    EXPECT_EQ(out.lines.size(), 2u * 24u) << "one box per body";
    buildDebugLines(world, eye, only(&DebugDraw::contacts), {}, cache, out);
    EXPECT_EQ(out.lines.size(), world.contacts().size() * 8u) << "a cross and a normal per contact";
}

TEST(RenderDebugLines, BvhBoxesGiveEachLevelItsColourAndClampTheDepth) {
    const std::optional<LampArch> scene = LampArch::load();
    ASSERT_TRUE(scene.has_value());
    const MeshBvh& bvh = scene->lamp().mesh->bvh;
    const int treeDepth = bvh.depth();
    ASSERT_GE(treeDepth, 4);

    const std::vector<LeveledBox> root = boxesByLevel(bvh, 0);
    ASSERT_EQ(root.size(), 1u);
    EXPECT_EQ(root[0].level, 0);
    const std::vector<LeveledBox> deep = boxesByLevel(bvh, 3);
    EXPECT_EQ(deep.size(), bvh.nodeBoxes(3).size()) << "every node once";
    for (std::size_t i = 1; i < deep.size(); ++i)
        EXPECT_LE(deep[i - 1].level, deep[i].level) << "level by level";
    for (int level = 0; level < 8; ++level)
        EXPECT_NE(levelColor(level), levelColor(level + 1)) << level;

    BvhBoxCache cache;
    DebugLines out;
    DebugDraw debug = only(&DebugDraw::bvhBoxes);
    debug.bvhDepth = 3;
    buildDebugLines(scene->world, scene->view.eye, debug, {}, cache, out);
    EXPECT_EQ(out.lines.size(), deep.size() * 24u);
    EXPECT_EQ(out.lines[0].color, levelColor(0));
    debug.bvhDepth = 1000;
    buildDebugLines(scene->world, scene->view.eye, debug, {}, cache, out);
    EXPECT_EQ(out.lines.size(), boxesByLevel(bvh, treeDepth - 1).size() * 24u) << "clamped to the tree";
}

TEST(RenderDebugLines, PickedTriangleGoesOnTopOnlyWhenItsObstacleIsSelected) {
    const std::optional<LampArch> scene = LampArch::load();
    ASSERT_TRUE(scene.has_value());
    const Obstacle& lamp = scene->lamp();
    Overlay overlay;
    overlay.pickTriangle = 5;
    BvhBoxCache cache;
    DebugLines out;
    buildDebugLines(scene->world, scene->view.eye, only(&DebugDraw::hitTriangle), overlay, cache, out);
    EXPECT_TRUE(out.topTriangles.empty()) << "no obstacle selected";

    overlay.selectedObstacle = 0;
    buildDebugLines(scene->world, scene->view.eye, only(&DebugDraw::hitTriangle), overlay, cache, out);
    const Triangle tri = lamp.worldTriangle(5);
    ASSERT_EQ(out.topTriangles.size(), 3u);
    EXPECT_EQ(out.topTriangles[0].position, tri.a);
    EXPECT_EQ(out.topTriangles[1].position, tri.b);
    EXPECT_EQ(out.topTriangles[2].position, tri.c);
    EXPECT_EQ(out.topLines.size(), 6u) << "its three edges";
    EXPECT_TRUE(out.lines.empty());

    overlay.pickTriangle = static_cast<std::uint32_t>(lamp.mesh->triangleCount());
    buildDebugLines(scene->world, scene->view.eye, only(&DebugDraw::hitTriangle), overlay, cache, out);
    EXPECT_TRUE(out.topTriangles.empty() && out.topLines.empty()) << "a triangle out of range";
}

TEST(RenderShaderLog, MesaAndNvidiaLogsGiveTheLine) {
    const ShaderLogLine mesa = parseShaderLog("0:12(3): error: `foo' undeclared\n0:13(1): error: more\n");
    EXPECT_EQ(mesa.line, 12);
    EXPECT_EQ(mesa.message, "error: `foo' undeclared");
    const ShaderLogLine nvidia = parseShaderLog("0(7) : error C0000: syntax error");
    EXPECT_EQ(nvidia.line, 7);
    EXPECT_EQ(nvidia.message, "error C0000: syntax error");
    const ShaderLogLine other = parseShaderLog("\nsomething odd\nsecond");
    EXPECT_EQ(other.line, 0);
    EXPECT_EQ(other.message, "something odd");
    EXPECT_FALSE(parseShaderLog("").message.empty());
}

} // namespace
