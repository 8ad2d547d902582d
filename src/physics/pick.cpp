#include "pick.hpp"

#include <algorithm>

namespace kz {
namespace {

struct Candidate {
    float entry; ///< t where the ray enters the body's bounding sphere (0 if it starts inside).
    int body;
};

/// Bodies whose bounding sphere the ray meets within [0, tMax], by entry t (ties by index).
void candidates(const World& world, const Ray& ray, float tMax, std::vector<Candidate>& out) {
    out.clear();
    const auto bodies = world.bodies();
    for (int i = 0; i < static_cast<int>(bodies.size()); ++i) {
        const Body& b = bodies[i];
        const float bound = b.shape == ShapeType::Sphere ? b.radius : glm::length(b.halfExtents);
        if (const auto hit = raycast(ray, Sphere{b.position, bound}, tMax)) out.push_back({hit->t, i});
    }
    std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& c) {
        return a.entry < c.entry || (a.entry == c.entry && a.body < c.body);
    });
}

std::optional<RayHit> exact(const Body& b, const Ray& ray, float tMax) {
    return b.shape == ShapeType::Sphere ? raycast(ray, sphereOf(b), tMax) : raycast(ray, obbOf(b), tMax);
}

} // namespace

std::optional<PickHit> pickBody(const World& world, const Ray& ray, float tMax) {
    if (!isValid(ray) || !(tMax >= 0.0f)) return std::nullopt;
    thread_local std::vector<Candidate> list;
    candidates(world, ray, tMax, list);
    std::optional<PickHit> best;
    float bestT = tMax;
    for (const Candidate& c : list) {
        if (best && c.entry > bestT) break; // nothing farther can be nearer
        if (const auto hit = exact(world.bodies()[c.body], ray, bestT)) {
            if (!best || hit->t < bestT || (hit->t == bestT && c.body < best->body)) {
                best = PickHit{c.body, *hit};
                bestT = hit->t;
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
        if (const auto hit = exact(world.bodies()[c.body], ray, tMax)) hits.push_back({c.body, *hit});
    }
    std::stable_sort(hits.begin(), hits.end(),
                     [](const PickHit& a, const PickHit& b) { return a.hit.t < b.hit.t; });
    return hits;
}

} // namespace kz
