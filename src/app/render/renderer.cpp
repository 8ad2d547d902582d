#include "renderer.hpp"

#include "data_dir/data_dir.hpp"
#include "debug_lines.hpp"
#include "geom/plane.hpp"
#include "gl_objects.hpp"
#include "gpu_mesh.hpp"
#include "mesh_shape_cache.hpp"
#include "meshes.hpp"
#include "shader_program.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <memory>
#include <span>
#include <stb_image_write.h>
#include <system_error>

namespace kz::render {
namespace {

constexpr glm::vec3 kClearColor{0.11f, 0.13f, 0.17f}; // dark blue-grey
constexpr glm::vec3 kWallColor{0.30f, 0.33f, 0.38f};
constexpr glm::vec3 kGridColor{0.55f, 0.60f, 0.68f};
constexpr glm::vec3 kEdgeColor{0.72f, 0.77f, 0.85f};
constexpr glm::vec4 kOutlineColor{1.0f, 0.92f, 0.25f, 1.0f}; // bright yellow
constexpr float kOutlineGrow = 1.06f;
constexpr float kOutlinePixels = 2.5f;
/// An obstacle's rim: its hull pushed this many pixels along the vertex normals (it is not grown
/// about a centre: a non-convex mesh has none that works).
constexpr float kMeshOutlinePixels = 3.5f;
constexpr float kSelectedTint = 0.35f; // mix toward white
constexpr float kHitTriangleFillAlpha = 0.45f;
/// Above this many spheres they all use the 16x8 mesh instead of the 32x16 one: 4x fewer
/// triangles keeps thousands of bodies interactive on a software rasteriser (llvmpipe).
constexpr std::size_t kDetailedSphereLimit = 2000;
/// Debug lines are drawn twice: faintly through everything, then depth tested at full strength.
constexpr float kHiddenLineAlpha = 0.3f;

struct WallVertex {
    glm::vec3 position;
    glm::vec3 normal;
};

/// What every pass needs: the camera and the lights, in world space.
struct Frame {
    glm::mat4 viewProj;
    glm::vec3 eye;
    glm::vec3 keyDir;
    glm::vec3 fillDir;
    glm::ivec2 framebuffer;
};

Frame frameOf(const SceneView& view) {
    Frame frame;
    frame.viewProj = view.proj * view.view;
    frame.eye = view.eye;
    // Lights in camera space, turned into the world: the key sits above, right of and behind the
    // eye; the fill comes from the lower left.
    const glm::mat3 cameraToWorld = glm::transpose(glm::mat3(view.view));
    frame.keyDir = glm::normalize(cameraToWorld * glm::vec3(0.35f, 0.55f, 1.0f));
    frame.fillDir = glm::normalize(cameraToWorld * glm::vec3(-0.6f, -0.3f, 0.5f));
    frame.framebuffer = view.framebuffer;
    return frame;
}

/// What is highlighted: a body, or else an obstacle, or nothing (indices in range, or -1).
struct Selection {
    int body = -1;
    int obstacle = -1;
};

Selection selectionOf(const World& world, int selectedBody, int selectedObstacle) {
    Selection selection;
    if (selectedBody >= 0 && selectedBody < static_cast<int>(world.bodies().size())) {
        selection.body = selectedBody;
    } else if (selectedObstacle >= 0 && selectedObstacle < static_cast<int>(world.obstacles().size())) {
        selection.obstacle = selectedObstacle;
    }
    return selection;
}

glm::vec4 unpackColor(std::uint32_t rgb) {
    return {static_cast<float>((rgb >> 16) & 0xffu) / 255.0f, static_cast<float>((rgb >> 8) & 0xffu) / 255.0f,
            static_cast<float>(rgb & 0xffu) / 255.0f, 1.0f};
}

/// The selected body's or obstacle's colour: lighter, toward white.
glm::vec4 selectedTint(const glm::vec4& color) {
    return glm::vec4(glm::mix(glm::vec3(color), glm::vec3(1.0f), kSelectedTint), 1.0f);
}

/// Rotation times scale (per local axis), then the translation.
glm::mat4 modelMatrix(const Body& body) {
    const glm::mat3 rotation = glm::mat3_cast(body.orientation);
    const glm::vec3 scale = body.shape == ShapeType::Sphere ? glm::vec3(body.radius) : body.halfExtents;
    glm::mat4 model(1.0f);
    for (int axis = 0; axis < 3; ++axis)
        model[axis] = glm::vec4(rotation[axis] * scale[axis], 0.0f);
    model[3] = glm::vec4(body.position, 1.0f);
    return model;
}

/// Translation after R S (Obstacle::linear).
glm::mat4 modelMatrix(const Obstacle& obstacle) {
    glm::mat4 model(obstacle.linear);
    model[3] = glm::vec4(obstacle.position, 1.0f);
    return model;
}

/// Clears colour and depth and sets the state every pass starts from.
void beginFrame(const glm::ivec2& framebuffer) {
    glViewport(0, 0, framebuffer.x, framebuffer.y);
    glClearColor(kClearColor.r, kClearColor.g, kClearColor.b, 1.0f);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
}

} // namespace

struct Renderer::Impl {
    Program sceneProgram, outlineProgram, roomProgram, lineProgram;
    struct {
        GLint viewProj, eye, keyDir, fillDir;
    } sceneU{};
    struct {
        GLint viewProj, model, grow, pixels, viewport, color, alongNormal, normalMatrix;
    } outlineU{};
    struct {
        GLint viewProj, keyDir, fillDir, wallColor, gridColor;
    } roomU{};
    struct {
        GLint viewProj, alpha;
    } linesU{};

