// Private to kz_physics: sequential impulses on the touching points of one resolve (Box2D v3's
// contact_solver: prepare, warm start, solve, store impulses).
//
// Each point gets a Newton restitution target (vn' = -e vn, or 0 for slow contacts under
// gravity); each manifold's normal impulses are block-solved exactly (block_solver.hpp: the
// least-norm split where, as for the four points of a resting box face, the split is
// undetermined); Coulomb friction stays inside the cone per point; balls get rolling resistance;
// resting contacts are warm started from the last step's impulses. At convergence an elastic
// (e = 1) solve changes no kinetic energy: sum_i lambda_i (vn_i + vn_i') / 2 = 0.
#pragma once

#include "block_solver.hpp"
#include "body.hpp"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace kz {

/// One touching point of the current resolve.
struct SolverPoint {
    int a, b;               ///< Bodies; b == -1 for a wall or an obstacle (static: infinite mass).
    int candidate;          ///< The candidate pair it comes from.
    int group;              ///< The manifold it belongs to (1-based; block-solved together).
    std::uint64_t pairKey;  ///< pairKey() of its candidate: the warm-start cache's key.
    std::uint32_t triangle; ///< Obstacle triangle (obstacle contacts only).
    glm::vec3 rA, rB, normal, tangent1, tangent2;
    float massN, massT1, massT2;
    float target; ///< Normal velocity the impulse aims at (0 for a resting contact).
    float friction;
    float lambdaN = 0.0f, lambdaT1 = 0.0f, lambdaT2 = 0.0f;
    float depth;
    /// The normal relative velocity when gathered, before any impulse (the impact log). The point
    /// itself is A's position + rA: not kept, so that a point stays 136 bytes, as the iterations
    /// sweep them.
    float speedBefore;
};

/// Rolling resistance of one manifold: an angular impulse against the bodies' relative
/// rotation, at most arm * sum lambdaN.
struct Rolling {
    float arm;               ///< Coefficient times the sphere's radius (m); 0: no rolling resistance.
    float radius;            ///< That sphere's radius (turns angular velocity into surface speed).
    glm::vec3 impulse{0.0f}; ///< Accumulated angular impulse on A (N m s).
};

class ContactSolver {
public:
    /// Starts a resolve with no points.
    void clear();
    /// Opens a manifold (its points follow through addPoint); returns its group number.
    int addManifold(const Rolling& rolling);
    void addPoint(const SolverPoint& point) { points_.push_back(point); }
    const std::vector<SolverPoint>& points() const { return points_; }

    /// The world inverse inertia of the bodies in the solve, each point's effective masses and
    /// each manifold's K, all fixed through the iterations.
    void prepare(std::span<Body> bodies, std::span<const int> solvedBodies);
    /// Applies the impulses stored at the last step start to the resting points at the same
    /// place of the same pair (normal impulses only: tangent directions change step to step).
    void warmStart();
    /// Sequential-impulse sweeps until no impulse changes by more than kConvergence.
    void solve();
    /// Keeps the resting points' normal impulses for the next step's warm start.
    void storeImpulses();
    /// The heap bytes a copy holds (its points, blocks and the warm-start cache).
    std::size_t memoryBytes() const;

private:
    struct CachedImpulse {
        glm::vec3 localPoint; ///< Contact point in A's frame.
        float lambdaN, lambdaT1, lambdaT2;
    };
    /// Per manifold of more than one point: K of its normal impulses, fixed through a resolve.
    struct Block {
        double k[4][4];
        PseudoInverseCache whole;
    };

    // Always inlined: they run for every point in every iteration.
    [[gnu::always_inline]] float effectiveMass(const SolverPoint& p, const glm::vec3& dir) const;
    void applyImpulse(const SolverPoint& p, const glm::vec3& impulse);
    [[gnu::always_inline]] glm::vec3 relativeVelocity(const SolverPoint& p) const;
    void computeBlock(const SolverPoint* group, int count);
    void solveNormal(SolverPoint& p, float& largest);
    void solveNormalBlock(SolverPoint* group, int count, float& largest);
    void solveFriction(SolverPoint* group, int count, float& largest);
    float resistRolling(Rolling& r, const SolverPoint* group, int count);
    /// Calls f(group, count) for each manifold's run of points.
    template <class F>
    void forEachManifold(F&& f);

    std::span<Body> bodies_;
    std::vector<SolverPoint> points_;
    std::vector<Rolling> rolling_; ///< Per manifold (index: group - 1).
    std::vector<Block> blocks_;    ///< Index: group - 1 (unused for one-point manifolds).
    std::vector<glm::mat3> invInertia_;
    /// Last step start's resting impulses, sorted by pair key.
    std::vector<std::pair<std::uint64_t, CachedImpulse>> cache_, nextCache_;
};

} // namespace kz
