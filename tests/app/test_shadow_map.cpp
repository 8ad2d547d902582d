// The sun's shadows (src/app/render/shadow_map.hpp and the renderer's shadow pass): the sun's
// frustum holds the whole room, and in the picture the floor is darker exactly where the physics'
// own ray casts toward the sun meet a body or a mesh: under a resting ball right up to its contact
// (no peter-panning), under a floating box, ball and the lamp's arch, while the lit floor and the
// lit side of a ball stay as they were without shadows (no acne). The drawing tests open a hidden
// window (Mesa llvmpipe under Xvfb).
#include "app/render/renderer.hpp"
#include "app/render/shadow_map.hpp"
#include "physics/pick.hpp"
#include "physics/world.hpp"
#include "scenario/scenario.hpp"
#include "support/gl_window.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace kz;
using namespace kz::render;

constexpr glm::ivec2 kSize = kz::test::kGlWindowSize;
constexpr float kFloorY = -5.0f; // the floor of a 10 m box room

TEST(SunViewProj, HoldsEveryCornerOfTheBoxAndTouchesEachFaceOfTheClipVolume) {
    const std::uint32_t seed = 20240610;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_real_distribution<float> extent(0.01f, 50.0f);
    for (int trial = 0; trial < 200; ++trial) {
        glm::vec3 toward(unit(rng), unit(rng), unit(rng));
        if (glm::length(toward) < 0.1f) continue;
        toward = glm::normalize(toward);
        if (trial == 0) toward = sunDirection();
        if (trial == 1) toward = glm::vec3(0.0f, 1.0f, 0.0f); // straight down: another up vector
        const glm::vec3 centre(unit(rng) * 100.0f, unit(rng) * 100.0f, unit(rng) * 100.0f);
        const glm::vec3 half(extent(rng), extent(rng), extent(rng));
        const Aabb box{centre - half, centre + half};
        const glm::mat4 viewProj = sunViewProj(box, toward);
        glm::vec3 lo(1e9f), hi(-1e9f);
        for (int i = 0; i < 8; ++i) {
            const glm::vec3 corner((i & 1) ? box.max.x : box.min.x, (i & 2) ? box.max.y : box.min.y,
                                   (i & 4) ? box.max.z : box.min.z);
            const glm::vec4 clip = viewProj * glm::vec4(corner, 1.0f);
            ASSERT_NEAR(clip.w, 1.0f, 1e-6f) << "orthographic; seed " << seed << ", trial " << trial;
            lo = glm::min(lo, glm::vec3(clip));
            hi = glm::max(hi, glm::vec3(clip));
        }
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_GE(lo[axis], -1.0f) << "axis " << axis << "; seed " << seed << ", trial " << trial;
            EXPECT_LE(hi[axis], 1.0f) << "axis " << axis << "; seed " << seed << ", trial " << trial;
            EXPECT_LT(lo[axis], -0.99f)
                << "not tight: axis " << axis << "; seed " << seed << ", trial " << trial;
            EXPECT_GT(hi[axis], 0.99f)
                << "not tight: axis " << axis << "; seed " << seed << ", trial " << trial;
        }
        // Depth grows away from the sun: the corner farthest along -toward is the deepest.
        const glm::vec4 nearSun = viewProj * glm::vec4(centre + toward * glm::length(half), 1.0f);
        const glm::vec4 farSun = viewProj * glm::vec4(centre - toward * glm::length(half), 1.0f);
        EXPECT_LT(nearSun.z, farSun.z) << "seed " << seed << ", trial " << trial;
    }
}

TEST(SunViewProj, TheTexelIsTheWiderExtentOverTheMapSize) {
    // Straight down onto a 10 x 4 m floor: the frustum is 10 m by 4 m (up to the hair of margin).
    const Aabb floor{{-5.0f, -1.0f, -2.0f}, {5.0f, 1.0f, 2.0f}};
    const glm::mat4 viewProj = sunViewProj(floor, glm::vec3(0.0f, 1.0f, 0.0f));
    EXPECT_NEAR(shadowTexelWorld(viewProj, 1000), 0.01f, 1e-5f);
    EXPECT_NEAR(shadowTexelWorld(viewProj, 2000), 0.005f, 1e-5f);
}

/// A fixture with a hidden window and helpers to see the floor's shadows.
class ShadowTest : public kz::test::GlWindowTest {
protected:
    using Rgb = std::array<int, 3>;

