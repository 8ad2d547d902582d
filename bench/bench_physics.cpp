// Physics step benchmark: Kolize (kz::World) against Bullet (btDiscreteDynamicsWorld) and, when
// configured with -DKZ_JOLT_DIR=<Jolt install prefix>, Jolt Physics (jolt_scene.hpp) on the same
// scenes, side by side.
//
// Scenes (kConfigs): 1,000 bodies in a 10 m cube room and 10,000 bodies in a 20 m cube room at
// 1-5 m/s, and the dense fast one, 2,000 bodies in the 10 m room at 20-40 m/s; half spheres
// (radius 0.1-0.2 m), half boxes (half extents 0.1-0.2 m, random orientation and angular velocity).
// The mixed one (mixed-1000): 1,000 bodies in the 10 m room at 1-5 m/s, a fifth each of spheres,
// boxes, capsules (radius 0.08-0.15 m, half height 0.05-0.15 m), cylinders (radius and half height
// 0.1-0.2 m) and hulls (the hull of 12 random points on an ellipsoid of semi-axes 0.1-0.2 m, each
// body its own), turned and spinning as the boxes. Density 1000 kg/m^3, speeds uniform in the scene's range
// in random directions, restitution 1, friction 0, no gravity. Each scene is generated once from std::mt19937
// with a fixed seed, on a jittered grid so that nothing overlaps at the start, and every engine gets exactly
// the same bodies (shape, size, mass, pose, linear and angular velocity) and the same six walls (a static
// plane per plane of kz::boxRoom, restitution 1, friction 0: btStaticPlaneShape, JPH::PlaneShape).
// The new shapes are btCapsuleShape, btCylinderShape and btConvexHullShape in Bullet (the hull's
// points shrunk by its 0.01 m margin with btConvexHullComputer, as Bullet's own tools make hulls;
// their exact principal moments given, Bullet's own being a bounding-box estimate), and
// CapsuleShape, CylinderShape and ConvexHullShape in Jolt (its default convex radius, 0.05 m, inside
// the points; its own exact inertia).
//
// Every engine takes one fixed step of 1/120 s per call: kz::World::step() with the default
// WorldSettings, and btDiscreteDynamicsWorld::stepSimulation(1/120, 0) (maxSubSteps 0: exactly one
// step of the given length, no interpolation). Bullet runs with its defaults otherwise (Dbvt
// broadphase, sequential-impulse solver, discrete collision, no CCD, default collision margins),
// with damping 0, rolling friction 0 and deactivation disabled. Jolt: PhysicsSystem::Update(1/120, 1)
// with the walls as static PlaneShapes, sleeping off, no damping, its defaults otherwise (its
// boxes' convex radius 0.05 m), four ways: discrete (Jolt) or EMotionQuality::LinearCast on every
// body (JoltCCD), each also with the angular speed limit and the restitution threshold lifted
// (JoltElastic, JoltCCDElastic: Jolt's defaults of 47 rad/s and 1 m/s take energy out of these
// scenes).
//
// BM_Step/<engine>/<bodies>/threads:<n>: one iteration is one step of a world that was built and
// warmed up for kWarmupSteps steps before the timed loop, stepped on n threads: Kolize on 1 (no job
// system: the sequential step) and on all the machine's cores (kz::JobSystem::hardwareThreads(), when
// more than 1), which give the same bits; Jolt on the same counts (a JobSystemThreadPool with
// n - 1 workers); Bullet on 1, since Debian's Bullet is built without
// BT_THREADSAFE (btCreateDefaultTaskScheduler() returns null: btDiscreteDynamicsWorldMt has no
// threads to run on; the summary says so when it is the case). Kolize's timed loop also counts
//   impacts_per_step  the times of impact a step stopped at (World::lastStepImpacts()), averaged.
// Attached counters, from a separate untimed long run of a fresh world of the same scene (computed
// once per engine and size, cached, so repetitions do not redo it; Kolize's and Jolt's on all
// cores, Kolize's bits being those of any thread count):
//   energy_drift_pct  100 * (E_end - E_start) / E_start, E = translational + rotational kinetic
//                     energy (Kolize: World::kineticEnergy(); Bullet, Jolt: 0.5 m v^2 + 0.5 w.I w).
//   escapes           bodies whose centre ends outside the room (kz::insideRoom, 1e-4 m tolerance,
//                     as World::escapedCount()).
//   drift_steps       the length of that long run, in steps.
// After the run, a summary prints the mean and median time per step of each engine and thread
// count, Kolize's impacts per step, the ratios Kolize/Bullet, Kolize/Jolt (each variant, the same
// thread count) and Kolize on all cores / Kolize on one (console output only; with
// --benchmark_format=json or csv there is no summary).
//
// BM_Pick/10000/<method>/<rays>[/stepped]: one ray an iteration into the 10,000-body scene as
// built, or after the warm-up steps (stepped), microseconds; methods pickNearest and pickAll (the bodies'
// hierarchy), their references pickNearestByScan and pickAllByScan (every bound tested), EveryBodyExact
// (every body's exact test); rays from outside the room, from a camera inside it at eye height through random
// screen points, and rays that miss every body (see PickRays).
//
// BM_SphereCast/10000/<method>/<rays>[/stepped]: the mouse probe's sphere cast (radius 0.3 m) along
// BM_Pick's rays, microseconds; methods sphereCast (the bodies' hierarchy) and its reference
// sphereCastByScan (every body swept).
#include "bench_random.hpp"
#include "geom/closest.hpp"
#include "geom/mass_properties.hpp"
#include "mean_reporter.hpp"
#include "meshio/shapes.hpp"
#include "physics/hull_body.hpp"
#include "physics/job_system.hpp"
#include "physics/pick.hpp"
#include "physics/room.hpp"
#include "physics/sphere_cast.hpp"
#include "physics/world.hpp"
#ifdef KZ_HAVE_JOLT
#include "jolt_scene.hpp"
#endif

