// Candidate pairs of the step: the broad phase (a uniform grid) on each body's swept bounding
// box, plus the walls and obstacles each box can reach; later partners for a body an impact
// sends out of its box (watchPath); and the staleness of each pair's time of impact.
#include "free_flight.hpp"
#include "geom/overlap.hpp"
#include "geom/plane.hpp"
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

/// Whether any point of the box lies on or behind the plane (it can reach the wall).
bool boxReachesPlane(const Aabb& box, const Plane& plane) {
    const glm::vec3 lowest(plane.normal.x >= 0.0f ? box.min.x : box.max.x,
                           plane.normal.y >= 0.0f ? box.min.y : box.max.y,
                           plane.normal.z >= 0.0f ? box.min.z : box.max.z);
    return signedDistance(plane, lowest) <= 0.0f;
}

} // namespace

void World::findCandidates() {
    Impl& scratch = *impl_;
    JobSystem* jobs = jobs_.get();
    const float h = settings_.timeStep;
    const int n = static_cast<int>(bodies_.size());
    // Each body's bounding sphere, grown by twice the distance it covers in the step in every
    // direction (an impact may turn it anywhere and speed it up). A body whose path after an
    // impact still leaves that box looks for new partners then (watchPath).
    scratch.swept.resize(static_cast<std::size_t>(n));
    parallelFor(jobs, bodies_.size(), kBodyGrain, [&](const JobChunk& chunk) {
        for (std::size_t i = chunk.begin; i < chunk.end; ++i) {
            const Body& b = bodies_[i];
            const glm::vec3 r(boundingRadius(b) + 2.0f * kMargin);
            const glm::vec3 end = b.position + b.velocity * h;
            scratch.swept[i] = {glm::min(b.position, end) - r, glm::max(b.position, end) + r};
        }
    });
    scratch.grid.findPairs(scratch.swept, scratch.pairs, jobs);
    scratch.candidateStamp.clear();
    scratch.byBody.resize(static_cast<std::size_t>(n));
    // Each element is assigned whole below: the resize keeps what it can (no construction).
    scratch.candidates.resize(scratch.pairs.size());
    parallelFor(jobs, scratch.pairs.size(), kPairGrain * 16, [&](const JobChunk& chunk) {
        for (std::size_t k = chunk.begin; k < chunk.end; ++k)
            scratch.candidates[k] = {scratch.pairs[k].first, Partner::body(scratch.pairs[k].second)};
    });
    // The walls, then the obstacles, each body's in body order: per chunk of bodies, appended in
    // chunk order.
    ParallelScratch& parallel = scratch.parallel.value;
    const std::size_t chunks = chunkCount(jobs, bodies_.size(), kBodyGrain);
    parallel.wallCandidates.resize(chunks);
    parallel.obstacleCandidates.resize(chunks);
    parallelFor(jobs, bodies_.size(), kBodyGrain, [&](const JobChunk& chunk) {
        std::vector<Candidate>& walls = parallel.wallCandidates[chunk.index];
        std::vector<Candidate>& meshes = parallel.obstacleCandidates[chunk.index];
        walls.clear();
        meshes.clear();
        for (int i = static_cast<int>(chunk.begin); i < static_cast<int>(chunk.end); ++i) {
            for (int w = 0; w < static_cast<int>(room_.planes.size()); ++w) {
                if (boxReachesPlane(scratch.swept[i], room_.planes[w]))
                    walls.push_back({i, Partner::wall(w)});
            }
            for (int o = 0; o < static_cast<int>(obstacles_.size()); ++o) {
                if (testAabbAabb(scratch.swept[i], obstacles_[o].bounds))
                    meshes.push_back({i, Partner::obstacle(o)});
            }
        }
    });
    for (const auto& part : parallel.wallCandidates)
        scratch.candidates.insert(scratch.candidates.end(), part.begin(), part.end());
    for (const auto& part : parallel.obstacleCandidates)
        scratch.candidates.insert(scratch.candidates.end(), part.begin(), part.end());
    // Each body's candidates in candidate order: per range of bodies (one a thread: each walks all
    // the candidates), in parallel.
    const std::size_t ranges = jobs ? static_cast<std::size_t>(jobs->threads()) : 1;
    parallelFor(jobs, ranges, 1, [&](const JobChunk& chunk) {
        const int first = static_cast<int>(chunk.index * bodies_.size() / ranges);
        const int last = static_cast<int>((chunk.index + 1) * bodies_.size() / ranges);
        for (int i = first; i < last; ++i)
            scratch.byBody[i].clear();
        for (int c = 0; c < static_cast<int>(scratch.candidates.size()); ++c) {
            const Candidate& candidate = scratch.candidates[c];
            if (candidate.a >= first && candidate.a < last) scratch.byBody[candidate.a].push_back(c);
            const int b = candidate.partner.isBody() ? candidate.partner.index : -1;
            if (b >= first && b < last) scratch.byBody[b].push_back(c);
        }
    });
}

