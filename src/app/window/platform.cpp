#include "app/window/platform.hpp"

#include <algorithm>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <cstdlib>
#include <glad/gl.h>
#include <imgui.h>

namespace kz {
namespace {

bool drawsNowhere(const std::string& driver) {
    return driver == "offscreen" || driver == "dummy" || driver == "evdev" || driver.empty();
}

bool isSet(const char* variable) {
    const char* value = std::getenv(variable);
    return value != nullptr && *value != '\0';
}

/// The video drivers worth trying, comma-separated: never those that draw nowhere, x11 only with
/// DISPLAY set and wayland only with WAYLAND_DISPLAY set (its probe otherwise prints to stderr).
std::string displayDrivers() {
    std::string drivers;
    for (int i = 0; i < SDL_GetNumVideoDrivers(); ++i) {
        const std::string driver = SDL_GetVideoDriver(i);
        if (drawsNowhere(driver)) continue;
        if (driver == "x11" && !isSet("DISPLAY")) continue;
        if (driver == "wayland" && !isSet("WAYLAND_DISPLAY")) continue;
        drivers += (drivers.empty() ? "" : ",") + driver;
    }
    return drivers;
}

/// SDL's video on a driver that draws somewhere. False with `error` set; `initialised` tells
/// whether SDL_Quit is owed.
bool startSdlVideo(bool& initialised, std::string& error) {
    const std::string useHeadless = " (use --headless to run without a window)";
    SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1");
    if (!isSet("SDL_VIDEODRIVER")) {
        const std::string drivers = displayDrivers();
        if (drivers.empty()) {
            error = "no display: DISPLAY and WAYLAND_DISPLAY are not set" + useHeadless;
            return false;
        }
        SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers.c_str());
    }
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        const std::string why =
            !isSet("DISPLAY") && !isSet("WAYLAND_DISPLAY")
                ? "DISPLAY and WAYLAND_DISPLAY are not set (SDL: " + std::string(SDL_GetError()) + ")"
                : std::string(SDL_GetError());
        error = "no display: " + why + useHeadless;
        return false;
    }
    initialised = true;
    // With no display SDL quietly falls back to drivers that draw nowhere.
    const std::string driver = SDL_GetCurrentVideoDriver() != nullptr ? SDL_GetCurrentVideoDriver() : "";
    if (drawsNowhere(driver)) {
        error = "no display: SDL found only its '" + driver + "' video driver" + useHeadless;
        return false;
    }
    return true;
}

/// GL 3.3 core, as Dear ImGui's SDL2+OpenGL3 example asks for it.
void setGlAttributes() {
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);
}

/// glad's GL functions; false with `error` set below GL 3.3.
bool loadGl(std::string& error) {
    const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress));
    const int major = GLAD_VERSION_MAJOR(version);
    const int minor = GLAD_VERSION_MINOR(version);
    if (version == 0 || major * 10 + minor < 33) {
        error = "cannot load OpenGL 3.3 core functions (the driver gives " + std::to_string(major) + "." +
                std::to_string(minor) + ")";
        return false;
    }
    return true;
}

/// Dear ImGui's default font: 13 points, ProggyClean.
constexpr float kFontPoints = 13.0f;

/// ImGui's sizes and font scaled by `uiScale`; the font rasterised at the framebuffer's pixels per
/// point (ImGui draws in points, scaled by its DisplayFramebufferScale), shown at 1 / that scale.
void scaleImGui(float uiScale, const WindowSizes& sizes) {
    const float pixelsPerPoint =
        std::max(static_cast<float>(sizes.drawable.x) / static_cast<float>(sizes.window.x), 1.0f);
    if (uiScale == 1.0f && pixelsPerPoint == 1.0f) return; // ImGui's own font and sizes
    ImGui::GetStyle().ScaleAllSizes(uiScale);
    ImFontConfig font;
    font.SizePixels = kFontPoints * uiScale * pixelsPerPoint;
    ImGui::GetIO().Fonts->AddFontDefault(&font);
    ImGui::GetIO().FontGlobalScale = 1.0f / pixelsPerPoint;
}

