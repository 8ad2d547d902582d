// Shape cast (time of impact) of two convex shapes in motion: when two shapes of convex.hpp, each
// moving and turning, first come within a gap of each other.
//
// How it runs (shape_cast_steps.hpp): conservative advancement (Mirtich 1996; Zhang, Redon, Lee
// and Kim 2006; Bullet's btContinuousConvexCollision) on GJK's distance. At the time t reached,
// GJK gives the distance d of the two shapes and the unit normal n from B toward A. A point of A
// moves along n no faster than dot(velocityA, n) minus |angularVelocityA x n| times A's reach
// from the line it turns about, a point of B no faster than the same bound the other way, so the slab between
// the shapes' support planes along n shrinks at most at the rate mu, the sum of the two bounds:
// nothing can touch before t + (d - gap) / mu. t advances by that much (using GJK's certified
// lower bound for d), and the shapes are posed again there. For two shapes that only move, the
// step is Newton's on the distance (mu is its exact rate along n), exact in one step for flat
// faces meeting flat faces; turning shapes approach their contact more slowly, as the bound
// grows with the turn. Each t reached is safe: the shapes are apart by at least the gap before
// it (up to the float rounding of the poses), never past the first contact.
// No function allocates, throws or does I/O.
#pragma once

#include "convex.hpp"
#include "gjk.hpp"

namespace kz {

/// How a shape moves during a cast, from its pose at t = 0: its pivot (the point it turns about,
/// e.g. its centre of mass) moves at `velocity` while the shape turns about the pivot at
/// `angularVelocity`. A point x of the shape at t = 0 is at
///   pivot + velocity * t + R(angularVelocity * t) * (x - pivot)
/// at time t, R(w) the rotation by |w| radians about w (right-handed): a body's motion under
/// constant velocities.
struct ConvexMotion {
    glm::vec3 velocity{0.0f};        ///< Of the pivot, in length units per unit of t.
    glm::vec3 angularVelocity{0.0f}; ///< Radians per unit of t about its direction.
    glm::vec3 pivot{0.0f};           ///< The point turned about, in the world, at t = 0.
};

/// The motion of a shape that moves at `velocity` and turns at `angularVelocity` about its centre
/// (shapeCenter).
ConvexMotion motionAboutCenter(const ConvexShape& shape, const glm::vec3& velocity,
                               const glm::vec3& angularVelocity = glm::vec3(0.0f));

/// A shape's centre: a sphere's or box's centre, the middle of a capsule's or cylinder's segment,
/// a hull's position (its local origin).
glm::vec3 shapeCenter(const ConvexShape& shape);

/// The shape at time t of `motion` (see ConvexMotion), computed in double and rounded once. A
/// posed hull keeps its hull and gets a new position and orientation.
ConvexShape shapeAtTime(const ConvexShape& shape, const ConvexMotion& motion, float t);

/// The cast stops when the distance is within this times the larger shape's extent (the radius of
/// the ball round its centre that holds it) of the gap, plus float's resolution of the poses'
/// coordinates (for shapes far from the origin or travelling far).
inline constexpr double kCastTolerance = 1e-5;
/// The cast's cap on its steps (GJK runs). Moving shapes take a few (Newton's steps); shapes
/// turning fast against a slow approach take more, as each step's bound grows with the turn.
inline constexpr int kCastMaxIterations = 128;

/// Why the cast stopped.
enum class ShapeCastStatus {
    Hit,            ///< The shapes came within the gap (plus the tolerance) at t > 0.
    StartsTouching, ///< They are within the gap already at t = 0 (overlapping included).
    Miss,           ///< The bound on their approach is not positive (they do not approach along
                    ///< the normal) or the next safe time passes tMax: no contact by tMax.
    IterationCap,   ///< kCastMaxIterations steps: t is the safe time reached, reported as a hit.
    InvalidInput,   ///< A shape failed isValid, a motion is not finite, or tMax is not finite
                    ///< and >= 0, or the gap not finite and >= 0: no hit.
};

/// The cast's answer.
struct ShapeCast {
    ShapeCastStatus status;
    bool hit; ///< Hit, StartsTouching or IterationCap.
    float t;  ///< The time of impact (0 when it starts touching); tMax for a miss.
    /// GJK's answer on the shapes posed at t (shapeAtTime): their distance (about the gap), the
    /// closest points and the unit normal from B toward A (the step before's normal when rounding
    /// left them touching; zero when they overlap at t = 0). Distance +infinity, points and
    /// normal zero for a miss or invalid input.
    float distance;
    glm::vec3 pointA, pointB, normal;
    int iterations; ///< Steps taken (GJK runs), 0 for invalid input.
};

/// When A, moving by `motionA`, and B, moving by `motionB`, first come within `gap` of each
/// other for t in [0, tMax] (conservative advancement on GJK's distance, see above). The time is
/// exact to kCastTolerance of the shapes' extent in distance: at the t returned, the shapes are
/// between gap and gap plus that tolerance apart, each step aiming at the middle (or nearer, for
/// a start within the gap).
ShapeCast castConvexConvex(const ConvexShape& a, const ConvexMotion& motionA, const ConvexShape& b,
                           const ConvexMotion& motionB, float tMax = 1.0f, float gap = 0.0f);

} // namespace kz
