// Drawing a World with OpenGL 3.3 core: the sun's shadows, the room, instanced spheres and boxes,
// the mesh obstacles, the selected body's or obstacle's highlight, translucent surfaces, debug
// lines and the picked triangle, multisampled when the context can. The app layer only: needs a
// current GL context loaded by glad. Renderer::draw lists the passes (renderer.cpp;
// scene_passes.cpp and overlay_passes.cpp hold them); the debug lines are built on the CPU in
// debug_lines.cpp.
#pragma once

#include "app/view/pick_state.hpp"
#include "geom/types.hpp"
#include "physics/world.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kz::render {

/// What the camera sees and where it draws.
struct SceneView {
    glm::mat4 view{1.0f};
    glm::mat4 proj{1.0f};
    glm::vec3 eye{0.0f};
    glm::ivec2 framebuffer{1, 1}; ///< Physical pixels (high-DPI aware).
    float farPlane = 100.0f; ///< The camera's far plane: a click's ray that hit nothing is drawn this long.
    /// Framebuffer pixels per point of the UI (2 on a 2x display, or with --ui-scale 2): outlines
    /// keep their width on screen.
    float pixelScale = 1.0f;
    /// Bodies and meshes cast the sun's shadows (the shadow pass); off: no shadow pass, no lookups.
    bool shadows = true;
};

/// Debug-draw toggles (each a checkbox in the panel; bvhDepth a slider).
struct DebugDraw {
    bool pickRay = true;       ///< The last picking ray, its hit point and normal.
    bool impactPreview = true; ///< From a body's centre to the wall or obstacle it will hit, hit marked.
    bool bounds = false;       ///< Axis-aligned bounding boxes (of bodies and obstacles).
    bool contacts = false;     ///< Contact points and normals (World::contacts(); walls and obstacles alike).
    bool velocities = false;   ///< Velocity vectors (each the distance covered in 0.1 s).
    bool hitTriangle = true;   ///< The selected obstacle's picked triangle, on top of everything.
    bool bvhBoxes = false;     ///< BVH node boxes of the selected obstacle, or of every obstacle if none is.
    int bvhDepth = 0;          ///< Deepest BVH level drawn (0: the root's box); clamped to each tree.
};

struct DebugLines; // debug_lines.hpp

/// What the passes draw on top, each item given explicitly: the pick ray and hit, the body whose
/// impact preview is shown, the selected obstacle and its picked triangle. The app's comes from
/// its PickState (overlayOf).
struct Overlay {
    std::optional<Ray> pickRay; ///< dir unit length; drawn for pickRayLength.
    float pickRayLength = 100.0f;
    std::optional<RayHit> pickHit; ///< Hit point and normal.
    int previewBody = -1;          ///< Body whose impact preview is drawn (-1: none).
    int selectedObstacle = -1;     ///< Obstacle outlined and tinted like a selected body (-1: none); ignored
                                   ///< while a body is selected.
    /// The triangle of selectedObstacle the last pick hit (DebugDraw::hitTriangle).
    std::optional<std::uint32_t> pickTriangle;
    /// More lines drawn with the debug lines whatever the toggles, and translucent surfaces (the
    /// lab's construction, the mouse probe); null: none. Must outlive the draw call.
    const DebugLines* extra = nullptr;
};

/// The overlay of the app's picks (PickState): the last click's ray, drawn to its hit or for
/// `farPlane` when it hit nothing, and the hit; the impact preview of the selected body, else of
/// body 0 (none in an empty world); the selected obstacle and the triangle the click hit on it.
Overlay overlayOf(const World& world, const PickState& picks, float farPlane);

class Renderer {
public:
    /// Compiles the shaders in `shaderDir` (scene, outline, room, lines and shadow, each .vert and
    /// .frag, and shadow.glsl), uploads the unit sphere and cube and makes the shadow map. The scene
    /// is drawn with `msaaSamples` samples per pixel (clamped to what the context offers; 0 or 1:
    /// none). On failure returns null and sets `error` to one line: the shader file, the line and
    /// the driver's log.
    static std::unique_ptr<Renderer> create(const std::filesystem::path& shaderDir, std::string& error,
                                            int msaaSamples = 0);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    /// Clears and draws one frame into the current framebuffer, in passes: (with view.shadows) the
    /// depth of the bodies and obstacles seen from the sun, then the room (walls with their grid,
    /// except a wall with the eye on its outer side, which would hide the room), all bodies lit
    /// with their colours (one instanced draw call per shape), every obstacle lit and flat shaded
    /// in its colour (one draw each; its mesh is uploaded once and kept while an obstacle uses
    /// it), each darkened where the sun's shadow falls, a yellow rim around the selected body
    /// (index, or -1: none; out of range draws none) or else overlay.selectedObstacle, both also
    /// tinted lighter, then the room's edges, the translucent surfaces of overlay.extra (lit,
    /// blended, hidden where the scene is nearer), the debug lines (faint through everything, solid
    /// where visible) and last the picked triangle over everything. When multisampling, the
    /// passes draw into the renderer's multisampled framebuffer, resolved into the current one
    /// at the end. Leaves the current framebuffer bound for drawing and reading.
    void draw(const World& world, const SceneView& view, int selectedBody, const DebugDraw& debug,
              const Overlay& overlay);
    /// The app's frame: the same passes with the selection and the overlay of `picks` (the selected
    /// body, overlayOf(world, picks, view.farPlane)).
    void draw(const World& world, const SceneView& view, const PickState& picks, const DebugDraw& debug);

    /// The framebuffer's pixels, RGB8, top row first (for PNG screenshots): the resolved image
    /// when multisampling, and whatever was drawn over the scene after draw (the UI).
    std::vector<std::uint8_t> readPixels(glm::ivec2 size) const;

    /// Samples per pixel the scene is drawn with: 0 when not multisampled.
    int msaaSamples() const;

    struct Impl;

private:
    explicit Renderer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

/// Whether the current GL context draws on the CPU (Mesa's llvmpipe, softpipe or swrast): there
/// multisampling is offered but doubles the frame's cost.
bool softwareRasterizer();

/// The samples per pixel to ask Renderer::create for when the user names none: 4, or 0 on a
/// software rasteriser. Needs a current context.
int defaultMsaaSamples();

/// Writes RGB8 top-down pixels as a PNG (stb_image_write). False with `error` set on failure.
bool writePng(const std::filesystem::path& file, const std::vector<std::uint8_t>& rgb, glm::ivec2 size,
              std::string& error);

/// Where shaders live: $KOLIZE_SHADER_DIR if set, else <prefix>/share/kolize/shaders if it exists
/// (after cmake --install), else the source tree's shaders/ (dataDirectory, data_dir/data_dir.hpp).
std::filesystem::path shaderDirectory();

} // namespace kz::render