/// Whether a window at `position` of `size` would show the top of its frame (the title bar, 32
/// points down, at least 64 points of it across) on one of the displays.
bool onADisplay(glm::ivec2 position, glm::ivec2 size) {
    const int displays = SDL_GetNumVideoDisplays();
    for (int i = 0; i < displays; ++i) {
        SDL_Rect bounds;
        if (SDL_GetDisplayBounds(i, &bounds) != 0) continue;
        const int left = std::max(position.x, bounds.x);
        const int right = std::min(position.x + size.x, bounds.x + bounds.w);
        const bool across = right - left >= std::min(64, size.x);
        const bool down = position.y >= bounds.y - 32 && position.y < bounds.y + bounds.h - 32;
        if (across && down) return true;
    }
    return false;
}

} // namespace

Platform::~Platform() {
    if (imguiOpenGl_) ImGui_ImplOpenGL3_Shutdown();
    if (imguiSdl_) ImGui_ImplSDL2_Shutdown();
    if (imgui_ != nullptr) ImGui::DestroyContext(imgui_);
    if (gl_ != nullptr) SDL_GL_DeleteContext(gl_);
    window_.reset();
    if (sdlInitialised_) SDL_Quit();
}

bool Platform::openWindow(glm::ivec2 size, std::optional<glm::ivec2> position, bool vsync,
                          std::string& error) {
    if (!startSdlVideo(sdlInitialised_, error)) return false;
    setGlAttributes();
    const auto flags =
        static_cast<SDL_WindowFlags>(SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    const glm::ivec2 at =
        position && onADisplay(*position, size) ? *position : glm::ivec2(SDL_WINDOWPOS_CENTERED);
    window_.reset(SDL_CreateWindow("Kolize", at.x, at.y, size.x, size.y, flags));
    if (!window_) {
        error = std::string("cannot open an OpenGL window: ") + SDL_GetError();
        return false;
    }
    gl_ = SDL_GL_CreateContext(window_.get());
    if (gl_ == nullptr) {
        error = std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError();
        return false;
    }
    SDL_GL_MakeCurrent(window_.get(), gl_);
    SDL_GL_SetSwapInterval(vsync ? 1 : 0); // not every driver can; then it is simply off
    return loadGl(error);
}

bool Platform::startImGui(float uiScale, const std::string& iniText, std::string& error) {
    IMGUI_CHECKVERSION();
    imgui_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // no imgui.ini in the cwd: the settings file keeps the ini text
    if (!iniText.empty()) ImGui::LoadIniSettingsFromMemory(iniText.data(), iniText.size());
    ImGui::StyleColorsDark();
    scaleImGui(uiScale, sizes());
    imguiSdl_ = ImGui_ImplSDL2_InitForOpenGL(window_.get(), gl_);
    imguiOpenGl_ = imguiSdl_ && ImGui_ImplOpenGL3_Init("#version 330 core");
    if (!imguiOpenGl_) {
        error = "cannot start Dear ImGui's SDL2/OpenGL3 backends";
        return false;
    }
    return true;
}

std::string Platform::ini() const {
    std::size_t size = 0;
    const char* text = ImGui::SaveIniSettingsToMemory(&size);
    return std::string(text, size);
}

glm::ivec2 Platform::position() const {
    glm::ivec2 at(0);
    SDL_GetWindowPosition(window_.get(), &at.x, &at.y);
    return at;
}

bool Platform::minimised() const {
    return (SDL_GetWindowFlags(window_.get()) & SDL_WINDOW_MINIMIZED) != 0;
}

WindowSizes Platform::sizes() const {
    WindowSizes sizes;
    SDL_GetWindowSize(window_.get(), &sizes.window.x, &sizes.window.y);
    SDL_GL_GetDrawableSize(window_.get(), &sizes.drawable.x, &sizes.drawable.y);
    sizes.window = glm::max(sizes.window, glm::ivec2(1));
    sizes.drawable = glm::max(sizes.drawable, glm::ivec2(1));
    return sizes;
}

Pointer Platform::pointer() const {
    int x = 0;
    int y = 0;
    const Uint32 buttons = SDL_GetMouseState(&x, &y);
    Pointer pointer;
    pointer.pos = {static_cast<float>(x), static_cast<float>(y)};
    pointer.leftDown = (buttons & SDL_BUTTON(SDL_BUTTON_LEFT)) != 0;
    pointer.rightDown = (buttons & SDL_BUTTON(SDL_BUTTON_RIGHT)) != 0;
    pointer.overScene = SDL_GetMouseFocus() == window_.get() && !ImGui::GetIO().WantCaptureMouse;
    return pointer;
}

void Platform::newFrame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
}

void Platform::renderImGui() {
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Platform::swap() {
    SDL_GL_SwapWindow(window_.get());
}

} // namespace kz