#include <LinearMath/btConvexHullComputer.h>
#include <LinearMath/btThreads.h>
#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <btBulletDynamicsCommon.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr std::uint32_t kSeed = 20240601u;
constexpr int kWarmupSteps = 120;
constexpr float kTimeStep = 1.0f / 120.0f; ///< Kolize's default WorldSettings::timeStep.
constexpr float kDensity = 1000.0f;
constexpr float kMinSize = 0.1f, kMaxSize = 0.2f; ///< Sphere radius / box half extent, m.
constexpr float kMaxSpin = 6.2831853f;            ///< Box angular speed up to one turn per second.
constexpr float kPi = 3.14159265358979f;
constexpr float kEscapeTolerance = 1e-4f; ///< As World::escapedCount().

// ---------------------------------------------------------------------------------------------
// Scene
// ---------------------------------------------------------------------------------------------

struct SceneConfig {
    const char* name; ///< BM_Step/<engine>/<name>/...
    int bodies;
    float roomSize;           ///< Full edge of the cube room, m.
    float minSpeed, maxSpeed; ///< Speeds, uniform in [minSpeed, maxSpeed] m/s.
    int timedSteps;           ///< Iterations of the timed loop.
    int driftSteps;           ///< Length of the untimed energy / escape run.
    bool mixed;               ///< Spheres, boxes, capsules, cylinders and hulls; else spheres and boxes.
};

/// The sparse scenes, the dense fast one (issue 35: 2,000 bodies at 20-40 m/s, some 800 impacts a
/// step), then the sparse one of mixed shapes (issue 36).
constexpr std::array<SceneConfig, 4> kConfigs{{
    {"1000", 1000, 10.0f, 1.0f, 5.0f, 200, 10000, false},
    {"10000", 10000, 20.0f, 1.0f, 5.0f, 30, 1000, false},
    {"2000", 2000, 10.0f, 20.0f, 40.0f, 60, 180, false},
    {"mixed-1000", 1000, 10.0f, 1.0f, 5.0f, 200, 3000, true},
}};

struct BodySpec {
    kz::ShapeType shape;
    float radius;          ///< Sphere, capsule or cylinder radius; a hull's bounding radius.
    glm::vec3 halfExtents; ///< Box half extents.
    float halfHeight;      ///< Capsule and cylinder (kz::BodyDesc::halfHeight).
    std::shared_ptr<const kz::ConvexHull> hull; ///< In the body's frame (kz::makeHullBody).
    glm::vec3 inertia;                          ///< Capsule, cylinder, hull: the principal moments, kg m^2.
    float mass;
    glm::vec3 position;
    glm::quat orientation;
    glm::vec3 velocity;
    glm::vec3 angularVelocity; ///< World frame.
};

struct Scene {
    kz::Room room;
    std::vector<BodySpec> bodies;
};

using kz::bench::randRotation;
using kz::bench::randUnit;
using kz::bench::Rng;
using kz::bench::uniform;

/// A turned, spinning body (as the boxes) of the mixed scene's `shape`, its sizes drawn from `rng`;
/// its bounding radius within `maxBound`.
void mixedShape(BodySpec& b, kz::ShapeType shape, float maxBound, Rng& rng) {
    b.shape = shape;
    b.orientation = randRotation(rng);
    b.angularVelocity = randUnit(rng) * uniform(rng, 0.0f, kMaxSpin);
    kz::MassProperties props;
    if (shape == kz::ShapeType::Capsule) {
        b.radius = uniform(rng, 0.08f, 0.15f);
        b.halfHeight = uniform(rng, 0.05f, 0.15f);
        props = kz::massPropertiesOfCapsule(b.radius, b.halfHeight);
    } else if (shape == kz::ShapeType::Cylinder) {
        b.radius = uniform(rng, kMinSize, kMaxSize);
        b.halfHeight = uniform(rng, kMinSize, kMaxSize);
        props = kz::massPropertiesOfCylinder(b.radius, b.halfHeight);
    } else {
        const glm::vec3 semiAxes(uniform(rng, kMinSize, kMaxSize), uniform(rng, kMinSize, kMaxSize),
                                 uniform(rng, kMinSize, kMaxSize));
        for (;;) {
            std::array<glm::vec3, 12> points;
            for (glm::vec3& p : points)
                p = randUnit(rng) * semiAxes;
            kz::HullBody made = kz::makeHullBody(points);
            if (!made.hull) continue;
            b.radius = 0.0f;
            for (const glm::vec3& v : made.hull->vertices)
                b.radius = std::max(b.radius, glm::length(v));
            if (b.radius > maxBound) continue;
            b.hull = std::move(made.hull);
            break;
        }
        props = kz::massPropertiesOfHull(*b.hull);
    }
    b.mass = static_cast<float>(kDensity * props.volume);
    b.inertia = glm::vec3(kDensity * props.inertia[0][0], kDensity * props.inertia[1][1],
                          kDensity * props.inertia[2][2]);
}

/// The bodies of `config` on a jittered grid in its cube room: one body per cell of a k^3 grid
/// (cells picked at random), its centre jittered so that its bounding sphere stays inside the
/// cell. Even indices are spheres, odd indices boxes; in the mixed scene, the five shapes in turn.
Scene makeScene(const SceneConfig& config) {
    const int n = config.bodies;
    const float size = config.roomSize;
    Scene scene{kz::boxRoom(glm::vec3(size)), {}};
    Rng rng(kSeed + static_cast<std::uint32_t>(n) + (config.mixed ? 1000000u : 0u));

    int k = 1;
    while (k * k * k < n)
        ++k;
    const float cell = size / static_cast<float>(k);
    const float maxBound = std::sqrt(3.0f) * kMaxSize; // bounding radius of the largest box
    const float jitter = 0.5f * cell - maxBound - 0.01f;
    if (!(jitter > 0.0f)) {
        std::fprintf(stderr, "bench_physics: room too small for %d bodies\n", n);
        std::abort();
    }
    std::vector<int> cells(static_cast<std::size_t>(k * k * k));
    std::iota(cells.begin(), cells.end(), 0);
    std::shuffle(cells.begin(), cells.end(), rng);

    scene.bodies.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int c = cells[static_cast<std::size_t>(i)];
        const glm::vec3 index(static_cast<float>(c % k), static_cast<float>((c / k) % k),
                              static_cast<float>(c / (k * k)));
        BodySpec b{};
        b.position = (index + 0.5f) * cell - 0.5f * size +
                     glm::vec3(uniform(rng, -jitter, jitter), uniform(rng, -jitter, jitter),
                               uniform(rng, -jitter, jitter));
        b.velocity = randUnit(rng) * uniform(rng, config.minSpeed, config.maxSpeed);
        b.orientation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
        b.angularVelocity = glm::vec3(0.0f);
        if (config.mixed && i % 5 >= 2) {
            mixedShape(b, static_cast<kz::ShapeType>(i % 5), maxBound, rng);
        } else if (config.mixed ? i % 5 == 0 : i % 2 == 0) {
            b.shape = kz::ShapeType::Sphere;
            b.radius = uniform(rng, kMinSize, kMaxSize);
            b.halfExtents = glm::vec3(b.radius);
            b.mass = kDensity * 4.0f / 3.0f * kPi * b.radius * b.radius * b.radius;
        } else {
            b.shape = kz::ShapeType::Box;
            b.halfExtents = glm::vec3(uniform(rng, kMinSize, kMaxSize), uniform(rng, kMinSize, kMaxSize),
                                      uniform(rng, kMinSize, kMaxSize));
            b.radius = glm::length(b.halfExtents);
            b.mass = kDensity * 8.0f * b.halfExtents.x * b.halfExtents.y * b.halfExtents.z;
            b.orientation = randRotation(rng);
            b.angularVelocity = randUnit(rng) * uniform(rng, 0.0f, kMaxSpin);
        }
        scene.bodies.push_back(b);
    }
    return scene;
}

