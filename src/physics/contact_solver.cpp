// The contact solver: effective masses, warm start, the sequential-impulse iterations (block
// solve of each manifold's normal impulses, Coulomb friction, rolling resistance) and the
// impulse cache.
#include "contact_solver.hpp"

#include "memory_bytes.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

constexpr int kMaxIterations = 64;    ///< Sequential-impulse sweeps per solve.
constexpr float kConvergence = 1e-6f; ///< Stop when no point's impulse changes more (kg m/s).

} // namespace

void ContactSolver::clear() {
    points_.clear();
    rolling_.clear();
}

int ContactSolver::addManifold(const Rolling& rolling) {
    rolling_.push_back(rolling);
    return static_cast<int>(rolling_.size());
}

template <class F>
void ContactSolver::forEachManifold(F&& f) {
    for (std::size_t begin = 0; begin < points_.size();) {
        std::size_t end = begin + 1;
        while (end < points_.size() && points_[end].group == points_[begin].group)
            ++end;
        f(&points_[begin], static_cast<int>(end - begin));
        begin = end;
    }
}

inline float ContactSolver::effectiveMass(const SolverPoint& p, const glm::vec3& dir) const {
    const Body& a = bodies_[p.a];
    float k = a.invMass + glm::dot(dir, glm::cross(invInertia_[p.a] * glm::cross(p.rA, dir), p.rA));
    if (p.b >= 0) {
        const Body& b = bodies_[p.b];
        k += b.invMass + glm::dot(dir, glm::cross(invInertia_[p.b] * glm::cross(p.rB, dir), p.rB));
    }
    return k > 0.0f ? 1.0f / k : 0.0f;
}

void ContactSolver::applyImpulse(const SolverPoint& p, const glm::vec3& impulse) {
    Body& a = bodies_[p.a];
    a.velocity += impulse * a.invMass;
    a.angularVelocity += invInertia_[p.a] * glm::cross(p.rA, impulse);
    a.angularMomentum += glm::cross(p.rA, impulse);
    if (p.b >= 0) {
        Body& b = bodies_[p.b];
        b.velocity -= impulse * b.invMass;
        b.angularVelocity -= invInertia_[p.b] * glm::cross(p.rB, impulse);
        b.angularMomentum -= glm::cross(p.rB, impulse);
    }
}

inline glm::vec3 ContactSolver::relativeVelocity(const SolverPoint& p) const {
    const Body& a = bodies_[p.a];
    glm::vec3 v = a.velocity + glm::cross(a.angularVelocity, p.rA);
    if (p.b >= 0) v -= bodies_[p.b].velocity + glm::cross(bodies_[p.b].angularVelocity, p.rB);
    return v;
}

void ContactSolver::prepare(std::span<Body> bodies, std::span<const int> solvedBodies) {
    bodies_ = bodies;
    invInertia_.resize(bodies.size());
    for (int i : solvedBodies)
        invInertia_[i] = inverseInertiaWorld(bodies_[i]);
    for (SolverPoint& p : points_) {
        p.massN = effectiveMass(p, p.normal);
        p.massT1 = effectiveMass(p, p.tangent1);
        p.massT2 = effectiveMass(p, p.tangent2);
    }
    blocks_.resize(rolling_.size());
    forEachManifold([&](const SolverPoint* group, int count) { computeBlock(group, count); });
}

void ContactSolver::computeBlock(const SolverPoint* group, int count) {
    // k_ij = 1/mA + (rA_j x n) . IA^-1 (rA_i x n), plus the same for B.
    Block& block = blocks_[static_cast<std::size_t>(group[0].group - 1)];
    block.whole.ready = false;
    for (int i = 0; i < count && count > 1; ++i) {
        const SolverPoint& pi = group[i];
        const glm::vec3 ai = invInertia_[pi.a] * glm::cross(pi.rA, pi.normal);
        const glm::vec3 bi = pi.b >= 0 ? invInertia_[pi.b] * glm::cross(pi.rB, pi.normal) : glm::vec3(0.0f);
        for (int j = 0; j < count; ++j) {
            const SolverPoint& pj = group[j];
            double kij = bodies_[pi.a].invMass + glm::dot(glm::cross(pj.rA, pj.normal), ai);
            if (pi.b >= 0) kij += bodies_[pi.b].invMass + glm::dot(glm::cross(pj.rB, pj.normal), bi);
            block.k[i][j] = kij;
        }
    }
}

