// The window's platform, in the order of Dear ImGui's SDL2+OpenGL3 example: SDL video (on a
// driver that draws somewhere), GL 3.3 core attributes, the window and its context, glad, then
// Dear ImGui and its SDL2/OpenGL3 backends. The destructor shuts them down in reverse. Also the
// per-frame platform calls the loop makes: new ImGui frame, window sizes, the mouse, present.
#pragma once

#include "app/view/interaction.hpp"

#include <SDL.h>
#include <memory>
#include <optional>
#include <string>

struct ImGuiContext;

namespace kz {

/// The window's size in SDL points (mouse coordinates) and its framebuffer's in physical pixels.
struct WindowSizes {
    glm::ivec2 window{1, 1};   ///< >= 1 each.
    glm::ivec2 drawable{1, 1}; ///< >= 1 each.
};

class Platform {
public:
    Platform() = default;
    Platform(const Platform&) = delete;
    Platform& operator=(const Platform&) = delete;
    ~Platform();

    /// SDL video, an OpenGL 3.3 core window of `size` points and its context (current), glad.
    /// The window's top-left at `position` when that keeps its title bar on a display (a
    /// remembered place on a screen since unplugged is not), else centred. False with `error` set
    /// (one line) when there is no display or no such context: the caller's exit code says the
    /// app cannot start.
    bool openWindow(glm::ivec2 size, std::optional<glm::ivec2> position, bool vsync, std::string& error);
    /// Dear ImGui and its SDL2/OpenGL3 backends, after the window, its sizes and font scaled by
    /// `uiScale` (> 0; 1: ImGui's own). On a window whose framebuffer has more pixels than it has
    /// points (a high-DPI display that scales windows, as macOS does), the font is rasterised at the
    /// framebuffer's resolution so text stays sharp. `iniText`: Dear ImGui's ini (where its
    /// windows sat in an earlier run; empty: none). ImGui writes no imgui.ini of its own (ini()
    /// gives it to the settings file). False with `error` set.
    bool startImGui(float uiScale, const std::string& iniText, std::string& error);
    /// Dear ImGui's ini text now: where its windows are.
    std::string ini() const;
    /// The window's top-left on the desktop, in points.
    glm::ivec2 position() const;

    std::uint32_t windowId() const { return SDL_GetWindowID(window_.get()); }
    bool minimised() const;
    WindowSizes sizes() const;
    /// The mouse as SDL and ImGui last saw it (after this frame's newFrame).
    Pointer pointer() const;

    /// Starts this frame's ImGui frame: its WantCapture flags then describe this frame's mouse.
    void newFrame();
    /// Draws ImGui's draw data (after ImGui::Render) into the current framebuffer.
    void renderImGui();
    /// Shows the frame.
    void swap();

private:
    struct WindowDeleter {
        void operator()(SDL_Window* window) const { SDL_DestroyWindow(window); }
    };

    // Declared in the order of creation: destroyed in reverse by ~Platform's explicit steps.
    bool sdlInitialised_ = false;
    std::unique_ptr<SDL_Window, WindowDeleter> window_;
    SDL_GLContext gl_ = nullptr;
    ImGuiContext* imgui_ = nullptr;
    bool imguiSdl_ = false;
    bool imguiOpenGl_ = false;
};

} // namespace kz