void World::addCandidate(int a, Partner partner) {
    Impl& scratch = *impl_;
    const int ci = static_cast<int>(scratch.candidates.size());
    scratch.candidates.push_back({a, partner});
    scratch.candidateStamp.resize(scratch.candidates.size(), 0);
    scratch.stale.push_back(ci); // its time of impact is due
    scratch.byBody[a].push_back(ci);
    if (partner.isBody()) scratch.byBody[partner.index].push_back(ci);
}

void World::watchPath(int i, double now) {
    Impl& scratch = *impl_;
    const Body& b = bodies_[i];
    const float left = settings_.timeStep - static_cast<float>(now);
    const glm::vec3 r(boundingRadius(b) + 2.0f * kMargin);
    const glm::vec3 end = b.position + b.velocity * std::max(left, 0.0f);
    const Aabb path{glm::min(b.position, end) - r, glm::max(b.position, end) + r};
    Aabb& box = scratch.swept[i];
    if (glm::all(glm::greaterThanEqual(path.min, box.min)) && glm::all(glm::lessThanEqual(path.max, box.max)))
        return;

    // The rest of the path leaves the box the broad phase saw: grow it and find new partners
    // among all bodies, walls and obstacles (rare: a body sped up or turned sharply by an impact).
    box = {glm::min(box.min, path.min), glm::max(box.max, path.max)};
    scratch.grid.noteGrown(i, box);
    const auto known = [&](Partner partner) {
        for (int ci : scratch.byBody[i]) {
            const Candidate& c = scratch.candidates[ci];
            const bool same = partner.isBody() ? (c.a == partner.index && c.partner == Partner::body(i)) ||
                                                     (c.partner == partner && c.a == i)
                                               : c.partner == partner;
            if (same) return true;
        }
        return false;
    };
    // The bodies whose box meets the grown one, in index order: among those the broad phase's grid
    // has near it, as it was or grown since (for a box that is not finite, none meets it).
    std::vector<int>& near = scratch.parallel.value.nearBodies;
    near.clear();
    if (isFinite(box.min) && isFinite(box.max)) {
        scratch.grid.boxesNear(box, near);
        std::sort(near.begin(), near.end());
        near.erase(std::unique(near.begin(), near.end()), near.end());
    }
    for (const int j : near) {
        if (j == i || !testAabbAabb(box, scratch.swept[j]) || known(Partner::body(j))) continue;
        addCandidate(std::min(i, j), Partner::body(std::max(i, j)));
    }
    for (int w = 0; w < static_cast<int>(room_.planes.size()); ++w) {
        if (boxReachesPlane(box, room_.planes[w]) && !known(Partner::wall(w)))
            addCandidate(i, Partner::wall(w));
    }
    for (int o = 0; o < static_cast<int>(obstacles_.size()); ++o) {
        if (testAabbAabb(box, obstacles_[o].bounds) && !known(Partner::obstacle(o)))
            addCandidate(i, Partner::obstacle(o));
    }
}

} // namespace kz
