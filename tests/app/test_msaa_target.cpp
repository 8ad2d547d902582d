// Multisampling (src/app/render/msaa_target.hpp): the renderer draws the scene into a
// multisampled framebuffer and resolves it into the one bound when it draws, so readPixels (and
// the --screenshot / F12 PNGs) read an ordinary resolved picture, whose edges blend the colours on
// either side; the sample count is clamped to what the context offers. Drawn into a hidden window
// (Mesa llvmpipe under Xvfb).
#include "app/render/renderer.hpp"
#include "support/gl_window.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using namespace kz;
using namespace kz::render;

constexpr glm::ivec2 kSize = kz::test::kGlWindowSize;
using Rgb = std::array<int, 3>;

class MsaaTest : public kz::test::GlWindowTest {
protected:
    static int maxSamples() {
        GLint samples = 0;
        glGetIntegerv(GL_MAX_SAMPLES, &samples);
        return samples;
    }
};

std::vector<std::uint8_t> drawAndRead(Renderer& renderer) {
    DebugDraw none;
    none.pickRay = none.impactPreview = none.hitTriangle = false;
    renderer.draw(kz::test::twoBodies(), kz::test::twoBodiesView(), -1, none, Overlay{});
    return renderer.readPixels(kSize);
}

Rgb at(const std::vector<std::uint8_t>& image, int x, int y) {
    const auto i =
        (static_cast<std::size_t>(y) * static_cast<std::size_t>(kSize.x) + static_cast<std::size_t>(x)) * 3;
    return {image[i], image[i + 1], image[i + 2]};
}

int distance(const Rgb& a, const Rgb& b) {
    return std::max({std::abs(a[0] - b[0]), std::abs(a[1] - b[1]), std::abs(a[2] - b[2])});
}

/// Whether `c` lies between `a` and `b` on every channel, and at least `margin` from each of them
/// on the channel where they differ most: a blend of the two, neither one.
bool between(const Rgb& c, const Rgb& a, const Rgb& b, int margin) {
    int widest = 0;
    for (int k = 1; k < 3; ++k) {
        if (std::abs(a[k] - b[k]) > std::abs(a[widest] - b[widest])) widest = k;
    }
    for (int k = 0; k < 3; ++k) {
        if (c[k] < std::min(a[k], b[k]) - 2 || c[k] > std::max(a[k], b[k]) + 2) return false;
    }
    return std::abs(c[widest] - a[widest]) >= margin && std::abs(c[widest] - b[widest]) >= margin;
}

TEST_F(MsaaTest, AMultisampledFrameReadsBackResolvedWithItsEdgesBlended) {
    auto plain = makeRenderer(0);
    auto multisampled = makeRenderer(4);
    ASSERT_TRUE(plain && multisampled);
    EXPECT_EQ(plain->msaaSamples(), 0);
    if (maxSamples() < 2) GTEST_SKIP() << "the context offers no multisampling";
    ASSERT_EQ(multisampled->msaaSamples(), std::min(4, maxSamples()));
    const std::vector<std::uint8_t> hard = drawAndRead(*plain);
    const std::vector<std::uint8_t> soft = drawAndRead(*multisampled);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    // Resolved, not black or empty: the background's colour in the corner, the ball red.
    ASSERT_EQ(soft.size(), hard.size());
    EXPECT_EQ(at(soft, 1, 1), at(hard, 1, 1));
    EXPECT_GT(at(soft, 1, 1)[2], 30) << "the corner is the dark blue-grey background";
    const SceneView view = kz::test::twoBodiesView();
    const glm::vec3 centre =
        glm::project(kz::test::twoBodies().bodies()[0].position, view.view, view.proj,
                     glm::vec4(0.0f, 0.0f, static_cast<float>(kSize.x), static_cast<float>(kSize.y)));
    const Rgb ball = at(soft, static_cast<int>(centre.x), kSize.y - 1 - static_cast<int>(centre.y));
    EXPECT_GT(ball[0], ball[1] + 40) << "red ball";

    // At the hard edges of the plain frame (a neighbour differing by more than 60), many pixels of
    // the multisampled one blend the colours on either side; away from every edge nothing changes.
    int edges = 0, blended = 0, plainBlended = 0, interior = 0, interiorChanged = 0;
    // The window looks up to 3 pixels right and down (dx, dy <= 2, then +1): stay 3 from the edge.
    for (int y = 2; y < kSize.y - 3; ++y) {
        for (int x = 2; x < kSize.x - 3; ++x) {
            const Rgb p = at(hard, x, y);
            Rgb other = p;
            int nearEdge = 0;
            for (int dy = -2; dy <= 2; ++dy) {
                for (int dx = -2; dx <= 2; ++dx) {
                    const Rgb q = at(hard, x + dx, y + dy);
                    nearEdge = std::max(nearEdge, distance(q, at(hard, x + dx + 1, y + dy)));
                    nearEdge = std::max(nearEdge, distance(q, at(hard, x + dx, y + dy + 1)));
                    if (std::abs(dx) + std::abs(dy) == 1 && distance(p, q) > distance(p, other)) other = q;
                }
            }
            if (distance(p, other) > 60) {
                ++edges;
                blended += between(at(soft, x, y), p, other, 8) ? 1 : 0;
                plainBlended += between(p, p, other, 8) ? 1 : 0;
            } else if (nearEdge <= 10) {
                ++interior;
                interiorChanged += distance(at(soft, x, y), p) > 2 ? 1 : 0;
            }
        }
    }
    EXPECT_GT(edges, 300);
    EXPECT_EQ(plainBlended, 0);
    EXPECT_GT(blended, edges / 4) << blended << " of " << edges << " edge pixels blended";
    EXPECT_GT(interior, 10000);
    EXPECT_EQ(interiorChanged, 0) << "of " << interior << " pixels away from any edge";
}

