#include "app/lab/draw.hpp"

#include "app/lab/construction.hpp"
#include "physics/room.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>

namespace kz {
namespace {

constexpr glm::vec3 kRayColor{1.0f, 0.88f, 0.25f};
constexpr glm::vec3 kRayBeyondColor{0.55f, 0.5f, 0.32f}; ///< The part after the hit, or a missing ray.
constexpr glm::vec3 kNormalColor{0.25f, 0.95f, 1.0f};
constexpr glm::vec3 kContactColor{1.0f, 0.35f, 0.9f};
constexpr glm::vec3 kClosestColor{0.95f, 0.95f, 0.95f};
constexpr glm::vec3 kImpactColor{1.0f, 0.6f, 0.2f};
constexpr glm::vec3 kSegmentAColor{0.35f, 0.82f, 1.0f};
constexpr glm::vec3 kSegmentBColor{1.0f, 0.42f, 0.82f};
constexpr float kNormalLength = 0.6f;
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

// ------------------------------------------------------------------ one construction per query

/// The ray from its origin to its end handle (t = 1): bright to the hit, dim beyond; the hit
/// point and the surface normal there.
void drawRay(const LabScene& scene, const LabResult& result, LabCanvas& canvas) {
    const Ray ray = labRay(scene);
    const glm::vec3 end = ray.origin + ray.dir;
    if (result.rayHit) {
        canvas.line(ray.origin, result.rayHit->point, kRayColor);
        canvas.line(result.rayHit->point, end, kRayBeyondColor);
        canvas.cross(result.rayHit->point, kRayColor);
        canvas.arrow(result.rayHit->point, result.rayHit->point + kNormalLength * result.rayHit->normal,
                     kNormalColor, true);
    } else {
        canvas.line(ray.origin, end, kRayBeyondColor);
    }
}

/// The contact points, the normal (from B toward A) at their centre, and each point's depth as a
/// stroke along the normal; else the closest points and the gap between them.
void drawPair(const LabScene&, const LabResult& result, LabCanvas& canvas) {
    if (result.manifold) {
        const Manifold& m = *result.manifold;
        glm::vec3 mean(0.0f);
        for (int i = 0; i < m.count; ++i) {
            const ContactPoint& p = m.points[std::size_t(i)];
            canvas.cross(p.position, kContactColor);
            canvas.line(p.position, p.position + p.depth * m.normal, kContactColor, true);
            mean += p.position / float(m.count);
        }
        canvas.arrow(mean, mean + kNormalLength * m.normal, kNormalColor, true);
    }
    if (result.closest) {
        canvas.cross(result.closest->first, kClosestColor);
        canvas.cross(result.closest->second, kClosestColor);
        canvas.line(result.closest->first, result.closest->second, kClosestColor, true);
    }
}

/// The sphere's path to its end handle, the sphere where it first touches (wire) with the touched
/// point and normal, or the sphere at the end when it touches nothing.
void drawSweep(const LabScene& scene, const LabResult& result, LabCanvas& canvas) {
    if (scene.shapes.empty() || scene.handles.empty()) return;
    const Sphere start = labSphere(scene.shapes[0]);
    const glm::vec3 end = scene.handles[0].position;
    if (result.impactCentre && result.rayHit) {
        canvas.line(start.center, *result.impactCentre, kImpactColor);
        canvas.line(*result.impactCentre, end, kRayBeyondColor);
        canvas.sphere(*result.impactCentre, start.radius, kImpactColor);
        canvas.cross(result.rayHit->point, kContactColor);
        canvas.arrow(result.rayHit->point, result.rayHit->point + kNormalLength * result.rayHit->normal,
                     kNormalColor, true);
    } else {
        canvas.line(start.center, end, kRayBeyondColor);
        canvas.sphere(end, start.radius, kRayBeyondColor);
    }
}

/// The two segments, their closest points and the segment between them in the verdict's colour.
void drawSegments(const LabScene& scene, const LabResult& result, LabCanvas& canvas) {
    if (scene.handles.size() < 4) return;
    canvas.line(scene.handles[0].position, scene.handles[1].position, kSegmentAColor);
    canvas.line(scene.handles[2].position, scene.handles[3].position, kSegmentBColor);
    if (!result.closest) return;
    const glm::vec3 verdict = result.positive ? kLabPositive : kLabNegative;
    canvas.cross(result.closest->first, verdict);
    canvas.cross(result.closest->second, verdict);
    canvas.line(result.closest->first, result.closest->second, verdict, true);
}

using DrawAnswer = void (*)(const LabScene&, const LabResult&, LabCanvas&);

/// Per query, in LabQuery order: its answer (the Answer layer).
constexpr DrawAnswer kAnswer[kLabQueryCount] = {
    drawRay,  drawRay,   drawRay,     drawRay,  drawRay,  // ray-sphere .. ray-mesh
    drawPair, drawPair,  drawPair,    drawPair, drawPair, // sphere-sphere .. sphere-triangle
    drawPair, drawSweep, drawSegments};                   // box-triangle, the sweep, segment-segment

/// Per query, in LabQuery order: where a query's intermediate steps get drawn (construction.cpp).
constexpr DrawSteps kSteps[kLabQueryCount] = {
    drawRaySphereSteps,    drawRayBoxSteps,  drawRayPlaneSteps, drawRayTriangleSteps, drawRayMeshSteps,
    drawSphereSphereSteps, drawClosestSteps, drawBoxBoxSteps,   drawBoxPlaneSteps,    drawClosestSteps,
    drawBoxTriangleSteps,  drawSweepSteps,   drawSegmentSteps};

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
        if (view.show(LabLayer::Answer)) kAnswer[i](scene, result, canvas);
        if (kSteps[i]) kSteps[i](scene, result, view, canvas);
    }
    for (const LabHandle& handle : scene.handles) {
        const glm::vec3 toEye = canvas.eye - handle.position;
        if (glm::dot(toEye, toEye) > 0.0f)
            canvas.circle(handle.position, toEye, 1.6f * kLabHandleRadius, unpack(handle.color), true);
    }
}

} // namespace kz
