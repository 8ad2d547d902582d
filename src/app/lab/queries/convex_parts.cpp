#include "app/lab/queries/convex_parts.hpp"

#include "app/lab/queries/scene_parts.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>
#include <imgui.h>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kz::lab_parts {
namespace {

constexpr int kSegments = 32; ///< Around the axis of a capsule or a cylinder.
constexpr int kCapRings = 8;  ///< From a capsule's equator to its pole, per cap.

/// Rings of kSegments vertices stacked along y (each a radius and a height), closed by a pole at
/// each end: a capsule's or a cylinder's surface, counter-clockwise from outside.
std::shared_ptr<const MeshShape> latheMesh(std::string source, const std::vector<glm::vec2>& rings,
                                           float bottom, float top) {
    std::vector<glm::vec3> v;
    std::vector<std::uint32_t> idx;
    v.push_back({0.0f, bottom, 0.0f});
    for (const glm::vec2& ring : rings) {
        for (int k = 0; k < kSegments; ++k) {
            const float a = glm::two_pi<float>() * float(k) / float(kSegments);
            v.push_back({ring.x * std::cos(a), ring.y, -ring.x * std::sin(a)});
        }
    }
    v.push_back({0.0f, top, 0.0f});
    const auto at = [](std::size_t ring, int k) {
        return static_cast<std::uint32_t>(1 + ring * kSegments + std::size_t((k + kSegments) % kSegments));
    };
    const auto topIndex = static_cast<std::uint32_t>(v.size() - 1);
    for (int k = 0; k < kSegments; ++k) {
        idx.insert(idx.end(), {0u, at(0, k + 1), at(0, k)});
        for (std::size_t r = 0; r + 1 < rings.size(); ++r)
            idx.insert(idx.end(),
                       {at(r, k), at(r, k + 1), at(r + 1, k + 1), at(r, k), at(r + 1, k + 1), at(r + 1, k)});
        idx.insert(idx.end(), {at(rings.size() - 1, k), at(rings.size() - 1, k + 1), topIndex});
    }
    return makeMesh(std::move(source), std::move(v), std::move(idx));
}

std::shared_ptr<const MeshShape> capsuleMesh(float radius, float halfHeight) {
    std::vector<glm::vec2> rings;
    for (int i = 1; i <= kCapRings; ++i) { // the bottom cap, from the pole up to the equator
        const float a = glm::half_pi<float>() * float(kCapRings - i) / float(kCapRings);
        rings.push_back({radius * std::cos(a), -halfHeight - radius * std::sin(a)});
    }
    for (int i = 0; i < kCapRings; ++i) { // the top cap, from the equator up to the pole
        const float a = glm::half_pi<float>() * float(i) / float(kCapRings);
        rings.push_back({radius * std::cos(a), halfHeight + radius * std::sin(a)});
    }
    return latheMesh("capsule", rings, -halfHeight - radius, halfHeight + radius);
}

std::shared_ptr<const MeshShape> cylinderMesh(float radius, float halfHeight) {
    // The caps are the fans from the poles to the two rims; the side joins the rims.
    return latheMesh("cylinder", {{radius, -halfHeight}, {radius, halfHeight}}, -halfHeight, halfHeight);
}

/// The hull's faces as triangle fans into its vertices (each face a convex polygon: its loop of
/// half-edges, counter-clockwise seen from outside).
std::vector<std::uint32_t> hullTriangles(const ConvexHull& hull) {
    std::vector<std::uint32_t> idx;
    for (const ConvexHull::Face& face : hull.faces) {
        const std::uint32_t first = hull.edges[face.edge].origin;
        std::uint32_t e = hull.edges[face.edge].next;
        for (std::uint32_t next = hull.edges[e].next; next != face.edge; e = next, next = hull.edges[e].next)
            idx.insert(idx.end(), {first, hull.edges[e].origin, hull.edges[next].origin});
    }
    return idx;
}

std::shared_ptr<const MeshShape> hullMesh(const ConvexHull& hull) {
    return makeMesh("hull", hull.vertices, hullTriangles(hull));
}

} // namespace

