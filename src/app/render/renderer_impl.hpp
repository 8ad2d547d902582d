// Renderer::Impl, shared by the renderer's files: renderer.cpp (create, the frame's list of passes,
// the CPU work, read-back), scene_passes.cpp (the shadow pass, the room, bodies and obstacles,
// the translucent surfaces) and overlay_passes.cpp (the selection's outline, the lines, the picked
// triangle). Private to kz_render.
#pragma once

#include "app/render/renderer.hpp"
#include "debug_lines.hpp"
#include "gl_objects.hpp"
#include "gpu_mesh.hpp"
#include "mesh_shape_cache.hpp"
#include "meshes.hpp"
#include "msaa_target.hpp"
#include "shadow_map.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace kz::render {

/// Above this many spheres they all use the 16x8 mesh instead of the 32x16 one: 4x fewer
/// triangles keeps thousands of bodies interactive on a software rasteriser (llvmpipe).
constexpr std::size_t kDetailedSphereLimit = 2000;

/// A vertex of the room's walls.
struct WallVertex {
    glm::vec3 position; ///< World space.
    glm::vec3 normal;   ///< The wall's unit normal, pointing into the room.
};

/// The sun's shadow as the lit passes read it.
struct SunShadow {
    glm::mat4 viewProj{1.0f};              ///< World to the sun's clip space (sunViewProj).
    glm::vec3 towardSun{0.0f, 1.0f, 0.0f}; ///< Unit, toward the sun (sunDirection).
    float strength = 0.0f;   ///< The share of the light a full shadow takes away; 0: no shadows.
    float texelWorld = 0.0f; ///< One shadow-map texel in metres.
};

/// What every pass needs: the camera, the lights and the sun's shadow, in world space.
struct Frame {
    glm::mat4 viewProj;     ///< The camera's projection times its view.
    glm::vec3 eye;          ///< The camera's position.
    glm::vec3 keyDir;       ///< Unit, toward the key light (above, right of and behind the eye).
    glm::vec3 fillDir;      ///< Unit, toward the dim fill light (from the lower left).
    glm::ivec2 framebuffer; ///< The scene's size in pixels.
    float pixelScale;       ///< Framebuffer pixels per point of the UI (SceneView::pixelScale).
    SunShadow sun;          ///< Strength 0 when the frame has no shadows.
};

/// What is highlighted: a body, or else an obstacle, or nothing (indices in range, or -1).
struct Selection {
    int body = -1;     ///< The selected body's index, or -1.
    int obstacle = -1; ///< The selected obstacle's index, or -1 (always -1 while a body is selected).
};

glm::vec4 unpackColor(std::uint32_t rgb);
/// The selected body's or obstacle's colour: lighter, toward white.
glm::vec4 selectedTint(const glm::vec4& color);
/// Rotation times scale (per local axis), then the translation: of the unit sphere, cube or
/// cylinder (scaled by radius, half extents, or radius and half height), of a hull's own mesh
/// (scale 1); of a capsule, its bounding box (its mesh is capsuleParts).
glm::mat4 modelMatrix(const Body& body);

/// A capsule's three instances: the unit tube scaled (r, h, r), and the unit hemisphere scaled by
/// r at each end of its segment (the bottom one turned half a turn).
struct CapsuleParts {
    glm::mat4 side, top, bottom;
};
CapsuleParts capsuleParts(const Body& body);
/// Translation after R S (Obstacle::linear).
glm::mat4 modelMatrix(const Obstacle& obstacle);

/// The locations of shadow.glsl's uniforms in one program (-1 for those no_shadow.glsl lacks).
struct ShadowUniforms {
    GLint map;        ///< uShadowMap, the sampler (texture unit 0).
    GLint viewProj;   ///< uLightViewProj.
    GLint sunDir;     ///< uSunDir.
    GLint strength;   ///< uShadowStrength.
    GLint texelWorld; ///< uShadowTexelWorld.
};

/// The uniforms both lit programs have: the camera, the lights and shadow.glsl's.
struct LitUniforms {
    GLint viewProj;        ///< uViewProj.
    GLint keyDir;          ///< uKeyDir.
    GLint fillDir;         ///< uFillDir.
    ShadowUniforms shadow; ///< The shadow library's.
};

/// The lit programs built with one shadow library, and their uniforms.
struct LitPrograms {
    Program scene;                 ///< Bodies and obstacles (scene.vert, scene.frag).
    Program room;                  ///< The walls (room.vert, room.frag).
    LitUniforms sceneU{}, roomU{}; ///< Their shared uniforms, per program.
    GLint sceneEye = -1;           ///< The scene program's uEye.
    GLint roomWallColor = -1;      ///< The room program's uWallColor.
    GLint roomGridColor = -1;      ///< The room program's uGridColor.
};

