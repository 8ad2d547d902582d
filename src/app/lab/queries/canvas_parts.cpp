#include "app/lab/queries/canvas_parts.hpp"

#include <algorithm>
#include <cmath>

namespace kz::lab_parts {
namespace {

/// An interval [lo, hi] along `dir` from `origin`, shifted by `offset`, with end ticks.
void bar(LabCanvas& canvas, const glm::vec3& origin, const glm::vec3& dir, float lo, float hi,
         const glm::vec3& offset, const glm::vec3& color) {
    const glm::vec3 a = origin + lo * dir + offset, b = origin + hi * dir + offset;
    canvas.line(a, b, color, true);
    canvas.line(a - offset, a, color, true);
    canvas.line(b - offset, b, color, true);
}

} // namespace

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

glm::vec3 acrossView(const glm::vec3& dir, const glm::vec3& at, const glm::vec3& eye) {
    glm::vec3 side = glm::cross(dir, eye - at);
    if (glm::dot(side, side) < 1e-12f) side = glm::cross(dir, glm::vec3(0, 1, 0));
    if (glm::dot(side, side) < 1e-12f) side = glm::cross(dir, glm::vec3(1, 0, 0));
    return glm::normalize(side);
}

void loop(LabCanvas& canvas, const glm::vec3* points, int count, const glm::vec3& color, bool onTop) {
    for (int i = 0; i < count; ++i)
        canvas.line(points[i], points[(i + 1) % count], color, onTop);
}

void boxFeature(LabCanvas& canvas, const Obb& box, const glm::bvec3& fixed, const glm::vec3& sign) {
    const auto corner = [&](int bits) {
        glm::vec3 p = box.center;
        for (int k = 0; k < 3; ++k) {
            const float s = fixed[k] ? sign[k] : ((bits >> k) & 1 ? 1.0f : -1.0f);
            p += s * box.half[k] * box.axes[k];
        }
        return p;
    };
    if (fixed.x && fixed.y && fixed.z) {
        const glm::vec3 p = corner(0);
        canvas.circle(p, canvas.eye - p, 2.0f * canvas.markerSize(p), kFeatureColor, true);
        return;
    }
    // Each edge once: from a corner whose fixed axes' bits are clear, along a free axis k.
    int fixedBits = 0;
    for (int k = 0; k < 3; ++k)
        fixedBits |= fixed[k] ? 1 << k : 0;
    for (int bits = 0; bits < 8; ++bits) {
        for (int k = 0; k < 3; ++k) {
            if (!(bits & fixedBits) && !fixed[k] && !((bits >> k) & 1))
                canvas.line(corner(bits), corner(bits | 1 << k), kFeatureColor, true);
        }
    }
}

void triangleFeature(LabCanvas& canvas, const Triangle& tri, int vertex, int edge, bool face) {
    const glm::vec3 v[3] = {tri.a, tri.b, tri.c};
    if (vertex >= 0) {
        const glm::vec3& p = v[vertex];
        canvas.circle(p, canvas.eye - p, 2.0f * canvas.markerSize(p), kFeatureColor, true);
    }
    if (edge >= 0) canvas.line(v[edge], v[(edge + 1) % 3], kFeatureColor, true);
    if (face) loop(canvas, v, 3, kFeatureColor, true);
}

void placedBox(LabCanvas& canvas, const Obstacle& placement, const Aabb& box, const glm::vec3& color,
               bool onTop) {
    const auto corner = [&](int bits) {
        return placement.toWorld(glm::vec3(bits & 1 ? box.max.x : box.min.x, bits & 2 ? box.max.y : box.min.y,
                                           bits & 4 ? box.max.z : box.min.z));
    };
    for (int bits = 0; bits < 8; ++bits) {
        for (int k = 0; k < 3; ++k) {
            if (!((bits >> k) & 1)) canvas.line(corner(bits), corner(bits | 1 << k), color, onTop);
        }
    }
}

void intervalsOnAxis(LabCanvas& canvas, const glm::vec3& origin, const glm::vec3& n, const glm::vec2& a,
                     const glm::vec2& b, bool apart) {
    const float lo = std::min(a.x, b.x) - 0.6f, hi = std::max(a.y, b.y) + 0.6f;
    canvas.line(origin + lo * n, origin + hi * n, kLabSatAxisColor, true);
    const glm::vec3 side = acrossView(n, origin, canvas.eye) * (3.0f * canvas.markerSize(origin));
    bar(canvas, origin, n, a.x, a.y, side, kLabIntervalAColor);
    bar(canvas, origin, n, b.x, b.y, -side, kLabIntervalBColor);
    // The facing ends: A's high end and B's low one when B lies further along n, else the reverse.
    const bool bAhead = a.x + a.y <= b.x + b.y;
    const float from = bAhead ? a.y : a.x, to = bAhead ? b.x : b.y;
    const glm::vec3 band = apart ? kLabGapColor : kLabOverlapColor;
    for (const float level : {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f})
        canvas.line(origin + from * n + level * side, origin + to * n + level * side, band, true);
}

} // namespace kz::lab_parts
