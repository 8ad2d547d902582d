#include "sphere_cast.hpp"

#include "body_bvh.hpp"
#include "geom/closest.hpp"
#include "geom/gjk.hpp"
#include "geom/plane.hpp"
#include "geom/shape_cast.hpp"
#include "geom/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace kz {
namespace {

/// The best touch so far: its t and what it touched, kept in the tie order of sphereCast.
struct Best {
    float t;    ///< The first touch so far, or tMax before any.
    float tMax; ///< The query's.
    SphereCastHit
        hit{}; ///< What it touched (t, body, wall or obstacle, triangle; the rest filled at the end).
    bool found = false; ///< Something touched by tMax.

    /// Takes a touch at `t` when it comes first (an equal t loses: candidates arrive in tie order).
    bool offer(float candidate) { return candidate < t || (!found && candidate <= t); }
};

/// Offers body i's first touch (sweepSphereSphere, sweepSphereObb in its current pose) within
/// the query's tMax. Bodies come first, so the best so far is a body or nothing: the lower index
/// wins an equal t. So the answer is the first (t, index) of all the bodies whatever order they
/// come in: each body is swept within the same limit, so what it offers does not depend on the
/// order either.
void castAtBody(const World& world, int i, const Sphere& start, const glm::vec3& dir, Best& best) {
    const Body& b = world.bodies()[static_cast<std::size_t>(i)];
    std::optional<float> t;
    if (b.shape == ShapeType::Sphere) {
        // Touching at the start counts whatever the direction (sweepSphereSphere would need approach).
        const float reach = start.radius + b.radius;
        const glm::vec3 apart = start.center - b.position;
        t = glm::dot(apart, apart) <= reach * reach
                ? 0.0f
                : sweepSphereSphere(start, dir, sphereOf(b), glm::vec3(0.0f), best.tMax);
    } else if (b.shape == ShapeType::Box) {
        t = sweepSphereObb(start, dir, obbOf(b), best.tMax);
    } else {
        // A capsule, a cylinder or a hull: the shape cast of the sphere along dir (t in its units).
        const ShapeCast cast = castConvexConvex(start, ConvexMotion{dir, glm::vec3(0.0f), start.center},
                                                convexOf(b), ConvexMotion{}, best.tMax);
        if (cast.hit) t = cast.t;
    }
    if (!t || !(best.offer(*t) || (*t == best.t && i < best.hit.body))) return; // beyond, or a later tie
    best.t = *t;
    best.found = true;
    best.hit = SphereCastHit{*t, {}, {}, {}, i};
}

/// Sphere and box bodies, every one in index order (sphereCastByScan). A body that picking skips
/// (BodyBvh::leafSphere: a position or size that is not finite, a negative radius) is never touched.
void castAtBodiesByScan(const World& world, const Sphere& start, const glm::vec3& dir, Best& best) {
    const auto bodies = world.bodies();
    for (int i = 0; i < static_cast<int>(bodies.size()); ++i) {
        if (BodyBvh::leafSphere(bodies[static_cast<std::size_t>(i)]).radius >= 0.0f)
            castAtBody(world, i, start, dir, best);
    }
}

/// Sphere and box bodies found with the world's hierarchy (BodyBvh, picking's): a subtree is
/// opened, nearer child first, only when the ray enters its box grown by the cast radius and
/// padded (BodyBvh::kCastPad: it holds every centre at which a sweep below reports a touch,
/// rounding included) no later than the best touch so far. The boxes hold exactly the bodies that
/// castAtBodiesByScan sweeps (a skipped body's box is empty), and every body that can touch first or tie is
/// swept, so the answer is the scan's, bit for bit.
void castAtBodies(const World& world, const Sphere& start, const glm::vec3& dir, Best& best) {
    const BodyBvh& tree = world.bodyBvh();
    if (tree.empty()) return;
    const BodyBvh::RayBoxes boxes(Ray{start.center, dir});
    const double grow = start.radius;
    /// A subtree to open, and where the ray enters its grown box.
    struct Pending {
        BodyBvh::Ref ref;
        double entry;
    };
    thread_local std::vector<Pending> stack;
    stack.clear();
    double key = 0.0;
    if (boxes.entryGrown(tree.rootBox(), grow, key) && key <= best.t) stack.push_back({tree.root(), key});
    while (!stack.empty()) {
        const Pending p = stack.back();
        stack.pop_back();
        if (p.entry > best.t) continue; // a touch found since starts before this subtree
        if (BodyBvh::isLeaf(p.ref)) {
            castAtBody(world, BodyBvh::bodyOf(p.ref), start, dir, best);
            continue;
        }
        const BodyBvh::Node& node = tree.nodes()[static_cast<std::size_t>(p.ref)];
        Pending children[2];
        int count = 0;
        for (int k = 0; k < 2; ++k) {
            if (boxes.entryGrown(node.box[k], grow, key) && key <= best.t)
                children[count++] = {node.child[k], key};
        }
        if (count == 2 && children[1].entry > children[0].entry) std::swap(children[0], children[1]);
        for (int k = 0; k < count; ++k)
            stack.push_back(children[k]); // the nearer last: opened next
    }
}

/// The walls the sphere meets from inside the room, where it touches their polygon.
void castAtWalls(const Room& room, const Sphere& start, const glm::vec3& dir, Best& best) {
    const float tolerance = 1e-5f * (1.0f + glm::length(room.bounds.max - room.bounds.min));
    for (int w = 0; w < static_cast<int>(room.planes.size()); ++w) {
        const Plane& plane = room.planes[static_cast<std::size_t>(w)];
        const float height = signedDistance(plane, start.center);
        if (height < 0.0f) continue; // behind the wall: it is seen (and drawn) from inside only
        const std::optional<float> t =
            height <= start.radius ? 0.0f : sweepSpherePlane(start, dir, plane, best.t);
        if (!t || !best.offer(*t)) continue;
        const glm::vec3 centre = start.center + *t * dir;
        const glm::vec3 foot = centre - signedDistance(plane, centre) * plane.normal;
        if (!insideRoom(room, foot, tolerance)) continue; // beside the wall's polygon
        best.t = *t;
        best.found = true;
        best.hit = SphereCastHit{*t, {}, {}, {}, -1, w};
    }
}

/// An obstacle's triangles near the path, found with its BVH in the mesh's frame: the part of the
/// path within reach of the obstacle's bounding sphere, as a box.
void castAtObstacle(const Obstacle& obstacle, int index, const Sphere& start, const glm::vec3& dir,
                    Best& best) {
    const glm::vec3 centre = 0.5f * (obstacle.bounds.min + obstacle.bounds.max);
    const float reach = 0.5f * glm::length(obstacle.bounds.max - obstacle.bounds.min) + start.radius;
    // |o + t d - centre| <= reach for t in [closest - half, closest + half].
    const float dd = glm::dot(dir, dir);
    const float closest = glm::dot(centre - start.center, dir) / dd;
    const glm::vec3 offset = start.center + closest * dir - centre;
    const float sideways2 = glm::dot(offset, offset);
    if (!(sideways2 <= reach * reach)) return;
    const float half = std::sqrt((reach * reach - sideways2) / dd);
    const float from = std::max(closest - half, 0.0f);
    const float to = std::min(closest + half, best.t);
    if (!(from <= to)) return;
    const glm::vec3 a = start.center + from * dir, b = start.center + to * dir;
    const Aabb path{glm::min(a, b) - glm::vec3(start.radius), glm::max(a, b) + glm::vec3(start.radius)};
    obstacle.mesh->bvh.forEachTriangleOverlapping(
        obstacle.localBox(path), [&](std::uint32_t id, const Triangle&) {
            const auto t = sweepSphereTriangle(start, dir, obstacle.worldTriangle(id), best.t);
            if (!t) return;
            // Equal t within one mesh: the lower triangle index, whatever the tree's order.
            const bool lowerTriangle =
                best.found && *t == best.t && best.hit.obstacle == index && id < best.hit.triangle;
            if (!best.offer(*t) && !lowerTriangle) return;
            best.t = *t;
            best.found = true;
            best.hit = SphereCastHit{*t, {}, {}, {}, -1, -1, index, id};
        });
}

/// The touched point and the normal toward the centre, at the time of the touch.
void describeTouch(const World& world, const glm::vec3& dir, SphereCastHit& hit) {
    glm::vec3 point = hit.center;
    if (hit.body >= 0) {
        const Body& b = world.bodies()[static_cast<std::size_t>(hit.body)];
        if (b.shape == ShapeType::Sphere) {
            const glm::vec3 apart = hit.center - b.position;
            const float length = glm::length(apart);
            point = length > 0.0f ? b.position + apart * (b.radius / length) : b.position;
        } else if (b.shape == ShapeType::Box) {
            point = closestPtPointObb(hit.center, obbOf(b));
        } else {
            point = closestPtConvexConvex(Sphere{hit.center, 0.0f}, convexOf(b)).pointB;
        }
    } else if (hit.wall >= 0) {
        const Plane& plane = world.room().planes[static_cast<std::size_t>(hit.wall)];
        hit.point = hit.center - signedDistance(plane, hit.center) * plane.normal;
        hit.normal = plane.normal;
        return;
    } else {
        point = closestPtPointTriangle(
            hit.center,
            world.obstacles()[static_cast<std::size_t>(hit.obstacle)].worldTriangle(hit.triangle));
    }
    hit.point = point;
    const glm::vec3 out = hit.center - point;
    const float length = glm::length(out);
    hit.normal = length > 1e-6f ? out / length : -glm::normalize(dir);
}

/// The cast with `castAtBodies` (castAtBodies or castAtBodiesByScan) for the bodies.
template <class CastAtBodies>
std::optional<SphereCastHit> cast(const World& world, const Ray& ray, float radius, float tMax,
                                  CastAtBodies castAtBodies) {
    if (!isValid(ray) || !(radius >= 0.0f) || !std::isfinite(radius) || !(tMax >= 0.0f)) return std::nullopt;
    const Sphere start{ray.origin, radius};
    Best best{tMax, tMax};
    castAtBodies(world, start, ray.dir, best);
    castAtWalls(world.room(), start, ray.dir, best);
    const auto obstacles = world.obstacles();
    for (int i = 0; i < static_cast<int>(obstacles.size()); ++i)
        castAtObstacle(obstacles[static_cast<std::size_t>(i)], i, start, ray.dir, best);
    if (!best.found) return std::nullopt;
    SphereCastHit hit = best.hit;
    hit.center = ray.origin + hit.t * ray.dir;
    describeTouch(world, ray.dir, hit);
    if (!isFinite(hit.center) || !isFinite(hit.point) || !isFinite(hit.normal)) return std::nullopt;
    return hit;
}

} // namespace

std::optional<SphereCastHit> sphereCast(const World& world, const Ray& ray, float radius, float tMax) {
    return cast(world, ray, radius, tMax, castAtBodies);
}

std::optional<SphereCastHit> sphereCastByScan(const World& world, const Ray& ray, float radius, float tMax) {
    return cast(world, ray, radius, tMax, castAtBodiesByScan);
}

} // namespace kz
