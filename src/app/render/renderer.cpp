#include "renderer.hpp"

#include "data_dir/data_dir.hpp"
#include "geom/plane.hpp"
#include "renderer_impl.hpp"
#include "shader_program.hpp"

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stb_image_write.h>
#include <system_error>

namespace kz::render {
namespace {

constexpr glm::vec3 kClearColor{0.11f, 0.13f, 0.17f}; // dark blue-grey
constexpr glm::vec3 kEdgeColor{0.72f, 0.77f, 0.85f};
constexpr float kSelectedTint = 0.35f; // mix toward white
/// 1024 texels a side: about 1.4 cm each over a 10 m room seen from the sun, about a pixel on the
/// floor at 1280x720, and cheap enough to clear and fill every frame on llvmpipe (2048 costs 6 ms more).
constexpr int kShadowMapSize = 1024;
/// A full shadow takes this share of the light away: shadowed floor stays readable.
constexpr float kShadowStrength = 0.5f;

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
    frame.pixelScale = view.pixelScale > 0.0f ? view.pixelScale : 1.0f;
    return frame;
}

/// What the sun's frustum must hold: the room and every mesh obstacle (which may reach out of it).
Aabb shadowBounds(const World& world) {
    Aabb bounds = world.room().bounds;
    for (const Obstacle& obstacle : world.obstacles()) {
        bounds.min = glm::min(bounds.min, obstacle.bounds.min);
        bounds.max = glm::max(bounds.max, obstacle.bounds.max);
    }
    return bounds;
}

/// The sun's shadow of this frame (strength 0 when shadows are off).
SunShadow sunShadowOf(const World& world, bool on, int mapSize) {
    SunShadow sun;
    sun.towardSun = sunDirection();
    sun.viewProj = sunViewProj(shadowBounds(world), sun.towardSun);
    sun.texelWorld = shadowTexelWorld(sun.viewProj, mapSize);
    sun.strength = on ? kShadowStrength : 0.0f;
    return sun;
}

Selection selectionOf(const World& world, int selectedBody, int selectedObstacle) {
    Selection selection;
    if (selectedBody >= 0 && selectedBody < static_cast<int>(world.bodies().size())) {
        selection.body = selectedBody;
    } else if (selectedObstacle >= 0 && selectedObstacle < static_cast<int>(world.obstacles().size())) {
        selection.obstacle = selectedObstacle;
    }
    return selection;
}

/// Clears colour and depth of the framebuffer the scene draws into and sets the state every pass
/// starts from.
void beginScene(const glm::ivec2& framebuffer) {
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

glm::vec4 unpackColor(std::uint32_t rgb) {
    return {static_cast<float>((rgb >> 16) & 0xffu) / 255.0f, static_cast<float>((rgb >> 8) & 0xffu) / 255.0f,
            static_cast<float>(rgb & 0xffu) / 255.0f, 1.0f};
}

glm::vec4 selectedTint(const glm::vec4& color) {
    return glm::vec4(glm::mix(glm::vec3(color), glm::vec3(1.0f), kSelectedTint), 1.0f);
}

namespace {

/// The model matrix of a body's pose, its unit mesh scaled by `scale` along its own axes first.
glm::mat4 scaledPose(const Body& body, const glm::vec3& scale, const glm::vec3& offset = glm::vec3(0.0f)) {
    const glm::mat3 rotation = glm::mat3_cast(body.orientation);
    glm::mat4 model(1.0f);
    for (int axis = 0; axis < 3; ++axis)
        model[axis] = glm::vec4(rotation[axis] * scale[axis], 0.0f);
    model[3] = glm::vec4(body.position + rotation * offset, 1.0f);
    return model;
}

} // namespace

glm::mat4 modelMatrix(const Body& body) {
    switch (body.shape) {
    case ShapeType::Sphere:
        return scaledPose(body, glm::vec3(body.radius));
    case ShapeType::Cylinder:
        return scaledPose(body, glm::vec3(roundRadius(body), body.halfHeight, roundRadius(body)));
    case ShapeType::Hull:
        return scaledPose(body, glm::vec3(1.0f)); // the hull's vertices are in the body's frame
    case ShapeType::Box:
    case ShapeType::Capsule: // its bounding box (capsuleParts draws it)
        break;
    }
    return scaledPose(body, body.halfExtents);
}

CapsuleParts capsuleParts(const Body& body) {
    const float r = roundRadius(body), h = body.halfHeight;
    // The bottom end is the top one turned half a turn about x (a mirror would turn its winding).
    const glm::mat4 turn = glm::mat4_cast(glm::angleAxis(glm::pi<float>(), glm::vec3(1.0f, 0.0f, 0.0f)));
    return {scaledPose(body, glm::vec3(r, h, r)), scaledPose(body, glm::vec3(r), glm::vec3(0.0f, h, 0.0f)),
            scaledPose(body, glm::vec3(r), glm::vec3(0.0f, -h, 0.0f)) * turn};
}

glm::mat4 modelMatrix(const Obstacle& obstacle) {
    glm::mat4 model(obstacle.linear);
    model[3] = glm::vec4(obstacle.position, 1.0f);
    return model;
}

namespace {

/// The locations of shadow.glsl's uniforms in `program` (-1 for those no_shadow.glsl lacks), its
/// sampler set to texture unit 0.
ShadowUniforms shadowUniformsOf(const Program& program) {
    auto at = [&](const char* name) { return glGetUniformLocation(program.id(), name); };
    const ShadowUniforms u{at("uShadowMap"), at("uLightViewProj"), at("uSunDir"), at("uShadowStrength"),
                           at("uShadowTexelWorld")};
    glUseProgram(program.id());
    if (u.map >= 0) glUniform1i(u.map, 0);
    glUseProgram(0);
    return u;
}

} // namespace

namespace {

/// Compiles shaders/<name>.vert and .frag (the fragment shader with `libraries`) into `out`.
bool loadNamed(const std::filesystem::path& shaderDir, const char* name, Program& out, std::string& error,
               std::span<const std::filesystem::path> libraries = {}) {
    auto program = loadProgram(shaderDir / (std::string(name) + ".vert"),
                               shaderDir / (std::string(name) + ".frag"), error, libraries);
    if (!program) return false;
    out = std::move(*program);
    return true;
}

GLint uniformAt(const Program& program, const char* name) {
    return glGetUniformLocation(program.id(), name);
}

/// The scene and room programs built with the shadow library `library` (shadow.glsl or
/// no_shadow.glsl), and their uniforms.
bool loadLitPrograms(const std::filesystem::path& shaderDir, const char* library, LitPrograms& out,
                     std::string& error) {
    const std::array<std::filesystem::path, 1> libraries{shaderDir / library};
    if (!loadNamed(shaderDir, "scene", out.scene, error, libraries) ||
        !loadNamed(shaderDir, "room", out.room, error, libraries)) {
        return false;
    }
    for (auto [program, uniforms] : {std::pair{&out.scene, &out.sceneU}, std::pair{&out.room, &out.roomU}}) {
        *uniforms = {uniformAt(*program, "uViewProj"), uniformAt(*program, "uKeyDir"),
                     uniformAt(*program, "uFillDir"), shadowUniformsOf(*program)};
    }
    out.sceneEye = uniformAt(out.scene, "uEye");
    out.roomWallColor = uniformAt(out.room, "uWallColor");
    out.roomGridColor = uniformAt(out.room, "uGridColor");
    return true;
}

} // namespace

std::unique_ptr<Renderer> Renderer::create(const std::filesystem::path& shaderDir, std::string& error,
                                           int msaaSamples) {
    auto impl = std::make_unique<Impl>(kShadowMapSize, msaaSamples);
    if (!loadLitPrograms(shaderDir, "shadow.glsl", impl->shadowed, error) ||
        !loadLitPrograms(shaderDir, "no_shadow.glsl", impl->unshadowed, error) ||
        !loadNamed(shaderDir, "outline", impl->outlineProgram, error) ||
        !loadNamed(shaderDir, "lines", impl->lineProgram, error) ||
        !loadNamed(shaderDir, "shadow", impl->shadowProgram, error)) {
        return nullptr;
    }
    const Program& outline = impl->outlineProgram;
    impl->outlineU = {uniformAt(outline, "uViewProj"),    uniformAt(outline, "uModel"),
                      uniformAt(outline, "uGrow"),        uniformAt(outline, "uPixels"),
                      uniformAt(outline, "uViewport"),    uniformAt(outline, "uColor"),
                      uniformAt(outline, "uAlongNormal"), uniformAt(outline, "uNormalMatrix")};
    impl->linesU = {uniformAt(impl->lineProgram, "uViewProj"), uniformAt(impl->lineProgram, "uAlpha")};
    impl->shadowU = {uniformAt(impl->shadowProgram, "uLightViewProj")};
    error.clear();
    return std::unique_ptr<Renderer>(new Renderer(std::move(impl)));
}

Renderer::Renderer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Renderer::~Renderer() = default;

int Renderer::msaaSamples() const {
    return impl_->msaa.samples();
}

void Renderer::draw(const World& world, const SceneView& view, const PickState& picks,
                    const DebugDraw& debug) {
    draw(world, view, picks.selectedBody(), debug, overlayOf(world, picks, view.farPlane));
}

void Renderer::draw(const World& world, const SceneView& view, int selectedBody, const DebugDraw& debug,
                    const Overlay& overlay) {
    Impl& impl = *impl_;
    Frame frame = frameOf(view);
    frame.sun = sunShadowOf(world, view.shadows, impl.shadowMap.size());
    const Selection selection = selectionOf(world, selectedBody, overlay.selectedObstacle);

    // On the CPU: this frame's instances and vertices; the instances go to the GPU once.
    impl.buildBodyInstances(world.bodies(), selection.body);
    impl.obstacleMeshes.dropUnused();
    impl.hullMeshes.dropUnused();
    impl.bvhBoxes.dropUnused();
    impl.buildRoom(world.room(), view.eye);
    buildDebugLines(world, view.eye, debug, overlay, impl.bvhBoxes, impl.debugLines);
    impl.uploadBodyInstances();

    // The passes, each setting the GL state it needs. The scene goes into the multisampled
    // framebuffer when there is one, resolved at the end into the one bound on entry (the window's).
    GLint target = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
    if (view.shadows) impl.drawShadowMap(frame, world.obstacles());
    const bool multisampled = impl.msaa.begin(view.framebuffer);
    if (!multisampled) glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(target));
    beginScene(view.framebuffer);
    impl.drawRoom(frame);
    impl.drawBodies(frame);
    impl.drawObstacles(world.obstacles(), selection.obstacle);
    if (selection.body >= 0 || selection.obstacle >= 0) impl.drawSelectionOutline(frame, world, selection);
    impl.drawRoomEdges(frame);
    impl.drawTranslucent(frame);
    impl.drawDebugLines(frame);
    impl.drawOnTop();
    if (multisampled) impl.msaa.resolve(static_cast<GLuint>(target));

    // Nothing left bound for whoever draws next (the UI).
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
}

void Renderer::Impl::buildBodyInstances(std::span<const Body> bodies, int selectedBody) {
    sphereInstances.clear();
    boxInstances.clear();
    cylinderInstances.clear();
    tubeInstances.clear();
    hemisphereInstances.clear();
    for (auto& batch : hullBatches)
        batch.second.clear();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Body& body = bodies[i];
        glm::vec4 color = unpackColor(body.color);
        if (static_cast<int>(i) == selectedBody) color = selectedTint(color);
        switch (body.shape) {
        case ShapeType::Sphere:
            sphereInstances.push_back({modelMatrix(body), color});
            break;
        case ShapeType::Box:
            boxInstances.push_back({modelMatrix(body), color});
            break;
        case ShapeType::Cylinder:
            cylinderInstances.push_back({modelMatrix(body), color});
            break;
        case ShapeType::Capsule: {
            const CapsuleParts parts = capsuleParts(body);
            tubeInstances.push_back({parts.side, color});
            hemisphereInstances.push_back({parts.top, color});
            hemisphereInstances.push_back({parts.bottom, color});
            break;
        }
        case ShapeType::Hull:
            if (HullMesh* mesh = hullMesh(body.hull)) hullBatch(mesh).push_back({modelMatrix(body), color});
            break;
        }
    }
    std::erase_if(hullBatches, [](const auto& batch) { return batch.second.empty(); });
}

std::vector<Instance>& Renderer::Impl::hullBatch(HullMesh* mesh) {
    for (auto& batch : hullBatches)
        if (batch.first == mesh) return batch.second;
    return hullBatches.emplace_back(mesh, std::vector<Instance>{}).second;
}

void Renderer::Impl::uploadBodyInstances() {
    streamBuffer(GL_ARRAY_BUFFER, sphereMeshInUse().instances, sphereInstances);
    streamBuffer(GL_ARRAY_BUFFER, boxMesh.instances, boxInstances);
    streamBuffer(GL_ARRAY_BUFFER, cylinderMesh.instances, cylinderInstances);
    streamBuffer(GL_ARRAY_BUFFER, tubeMesh.instances, tubeInstances);
    streamBuffer(GL_ARRAY_BUFFER, hemisphereMesh.instances, hemisphereInstances);
    for (const auto& [mesh, instances] : hullBatches)
        streamBuffer(GL_ARRAY_BUFFER, mesh->flat.instances, instances);
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
