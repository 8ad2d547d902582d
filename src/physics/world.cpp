// The world step: free flight with exact times of impact (no tunnelling), contacts resolved by
// sequential impulses at each impact, and a final position projection. World keeps the
// orchestration; each stage has its own file:
//
// step():
//   1. applyGravity: v += g h.
//   2. findCandidates (candidates.cpp): the broad phase (a uniform grid) on each body's bounding
//      sphere grown by twice its travel in the step, plus the walls and obstacles (by their
//      world bounds) each can reach: the candidate pairs for the step. A body that an impact
//      sends outside its box looks for new partners then (watchPath).
//   3. resolveTouching: every clock at 0, then resolveContacts(0, StepStart) (resolve.cpp) on
//      the contacts that touch now (narrow phase in narrow_phase.cpp, solver in
//      contact_solver.cpp), warm started from the last step.
//   4. flyToImpacts (impacts.cpp): take the earliest time of impact off a heap (time_of_impact.cpp:
//      exact for sphere-wall, sphere-sphere and sphere-triangle, conservative advancement for
//      boxes), fly the bodies involved (each body keeps its own clock: free_flight.cpp) to it,
//      resolve their contacts, record the impacts (impacts()), and recompute the impacts of the
//      bodies whose velocity changed. Until the step is used up.
//   5. finishStep: fly every body to the end of the step, keep each pair's latest contacts, and
//      push apart what still overlaps by more than kSlop (position_projection.cpp: positions
//      only, no energy added).
// The queries (energy, momenta, penetration, impact preview) are in world_queries.cpp.
#include "world.hpp"

#include "free_flight.hpp"
#include "geom/mass_properties.hpp"
#include "hull_body.hpp"
#include "world_impl.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kz {
namespace {

glm::vec3 principalInertia(ShapeType shape, float mass, float radius, const glm::vec3& half) {
    if (shape == ShapeType::Sphere) return glm::vec3(0.4f * mass * radius * radius);
    const glm::vec3 s = half * half; // (2h)^2 / 12 = h^2 / 3
    return (mass / 3.0f) * glm::vec3(s.y + s.z, s.x + s.z, s.x + s.y);
}

/// A capsule's, cylinder's or hull's size and mass properties (mass_properties.hpp): its bounding
/// sphere and box, mass and principal moments. A hull must be in its body frame (makeHullBody).
void setConvexShape(const BodyDesc& desc, Body& b) {
    MassProperties mass;
    if (desc.shape == ShapeType::Hull) {
        if (!desc.hull || !isInBodyFrame(*desc.hull))
            throw std::invalid_argument(
                "World::addBody: a hull body needs a hull in its body frame (makeHullBody)");
        b.hull = desc.hull;
        mass = massPropertiesOfHull(*desc.hull);
        glm::vec3 reach(0.0f);
        float radius = 0.0f;
        for (const glm::vec3& v : desc.hull->vertices) {
            reach = glm::max(reach, glm::abs(v));
            radius = std::max(radius, glm::length(v));
        }
        b.halfExtents = reach;
        b.radius = radius * (1.0f + 1e-6f); // covers the lengths' rounding
    } else {
        const double r = desc.radius, h = desc.halfHeight;
        const bool capsule = desc.shape == ShapeType::Capsule;
        mass = capsule ? massPropertiesOfCapsule(r, h) : massPropertiesOfCylinder(r, h);
        b.halfHeight = desc.halfHeight;
        b.halfExtents =
            glm::vec3(desc.radius, capsule ? desc.halfHeight + desc.radius : desc.halfHeight, desc.radius);
        b.radius = (1.0f + 1e-6f) *
                   (capsule ? desc.halfHeight + desc.radius : std::hypot(desc.halfHeight, desc.radius));
    }
    const double m = desc.mass > 0.0f ? double(desc.mass) : double(desc.density) * mass.volume;
    b.mass = static_cast<float>(m);
    b.invMass = 1.0f / b.mass;
    const double perDensity = m / mass.volume;
    b.inertiaLocal =
        glm::vec3(perDensity * glm::dvec3(mass.inertia[0][0], mass.inertia[1][1], mass.inertia[2][2]));
}

} // namespace