    /// The frame `renderer` draws of `world` from `view`, with or without shadows.
    std::vector<std::uint8_t> draw(Renderer& renderer, const World& world, SceneView view, bool shadows) {
        DebugDraw none;
        none.pickRay = none.impactPreview = none.hitTriangle = false;
        view.shadows = shadows;
        renderer.draw(world, view, -1, none, Overlay{});
        EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
        std::vector<std::uint8_t> image = renderer.readPixels(kSize);
        if (const char* dir = std::getenv("KZ_RENDER_SHOT_DIR"); dir != nullptr) {
            static int shot = 0;
            const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
            std::string error;
            writePng(std::filesystem::path(dir) / (name + "-" + std::to_string(shot++) + ".png"), image,
                     kSize, error);
        }
        return image;
    }

    /// The frames of `world` from `view` without and with shadows, drawn by one renderer (empty
    /// when it cannot be made).
    std::pair<std::vector<std::uint8_t>, std::vector<std::uint8_t>> drawOffAndOn(const World& world,
                                                                                 const SceneView& view) {
        auto renderer = makeRenderer();
        if (!renderer) return {};
        std::vector<std::uint8_t> off = draw(*renderer, world, view, false);
        return {std::move(off), draw(*renderer, world, view, true)};
    }

    static Rgb at(const std::vector<std::uint8_t>& image, glm::ivec2 p) {
        const auto i = (static_cast<std::size_t>(p.y) * static_cast<std::size_t>(kSize.x) +
                        static_cast<std::size_t>(p.x)) *
                       3;
        return {image[i], image[i + 1], image[i + 2]};
    }
    static int brightness(const Rgb& c) { return c[0] + c[1] + c[2]; }

    /// The ray from the eye through pixel p's centre (p's row counted from the top).
    static Ray rayThrough(const SceneView& view, glm::ivec2 p) {
        const glm::vec4 viewport(0.0f, 0.0f, static_cast<float>(kSize.x), static_cast<float>(kSize.y));
        const glm::vec3 win(static_cast<float>(p.x) + 0.5f, static_cast<float>(kSize.y - p.y) - 0.5f, 1.0f);
        const glm::vec3 far = glm::unProject(win, view.view, view.proj, viewport);
        return Ray{view.eye, glm::normalize(far - view.eye)};
    }

    /// A floor pixel: the point of the floor it shows, and how many of the sun rays from around it
    /// meet a body or an obstacle (pickNearest, the physics' own ray casts).
    struct FloorPixel {
        glm::ivec2 pixel;
        glm::vec3 point;
        int shadowedRays;    ///< Of kAround + 1: the point's own ray and those from kAround points around it.
        bool farFromCasters; ///< No sun ray from within kFar of the point meets anything.
    };
    static constexpr int kAround = 8;
    static constexpr float kNear = 0.08f; ///< Beyond the lookup's blur (about two 1.4 cm texels).
    static constexpr float kFar = 0.5f;

    static bool sunRayHits(const World& world, const glm::vec3& p) {
        return pickNearest(world, Ray{p + glm::vec3(0.0f, 1e-3f, 0.0f), sunDirection()}).has_value();
    }

    /// Every pixel of `view` that shows the floor of the 10 m room (no body or obstacle in front of
    /// it), classified by the sun rays around the point it shows.
    static std::vector<FloorPixel> floorPixels(const World& world, const SceneView& view) {
        std::vector<FloorPixel> pixels;
        for (int y = 0; y < kSize.y; ++y) {
            for (int x = 0; x < kSize.x; ++x) {
                const Ray ray = rayThrough(view, {x, y});
                if (!(ray.dir.y < 0.0f) || pickNearest(world, ray).has_value()) continue;
                const glm::vec3 p = ray.origin + ray.dir * ((kFloorY - ray.origin.y) / ray.dir.y);
                if (std::abs(p.x) > 4.9f || std::abs(p.z) > 4.9f) continue; // off the floor, or its edge line
                FloorPixel pixel{{x, y}, p, sunRayHits(world, p) ? 1 : 0, true};
                for (int k = 0; k < kAround; ++k) {
                    const float angle = 6.2831853f * static_cast<float>(k) / kAround;
                    const glm::vec3 offset(std::cos(angle), 0.0f, std::sin(angle));
                    pixel.shadowedRays += sunRayHits(world, p + kNear * offset) ? 1 : 0;
                    if (sunRayHits(world, p + kFar * offset)) pixel.farFromCasters = false;
                }
                if (pixel.shadowedRays > 0) pixel.farFromCasters = false;
                pixels.push_back(pixel);
            }
        }
        return pixels;
    }

