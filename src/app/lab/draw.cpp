#include "app/lab/draw.hpp"

#include "app/lab/queries/unit.hpp"
#include "physics/room.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>

namespace kz {
namespace {

constexpr int kCircleSides = 48;
constexpr float kTintWeight = 0.6f; ///< How far a shape's colour moves toward the verdict's.

glm::vec3 unpack(std::uint32_t rgb) {
    return glm::vec3(float((rgb >> 16) & 0xffu), float((rgb >> 8) & 0xffu), float(rgb & 0xffu)) / 255.0f;
}

std::uint32_t pack(const glm::vec3& c) {
    const auto channel = [](float v) {
        return std::uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    };
    return channel(c.r) << 16 | channel(c.g) << 8 | channel(c.b);
}

/// Any unit vector perpendicular to n (unit).
glm::vec3 perpendicular(const glm::vec3& n) {
    const glm::vec3 other = std::abs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    return glm::normalize(glm::cross(n, other));
}

} // namespace

// ------------------------------------------------------------------ the canvas

void LabCanvas::line(const glm::vec3& a, const glm::vec3& b, const glm::vec3& color, bool onTop) {
    if (!isFinite(a) || !isFinite(b)) return;
    std::vector<LabVertex>& out = onTop ? topLines : lines;
    out.push_back({a, color});
    out.push_back({b, color});
}

float LabCanvas::markerSize(const glm::vec3& p) const {
    return std::clamp(0.015f * glm::distance(eye, p), 0.02f, 0.5f);
}

void LabCanvas::cross(const glm::vec3& p, const glm::vec3& color, bool onTop) {
    const float size = markerSize(p);
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 offset(0.0f);
        offset[axis] = size;
        line(p - offset, p + offset, color, onTop);
    }
}

void LabCanvas::arrow(const glm::vec3& from, const glm::vec3& to, const glm::vec3& color, bool onTop) {
    line(from, to, color, onTop);
    const glm::vec3 along = to - from;
    const float length = glm::length(along);
    if (!(length > 0.0f)) return;
    const glm::vec3 dir = along / length;
    const glm::vec3 side = perpendicular(dir);
    const float head = std::min(0.25f * length, 2.0f * markerSize(to));
    for (const glm::vec3& s : {side, glm::cross(dir, side)}) {
        line(to, to - head * dir + 0.5f * head * s, color, onTop);
        line(to, to - head * dir - 0.5f * head * s, color, onTop);
    }
}

void LabCanvas::circle(const glm::vec3& centre, const glm::vec3& normal, float radius, const glm::vec3& color,
                       bool onTop) {
    const glm::vec3 u = perpendicular(glm::normalize(normal)), v = glm::cross(glm::normalize(normal), u);
    glm::vec3 previous = centre + radius * u;
    for (int i = 1; i <= kCircleSides; ++i) {
        const float angle = glm::two_pi<float>() * float(i) / float(kCircleSides);
        const glm::vec3 next = centre + radius * (std::cos(angle) * u + std::sin(angle) * v);
        line(previous, next, color, onTop);
        previous = next;
    }
}

void LabCanvas::sphere(const glm::vec3& centre, float radius, const glm::vec3& color) {
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 n(0.0f);
        n[axis] = 1.0f;
        circle(centre, n, radius, color);
    }
    // The outline the eye sees: the circle where the tangent cone from the eye meets the sphere.
    const glm::vec3 toEye = eye - centre;
    const float d = glm::length(toEye);
    if (d > radius) {
        const glm::vec3 n = toEye / d;
        circle(centre + n * (radius * radius / d), n, radius * std::sqrt(d * d - radius * radius) / d, color);
    }
}

// ------------------------------------------------------------------ the scene as a world

World labWorld(const LabScene& scene, const LabResult& result, std::vector<int>* bodyOfShape,
               std::vector<int>* bodyOfHandle, std::vector<int>* obstacleOfShape) {
    World world(boxRoom(kLabRoomSize));
    world.setPaused(true);
    const glm::vec3 tint = result.positive ? kLabPositive : kLabNegative;
    if (bodyOfShape) bodyOfShape->assign(scene.shapes.size(), -1);
    if (bodyOfHandle) bodyOfHandle->assign(scene.handles.size(), -1);
    if (obstacleOfShape) obstacleOfShape->assign(scene.shapes.size(), -1);
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
        const LabShape& shape = scene.shapes[i];
        const std::uint32_t color = pack(glm::mix(unpack(shape.color), tint, kTintWeight));
        if (shape.kind == LabShapeKind::Sphere || shape.kind == LabShapeKind::Box) {
            BodyDesc desc;
            desc.name = shape.name;
            desc.shape = shape.kind == LabShapeKind::Sphere ? ShapeType::Sphere : ShapeType::Box;
            desc.radius = shape.radius;
            desc.halfExtents = shape.halfExtents;
            desc.position = shape.position;
            desc.orientation = shape.orientation;
            desc.color = color;
            const int body = world.addBody(desc);
            if (bodyOfShape) (*bodyOfShape)[i] = body;
        } else if (auto obstacle = labObstacle(shape)) {
            obstacle->color = color;
            const int index = world.addObstacle(std::move(*obstacle));
            if (obstacleOfShape) (*obstacleOfShape)[i] = index;
        }
    }
    for (std::size_t i = 0; i < scene.handles.size(); ++i) {
        BodyDesc desc;
        desc.name = scene.handles[i].name;
        desc.radius = kLabHandleRadius;
        desc.position = scene.handles[i].position;
        desc.color = scene.handles[i].color;
        const int body = world.addBody(desc);
        if (bodyOfHandle) (*bodyOfHandle)[i] = body;
    }
    return world;
}

void drawLabConstruction(const LabScene& scene, const LabResult& result, LabCanvas& canvas,
                         const LabView& view) {
    const int i = static_cast<int>(scene.query);
    if (i >= 0 && i < kLabQueryCount) {
        const LabQueryUnit& unit = labQueryInfo(scene.query);
        if (view.show(LabLayer::Answer)) unit.drawAnswer(scene, result, canvas);
        unit.drawSteps(scene, result, view, canvas);
    }
    for (const LabHandle& handle : scene.handles) {
        const glm::vec3 toEye = canvas.eye - handle.position;
        if (glm::dot(toEye, toEye) > 0.0f)
            canvas.circle(handle.position, toEye, 1.6f * kLabHandleRadius, unpack(handle.color), true);
    }
}

} // namespace kz
