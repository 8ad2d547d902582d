// Private to kz_physics (included by the world's stage files only): the step's scratch, the
// candidate pairs and the tuning constants the stages share.
#pragma once

#include "body_bvh.hpp"
#include "broadphase.hpp"
#include "contact_solver.hpp"
#include "free_flight.hpp"
#include "job_system.hpp"
#include "narrow_phase.hpp"
#include "partner.hpp"
#include "uncopied.hpp"
#include "world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace kz {

inline constexpr float kMargin = 0.002f;         ///< Closer than this counts as touching.
inline constexpr float kSlop = 0.0005f;          ///< Overlap left alone by the position projection.
inline constexpr float kPreviewMinSpeed = 1e-3f; ///< Slower bodies are at rest for the impact preview (m/s).
/// At most this many triangle manifolds per body and obstacle (the deepest).
inline constexpr std::size_t kMaxObstacleManifolds = 8;

/// The spacing of floats as large as the position's largest coordinate (2^-23 of it): a gap at
/// such coordinates is known to no better than a few of these.
inline float positionResolution(const glm::vec3& p) {
    return std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}) * 0x1.0p-23f;
}

/// What counts as touching in a resolve: the gap the impact search stops at. Spheres against walls
/// and spheres meet exactly (gap 0), so a sphere still short of its wall is left to its exact time
/// of impact rather than bounced early; other pairs stop at half the margin. b == nullptr: a wall
/// or an obstacle. An exact pair's reach is 10 micrometres, or 8 float spacings of its positions
/// where that is more (beyond about 10 m from the origin): a sphere flown to its exact time of
/// impact with a wall 900 m away ends up to a spacing (61 micrometres) short of it, and flying the
/// next root's nanoseconds does not move it at all, so a fixed 10 micrometres made it fire again
/// and again at the same place until the step's events ran out (and then other bodies left the
/// room).
inline float contactReach(const Body& a, const Body* b) {
    if (!meetExactly(a, b)) return 0.5f * kMargin + 1e-5f;
    const float resolution =
        std::max(positionResolution(a.position), b ? positionResolution(b->position) : 0.0f);
    return std::max(1e-5f, 8.0f * resolution);
}

/// Slower than this along the normal, a contact is resting (no restitution): twice what gravity
/// adds in a step.
inline float restingSpeedOf(const WorldSettings& settings) {
    return 2.0f * glm::length(settings.gravity) * settings.timeStep + 1e-5f;
}

/// One manifold of a candidate pair, with the obstacle triangle it lies on: an obstacle gives one
/// per touched triangle, a body or a wall at most one (triangle 0, no placed triangle).
struct PairManifold {
    Manifold manifold;
    std::uint32_t triangle; ///< Index in the obstacle's mesh (0 for a wall's or a body's manifold).
    Triangle placed;        ///< That triangle in the world frame.
};

/// A pair the broad phase found for the step: body a and a partner that it may touch.
struct Candidate {
    int a;
    Partner partner;
    float target = 0.0f;       ///< Distance at which the next impact counts.
    double toi = INFINITY;     ///< Absolute time (within the step) of the next impact; INFINITY if none.
    bool fresh = false;        ///< toi is up to date.
    std::uint32_t version = 0; ///< Bumped whenever toi goes stale.
};

/// Items per chunk of the step's parallel loops (job_system.hpp): enough work that a chunk costs
/// more than handing it to another thread (a few microseconds), so that a small world's loops run
/// as one chunk on the calling thread, as without threads.
inline constexpr std::size_t kBodyGrain = 512;    ///< Per body: free flight, swept boxes, walls.
inline constexpr std::size_t kPairGrain = 128;    ///< Per candidate pair: narrow phase, projection.
inline constexpr std::size_t kImpactGrain = 64;   ///< Per candidate pair: times of impact.
inline constexpr std::size_t kFiniteGrain = 4096; ///< Per body: the finiteness check.

/// What one thread of the step's parallel loops writes on the side (JobChunk::worker's).
struct WorkerScratch {
    std::vector<Triangle> nearTriangles;
    std::vector<std::uint32_t> nearIds;
    std::vector<PairManifold> manifolds;
    FlightPath flight; ///< finishStep: the flight of a body whose path nothing needed.
};