const SceneConfig& configFor(const std::string& name) {
    for (const SceneConfig& c : kConfigs) {
        if (name == c.name) return c;
    }
    std::abort();
}

/// All the machine's cores: the thread count of the multi-threaded runs.
int allThreads() {
    return kz::JobSystem::hardwareThreads();
}

/// The job system of `threads` threads (null for 1: the sequential step), made once and shared.
std::shared_ptr<kz::JobSystem> jobsFor(int threads) {
    static std::map<int, std::shared_ptr<kz::JobSystem>> cache;
    if (threads <= 1) return nullptr;
    auto& jobs = cache[threads];
    if (!jobs) jobs = std::make_shared<kz::JobSystem>(threads);
    return jobs;
}

const Scene& sceneFor(const std::string& name) {
    static std::map<std::string, Scene> cache;
    auto it = cache.find(name);
    if (it == cache.end()) it = cache.emplace(name, makeScene(configFor(name))).first;
    return it->second;
}

int countEscapes(const kz::Room& room, const std::vector<glm::vec3>& centres) {
    int escaped = 0;
    for (const glm::vec3& p : centres) {
        if (!kz::insideRoom(room, p, kEscapeTolerance)) ++escaped;
    }
    return escaped;
}

// ---------------------------------------------------------------------------------------------
// Kolize
// ---------------------------------------------------------------------------------------------

kz::World makeKolize(const Scene& scene) {
    kz::World world(scene.room, kz::WorldSettings{});
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        const BodySpec& s = scene.bodies[i];
        kz::BodyDesc d;
        d.name = kz::shapeName(s.shape) + (" " + std::to_string(i));
        d.shape = s.shape;
        d.radius = s.radius;
        d.halfExtents = s.halfExtents;
        d.halfHeight = s.halfHeight;
        d.hull = s.hull;
        d.position = s.position;
        d.orientation = s.orientation;
        d.velocity = s.velocity;
        d.angularVelocity = s.angularVelocity;
        d.mass = s.mass;
        d.density = kDensity;
        d.restitution = 1.0f;
        d.friction = 0.0f;
        world.addBody(d);
    }
    return world;
}

