#include "renderer.hpp"

#include "geom/plane.hpp"
#include "gl_objects.hpp"
#include "meshes.hpp"
#include "shader_program.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <iterator>
#include <memory>
#include <stb_image_write.h>
#include <system_error>
#include <tuple>
#include <unordered_map>

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
constexpr glm::vec3 kPickRayColor{1.0f, 0.9f, 0.2f};
constexpr glm::vec3 kPickNormalColor{0.2f, 0.95f, 1.0f};
constexpr glm::vec3 kPreviewColor{1.0f, 0.55f, 0.15f};
constexpr glm::vec3 kBoundsColor{0.45f, 0.85f, 0.45f};
constexpr glm::vec3 kContactColor{1.0f, 0.3f, 0.85f};
constexpr glm::vec3 kVelocityColor{0.35f, 0.6f, 1.0f};
constexpr glm::vec3 kHitTriangleColor{0.55f, 1.0f, 0.1f}; // bright lime: unlike any other line
constexpr float kHitTriangleFillAlpha = 0.45f;
constexpr float kVelocitySeconds = 0.1f;
/// Above this many spheres they all use the 16x8 mesh instead of the 32x16 one: 4x fewer
/// triangles keeps thousands of bodies interactive on a software rasteriser (llvmpipe).
constexpr std::size_t kDetailedSphereLimit = 2000;
constexpr float kContactNormalLength = 0.3f;
constexpr float kHitNormalLength = 0.5f;
/// Debug lines are drawn twice: faintly through everything, then depth tested at full strength.
constexpr float kHiddenLineAlpha = 0.3f;

/// Per-instance data of the body shaders (attribute locations 2-5 and 6).
struct Instance {
    glm::mat4 model;
    glm::vec4 color;
};

struct LineVertex {
    glm::vec3 position;
    glm::vec3 color;
};

struct WallVertex {
    glm::vec3 position;
    glm::vec3 normal;
};

const void* byteOffset(std::size_t offset) {
    return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(offset));
}

glm::vec4 unpackColor(std::uint32_t rgb) {
    return {static_cast<float>((rgb >> 16) & 0xffu) / 255.0f, static_cast<float>((rgb >> 8) & 0xffu) / 255.0f,
            static_cast<float>(rgb & 0xffu) / 255.0f, 1.0f};
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

/// Streams `count` elements into `buffer`, orphaning its old storage so the driver need not wait
/// for the previous frame's draws.
template <class T>
void streamBuffer(GLenum target, const Buffer& buffer, const std::vector<T>& data) {
    glBindBuffer(target, buffer.id());
    const auto bytes = static_cast<GLsizeiptr>(data.size() * sizeof(T));
    glBufferData(target, bytes, nullptr, GL_STREAM_DRAW);
    if (bytes > 0) glBufferSubData(target, 0, bytes, data.data());
}

/// A unit mesh in GPU memory with a vertex array that also reads an instance buffer.
struct InstancedMesh {
    Buffer vertices = makeBuffer();
    Buffer indices = makeBuffer();
    Buffer instances = makeBuffer();
    VertexArray vao = makeVertexArray();
    GLsizei indexCount = 0;

    explicit InstancedMesh(const MeshData& mesh) {
        indexCount = static_cast<GLsizei>(mesh.indices.size());
        glBindVertexArray(vao.id());
        glBindBuffer(GL_ARRAY_BUFFER, vertices.id());
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(MeshVertex)),
                     mesh.vertices.data(), GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                              byteOffset(offsetof(MeshVertex, position)));
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                              byteOffset(offsetof(MeshVertex, normal)));
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices.id());
        glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                     static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(std::uint32_t)),
                     mesh.indices.data(), GL_STATIC_DRAW);

        glBindBuffer(GL_ARRAY_BUFFER, instances.id());
        for (GLuint column = 0; column < 4; ++column) {
            glEnableVertexAttribArray(2 + column);
            glVertexAttribPointer(2 + column, 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
                                  byteOffset(offsetof(Instance, model) + column * sizeof(glm::vec4)));
            glVertexAttribDivisor(2 + column, 1);
        }
        glEnableVertexAttribArray(6);
        glVertexAttribPointer(6, 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
                              byteOffset(offsetof(Instance, color)));
        glVertexAttribDivisor(6, 1);
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
};

/// A stream of non-indexed vertices with two vec3 attributes (position and normal or colour).
struct VertexStream {
    Buffer buffer = makeBuffer();
    VertexArray vao = makeVertexArray();

