#include "app/lab/scene.hpp"

#include "geom/raycast.hpp"
#include "meshio/shapes.hpp"

#include <stdexcept>
#include <utility>

namespace kz {
namespace {

constexpr const char* kNames[kLabQueryCount] = {
    "ray-sphere",     "ray-box", "ray-plane", "ray-triangle",    "ray-mesh",     "sphere-sphere",
    "sphere-box",     "box-box", "box-plane", "sphere-triangle", "box-triangle", "sweep-sphere-triangle",
    "segment-segment"};

constexpr std::uint32_t kColorA = 0x4a90d9;   // blue
constexpr std::uint32_t kColorB = 0xe0a040;   // amber
constexpr std::uint32_t kRayStart = 0xffd23c; // yellow
constexpr std::uint32_t kRayEnd = 0xff8c28;   // orange
constexpr std::uint32_t kSegmentA = 0x5ad2ff; // sky
constexpr std::uint32_t kSegmentB = 0xff6ad2; // pink

glm::quat eulerDeg(float x, float y, float z) {
    // Rotations about the world x, then y, then z axis: q = qz qy qx (as scenarios' euler_deg).
    return glm::angleAxis(glm::radians(z), glm::vec3(0, 0, 1)) *
           glm::angleAxis(glm::radians(y), glm::vec3(0, 1, 0)) *
           glm::angleAxis(glm::radians(x), glm::vec3(1, 0, 0));
}

std::shared_ptr<const MeshShape> makeMesh(std::string source, std::vector<glm::vec3> vertices,
                                          std::vector<std::uint32_t> indices) {
    std::string error;
    auto mesh = MeshShape::make(std::move(source), std::move(vertices), std::move(indices), error);
    if (!mesh) throw std::logic_error("lab mesh: " + error); // the lab's own meshes: a bug, not input
    return mesh;
}

/// One triangle around the local origin (its centroid), normal +z.
std::shared_ptr<const MeshShape> triangleMesh() {
    static const auto mesh =
        makeMesh("triangle", {{-1.1f, -0.65f, 0.0f}, {1.2f, -0.5f, 0.0f}, {-0.1f, 1.15f, 0.0f}}, {0, 1, 2});
    return mesh;
}

/// The plane's patch: a 5 m square in the local x-z plane, normal +y.
std::shared_ptr<const MeshShape> planePatch() {
    static const auto mesh = makeMesh(
        "plane", {{-2.5f, 0.0f, -2.5f}, {2.5f, 0.0f, -2.5f}, {2.5f, 0.0f, 2.5f}, {-2.5f, 0.0f, 2.5f}},
        {0, 2, 1, 0, 3, 2});
    return mesh;
}

/// A ring (torus) for ray-mesh: a ray through its hole misses, which its box would not.
std::shared_ptr<const MeshShape> ringMesh() {
    static const auto mesh = [] {
        TriangleMesh torus = makeTorus(0.9f, 0.32f, 40, 16);
        return makeMesh("ring", std::move(torus.vertices), std::move(torus.indices));
    }();
    return mesh;
}

LabShape shapeOf(LabShapeKind kind, std::string name, glm::vec3 position, glm::quat orientation,
                 std::uint32_t color) {
    LabShape s;
    s.kind = kind;
    s.name = std::move(name);
    s.position = position;
    s.orientation = orientation;
    s.color = color;
    return s;
}

LabShape sphere(std::string name, glm::vec3 position, float radius, std::uint32_t color) {
    LabShape s = shapeOf(LabShapeKind::Sphere, std::move(name), position, glm::quat(1, 0, 0, 0), color);
    s.radius = radius;
    return s;
}

LabShape box(std::string name, glm::vec3 position, glm::vec3 half, glm::quat orientation,
             std::uint32_t color) {
    LabShape s = shapeOf(LabShapeKind::Box, std::move(name), position, orientation, color);
    s.halfExtents = half;
    return s;
}

/// A triangle, a plane (its patch) or the ring.
LabShape meshShape(LabShapeKind kind, std::string name, glm::vec3 position, glm::quat orientation,
                   std::uint32_t color) {
    LabShape s = shapeOf(kind, std::move(name), position, orientation, color);
    s.mesh = kind == LabShapeKind::Triangle ? triangleMesh()
             : kind == LabShapeKind::Plane  ? planePatch()
                                            : ringMesh();
    return s;
}

void addRay(LabScene& scene, glm::vec3 origin, glm::vec3 end) {
    scene.handles.push_back({"origin", origin, -1, kRayStart});
    scene.handles.push_back({"end", end, -1, kRayEnd});
}

/// The ray queries: one shape on the ray's way.
void placeRayQuery(LabScene& scene) {
    const glm::vec3 origin{-2.1f, 1.0f, 0.4f}, end{2.3f, -0.5f, -0.3f};
    switch (scene.query) {
    case LabQuery::RaySphere:
        scene.shapes.push_back(sphere("sphere", {0.2f, 0.1f, 0.0f}, 0.9f, kColorB));
        break;
    case LabQuery::RayBox:
        scene.shapes.push_back(
            box("box", {0.1f, 0.0f, 0.0f}, {0.8f, 0.55f, 0.65f}, eulerDeg(15, 30, 10), kColorB));
        break;
    case LabQuery::RayPlane:
        scene.shapes.push_back(
            meshShape(LabShapeKind::Plane, "plane", {0.0f, -0.8f, 0.0f}, eulerDeg(0, 0, 15), kColorB));
        addRay(scene, {-2.0f, 1.4f, 0.3f}, {1.8f, -1.6f, -0.2f});
        return;
    case LabQuery::RayTriangle:
        scene.shapes.push_back(
            meshShape(LabShapeKind::Triangle, "triangle", {0.2f, 0.0f, 0.0f}, eulerDeg(10, 35, 0), kColorB));
        break;
    default: // RayMesh: the ray through the ring's tube, beside its hole
        scene.shapes.push_back(
            meshShape(LabShapeKind::Mesh, "ring", {0.2f, -0.1f, 0.0f}, eulerDeg(75, 0, 0), kColorB));
        break;
    }
    addRay(scene, origin, end);
}

/// The pairs: A left of B, a little apart, so that a drag makes them meet.
void placePair(LabScene& scene) {
    const glm::vec3 left{-1.1f, 0.2f, 0.1f};
    switch (scene.query) {
    case LabQuery::SphereSphere:
        scene.shapes = {sphere("A", left, 0.75f, kColorA), sphere("B", {0.8f, -0.1f, -0.1f}, 0.9f, kColorB)};
        break;
    case LabQuery::SphereBox:
        scene.shapes = {sphere("A", {-1.3f, 0.25f, 0.0f}, 0.7f, kColorA),
                        box("B", {0.6f, -0.1f, 0.0f}, {0.6f, 0.5f, 0.55f}, eulerDeg(10, 35, 20), kColorB)};
        break;
    case LabQuery::BoxBox:
        scene.shapes = {
            box("A", {-1.0f, 0.2f, 0.1f}, {0.65f, 0.45f, 0.5f}, eulerDeg(15, 25, 30), kColorA),
            box("B", {0.85f, -0.15f, -0.1f}, {0.55f, 0.55f, 0.55f}, eulerDeg(-20, 40, -15), kColorB)};
        break;
    case LabQuery::BoxPlane:
        scene.shapes = {
            box("A", {0.0f, 0.5f, 0.0f}, {0.6f, 0.4f, 0.5f}, eulerDeg(20, 30, 25), kColorA),
            meshShape(LabShapeKind::Plane, "B", {0.0f, -0.5f, 0.0f}, eulerDeg(10, 0, 0), kColorB)};
        break;
    case LabQuery::SphereTriangle:
        scene.shapes = {
            sphere("A", {-0.35f, 0.2f, 0.3f}, 0.6f, kColorA),
            meshShape(LabShapeKind::Triangle, "B", {0.7f, 0.0f, 0.0f}, eulerDeg(0, -40, 0), kColorB)};
        break;
    default: // BoxTriangle
        scene.shapes = {
            box("A", {-0.45f, 0.25f, 0.35f}, {0.5f, 0.4f, 0.45f}, eulerDeg(25, 20, 15), kColorA),
            meshShape(LabShapeKind::Triangle, "B", {0.7f, 0.0f, 0.0f}, eulerDeg(0, -40, 0), kColorB)};
        break;
    }
}

} // namespace

const char* labQueryName(LabQuery query) {
    const int i = static_cast<int>(query);
    return i >= 0 && i < kLabQueryCount ? kNames[i] : "?";
}

std::optional<LabQuery> parseLabQuery(std::string_view name) {
    for (int i = 0; i < kLabQueryCount; ++i) {
        if (name == kNames[i]) return static_cast<LabQuery>(i);
    }
    return std::nullopt;
}

std::string labQueryNames() {
    std::string out;
    for (int i = 0; i < kLabQueryCount; ++i)
        out += (i > 0 ? ", " : "") + std::string(kNames[i]);
    return out;
}

LabScene makeLabScene(LabQuery query) {
    LabScene scene;
    scene.query = query;
    switch (query) {
    case LabQuery::RaySphere:
    case LabQuery::RayBox:
    case LabQuery::RayPlane:
    case LabQuery::RayTriangle:
    case LabQuery::RayMesh:
        placeRayQuery(scene);
        break;
    case LabQuery::SweepSphereTriangle:
        // The sphere flies (to its end handle, t = 1) through the triangle's face.
        scene.shapes = {
            sphere("sphere", {-1.9f, 0.5f, 0.3f}, 0.45f, kColorA),
            meshShape(LabShapeKind::Triangle, "triangle", {0.2f, 0.0f, 0.0f}, eulerDeg(0, 70, 0), kColorB)};
        scene.handles.push_back({"end", {2.0f, -0.2f, 0.0f}, 0, kRayEnd});
        break;
    case LabQuery::SegmentSegment:
        scene.handles = {{"A0", {-1.6f, -0.4f, 0.5f}, -1, kSegmentA},
                         {"A1", {1.4f, 0.7f, -0.3f}, -1, kSegmentA},
                         {"B0", {-0.9f, 1.1f, -0.9f}, -1, kSegmentB},
                         {"B1", {1.0f, -1.0f, 0.2f}, -1, kSegmentB}};
        break;
    default:
        placePair(scene);
        break;
    }
    return scene;
}

Sphere labSphere(const LabShape& shape) {
    return {shape.position, shape.radius};
}

Obb labObb(const LabShape& shape) {
    return {shape.position, shape.halfExtents, glm::mat3_cast(shape.orientation)};
}

Triangle labTriangle(const LabShape& shape) {
    const glm::mat3 turn = glm::mat3_cast(shape.orientation);
    if (!shape.mesh || shape.mesh->triangleCount() == 0)
        return {shape.position, shape.position, shape.position};
    const Triangle local = shape.mesh->triangle(0);
    return {shape.position + turn * local.a, shape.position + turn * local.b,
            shape.position + turn * local.c};
}

Plane labPlane(const LabShape& shape) {
    const glm::vec3 normal = glm::normalize(shape.orientation * glm::vec3(0.0f, 1.0f, 0.0f));
    return {normal, -glm::dot(normal, shape.position)};
}

std::optional<Obstacle> labObstacle(const LabShape& shape) {
    if (!shape.mesh) return std::nullopt;
    ObstacleDesc desc;
    desc.name = shape.name;
    desc.mesh = shape.mesh;
    desc.position = shape.position;
    desc.orientation = shape.orientation;
    desc.color = shape.color;
    std::string error;
    return makeObstacle(desc, error);
}

Ray labRay(const LabScene& scene) {
    if (scene.handles.size() < 2) return {glm::vec3(0.0f), glm::vec3(0.0f)};
    return {scene.handles[0].position, scene.handles[1].position - scene.handles[0].position};
}

std::optional<LabItemHit> pickLabItem(const LabScene& scene, const Ray& ray) {
    std::optional<LabItemHit> best;
    float bestT = INFINITY;
    const auto offer = [&](LabItem item, const std::optional<RayHit>& hit) {
        if (hit && hit->t < bestT) {
            bestT = hit->t;
            best = LabItemHit{item, hit->point};
        }
    };
    for (int i = 0; i < static_cast<int>(scene.handles.size()); ++i)
        offer({true, i}, raycast(ray, Sphere{scene.handles[std::size_t(i)].position, kLabHandlePickRadius}));
    if (best) return best;
    for (int i = 0; i < static_cast<int>(scene.shapes.size()); ++i) {
        const LabShape& shape = scene.shapes[std::size_t(i)];
        if (shape.kind == LabShapeKind::Sphere) {
            offer({false, i}, raycast(ray, labSphere(shape)));
        } else if (shape.kind == LabShapeKind::Box) {
            offer({false, i}, raycast(ray, labObb(shape)));
        } else if (const auto obstacle = labObstacle(shape)) {
            if (const auto hit = raycast(ray, *obstacle))
                offer({false, i}, RayHit{hit->t, hit->point, hit->normal});
        }
    }
    return best;
}

glm::vec3 labItemPosition(const LabScene& scene, const LabItem& item) {
    return item.handle ? scene.handles[std::size_t(item.index)].position
                       : scene.shapes[std::size_t(item.index)].position;
}

void moveLabItem(LabScene& scene, const LabItem& item, const glm::vec3& position) {
    if (!isFinite(position)) return;
    if (item.handle) {
        scene.handles[std::size_t(item.index)].position = position;
        return;
    }
    LabShape& shape = scene.shapes[std::size_t(item.index)];
    const glm::vec3 by = position - shape.position;
    shape.position = position;
    for (LabHandle& handle : scene.handles) {
        if (handle.attachedTo == item.index) handle.position += by;
    }
}

void turnLabShape(LabScene& scene, int shape, const glm::quat& turn) {
    LabShape& s = scene.shapes[std::size_t(shape)];
    const glm::quat turned = glm::normalize(turn * s.orientation);
    if (std::isfinite(turned.w) && std::isfinite(turned.x) && std::isfinite(turned.y) &&
        std::isfinite(turned.z))
        s.orientation = turned;
}

} // namespace kz