void ContactSolver::warmStart() {
    for (SolverPoint& p : points_) {
        if (p.target != 0.0f) continue; // only resting contacts
        const glm::vec3 local = glm::inverse(bodies_[p.a].orientation) * p.rA;
        auto it = std::lower_bound(cache_.begin(), cache_.end(), p.pairKey,
                                   [](const auto& e, std::uint64_t k) { return e.first < k; });
        for (; it != cache_.end() && it->first == p.pairKey; ++it) {
            if (glm::length(it->second.localPoint - local) < 0.02f) {
                p.lambdaN = it->second.lambdaN;
                p.lambdaT1 = 0.0f; // tangent directions change from step to step
                p.lambdaT2 = 0.0f;
                applyImpulse(p, p.normal * p.lambdaN);
                break;
            }
        }
    }
}

void ContactSolver::solveNormal(SolverPoint& p, float& largest) {
    const float vn = glm::dot(relativeVelocity(p), p.normal);
    const float lambda = std::max(p.lambdaN + (p.target - vn) * p.massN, 0.0f);
    const float delta = lambda - p.lambdaN;
    p.lambdaN = lambda;
    applyImpulse(p, p.normal * delta);
    largest = std::max(largest, std::abs(delta) / std::max(p.massN, 1e-12f));
}

void ContactSolver::solveNormalBlock(SolverPoint* group, int count, float& largest) {
    // The exact answer of the small complementarity problem (vn_i >= target_i, lambda_i >= 0,
    // one of them tight): nearly coincident points make Gauss-Seidel crawl; this does not.
    Block& block = blocks_[static_cast<std::size_t>(group[0].group - 1)];
    const double(&k)[4][4] = block.k;
    double rhs[4], lambdaOld[4];
    for (int i = 0; i < count; ++i) {
        const SolverPoint& pi = group[i];
        lambdaOld[i] = pi.lambdaN;
        rhs[i] = static_cast<double>(pi.target) - glm::dot(relativeVelocity(pi), pi.normal);
    }
    // Target in terms of the new totals: K lambdaNew >= rhs + K lambdaOld.
    double goal[4] = {0, 0, 0, 0};
    for (int i = 0; i < count; ++i) {
        goal[i] = rhs[i];
        for (int j = 0; j < count; ++j)
            goal[i] += k[i][j] * lambdaOld[j];
    }
    double best[4] = {0, 0, 0, 0};
    const bool solved = solveBlock(k, goal, count, block.whole, best);
    for (int i = 0; i < count; ++i) {
        SolverPoint& p = group[i];
        if (!solved) { // numerically stuck: one Gauss-Seidel update
            solveNormal(p, largest);
            continue;
        }
        const float lambda = static_cast<float>(best[i]);
        const float delta = lambda - p.lambdaN;
        p.lambdaN = lambda;
        applyImpulse(p, p.normal * delta);
        largest = std::max(largest, std::abs(delta) / std::max(p.massN, 1e-12f));
    }
}