std::vector<glm::vec3> centres(const kz::World& world) {
    std::vector<glm::vec3> out;
    out.reserve(world.bodies().size());
    for (const kz::Body& b : world.bodies())
        out.push_back(b.position);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Bullet
// ---------------------------------------------------------------------------------------------

btVector3 toBt(const glm::vec3& v) {
    return {v.x, v.y, v.z};
}

class BulletScene {
public:
    explicit BulletScene(const Scene& scene)
        : config_(std::make_unique<btDefaultCollisionConfiguration>()),
          dispatcher_(std::make_unique<btCollisionDispatcher>(config_.get())),
          broadphase_(std::make_unique<btDbvtBroadphase>()),
          solver_(std::make_unique<btSequentialImpulseConstraintSolver>()),
          world_(std::make_unique<btDiscreteDynamicsWorld>(dispatcher_.get(), broadphase_.get(),
                                                           solver_.get(), config_.get())) {
        world_->setGravity(btVector3(0.0f, 0.0f, 0.0f));

        for (const kz::Plane& p : scene.room.planes) {
            // kz: dot(n, x) + d = 0 with n into the room; Bullet: dot(n, x) = constant, solid
            // behind the normal.
            auto shape = std::make_unique<btStaticPlaneShape>(toBt(p.normal), -p.d);
            btRigidBody::btRigidBodyConstructionInfo info(0.0f, nullptr, shape.get());
            info.m_restitution = 1.0f;
            info.m_friction = 0.0f;
            info.m_rollingFriction = 0.0f;
            info.m_spinningFriction = 0.0f;
            auto body = std::make_unique<btRigidBody>(info);
            world_->addRigidBody(body.get());
            shapes_.push_back(std::move(shape));
            bodies_.push_back(std::move(body));
        }

        dynamic_.reserve(scene.bodies.size());
        for (const BodySpec& s : scene.bodies) {
            std::unique_ptr<btCollisionShape> shape = makeShape(s);
            btVector3 inertia(0.0f, 0.0f, 0.0f);
            if (kz::isConvexShape(s.shape)) {
                inertia = toBt(s.inertia);
            } else {
                shape->calculateLocalInertia(s.mass, inertia);
            }
            btRigidBody::btRigidBodyConstructionInfo info(s.mass, nullptr, shape.get(), inertia);
            info.m_startWorldTransform.setOrigin(toBt(s.position));
            info.m_startWorldTransform.setRotation(
                btQuaternion(s.orientation.x, s.orientation.y, s.orientation.z, s.orientation.w));
            info.m_restitution = 1.0f;
            info.m_friction = 0.0f;
            info.m_rollingFriction = 0.0f;
            info.m_spinningFriction = 0.0f;
            info.m_linearDamping = 0.0f;
            info.m_angularDamping = 0.0f;
            info.m_additionalDamping = false;
            info.m_linearSleepingThreshold = 0.0f;
            info.m_angularSleepingThreshold = 0.0f;
            auto body = std::make_unique<btRigidBody>(info);
            body->setLinearVelocity(toBt(s.velocity));
            body->setAngularVelocity(toBt(s.angularVelocity));
            body->setSleepingThresholds(0.0f, 0.0f);
            body->setActivationState(DISABLE_DEACTIVATION);
            world_->addRigidBody(body.get());
            dynamic_.push_back(body.get());
            shapes_.push_back(std::move(shape));
            bodies_.push_back(std::move(body));
        }
    }

    BulletScene(const BulletScene&) = delete;
    BulletScene& operator=(const BulletScene&) = delete;

    ~BulletScene() {
        for (auto& body : bodies_)
            world_->removeRigidBody(body.get());
    }

    /// Exactly one fixed step of kTimeStep (maxSubSteps 0: no substeps, no interpolation).
    void step() { world_->stepSimulation(kTimeStep, 0); }

    /// Translational plus rotational kinetic energy of the dynamic bodies, in double precision.
    double kineticEnergy() const {
        double energy = 0.0;
        for (const btRigidBody* b : dynamic_) {
            const double mass = 1.0 / static_cast<double>(b->getInvMass());
            const btVector3& v = b->getLinearVelocity();
            const btVector3& w = b->getAngularVelocity();
            const btMatrix3x3& r = b->getWorldTransform().getBasis();
            const btVector3 inertia = b->getLocalInertia();
            double rotational = 0.0;
            for (int i = 0; i < 3; ++i) {
                // Body-frame angular velocity: R^T w.
                double wl = 0.0;
                for (int j = 0; j < 3; ++j)
                    wl += static_cast<double>(r[j][i]) * static_cast<double>(w[j]);
                rotational += static_cast<double>(inertia[i]) * wl * wl;
            }
            const double v2 = static_cast<double>(v.x()) * v.x() + static_cast<double>(v.y()) * v.y() +
                              static_cast<double>(v.z()) * v.z();
            energy += 0.5 * mass * v2 + 0.5 * rotational;
        }
        return energy;
    }

    std::vector<glm::vec3> centres() const {
        std::vector<glm::vec3> out;
        out.reserve(dynamic_.size());
        for (const btRigidBody* b : dynamic_) {
            const btVector3& p = b->getWorldTransform().getOrigin();
            out.emplace_back(p.x(), p.y(), p.z());
        }
        return out;
    }

private:
    /// The body's shape; Bullet's capsule and cylinder stand along y, as Kolize's.
    static std::unique_ptr<btCollisionShape> makeShape(const BodySpec& s) {
        switch (s.shape) {
        case kz::ShapeType::Sphere:
            return std::make_unique<btSphereShape>(s.radius);
        case kz::ShapeType::Box:
            return std::make_unique<btBoxShape>(toBt(s.halfExtents));
        case kz::ShapeType::Capsule:
            return std::make_unique<btCapsuleShape>(s.radius, 2.0f * s.halfHeight);
        case kz::ShapeType::Cylinder:
            return std::make_unique<btCylinderShape>(btVector3(s.radius, s.halfHeight, s.radius));
        case kz::ShapeType::Hull:
            break;
        }
        // Bullet grows a hull by its margin: the points are shrunk by as much first.
        constexpr float kHullMargin = 0.01f;
        std::vector<float> coords;
        for (const glm::vec3& v : s.hull->vertices)
            coords.insert(coords.end(), {v.x, v.y, v.z});
        btConvexHullComputer computer;
        computer.compute(coords.data(), 3 * sizeof(float), static_cast<int>(s.hull->vertices.size()),
                         kHullMargin, 0.0f);
        auto hull = std::make_unique<btConvexHullShape>();
        for (int i = 0; i < computer.vertices.size(); ++i)
            hull->addPoint(computer.vertices[i], false);
        hull->recalcLocalAabb();
        hull->setMargin(kHullMargin);
        return hull;
    }

    std::unique_ptr<btDefaultCollisionConfiguration> config_;
    std::unique_ptr<btCollisionDispatcher> dispatcher_;
    std::unique_ptr<btDbvtBroadphase> broadphase_;
    std::unique_ptr<btSequentialImpulseConstraintSolver> solver_;
    std::unique_ptr<btDiscreteDynamicsWorld> world_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btRigidBody>> bodies_; ///< Walls, then the dynamic bodies.
    std::vector<btRigidBody*> dynamic_;                ///< In scene order.
};

/// The engines. With -DKZ_JOLT_DIR, Jolt four ways: discrete collision (Jolt) or linear-cast CCD
/// on every body (JoltCCD), with Jolt's defaults or with the two that take energy out of an
/// elastic scene lifted (...Elastic: no angular speed limit, bounces at every speed; JoltScene).
enum class Engine { Kolize, Bullet, Jolt, JoltCcd, JoltElastic, JoltCcdElastic };

#ifdef KZ_HAVE_JOLT
// ---------------------------------------------------------------------------------------------
// Jolt (optional: -DKZ_JOLT_DIR)
// ---------------------------------------------------------------------------------------------

/// The scene in jolt_scene.hpp's plain terms: the same bodies, the room's planes as walls.
std::unique_ptr<kz::bench::JoltScene> makeJolt(const Scene& scene, int threads, Engine engine) {
    std::vector<kz::bench::JoltBodySpec> bodies;
    bodies.reserve(scene.bodies.size());
    for (const BodySpec& s : scene.bodies) {
        const glm::quat& q = s.orientation;
        std::vector<std::array<float, 3>> points;
        if (s.hull) {
            for (const glm::vec3& v : s.hull->vertices)
                points.push_back({v.x, v.y, v.z});
        }
        bodies.push_back({static_cast<kz::bench::JoltShape>(s.shape),
                          s.radius,
                          {s.halfExtents.x, s.halfExtents.y, s.halfExtents.z},
                          s.halfHeight,
                          std::move(points),
                          s.mass,
                          {s.position.x, s.position.y, s.position.z},
                          {q.x, q.y, q.z, q.w},
                          {s.velocity.x, s.velocity.y, s.velocity.z},
                          {s.angularVelocity.x, s.angularVelocity.y, s.angularVelocity.z}});
    }
    std::vector<kz::bench::JoltWall> walls;
    for (const kz::Plane& p : scene.room.planes)
        walls.push_back({{p.normal.x, p.normal.y, p.normal.z}, p.d});
    const glm::vec3 extent = scene.room.bounds.max - scene.room.bounds.min;
    const bool linearCast = engine == Engine::JoltCcd || engine == Engine::JoltCcdElastic;
    const bool elastic = engine == Engine::JoltElastic || engine == Engine::JoltCcdElastic;
    return std::make_unique<kz::bench::JoltScene>(bodies, walls, std::max({extent.x, extent.y, extent.z}),
                                                  threads, linearCast, elastic);
}

std::vector<glm::vec3> centres(const kz::bench::JoltScene& world) {
    std::vector<glm::vec3> out;
    for (const std::array<float, 3>& p : world.centres())
        out.emplace_back(p[0], p[1], p[2]);
    return out;
}
#endif

// ---------------------------------------------------------------------------------------------
// Untimed long run: energy drift and escapes
// ---------------------------------------------------------------------------------------------

std::vector<Engine> engines() {
#ifdef KZ_HAVE_JOLT
    return {Engine::Kolize,  Engine::Bullet,      Engine::Jolt,
            Engine::JoltCcd, Engine::JoltElastic, Engine::JoltCcdElastic};
#else
    return {Engine::Kolize, Engine::Bullet};
#endif
}

struct LongRun {
    double driftPct;
    int escapes;
    int steps;
};

LongRun runLong(Engine engine, const Scene& scene, int steps) {
    double start = 0.0, end = 0.0;
    std::vector<glm::vec3> finalCentres;
    if (engine == Engine::Kolize) {
        kz::World world = makeKolize(scene);
        world.setJobs(jobsFor(allThreads()));
        start = world.kineticEnergy();
        for (int i = 0; i < steps; ++i)
            world.step();
        end = world.kineticEnergy();
        finalCentres = centres(world);
    } else if (engine == Engine::Bullet) {
        BulletScene world(scene);
        start = world.kineticEnergy();
        for (int i = 0; i < steps; ++i)
            world.step();
        end = world.kineticEnergy();
        finalCentres = world.centres();
    } else {
#ifdef KZ_HAVE_JOLT
        const auto world = makeJolt(scene, allThreads(), engine);
        start = world->kineticEnergy();
        for (int i = 0; i < steps; ++i)
            world->step(kTimeStep);
        end = world->kineticEnergy();
        finalCentres = centres(*world);
#endif
    }
    return {100.0 * (end - start) / start, countEscapes(scene.room, finalCentres), steps};
}

/// Computed once per engine and scene.
const LongRun& longRunFor(Engine engine, const std::string& scene) {
    static std::map<std::pair<Engine, std::string>, LongRun> cache;
    const auto key = std::make_pair(engine, scene);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, runLong(engine, sceneFor(scene), configFor(scene).driftSteps)).first;
    return it->second;
}

