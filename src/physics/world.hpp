// The rigid-body world: bodies in a plane-bounded room with static mesh obstacles, stepped at a
// fixed rate. The step's stages each have their own file (see world.cpp for the list).
#pragma once

#include "body.hpp"
#include "geom/contact.hpp"
#include "impact_record.hpp"
#include "limits.hpp"
#include "obstacle.hpp"
#include "partner.hpp"
#include "room.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace kz {

struct WorldSettings {
    glm::vec3 gravity{0.0f};        ///< m/s^2; zero for the classic bouncing demo. As setGravity.
    float timeStep = 1.0f / 120.0f; ///< Fixed step, seconds.
    float timeScale = 1.0f;         ///< Slow motion to fast forward, clamped to [0.05, 2].
    int maxStepsPerAdvance = 8;     ///< Cap on steps per advance() call (avoids the spiral of death).
};

/// A contact point the solver saw in the last step (for debug drawing and stats).
struct ContactInfo {
    int bodyA;                  ///< Index of the first body.
    int bodyB;                  ///< Index of the second body, or -1 for a wall or an obstacle.
    int wall;                   ///< Plane index when A touches a wall, else -1.
    glm::vec3 point;            ///< World contact point.
    glm::vec3 normal;           ///< Unit, from B (or the wall or obstacle) toward A.
    float depth;                ///< Penetration; down to about -1 mm (half the contact margin) for a pair
                                ///< that touches across a small gap.
    int obstacle = -1;          ///< Obstacle index when A touches an obstacle, else -1.
    std::uint32_t triangle = 0; ///< The obstacle's mesh triangle the point lies on (obstacles only).

    /// bodyB, wall and obstacle as one tagged index.
    Partner partner() const {
        return bodyB >= 0      ? Partner::body(bodyB)
               : obstacle >= 0 ? Partner::obstacle(obstacle)
                               : Partner::wall(wall);
    }
};

/// Where a body's centre, moving along its velocity, first meets a wall or a mesh obstacle.
struct ImpactPreview {
    int wall;                   ///< Plane index, or -1 when a mesh obstacle comes first.
    glm::vec3 point;            ///< Where the ray from the centre along the velocity meets the wall polygon
                                ///< (or the obstacle's triangle).
    float centreDistance;       ///< Distance from the centre to that point.
    float timeToImpact;         ///< Seconds until the body's surface reaches the wall's plane (or the hit
                                ///< triangle's plane) (0 if touching).
    int obstacle = -1;          ///< Obstacle index when a mesh obstacle comes first, else -1.
    std::uint32_t triangle = 0; ///< The obstacle's triangle the centre's ray meets.
};

struct PairManifold;     // world_impl.hpp
struct WorkerScratch;    // world_impl.hpp
struct AdvancementTrace; // explain_advancement.hpp
class BodyBvh;           // body_bvh.hpp
class JobSystem;         // job_system.hpp
class FlightPath;        // free_flight.hpp

class World {
public:
    explicit World(Room room, WorldSettings settings = {});
    ~World();
    World(const World& other);
    World(World&&) noexcept;
    World& operator=(World&&) noexcept;
    World& operator=(const World&) = delete;

    /// Adds a body; returns its index.
    int addBody(const BodyDesc& desc);
    /// Adds a static mesh obstacle (see makeObstacle); returns its index in obstacles().
    int addObstacle(Obstacle obstacle);

    /// One fixed step of settings().timeStep seconds (ignores pause; it is the single step a
    /// requestSingleStep() asked for, if any). Does nothing once halted().
    void step();
    /// Feeds real frame time (scaled by timeScale) to the fixed-step accumulator and takes the
    /// steps that are due, at most maxStepsPerAdvance. Does nothing while paused, except to run
    /// a pending single step. Returns the number of steps taken.
    int advance(float frameSeconds);
    /// advance() without the steps: feeds the frame time to the accumulator (or takes the pending
    /// single step) and returns how many steps are due, for a caller that takes them itself with
    /// step() (a session counts every step: src/session). advance() is dueSteps() then that many
    /// step() calls.
    int dueSteps(float frameSeconds);
    void setPaused(bool paused) { paused_ = paused; }
    bool paused() const { return paused_; }
    /// While paused, the next advance() takes exactly one step.
    void requestSingleStep() { singleStepPending_ = true; }

    /// The threads step() runs its parallel stages on (job_system.hpp); null, the default: the
    /// calling thread alone. Not part of the state: every thread count gives the same bits, and a
    /// copy of the world shares the same threads.
    void setJobs(std::shared_ptr<JobSystem> jobs) { jobs_ = std::move(jobs); }
    const std::shared_ptr<JobSystem>& jobs() const { return jobs_; }