    /// Checks the floor: darker with shadows where every sun ray around it is blocked, the same as
    /// without shadows where none within kFar is. Returns the shadowed pixels.
    std::vector<FloorPixel> expectFloorShadows(const World& world, const SceneView& view, int minShadowed) {
        const auto [off, on] = drawOffAndOn(world, view);
        if (off.empty()) return {};
        std::vector<FloorPixel> shadowed;
        int lit = 0, litChanged = 0, notDarker = 0;
        for (const FloorPixel& pixel : floorPixels(world, view)) {
            const Rgb a = at(off, pixel.pixel);
            const Rgb b = at(on, pixel.pixel);
            if (pixel.shadowedRays == kAround + 1) {
                shadowed.push_back(pixel);
                if (!(brightness(b) * 10 <= brightness(a) * 7)) {
                    if (++notDarker <= 5)
                        ADD_FAILURE() << "shadowed floor at " << pixel.pixel.x << "," << pixel.pixel.y << " ("
                                      << pixel.point.x << ", " << pixel.point.z << ") is " << brightness(b)
                                      << " with shadows, " << brightness(a) << " without";
                }
            } else if (pixel.farFromCasters) {
                ++lit;
                if (a != b && ++litChanged <= 5)
                    ADD_FAILURE() << "lit floor at " << pixel.pixel.x << "," << pixel.pixel.y << " changed";
            }
        }
        EXPECT_GE(static_cast<int>(shadowed.size()), minShadowed) << "shadowed floor pixels seen";
        EXPECT_GT(lit, 1000) << "lit floor pixels seen";
        EXPECT_EQ(notDarker, 0);
        EXPECT_EQ(litChanged, 0);
        return shadowed;
    }
};

/// A 10 m room with a ball of radius 1 resting on its floor at (1, -4, 0.5), seen from inside the
/// room on the side its shadow falls to (away from the sun), from low down (12 degrees above the
/// floor), so the floor shows to within 11 cm of the ball's foot.
struct RestingBall {
    World world{boxRoom(glm::vec3(10.0f))};
    glm::vec3 centre{1.0f, -4.0f, 0.5f};
    float radius = 1.0f;
    SceneView view;

    RestingBall() {
        BodyDesc ball;
        ball.name = "ball";
        ball.radius = radius;
        ball.position = centre;
        ball.color = 0xd04040;
        world.addBody(ball);
        const glm::vec3 foot = centre - glm::vec3(0.0f, radius, 0.0f);
        view.eye = foot + glm::vec3(-3.5f, 1.1f, -4.0f);
        view.view = glm::lookAt(view.eye, foot, glm::vec3(0.0f, 1.0f, 0.0f));
        view.proj = glm::perspective(
            glm::radians(55.0f), static_cast<float>(kSize.x) / static_cast<float>(kSize.y), 0.05f, 100.0f);
        view.framebuffer = kSize;
    }
};

TEST_F(ShadowTest, ARestingBallShadowsTheFloorUnderItUpToItsFootAndNothingFarAway) {
    const RestingBall scene;
    const std::vector<FloorPixel> shadowed = expectFloorShadows(scene.world, scene.view, 300);
    // No peter-panning: the darkened floor reaches the ball's foot (within 20 cm of the contact,
    // where the ball's underside is 2 cm above the floor).
    const glm::vec2 foot(scene.centre.x, scene.centre.z);
    float nearest = 1e9f;
    for (const FloorPixel& pixel : shadowed)
        nearest = std::min(nearest, glm::length(glm::vec2(pixel.point.x, pixel.point.z) - foot));
    EXPECT_LT(nearest, 0.2f) << "the shadow stops short of the ball's foot";
}