// ---------------------------------------------------------------------------------------------
// Benchmarks
// ---------------------------------------------------------------------------------------------

void setCounters(benchmark::State& state, const LongRun& run) {
    state.counters["energy_drift_pct"] = benchmark::Counter(run.driftPct);
    state.counters["escapes"] = benchmark::Counter(static_cast<double>(run.escapes));
    state.counters["drift_steps"] = benchmark::Counter(static_cast<double>(run.steps));
}

/// Steps `world` (anything with step()) kWarmupSteps times untimed, then once per iteration.
template <class Step>
void warmAndTime(benchmark::State& state, Step step) {
    for (int i = 0; i < kWarmupSteps; ++i)
        step();
    for (auto _ : state) {
        step();
        benchmark::ClobberMemory();
    }
}

void BM_Step(benchmark::State& state, Engine engine, const std::string& name, int threads) {
    const Scene& scene = sceneFor(name);
    const LongRun& run = longRunFor(engine, name);
    if (engine == Engine::Kolize) {
        kz::World world = makeKolize(scene);
        world.setJobs(jobsFor(threads));
        for (int i = 0; i < kWarmupSteps; ++i)
            world.step();
        std::int64_t impacts = 0, advances = 0;
        for (auto _ : state) {
            world.step();
            impacts += world.lastStepImpacts();
            advances += world.lastStepAdvances();
            benchmark::ClobberMemory();
        }
        state.counters["impacts_per_step"] =
            static_cast<double>(impacts) / static_cast<double>(state.iterations());
        state.counters["advances_per_step"] =
            static_cast<double>(advances) / static_cast<double>(state.iterations());
    } else if (engine == Engine::Bullet) {
        BulletScene world(scene);
        warmAndTime(state, [&] { world.step(); });
    } else {
#ifdef KZ_HAVE_JOLT
        const auto world = makeJolt(scene, threads, engine);
        warmAndTime(state, [&] { world->step(kTimeStep); });
#endif
    }
    setCounters(state, run);
}

const char* engineName(Engine engine) {
    switch (engine) {
    case Engine::Kolize:
        return "Kolize";
    case Engine::Bullet:
        return "Bullet";
    case Engine::Jolt:
        return "Jolt";
    case Engine::JoltCcd:
        return "JoltCCD";
    case Engine::JoltElastic:
        return "JoltElastic";
    case Engine::JoltCcdElastic:
        return "JoltCCDElastic";
    }
    return "?";
}

std::string stepName(Engine engine, const std::string& scene, int threads) {
    return std::string("BM_Step/") + engineName(engine) + "/" + scene + "/threads:" + std::to_string(threads);
}

/// The thread counts each engine runs on: Kolize and Jolt on 1 and on all cores, Bullet on 1.
std::vector<int> threadCounts(Engine engine) {
    if (engine == Engine::Bullet || allThreads() == 1) return {1};
    return {1, allThreads()};
}

/// Whether this Bullet can run multi-threaded (built with BT_THREADSAFE and a task scheduler).
bool bulletHasThreads() {
    static const bool has = btCreateDefaultTaskScheduler() != nullptr;
    return has;
}