    InstancedMesh sphereMesh{unitSphere(32, 16)};
    InstancedMesh coarseSphereMesh{unitSphere(16, 8)}; ///< For crowds (see kDetailedSphereLimit).
    InstancedMesh boxMesh{unitCube()};
    VertexStream walls{sizeof(WallVertex)};
    VertexStream lineStream{sizeof(LineVertex)};
    MeshShapeCache<ObstacleMesh> obstacleMeshes; ///< Uploaded on first use, freed with the mesh.
    BvhBoxCache bvhBoxes;                        ///< The debug lines' BVH boxes, per mesh.

    // Per-frame scratch, kept to reuse its memory.
    std::vector<Instance> sphereInstances, boxInstances, obstacleInstance;
    std::vector<WallVertex> wallVertices;
    std::vector<LineVertex> edgeLines;
    DebugLines debugLines;

    /// The GPU mesh of `mesh`, uploaded on first use (null for a null mesh).
    ObstacleMesh* obstacleMesh(const std::shared_ptr<const MeshShape>& mesh) {
        return obstacleMeshes.get(mesh,
                                  [](const auto& shape) { return std::make_unique<ObstacleMesh>(*shape); });
    }
    /// The sphere mesh of this frame: the coarse one for crowds.
    const InstancedMesh& sphereMeshInUse() const {
        return sphereInstances.size() > kDetailedSphereLimit ? coarseSphereMesh : sphereMesh;
    }

    // CPU work: this frame's instances and vertices.
    void buildBodyInstances(std::span<const Body> bodies, int selectedBody);
    void buildRoom(const Room& room, const glm::vec3& eye);