/// The manifolds of the candidate pairs of one chunk of a resolve's narrow phase, in pair order.
struct ChunkManifolds {
    std::vector<PairManifold> manifolds;
    std::vector<std::pair<int, int>> pairs; ///< (candidate, how many of `manifolds` are its), in order.
};

/// The end-of-step projection's look at one candidate pair: the push its contact asks for.
struct ProjectionContact {
    glm::vec3 normal;
    float depth;   ///< Of the contact (obstacles: of the deepest triangle); not over kSlop: no push.
    bool touching; ///< Whether there is a contact at all.
};

/// What free flight changes of a body.
struct FlightEnd {
    glm::vec3 position;
    glm::quat orientation;
    glm::vec3 angularVelocity;
};

/// The scratch of the step's parallel loops: rebuilt by each loop, so a copy of the world starts
/// without it.
struct ParallelScratch {
    std::vector<WorkerScratch> workers;                                     ///< Per thread.
    std::vector<std::vector<Candidate>> wallCandidates, obstacleCandidates; ///< Per chunk of bodies.
    std::vector<ChunkManifolds> manifolds;                                  ///< Per chunk of pairs.
    std::vector<int> searches;                 ///< The candidates whose time of impact is recomputed.
    std::vector<int> searchAdvances;           ///< Each search's conservative advancements.
    std::vector<int> nearBodies;               ///< watchPath: the bodies whose boxes may meet a grown one.
    std::vector<ProjectionContact> projection; ///< Per candidate.
    std::vector<std::uint32_t> movedStamp;     ///< Per body: the projection pass that last moved it.
    std::vector<int> firstNonFinite;           ///< Per chunk of bodies.
    /// Per body: its free flight within the step (from the step's start, or from the last impulse
    /// an impact gave it, to the step's end) and when, in seconds into the step, that flight began.
    /// Every pose a step takes of a body is read from its path (World::syncBody, the searches), or
    /// the same bits without one (flyToHorizon, PathView). Flown lazily: a path is built the first
    /// time a body's flight to a time within the step (World::flightOf) or a search (SharedPath, in
    /// parallel) needs it; at the step's end, a body whose path nothing needed is flown to its end
    /// without one (flyToHorizon).
    std::vector<FlightPath> flights;
    std::vector<double> flightStart;
    /// 0: not flown yet (the body is where its flight began), 1: flown, 2: a search is flying it.
    std::vector<char> flown;
    /// Each body's flight from the step's start to its end, flown ahead by the workers while the
    /// impacts are resolved (flyToImpacts), when flownAhead: each body's state at the step's start
    /// (a copy: the impacts move the bodies meanwhile) and its pose at the step's end.
    std::vector<ImpactBodyState> flightBefore;
    std::vector<FlightEnd> flightAfter;
    bool flownAhead = false;
};