/// The console table, then a summary with the ratios and the long runs' drift.
class SummaryReporter : public kz::bench::MeanReporter {
public:
    void printSummary() const {
        std::printf("\nSummary: ms per step (mean and median over repetitions), Kolize's impacts per step "
                    "(median), ratios of the medians; drift and escapes from the untimed long run\n");
        std::printf("%10s  %-9s  %-14s  %7s  %10s  %10s  %10s  %8s  %16s  %7s  %11s\n", "scene", "speeds",
                    "engine", "threads", "real ms", "median ms", "cpu ms", "impacts", "energy drift %",
                    "escapes", "drift steps");
        for (const SceneConfig& c : kConfigs) {
            const std::string speeds = std::to_string(static_cast<int>(c.minSpeed)) + "-" +
                                       std::to_string(static_cast<int>(c.maxSpeed)) + " m/s";
            std::map<std::pair<Engine, int>, double> medians;
            for (Engine e : engines()) {
                for (int threads : threadCounts(e)) {
                    const std::string name = stepName(e, c.name, threads);
                    const std::optional<Mean> m = mean(name);
                    if (!m) continue;
                    const double med = realMedian(name);
                    medians[{e, threads}] = med;
                    const LongRun& run = longRunFor(e, c.name); // cached: already computed
                    const double impacts = counterMedian(name, "impacts_per_step");
                    const std::string impactText =
                        std::isnan(impacts) ? "-" : std::to_string(std::lround(impacts));
                    std::printf("%10s  %-9s  %-14s  %7d  %10.3f  %10.3f  %10.3f  %8s  %16.5f  %7d  %11d\n",
                                c.name, speeds.c_str(), engineName(e), threads, m->real, med, m->cpu,
                                impactText.c_str(), run.driftPct, run.escapes, run.steps);
                }
            }
            const auto ratio = [&](Engine x, int tx, Engine y, int ty) {
                if (!medians.count({x, tx}) || !medians.count({y, ty})) return;
                const std::string label = std::string(engineName(x)) + " " + std::to_string(tx) + "t / " +
                                          engineName(y) + " " + std::to_string(ty) + "t";
                std::printf("%10s  %-36s  %9.2fx (medians)\n", c.name, label.c_str(),
                            medians[{x, tx}] / medians[{y, ty}]);
            };
            const int all = allThreads();
            ratio(Engine::Kolize, all, Engine::Kolize, 1);
            ratio(Engine::Kolize, 1, Engine::Bullet, 1);
            ratio(Engine::Kolize, all, Engine::Bullet, 1);
            for (Engine jolt : {Engine::Jolt, Engine::JoltCcd, Engine::JoltElastic, Engine::JoltCcdElastic}) {
                ratio(Engine::Kolize, 1, jolt, 1);
                if (all > 1) ratio(Engine::Kolize, all, jolt, all);
            }
        }
        if (!bulletHasThreads())
            std::printf("Bullet runs on 1 thread: this Bullet is built without BT_THREADSAFE "
                        "(btCreateDefaultTaskScheduler() returns null).\n");
    }
};

/// Three large static meshes across the 10 m room of the 1,000-body scene: the ring (torus,
/// 2,304 triangles) scaled 5x round the centre, the lamp (3,200) scaled 2x on the floor, the steps
/// (164) scaled 1.5x.
std::vector<kz::Obstacle> benchObstacles() {
    struct Placement {
        kz::TriangleMesh mesh;
        const char* name;
        glm::vec3 position;
        float scale;
    };
    const Placement placements[] = {{kz::makeTorus(), "ring", glm::vec3(0.0f), 5.0f},
                                    {kz::makeArch(), "lamp", glm::vec3(-2.5f, -5.0f, -3.0f), 2.0f},
                                    {kz::makeSteps(), "steps", glm::vec3(2.5f, -5.0f, 3.0f), 1.5f}};
    std::vector<kz::Obstacle> out;
    for (const Placement& p : placements) {
        std::string error;
        auto shape = kz::MeshShape::make(p.name, p.mesh.vertices, p.mesh.indices, error);
        kz::ObstacleDesc desc;
        desc.name = p.name;
        desc.mesh = shape;
        desc.position = p.position;
        desc.scale = glm::vec3(p.scale);
        auto obstacle = shape ? kz::makeObstacle(desc, error) : std::nullopt;
        if (!obstacle) {
            std::fprintf(stderr, "bench_physics: %s\n", error.c_str());
            std::abort();
        }
        out.push_back(std::move(*obstacle));
    }
    return out;
}

/// Whether a body's bounding sphere (grown by 1 cm) touches a triangle of the obstacle.
bool nearObstacle(const BodySpec& b, const kz::Obstacle& o) {
    const float reach = b.radius + 0.01f;
    const glm::vec3 r(reach);
    bool near = false;
    o.mesh->bvh.forEachTriangleOverlapping(
        o.localBox({b.position - r, b.position + r}), [&](std::uint32_t, const kz::Triangle& t) {
            const kz::Triangle w{o.toWorld(t.a), o.toWorld(t.b), o.toWorld(t.c)};
            const glm::vec3 d = b.position - kz::closestPtPointTriangle(b.position, w);
            near = near || glm::dot(d, d) <= reach * reach;
        });
    return near;
}

/// The 1,000-body scene with and without the three meshes: the same bodies (those that would
/// start touching a mesh are left out of both), so the difference is what the meshes cost.
void BM_StepMeshes(benchmark::State& state, bool withMeshes) {
    static const std::vector<kz::Obstacle> obstacles = benchObstacles();
    static const Scene scene = [] {
        Scene kept{sceneFor("1000").room, {}};
        for (const BodySpec& b : sceneFor("1000").bodies) {
            if (std::none_of(obstacles.begin(), obstacles.end(),
                             [&](const kz::Obstacle& o) { return nearObstacle(b, o); }))
                kept.bodies.push_back(b);
        }
        return kept;
    }();
    kz::World world = makeKolize(scene);
    if (withMeshes) {
        for (const kz::Obstacle& o : obstacles)
            world.addObstacle(o);
    }
    for (int i = 0; i < kWarmupSteps; ++i)
        world.step();
    std::size_t meshContacts = 0;
    for (auto _ : state) {
        world.step();
        for (const kz::ContactInfo& c : world.contacts())
            meshContacts += c.obstacle >= 0 ? 1 : 0;
        benchmark::ClobberMemory();
    }
    state.counters["bodies"] = static_cast<double>(world.bodies().size());
    state.counters["triangles"] = withMeshes ? 2304.0 + 3200.0 + 164.0 : 0.0;
    state.counters["mesh_contacts_per_step"] =
        static_cast<double>(meshContacts) / static_cast<double>(state.iterations());
    state.counters["escapes"] = static_cast<double>(world.escapedCount());
    state.counters["max_penetration_mm"] = 1000.0 * static_cast<double>(world.maxPenetration());
}