    explicit VertexStream(GLsizei stride) {
        glBindVertexArray(vao.id());
        glBindBuffer(GL_ARRAY_BUFFER, buffer.id());
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, byteOffset(0));
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, byteOffset(sizeof(glm::vec3)));
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }

    template <class T>
    void draw(GLenum mode, const std::vector<T>& data) const {
        if (data.empty()) return;
        streamBuffer(GL_ARRAY_BUFFER, buffer, data);
        glBindVertexArray(vao.id());
        glDrawArrays(mode, 0, static_cast<GLsizei>(data.size()));
    }
};

void addLine(std::vector<LineVertex>& lines, const glm::vec3& a, const glm::vec3& b, const glm::vec3& color) {
    lines.push_back({a, color});
    lines.push_back({b, color});
}

/// Three axis-aligned segments of half length `size` through p.
void addCross(std::vector<LineVertex>& lines, const glm::vec3& p, float size, const glm::vec3& color) {
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 offset(0.0f);
        offset[axis] = size;
        addLine(lines, p - offset, p + offset, color);
    }
}

void addBox(std::vector<LineVertex>& lines, const Aabb& box, const glm::vec3& color) {
    const glm::vec3 c[2] = {box.min, box.max};
    auto corner = [&c](int i) { return glm::vec3(c[i & 1].x, c[(i >> 1) & 1].y, c[(i >> 2) & 1].z); };
    for (int i = 0; i < 8; ++i) {
        for (int bit = 1; bit < 8; bit <<= 1) {
            if ((i & bit) == 0) addLine(lines, corner(i), corner(i | bit), color);
        }
    }
}

/// The 12 edges of a local-frame box, placed in the world by the obstacle's transform (a
/// parallelepiped once rotated and scaled).
void addPlacedBox(std::vector<LineVertex>& lines, const Aabb& box, const Obstacle& obstacle,
                  const glm::vec3& color) {
    const glm::vec3 c[2] = {box.min, box.max};
    auto corner = [&](int i) {
        return obstacle.toWorld(glm::vec3(c[i & 1].x, c[(i >> 1) & 1].y, c[(i >> 2) & 1].z));
    };
    for (int i = 0; i < 8; ++i) {
        for (int bit = 1; bit < 8; bit <<= 1) {
            if ((i & bit) == 0) addLine(lines, corner(i), corner(i | bit), color);
        }
    }
}

/// A colour per BVH level: the hue turns from teal at the root through blue, magenta, red and
/// orange, so neighbouring levels differ (and the root is not the selection's yellow).
glm::vec3 levelColor(int level) {
    const float hue = std::fmod(0.45f + 0.11f * static_cast<float>(level), 1.0f) * 6.0f;
    const float x = 1.0f - std::abs(std::fmod(hue, 2.0f) - 1.0f);
    glm::vec3 rgb;
    switch (static_cast<int>(hue)) {
    case 0:
        rgb = {1.0f, x, 0.0f};
        break;
    case 1:
        rgb = {x, 1.0f, 0.0f};
        break;
    case 2:
        rgb = {0.0f, 1.0f, x};
        break;
    case 3:
        rgb = {0.0f, x, 1.0f};
        break;
    case 4:
        rgb = {x, 0.0f, 1.0f};
        break;
    default:
        rgb = {1.0f, 0.0f, x};
        break;
    }
    return glm::mix(rgb, glm::vec3(1.0f), 0.25f); // a little lighter: readable on the dark walls
}

