// The renderer drawing into a hidden 320x240 window (Mesa llvmpipe under Xvfb): bodies in their
// colours, the room's edges, the selection's outline, debug lines, shader errors, 10,000 bodies
// and PNG screenshots. Needs a display: scripts/test.sh runs it under Xvfb.
#include "app/render/meshes.hpp"
#include "app/render/renderer.hpp"
#include "app/render/shader_program.hpp"
#include "physics/world.hpp"

#include <SDL.h>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <glad/gl.h>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <iostream>
#include <string>
#include <unistd.h>

namespace {

using namespace kz;
using namespace kz::render;

constexpr glm::ivec2 kSize{320, 240};

/// SDL video, or a skip (a failure when KZ_REQUIRE_DISPLAY is set, as in scripts/test.sh).
/// SDL falls back to its "offscreen" or "dummy" drivers when there is no display: those are
/// not a display either.
bool initVideoOrSkip() {
    std::string reason;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        reason = std::string("no display: ") + SDL_GetError();
    } else {
        const std::string driver = SDL_GetCurrentVideoDriver();
        if (driver != "offscreen" && driver != "dummy") return true;
        reason = "no display: SDL fell back to the '" + driver + "' video driver";
        SDL_Quit();
    }
    if (std::getenv("KZ_REQUIRE_DISPLAY") != nullptr) {
        ADD_FAILURE() << reason << " (KZ_REQUIRE_DISPLAY is set)";
    }
    return false;
}

/// A hidden window with a current GL 3.3 core context loaded by glad.
class RenderTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!initVideoOrSkip()) GTEST_SKIP() << "no display";
        videoUp_ = true;
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
        SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
        SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
        window_ = SDL_CreateWindow("kolize-test", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, kSize.x,
                                   kSize.y, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
        ASSERT_NE(window_, nullptr) << SDL_GetError();
        context_ = SDL_GL_CreateContext(window_);
        ASSERT_NE(context_, nullptr) << SDL_GetError();
        ASSERT_NE(gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress)), 0);
    }
    void TearDown() override {
        if (context_) SDL_GL_DeleteContext(context_);
        if (window_) SDL_DestroyWindow(window_);
        if (videoUp_) SDL_Quit();
    }

    std::unique_ptr<Renderer> makeRenderer() {
        std::string error;
        auto renderer = Renderer::create(shaderDirectory(), error);
        EXPECT_NE(renderer, nullptr) << error;
        return renderer;
    }

    SDL_Window* window_ = nullptr;
    SDL_GLContext context_ = nullptr;
    bool videoUp_ = false;
};

/// A red sphere (body 0) left of the centre and a blue box (body 1) right of it, in a 10 m room.
World twoBodies() {
    World world(boxRoom(glm::vec3(10.0f)));
    BodyDesc sphere;
    sphere.name = "red ball";
    sphere.shape = ShapeType::Sphere;
    sphere.radius = 1.0f;
    sphere.position = {-2.0f, 0.0f, 0.0f};
    sphere.velocity = {-3.0f, 0.5f, 0.0f};
    sphere.color = 0xd02020;
    world.addBody(sphere);
    BodyDesc box;
    box.name = "blue box";
    box.shape = ShapeType::Box;
    box.halfExtents = glm::vec3(0.8f);
    box.position = {2.0f, 0.0f, 0.0f};
    box.orientation = glm::angleAxis(0.4f, glm::normalize(glm::vec3(1.0f, 1.0f, 0.0f)));
    box.color = 0x2040d0;
    world.addBody(box);
    return world;
}

/// Outside the room (in front of its +z wall), looking at the centre.
SceneView camera() {
    SceneView view;
    view.eye = {0.0f, 3.0f, 18.0f};
    view.view = glm::lookAt(view.eye, glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
    view.proj = glm::perspective(glm::radians(45.0f),
                                 static_cast<float>(kSize.x) / static_cast<float>(kSize.y), 0.1f, 100.0f);
    view.framebuffer = kSize;
    return view;
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
                                    const DebugDraw& debug = {}, const Overlay& overlay = {}) {
    renderer.draw(world, camera(), selected, debug, overlay);
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