/// A resting pile under gravity with friction, the solver's steady load: three layers of 10 x 10
/// boxes (0.4 m cubes, each turned a little about the vertical) and balls, dropped 1 cm apart
/// onto the floor of a 10 m room, settled for 3 s untimed, then stepped. `turned`: the layers are
/// turned by up to 20 degrees (faces resting on faces at an angle) instead of 2.
void BM_StepPile(benchmark::State& state, bool turned) {
    kz::WorldSettings settings;
    settings.gravity = {0.0f, -9.81f, 0.0f};
    kz::World world(kz::boxRoom(glm::vec3(10.0f)), settings);
    for (int layer = 0; layer < 3; ++layer) {
        for (int i = 0; i < 10; ++i) {
            for (int j = 0; j < 10; ++j) {
                kz::BodyDesc d;
                d.position = {-2.25f + 0.5f * static_cast<float>(i),
                              -5.0f + 0.21f + 0.42f * static_cast<float>(layer),
                              -2.25f + 0.5f * static_cast<float>(j)};
                if ((i + j + layer) % 4 == 0) {
                    d.shape = kz::ShapeType::Sphere;
                    d.radius = 0.2f;
                } else {
                    d.shape = kz::ShapeType::Box;
                    d.halfExtents = glm::vec3(0.2f);
                    const float degrees =
                        static_cast<float>((i * 7 + j * 13 + layer * 5) % 11 - 5) * (turned ? 4.0f : 0.4f);
                    d.orientation = glm::angleAxis(glm::radians(degrees), glm::vec3(0.0f, 1.0f, 0.0f));
                }
                d.restitution = 0.2f;
                d.friction = 0.5f;
                d.rollingResistance = 0.05f;
                world.addBody(d);
            }
        }
    }
    for (int i = 0; i < 360; ++i)
        world.step();
    std::size_t contacts = 0;
    for (auto _ : state) {
        world.step();
        contacts += world.contacts().size();
        benchmark::ClobberMemory();
    }
    float fastest = 0.0f;
    for (const kz::Body& b : world.bodies())
        fastest = std::max(fastest, glm::length(b.velocity));
    state.counters["bodies"] = static_cast<double>(world.bodies().size());
    state.counters["contacts_per_step"] =
        static_cast<double>(contacts) / static_cast<double>(state.iterations());
    state.counters["fastest_mm_per_s"] = 1000.0 * static_cast<double>(fastest);
    state.counters["max_penetration_mm"] = 1000.0 * static_cast<double>(world.maxPenetration());
}

/// The rays BM_Pick casts into the 10,000-body world, 4096 of each kind, fixed.
enum class PickRays {
    Outside, ///< From a sphere around the room toward random points inside it.
    Camera,  ///< From a camera inside the room at eye height through random points of its screen
             ///< (60 degrees vertical, 16:9), as the app's hover pick casts them.
    Miss,    ///< Rays that meet no body's bounding sphere: from around the room toward points
             ///< beside and across it, those the scan finds no candidate for.
};

/// How BM_Pick picks.
enum class PickMethod {
    Nearest,        ///< kz::pickNearest: the bodies' hierarchy walked front to back.
    NearestByScan,  ///< kz::pickNearestByScan: every bounding sphere, sorted, exact tests with early exit.
    EveryBodyExact, ///< Every body's exact test, no bound first.
    All,            ///< kz::pickAll.
    AllByScan,      ///< kz::pickAllByScan.
};

/// The 10,000-body scene as built (bodies added one by one: the tree as insertions left it), or
/// after kWarmupSteps steps (the tree as the steps keep it: loose leaves, grown boxes).
const kz::World& pickWorld(bool stepped) {
    static const kz::World built = makeKolize(sceneFor("10000"));
    if (!stepped) return built;
    static const kz::World moved = [] {
        kz::World world = built;
        for (int i = 0; i < kWarmupSteps; ++i)
            world.step();
        return world;
    }();
    return moved;
}

std::vector<kz::Ray> pickRays(PickRays kind) {
    const kz::World& world = pickWorld(false);
    std::mt19937 rng(kSeed + 99u + static_cast<std::uint32_t>(kind));
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const glm::vec3 half = 0.5f * (world.room().bounds.max - world.room().bounds.min);
    std::vector<kz::Ray> out;
    while (out.size() < 4096) {
        if (kind == PickRays::Camera) {
            const glm::vec3 eye(0.3f * half.x, -half.y + 1.7f, 0.9f * half.z);
            const glm::vec3 forward = glm::normalize(glm::vec3(0.0f) - eye);
            const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
            const glm::vec3 up = glm::cross(right, forward);
            const float tanHalf = std::tan(0.5f * 60.0f * kPi / 180.0f);
            const glm::vec3 dir =
                forward + unit(rng) * tanHalf * (16.0f / 9.0f) * right + unit(rng) * tanHalf * up;
            out.push_back({eye, glm::normalize(dir)});
            continue;
        }
        glm::vec3 from(unit(rng), unit(rng), unit(rng));
        from = 1.5f * glm::length(half) * glm::normalize(from + glm::vec3(0.0f, 0.0f, 1e-3f));
        const float spread = kind == PickRays::Miss ? 1.4f : 1.0f;
        const glm::vec3 to = spread * glm::vec3(unit(rng) * half.x, unit(rng) * half.y, unit(rng) * half.z);
        const kz::Ray ray{from, glm::normalize(to - from)};
        if (kind == PickRays::Miss &&
            (!kz::pickAllByScan(world, ray).empty() || !kz::pickAllByScan(pickWorld(true), ray).empty()))
            continue;
        out.push_back(ray);
    }
    return out;
}

