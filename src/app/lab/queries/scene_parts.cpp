#include "app/lab/queries/scene_parts.hpp"

#include "meshio/shapes.hpp"

#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kz::lab_parts {
namespace {

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

} // namespace

std::shared_ptr<const MeshShape> makeMesh(std::string source, std::vector<glm::vec3> vertices,
                                          std::vector<std::uint32_t> indices) {
    std::string error;
    auto mesh = MeshShape::make(std::move(source), std::move(vertices), std::move(indices), error);
    if (!mesh) throw std::logic_error("lab mesh: " + error); // the lab's own meshes: a bug, not input
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

glm::quat eulerDeg(float x, float y, float z) {
    return glm::angleAxis(glm::radians(z), glm::vec3(0, 0, 1)) *
           glm::angleAxis(glm::radians(y), glm::vec3(0, 1, 0)) *
           glm::angleAxis(glm::radians(x), glm::vec3(1, 0, 0));
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

const LabShape& shapeA(const LabScene& scene) {
    return scene.shapes.at(0);
}

const LabShape& shapeB(const LabScene& scene) {
    return scene.shapes.at(scene.shapes.size() > 1 ? 1 : 0);
}

} // namespace kz::lab_parts