    // The passes, in drawing order.
    void drawRoom(const Frame& frame);
    void drawBodies(const Frame& frame);
    void drawObstacles(std::span<const Obstacle> obstacles, int selectedObstacle);
    void drawSelectionOutline(const Frame& frame, const World& world, const Selection& selection);
    void drawLines(const Frame& frame);
    void drawOnTop();
};

std::unique_ptr<Renderer> Renderer::create(const std::filesystem::path& shaderDir, std::string& error) {
    auto load = [&](const char* name, Program& out) {
        auto program = loadProgram(shaderDir / (std::string(name) + ".vert"),
                                   shaderDir / (std::string(name) + ".frag"), error);
        if (!program) return false;
        out = std::move(*program);
        return true;
    };
    auto impl = std::make_unique<Impl>();
    if (!load("scene", impl->sceneProgram) || !load("outline", impl->outlineProgram) ||
        !load("room", impl->roomProgram) || !load("lines", impl->lineProgram)) {
        return nullptr;
    }
    auto at = [](const Program& p, const char* name) { return glGetUniformLocation(p.id(), name); };
    impl->sceneU = {at(impl->sceneProgram, "uViewProj"), at(impl->sceneProgram, "uEye"),
                    at(impl->sceneProgram, "uKeyDir"), at(impl->sceneProgram, "uFillDir")};
    impl->outlineU = {at(impl->outlineProgram, "uViewProj"),    at(impl->outlineProgram, "uModel"),
                      at(impl->outlineProgram, "uGrow"),        at(impl->outlineProgram, "uPixels"),
                      at(impl->outlineProgram, "uViewport"),    at(impl->outlineProgram, "uColor"),
                      at(impl->outlineProgram, "uAlongNormal"), at(impl->outlineProgram, "uNormalMatrix")};
    impl->roomU = {at(impl->roomProgram, "uViewProj"), at(impl->roomProgram, "uKeyDir"),
                   at(impl->roomProgram, "uFillDir"), at(impl->roomProgram, "uWallColor"),
                   at(impl->roomProgram, "uGridColor")};
    impl->linesU = {at(impl->lineProgram, "uViewProj"), at(impl->lineProgram, "uAlpha")};
    error.clear();
    return std::unique_ptr<Renderer>(new Renderer(std::move(impl)));
}

Renderer::Renderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Renderer::~Renderer() = default;

void Renderer::draw(const World& world, const SceneView& view, const PickState& picks,
                    const DebugDraw& debug) {
    draw(world, view, picks.selectedBody(), debug, overlayOf(world, picks, view.farPlane));
}

void Renderer::draw(const World& world, const SceneView& view, int selectedBody, const DebugDraw& debug,
                    const Overlay& overlay) {
    Impl& impl = *impl_;
    const Frame frame = frameOf(view);
    const Selection selection = selectionOf(world, selectedBody, overlay.selectedObstacle);

    // On the CPU: this frame's instances and vertices.
    impl.buildBodyInstances(world.bodies(), selection.body);
    impl.obstacleMeshes.dropUnused();
    impl.bvhBoxes.dropUnused();
    impl.buildRoom(world.room(), view.eye);
    buildDebugLines(world, view.eye, debug, overlay, impl.bvhBoxes, impl.debugLines);

    // The passes, each setting the GL state it needs.
    beginFrame(view.framebuffer);
    impl.drawRoom(frame);
    impl.drawBodies(frame);
    impl.drawObstacles(world.obstacles(), selection.obstacle);
    if (selection.body >= 0 || selection.obstacle >= 0) impl.drawSelectionOutline(frame, world, selection);
    impl.drawLines(frame);
    impl.drawOnTop();

    // Nothing left bound for whoever draws next (the UI).
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(0);
}

void Renderer::Impl::buildBodyInstances(std::span<const Body> bodies, int selectedBody) {
    sphereInstances.clear();
    boxInstances.clear();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Body& body = bodies[i];
        glm::vec4 color = unpackColor(body.color);
        if (static_cast<int>(i) == selectedBody) color = selectedTint(color);
        auto& list = body.shape == ShapeType::Sphere ? sphereInstances : boxInstances;
        list.push_back({modelMatrix(body), color});
    }
}

void Renderer::Impl::buildRoom(const Room& room, const glm::vec3& eye) {
    wallVertices.clear();
    edgeLines.clear();
    for (std::size_t w = 0; w < room.walls.size() && w < room.planes.size(); ++w) {
        const auto& polygon = room.walls[w];
        if (polygon.size() < 3) continue;
        for (std::size_t i = 0; i < polygon.size(); ++i) {
            addLine(edgeLines, polygon[i], polygon[(i + 1) % polygon.size()], kEdgeColor);
        }
        // A wall with the eye on its outer side stands between the camera and the room: only
        // its edges are drawn, so the inside stays visible from any orbit.
        const Plane& plane = room.planes[w];
        if (signedDistance(plane, eye) < 0.0f) continue;
        for (std::size_t i = 1; i + 1 < polygon.size(); ++i) { // a fan: walls are convex
            wallVertices.push_back({polygon[0], plane.normal});
            wallVertices.push_back({polygon[i], plane.normal});
            wallVertices.push_back({polygon[i + 1], plane.normal});
        }
    }
}

