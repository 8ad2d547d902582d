// Test support: a hidden SDL window with a current OpenGL 3.3 core context loaded by glad, for the
// tests that draw (Mesa's llvmpipe under Xvfb in scripts/test.sh), the renderer on it, and the small
// scene several of them look at. Without a display the tests skip, or fail when KZ_REQUIRE_DISPLAY
// is set.
#pragma once

#include "app/render/renderer.hpp"
#include "physics/world.hpp"
#include "support/display.hpp"

#include <SDL.h>
#include <glad/gl.h>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <memory>
#include <string>

namespace kz::test {

/// The hidden window's size in pixels.
inline constexpr glm::ivec2 kGlWindowSize{320, 240};

/// A fixture: a hidden kGlWindowSize window with a current GL 3.3 core context loaded by glad.
class GlWindowTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!initVideoOrSkip()) GTEST_SKIP() << "no display";
        videoUp_ = true;
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
        SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
        SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
        window_ = SDL_CreateWindow("kolize-test", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                   kGlWindowSize.x, kGlWindowSize.y, SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
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

    /// The renderer on this window's context, the scene drawn with `msaaSamples` samples (0: none).
    std::unique_ptr<render::Renderer> makeRenderer(int msaaSamples = 0) {
        std::string error;
        auto renderer = render::Renderer::create(render::shaderDirectory(), error, msaaSamples);
        EXPECT_NE(renderer, nullptr) << error;
        return renderer;
    }

    SDL_Window* window_ = nullptr;
    SDL_GLContext context_ = nullptr;
    bool videoUp_ = false;
};

/// A red sphere (body 0) left of the centre and a blue box (body 1) right of it, in a 10 m room.
inline World twoBodies() {
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

/// Outside twoBodies' room (in front of its +z wall), looking at the centre, into the hidden window.
inline render::SceneView twoBodiesView() {
    render::SceneView view;
    view.eye = {0.0f, 3.0f, 18.0f};
    view.view = glm::lookAt(view.eye, glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
    view.proj = glm::perspective(glm::radians(45.0f),
                                 static_cast<float>(kGlWindowSize.x) / static_cast<float>(kGlWindowSize.y),
                                 0.1f, 100.0f);
    view.framebuffer = kGlWindowSize;
    return view;
}

} // namespace kz::test
