#include "pick.hpp"

#include <algorithm>

namespace kz {
namespace {

struct Candidate {
    float entry; ///< t where the ray enters the bound (0 if it starts inside).
    int index;   ///< Body index, or obstacle index when `obstacle`.
    bool obstacle;
};

/// Bodies whose bounding sphere and obstacles whose world box the ray meets within [0, tMax],
/// by entry t (ties: bodies first, then by index).
void candidates(const World& world, const Ray& ray, float tMax, std::vector<Candidate>& out) {
    out.clear();
    const auto bodies = world.bodies();
    for (int i = 0; i < static_cast<int>(bodies.size()); ++i) {
        const Body& b = bodies[i];
        const float bound = b.shape == ShapeType::Sphere ? b.radius : glm::length(b.halfExtents);
        if (const auto hit = raycast(ray, Sphere{b.position, bound}, tMax)) out.push_back({hit->t, i, false});
    }
    const auto obstacles = world.obstacles();
    for (int i = 0; i < static_cast<int>(obstacles.size()); ++i) {
        if (const auto hit = raycast(ray, obstacles[i].bounds, tMax)) out.push_back({hit->t, i, true});
    }
    std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& c) {
        if (a.entry != c.entry) return a.entry < c.entry;
        if (a.obstacle != c.obstacle) return !a.obstacle;
        return a.index < c.index;
    });
}

std::optional<PickHit> exact(const World& world, const Candidate& c, const Ray& ray, float tMax) {
    if (c.obstacle) {
        const auto hit = raycast(ray, world.obstacles()[c.index], tMax);
        if (!hit) return std::nullopt;
        return PickHit{-1, {hit->t, hit->point, hit->normal}, c.index, hit->triangle, hit->u, hit->v};
    }
    const Body& b = world.bodies()[c.index];
    const auto hit =
        b.shape == ShapeType::Sphere ? raycast(ray, sphereOf(b), tMax) : raycast(ray, obbOf(b), tMax);
    if (!hit) return std::nullopt;
    return PickHit{c.index, *hit};
}

/// Whether a is preferred to b at equal t: bodies before obstacles, then the lower index.
bool before(const PickHit& a, const PickHit& b) {
    if (a.isBody() != b.isBody()) return a.isBody();
    return a.isBody() ? a.body < b.body : a.obstacle < b.obstacle;
}

} // namespace

std::optional<PickHit> pickNearest(const World& world, const Ray& ray, float tMax) {
    if (!isValid(ray) || !(tMax >= 0.0f)) return std::nullopt;
    thread_local std::vector<Candidate> list;
    candidates(world, ray, tMax, list);
    std::optional<PickHit> best;
    float bestT = tMax;
    for (const Candidate& c : list) {
        if (best && c.entry > bestT) break; // nothing farther can be nearer
        if (const auto hit = exact(world, c, ray, bestT)) {
            if (!best || hit->hit.t < bestT || (hit->hit.t == bestT && before(*hit, *best))) {
                best = hit;
                bestT = hit->hit.t;
            }
        }
    }
    return best;
}

std::vector<PickHit> pickAll(const World& world, const Ray& ray, float tMax) {
    std::vector<PickHit> hits;
    if (!isValid(ray) || !(tMax >= 0.0f)) return hits;
    std::vector<Candidate> list;
    candidates(world, ray, tMax, list);
    for (const Candidate& c : list) {
        if (const auto hit = exact(world, c, ray, tMax)) hits.push_back(*hit);
    }
    std::stable_sort(hits.begin(), hits.end(),
                     [](const PickHit& a, const PickHit& b) { return a.hit.t < b.hit.t; });
    return hits;
}

} // namespace kz