LabShape capsule(std::string name, glm::vec3 position, float radius, float halfHeight, glm::quat orientation,
                 std::uint32_t color) {
    LabShape s = shapeOf(LabShapeKind::Capsule, std::move(name), position, orientation, color);
    s.radius = radius;
    s.halfHeight = halfHeight;
    s.mesh = capsuleMesh(radius, halfHeight);
    return s;
}

LabShape cylinder(std::string name, glm::vec3 position, float radius, float halfHeight, glm::quat orientation,
                  std::uint32_t color) {
    LabShape s = shapeOf(LabShapeKind::Cylinder, std::move(name), position, orientation, color);
    s.radius = radius;
    s.halfHeight = halfHeight;
    s.mesh = cylinderMesh(radius, halfHeight);
    return s;
}

LabShape hull(std::string name, glm::vec3 position, std::span<const glm::vec3> points, glm::quat orientation,
              std::uint32_t color) {
    HullBuild build = buildConvexHull(points);
    if (!build.hull) throw std::logic_error("lab hull: " + build.error); // the lab's own points
    LabShape s = shapeOf(LabShapeKind::Hull, std::move(name), position, orientation, color);
    s.hull = std::make_shared<const ConvexHull>(std::move(*build.hull));
    s.mesh = hullMesh(*s.hull);
    return s;
}

LabShape gem(std::string name, glm::vec3 position, float size, glm::quat orientation, std::uint32_t color) {
    std::vector<glm::vec3> points;
    for (int k = 0; k < 6; ++k) { // the girdle: a hexagon, and a smaller one turned on the crown
        const float a = glm::two_pi<float>() * float(k) / 6.0f;
        points.push_back(size * glm::vec3(std::cos(a), 0.0f, std::sin(a)));
        points.push_back(size *
                         glm::vec3(0.55f * std::cos(a + 0.5236f), 0.45f, 0.55f * std::sin(a + 0.5236f)));
    }
    points.push_back(size * glm::vec3(0.1f, -0.9f, 0.05f)); // the culet
    points.push_back(size * glm::vec3(0.0f, 0.45f, 0.0f));  // the table's centre (on its face: dropped)
    return hull(std::move(name), position, points, orientation, color);
}

glm::vec3 differenceOrigin(const ConvexShape& coreA, const ConvexShape& coreB) {
    glm::vec3 centre(0.0f);
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 d(0.0f);
        d[axis] = 1.0f;
        centre[axis] =
            0.5f * (supportDifference(coreA, coreB, d).w[axis] + supportDifference(coreA, coreB, -d).w[axis]);
    }
    return kDifferenceAnchor - 0.5f * centre;
}

const char* labShapeKindName(LabShapeKind kind) {
    switch (kind) {
    case LabShapeKind::Sphere:
        return "sphere";
    case LabShapeKind::Box:
        return "box";
    case LabShapeKind::Triangle:
        return "triangle";
    case LabShapeKind::Plane:
        return "plane";
    case LabShapeKind::Mesh:
        return "mesh";
    case LabShapeKind::Capsule:
        return "capsule";
    case LabShapeKind::Cylinder:
        return "cylinder";
    case LabShapeKind::Hull:
        return "hull";
    }
    return "?";
}

LabShape convexOfKind(LabShapeKind kind, std::string name, glm::vec3 position, glm::quat orientation,
                      std::uint32_t color) {
    switch (kind) {
    case LabShapeKind::Sphere: {
        LabShape s = sphere(std::move(name), position, 0.6f, color);
        s.orientation = orientation;
        return s;
    }
    case LabShapeKind::Box:
        return box(std::move(name), position, {0.55f, 0.45f, 0.4f}, orientation, color);
    case LabShapeKind::Capsule:
        return capsule(std::move(name), position, 0.45f, 0.7f, orientation, color);
    case LabShapeKind::Cylinder:
        return cylinder(std::move(name), position, 0.55f, 0.7f, orientation, color);
    default:
        return gem(std::move(name), position, 0.9f, orientation, color);
    }
}

