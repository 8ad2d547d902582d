// The world's queries: energy, momenta, the deepest overlap, escaped bodies and the impact
// preview. None changes the world.
#include "geom/overlap.hpp"
#include "geom/raycast.hpp"
#include "memory_bytes.hpp"
#include "narrow_phase.hpp"
#include "world_impl.hpp"

#include <algorithm>

namespace kz {

double World::kineticEnergy() const {
    double sum = 0.0;
    for (const Body& b : bodies_)
        sum += kz::kineticEnergy(b);
    return sum;
}

glm::dvec3 World::linearMomentum() const {
    glm::dvec3 sum(0.0);
    for (const Body& b : bodies_)
        sum += static_cast<double>(b.mass) * glm::dvec3(b.velocity);
    return sum;
}

glm::dvec3 World::angularMomentum() const {
    glm::dvec3 sum(0.0);
    for (const Body& b : bodies_) {
        const glm::dvec3 spin(b.angularMomentum);
        sum +=
            spin + glm::cross(glm::dvec3(b.position), static_cast<double>(b.mass) * glm::dvec3(b.velocity));
    }
    return sum;
}

float World::maxPenetration() const {
    float deepest = 0.0f;
    for (const Body& b : bodies_) {
        for (const Plane& p : room_.planes)
            deepest = std::max(deepest, -distanceToPlane(b, p));
    }
    std::vector<Aabb> boxes;
    boxes.reserve(bodies_.size());
    for (const Body& b : bodies_)
        boxes.push_back({b.position - glm::vec3(b.radius), b.position + glm::vec3(b.radius)});
    std::vector<std::pair<int, int>> pairs;
    GridBroadPhase grid;
    grid.findPairs(boxes, pairs);
    for (const auto& [i, j] : pairs) {
        const auto m = contactBodies(bodies_[i], bodies_[j], 0.0f);
        if (m) deepest = std::max(deepest, m->depth);
    }
    for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
        for (int o = 0; o < static_cast<int>(obstacles_.size()); ++o) {
            if (!testAabbAabb(boxes[i], obstacles_[o].bounds)) continue;
            WorkerScratch& local = impl_->local;
            obstacleContactsOf(i, o, 0.0f, local.manifolds, local);
            if (!local.manifolds.empty()) deepest = std::max(deepest, local.manifolds[0].manifold.depth);
        }
    }
    return deepest;
}

int World::escapedCount() const {
    int escaped = 0;
    for (const Body& b : bodies_) {
        if (!insideRoom(room_, b.position, 1e-4f)) ++escaped;
    }
    return escaped;
}

std::optional<ImpactPreview> World::impactPreview(int i) const {
    if (i < 0 || i >= static_cast<int>(bodies_.size())) return std::nullopt;
    const Body& b = bodies_[i];
    const float speed = glm::length(b.velocity);
    // A body at rest on a floor keeps a residual velocity of micrometres per second from the
    // solver's tolerance: its "impact" would be hours away, in a direction that means nothing.
    if (!(speed >= kPreviewMinSpeed)) return std::nullopt;
    std::optional<ImpactPreview> best;
    float bestT = INFINITY;
    for (int w = 0; w < static_cast<int>(room_.walls.size()); ++w) {
        const auto hit = raycastPolygon(Ray{b.position, b.velocity}, room_.walls[w], bestT);
        if (!hit) continue;
        bestT = hit->t;
        const Plane& plane = room_.planes[w];
        const float approach = -glm::dot(plane.normal, b.velocity);
        const float gap = std::max(0.0f, distanceToPlane(b, plane));
        best = ImpactPreview{w, hit->point, hit->t * speed, approach > 0.0f ? gap / approach : INFINITY};
    }
    for (int o = 0; o < static_cast<int>(obstacles_.size()); ++o) {
        const auto hit = raycast(Ray{b.position, b.velocity}, obstacles_[o], bestT);
        if (!hit || (best && hit->t >= bestT)) continue;
        bestT = hit->t;
        // The hit triangle's plane stands in for the wall's (the normal faces the centre).
        const Plane plane{hit->normal, -glm::dot(hit->normal, hit->point)};
        const float approach = -glm::dot(plane.normal, b.velocity);
        const float gap = std::max(0.0f, distanceToPlane(b, plane));
        best = ImpactPreview{-1, hit->point,   hit->t * speed, approach > 0.0f ? gap / approach : INFINITY,
                             o,  hit->triangle};
    }
    return best;
}

std::size_t World::memoryBytes() const {
    const Impl& s = *impl_;
    std::size_t bytes = sizeof(World) + sizeof(Impl) + vectorBytes(bodies_) + vectorBytes(contacts_) +
                        vectorBytes(impacts_) + vectorBytes(obstacles_) + vectorBytes(room_.planes) +
                        vectorBytes(room_.walls);
    for (const Body& b : bodies_)
        bytes += b.name.capacity() >= sizeof(std::string) ? b.name.capacity() + 1 : 0; // beyond the SSO
    for (const Obstacle& o : obstacles_)
        bytes += o.name.capacity() >= sizeof(std::string) ? o.name.capacity() + 1 : 0;
    bytes += vectorBytes(s.candidates) + vectorBytes(s.byBody) + vectorBytes(s.pairs) + vectorBytes(s.swept) +
             s.grid.memoryBytes() + vectorBytes(s.contactSerial) + vectorBytes(s.spinEnergy) +
             s.solver.memoryBytes() + vectorBytes(s.heap) + vectorBytes(s.stale) + vectorBytes(s.bodyTime) +
             vectorBytes(s.involved) + vectorBytes(s.gathered) + vectorBytes(s.solved) +
             vectorBytes(s.inSolve) + vectorBytes(s.local.nearTriangles) + vectorBytes(s.local.nearIds) +
             vectorBytes(s.local.manifolds) + vectorBytes(s.candidateStamp) + vectorBytes(s.searchStarts) +
             vectorBytes(s.fired) + s.bodyBvh.memoryBytes();
    return bytes;
}

const BodyBvh& World::bodyBvh() const {
    return impl_->bodyBvh;
}

} // namespace kz
