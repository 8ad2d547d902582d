// Convex shapes and their support functions (convex.hpp); the double-precision cores GJK and EPA
// run on (convex_detail.hpp).
#include "convex.hpp"

#include "convex_detail.hpp"
#include "convex_hull_detail.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

namespace kz {
namespace {

using glm::dvec3;

/// The farthest end of the segment [a, b] along d (a on a tie).
dvec3 segmentSupport(const glm::vec3& a, const glm::vec3& b, const dvec3& d) {
    const dvec3 da(a), db(b);
    return glm::dot(d, db - da) > 0.0 ? db : da;
}

dvec3 obbSupport(const Obb& box, const dvec3& d) {
    dvec3 p(box.center);
    for (int i = 0; i < 3; ++i) {
        const dvec3 axis(box.axes[i]);
        // +1 or -1 without a branch: the signs are random from call to call (mispredicted).
        const double sign = 2.0 * double(glm::dot(d, axis) >= 0.0) - 1.0;
        p += (sign * double(box.half[i])) * axis;
    }
    return p;
}

dvec3 cylinderSupport(const Cylinder& cylinder, const dvec3& d) {
    const dvec3 a(cylinder.a), b(cylinder.b);
    const dvec3 axis = b - a;
    const double along = glm::dot(d, axis);
    const dvec3 end = along > 0.0 ? b : a;
    // The part of d across the axis, times |axis|^2, as (axis x d) x axis: a cross product with the
    // axis is perpendicular to it to its own rounding, where d - (d.u)u, for d nearly along the
    // axis, keeps an axial error of eps |d| that puts the rim point off the cap. Below 1e-12 of
    // |d| |axis|^2 the direction is along the axis (the whole cap is farthest: its centre will do).
    const dvec3 across = glm::cross(glm::cross(axis, d), axis);
    const double acrossLength = glm::length(across);
    if (!(acrossLength > 1e-12 * glm::length(d) * glm::dot(axis, axis))) return end;
    return end + (double(cylinder.radius) / acrossLength) * across;
}

/// The index of the vertex farthest along the local direction, by a linear scan.
std::uint32_t scanHull(const ConvexHull& hull, const dvec3& local) {
    std::uint32_t best = 0;
    double bestDot = -INFINITY;
    for (std::uint32_t i = 0; i < hull.vertices.size(); ++i) {
        const double along = glm::dot(local, dvec3(hull.vertices[i]));
        if (along > bestDot) {
            bestDot = along;
            best = i;
        }
    }
    return best;
}

/// Whether the half-edges look usable for a climb: sized for the vertices, indices in range.
/// (Checked per call: cheap next to the climb, and a hull with broken links still gets answers.)
bool climbable(const ConvexHull& hull) {
    return hull.vertices.size() > kHullClimbMinVertices && hull.vertexEdge.size() == hull.vertices.size() &&
           hull.edges.size() >= 2 * (hull.vertices.size() - 1);
}

/// climbHull over the built hull's neighbour arrays: the same neighbours in the same order as the
/// half-edge walk (so the same vertex), each address known without a chain of loads. Any index
/// out of range abandons the climb for the scan.
std::uint32_t climbNeighbours(const ConvexHull& hull, const dvec3& local, std::uint32_t current) {
    const std::size_t vertexCount = hull.vertices.size();
    double currentDot = glm::dot(local, dvec3(hull.vertices[current]));
    for (std::size_t step = 0; step < vertexCount; ++step) {
        const std::uint32_t begin = hull.neighbourStart[current], end = hull.neighbourStart[current + 1];
        if (!(begin <= end && end <= hull.neighbours.size())) return scanHull(hull, local);
        bool moved = false;
        for (std::uint32_t k = begin; k < end; ++k) {
            const std::uint32_t next = hull.neighbours[k];
            if (next >= vertexCount) return scanHull(hull, local);
            const double along = glm::dot(local, dvec3(hull.vertices[next]));
            if (along > currentDot) {
                currentDot = along;
                current = next;
                moved = true;
                break;
            }
        }
        if (!moved) return current;
    }
    return current;
}

/// Hill climb over the hull's edges (Gilbert and Ong's "hill climbing", as in SOLID and
/// Bullet's btConvexHullShape with adjacency) from the vertex `start`: move to a strictly better
/// neighbour until none is. Every loop is bounded by the edge count, so broken links cannot loop
/// forever; any index out of range abandons the climb for the scan.
std::uint32_t climbHull(const ConvexHull& hull, const dvec3& local, std::uint32_t start) {
    const std::size_t edgeCount = hull.edges.size();
    std::uint32_t current = start;
    if (current >= hull.vertices.size()) {
        // A cold start: the vertex farthest along the diagonal of local's octant.
        const std::size_t octant =
            std::size_t(local.x > 0.0) | std::size_t(local.y > 0.0) << 1 | std::size_t(local.z > 0.0) << 2;
        current = hull.octantVertex[octant] < hull.vertices.size() ? hull.octantVertex[octant] : 0;
    }
    if (hull.neighbourStart.size() == hull.vertices.size() + 1) return climbNeighbours(hull, local, current);
    double currentDot = glm::dot(local, dvec3(hull.vertices[current]));
    for (std::size_t step = 0; step < hull.vertices.size(); ++step) {
        bool moved = false;
        const std::uint32_t first = hull.vertexEdge[current];
        std::uint32_t e = first;
        for (std::size_t k = 0; k < edgeCount; ++k) {
            if (e >= edgeCount || hull.edges[e].twin >= edgeCount) return scanHull(hull, local);
            const ConvexHull::HalfEdge& twin = hull.edges[hull.edges[e].twin];
            if (twin.origin >= hull.vertices.size()) return scanHull(hull, local);
            const double along = glm::dot(local, dvec3(hull.vertices[twin.origin]));
            if (along > currentDot) {
                currentDot = along;
                current = twin.origin;
                moved = true;
                break;
            }
            e = twin.next; // the next half-edge leaving `current`
            if (e == first) break;
        }
        if (!moved) return current;
    }
    return current;
}

/// The hull's farthest vertex along d, the climb (if any) starting at `start`, which is set to
/// the vertex found.
dvec3 hullSupport(const PosedHull& posed, const dvec3& d, std::uint32_t& start) {
    const ConvexHull& hull = *posed.hull;
    const glm::dmat3 orientation(posed.orientation);
    const dvec3 local = glm::transpose(orientation) * d; // max dot(d, R v) = max dot(R^T d, v)
    start = climbable(hull) ? climbHull(hull, local, start) : scanHull(hull, local);
    return dvec3(posed.position) + orientation * dvec3(hull.vertices[start]);
}

dvec3 hullSupport(const PosedHull& posed, const dvec3& d) {
    std::uint32_t start = detail::kColdClimb;
    return hullSupport(posed, d, start);
}

glm::vec3 rounded(const dvec3& p) {
    return glm::vec3(p);
}

} // namespace

Capsule capsuleFromPose(const glm::vec3& center, const glm::mat3& axes, float halfHeight, float radius) {
    const glm::vec3 offset = halfHeight * axes[1];
    return {center - offset, center + offset, radius};
}

Cylinder cylinderFromPose(const glm::vec3& center, const glm::mat3& axes, float halfHeight, float radius) {
    const glm::vec3 offset = halfHeight * axes[1];
    return {center - offset, center + offset, radius};
}

bool isValid(const Capsule& capsule) {
    return isFinite(capsule.a) && isFinite(capsule.b) && std::isfinite(capsule.radius) &&
           capsule.radius >= 0.0f;
}

bool isValid(const Cylinder& cylinder) {
    if (!isFinite(cylinder.a) || !isFinite(cylinder.b)) return false;
    if (!std::isfinite(cylinder.radius) || cylinder.radius < 0.0f) return false;
    const glm::dvec3 axis = glm::dvec3(cylinder.b) - glm::dvec3(cylinder.a);
    const double lengthSq = glm::dot(axis, axis);
    return lengthSq >= double(FLT_MIN) && lengthSq <= double(FLT_MAX);
}

bool isValid(const PosedHull& posed) {
    if (posed.hull == nullptr || posed.hull->vertices.empty()) return false;
    if (!isFinite(posed.position) || !isFinite(posed.orientation)) return false;
    if (posed.hull->reachSq > 0.0) return true; // built: buildConvexHull refused non-finite points
    return std::all_of(posed.hull->vertices.begin(), posed.hull->vertices.end(),
                       [](const glm::vec3& v) { return isFinite(v); });
}

bool isValid(const ConvexShape& shape) {
    return std::visit([](const auto& s) { return isValid(s); }, shape);
}

glm::vec3 support(const Sphere& sphere, const glm::vec3& d) {
    return rounded(detail::supportFull(sphere, dvec3(d)));
}
glm::vec3 support(const Obb& box, const glm::vec3& d) {
    return rounded(obbSupport(box, dvec3(d)));
}
glm::vec3 support(const Capsule& capsule, const glm::vec3& d) {
    return rounded(detail::supportFull(capsule, dvec3(d)));
}
glm::vec3 support(const Cylinder& cylinder, const glm::vec3& d) {
    return rounded(cylinderSupport(cylinder, dvec3(d)));
}
glm::vec3 support(const PosedHull& hull, const glm::vec3& d) {
    return rounded(hullSupport(hull, dvec3(d)));
}
glm::vec3 support(const ConvexShape& shape, const glm::vec3& d) {
    return rounded(detail::supportFull(shape, dvec3(d)));
}

SupportPoint supportDifference(const ConvexShape& a, const ConvexShape& b, const glm::vec3& d) {
    const dvec3 pa = detail::supportFull(a, dvec3(d));
    const dvec3 pb = detail::supportFull(b, -dvec3(d));
    return {rounded(pa), rounded(pb), rounded(pa - pb)};
}

namespace detail {

glm::dvec3 supportCore(const ConvexShape& shape, const glm::dvec3& d) {
    switch (shape.index()) {
    case 0:
        return dvec3(std::get<Sphere>(shape).center);
    case 1:
        return obbSupport(std::get<Obb>(shape), d);
    case 2: {
        const Capsule& capsule = std::get<Capsule>(shape);
        return segmentSupport(capsule.a, capsule.b, d);
    }
    case 3:
        return cylinderSupport(std::get<Cylinder>(shape), d);
    default:
        return hullSupport(std::get<PosedHull>(shape), d);
    }
}

glm::dvec3 supportCore(const ConvexShape& shape, const glm::dvec3& d, std::uint32_t& start) {
    if (const auto* hull = std::get_if<PosedHull>(&shape)) return hullSupport(*hull, d, start);
    return supportCore(shape, d);
}

double margin(const ConvexShape& shape) {
    if (const auto* sphere = std::get_if<Sphere>(&shape)) return sphere->radius;
    if (const auto* capsule = std::get_if<Capsule>(&shape)) return capsule->radius;
    return 0.0;
}

glm::dvec3 supportFull(const ConvexShape& shape, const glm::dvec3& d) {
    const double r = margin(shape);
    const dvec3 core = supportCore(shape, d);
    return r > 0.0 ? core + r * unitOrZero(d) : core;
}

glm::dvec3 corePoint(const ConvexShape& shape) {
    switch (shape.index()) {
    case 0:
        return dvec3(std::get<Sphere>(shape).center);
    case 1:
        return dvec3(std::get<Obb>(shape).center);
    case 2: {
        const Capsule& capsule = std::get<Capsule>(shape);
        return 0.5 * (dvec3(capsule.a) + dvec3(capsule.b));
    }
    case 3: {
        const Cylinder& cylinder = std::get<Cylinder>(shape);
        return 0.5 * (dvec3(cylinder.a) + dvec3(cylinder.b));
    }
    default: {
        const PosedHull& posed = std::get<PosedHull>(shape);
        return dvec3(posed.position) + glm::dmat3(posed.orientation) * dvec3(posed.hull->vertices[0]);
    }
    }
}

double shapeSize(const ConvexShape& shape) {
    switch (shape.index()) {
    case 0:
        return std::get<Sphere>(shape).radius;
    case 1: {
        const Obb& box = std::get<Obb>(shape);
        const glm::dmat3 axes(box.axes);
        return glm::length(axes[0]) * box.half.x + glm::length(axes[1]) * box.half.y +
               glm::length(axes[2]) * box.half.z;
    }
    case 2: {
        const Capsule& capsule = std::get<Capsule>(shape);
        return 0.5 * glm::length(dvec3(capsule.b) - dvec3(capsule.a)) + capsule.radius;
    }
    case 3: {
        const Cylinder& cylinder = std::get<Cylinder>(shape);
        return 0.5 * glm::length(dvec3(cylinder.b) - dvec3(cylinder.a)) + cylinder.radius;
    }
    default: {
        // The largest vertex distance from vertex 0 bounds every point's distance from it; in the
        // local frame, times the orientation's Frobenius norm (>= its largest stretch). A built
        // hull holds it (reachSq); one made by hand costs a pass over its vertices.
        const PosedHull& posed = std::get<PosedHull>(shape);
        const glm::dmat3 orientation(posed.orientation);
        const ConvexHull& hull = *posed.hull;
        const double largestSq = hull.reachSq > 0.0 ? hull.reachSq : hull_detail::reachSq(hull.vertices);
        const double stretchSq = glm::dot(orientation[0], orientation[0]) +
                                 glm::dot(orientation[1], orientation[1]) +
                                 glm::dot(orientation[2], orientation[2]);
        return std::sqrt(largestSq * stretchSq);
    }
    }
}

} // namespace detail
} // namespace kz