bool boxLess(const Aabb& a, const Aabb& b) {
    return std::tie(a.min.x, a.min.y, a.min.z, a.max.x, a.max.y, a.max.z) <
           std::tie(b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
}

/// The boxes of MeshBvh::nodeBoxes(maxDepth), each with its level: nodeBoxes(k) holds the
/// boxes of nodeBoxes(k - 1) plus those of level k, so the boxes of level k are the multiset
/// difference of the two (whatever order nodeBoxes lists them in).
std::vector<std::pair<Aabb, int>> boxesByLevel(const MeshBvh& bvh, int maxDepth) {
    std::vector<std::pair<Aabb, int>> out;
    std::vector<Aabb> above;
    for (int level = 0; level <= maxDepth; ++level) {
        std::vector<Aabb> upTo = bvh.nodeBoxes(level);
        std::sort(upTo.begin(), upTo.end(), boxLess);
        std::vector<Aabb> added;
        std::set_difference(upTo.begin(), upTo.end(), above.begin(), above.end(), std::back_inserter(added),
                            boxLess);
        for (const Aabb& box : added)
            out.emplace_back(box, level);
        above = std::move(upTo);
    }
    return out;
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

    /// An obstacle's mesh on the GPU, uploaded once per MeshShape.
    struct ObstacleMesh {
        std::weak_ptr<const MeshShape> shape;    ///< Expired once no obstacle uses the mesh: then dropped.
        InstancedMesh flat;                      ///< Flat shaded (face normals), for the lit pass.
        InstancedMesh hull;                      ///< Welded, smooth normals: the outline's hull.
        int boxesDepth = -1;                     ///< nodeBoxes depth `boxes` was made for.
        std::vector<std::pair<Aabb, int>> boxes; ///< BVH boxes (local frame) with their levels.

        explicit ObstacleMesh(const std::shared_ptr<const MeshShape>& mesh)
            : shape(mesh), flat(flatShaded(mesh->vertices, mesh->indices)),
              hull(smoothHull(mesh->vertices, mesh->indices)) {
            // The outline draws the hull without instances: it reads no per-instance attribute.
            glBindVertexArray(hull.vao.id());
            for (GLuint location = 2; location <= 6; ++location)
                glDisableVertexAttribArray(location);
            glBindVertexArray(0);
        }
    };

    InstancedMesh sphereMesh{unitSphere(32, 16)};
    InstancedMesh coarseSphereMesh{unitSphere(16, 8)}; ///< For crowds (see kDetailedSphereLimit).
    InstancedMesh boxMesh{unitCube()};
    VertexStream walls{sizeof(WallVertex)};
    VertexStream lineStream{sizeof(LineVertex)};
    /// Keyed by the MeshShape's address; the weak pointer tells a live entry from one whose
    /// mesh was freed (and whose address a new mesh may reuse).
    std::unordered_map<const MeshShape*, std::unique_ptr<ObstacleMesh>> obstacleMeshes;

    // Per-frame scratch, kept to reuse its memory.
    std::vector<Instance> sphereInstances, boxInstances, obstacleInstance;
    std::vector<WallVertex> wallVertices;
    std::vector<LineVertex> edgeLines, debugLines;
    std::vector<LineVertex> topLines, topTriangles; ///< Drawn last, over everything.

    void buildRoom(const Room& room, const glm::vec3& eye);
    void buildDebugLines(const World& world, const SceneView& view, const DebugDraw& debug,
                         const Overlay& overlay);
    /// The GPU mesh of `mesh`, uploaded on first use.
    ObstacleMesh* obstacleMesh(const std::shared_ptr<const MeshShape>& mesh);
    /// Frees the GPU meshes no obstacle uses any more (after a scenario change).
    void dropUnusedObstacleMeshes();
    void addBvhBoxes(const Obstacle& obstacle, int depth);
};

Renderer::Impl::ObstacleMesh* Renderer::Impl::obstacleMesh(const std::shared_ptr<const MeshShape>& mesh) {
    if (!mesh) return nullptr;
    auto it = obstacleMeshes.find(mesh.get());
    if (it != obstacleMeshes.end() && it->second->shape.expired()) {
        obstacleMeshes.erase(it);
        it = obstacleMeshes.end();
    }
    if (it == obstacleMeshes.end())
        it = obstacleMeshes.emplace(mesh.get(), std::make_unique<ObstacleMesh>(mesh)).first;
    return it->second.get();
}

void Renderer::Impl::dropUnusedObstacleMeshes() {
    std::erase_if(obstacleMeshes, [](const auto& entry) { return entry.second->shape.expired(); });
}

void Renderer::Impl::addBvhBoxes(const Obstacle& obstacle, int depth) {
    ObstacleMesh* gpu = obstacleMesh(obstacle.mesh);
    if (gpu == nullptr) return;
    depth = std::clamp(depth, 0, std::max(obstacle.mesh->bvh.depth() - 1, 0));
    if (gpu->boxesDepth != depth) {
        gpu->boxes = boxesByLevel(obstacle.mesh->bvh, depth);
        gpu->boxesDepth = depth;
    }
    for (const auto& [box, level] : gpu->boxes)
        addPlacedBox(debugLines, box, obstacle, levelColor(level));
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

void Renderer::Impl::buildDebugLines(const World& world, const SceneView& view, const DebugDraw& debug,
                                     const Overlay& overlay) {
    debugLines.clear();
    topLines.clear();
    topTriangles.clear();
    const auto bodies = world.bodies();
    const auto obstacles = world.obstacles();
    const Obstacle* selectedObstacle =
        overlay.selectedObstacle >= 0 && overlay.selectedObstacle < static_cast<int>(obstacles.size())
            ? &obstacles[static_cast<std::size_t>(overlay.selectedObstacle)]
            : nullptr;
    // Markers keep a similar size on screen: a fraction of their distance to the eye.
    auto markerSize = [&view](const glm::vec3& p) {
        return std::clamp(0.015f * glm::distance(view.eye, p), 0.02f, 0.5f);
    };

    if (debug.pickRay && overlay.pickRay && isFinite(overlay.pickRay->origin) &&
        isFinite(overlay.pickRay->dir)) {
        const Ray& ray = *overlay.pickRay;
        addLine(debugLines, ray.origin, ray.origin + ray.dir * overlay.pickRayLength, kPickRayColor);
        if (overlay.pickHit && isFinite(overlay.pickHit->point) && isFinite(overlay.pickHit->normal)) {
            const RayHit& hit = *overlay.pickHit;
            addCross(debugLines, hit.point, markerSize(hit.point), kPickRayColor);
            addLine(debugLines, hit.point, hit.point + hit.normal * kHitNormalLength, kPickNormalColor);
        }
    }
    if (debug.impactPreview && overlay.previewBody >= 0 &&
        overlay.previewBody < static_cast<int>(bodies.size())) {
        if (const auto preview = world.impactPreview(overlay.previewBody)) {
            const glm::vec3 centre = bodies[static_cast<std::size_t>(overlay.previewBody)].position;
            addLine(debugLines, centre, preview->point, kPreviewColor);
            addCross(debugLines, preview->point, markerSize(preview->point), kPreviewColor);
        }
    }
    if (debug.bounds) {
        for (const Body& body : bodies) {
            const Aabb box = body.shape == ShapeType::Sphere ? Aabb{body.position - glm::vec3(body.radius),
                                                                    body.position + glm::vec3(body.radius)}
                                                             : bounds(obbOf(body));
            addBox(debugLines, box, kBoundsColor);
        }
        for (const Obstacle& obstacle : obstacles)
            addBox(debugLines, obstacle.bounds, kBoundsColor);
    }
    if (debug.contacts) {
        for (const ContactInfo& contact : world.contacts()) {
            addCross(debugLines, contact.point, markerSize(contact.point) * 0.5f, kContactColor);
            addLine(debugLines, contact.point, contact.point + contact.normal * kContactNormalLength,
                    kContactColor);
        }
    }
    if (debug.velocities) {
        for (const Body& body : bodies) {
            if (body.velocity == glm::vec3(0.0f)) continue;
            addLine(debugLines, body.position, body.position + body.velocity * kVelocitySeconds,
                    kVelocityColor);
        }
    }
    if (debug.bvhBoxes) {
        if (selectedObstacle != nullptr) {
            addBvhBoxes(*selectedObstacle, debug.bvhDepth);
        } else {
            for (const Obstacle& obstacle : obstacles)
                addBvhBoxes(obstacle, debug.bvhDepth);
        }
    }
    // The picked triangle lies on the surface, where depth testing would let the surface hide
    // half of it: it is drawn over everything, filled faintly and edged brightly.
    if (debug.hitTriangle && selectedObstacle != nullptr && overlay.pickTriangle &&
        *overlay.pickTriangle < selectedObstacle->mesh->triangleCount()) {
        const Triangle tri = selectedObstacle->worldTriangle(*overlay.pickTriangle);
        if (isFinite(tri.a) && isFinite(tri.b) && isFinite(tri.c)) {
            topTriangles.insert(
                topTriangles.end(),
                {{tri.a, kHitTriangleColor}, {tri.b, kHitTriangleColor}, {tri.c, kHitTriangleColor}});
            addLine(topLines, tri.a, tri.b, kHitTriangleColor);
            addLine(topLines, tri.b, tri.c, kHitTriangleColor);
            addLine(topLines, tri.c, tri.a, kHitTriangleColor);
        }
    }
}

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

void Renderer::draw(const World& world, const SceneView& view, int selectedBody, const DebugDraw& debug,
                    const Overlay& overlay) {
    Impl& r = *impl_;
    const glm::mat4 viewProj = view.proj * view.view;
    // Lights in camera space, turned into the world: the key sits above, right of and behind the
    // eye; the fill comes from the lower left.
    const glm::mat3 cameraToWorld = glm::transpose(glm::mat3(view.view));
    const glm::vec3 keyDir = glm::normalize(cameraToWorld * glm::vec3(0.35f, 0.55f, 1.0f));
    const glm::vec3 fillDir = glm::normalize(cameraToWorld * glm::vec3(-0.6f, -0.3f, 0.5f));

    const auto bodies = world.bodies();
    const bool hasSelection = selectedBody >= 0 && selectedBody < static_cast<int>(bodies.size());
    r.sphereInstances.clear();
    r.boxInstances.clear();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Body& body = bodies[i];
        glm::vec4 color = unpackColor(body.color);
        if (hasSelection && static_cast<int>(i) == selectedBody) {
            color = glm::vec4(glm::mix(glm::vec3(color), glm::vec3(1.0f), kSelectedTint), 1.0f);
        }
        auto& list = body.shape == ShapeType::Sphere ? r.sphereInstances : r.boxInstances;
        list.push_back({modelMatrix(body), color});
    }
    const auto obstacles = world.obstacles();
    const bool hasObstacleSelection = !hasSelection && overlay.selectedObstacle >= 0 &&
                                      overlay.selectedObstacle < static_cast<int>(obstacles.size());
    r.dropUnusedObstacleMeshes();
    r.buildRoom(world.room(), view.eye);
    r.buildDebugLines(world, view, debug, overlay);

    glViewport(0, 0, view.framebuffer.x, view.framebuffer.y);
    glClearColor(kClearColor.r, kClearColor.g, kClearColor.b, 1.0f);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);

    // Walls, pushed back a little in depth so their edges and grid-mates draw cleanly on them.
    glDisable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    glUseProgram(r.roomProgram.id());
    glUniformMatrix4fv(r.roomU.viewProj, 1, GL_FALSE, glm::value_ptr(viewProj));
    glUniform3fv(r.roomU.keyDir, 1, glm::value_ptr(keyDir));
    glUniform3fv(r.roomU.fillDir, 1, glm::value_ptr(fillDir));
    glUniform3fv(r.roomU.wallColor, 1, glm::value_ptr(kWallColor));
    glUniform3fv(r.roomU.gridColor, 1, glm::value_ptr(kGridColor));
    r.walls.draw(GL_TRIANGLES, r.wallVertices);
    glDisable(GL_POLYGON_OFFSET_FILL);

    // Bodies: one instanced draw call per shape.
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glUseProgram(r.sceneProgram.id());
    glUniformMatrix4fv(r.sceneU.viewProj, 1, GL_FALSE, glm::value_ptr(viewProj));
    glUniform3fv(r.sceneU.eye, 1, glm::value_ptr(view.eye));
    glUniform3fv(r.sceneU.keyDir, 1, glm::value_ptr(keyDir));
    glUniform3fv(r.sceneU.fillDir, 1, glm::value_ptr(fillDir));
    const InstancedMesh& sphereMesh =
        r.sphereInstances.size() > kDetailedSphereLimit ? r.coarseSphereMesh : r.sphereMesh;
    for (auto [mesh, instances] :
         {std::pair{&sphereMesh, &r.sphereInstances},
          std::pair{static_cast<const InstancedMesh*>(&r.boxMesh), &r.boxInstances}}) {
        if (instances->empty()) continue;
        streamBuffer(GL_ARRAY_BUFFER, mesh->instances, *instances);
        glBindVertexArray(mesh->vao.id());
        glDrawElementsInstanced(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, nullptr,
                                static_cast<GLsizei>(instances->size()));
    }

    // Obstacles: one draw each, both sides (a mesh need not be closed; scene.frag lights the
    // side that faces the camera).
    glDisable(GL_CULL_FACE);
    for (std::size_t i = 0; i < obstacles.size(); ++i) {
        const Obstacle& obstacle = obstacles[i];
        const Impl::ObstacleMesh* gpu = r.obstacleMesh(obstacle.mesh);
        if (gpu == nullptr || gpu->flat.indexCount == 0) continue;
        glm::vec4 color = unpackColor(obstacle.color);
        if (hasObstacleSelection && static_cast<int>(i) == overlay.selectedObstacle)
            color = glm::vec4(glm::mix(glm::vec3(color), glm::vec3(1.0f), kSelectedTint), 1.0f);
        r.obstacleInstance.assign(1, Instance{modelMatrix(obstacle), color});
        streamBuffer(GL_ARRAY_BUFFER, gpu->flat.instances, r.obstacleInstance);
        glBindVertexArray(gpu->flat.vao.id());
        glDrawElementsInstanced(GL_TRIANGLES, gpu->flat.indexCount, GL_UNSIGNED_INT, nullptr, 1);
    }
    glEnable(GL_CULL_FACE);

    // The selected body's or obstacle's rim: its grown back faces show only around the
    // silhouette. A body grows about its centre; an obstacle's hull is pushed along its normals.
    if (hasSelection || hasObstacleSelection) {
        const glm::vec2 viewport(view.framebuffer);
        glCullFace(GL_FRONT);
        glUseProgram(r.outlineProgram.id());
        glUniformMatrix4fv(r.outlineU.viewProj, 1, GL_FALSE, glm::value_ptr(viewProj));
        glUniform2fv(r.outlineU.viewport, 1, glm::value_ptr(viewport));
        glUniform4fv(r.outlineU.color, 1, glm::value_ptr(kOutlineColor));
        const InstancedMesh* mesh = nullptr;
        glm::mat4 model(1.0f);
        glm::mat3 normalMatrix(1.0f);
        if (hasSelection) {
            const Body& body = bodies[static_cast<std::size_t>(selectedBody)];
            mesh = body.shape == ShapeType::Sphere ? &sphereMesh : &r.boxMesh;
            model = modelMatrix(body);
            glUniform1f(r.outlineU.grow, kOutlineGrow);
            glUniform1f(r.outlineU.pixels, kOutlinePixels);
            glUniform1i(r.outlineU.alongNormal, 0);
        } else {
            const Obstacle& obstacle = obstacles[static_cast<std::size_t>(overlay.selectedObstacle)];
            const Impl::ObstacleMesh* gpu = r.obstacleMesh(obstacle.mesh);
            mesh = gpu != nullptr ? &gpu->hull : nullptr;
            model = modelMatrix(obstacle);
            normalMatrix = obstacle.normalMatrix;
            glUniform1f(r.outlineU.grow, 1.0f);
            glUniform1f(r.outlineU.pixels, kMeshOutlinePixels);
            glUniform1i(r.outlineU.alongNormal, 1);
        }
        glUniformMatrix4fv(r.outlineU.model, 1, GL_FALSE, glm::value_ptr(model));
        glUniformMatrix3fv(r.outlineU.normalMatrix, 1, GL_FALSE, glm::value_ptr(normalMatrix));
        if (mesh != nullptr && mesh->indexCount > 0) {
            glBindVertexArray(mesh->vao.id());
            glDrawElements(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, nullptr);
        }
        glCullFace(GL_BACK);
    }
    glDisable(GL_CULL_FACE);

    // Lines: the room's edges depth tested; debug lines faint through everything, then solid.
    glUseProgram(r.lineProgram.id());
    glUniformMatrix4fv(r.linesU.viewProj, 1, GL_FALSE, glm::value_ptr(viewProj));
    glUniform1f(r.linesU.alpha, 1.0f);
    r.lineStream.draw(GL_LINES, r.edgeLines);
    if (!r.debugLines.empty()) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDisable(GL_DEPTH_TEST);
        glUniform1f(r.linesU.alpha, kHiddenLineAlpha);
        r.lineStream.draw(GL_LINES, r.debugLines);
        glEnable(GL_DEPTH_TEST);
        glUniform1f(r.linesU.alpha, 1.0f);
        glBindVertexArray(r.lineStream.vao.id());
        glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(r.debugLines.size())); // same data, no re-upload
        glDisable(GL_BLEND);
    }
    // Over everything: the picked triangle.
    if (!r.topTriangles.empty() || !r.topLines.empty()) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDisable(GL_DEPTH_TEST);
        glUniform1f(r.linesU.alpha, kHitTriangleFillAlpha);
        r.lineStream.draw(GL_TRIANGLES, r.topTriangles);
        glUniform1f(r.linesU.alpha, 1.0f);
        r.lineStream.draw(GL_LINES, r.topLines);
        glEnable(GL_DEPTH_TEST);
        glDisable(GL_BLEND);
    }

    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(0);
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
    if (const char* env = std::getenv("KOLIZE_SHADER_DIR"); env != nullptr && *env != '\0') return env;
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed = exe.parent_path() / ".." / "share" / "kolize" / "shaders";
        if (std::filesystem::is_directory(installed, ec)) return installed.lexically_normal();
    }
    return KZ_SHADER_DIR;
}

} // namespace kz::render