/// Walls, pushed back a little in depth so their edges and grid-mates draw cleanly on them.
void Renderer::Impl::drawRoom(const Frame& frame) {
    glDisable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    glUseProgram(roomProgram.id());
    glUniformMatrix4fv(roomU.viewProj, 1, GL_FALSE, glm::value_ptr(frame.viewProj));
    glUniform3fv(roomU.keyDir, 1, glm::value_ptr(frame.keyDir));
    glUniform3fv(roomU.fillDir, 1, glm::value_ptr(frame.fillDir));
    glUniform3fv(roomU.wallColor, 1, glm::value_ptr(kWallColor));
    glUniform3fv(roomU.gridColor, 1, glm::value_ptr(kGridColor));
    walls.draw(GL_TRIANGLES, wallVertices);
    glDisable(GL_POLYGON_OFFSET_FILL);
}

/// Bodies, lit: one instanced draw call per shape. Leaves the scene program bound for the obstacles.
void Renderer::Impl::drawBodies(const Frame& frame) {
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glUseProgram(sceneProgram.id());
    glUniformMatrix4fv(sceneU.viewProj, 1, GL_FALSE, glm::value_ptr(frame.viewProj));
    glUniform3fv(sceneU.eye, 1, glm::value_ptr(frame.eye));
    glUniform3fv(sceneU.keyDir, 1, glm::value_ptr(frame.keyDir));
    glUniform3fv(sceneU.fillDir, 1, glm::value_ptr(frame.fillDir));
    for (auto [mesh, instances] : {std::pair{&sphereMeshInUse(), &sphereInstances},
                                   std::pair{static_cast<const InstancedMesh*>(&boxMesh), &boxInstances}}) {
        if (instances->empty()) continue;
        streamBuffer(GL_ARRAY_BUFFER, mesh->instances, *instances);
        glBindVertexArray(mesh->vao.id());
        glDrawElementsInstanced(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, nullptr,
                                static_cast<GLsizei>(instances->size()));
    }
}

/// Obstacles, lit with the scene program drawBodies bound: one draw each, both sides (a mesh need
/// not be closed; scene.frag lights the side that faces the camera).
void Renderer::Impl::drawObstacles(std::span<const Obstacle> obstacles, int selectedObstacle) {
    glDisable(GL_CULL_FACE);
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
        const Obstacle& obstacle = obstacles[i];
        const ObstacleMesh* gpu = obstacleMesh(obstacle.mesh);
        if (gpu == nullptr || gpu->flat.indexCount == 0) continue;
        glm::vec4 color = unpackColor(obstacle.color);
        if (static_cast<int>(i) == selectedObstacle) color = selectedTint(color);
        obstacleInstance.assign(1, Instance{modelMatrix(obstacle), color});
        streamBuffer(GL_ARRAY_BUFFER, gpu->flat.instances, obstacleInstance);
        glBindVertexArray(gpu->flat.vao.id());
        glDrawElementsInstanced(GL_TRIANGLES, gpu->flat.indexCount, GL_UNSIGNED_INT, nullptr, 1);
    }
    glEnable(GL_CULL_FACE);
}

/// The selected body's or obstacle's rim: its grown back faces show only around the silhouette. A
/// body grows about its centre; an obstacle's hull is pushed along its normals.
void Renderer::Impl::drawSelectionOutline(const Frame& frame, const World& world,
                                          const Selection& selection) {
    const glm::vec2 viewport(frame.framebuffer);
    glCullFace(GL_FRONT);
    glUseProgram(outlineProgram.id());
    glUniformMatrix4fv(outlineU.viewProj, 1, GL_FALSE, glm::value_ptr(frame.viewProj));
    glUniform2fv(outlineU.viewport, 1, glm::value_ptr(viewport));
    glUniform4fv(outlineU.color, 1, glm::value_ptr(kOutlineColor));
    const InstancedMesh* mesh = nullptr;
    glm::mat4 model(1.0f);
    glm::mat3 normalMatrix(1.0f);
    if (selection.body >= 0) {
        const Body& body = world.bodies()[static_cast<std::size_t>(selection.body)];
        mesh = body.shape == ShapeType::Sphere ? &sphereMeshInUse() : &boxMesh;
        model = modelMatrix(body);
        glUniform1f(outlineU.grow, kOutlineGrow);
        glUniform1f(outlineU.pixels, kOutlinePixels);
        glUniform1i(outlineU.alongNormal, 0);
    } else {
        const Obstacle& obstacle = world.obstacles()[static_cast<std::size_t>(selection.obstacle)];
        const ObstacleMesh* gpu = obstacleMesh(obstacle.mesh);
        mesh = gpu != nullptr ? &gpu->hull : nullptr;
        model = modelMatrix(obstacle);
        normalMatrix = obstacle.normalMatrix;
        glUniform1f(outlineU.grow, 1.0f);
        glUniform1f(outlineU.pixels, kMeshOutlinePixels);
        glUniform1i(outlineU.alongNormal, 1);
    }
    glUniformMatrix4fv(outlineU.model, 1, GL_FALSE, glm::value_ptr(model));
    glUniformMatrix3fv(outlineU.normalMatrix, 1, GL_FALSE, glm::value_ptr(normalMatrix));
    if (mesh != nullptr && mesh->indexCount > 0) {
        glBindVertexArray(mesh->vao.id());
        glDrawElements(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, nullptr);
    }
    glCullFace(GL_BACK);
}

