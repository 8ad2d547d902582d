// The app's stack on this machine: SDL2 window, a GL 3.3 core context loaded by the
// build-time glad loader, and Dear ImGui's SDL2 + OpenGL3 backends drawing one frame.
// Needs a display: scripts/test.sh runs it under Xvfb (Mesa llvmpipe).
#include "support/display.hpp"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <cstdlib>
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <string>

namespace {

using kz::test::initVideoOrSkip;

struct Window {
    SDL_Window* window = nullptr;
    SDL_GLContext context = nullptr;
    ~Window() {
        if (context) SDL_GL_DeleteContext(context);
        if (window) SDL_DestroyWindow(window);
        SDL_Quit();
    }
};

TEST(GlStack, CoreContextLoadsWithGladAndClearsTheFramebuffer) {
    if (!initVideoOrSkip()) GTEST_SKIP() << "no display";
    Window w;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    w.window = SDL_CreateWindow("kolize-test", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 64, 48,
                                SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    ASSERT_NE(w.window, nullptr) << SDL_GetError();
    w.context = SDL_GL_CreateContext(w.window);
    ASSERT_NE(w.context, nullptr) << SDL_GetError();

    const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress));
    ASSERT_NE(version, 0) << "glad could not load GL";
    EXPECT_GE(GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version), 33);

    glViewport(0, 0, 64, 48);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char pixel[4] = {};
    glReadPixels(10, 10, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
    EXPECT_NEAR(pixel[0], 64, 1);
    EXPECT_NEAR(pixel[1], 128, 1);
    EXPECT_NEAR(pixel[2], 191, 1);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
}

TEST(GlStack, ImGuiSdlAndOpenGl3BackendsRenderAFrame) {
    if (!initVideoOrSkip()) GTEST_SKIP() << "no display";
    Window w;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    w.window = SDL_CreateWindow("kolize-test", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 320, 240,
                                SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    ASSERT_NE(w.window, nullptr) << SDL_GetError();
    w.context = SDL_GL_CreateContext(w.window);
    ASSERT_NE(w.context, nullptr) << SDL_GetError();
    ASSERT_NE(gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress)), 0);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ASSERT_TRUE(ImGui_ImplSDL2_InitForOpenGL(w.window, w.context));
    ASSERT_TRUE(ImGui_ImplOpenGL3_Init("#version 330 core"));
    EXPECT_STREQ(ImGui::GetVersion(), "1.86");

    glViewport(0, 0, 320, 240);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(320, 240));
    ImGui::Begin("Kolize");
    ImGui::TextUnformatted("hello");
    ImGui::End();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    // The window background covers the frame: the centre pixel is no longer the black clear.
    unsigned char pixel[4] = {};
    glReadPixels(160, 100, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
    EXPECT_GT(pixel[0] + pixel[1] + pixel[2], 0);
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
}

} // namespace
