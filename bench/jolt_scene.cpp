// bench_physics's Jolt Physics peer (jolt_scene.hpp). Set up as Jolt's HelloWorld sample does:
// the default allocator, a Factory, the registered types, two object layers (static walls, moving
// bodies) on two broad-phase layers.
#include "jolt_scene.hpp"

// clang-format off: Jolt.h first, every other Jolt header needs its macros.
#include <Jolt/Jolt.h>
// clang-format on
#include <Jolt/Core/Factory.h>
#include <Jolt/Core/JobSystemThreadPool.h>
#include <Jolt/Core/TempAllocator.h>
#include <Jolt/Physics/Body/BodyCreationSettings.h>
#include <Jolt/Physics/Collision/Shape/BoxShape.h>
#include <Jolt/Physics/Collision/Shape/CapsuleShape.h>
#include <Jolt/Physics/Collision/Shape/ConvexHullShape.h>
#include <Jolt/Physics/Collision/Shape/CylinderShape.h>
#include <Jolt/Physics/Collision/Shape/PlaneShape.h>
#include <Jolt/Physics/Collision/Shape/SphereShape.h>
#include <Jolt/Physics/PhysicsSystem.h>
#include <Jolt/RegisterTypes.h>
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace kz::bench {
namespace {

constexpr JPH::ObjectLayer kStaticLayer = 0;
constexpr JPH::ObjectLayer kMovingLayer = 1;
/// The elastic variant's angular speed limit, far above what the scenes reach (a 0.1 m box hit at
/// 40 m/s turns at some 400 rad/s); Jolt's default is 0.25 * pi * 60, about 47 rad/s.
constexpr float kUnclampedAngularVelocity = 1.0e4f;

class BroadPhaseLayers final : public JPH::BroadPhaseLayerInterface {
public:
    JPH::uint GetNumBroadPhaseLayers() const override { return 2; }
    JPH::BroadPhaseLayer GetBroadPhaseLayer(JPH::ObjectLayer layer) const override {
        return JPH::BroadPhaseLayer(static_cast<JPH::BroadPhaseLayer::Type>(layer));
    }
#if defined(JPH_EXTERNAL_PROFILE) || defined(JPH_PROFILE_ENABLED)
    const char* GetBroadPhaseLayerName(JPH::BroadPhaseLayer layer) const override {
        return layer.GetValue() == kStaticLayer ? "static" : "moving";
    }
#endif
};

/// Moving bodies meet everything; static walls meet only moving bodies.
class ObjectVsBroadPhase final : public JPH::ObjectVsBroadPhaseLayerFilter {
public:
    bool ShouldCollide(JPH::ObjectLayer layer, JPH::BroadPhaseLayer broad) const override {
        return layer == kMovingLayer || broad.GetValue() == kMovingLayer;
    }
};

class ObjectPairs final : public JPH::ObjectLayerPairFilter {
public:
    bool ShouldCollide(JPH::ObjectLayer a, JPH::ObjectLayer b) const override {
        return a == kMovingLayer || b == kMovingLayer;
    }
};

/// Jolt's messages (such as the one before it aborts on a full temporary allocator) on stderr.
void traceToStderr(const char* format, ...) {
    std::va_list args;
    va_start(args, format);
    std::fputs("bench_physics: Jolt: ", stderr);
    std::vfprintf(stderr, format, args);
    std::fputc('\n', stderr);
    va_end(args);
}

/// Jolt's process-wide set-up, once; refuses a library built with other JPH_* defines (their
/// hash, JPH_VERSION_ID, differs), which would otherwise fail in obscure ways at run time.
void initJolt() {
    static const bool done = [] {
        if (!JPH::VerifyJoltVersionID()) {
            std::fprintf(stderr, "bench_physics: libJolt was built with other JPH_* defines than "
                                 "bench/jolt_scene.cpp (JPH_VERSION_ID differs)\n");
            std::abort();
        }
        JPH::Trace = traceToStderr;
        JPH::RegisterDefaultAllocator();
        JPH::Factory::sInstance = new JPH::Factory();
        JPH::RegisterTypes();
        return true;
    }();
    (void)done;
}

JPH::Vec3 vec(const std::array<float, 3>& v) {
    return JPH::Vec3(v[0], v[1], v[2]);
}

/// The body's shape with Jolt's default convex radius (0.05 m; a cylinder's at most its size).
JPH::RefConst<JPH::Shape> makeShape(const JoltBodySpec& b) {
    switch (b.shape) {
    case JoltShape::Sphere:
        return new JPH::SphereShape(b.radius);
    case JoltShape::Box:
        return new JPH::BoxShape(vec(b.halfExtents));
    case JoltShape::Capsule:
        return new JPH::CapsuleShape(b.halfHeight, b.radius);
    case JoltShape::Cylinder:
        return new JPH::CylinderShape(b.halfHeight, b.radius,
                                      std::min({JPH::cDefaultConvexRadius, b.halfHeight, b.radius}));
    case JoltShape::Hull:
        break;
    }
    JPH::Array<JPH::Vec3> points;
    for (const std::array<float, 3>& p : b.hullPoints)
        points.push_back(vec(p));
    const JPH::ConvexHullShapeSettings settings(points);
    const JPH::ShapeSettings::ShapeResult result = settings.Create();
    if (result.HasError()) {
        std::fprintf(stderr, "bench_physics: Jolt refused a hull: %s\n", result.GetError().c_str());
        std::abort();
    }
    return result.Get();
}

} // namespace

struct JoltScene::Impl {
    Impl(std::size_t bodies, int threads)
        : temp(std::max<std::size_t>(64u << 20, bodies * 16384u)),
          jobs(JPH::cMaxPhysicsJobs, JPH::cMaxPhysicsBarriers, std::max(0, threads - 1)) {}

    BroadPhaseLayers layers;
    ObjectVsBroadPhase objectVsBroadPhase;
    ObjectPairs pairs;
    JPH::TempAllocatorImpl temp;
    JPH::JobSystemThreadPool jobs;
    JPH::PhysicsSystem system;
    std::vector<JPH::BodyID> dynamic; ///< In the order given.
};

JoltScene::JoltScene(const std::vector<JoltBodySpec>& bodies, const std::vector<JoltWall>& walls,
                     float roomExtent, int threads, bool linearCast, bool elastic) {
    initJolt();
    impl_ = std::make_unique<Impl>(bodies.size(), threads);
    const auto n = static_cast<JPH::uint>(bodies.size() + walls.size());
    // Capacities well above what the scenes reach (a full cache drops contacts: step() aborts);
    // Jolt takes its temporary memory in proportion to them.
    impl_->system.Init(n, 0, std::max(65536u, 8u * n), std::max(10240u, 4u * n), impl_->layers,
                       impl_->objectVsBroadPhase, impl_->pairs);
    impl_->system.SetGravity(JPH::Vec3::sZero());
    if (elastic) {
        JPH::PhysicsSettings physics = impl_->system.GetPhysicsSettings();
        physics.mMinVelocityForRestitution = 0.0f;
        impl_->system.SetPhysicsSettings(physics);
    }
    JPH::BodyInterface& bodyInterface = impl_->system.GetBodyInterfaceNoLock();

    for (const JoltWall& w : walls) {
        // Jolt's plane is dot(n, x) + c = 0 with the negative half space solid, as kz::Plane.
        JPH::BodyCreationSettings settings(
            new JPH::PlaneShape(JPH::Plane(vec(w.normal), w.d), nullptr, roomExtent), JPH::RVec3::sZero(),
            JPH::Quat::sIdentity(), JPH::EMotionType::Static, kStaticLayer);
        settings.mRestitution = 1.0f;
        settings.mFriction = 0.0f;
        bodyInterface.CreateAndAddBody(settings, JPH::EActivation::DontActivate);
    }

    impl_->dynamic.reserve(bodies.size());
    for (const JoltBodySpec& b : bodies) {
        const JPH::RefConst<JPH::Shape> shape = makeShape(b);
        const JPH::Quat rotation(b.orientation[0], b.orientation[1], b.orientation[2], b.orientation[3]);
        JPH::BodyCreationSettings settings(shape, JPH::RVec3(vec(b.position)), rotation.Normalized(),
                                           JPH::EMotionType::Dynamic, kMovingLayer);
        settings.mLinearVelocity = vec(b.velocity);
        settings.mAngularVelocity = vec(b.angularVelocity);
        settings.mRestitution = 1.0f;
        settings.mFriction = 0.0f;
        settings.mLinearDamping = 0.0f;
        settings.mAngularDamping = 0.0f;
        settings.mAllowSleeping = false;
        if (elastic) settings.mMaxAngularVelocity = kUnclampedAngularVelocity;
        settings.mMotionQuality =
            linearCast ? JPH::EMotionQuality::LinearCast : JPH::EMotionQuality::Discrete;
        settings.mOverrideMassProperties = JPH::EOverrideMassProperties::CalculateInertia;
        settings.mMassPropertiesOverride.mMass = b.mass;
        impl_->dynamic.push_back(bodyInterface.CreateAndAddBody(settings, JPH::EActivation::Activate));
    }
    impl_->system.OptimizeBroadPhase();
}

JoltScene::~JoltScene() = default;

void JoltScene::step(float dt) {
    const JPH::EPhysicsUpdateError error = impl_->system.Update(dt, 1, &impl_->temp, &impl_->jobs);
    if (error != JPH::EPhysicsUpdateError::None) {
        std::fprintf(stderr, "bench_physics: Jolt's step reported a full cache (EPhysicsUpdateError %u)\n",
                     static_cast<unsigned>(error));
        std::abort();
    }
}

double JoltScene::kineticEnergy() const {
    const JPH::BodyLockInterfaceNoLock& lock = impl_->system.GetBodyLockInterfaceNoLock();
    double energy = 0.0;
    for (const JPH::BodyID id : impl_->dynamic) {
        const JPH::BodyLockRead read(lock, id);
        const JPH::Body& body = read.GetBody();
        const JPH::MotionProperties& motion = *body.GetMotionProperties();
        const JPH::Vec3 v = body.GetLinearVelocity();
        // Angular velocity in the principal frame of the inertia: (R * R_inertia)^-1 w.
        const JPH::Vec3 w =
            (body.GetRotation() * motion.GetInertiaRotation()).Conjugated() * body.GetAngularVelocity();
        const JPH::Vec3 inverseInertia = motion.GetInverseInertiaDiagonal();
        double rotational = 0.0;
        for (int i = 0; i < 3; ++i)
            rotational += static_cast<double>(w[i]) * w[i] / static_cast<double>(inverseInertia[i]);
        const double v2 = static_cast<double>(v.GetX()) * v.GetX() +
                          static_cast<double>(v.GetY()) * v.GetY() + static_cast<double>(v.GetZ()) * v.GetZ();
        energy += 0.5 * v2 / static_cast<double>(motion.GetInverseMass()) + 0.5 * rotational;
    }
    return energy;
}

std::vector<std::array<float, 3>> JoltScene::centres() const {
    const JPH::BodyInterface& bodyInterface = impl_->system.GetBodyInterfaceNoLock();
    std::vector<std::array<float, 3>> out;
    out.reserve(impl_->dynamic.size());
    for (const JPH::BodyID id : impl_->dynamic) {
        const JPH::RVec3 p = bodyInterface.GetCenterOfMassPosition(id);
        out.push_back(
            {static_cast<float>(p.GetX()), static_cast<float>(p.GetY()), static_cast<float>(p.GetZ())});
    }
    return out;
}

} // namespace kz::bench