    /// Sets body i's linear and angular (world frame) velocity.
    void setBodyVelocity(int i, const glm::vec3& velocity, const glm::vec3& angularVelocity);
    /// Moves body i (e.g. dragged by the user); velocities are unchanged.
    void setBodyPosition(int i, const glm::vec3& position);
    /// Replaces body i with `body`, every field as given (a test's NaN included; the angular
    /// velocity is not recomputed from the momentum): the one way to write a body's fields
    /// directly, so that the world's caches that follow the bodies (bodyBvh) follow it too.
    void setBody(int i, const Body& body);

    /// Sets the gravity, shortened to at most limits::kMaxGravity; a non-finite vector is ignored.
    void setGravity(const glm::vec3& g);
    void setTimeScale(float scale);
    /// Sets restitution, friction and rolling resistance on every body, clamped to [0, 1],
    /// [0, limits::kMaxFriction] and [0, limits::kMaxRollingResistance]; a NaN leaves that value
    /// as it was.
    void setMaterial(float restitution, float friction, float rollingResistance);

    /// Whether the world has stopped on a non-finite state. A step checks every body's position,
    /// orientation, velocity, angular velocity and angular momentum before it starts and after it
    /// ends; the first NaN or infinity found (e.g. written through setBody or setBodyVelocity)
    /// halts the world: step() and advance() then do nothing and stepCount() stays, so the bad
    /// value is left where it is for reports and the panel, instead of spreading into the broad
    /// phase. Within the documented ranges (limits.hpp) it never happens.
    bool halted() const { return haltedBody_ >= 0; }
    /// The first body found with a non-finite state, or -1 while not halted.
    int haltedBody() const { return haltedBody_; }

    const WorldSettings& settings() const { return settings_; }
    const Room& room() const { return room_; }
    /// The bodies, read only: change them through addBody, setBodyVelocity, setBodyPosition,
    /// setBody or step, which keep bodyBvh() up to date.
    std::span<const Body> bodies() const { return bodies_; }
    std::span<const Obstacle> obstacles() const { return obstacles_; }
    /// The last step's contact points, each touching pair's from the last time it was resolved in
    /// that step (the step start or a later impact), so a pair is counted once.
    const std::vector<ContactInfo>& contacts() const { return contacts_; }
    std::uint64_t stepCount() const { return stepCount_; }
    /// Impact events: the times of impact the last step stopped at (several pairs may meet at one).
    int lastStepImpacts() const { return lastStepImpacts_; }
    /// The most impact events one step takes: 8 per body plus 64. A step that has taken that many
    /// and still has an impact ahead within it is cut short: every body flies to the time of the
    /// last impact taken and no further (keeping its velocity), so nothing passes another body or a
    /// wall unchecked; the rest of that step's flight is lost. Bounded work for any world the
    /// limits accept (limits.hpp), at the price of a slower world where the cap bites.
    int eventCap() const { return kEventsPerBody * static_cast<int>(bodies_.size()) + kEventCapBase; }
    static constexpr int kEventsPerBody = 8;
    static constexpr int kEventCapBase = 64;
    /// The conservative advancements the last step's searches for times of impact took, all
    /// together (each search takes at most 128).
    std::int64_t lastStepAdvances() const { return lastStepAdvances_; }
    /// The most advancements one step's searches take: 64 per body plus 4,096. A step whose
    /// searches have taken that many, once an event's searches are done, is cut short as at the
    /// event cap (its events each search again, and a box spinning fast against another advances by
    /// small steps). Bounded work, with eventCap(), for any world the limits accept.
    std::int64_t advanceCap() const {
        return kAdvancesPerBody * static_cast<std::int64_t>(bodies_.size()) + kAdvanceCapBase;
    }
    static constexpr std::int64_t kAdvancesPerBody = 64;
    static constexpr std::int64_t kAdvanceCapBase = 4096;
    /// Whether the last step reached eventCap() or advanceCap() and was cut short, and how much of
    /// its flight it lost (seconds; 0 when it was not cut short).
    bool lastStepCapped() const { return lastStepCapped_; }
    float lastStepLost() const { return lastStepLost_; }
    /// The steps this world has cut short at either cap since it was built.
    std::uint64_t cappedSteps() const { return cappedSteps_; }
    /// The last step's impacts, in the order the step met them (by time; at one time, by pair),
    /// one record per pair and impact event that the solver pushed apart (impact_record.hpp).
    /// Cleared at each step's start; the vector keeps its capacity, so a step allocates only when
    /// it has more impacts than any before it. No cap: a record per pair and event, and a step's
    /// events are capped at eventCap().
    const std::vector<ImpactRecord>& impacts() const { return impacts_; }
    double simTime() const { return static_cast<double>(stepCount_) * settings_.timeStep; }

