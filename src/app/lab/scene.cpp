#include "app/lab/scene.hpp"

#include "app/lab/queries/unit.hpp"
#include "geom/gjk.hpp"
#include "geom/raycast.hpp"

#include <utility>

namespace kz {
const char* labQueryName(LabQuery query) {
    const int i = static_cast<int>(query);
    return i >= 0 && i < kLabQueryCount ? labQueryUnits()[std::size_t(i)]->name : "?";
}

std::optional<LabQuery> parseLabQuery(std::string_view name) {
    for (int i = 0; i < kLabQueryCount; ++i) {
        if (name == labQueryUnits()[std::size_t(i)]->name) return static_cast<LabQuery>(i);
    }
    return std::nullopt;
}

std::string labQueryNames() {
    std::string out;
    for (int i = 0; i < kLabQueryCount; ++i)
        out += (i > 0 ? ", " : "") + std::string(labQueryUnits()[std::size_t(i)]->name);
    return out;
}

LabScene makeLabScene(LabQuery query) {
    LabScene scene;
    scene.query = query;
    labQueryInfo(query).place(scene);
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

bool isLabConvex(LabShapeKind kind) {
    return kind == LabShapeKind::Sphere || kind == LabShapeKind::Box || kind == LabShapeKind::Capsule ||
           kind == LabShapeKind::Cylinder || kind == LabShapeKind::Hull;
}

ConvexShape labConvex(const LabShape& shape) {
    const glm::mat3 axes = glm::mat3_cast(shape.orientation);
    switch (shape.kind) {
    case LabShapeKind::Box:
        return labObb(shape);
    case LabShapeKind::Capsule:
        return capsuleFromPose(shape.position, axes, shape.halfHeight, shape.radius);
    case LabShapeKind::Cylinder:
        return cylinderFromPose(shape.position, axes, shape.halfHeight, shape.radius);
    case LabShapeKind::Hull:
        if (shape.hull) return PosedHull{shape.hull.get(), shape.position, axes};
        break;
    case LabShapeKind::Sphere:
        return labSphere(shape);
    default:
        break;
    }
    return Sphere{shape.position, 0.0f};
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
        } else if (isLabConvex(shape.kind)) {
            offer({false, i}, raycast(ray, labConvex(shape)));
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