/// pickRays(kind), made once for BM_Pick and BM_SphereCast.
const std::vector<kz::Ray>& cachedPickRays(PickRays kind) {
    static std::map<PickRays, std::vector<kz::Ray>> cache;
    auto it = cache.find(kind);
    if (it == cache.end()) it = cache.emplace(kind, pickRays(kind)).first;
    return it->second;
}

/// Picking with 10,000 bodies (the BM_Step scene, as built or stepped), one ray an iteration,
/// cycling through the 4096 rays of a kind; hit_rate: the rays that hit a body.
void BM_Pick(benchmark::State& state, PickMethod method, PickRays kind, bool stepped) {
    const kz::World& world = pickWorld(stepped);
    const std::vector<kz::Ray>& rays = cachedPickRays(kind);
    std::size_t i = 0;
    int hits = 0;
    for (auto _ : state) {
        const kz::Ray& ray = rays[i++ & 4095];
        switch (method) {
        case PickMethod::EveryBodyExact: {
            float best = INFINITY;
            for (const kz::Body& b : world.bodies()) {
                const auto h = b.shape == kz::ShapeType::Sphere ? kz::raycast(ray, kz::sphereOf(b), best)
                                                                : kz::raycast(ray, kz::obbOf(b), best);
                if (h) best = h->t;
            }
            hits += best < INFINITY;
            benchmark::DoNotOptimize(best);
            break;
        }
        case PickMethod::Nearest:
        case PickMethod::NearestByScan: {
            const auto hit = method == PickMethod::Nearest ? kz::pickNearest(world, ray)
                                                           : kz::pickNearestByScan(world, ray);
            hits += hit.has_value();
            benchmark::DoNotOptimize(hit);
            break;
        }
        case PickMethod::All:
        case PickMethod::AllByScan: {
            const auto all =
                method == PickMethod::All ? kz::pickAll(world, ray) : kz::pickAllByScan(world, ray);
            hits += !all.empty();
            benchmark::DoNotOptimize(all.data());
            break;
        }
        }
    }
    state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}

/// The mouse probe's sphere cast with 10,000 bodies (the BM_Step scene, as built or stepped), one
/// ray an iteration through BM_Pick's rays, at the probe's default radius (0.3 m); hit_rate: the
/// casts that touch a body (the others touch a wall: the rays start inside the room or cross it).
void BM_SphereCast(benchmark::State& state, bool byScan, PickRays kind, bool stepped) {
    const kz::World& world = pickWorld(stepped);
    const std::vector<kz::Ray>& rays = cachedPickRays(kind);
    constexpr float kRadius = 0.3f;
    std::size_t i = 0;
    int hits = 0;
    for (auto _ : state) {
        const kz::Ray& ray = rays[i++ & 4095];
        const auto hit =
            byScan ? kz::sphereCastByScan(world, ray, kRadius) : kz::sphereCast(world, ray, kRadius);
        hits += hit && hit->body >= 0;
        benchmark::DoNotOptimize(hit);
    }
    state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}

} // namespace

int main(int argc, char** argv) {
    // Only the console format gets the summary (the JSON and CSV outputs stay machine-readable).
    bool console = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--benchmark_format=", 19) == 0 &&
            std::strcmp(argv[i] + 19, "console") != 0)
            console = false;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

    for (const SceneConfig& c : kConfigs) {
        for (Engine e : engines()) {
            for (int threads : threadCounts(e)) {
                benchmark::RegisterBenchmark(stepName(e, c.name, threads).c_str(), BM_Step, e,
                                             std::string(c.name), threads)
                    ->Unit(benchmark::kMillisecond)
                    ->Iterations(c.timedSteps)
                    ->UseRealTime();
            }
        }
    }

    benchmark::RegisterBenchmark("BM_StepMeshes/Kolize/1000/none", BM_StepMeshes, false)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(200);
    benchmark::RegisterBenchmark("BM_StepMeshes/Kolize/1000/ring+lamp+steps", BM_StepMeshes, true)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(200);
    benchmark::RegisterBenchmark("BM_StepPile/Kolize/300/aligned", BM_StepPile, false)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(240);
    benchmark::RegisterBenchmark("BM_StepPile/Kolize/300/turned", BM_StepPile, true)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(240);
    const std::pair<const char*, PickRays> rayKinds[] = {
        {"outside", PickRays::Outside}, {"camera", PickRays::Camera}, {"miss", PickRays::Miss}};
    const std::pair<const char*, PickMethod> methods[] = {{"pickNearest", PickMethod::Nearest},
                                                          {"pickNearestByScan", PickMethod::NearestByScan},
                                                          {"EveryBodyExact", PickMethod::EveryBodyExact},
                                                          {"pickAll", PickMethod::All},
                                                          {"pickAllByScan", PickMethod::AllByScan}};
    for (const auto& [method, m] : methods) {
        for (const bool stepped : {false, true}) {
            // The scans and the exact tests take as long on either world.
            if (stepped && m != PickMethod::Nearest && m != PickMethod::All) continue;
            for (const auto& [rays, r] : rayKinds) {
                if (m == PickMethod::EveryBodyExact && r == PickRays::Miss) continue; // the same n tests
                const std::string name =
                    std::string("BM_Pick/10000/") + method + "/" + rays + (stepped ? "/stepped" : "");
                benchmark::RegisterBenchmark(name.c_str(), BM_Pick, m, r, stepped)
                    ->Unit(benchmark::kMicrosecond);
            }
        }
    }

    for (const bool byScan : {false, true}) {
        for (const bool stepped : {false, true}) {
            if (stepped && byScan) continue; // the scan takes as long on either world
            for (const auto& [rays, r] : rayKinds) {
                const std::string name = std::string("BM_SphereCast/10000/") +
                                         (byScan ? "sphereCastByScan/" : "sphereCast/") + rays +
                                         (stepped ? "/stepped" : "");
                benchmark::RegisterBenchmark(name.c_str(), BM_SphereCast, byScan, r, stepped)
                    ->Unit(benchmark::kMicrosecond);
            }
        }
    }

    if (console) {
        SummaryReporter reporter;
        benchmark::RunSpecifiedBenchmarks(&reporter);
        reporter.printSummary();
    } else {
        benchmark::RunSpecifiedBenchmarks();
    }
    benchmark::Shutdown();
    return 0;
}