    double kineticEnergy() const;
    glm::dvec3 linearMomentum() const;
    /// About the world origin.
    glm::dvec3 angularMomentum() const;
    /// Deepest current overlap between two bodies, a body and a wall or a body and an obstacle
    /// (0 if none).
    float maxPenetration() const;
    /// Bodies whose centre is outside the room.
    int escapedCount() const;

    /// The impact preview for body i, or empty when it is at rest (slower than 1 mm/s) or hits no
    /// wall polygon and no obstacle.
    std::optional<ImpactPreview> impactPreview(int i) const;

    /// The bounding volume hierarchy over the bodies' bounding spheres that picking walks
    /// (pick.hpp, body_bvh.hpp): a cache, never part of the state. Always up to date: addBody
    /// inserts a leaf, setBodyPosition and setBody move one, and step() ends by moving the leaves
    /// of the bodies that left their loose boxes (rebuilding the tree when it has grown loose).
    const BodyBvh& bodyBvh() const;

    /// The heap bytes a copy of this world holds (its bodies, contacts, obstacles' placements and
    /// the step's caches; meshes are shared, not counted), plus the object itself: what a
    /// History keyframe costs (world_queries.cpp).
    std::size_t memoryBytes() const;

    /// Seconds, within `remaining`, until body a and a body, wall or obstacle partner next come
    /// within their impact gap, as a step computes it for that pair (exact for spheres against
    /// spheres, walls and mesh triangles, conservative advancement for boxes), from the bodies'
    /// current poses: INFINITY for none, for a partner that is body a itself, or an index out of
    /// range (explain_advancement.cpp).
    float timeOfImpactBetween(int a, Partner partner, float remaining) const;
    /// timeOfImpactBetween with its steps, for the query lab (explain_advancement.hpp).
    AdvancementTrace explainTimeOfImpact(int a, Partner partner, float remaining) const;
    /// "Why here?": the search that found a recorded impact's time, run again from the bodies'
    /// states the record kept (ImpactRecord::search) with its steps recorded: its time is the
    /// step's, bit for bit (record.time = record.search.time + the trace's time). Needs this world
    /// or a copy or later state of it (the bodies' shapes, the walls and meshes the record's step
    /// had); not valid for indices out of range.
    AdvancementTrace explainImpact(const ImpactRecord& record) const;

private:
    struct Impl;        ///< The step's scratch and caches (world_impl.hpp).
    struct SearchStart; ///< What a time-of-impact search starts from (time_of_impact_steps.hpp).
    /// The two passes of the contact resolution: at the step start every body's touching contacts,
    /// warm started from and stored to the impulse cache; at an impact the contacts of the bodies
    /// it involves, from zero impulses.
    enum class ResolvePass { StepStart, Impact };

    // The stages of step(), in order.
    void applyGravity();    ///< world.cpp
    void findCandidates();  ///< candidates.cpp
    void resolveTouching(); ///< world.cpp
    void startFlights();    ///< world.cpp
    void flyToImpacts();    ///< impacts.cpp
    void finishStep();      ///< world.cpp