World::World(Room room, WorldSettings settings)
    : room_(std::move(room)), settings_(settings), impl_(std::make_unique<Impl>()) {
    setTimeScale(settings_.timeScale);
    settings_.gravity = glm::vec3(0.0f);
    setGravity(settings.gravity);
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

World::World(const World& other)
    : room_(other.room_), settings_(other.settings_), bodies_(other.bodies_), obstacles_(other.obstacles_),
      contacts_(other.contacts_), impacts_(other.impacts_), accumulator_(other.accumulator_),
      paused_(other.paused_), singleStepPending_(other.singleStepPending_), stepCount_(other.stepCount_),
      lastStepImpacts_(other.lastStepImpacts_), lastStepAdvances_(other.lastStepAdvances_),
      lastStepCapped_(other.lastStepCapped_), lastStepLost_(other.lastStepLost_),
      cappedSteps_(other.cappedSteps_), haltedBody_(other.haltedBody_), jobs_(other.jobs_),
      impl_(std::make_unique<Impl>(*other.impl_)) {}

int World::addBody(const BodyDesc& desc) {
    Body b;
    b.name = desc.name;
    b.shape = desc.shape;
    if (isConvexShape(desc.shape)) {
        setConvexShape(desc, b);
    } else {
        b.halfExtents = desc.shape == ShapeType::Sphere ? glm::vec3(desc.radius) : desc.halfExtents;
        b.radius = desc.shape == ShapeType::Sphere ? desc.radius : glm::length(desc.halfExtents);
        const float volume = desc.shape == ShapeType::Sphere
                                 ? 4.0f / 3.0f * 3.14159265358979f * desc.radius * desc.radius * desc.radius
                                 : 8.0f * desc.halfExtents.x * desc.halfExtents.y * desc.halfExtents.z;
        b.mass = desc.mass > 0.0f ? desc.mass : desc.density * volume;
        b.invMass = 1.0f / b.mass;
        b.inertiaLocal = principalInertia(desc.shape, b.mass, desc.radius, desc.halfExtents);
    }
    b.position = desc.position;
    b.orientation = glm::normalize(desc.orientation);
    b.velocity = desc.velocity;
    b.angularVelocity = desc.angularVelocity;
    b.angularMomentum = inertiaWorld(b) * b.angularVelocity;
    b.restitution = desc.restitution;
    b.friction = desc.friction;
    b.rollingResistance = desc.rollingResistance;
    b.color = desc.color;
    impl_->spinEnergy.push_back(rotationalEnergy(b.orientation, b.angularMomentum, b.inertiaLocal));
    bodies_.push_back(std::move(b));
    impl_->bodyBvh.insertLast(bodies_);
    return static_cast<int>(bodies_.size()) - 1;
}

int World::addObstacle(Obstacle obstacle) {
    obstacles_.push_back(std::move(obstacle));
    return static_cast<int>(obstacles_.size()) - 1;
}

void World::setBodyVelocity(int i, const glm::vec3& velocity, const glm::vec3& angularVelocity) {
    Body& b = bodies_.at(static_cast<std::size_t>(i));
    b.velocity = velocity;
    b.angularVelocity = angularVelocity;
    b.angularMomentum = inertiaWorld(b) * angularVelocity;
    impl_->spinEnergy[static_cast<std::size_t>(i)] =
        rotationalEnergy(b.orientation, b.angularMomentum, b.inertiaLocal);
}

void World::setBodyPosition(int i, const glm::vec3& position) {
    bodies_.at(static_cast<std::size_t>(i)).position = position;
    impl_->bodyBvh.update(bodies_, i);
}

void World::setBody(int i, const Body& body) {
    Body& b = bodies_.at(static_cast<std::size_t>(i));
    b = body;
    impl_->spinEnergy[static_cast<std::size_t>(i)] =
        rotationalEnergy(b.orientation, b.angularMomentum, b.inertiaLocal);
    impl_->bodyBvh.update(bodies_, i);
}

void World::setTimeScale(float scale) {
    if (!std::isfinite(scale)) return; // a NaN would poison the accumulator for good
    settings_.timeScale = std::clamp(scale, 0.05f, 2.0f);
}

void World::setGravity(const glm::vec3& g) {
    if (!std::isfinite(g.x) || !std::isfinite(g.y) || !std::isfinite(g.z)) return;
    const double length = glm::length(glm::dvec3(g));
    settings_.gravity =
        length > limits::kMaxGravity ? glm::vec3(glm::dvec3(g) * (limits::kMaxGravity / length)) : g;
}

void World::setMaterial(float restitution, float friction, float rollingResistance) {
    for (Body& b : bodies_) {
        if (!std::isnan(restitution)) b.restitution = std::clamp(restitution, 0.0f, 1.0f);
        if (!std::isnan(friction)) b.friction = std::clamp(friction, 0.0f, limits::kMaxFriction);
        if (!std::isnan(rollingResistance))
            b.rollingResistance = std::clamp(rollingResistance, 0.0f, limits::kMaxRollingResistance);
    }
}

bool World::haltOnNonFiniteState() {
    if (haltedBody_ >= 0) return true;
    const auto finite = [](const auto& v) {
        for (glm::length_t k = 0; k < v.length(); ++k)
            if (!std::isfinite(v[k])) return false;
        return true;
    };
    // The first body with a non-finite value: each chunk's first, then the first chunk's that has one.
    std::vector<int>& first = impl_->parallel.value.firstNonFinite;
    first.assign(chunkCount(jobs_.get(), bodies_.size(), kFiniteGrain), -1);
    parallelFor(jobs_.get(), bodies_.size(), kFiniteGrain, [&](const JobChunk& chunk) {
        for (std::size_t i = chunk.begin; i < chunk.end; ++i) {
            const Body& b = bodies_[i];
            if (!finite(b.position) || !finite(b.orientation) || !finite(b.velocity) ||
                !finite(b.angularVelocity) || !finite(b.angularMomentum)) {
                first[chunk.index] = static_cast<int>(i);
                return;
            }
        }
    });
    for (const int i : first) {
        if (i >= 0) {
            haltedBody_ = i;
            return true;
        }
    }
    return false;
}

int World::advance(float frameSeconds) {
    const int steps = dueSteps(frameSeconds);
    for (int i = 0; i < steps; ++i)
        step();
    return steps;
}

int World::dueSteps(float frameSeconds) {
    if (halted()) return 0;
    if (paused_) {
        if (!singleStepPending_) return 0;
        singleStepPending_ = false;
        return 1;
    }
    singleStepPending_ = false;
    if (!(frameSeconds > 0.0f)) return 0;
    accumulator_ += frameSeconds * settings_.timeScale;
    int steps = 0;
    while (accumulator_ >= settings_.timeStep && steps < settings_.maxStepsPerAdvance) {
        accumulator_ -= settings_.timeStep;
        ++steps;
    }
    if (steps == settings_.maxStepsPerAdvance) accumulator_ = std::min(accumulator_, settings_.timeStep);
    return steps;
}

void World::step() {
    singleStepPending_ = false; // any step is the single step a paused world was waiting for
    if (haltOnNonFiniteState()) return;
    applyGravity();
    findCandidates();
    resolveTouching();
    startFlights();
    flyToImpacts();
    finishStep();
    impl_->bodyBvh.refit(bodies_); // picking's hierarchy follows the bodies (not a stage: a cache)
}

void World::applyGravity() {
    parallelFor(jobs_.get(), bodies_.size(), kBodyGrain, [&](const JobChunk& chunk) {
        for (std::size_t i = chunk.begin; i < chunk.end; ++i)
            bodies_[i].velocity += settings_.gravity * settings_.timeStep;
    });
}

void World::resolveTouching() {
    // Every body's clock starts at 0, and every body takes part in the first resolve.
    Impl& scratch = *impl_;
    const int n = static_cast<int>(bodies_.size());
    contacts_.clear();
    impacts_.clear();
    scratch.searchStarts.clear();
    scratch.fired.clear();
    scratch.contactSerial.clear();
    lastStepImpacts_ = 0;
    lastStepAdvances_ = 0;
    lastStepCapped_ = false;
    lastStepLost_ = 0.0f;
    scratch.bodyTime.assign(static_cast<std::size_t>(n), 0.0);
    scratch.involved.clear();
    for (int i = 0; i < n; ++i)
        scratch.involved.push_back(i);
    resolveContacts(0.0, ResolvePass::StepStart);
    recordImpacts(0.0, true);
}

void World::startFlights() {
    ParallelScratch& parallel = impl_->parallel.value;
    parallel.flights.resize(bodies_.size());
    parallel.flightStart.assign(bodies_.size(), 0.0);
    parallel.flown.assign(bodies_.size(), 0);
}

void World::startFlight(int i, double now) {
    ParallelScratch& parallel = impl_->parallel.value;
    const auto k = static_cast<std::size_t>(i);
    parallel.flightStart[k] = now;
    parallel.flown[k] = 0;
}

void World::finishStep() {
    // Every body to the step's end along its flight path. A step cut short at the event cap ends
    // every body's flight at its last impact (flyToImpacts).
    // A path nothing needed is flown in the worker's scratch path: the same flight, unkept. A body
    // whose flight began at the step's start was flown ahead to its end (flyToImpacts).
    const double end = impl_->stepEnd;
    const bool capped = lastStepCapped();
    ParallelScratch& parallel = impl_->parallel.value;
    std::vector<WorkerScratch>& workers = impl_->workers(jobs_.get());
    parallelFor(jobs_.get(), bodies_.size(), kBodyGrain, [&](const JobChunk& chunk) {
        FlightPath& scratch = workers[static_cast<std::size_t>(chunk.worker)].flight;
        for (std::size_t i = chunk.begin; i < chunk.end; ++i) {
            double& clock = impl_->bodyTime[i];
            if (!(end > clock)) continue;
            const double start = parallel.flightStart[i];
            const float horizon = flightHorizon(settings_.timeStep, start);
            if (parallel.flownAhead && !capped && start == 0.0) { // flown ahead (flyToImpacts)
                const FlightEnd& after = parallel.flightAfter[i];
                bodies_[i].position = after.position;
                bodies_[i].orientation = after.orientation;
                bodies_[i].angularVelocity = after.angularVelocity;
            } else if (parallel.flown[i]) {
                parallel.flights[i].poseAt(static_cast<float>(end - start), bodies_[i]);
            } else if (static_cast<float>(end - start) == horizon) {
                flyToHorizon(bodies_[i], impl_->spinEnergy[i], horizon, bodies_[i]);
            } else {
                scratch.fly(bodies_[i], impl_->spinEnergy[i], horizon);
                scratch.poseAt(static_cast<float>(end - start), bodies_[i]);
            }
            clock = end;
        }
    });
    keepLatestContacts();
    projectPositions();
    ++stepCount_;
    haltOnNonFiniteState();
}

} // namespace kz