struct Renderer::Impl {
    /// With shadow.glsl, and with no_shadow.glsl for frames without shadows, which then cost nothing.
    LitPrograms shadowed, unshadowed;
    Program outlineProgram, lineProgram, shadowProgram;
    struct {
        GLint viewProj, model, grow, pixels, viewport, color, alongNormal, normalMatrix;
    } outlineU{};
    struct {
        GLint viewProj, alpha;
    } linesU{};
    struct {
        GLint lightViewProj;
    } shadowU{};

    InstancedMesh sphereMesh{unitSphere(32, 16)};
    InstancedMesh coarseSphereMesh{unitSphere(16, 8)}; ///< For crowds (see kDetailedSphereLimit).
    InstancedMesh boxMesh{unitCube()};
    InstancedMesh cylinderMesh{unitCylinder(32)};
    InstancedMesh tubeMesh{unitTube(32)};                ///< A capsule's side.
    InstancedMesh hemisphereMesh{unitHemisphere(32, 8)}; ///< A capsule's two ends.
    VertexStream walls{sizeof(WallVertex)};
    VertexStream lineStream{sizeof(LineVertex)};
    StreamedMesh surfaceMesh;                        ///< The translucent surfaces, one at a time.
    MeshShapeCache<ObstacleMesh> obstacleMeshes;     ///< Uploaded on first use, freed with the mesh.
    MeshShapeCache<HullMesh, ConvexHull> hullMeshes; ///< Per hull bodies share, likewise.
    BvhBoxCache bvhBoxes;                            ///< The debug lines' BVH boxes, per mesh.
    ShadowMap shadowMap;
    MsaaTarget msaa;

    // Per-frame scratch, kept to reuse its memory.
    std::vector<Instance> sphereInstances, boxInstances, obstacleInstance;
    std::vector<Instance> cylinderInstances, tubeInstances, hemisphereInstances;
    /// This frame's hull bodies, by hull: its mesh and their instances (in body order).
    std::vector<std::pair<HullMesh*, std::vector<Instance>>> hullBatches;
    std::vector<WallVertex> wallVertices;
    std::vector<LineVertex> edgeLines;
    DebugLines debugLines;

    Impl(int shadowMapSize, int msaaSamples) : shadowMap(shadowMapSize), msaa(msaaSamples) {}

    /// The GPU mesh of `mesh`, uploaded on first use (null for a null mesh).
    ObstacleMesh* obstacleMesh(const std::shared_ptr<const MeshShape>& mesh) {
        return obstacleMeshes.get(mesh,
                                  [](const auto& shape) { return std::make_unique<ObstacleMesh>(*shape); });
    }
    /// The GPU mesh of a hull body's hull, uploaded on first use (null for a null hull).
    HullMesh* hullMesh(const std::shared_ptr<const ConvexHull>& hull) {
        return hullMeshes.get(hull, [](const auto& shape) { return std::make_unique<HullMesh>(*shape); });
    }
    /// The sphere mesh of this frame: the coarse one for crowds.
    const InstancedMesh& sphereMeshInUse() const {
        return sphereInstances.size() > kDetailedSphereLimit ? coarseSphereMesh : sphereMesh;
    }

    // CPU work: this frame's instances and vertices, then the instances uploaded once for the
    // shadow and lit passes.
    void buildBodyInstances(std::span<const Body> bodies, int selectedBody);
    void buildRoom(const Room& room, const glm::vec3& eye);
    void uploadBodyInstances();
    /// The instances of this frame's hull bodies of `mesh`'s hull (a new batch on first use).
    std::vector<Instance>& hullBatch(HullMesh* mesh);

    /// The lit programs of this frame: shadowed or not.
    const LitPrograms& lit(const Frame& frame) const {
        return frame.sun.strength > 0.0f ? shadowed : unshadowed;
    }

    // The passes, in drawing order.
    void drawShadowMap(const Frame& frame, std::span<const Obstacle> obstacles);
    void drawRoom(const Frame& frame);
    void drawBodies(const Frame& frame);
    void drawObstacles(std::span<const Obstacle> obstacles, int selectedObstacle);
    void drawSelectionOutline(const Frame& frame, const World& world, const Selection& selection);
    void drawRoomEdges(const Frame& frame);
    void drawTranslucent(const Frame& frame);
    void drawDebugLines(const Frame& frame);
    void drawOnTop();

    /// One instanced draw of each body shape that has instances (already uploaded).
    void drawBodyMeshes() const;
    /// One draw per obstacle with its colour (tinted when selected).
    void drawObstacleMeshes(std::span<const Obstacle> obstacles, int selectedObstacle);
};

} // namespace kz::render
