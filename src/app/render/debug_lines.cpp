#include "debug_lines.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <tuple>
#include <utility>

namespace kz::render {
namespace {

constexpr glm::vec3 kPickRayColor{1.0f, 0.9f, 0.2f};
constexpr glm::vec3 kPickNormalColor{0.2f, 0.95f, 1.0f};
constexpr glm::vec3 kPreviewColor{1.0f, 0.55f, 0.15f};
constexpr glm::vec3 kBoundsColor{0.45f, 0.85f, 0.45f};
constexpr glm::vec3 kContactColor{1.0f, 0.3f, 0.85f};
constexpr glm::vec3 kVelocityColor{0.35f, 0.6f, 1.0f};
constexpr glm::vec3 kHitTriangleColor{0.55f, 1.0f, 0.1f}; // bright lime: unlike any other line
constexpr float kVelocitySeconds = 0.1f;
constexpr float kContactNormalLength = 0.3f;
constexpr float kHitNormalLength = 0.5f;

/// Markers keep a similar size on screen: a fraction of their distance to the eye.
float markerSize(const glm::vec3& eye, const glm::vec3& p) {
    return std::clamp(0.015f * glm::distance(eye, p), 0.02f, 0.5f);
}

/// The last picking ray, with a cross at its hit point and the hit normal.
void addPickRay(const glm::vec3& eye, const Overlay& overlay, std::vector<LineVertex>& lines) {
    if (!overlay.pickRay || !isFinite(overlay.pickRay->origin) || !isFinite(overlay.pickRay->dir)) return;
    const Ray& ray = *overlay.pickRay;
    addLine(lines, ray.origin, ray.origin + ray.dir * overlay.pickRayLength, kPickRayColor);
    if (overlay.pickHit && isFinite(overlay.pickHit->point) && isFinite(overlay.pickHit->normal)) {
        const RayHit& hit = *overlay.pickHit;
        addCross(lines, hit.point, markerSize(eye, hit.point), kPickRayColor);
        addLine(lines, hit.point, hit.point + hit.normal * kHitNormalLength, kPickNormalColor);
    }
}

/// From the body's centre to where World::impactPreview says it will hit a wall or an obstacle.
void addImpactPreview(const World& world, const glm::vec3& eye, int body, std::vector<LineVertex>& lines) {
    const auto bodies = world.bodies();
    if (body < 0 || body >= static_cast<int>(bodies.size())) return;
    if (const auto preview = world.impactPreview(body)) {
        const glm::vec3 centre = bodies[static_cast<std::size_t>(body)].position;
        addLine(lines, centre, preview->point, kPreviewColor);
        addCross(lines, preview->point, markerSize(eye, preview->point), kPreviewColor);
    }
}

void addBounds(const World& world, std::vector<LineVertex>& lines) {
    for (const Body& body : world.bodies()) {
        const Aabb box = body.shape == ShapeType::Sphere ? Aabb{body.position - glm::vec3(body.radius),
                                                                body.position + glm::vec3(body.radius)}
                                                         : bounds(obbOf(body));
        addBox(lines, box, kBoundsColor);
    }
    for (const Obstacle& obstacle : world.obstacles())
        addBox(lines, obstacle.bounds, kBoundsColor);
}

void addContacts(const World& world, const glm::vec3& eye, std::vector<LineVertex>& lines) {
    for (const ContactInfo& contact : world.contacts()) {
        addCross(lines, contact.point, markerSize(eye, contact.point) * 0.5f, kContactColor);
        addLine(lines, contact.point, contact.point + contact.normal * kContactNormalLength, kContactColor);
    }
}

void addVelocities(const World& world, std::vector<LineVertex>& lines) {
    for (const Body& body : world.bodies()) {
        if (body.velocity == glm::vec3(0.0f)) continue;
        addLine(lines, body.position, body.position + body.velocity * kVelocitySeconds, kVelocityColor);
    }
}

/// The obstacle's BVH node boxes down to `depth` (clamped to its tree), coloured by level.
void addBvhBoxes(const Obstacle& obstacle, int depth, BvhBoxCache& cache, std::vector<LineVertex>& lines) {
    BvhLevelBoxes* cached =
        cache.get(obstacle.mesh, [](const auto&) { return std::make_unique<BvhLevelBoxes>(); });
    if (cached == nullptr) return;
    depth = std::clamp(depth, 0, std::max(obstacle.mesh->bvh.depth() - 1, 0));
    if (cached->depth != depth) {
        cached->boxes = boxesByLevel(obstacle.mesh->bvh, depth);
        cached->depth = depth;
    }
    for (const auto& [box, level] : cached->boxes)
        addBox(lines, box, levelColor(level), &obstacle);
}

/// The picked triangle lies on the surface, where depth testing would let the surface hide half
/// of it: it is drawn over everything, filled faintly and edged brightly.
void addHitTriangle(const Obstacle& obstacle, std::uint32_t triangle, DebugLines& out) {
    if (triangle >= obstacle.mesh->triangleCount()) return;
    const Triangle tri = obstacle.worldTriangle(triangle);
    if (!isFinite(tri.a) || !isFinite(tri.b) || !isFinite(tri.c)) return;
    out.topTriangles.insert(
        out.topTriangles.end(),
        {{tri.a, kHitTriangleColor}, {tri.b, kHitTriangleColor}, {tri.c, kHitTriangleColor}});
    addLine(out.topLines, tri.a, tri.b, kHitTriangleColor);
    addLine(out.topLines, tri.b, tri.c, kHitTriangleColor);
    addLine(out.topLines, tri.c, tri.a, kHitTriangleColor);
}

bool boxLess(const Aabb& a, const Aabb& b) {
    return std::tie(a.min.x, a.min.y, a.min.z, a.max.x, a.max.y, a.max.z) <
           std::tie(b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
}

} // namespace

Overlay overlayOf(const World& world, const PickState& picks, float farPlane) {
    Overlay overlay;
    overlay.pickRay = picks.ray;
    if (picks.selection) overlay.pickHit = picks.selection->hit;
    overlay.pickRayLength = picks.selection ? picks.selection->hit.t : farPlane;
    overlay.previewBody =
        picks.selectedBody() >= 0 ? picks.selectedBody() : (world.bodies().empty() ? -1 : 0);
    overlay.selectedObstacle = picks.selectedObstacle();
    if (picks.selectedObstacle() >= 0) overlay.pickTriangle = picks.selection->triangle;
    return overlay;
}

void buildDebugLines(const World& world, const glm::vec3& eye, const DebugDraw& debug, const Overlay& overlay,
                     BvhBoxCache& bvhBoxes, DebugLines& out) {
    out.clear();
    const auto obstacles = world.obstacles();
    const Obstacle* selectedObstacle =
        overlay.selectedObstacle >= 0 && overlay.selectedObstacle < static_cast<int>(obstacles.size())
            ? &obstacles[static_cast<std::size_t>(overlay.selectedObstacle)]
            : nullptr;

    if (debug.pickRay) addPickRay(eye, overlay, out.lines);
    if (debug.impactPreview) addImpactPreview(world, eye, overlay.previewBody, out.lines);
    if (debug.bounds) addBounds(world, out.lines);
    if (debug.contacts) addContacts(world, eye, out.lines);
    if (debug.velocities) addVelocities(world, out.lines);
    if (debug.bvhBoxes) {
        if (selectedObstacle != nullptr) {
            addBvhBoxes(*selectedObstacle, debug.bvhDepth, bvhBoxes, out.lines);
        } else {
            for (const Obstacle& obstacle : obstacles)
                addBvhBoxes(obstacle, debug.bvhDepth, bvhBoxes, out.lines);
        }
    }
    if (debug.hitTriangle && selectedObstacle != nullptr && overlay.pickTriangle)
        addHitTriangle(*selectedObstacle, *overlay.pickTriangle, out);
    if (overlay.extra != nullptr && overlay.extra != &out) {
        out.lines.insert(out.lines.end(), overlay.extra->lines.begin(), overlay.extra->lines.end());
        out.topLines.insert(out.topLines.end(), overlay.extra->topLines.begin(),
                            overlay.extra->topLines.end());
        out.topTriangles.insert(out.topTriangles.end(), overlay.extra->topTriangles.begin(),
                                overlay.extra->topTriangles.end());
        out.surfaces.insert(out.surfaces.end(), overlay.extra->surfaces.begin(),
                            overlay.extra->surfaces.end());
    }
}

void addLine(std::vector<LineVertex>& lines, const glm::vec3& a, const glm::vec3& b, const glm::vec3& color) {
    lines.push_back({a, color});
    lines.push_back({b, color});
}

void addCross(std::vector<LineVertex>& lines, const glm::vec3& p, float size, const glm::vec3& color) {
    for (int axis = 0; axis < 3; ++axis) {
        glm::vec3 offset(0.0f);
        offset[axis] = size;
        addLine(lines, p - offset, p + offset, color);
    }
}

void addBox(std::vector<LineVertex>& lines, const Aabb& box, const glm::vec3& color,
            const Obstacle* placement) {
    const glm::vec3 c[2] = {box.min, box.max};
    auto corner = [&](int i) {
        const glm::vec3 p(c[i & 1].x, c[(i >> 1) & 1].y, c[(i >> 2) & 1].z);
        return placement != nullptr ? placement->toWorld(p) : p;
    };
    for (int i = 0; i < 8; ++i) {
        for (int bit = 1; bit < 8; bit <<= 1) {
            if ((i & bit) == 0) addLine(lines, corner(i), corner(i | bit), color);
        }
    }
}

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

std::vector<LeveledBox> boxesByLevel(const MeshBvh& bvh, int maxDepth) {
    std::vector<LeveledBox> out;
    std::vector<Aabb> above;
    for (int level = 0; level <= maxDepth; ++level) {
        std::vector<Aabb> upTo = bvh.nodeBoxes(level);
        std::sort(upTo.begin(), upTo.end(), boxLess);
        std::vector<Aabb> added;
        std::set_difference(upTo.begin(), upTo.end(), above.begin(), above.end(), std::back_inserter(added),
                            boxLess);
        for (const Aabb& box : added)
            out.push_back({box, level});
        above = std::move(upTo);
    }
    return out;
}

} // namespace kz::render