void drawDifference(const ConvexShape& coreA, const ConvexShape& coreB, const glm::vec3& origin,
                    LabCanvas& canvas) {
    std::vector<glm::vec3> points;
    constexpr int kDirections = 162;
    for (int i = 0; i < kDirections; ++i) { // a Fibonacci sphere of directions
        const float y = 1.0f - 2.0f * (float(i) + 0.5f) / float(kDirections);
        const float r = std::sqrt(std::max(0.0f, 1.0f - y * y));
        const float a = 2.39996323f * float(i);
        points.push_back(supportDifference(coreA, coreB, {r * std::cos(a), y, r * std::sin(a)}).w);
    }
    canvas.cross(origin, glm::vec3(1.0f), true);
    const HullBuild build = buildConvexHull(points);
    if (!build.hull) { // a flat or thin difference (two segments): its points only
        for (const glm::vec3& p : points)
            canvas.cross(origin + p, kDifferenceColor, false);
        return;
    }
    const ConvexHull& hull = *build.hull;
    LabSurface surface{{}, hullTriangles(hull), glm::vec4(kDifferenceColor, kDifferenceOpacity)};
    for (const glm::vec3& v : hull.vertices)
        surface.positions.push_back(origin + v);
    canvas.surfaces.push_back(std::move(surface));
    for (std::size_t e = 0; e < hull.edges.size(); e += 2) // each edge once: twins are i, i ^ 1
        canvas.line(origin + hull.vertices[hull.edges[e].origin],
                    origin + hull.vertices[hull.edges[e + 1].origin], kDifferenceColor);
}

void drawConvexOutline(const ConvexShape& shape, const glm::vec3& eye, const glm::vec3& color,
                       LabCanvas& canvas, bool onTop) {
    glm::vec3 sight = eye - support(shape, glm::vec3(0.0f));
    if (!(glm::dot(sight, sight) > 0.0f)) sight = glm::vec3(0.0f, 0.0f, 1.0f);
    sight = glm::normalize(sight);
    const glm::vec3 helper =
        std::abs(sight.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
    const glm::vec3 u = glm::normalize(glm::cross(helper, sight)), v = glm::cross(sight, u);
    constexpr int kDirections = 48;
    glm::vec3 previous = support(shape, u);
    for (int k = 1; k <= kDirections; ++k) {
        const float a = glm::two_pi<float>() * float(k) / float(kDirections);
        const glm::vec3 p = support(shape, std::cos(a) * u + std::sin(a) * v);
        canvas.line(previous, p, color, onTop);
        previous = p;
    }
}

int convexStep(const LabView& view, int count) {
    return view.convexStep >= 0 && view.convexStep < count ? view.convexStep : count - 1;
}

void convexStepSlider(LabView& view, int count) {
    if (count < 2) return;
    int step = convexStep(view, count);
    if (ImGui::SliderInt("iteration", &step, 0, count - 1)) view.convexStep = step >= count - 1 ? -1 : step;
}

} // namespace kz::lab_parts

namespace kz {

ConvexShape explainConvex(const ExplainShape& shape) {
    switch (shape.kind) {
    case ExplainShapeKind::Box:
        return shape.box;
    case ExplainShapeKind::Capsule:
        return shape.capsule;
    case ExplainShapeKind::Cylinder:
        return shape.cylinder;
    case ExplainShapeKind::Hull:
        if (shape.hull) return PosedHull{shape.hull.get(), shape.hullPosition, shape.hullAxes};
        break;
    default:
        break;
    }
    return shape.sphere;
}

} // namespace kz