TEST_F(MsaaTest, TheFrameIsResolvedIntoTheFramebufferBoundWhenItIsDrawn) {
    auto multisampled = makeRenderer(4);
    ASSERT_NE(multisampled, nullptr);
    const std::vector<std::uint8_t> window = drawAndRead(*multisampled);
    // An offscreen framebuffer of the same size: the renderer draws and resolves into it, and
    // leaves it bound, so reading it back gives the same picture.
    GLuint framebuffer = 0, color = 0, depth = 0;
    glGenFramebuffers(1, &framebuffer);
    glGenRenderbuffers(1, &color);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kSize.x, kSize.y);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, kSize.x, kSize.y);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth);
    ASSERT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
    const std::vector<std::uint8_t> offscreen = drawAndRead(*multisampled);
    GLint bound = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &bound);
    EXPECT_EQ(bound, static_cast<GLint>(framebuffer));
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    EXPECT_EQ(offscreen, window);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteRenderbuffers(1, &color);
    glDeleteRenderbuffers(1, &depth);
}

TEST_F(MsaaTest, ANewFrameSizeGetsItsOwnSamplesAndTheOldSizeDrawsAsBefore) {
    auto multisampled = makeRenderer(4);
    ASSERT_NE(multisampled, nullptr);
    if (multisampled->msaaSamples() < 2) GTEST_SKIP() << "the context offers no multisampling";
    const std::vector<std::uint8_t> first = drawAndRead(*multisampled);
    // A smaller frame (a resized window): drawn and resolved at its own size.
    const glm::ivec2 small(200, 150);
    SceneView view = kz::test::twoBodiesView();
    view.proj = glm::perspective(glm::radians(45.0f), 200.0f / 150.0f, 0.1f, 100.0f);
    view.framebuffer = small;
    DebugDraw none;
    none.pickRay = none.impactPreview = none.hitTriangle = false;
    const World world = kz::test::twoBodies();
    multisampled->draw(world, view, -1, none, Overlay{});
    const std::vector<std::uint8_t> image = multisampled->readPixels(small);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
    ASSERT_EQ(image.size(), static_cast<std::size_t>(small.x * small.y * 3));
    const glm::vec3 ball =
        glm::project(world.bodies()[0].position, view.view, view.proj,
                     glm::vec4(0.0f, 0.0f, static_cast<float>(small.x), static_cast<float>(small.y)));
    const std::size_t i = (static_cast<std::size_t>(small.y - 1 - static_cast<int>(ball.y)) *
                               static_cast<std::size_t>(small.x) +
                           static_cast<std::size_t>(ball.x)) *
                          3;
    EXPECT_GT(image[i], image[i + 1] + 40) << "the red ball at its place in the small frame";
    EXPECT_EQ(image[0] + image[1] + image[2], at(first, 1, 1)[0] + at(first, 1, 1)[1] + at(first, 1, 1)[2])
        << "the background in the corner";
    // Back at the first size, the same picture as the first time.
    EXPECT_EQ(drawAndRead(*multisampled), first);
}

TEST_F(MsaaTest, TheSampleCountIsClampedToWhatTheContextOffers) {
    const int offered = maxSamples() >= 2 ? maxSamples() : 0;
    for (const int wanted : {0, 1, 2, 64}) {
        auto renderer = makeRenderer(wanted);
        ASSERT_NE(renderer, nullptr);
        EXPECT_EQ(renderer->msaaSamples(), wanted < 2 ? 0 : std::min(wanted, offered)) << "wanted " << wanted;
    }
}

TEST_F(MsaaTest, ASoftwareRasteriserDrawsWithoutMultisamplingByDefault) {
    const std::string name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const bool software =
        name.find("llvmpipe") != std::string::npos || name.find("softpipe") != std::string::npos;
    if (software) {
        EXPECT_TRUE(softwareRasterizer()) << name;
    }
    EXPECT_EQ(defaultMsaaSamples(), softwareRasterizer() ? 0 : 4) << name;
}

} // namespace
