// Resolving contacts: at the step start (every body) and at each impact (the bodies involved),
// the touching points of the gathered candidate pairs go to the contact solver; afterwards the
// bodies whose velocity changed get new times of impact, and contacts() records the points.
#include "free_flight.hpp"
#include "narrow_phase.hpp"
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>

namespace kz {
namespace {

/// The radius a body rolls on: a sphere's, a capsule's or a cylinder's (on its side); 0 for the
/// shapes that do not roll (boxes, hulls).
float rollingRadius(const Body& body) {
    if (body.shape == ShapeType::Sphere) return body.radius;
    return body.shape == ShapeType::Capsule || body.shape == ShapeType::Cylinder ? roundRadius(body) : 0.0f;
}

/// A round body's arm is its rolling resistance times its radius (Box2D v3 does the same for
/// circles and capsules).
float rollingArm(const Body& body) {
    return body.rollingResistance * rollingRadius(body);
}

/// The rolling resistance of a manifold of a and b (b == nullptr: a wall or an obstacle): the
/// body that rolls more resists.
Rolling rollingOf(const Body& a, const Body* b) {
    const bool rollsOnB = b && rollingArm(*b) > rollingArm(a);
    return {rollsOnB ? rollingArm(*b) : rollingArm(a), rollsOnB ? rollingRadius(*b) : rollingRadius(a)};
}

/// A solver point at one manifold point: lever arms, combined friction, the Newton restitution
/// target (vn' = -e vn, or 0 for a contact slower than `restingSpeed`) and the friction
/// directions (along the sliding velocity when there is one).
SolverPoint solverPoint(const Body& a, const Body* b, const ContactPoint& at, const glm::vec3& normal,
                        float restingSpeed) {
    SolverPoint p{};
    p.depth = at.depth;
    p.normal = normal;
    p.rA = at.position - a.position;
    p.rB = b ? at.position - b->position : glm::vec3(0.0f);
    p.friction = b ? std::sqrt(a.friction * b->friction) : a.friction;
    const float restitution = b ? std::max(a.restitution, b->restitution) : a.restitution;
    const glm::vec3 vRel = a.velocity + glm::cross(a.angularVelocity, p.rA) -
                           (b ? b->velocity + glm::cross(b->angularVelocity, p.rB) : glm::vec3(0.0f));
    const float vn = glm::dot(vRel, p.normal);
    p.speedBefore = vn;
    p.target = std::abs(vn) > restingSpeed ? -restitution * vn : 0.0f;
    const glm::vec3 vt = vRel - vn * p.normal;
    const float vtLength = glm::length(vt);
    p.tangent1 = vtLength > 1e-6f
                     ? vt / vtLength
                     : glm::normalize(glm::cross(p.normal, std::abs(p.normal.x) < 0.9f ? glm::vec3(1, 0, 0)
                                                                                       : glm::vec3(0, 1, 0)));
    p.tangent2 = glm::cross(p.normal, p.tangent1);
    return p;
}

} // namespace

void World::resolveContacts(double now, ResolvePass pass) {
    Impl& scratch = *impl_;
    scratch.solver.clear();
    scratch.inSolve.resize(bodies_.size(), 0);
    scratch.candidateStamp.resize(scratch.candidates.size(), 0);
    ++scratch.stamp;

    // The candidates of the involved bodies, each once, in a deterministic order.
    scratch.gathered.clear();
    if (pass == ResolvePass::StepStart) {
        // Every body is involved: every candidate (each is in its first body's list), in order.
        scratch.gathered.resize(scratch.candidates.size());
        std::iota(scratch.gathered.begin(), scratch.gathered.end(), 0);
    } else {
        for (int body : scratch.involved) {
            for (int ci : scratch.byBody[body]) {
                if (scratch.candidateStamp[ci] == scratch.stamp) continue;
                scratch.candidateStamp[ci] = scratch.stamp;
                scratch.gathered.push_back(ci);
            }
        }
        std::sort(scratch.gathered.begin(), scratch.gathered.end());
    }
    scratch.solved.clear();
    gatherContactPoints(now);
    for (int i : scratch.solved)
        scratch.inSolve[i] = 0;
    if (scratch.solver.points().empty()) return;
    if (pass == ResolvePass::StepStart) noteStepStartImpacts();
    scratch.solver.prepare(bodies_, scratch.solved);
    if (pass == ResolvePass::StepStart) scratch.solver.warmStart();
    scratch.solver.solve();

    // Impulses changed these bodies' angular momentum: a new energy level for free flight.
    for (int i : scratch.solved) {
        const Body& b = bodies_[i];
        scratch.spinEnergy[static_cast<std::size_t>(i)] =
            rotationalEnergy(b.orientation, b.angularMomentum, b.inertiaLocal);
        // A new free flight from here (at the step start, startFlights begins every body's after this).
        if (pass == ResolvePass::Impact) startFlight(i, now);
    }
    // Bodies that changed velocity need new times of impact, and maybe new partners.
    for (const SolverPoint& p : scratch.solver.points()) {
        if (p.lambdaN == 0.0f && p.lambdaT1 == 0.0f && p.lambdaT2 == 0.0f) continue;
        watchPath(p.a, now);
        for (int ci : scratch.byBody[p.a])
            invalidate(ci);
        if (p.b >= 0) {
            watchPath(p.b, now);
            for (int ci : scratch.byBody[p.b])
                invalidate(ci);
        }
    }
    ++scratch.resolveSerial;
    for (const SolverPoint& p : scratch.solver.points()) {
        const Partner partner = scratch.candidates[p.candidate].partner;
        scratch.contactSerial.push_back(scratch.resolveSerial);
        contacts_.push_back({p.a, p.b, partner.isWall() ? partner.index : -1, bodies_[p.a].position + p.rA,
                             p.normal, p.depth, partner.isObstacle() ? partner.index : -1, p.triangle});
    }
    if (pass == ResolvePass::StepStart) scratch.solver.storeImpulses();
}

void World::gatherContactPoints(double now) {
    Impl& scratch = *impl_;
    JobSystem* jobs = jobs_.get();
    // Every pair's bodies flown to now first: the narrow phase of a pair reads only its two bodies.
    for (int ci : scratch.gathered) {
        const Candidate& c = scratch.candidates[ci];
        syncBody(c.a, now);
        if (c.partner.isBody()) syncBody(c.partner.index, now);
    }
    // The narrow phase per chunk of pairs, then each pair's points to the solver in pair order.
    const std::size_t count = scratch.gathered.size();
    std::vector<ChunkManifolds>& found = scratch.parallel.value.manifolds;
    found.resize(chunkCount(jobs, count, kPairGrain));
    std::vector<WorkerScratch>& workers = scratch.workers(jobs);
    parallelFor(jobs, count, kPairGrain, [&](const JobChunk& chunk) {
        ChunkManifolds& out = found[chunk.index];
        WorkerScratch& local = workers[static_cast<std::size_t>(chunk.worker)];
        out.manifolds.clear();
        out.pairs.clear();
        for (std::size_t k = chunk.begin; k < chunk.end; ++k) {
            pairManifolds(scratch.gathered[k], local, local.manifolds);
            if (local.manifolds.empty()) continue;
            out.manifolds.insert(out.manifolds.end(), local.manifolds.begin(), local.manifolds.end());
            out.pairs.emplace_back(scratch.gathered[k], static_cast<int>(local.manifolds.size()));
        }
    });
    for (std::size_t chunk = 0; chunk < found.size(); ++chunk) {
        const ChunkManifolds& part = found[chunk];
        std::size_t next = 0;
        for (const auto& [candidate, manifolds] : part.pairs) {
            addContactPoints(candidate, std::span<const PairManifold>(part.manifolds)
                                            .subspan(next, static_cast<std::size_t>(manifolds)));
            next += static_cast<std::size_t>(manifolds);
        }
    }
}

void World::addContactPoints(int candidate, std::span<const PairManifold> manifolds) {
    Impl& scratch = *impl_;
    const Candidate& c = scratch.candidates[candidate];
    const Body* b = c.partner.isBody() ? &bodies_[c.partner.index] : nullptr;
    const Body& a = bodies_[c.a];
    for (const int body : {c.a, b ? c.partner.index : -1}) {
        if (body < 0 || scratch.inSolve[body]) continue;
        scratch.solved.push_back(body);
        scratch.inSolve[body] = 1;
    }
    const float reach = contactReach(a, b);
    const float restingSpeed = restingSpeedOf(settings_);
    const Rolling rolling = rollingOf(a, b);
    for (const PairManifold& contact : manifolds) {
        const Manifold& manifold = contact.manifold;
        const int group = scratch.solver.addManifold(rolling);
        for (int k = 0; k < manifold.count; ++k) {
            if (manifold.points[k].depth < -reach) continue;
            SolverPoint p = solverPoint(a, b, manifold.points[k], manifold.normal, restingSpeed);
            p.a = c.a;
            p.b = b ? c.partner.index : -1;
            p.candidate = candidate;
            p.group = group;
            p.pairKey = pairKey(c.a, c.partner);
            p.triangle = contact.triangle;
            scratch.solver.addPoint(p);
        }
    }
}

void World::keepLatestContacts() {
    // A pair can be resolved several times in a step (at the start and at each impact of its
    // bodies): report only its latest contacts, so contacts() counts each touching pair once.
    const std::vector<std::uint32_t>& serial = impl_->contactSerial;
    const auto key = [](const ContactInfo& c) { return pairKey(c.bodyA, c.partner()); };
    std::vector<std::pair<std::uint64_t, std::uint32_t>> latest;
    latest.reserve(contacts_.size());
    for (std::size_t i = 0; i < contacts_.size(); ++i)
        latest.emplace_back(key(contacts_[i]), serial[i]);
    std::sort(latest.begin(), latest.end());
    std::size_t kept = 0;
    for (std::size_t i = 0; i < contacts_.size(); ++i) {
        const std::uint64_t k = key(contacts_[i]);
        const auto last = std::upper_bound(latest.begin(), latest.end(), std::make_pair(k, UINT32_MAX)) - 1;
        if (serial[i] == last->second) contacts_[kept++] = contacts_[i];
    }
    contacts_.resize(kept);
}

} // namespace kz