/// The step's scratch (kept from step to step so that a step does not allocate) and what
/// carries over between steps: each body's rotational energy and the warm-start cache.
struct World::Impl {
    std::vector<Candidate> candidates;
    std::vector<std::vector<int>> byBody; ///< Candidate indices per body.
    std::vector<std::pair<int, int>> pairs;
    std::vector<Aabb> swept; ///< Per body: the box its candidates were found for.
    GridBroadPhase grid;
    std::vector<std::uint32_t> contactSerial; ///< Per entry of contacts_: which resolve made it.
    std::uint32_t resolveSerial = 0;
    std::vector<double> spinEnergy; ///< Per body: rotational energy that free flight keeps.
    ContactSolver solver;
    struct HeapEntry {
        double toi;
        int candidate;
        std::uint32_t version;
        int search; ///< Its index in searchStarts.
    };
    std::vector<HeapEntry> heap; ///< Pending impacts, earliest first.
    /// The heap's order: a max-heap on `later` keeps the earliest impact (then the lowest
    /// candidate) at the front.
    static bool later(const HeapEntry& x, const HeapEntry& y) {
        return x.toi > y.toi || (x.toi == y.toi && x.candidate > y.candidate);
    }
    void pushImpact(const HeapEntry& e) {
        heap.push_back(e);
        std::push_heap(heap.begin(), heap.end(), later);
    }
    /// Takes the earliest pending impact off the heap.
    HeapEntry popImpact() {
        const HeapEntry e = heap.front();
        std::pop_heap(heap.begin(), heap.end(), later);
        heap.pop_back();
        return e;
    }
    /// False for an entry whose candidate has been recomputed since (its version moved on): it is
    /// stale and skipped.
    bool isCurrent(const HeapEntry& e) const {
        const Candidate& c = candidates[e.candidate];
        return c.fresh && c.version == e.version;
    }
    /// Where the search of each pending impact the step put on the heap started, and the state of
    /// each pair bounced at the step start (the record of an impact carries it, for
    /// World::explainImpact). Cleared at each step's start.
    std::vector<ImpactSearchStart> searchStarts;
    /// The pairs the current resolve may record as impacts: the pending impacts the event fired,
    /// or at the step start the touching pairs closing faster than the resting speed.
    std::vector<HeapEntry> fired;
    std::vector<int> stale;       ///< Candidates whose time of impact must be recomputed.
    std::vector<double> bodyTime; ///< Each body's clock within the step.
    /// Where the step's flight ends: the step's length, or the last impact's time when the step
    /// was cut short at the event cap (flyToImpacts).
    double stepEnd = 0.0;
    std::vector<int> involved; ///< Bodies whose contacts the next resolve gathers.
    std::vector<int> gathered; ///< Candidates gathered by resolve.
    std::vector<int> solved;   ///< Bodies with contacts in the current resolve.
    std::vector<char> inSolve;
    WorkerScratch local; ///< Scratch of the calling thread's own queries (the deepest overlap).
    std::vector<std::uint32_t> candidateStamp;
    std::uint32_t stamp = 0;
    /// Not the step's: the bodies' hierarchy for picking, refitted after every change to a body.
    BodyBvh bodyBvh;
    Uncopied<ParallelScratch> parallel;

    /// ParallelScratch::workers, one per thread of `jobs`.
    std::vector<WorkerScratch>& workers(const JobSystem* jobs) {
        std::vector<WorkerScratch>& w = parallel.value.workers;
        w.resize(jobs ? static_cast<std::size_t>(jobs->threads()) : 1);
        return w;
    }
};

/// Here, inline: resolve and the impact loop call it for every candidate of every body an impulse
/// moved.
inline void World::invalidate(int candidate) {
    Candidate& c = impl_->candidates[candidate];
    if (!c.fresh) return;
    c.fresh = false;
    ++c.version;
    impl_->stale.push_back(candidate);
}

/// Body i's flight path, flown first if it is not yet (its state now is where the flight begins:
/// a body is flown on only along its path). Not from parallel code but for a body of its own.
inline const FlightPath& World::flightOf(int i) {
    ParallelScratch& parallel = impl_->parallel.value;
    const auto k = static_cast<std::size_t>(i);
    if (!parallel.flown[k]) {
        flyPath(i);
        parallel.flown[k] = 1;
    }
    return parallel.flights[k];
}

/// Flies body i's path from its state now, where its flight began.
inline void World::flyPath(int i) {
    ParallelScratch& parallel = impl_->parallel.value;
    const auto k = static_cast<std::size_t>(i);
    parallel.flights[k].fly(bodies_[i], impl_->spinEnergy[k],
                            flightHorizon(settings_.timeStep, parallel.flightStart[k]));
}

/// Flies body i on to `time` (free_flight.hpp): its pose then, read from its flight path. Each
/// body keeps its own clock within the step and is flown forward only when an impact involves it
/// (or at the end), so an impact costs the bodies it touches, not all of them. Here, inline: every
/// stage calls it, per candidate.
inline void World::syncBody(int i, double time) {
    double& clock = impl_->bodyTime[static_cast<std::size_t>(i)];
    if (time > clock) {
        const double start = impl_->parallel.value.flightStart[static_cast<std::size_t>(i)];
        flightOf(i).poseAt(static_cast<float>(time - start), bodies_[i]);
        clock = time;
    }
}

} // namespace kz