TEST_F(ShadowTest, FloatingBallsABoxAndTheLampsArchShadowTheFloorBelowThem) {
    const ScenarioResult resolved = resolveScenario("lamp-arch");
    ASSERT_TRUE(resolved.scenario.has_value()) << resolved.error;
    InstantiateResult made = instantiate(*resolved.scenario);
    ASSERT_TRUE(made.world.has_value()) << made.error;
    World& world = *made.world;
    ASSERT_EQ(world.obstacles().size(), 1u);
    BodyDesc box;
    box.name = "box";
    box.shape = ShapeType::Box;
    box.halfExtents = {0.8f, 0.3f, 0.6f};
    box.position = {-2.5f, -2.5f, 2.0f};
    box.orientation = glm::angleAxis(0.5f, glm::vec3(0.0f, 1.0f, 0.0f));
    world.addBody(box);
    // From high above the room's corner, so most of the floor shows.
    SceneView view;
    view.eye = {6.0f, 6.0f, 9.0f};
    view.view = glm::lookAt(view.eye, glm::vec3(-0.5f, kFloorY, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
    view.proj = glm::perspective(glm::radians(60.0f),
                                 static_cast<float>(kSize.x) / static_cast<float>(kSize.y), 0.1f, 100.0f);
    view.framebuffer = kSize;
    const std::vector<FloorPixel> shadowed = expectFloorShadows(world, view, 150);
    // Each caster's shadow is among them: the floor pixels whose own sun ray meets it.
    std::array<int, 4> byCaster{}; // the balls (bodies 0, 1), the box (body 2), the lamp
    for (const FloorPixel& pixel : shadowed) {
        const auto hit = pickNearest(world, Ray{pixel.point + glm::vec3(0.0f, 1e-3f, 0.0f), sunDirection()});
        if (!hit) continue;
        ++byCaster[static_cast<std::size_t>(hit->obstacle >= 0 ? 3 : hit->body)];
    }
    EXPECT_GT(byCaster[0] + byCaster[1], 20) << "the balls' shadows";
    EXPECT_GT(byCaster[2], 20) << "the box's shadow";
    EXPECT_GT(byCaster[3], 20) << "the lamp's shadow";
}

TEST_F(ShadowTest, TheLitSideOfABallDoesNotShadowItself) {
    // No acne: where the ball faces the sun it looks the same with shadows as without.
    const RestingBall scene;
    const auto [off, on] = drawOffAndOn(scene.world, scene.view);
    ASSERT_FALSE(off.empty());
    int facing = 0, changed = 0;
    for (int y = 0; y < kSize.y; ++y) {
        for (int x = 0; x < kSize.x; ++x) {
            const Ray ray = rayThrough(scene.view, {x, y});
            const auto hit = pickNearest(scene.world, ray);
            if (!hit || hit->body != 0 || glm::dot(hit->hit.normal, sunDirection()) < 0.2f) continue;
            // Away from the silhouette, where a pixel mixes in the floor.
            if (glm::dot(hit->hit.normal, -ray.dir) < 0.3f) continue;
            ++facing;
            if (at(off, {x, y}) != at(on, {x, y})) ++changed;
        }
    }
    EXPECT_GT(facing, 300);
    EXPECT_EQ(changed, 0) << "of " << facing << " pixels where the ball faces the sun";
}

TEST_F(ShadowTest, SwitchingShadowsOffRestoresThePictureWithoutThem) {
    const RestingBall scene;
    auto renderer = makeRenderer();
    ASSERT_NE(renderer, nullptr);
    const std::vector<std::uint8_t> before = draw(*renderer, scene.world, scene.view, false);
    const std::vector<std::uint8_t> on = draw(*renderer, scene.world, scene.view, true);
    const std::vector<std::uint8_t> after = draw(*renderer, scene.world, scene.view, false);
    EXPECT_NE(before, on) << "the shadows changed nothing";
    EXPECT_EQ(before, after) << "off, on, off again: the picture differs from the first";
}

TEST_F(ShadowTest, AnErrorInTheShadowLibraryNamesItsFileAndLine) {
    const auto dir = std::filesystem::temp_directory_path() / ("kz-shadow-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    for (const auto& entry : std::filesystem::directory_iterator(shaderDirectory()))
        std::filesystem::copy_file(entry.path(), dir / entry.path().filename(),
                                   std::filesystem::copy_options::overwrite_existing);
    {
        std::ofstream out(dir / "shadow.glsl", std::ios::app);
        out << "\n#ifdef KZ_FRAGMENT_SHADER\nfloat broken() { return undeclaredThing; }\n#endif\n";
    }
    std::ifstream in(dir / "shadow.glsl");
    int lines = 0;
    for (std::string line; std::getline(in, line);)
        ++lines;
    std::string error;
    EXPECT_EQ(Renderer::create(dir, error), nullptr);
    const std::string expected = (dir / "shadow.glsl").string() + ":" + std::to_string(lines - 1) + ": ";
    EXPECT_EQ(error.rfind(expected, 0), 0u) << error << " (expected it to start with " << expected << ")";
    EXPECT_NE(error.find("undeclaredThing"), std::string::npos) << error;
    std::filesystem::remove_all(dir);
}

} // namespace