/// Lines: the room's edges depth tested; debug lines faint through everything, then solid. Leaves
/// the line program bound for drawOnTop.
void Renderer::Impl::drawLines(const Frame& frame) {
    glDisable(GL_CULL_FACE);
    glUseProgram(lineProgram.id());
    glUniformMatrix4fv(linesU.viewProj, 1, GL_FALSE, glm::value_ptr(frame.viewProj));
    glUniform1f(linesU.alpha, 1.0f);
    lineStream.draw(GL_LINES, edgeLines);
    if (debugLines.lines.empty()) return;
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    glUniform1f(linesU.alpha, kHiddenLineAlpha);
    lineStream.draw(GL_LINES, debugLines.lines);
    glEnable(GL_DEPTH_TEST);
    glUniform1f(linesU.alpha, 1.0f);
    glBindVertexArray(lineStream.vao.id());
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(debugLines.lines.size())); // same data, no re-upload
    glDisable(GL_BLEND);
}

/// Over everything, with the line program drawLines bound: the picked triangle, filled faintly
/// and edged.
void Renderer::Impl::drawOnTop() {
    if (debugLines.topTriangles.empty() && debugLines.topLines.empty()) return;
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_DEPTH_TEST);
    glUniform1f(linesU.alpha, kHitTriangleFillAlpha);
    lineStream.draw(GL_TRIANGLES, debugLines.topTriangles);
    glUniform1f(linesU.alpha, 1.0f);
    lineStream.draw(GL_LINES, debugLines.topLines);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
}

std::vector<std::uint8_t> Renderer::readPixels(glm::ivec2 size) const {
    if (size.x <= 0 || size.y <= 0) return {};
    const auto width = static_cast<std::size_t>(size.x);
    const auto height = static_cast<std::size_t>(size.y);
    const std::size_t row = width * 3;
    std::vector<std::uint8_t> bottomUp(row * height);
    GLint oldAlignment = 4;
    glGetIntegerv(GL_PACK_ALIGNMENT, &oldAlignment);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, size.x, size.y, GL_RGB, GL_UNSIGNED_BYTE, bottomUp.data());
    glPixelStorei(GL_PACK_ALIGNMENT, oldAlignment);
    std::vector<std::uint8_t> topDown(bottomUp.size());
    for (std::size_t y = 0; y < height; ++y) {
        std::memcpy(topDown.data() + y * row, bottomUp.data() + (height - 1 - y) * row, row);
    }
    return topDown;
}

bool writePng(const std::filesystem::path& file, const std::vector<std::uint8_t>& rgb, glm::ivec2 size,
              std::string& error) {
    if (size.x <= 0 || size.y <= 0 ||
        rgb.size() != static_cast<std::size_t>(size.x) * static_cast<std::size_t>(size.y) * 3) {
        error = file.string() + ": cannot write PNG: " + std::to_string(rgb.size()) + " bytes do not match " +
                std::to_string(size.x) + "x" + std::to_string(size.y) + " RGB pixels";
        return false;
    }
    errno = 0;
    if (stbi_write_png(file.c_str(), size.x, size.y, 3, rgb.data(), size.x * 3) == 0) {
        error = file.string() + ": cannot write PNG" +
                (errno != 0 ? std::string(": ") + std::strerror(errno) : "");
        return false;
    }
    return true;
}

std::filesystem::path shaderDirectory() {
    return dataDirectory("KOLIZE_SHADER_DIR", "shaders", KZ_SHADER_DIR);
}

} // namespace kz::render
