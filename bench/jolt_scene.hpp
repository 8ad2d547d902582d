// bench_physics's optional peer: a Jolt Physics world (built only with -DKZ_JOLT_DIR, see
// bench/CMakeLists.txt). The interface is plain floats: jolt_scene.cpp is compiled with Jolt's own
// flags (-mavx2 -mfma ..., its JPH_* defines), so it shares no inline maths (glm, kz) with the
// Kolize code of the benchmark, whose bits must not depend on which copy the linker keeps.
#pragma once

#include <array>
#include <memory>
#include <vector>

namespace kz::bench {

/// A body's shape, in kz::ShapeType's order.
enum class JoltShape { Sphere, Box, Capsule, Cylinder, Hull };

/// One dynamic body, as bench_physics's scene has it.
struct JoltBodySpec {
    JoltShape shape;
    float radius;                                 ///< Sphere, capsule or cylinder radius, m.
    std::array<float, 3> halfExtents;             ///< Box half extents, m.
    float halfHeight;                             ///< Capsule's core segment or cylinder's height, half, m.
    std::vector<std::array<float, 3>> hullPoints; ///< Hull: its vertices, centre of mass at 0.
    float mass;                                   ///< kg.
    std::array<float, 3> position;                ///< Centre, m.
    std::array<float, 4> orientation;             ///< Unit quaternion x, y, z, w.
    std::array<float, 3> velocity;                ///< m/s.
    std::array<float, 3> angularVelocity;         ///< World frame, rad/s.
};

/// A wall: dot(normal, x) + d = 0, the room on the side the normal points to (kz::Plane).
struct JoltWall {
    std::array<float, 3> normal;
    float d;
};

/// A Jolt PhysicsSystem holding the walls as static PlaneShapes and the bodies as dynamic spheres,
/// boxes, capsules, cylinders (along y) and convex hulls: gravity off, restitution 1, friction 0, no damping,
/// no sleeping; Jolt's settings otherwise at their defaults, unless `elastic`.
class JoltScene {
public:
    /// `threads`: 1 runs every job on the calling thread (a JobSystemThreadPool with no worker);
    /// more adds threads - 1 workers. `linearCast`: EMotionQuality::LinearCast (Jolt's CCD) on
    /// every body, else Discrete. `elastic` lifts the two defaults that take energy out of an
    /// elastic scene: the angular speed limit (BodyCreationSettings::mMaxAngularVelocity, about
    /// 47 rad/s, raised to 1e4) and the speed under which contacts do not bounce
    /// (PhysicsSettings::mMinVelocityForRestitution, 1 m/s, set to 0). `roomExtent` bounds the
    /// walls' planes (their half extent).
    JoltScene(const std::vector<JoltBodySpec>& bodies, const std::vector<JoltWall>& walls, float roomExtent,
              int threads, bool linearCast, bool elastic);
    ~JoltScene();
    JoltScene(const JoltScene&) = delete;
    JoltScene& operator=(const JoltScene&) = delete;

    /// One PhysicsSystem::Update of `dt` with one collision step; aborts with a message if Jolt
    /// reports a full cache (its capacities are set from the body count, so that is a bug here).
    void step(float dt);
    /// Translational plus rotational kinetic energy of the dynamic bodies, in double precision.
    double kineticEnergy() const;
    /// The dynamic bodies' centres, in the order they were given.
    std::vector<std::array<float, 3>> centres() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace kz::bench