    /// Resolves the contacts of scratch.involved at time `now` (resolve.cpp).
    void resolveContacts(double now, ResolvePass pass);
    // Candidate pairs (candidates.cpp; invalidate in world_impl.hpp).
    /// A pair found after the step start (by watchPath): its time of impact is due.
    void addCandidate(int a, Partner partner);
    void watchPath(int i, double now);
    void invalidate(int candidate);
    // Free flight (free_flight.cpp; syncBody in world_impl.hpp).
    void syncBody(int i, double time);
    /// Body i's free flight begins at `now` (its state then) and goes to the step's end: its path is
    /// flown when first needed (flightOf).
    void startFlight(int i, double now);
    /// Body i's flight path, flown first when it is not yet (world_impl.hpp).
    const FlightPath& flightOf(int i);
    /// Flies body i's path from its state now, where its flight begins (world_impl.hpp).
    void flyPath(int i);
    // Times of impact (time_of_impact.cpp).
    /// From `now` (its bodies flown there) within `remaining`. Sets the candidate's target; `near`
    /// is scratch for an obstacle's triangles. Flies the flight paths it reads that are not flown
    /// yet (SharedPath: searches run in parallel).
    /// `advances`: the conservative advancements it took.
    float timeOfImpact(int candidate, double now, float remaining, std::vector<Triangle>& near,
                       int& advances) const;
    /// The time of impact from `start` within `remaining`, setting `target` (the gap at which the
    /// impact counts) and reporting its steps to `observe`; `near` is the obstacle's triangles'
    /// scratch (time_of_impact_steps.hpp).
    template <class Observe>
    float searchTimeOfImpact(const SearchStart& start, float remaining, float& target,
                             std::vector<Triangle>& near, Observe& observe) const;
    template <class Observe>
    float pairTimeOfImpact(const SearchStart& start, float remaining, float& target, Observe& observe) const;
    template <class Observe>
    float obstacleTimeOfImpact(const SearchStart& start, float remaining, float& target,
                               std::vector<Triangle>& near, Observe& observe) const;
    // flyToImpacts' steps (impacts.cpp).
    /// The stale candidates' times of impact from `now` within `remaining`, searched in parallel
    /// after their bodies are flown to `now` (a search reads only its pair's two bodies); they are
    /// listed in ParallelScratch::searches.
    void searchStaleImpacts(double now, float remaining);
    /// At the first event, when there are workers to give it to: every body's state then into
    /// ParallelScratch::flightBefore, flownAhead set, and true (the workers may fly ahead).
    bool readyFlightAhead();
    /// The impacts the searches found within the step onto the heap, with where each search
    /// started (searched from `now` within `remaining`).
    void pushSearchedImpacts(double now, float remaining);
    /// The current impacts at the earliest time off the heap into Impl::fired, their bodies into
    /// Impl::involved, each candidate invalidated (its next impact is due): that time, or nothing
    /// when no impact is left.
    std::optional<double> popEarliestImpacts();
    /// Drops the stale entries off the heap's top: whether an impact is still due.
    bool impactDue();
    // The impact log (impacts.cpp).
    /// At the step start, before the solve: the touching pairs that close faster than the resting
    /// speed (they arrived within the contact reach as the last step ended) into Impl::fired,
    /// with their states.
    void noteStepStartImpacts();
    /// The records of the pairs in Impl::fired (an event's, or the step start's), from the
    /// solver's points of the resolve that just ran at `now`.
    void recordImpacts(double now, bool atStepStart);
    /// The gap between body a and its partner at a search's start (explainImpact of a pair
    /// bounced at the step start: explain_advancement.cpp).
    float gapAtStart(const SearchStart& start, std::vector<Triangle>& near) const;
    /// The time of impact of body a and its partner as they are now, within `remaining`, its steps
    /// recorded into `out` when there is one (explain_advancement.cpp).
    float searchNow(int a, Partner partner, float remaining, AdvancementTrace* out) const;
    // Narrow phase (narrow_phase.cpp).
    /// Contacts of body a with a body or wall partner, within the contact margin.
    std::optional<Manifold> contactOf(int a, Partner partner) const;
    /// Contacts of body a with an obstacle within `margin`, one manifold per triangle, deepest
    /// first, without points that lie on a deeper triangle's contact (see narrow_phase.cpp);
    /// `scratch` holds the triangles near the body.
    void obstacleContactsOf(int a, int obstacle, float margin, std::vector<PairManifold>& out,
                            WorkerScratch& scratch) const;
    /// The manifolds of one candidate pair as they are now, within the contact margin: an obstacle's
    /// per touched triangle, a body's or a wall's at most one.
    void pairManifolds(int candidate, WorkerScratch& scratch, std::vector<PairManifold>& out) const;
    /// The triangles of an obstacle (world frame) that body a's bounding sphere, grown by
    /// `reach`, may touch.
    void trianglesNear(const Body& a, int obstacle, float reach, std::vector<Triangle>& out,
                       std::vector<std::uint32_t>* ids = nullptr) const;
    // Resolving contacts (resolve.cpp).
    /// Hands the touching points of the gathered candidate pairs, flown to `now`, to the contact
    /// solver (the narrow phase in parallel, the points added in pair order).
    void gatherContactPoints(double now);
    /// Hands the points of one candidate pair's manifolds to the contact solver.
    void addContactPoints(int candidate, std::span<const PairManifold> manifolds);
    void keepLatestContacts();
    // The end of the step (position_projection.cpp).
    void projectPositions();
    /// Halts the world (see halted()) when a body's state is not finite; returns halted().
    bool haltOnNonFiniteState();

    Room room_;
    WorldSettings settings_;
    std::vector<Body> bodies_;
    std::vector<Obstacle> obstacles_;
    std::vector<ContactInfo> contacts_;
    std::vector<ImpactRecord> impacts_;
    float accumulator_ = 0.0f;
    bool paused_ = false;
    bool singleStepPending_ = false;
    std::uint64_t stepCount_ = 0;
    int lastStepImpacts_ = 0;
    std::int64_t lastStepAdvances_ = 0;
    bool lastStepCapped_ = false;
    float lastStepLost_ = 0.0f;
    std::uint64_t cappedSteps_ = 0;
    int haltedBody_ = -1;
    std::shared_ptr<JobSystem> jobs_;
    std::unique_ptr<Impl> impl_; ///< Step scratch: candidates, impact heap, contact solver, clocks.
};

} // namespace kz