void ContactSolver::solveFriction(SolverPoint* group, int count, float& largest) {
    for (int i = 0; i < count; ++i) {
        SolverPoint& p = group[i];
        if (!(p.friction > 0.0f)) continue;
        const float limit = p.friction * p.lambdaN;
        const glm::vec3 v = relativeVelocity(p);
        float l1 = p.lambdaT1 - glm::dot(v, p.tangent1) * p.massT1;
        float l2 = p.lambdaT2 - glm::dot(v, p.tangent2) * p.massT2;
        // Coulomb's cone, not a box: the tangential impulse's length is at most mu lambdaN.
        const float lengthSq = l1 * l1 + l2 * l2;
        if (lengthSq > limit * limit) {
            const float scale = limit / std::sqrt(lengthSq);
            l1 *= scale;
            l2 *= scale;
        }
        applyImpulse(p, p.tangent1 * (l1 - p.lambdaT1) + p.tangent2 * (l2 - p.lambdaT2));
        largest = std::max(largest, std::abs(l1 - p.lambdaT1) / std::max(p.massT1, 1e-12f));
        largest = std::max(largest, std::abs(l2 - p.lambdaT2) / std::max(p.massT2, 1e-12f));
        p.lambdaT1 = l1;
        p.lambdaT2 = l2;
    }
}

// Rolling resistance (Box2D v3's, in 3D): the relative angular velocity wA - wB (rolling about
// the contact plane's axes, and spinning about the normal, which a point contact cannot
// otherwise damp) is opposed by an angular impulse whose length is at most
// arm * (the manifold's total normal impulse): Coulomb friction for rotation. Returns the change
// of rolling surface speed.
float ContactSolver::resistRolling(Rolling& r, const SolverPoint* group, int count) {
    const SolverPoint& first = group[0];
    float load = 0.0f;
    for (int i = 0; i < count; ++i)
        load += group[i].lambdaN;
    glm::vec3 w = bodies_[first.a].angularVelocity;
    glm::mat3 invInertia = invInertia_[first.a];
    if (first.b >= 0) {
        w -= bodies_[first.b].angularVelocity;
        invInertia += invInertia_[first.b];
    }
    const float speed = glm::length(w);
    glm::vec3 impulse = r.impulse;
    if (speed > 0.0f) {
        const glm::vec3 u = w / speed;
        impulse -= u * (speed / glm::dot(u, invInertia * u));
    }
    const float limit = r.arm * load, length = glm::length(impulse);
    if (length > limit) impulse *= limit / length;
    const glm::vec3 delta = impulse - r.impulse;
    r.impulse = impulse;
    Body& a = bodies_[first.a];
    a.angularVelocity += invInertia_[first.a] * delta;
    a.angularMomentum += delta;
    if (first.b >= 0) {
        Body& b = bodies_[first.b];
        b.angularVelocity -= invInertia_[first.b] * delta;
        b.angularMomentum -= delta;
    }
    return glm::length(invInertia * delta) * r.radius;
}

void ContactSolver::solve() {
    for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
        float largest = 0.0f;
        // One manifold (the points of one candidate pair) at a time.
        forEachManifold([&](SolverPoint* group, int count) {
            if (count == 1) {
                solveNormal(group[0], largest);
            } else {
                solveNormalBlock(group, count, largest);
            }
            solveFriction(group, count, largest);
            Rolling& rolling = rolling_[static_cast<std::size_t>(group[0].group - 1)];
            if (rolling.arm > 0.0f) largest = std::max(largest, resistRolling(rolling, group, count));
        });
        if (largest < kConvergence) break;
    }
}

void ContactSolver::storeImpulses() {
    nextCache_.clear();
    for (const SolverPoint& p : points_) {
        if (p.lambdaN > 0.0f && p.target == 0.0f) {
            nextCache_.push_back(
                {p.pairKey, {glm::inverse(bodies_[p.a].orientation) * p.rA, p.lambdaN, 0, 0}});
        }
    }
    std::stable_sort(nextCache_.begin(), nextCache_.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::swap(cache_, nextCache_);
}

std::size_t ContactSolver::memoryBytes() const {
    return vectorBytes(points_) + vectorBytes(rolling_) + vectorBytes(blocks_) + vectorBytes(invInertia_) +
           vectorBytes(cache_) + vectorBytes(nextCache_);
}

} // namespace kz
