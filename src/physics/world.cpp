// The world step: free flight with exact times of impact (no tunnelling), contacts resolved by
// sequential impulses at each impact, and a final position projection.
//
// Step(h):
//   1. v += g h.
//   2. Broad phase (a uniform grid) on each body's bounding sphere grown by twice its travel in
//      the step, plus the walls and mesh obstacles (by their world bounds) each can reach: the
//      candidate pairs for the step. A body that an impact sends outside its box later looks for
//      new partners then (watchPath).
//   3. Resolve the contacts that touch now, then repeat: take the earliest time of impact off a
//      heap (exact for sphere-wall, sphere-sphere and sphere-triangle, conservative advancement
//      for boxes), fly
//      the bodies involved (each body keeps its own clock) to it, resolve their contacts, and
//      recompute the impacts of the bodies whose velocity changed. Until the step is used up.
//   4. Push apart what still overlaps by more than kSlop (positions only: no energy added).
//
// Mesh obstacles are static like walls. A body's partners among an obstacle's triangles are the
// ones its bounding sphere can reach (the BVH queried in the mesh's frame); each touching
// triangle gives its own manifold, deepest first, and a point that lies on a deeper triangle's
// contact is dropped, so shared edges of a flat region give no ghost bumps.
//
// Resolving contacts: sequential impulses on all touching points of the involved bodies, with a
// Newton restitution target per point (vn' = -e vn, or 0 for slow contacts under gravity), an
// exact block solve of each manifold's normal impulses (the least-norm split where, as for the
// four points of a resting box face, the split is undetermined), Coulomb friction inside the
// cone per point, rolling resistance for balls, and warm starting for resting contacts. At convergence an
// elastic (e = 1) solve changes no kinetic energy: sum_i lambda_i (vn_i + vn_i') / 2 = 0.
//
// Free flight keeps each body's world angular momentum and turns it with the symplectic
// splitting of Dullweber, Leimkuhler and McLachlan (1997): rotations about the principal axes,
// projected back onto the body's rotational energy, so a tumbling box neither gains nor loses
// energy over time.
#include "world.hpp"

#include "broadphase.hpp"
#include "geom/closest.hpp"
#include "geom/contact.hpp"
#include "geom/overlap.hpp"
#include "geom/plane.hpp"
#include "geom/raycast.hpp"
#include "geom/sweep.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

constexpr float kMargin = 0.002f;         ///< Closer than this counts as touching.
constexpr float kSlop = 0.0005f;          ///< Overlap left alone by the position projection.
constexpr float kPreviewMinSpeed = 1e-3f; ///< Slower bodies are at rest for the impact preview (m/s).
constexpr int kMaxIterations = 64;        ///< Sequential-impulse sweeps per solve.
constexpr float kConvergence = 1e-6f;     ///< Stop when no point's impulse changes more (kg m/s).
/// At most this many triangle manifolds per body and obstacle in one solve (the deepest).
constexpr std::size_t kMaxMeshManifolds = 8;

glm::vec3 principalInertia(ShapeType shape, float mass, float radius, const glm::vec3& half) {
    if (shape == ShapeType::Sphere) return glm::vec3(0.4f * mass * radius * radius);
    const glm::vec3 s = half * half; // (2h)^2 / 12 = h^2 / 3
    return (mass / 3.0f) * glm::vec3(s.y + s.z, s.x + s.z, s.x + s.y);
}

float boundingRadius(const Body& b) {
    return b.shape == ShapeType::Sphere ? b.radius : glm::length(b.halfExtents);
}

/// Upper bound of the speed at which rotation moves any surface point (0 for a sphere, whose
/// surface does not move when it spins).
float rotationSpeedBound(const Body& b) {
    if (b.shape == ShapeType::Sphere) return 0.0f;
    const glm::vec3 inv = 1.0f / b.inertiaLocal;
    return glm::length(b.angularMomentum) * (inv.x + inv.y + inv.z) * glm::length(b.halfExtents);
}

/// 1/2 L_b . I^-1 L_b with L_b the body-frame angular momentum, in double precision.
double rotationalEnergy(const glm::quat& orientation, const glm::vec3& momentum, const glm::vec3& inertia) {
    const glm::dvec3 bodyMomentum(glm::inverse(glm::dquat(orientation)) * glm::dvec3(momentum));
    return 0.5 * glm::dot(bodyMomentum, bodyMomentum / glm::dvec3(inertia));
}

/// Free flight for t seconds: straight line, and the angular momentum turned by the
/// Strang-split principal-axis rotations (DLM). Angular velocity follows from the momentum.
/// `spinEnergy` is the body's rotational energy, which free flight must keep: the world stores
/// it per body and updates it only when an impulse changes the angular momentum, so rounding
/// in one flight cannot shift the level the next one aims at.
void drift(Body& b, float t, double spinEnergy) {
    b.position += b.velocity * t;
    if (b.angularMomentum == glm::vec3(0.0f)) return;
    if (b.shape == ShapeType::Sphere ||
        (b.inertiaLocal.x == b.inertiaLocal.y && b.inertiaLocal.y == b.inertiaLocal.z)) {
        // Isotropic inertia: the angular velocity is constant, the rotation exact.
        const float speed = glm::length(b.angularVelocity);
        if (speed > 0.0f) {
            b.orientation =
                glm::normalize(glm::angleAxis(speed * t, b.angularVelocity / speed) * b.orientation);
        }
        return;
    }
    // The world angular momentum never changes in free flight; only its body-frame image turns.
    glm::vec3 bodyMomentum = glm::inverse(b.orientation) * b.angularMomentum;
    // A turn by angle a about body axis i, with the rotation in Cayley form (no trigonometry):
    // q_i = (1, (a/2) e_i) / norm turns the body by 2 atan(a/2) = a - a^3/12 + ..., and the
    // body-frame momentum turns back by exactly the same rotation, so L stays exact.
    const auto turn = [&](int axis, float dt) {
        const float half = 0.5f * dt * bodyMomentum[axis] / b.inertiaLocal[axis];
        const float inv = 1.0f / (1.0f + half * half);
        const float cosine = (1.0f - half * half) * inv, sine = 2.0f * half * inv;
        glm::quat q(1.0f, 0.0f, 0.0f, 0.0f);
        q[axis] = half; // glm::quat stores x, y, z, w: index 0..2 are the vector part
        b.orientation = b.orientation * (q * std::sqrt(inv));
        const int j = (axis + 1) % 3, k = (axis + 2) % 3;
        const float mj = bodyMomentum[j], mk = bodyMomentum[k];
        bodyMomentum[j] = cosine * mj + sine * mk; // rotate by -angle about the axis
        bodyMomentum[k] = -sine * mj + cosine * mk;
    };
    const double energy = spinEnergy;
    // Sub-steps keep every turn small (<= 0.1 rad) even for a box spinning at hundreds of rad/s.
    const float spin = glm::length(b.angularVelocity) * t;
    // Clamped as a float: a NaN or huge spin must not reach the conversion to int.
    const float turns = std::ceil(spin / 0.1f);
    const int substeps = turns >= 1.0f ? (turns < 4096.0f ? static_cast<int>(turns) : 4096) : 1;
    const float dt = t / static_cast<float>(substeps);
    for (int k = 0; k < substeps; ++k) {
        turn(0, 0.5f * dt);
        turn(1, 0.5f * dt);
        turn(2, dt);
        turn(1, 0.5f * dt);
        turn(0, 0.5f * dt);
    }
    b.orientation = glm::normalize(b.orientation);
    b.angularVelocity = b.orientation * (bodyMomentum / b.inertiaLocal);

    // The splitting keeps L exactly but the energy only to O((w t)^2). Project back onto the
    // energy level (Hairer, Lubich, Wanner, Geometric Numerical Integration IV.4): turning the
    // body by a small d changes the energy by -d . (L x w), and turning about L not at all.
    const glm::vec3 gradient = glm::cross(b.angularMomentum, b.angularVelocity);
    const float gradientSq = glm::dot(gradient, gradient);
    const double excess = rotationalEnergy(b.orientation, b.angularMomentum, b.inertiaLocal) - energy;
    if (gradientSq > 1e-20f && std::abs(excess) < 1e-2 * energy) {
        const glm::vec3 d = static_cast<float>(excess / gradientSq) * gradient;
        const float angle = glm::length(d);
        if (angle > 0.0f) {
            b.orientation = glm::normalize(glm::angleAxis(angle, d / angle) * b.orientation);
            b.angularVelocity =
                b.orientation * ((glm::inverse(b.orientation) * b.angularMomentum) / b.inertiaLocal);
        }
    }
}

/// The pose after t seconds of free flight at the current angular velocity: the conservative
/// advancement's look-ahead. It differs from drift() (which keeps the angular momentum) only by
/// O((w t)^2), far inside the advancement's tolerance, and needs one rotation instead of many.
void predict(const Body& b, float t, Body& out) {
    out.position = b.position + b.velocity * t;
    const float speed = glm::length(b.angularVelocity);
    out.orientation =
        speed > 0.0f ? glm::angleAxis(speed * t, b.angularVelocity / speed) * b.orientation : b.orientation;
}

/// Whether the bounding spheres of two bodies come within the contact margin.
bool boundsTouch(const Body& a, const Body& b) {
    const float reach = boundingRadius(a) + boundingRadius(b) + kMargin;
    const glm::vec3 d = a.position - b.position;
    return glm::dot(d, d) <= reach * reach;
}

/// One key per candidate pair: body a and body b, or body a and wall `wall` (b < 0), or body a
/// and obstacle `mesh` (b < 0, mesh >= 0).
std::uint64_t pairKey(int a, int b, int wall, int mesh) {
    return (static_cast<std::uint64_t>(a) << 32) |
           static_cast<std::uint64_t>(b >= 0      ? b
                                      : mesh >= 0 ? (0x20000000 | mesh)
                                                  : (0x40000000 | wall));
}

/// Spheres against walls and against spheres have exact times of impact: they meet at gap 0.
bool meetExactly(const Body& a, const Body* b) {
    return a.shape == ShapeType::Sphere && (b == nullptr || b->shape == ShapeType::Sphere);
}

/// Whether any point of the box lies on or behind the plane (it can reach the wall).
bool boxReachesPlane(const Aabb& box, const Plane& plane) {
    const glm::vec3 lowest(plane.normal.x >= 0.0f ? box.min.x : box.max.x,
                           plane.normal.y >= 0.0f ? box.min.y : box.max.y,
                           plane.normal.z >= 0.0f ? box.min.z : box.max.z);
    return signedDistance(plane, lowest) <= 0.0f;
}

/// Signed distance of a body's surface from a plane (negative: through it).
float distanceToPlane(const Body& b, const Plane& p) {
    const float centre = signedDistance(p, b.position);
    if (b.shape == ShapeType::Sphere) return centre - b.radius;
    const glm::mat3 axes = glm::mat3_cast(b.orientation);
    const float support = b.halfExtents.x * std::abs(glm::dot(axes[0], p.normal)) +
                          b.halfExtents.y * std::abs(glm::dot(axes[1], p.normal)) +
                          b.halfExtents.z * std::abs(glm::dot(axes[2], p.normal));
    return centre - support;
}

/// A lower bound of the distance between two bodies' surfaces (exact but for box-box, where
/// it is the largest separation over the 15 separating axes).
float distanceBetween(const Body& a, const Body& b) {
    if (a.shape == ShapeType::Sphere && b.shape == ShapeType::Sphere) {
        return glm::length(a.position - b.position) - a.radius - b.radius;
    }
    if (a.shape == ShapeType::Sphere || b.shape == ShapeType::Sphere) {
        const Body& sphere = a.shape == ShapeType::Sphere ? a : b;
        const Body& box = a.shape == ShapeType::Sphere ? b : a;
        return std::sqrt(sqDistPointObb(sphere.position, obbOf(box))) - sphere.radius;
    }
    // Separation along the 15 axes, everything in a's frame (Ericson 4.4.1): R = A^T B.
    const glm::mat3 axesA = glm::mat3_cast(a.orientation), axesB = glm::mat3_cast(b.orientation);
    const glm::vec3 &ea = a.halfExtents, &eb = b.halfExtents;
    glm::mat3 rot, absRot;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            rot[i][j] = glm::dot(axesA[i], axesB[j]);
            absRot[i][j] = std::abs(rot[i][j]);
        }
    }
    const glm::vec3 toB = b.position - a.position;
    const glm::vec3 t(glm::dot(toB, axesA[0]), glm::dot(toB, axesA[1]), glm::dot(toB, axesA[2]));
    float best = -INFINITY;
    for (int i = 0; i < 3; ++i) {
        best = std::max(best, std::abs(t[i]) - ea[i] -
                                  (eb[0] * absRot[i][0] + eb[1] * absRot[i][1] + eb[2] * absRot[i][2]));
        const float along = t[0] * rot[0][i] + t[1] * rot[1][i] + t[2] * rot[2][i];
        best = std::max(best, std::abs(along) - eb[i] -
                                  (ea[0] * absRot[0][i] + ea[1] * absRot[1][i] + ea[2] * absRot[2][i]));
    }
    for (int i = 0; i < 3; ++i) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            // |a_i x b_j| = sqrt(1 - R_ij^2); near-parallel edges are covered by the face axes.
            const float lengthSq = 1.0f - rot[i][j] * rot[i][j];
            if (lengthSq < 1e-6f) continue;
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const float ra = ea[i1] * absRot[i2][j] + ea[i2] * absRot[i1][j];
            const float rb = eb[j1] * absRot[i][j2] + eb[j2] * absRot[i][j1];
            const float distance = std::abs(t[i2] * rot[i1][j] - t[i1] * rot[i2][j]);
            best = std::max(best, (distance - ra - rb) / std::sqrt(lengthSq));
        }
    }
    return best;
}

/// A lower bound of the distance between a body's surface and a set of triangles; INFINITY for
/// none. Exact for a sphere. For a box, per triangle the larger of two lower bounds: the centre's
/// distance less the bounding radius (cheap), and the largest separation over the 13 separating
/// axes, computed only when the cheap bound does not already rule the triangle out.
float distanceToTriangles(const Body& a, std::span<const Triangle> triangles) {
    if (a.shape == ShapeType::Sphere) {
        float bestSq = INFINITY;
        for (const Triangle& t : triangles) {
            const glm::vec3 d = a.position - closestPtPointTriangle(a.position, t);
            bestSq = std::min(bestSq, glm::dot(d, d));
        }
        return triangles.empty() ? INFINITY : std::sqrt(bestSq) - a.radius;
    }
    const Obb box = obbOf(a);
    const float reach = boundingRadius(a);
    float best = INFINITY;
    for (const Triangle& t : triangles) {
        const glm::vec3 d = a.position - closestPtPointTriangle(a.position, t);
        const float cheap = std::sqrt(glm::dot(d, d)) - reach;
        if (cheap >= best) continue;
        best = std::min(best, std::max(cheap, separationObbTriangle(box, t)));
    }
    return best;
}

/// Conservative advancement (Mirtich 1996): the gap d, starting at d0, cannot close faster than
/// `bound`, so flying (d - target) / bound is always safe. `flyBy(dt)` moves the look-ahead
/// poses on by dt and returns the new gap. The time the gap comes within an eighth of the margin
/// of `target`, or INFINITY when that is beyond `remaining` (after 64 advances: the time reached,
/// still safe).
template <class FlyBy>
float advanceConservatively(float d0, float target, float bound, float remaining, FlyBy&& flyBy) {
    float t = 0.0f, d = d0;
    const float tolerance = 0.125f * kMargin;
    for (int iteration = 0; iteration < 64; ++iteration) {
        if (d <= target + tolerance) return t;
        const float advanceBy = (d - target) / bound;
        if (t + advanceBy > remaining) return INFINITY;
        t += advanceBy;
        d = flyBy(advanceBy);
    }
    return t;
}

/// Contacts of body A with body B (or a wall), found with A inflated by kMargin; depths are
/// real (negative: a gap smaller than the margin).
std::optional<Manifold> touching(const Body& a, const Body& b) {
    std::optional<Manifold> m;
    if (a.shape == ShapeType::Sphere && b.shape == ShapeType::Sphere) {
        m = contactSphereSphere({a.position, a.radius + kMargin}, sphereOf(b));
    } else if (a.shape == ShapeType::Sphere) {
        m = contactSphereObb({a.position, a.radius + kMargin}, obbOf(b));
    } else if (b.shape == ShapeType::Sphere) {
        m = contactSphereObb({b.position, b.radius + kMargin}, obbOf(a));
        if (m) m->normal = -m->normal; // computed as (sphere B, box A): flip to "from B toward A"
        if (m) {
            for (int i = 0; i < m->count; ++i)
                m->points[i].position -= m->normal * m->points[i].depth;
        }
    } else {
        Obb inflated = obbOf(a);
        inflated.half += glm::vec3(kMargin);
        m = contactObbObb(inflated, obbOf(b));
    }
    if (!m) return std::nullopt;
    m->depth -= kMargin;
    for (int i = 0; i < m->count; ++i)
        m->points[i].depth -= kMargin;
    return m;
}

std::optional<Manifold> touchingWall(const Body& a, const Plane& wall) {
    std::optional<Manifold> m;
    if (a.shape == ShapeType::Sphere) {
        m = contactSpherePlane({a.position, a.radius + kMargin}, wall);
    } else {
        Obb inflated = obbOf(a);
        inflated.half += glm::vec3(kMargin);
        m = contactObbPlane(inflated, wall);
    }
    if (!m) return std::nullopt;
    m->depth -= kMargin;
    for (int i = 0; i < m->count; ++i)
        m->points[i].depth -= kMargin;
    return m;
}

/// The pseudo-inverse of the symmetric, positive semi-definite K_SS (index: the m points of S),
/// through its eigen-decomposition (cyclic Jacobi, double; Golub and Van Loan 8.5.2), with
/// eigenvalues below 1e-5 of K's largest entry taken as zero. out is m x m.
void pseudoInverse(const double k[4][4], int m, const int index[4], double out[4][4]) {
    double a[4][4], v[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    double scale = 0.0;
    for (int r = 0; r < m; ++r) {
        for (int c = 0; c < m; ++c) {
            a[r][c] = k[index[r]][index[c]];
            scale = std::max(scale, std::abs(a[r][c]));
        }
    }
    for (int sweep = 0; sweep < 32; ++sweep) {
        double off = 0.0;
        for (int p = 0; p < m; ++p)
            for (int q = p + 1; q < m; ++q)
                off += a[p][q] * a[p][q];
        if (!(off > 1e-30 * scale * scale)) break;
        for (int p = 0; p < m; ++p) {
            for (int q = p + 1; q < m; ++q) {
                if (a[p][q] == 0.0) continue;
                // The rotation in the (p, q) plane that zeroes a[p][q].
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t =
                    (theta >= 0.0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), sn = t * c;
                for (int r = 0; r < m; ++r) {
                    const double arp = a[r][p], arq = a[r][q];
                    a[r][p] = c * arp - sn * arq;
                    a[r][q] = sn * arp + c * arq;
                }
                for (int r = 0; r < m; ++r) {
                    const double apr = a[p][r], aqr = a[q][r];
                    a[p][r] = c * apr - sn * aqr;
                    a[q][r] = sn * apr + c * aqr;
                }
                for (int r = 0; r < m; ++r) {
                    const double vrp = v[r][p], vrq = v[r][q];
                    v[r][p] = c * vrp - sn * vrq;
                    v[r][q] = sn * vrp + c * vrq;
                }
            }
        }
    }
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < m; ++c)
            out[r][c] = 0.0;
    for (int e = 0; e < m; ++e) {
        if (!(std::abs(a[e][e]) > 1e-5 * scale)) continue; // the null space: no load along it
        for (int r = 0; r < m; ++r)
            for (int c = 0; c < m; ++c)
                out[r][c] += v[r][e] * v[c][e] / a[e][e];
    }
}

/// A manifold's K (its normal impulses' effective-mass matrix) and, once needed, its
/// pseudo-inverse: both stay the same through a resolve's iterations.
struct PseudoInverseCache {
    double pinv[4][4];
    bool ready = false;
};

/// x_S = P goal_S with P = pseudoInverse(K_SS): the least-norm solution of K_SS x_S = goal_S.
/// Four coplanar points of a box face have a one-dimensional family of exact load splits; the
/// least-norm one is the unique split that is symmetric when the contact is, and it moves
/// continuously with the poses, where picking any three of the four points does not. False
/// when goal is not in K_SS's range (no exact split).
bool solveLeastNorm(const double k[4][4], const double pinv[4][4], const double goal[4], int m,
                    const int index[4], double x[4]) {
    double y[4] = {0, 0, 0, 0};
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < m; ++c)
            y[r] += pinv[r][c] * goal[index[c]];
    double residual = 0.0, size = 0.0;
    for (int r = 0; r < m; ++r) {
        double kx = 0.0;
        for (int c = 0; c < m; ++c)
            kx += k[index[r]][index[c]] * y[c];
        residual = std::max(residual, std::abs(kx - goal[index[r]]));
        size = std::max(size, std::abs(goal[index[r]]));
    }
    if (!(residual <= 1e-6 * (size + 1e-12))) return false;
    for (int r = 0; r < m; ++r)
        x[index[r]] = y[r];
    return true;
}

/// Solves K_SS x_S = goal_S for the points in `mask` (x = 0 elsewhere), by Gaussian elimination
/// with partial pivoting. A singular subsystem (four coplanar points of one box face have only
/// three independent rows) gets the least-norm solution instead; false when it has none. The
/// whole set's pseudo-inverse depends on K only, so it is kept in `whole` across iterations.
bool solveActiveSet(const double k[4][4], const double goal[4], int count, int mask, double x[4],
                    PseudoInverseCache& whole) {
    int index[4];
    int m = 0;
    for (int i = 0; i < count; ++i) {
        if (mask & (1 << i)) index[m++] = i;
    }
    double a[4][5];
    double scale = 0.0;
    for (int r = 0; r < m; ++r) {
        for (int c = 0; c < m; ++c) {
            a[r][c] = k[index[r]][index[c]];
            scale = std::max(scale, std::abs(a[r][c]));
        }
        a[r][m] = goal[index[r]];
    }
    for (int col = 0; col < m; ++col) {
        int pivot = col;
        for (int r = col + 1; r < m; ++r) {
            if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
        }
        if (!(std::abs(a[pivot][col]) > 1e-5 * scale)) {
            if (m < count) {
                double pinv[4][4];
                pseudoInverse(k, m, index, pinv);
                return solveLeastNorm(k, pinv, goal, m, index, x);
            }
            if (!whole.ready) pseudoInverse(k, m, index, whole.pinv);
            whole.ready = true;
            return solveLeastNorm(k, whole.pinv, goal, m, index, x);
        }
        if (pivot != col) {
            for (int c = 0; c <= m; ++c)
                std::swap(a[col][c], a[pivot][c]);
        }
        for (int r = col + 1; r < m; ++r) {
            const double f = a[r][col] / a[col][col];
            for (int c = col; c <= m; ++c)
                a[r][c] -= f * a[col][c];
        }
    }
    for (int r = m - 1; r >= 0; --r) {
        double v = a[r][m];
        for (int c = r + 1; c < m; ++c)
            v -= a[r][c] * x[index[c]];
        x[index[r]] = v / a[r][r];
    }
    return true;
}

} // namespace

// ---------------------------------------------------------------------------------------------

struct World::Impl {
    struct Candidate {
        int a;
        int b;                     ///< Body index, or -1 for a wall.
        int wall;                  ///< Plane index when b == -1.
        float target;              ///< Distance at which the next impact counts.
        double toi;                ///< Absolute time (within the step) of the next impact; INFINITY if none.
        bool fresh;                ///< toi is up to date.
        std::uint32_t version = 0; ///< Bumped whenever toi goes stale.
        int mesh = -1;             ///< Obstacle index when b == -1 and the partner is an obstacle (wall -1).
    };
    struct SolverPoint {
        int a, b; ///< b == -1: a wall or an obstacle (infinite mass).
        int candidate;
        int group;              ///< The manifold it belongs to (block-solved together).
        std::uint32_t triangle; ///< Obstacle triangle (obstacle contacts only).
        glm::vec3 rA, rB, normal, tangent1, tangent2;
        float massN, massT1, massT2;
        float target;
        float friction;
        float lambdaN = 0.0f, lambdaT1 = 0.0f, lambdaT2 = 0.0f;
        float depth;
        glm::vec3 point;
    };
    /// Rolling resistance of one manifold: an angular impulse against the bodies' relative
    /// rotation, at most arm * sum lambdaN.
    struct Rolling {
        float arm;               ///< Coefficient times the sphere's radius (m); 0: no rolling resistance.
        float radius;            ///< That sphere's radius (turns angular velocity into surface speed).
        glm::vec3 impulse{0.0f}; ///< Accumulated angular impulse on A (N m s).
    };
    struct CachedImpulse {
        glm::vec3 localPoint; ///< Contact point in A's frame.
        float lambdaN, lambdaT1, lambdaT2;
    };

    std::vector<Candidate> candidates;
    std::vector<std::vector<int>> byBody; ///< Candidate indices per body.
    std::vector<std::pair<int, int>> pairs;
    std::vector<Aabb> swept;
    GridBroadPhase grid;
    std::vector<std::uint32_t> contactSerial; ///< Per entry of contacts_: which resolve made it.
    std::uint32_t resolveSerial = 0;
    std::vector<double> spinEnergy; ///< Per body: rotational energy that free flight keeps.
    std::vector<SolverPoint> points;
    std::vector<Rolling> rolling; ///< Per manifold of the current resolve (index: group - 1).
    /// Per manifold of more than one point: K of its normal impulses, fixed through a resolve.
    struct Block {
        double k[4][4];
        PseudoInverseCache whole;
    };
    std::vector<Block> blocks; ///< Index: group - 1 (unused for one-point manifolds).
    std::vector<glm::mat3> invInertia;
    std::vector<std::pair<std::uint64_t, CachedImpulse>> cache, nextCache;
    struct HeapEntry {
        double toi;
        int candidate;
        std::uint32_t version;
    };
    std::vector<HeapEntry> heap;  ///< Pending impacts, earliest first.
    std::vector<int> stale;       ///< Candidates whose time of impact must be recomputed.
    std::vector<double> bodyTime; ///< Each body's clock within the step.
    std::vector<int> involved;    ///< Bodies whose contacts the next resolve gathers.
    std::vector<int> gathered;    ///< Candidates gathered by resolve.
    std::vector<int> solved;      ///< Bodies with contacts in the current resolve.
    std::vector<char> inSolve;
    std::vector<Triangle> nearTriangles; ///< Scratch of timeOfImpact and the mesh contacts.
    std::vector<std::uint32_t> nearIds;
    std::vector<MeshContact> manifolds; ///< Scratch: the manifolds of one candidate pair.
    std::vector<std::uint32_t> candidateStamp;
    std::uint32_t stamp = 0;
};

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
      contacts_(other.contacts_), accumulator_(other.accumulator_), paused_(other.paused_),
      singleStepPending_(other.singleStepPending_), stepCount_(other.stepCount_),
      lastStepImpacts_(other.lastStepImpacts_), haltedBody_(other.haltedBody_),
      impl_(std::make_unique<Impl>(*other.impl_)) {}

int World::addBody(const BodyDesc& desc) {
    Body b;
    b.name = desc.name;
    b.shape = desc.shape;
    b.halfExtents = desc.shape == ShapeType::Sphere ? glm::vec3(desc.radius) : desc.halfExtents;
    b.radius = desc.shape == ShapeType::Sphere ? desc.radius : glm::length(desc.halfExtents);
    const float volume = desc.shape == ShapeType::Sphere
                             ? 4.0f / 3.0f * 3.14159265358979f * desc.radius * desc.radius * desc.radius
                             : 8.0f * desc.halfExtents.x * desc.halfExtents.y * desc.halfExtents.z;
    b.mass = desc.mass > 0.0f ? desc.mass : desc.density * volume;
    b.invMass = 1.0f / b.mass;
    b.inertiaLocal = principalInertia(desc.shape, b.mass, desc.radius, desc.halfExtents);
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
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        const Body& b = bodies_[i];
        if (!finite(b.position) || !finite(b.orientation) || !finite(b.velocity) ||
            !finite(b.angularVelocity) || !finite(b.angularMomentum)) {
            haltedBody_ = static_cast<int>(i);
            return true;
        }
    }
    return false;
}

int World::advance(float frameSeconds) {
    if (halted()) return 0;
    if (paused_) {
        if (!singleStepPending_) return 0;
        singleStepPending_ = false;
        step();
        return 1;
    }
    singleStepPending_ = false;
    if (!(frameSeconds > 0.0f)) return 0;
    accumulator_ += frameSeconds * settings_.timeScale;
    int steps = 0;
    while (accumulator_ >= settings_.timeStep && steps < settings_.maxStepsPerAdvance) {
        step();
        accumulator_ -= settings_.timeStep;
        ++steps;
    }
    if (steps == settings_.maxStepsPerAdvance) accumulator_ = std::min(accumulator_, settings_.timeStep);
    return steps;
}

void World::step() {
    if (haltOnNonFiniteState()) return;
    Impl& s = *impl_;
    const float h = settings_.timeStep;
    const int n = static_cast<int>(bodies_.size());
    contacts_.clear();
    s.contactSerial.clear();

    for (Body& b : bodies_)
        b.velocity += settings_.gravity * h;

    // Candidates: each body's bounding sphere, grown by twice the distance it covers in the
    // step in every direction (an impact may turn it anywhere and speed it up). A body whose
    // path after an impact still leaves that box looks for new partners then (watchPath).
    s.swept.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const Body& b = bodies_[i];
        const glm::vec3 r(boundingRadius(b) + 2.0f * kMargin + 2.0f * glm::length(b.velocity) * h);
        s.swept[i] = {b.position - r, b.position + r};
    }
    s.grid.findPairs(s.swept, s.pairs);
    s.candidates.clear();
    s.candidateStamp.clear();
    s.byBody.resize(static_cast<std::size_t>(n));
    for (auto& list : s.byBody)
        list.clear();
    for (const auto& [a, b] : s.pairs)
        s.candidates.push_back({a, b, -1, 0.0f, INFINITY, false});
    for (int i = 0; i < n; ++i) {
        for (int w = 0; w < static_cast<int>(room_.planes.size()); ++w) {
            if (boxReachesPlane(s.swept[i], room_.planes[w]))
                s.candidates.push_back({i, -1, w, 0.0f, INFINITY, false});
        }
    }
    for (int i = 0; i < n; ++i) {
        for (int m = 0; m < static_cast<int>(obstacles_.size()); ++m) {
            if (testAabbAabb(s.swept[i], obstacles_[m].bounds)) {
                s.candidates.push_back({i, -1, -1, 0.0f, INFINITY, false});
                s.candidates.back().mesh = m;
            }
        }
    }
    for (int c = 0; c < static_cast<int>(s.candidates.size()); ++c) {
        s.byBody[s.candidates[c].a].push_back(c);
        if (s.candidates[c].b >= 0) s.byBody[s.candidates[c].b].push_back(c);
    }

    // Resolve what touches now, then fly from impact to impact.
    // Each body keeps its own clock within the step and is flown forward only when an impact
    // involves it (or at the end), so an impact costs the bodies it touches, not all of them.
    lastStepImpacts_ = 0;
    s.bodyTime.assign(static_cast<std::size_t>(n), 0.0);
    s.involved.clear();
    for (int i = 0; i < n; ++i)
        s.involved.push_back(i);
    double now = 0.0;
    resolve(now, true);
    // Impacts come off a min-heap of (time, candidate); an entry whose candidate has been
    // recomputed since (its version moved on) is stale and skipped.
    s.heap.clear();
    s.stale.clear();
    for (int ci = 0; ci < static_cast<int>(s.candidates.size()); ++ci) {
        if (!s.candidates[ci].fresh) s.stale.push_back(ci);
    }
    const auto later = [](const Impl::HeapEntry& x, const Impl::HeapEntry& y) {
        return x.toi > y.toi || (x.toi == y.toi && x.candidate > y.candidate);
    };
    const int maxEvents = 8 * n + 64;
    for (int event = 0; event < maxEvents; ++event) {
        for (int ci : s.stale) {
            Impl::Candidate& c = s.candidates[ci];
            if (c.fresh) continue;
            syncBody(c.a, now);
            if (c.b >= 0) syncBody(c.b, now);
            c.toi = now + timeOfImpact(ci, h - static_cast<float>(now));
            c.fresh = true;
            if (c.toi <= h) {
                s.heap.push_back({c.toi, ci, c.version});
                std::push_heap(s.heap.begin(), s.heap.end(), later);
            }
        }
        s.stale.clear();
        const auto current = [&](const Impl::HeapEntry& e) {
            const Impl::Candidate& c = s.candidates[e.candidate];
            return c.fresh && c.version == e.version;
        };
        while (!s.heap.empty() && !current(s.heap.front())) {
            std::pop_heap(s.heap.begin(), s.heap.end(), later);
            s.heap.pop_back();
        }
        if (s.heap.empty()) break;
        const double earliest = s.heap.front().toi;
        now = earliest;
        ++lastStepImpacts_;
        s.involved.clear();
        while (!s.heap.empty() && s.heap.front().toi <= earliest) {
            const Impl::HeapEntry e = s.heap.front();
            std::pop_heap(s.heap.begin(), s.heap.end(), later);
            s.heap.pop_back();
            if (!current(e)) continue;
            const Impl::Candidate& c = s.candidates[e.candidate];
            s.involved.push_back(c.a);
            if (c.b >= 0) s.involved.push_back(c.b);
            invalidate(e.candidate); // fired: look for its next impact
        }
        resolve(now, false);
    }
    for (int i = 0; i < n; ++i)
        syncBody(i, h);
    keepLatestContacts();
    projectPositions();
    ++stepCount_;
    haltOnNonFiniteState();
}

void World::invalidate(int candidate) {
    Impl::Candidate& c = impl_->candidates[candidate];
    if (!c.fresh) return;
    c.fresh = false;
    ++c.version;
    impl_->stale.push_back(candidate);
}

void World::watchPath(int i, double now) {
    Impl& s = *impl_;
    const Body& b = bodies_[i];
    const float left = settings_.timeStep - static_cast<float>(now);
    const glm::vec3 r(boundingRadius(b) + 2.0f * kMargin);
    const glm::vec3 end = b.position + b.velocity * std::max(left, 0.0f);
    const Aabb path{glm::min(b.position, end) - r, glm::max(b.position, end) + r};
    Aabb& box = s.swept[i];
    if (glm::all(glm::greaterThanEqual(path.min, box.min)) && glm::all(glm::lessThanEqual(path.max, box.max)))
        return;

    // The rest of the path leaves the box the broad phase saw: grow it and find new partners
    // among all bodies and walls (rare: a body sped up or turned sharply by an impact).
    box = {glm::min(box.min, path.min), glm::max(box.max, path.max)};
    const auto known = [&](int other, int wall, int mesh = -1) {
        for (int ci : s.byBody[i]) {
            const Impl::Candidate& c = s.candidates[ci];
            if (other >= 0 ? ((c.a == other && c.b == i) || (c.b == other && c.a == i))
                           : (c.b < 0 && c.wall == wall && c.mesh == mesh)) {
                return true;
            }
        }
        return false;
    };
    const auto add = [&](int a, int bIndex, int wall, int mesh = -1) {
        const int ci = static_cast<int>(s.candidates.size());
        s.candidates.push_back({a, bIndex, wall, 0.0f, INFINITY, false});
        s.candidates.back().mesh = mesh;
        s.candidateStamp.resize(s.candidates.size(), 0);
        s.stale.push_back(ci);
        s.byBody[a].push_back(ci);
        if (bIndex >= 0) s.byBody[bIndex].push_back(ci);
    };
    for (int j = 0; j < static_cast<int>(bodies_.size()); ++j) {
        if (j == i || !testAabbAabb(box, s.swept[j]) || known(j, -1)) continue;
        add(std::min(i, j), std::max(i, j), -1);
    }
    for (int w = 0; w < static_cast<int>(room_.planes.size()); ++w) {
        if (boxReachesPlane(box, room_.planes[w]) && !known(-1, w)) add(i, -1, w);
    }
    for (int m = 0; m < static_cast<int>(obstacles_.size()); ++m) {
        if (testAabbAabb(box, obstacles_[m].bounds) && !known(-1, -1, m)) add(i, -1, -1, m);
    }
}

void World::lookAhead(Body& state, int i, float dt) const {
    // A slow spin: one rotation at the current angular velocity is within the advancement's
    // tolerance of the true path. A fast one (a box at hundreds of rad/s precesses visibly
    // within a step): the same free flight as drift(), so the look-ahead follows the path taken.
    if (glm::length(state.angularVelocity) * dt <= 0.02f) {
        predict(state, dt, state);
        return;
    }
    drift(state, dt, impl_->spinEnergy[static_cast<std::size_t>(i)]);
}

void World::syncBody(int i, double time) {
    double& clock = impl_->bodyTime[static_cast<std::size_t>(i)];
    if (time > clock) {
        drift(bodies_[i], static_cast<float>(time - clock), impl_->spinEnergy[static_cast<std::size_t>(i)]);
        clock = time;
    }
}

float World::timeOfImpact(int candidate, float remaining) const {
    Impl::Candidate& c = impl_->candidates[candidate];
    const Body& a = bodies_[c.a];
    if (c.mesh >= 0) return timeOfImpactWithObstacle(candidate, remaining);

    // Bounding spheres do not turn: if even they cannot close the gap in the time left, there is
    // no impact (the common case, and far cheaper than the exact distance).
    if (c.b >= 0) {
        const Body& b = bodies_[c.b];
        const float gap = glm::length(a.position - b.position) - boundingRadius(a) - boundingRadius(b);
        if (gap - kMargin > glm::length(a.velocity - b.velocity) * remaining) return INFINITY;
    } else {
        const Plane& wall = room_.planes[c.wall];
        const float gap = signedDistance(wall, a.position) - boundingRadius(a);
        if (gap - kMargin > std::max(0.0f, -glm::dot(wall.normal, a.velocity)) * remaining) return INFINITY;
    }
    const float d0 = c.b >= 0 ? distanceBetween(a, bodies_[c.b]) : distanceToPlane(a, room_.planes[c.wall]);
    // Spheres against walls and spheres have exact times of impact: they meet at gap 0. Other
    // pairs advance conservatively to half the margin. A pair touching already fires again
    // only once it closes by another half margin (so resting or separating pairs stay quiet).
    const bool exact = meetExactly(a, c.b >= 0 ? &bodies_[c.b] : nullptr);
    if (exact) {
        c.target = d0 > 0.0f ? 0.0f : d0 - 0.5f * kMargin;
    } else {
        c.target = d0 > kMargin ? 0.5f * kMargin : d0 - 0.5f * kMargin;
    }

    if (c.b < 0 && a.shape == ShapeType::Sphere) {
        // Exact: d(t) = d0 + (n . v) t.
        const float approach = -glm::dot(room_.planes[c.wall].normal, a.velocity);
        if (!(approach > 0.0f)) return INFINITY;
        const float t = (d0 - c.target) / approach;
        return t <= remaining ? std::max(t, 0.0f) : INFINITY;
    }
    if (c.b >= 0 && a.shape == ShapeType::Sphere && bodies_[c.b].shape == ShapeType::Sphere) {
        // Exact: |dp + dv t| = rA + rB + target, the smaller root.
        const Body& b = bodies_[c.b];
        const glm::vec3 dp = a.position - b.position, dv = a.velocity - b.velocity;
        const float reach = a.radius + b.radius + c.target;
        const float bq = glm::dot(dp, dv);
        if (!(bq < 0.0f)) return INFINITY; // not approaching
        const float av = glm::dot(dv, dv);
        const float cq = glm::dot(dp, dp) - reach * reach;
        if (cq <= 0.0f) return 0.0f;
        const float disc = bq * bq - av * cq;
        if (disc < 0.0f) return INFINITY;
        const float t = cq / (-bq + std::sqrt(disc));
        return t <= remaining ? t : INFINITY;
    }

    // Conservative advancement: |d'(t)| <= bound, so the gap cannot close faster than that.
    Body pa = a;
    float bound = 0.0f;
    if (c.b < 0) {
        bound = std::max(0.0f, -glm::dot(room_.planes[c.wall].normal, a.velocity)) + rotationSpeedBound(a);
    } else {
        const Body& b = bodies_[c.b];
        bound = glm::length(a.velocity - b.velocity) + rotationSpeedBound(a) + rotationSpeedBound(b);
    }
    if (!(bound > 1e-9f)) return INFINITY;
    std::optional<Body> pb;
    if (c.b >= 0) pb = bodies_[c.b];
    return advanceConservatively(d0, c.target, bound, remaining, [&](float by) {
        lookAhead(pa, c.a, by);
        if (pb) lookAhead(*pb, c.b, by);
        return pb ? distanceBetween(pa, *pb) : distanceToPlane(pa, room_.planes[c.wall]);
    });
}

void World::trianglesNear(const Body& a, int m, float reach, std::vector<Triangle>& out,
                          std::vector<std::uint32_t>* ids) const {
    out.clear();
    if (ids) ids->clear();
    const Obstacle& o = obstacles_[m];
    const glm::vec3 r(boundingRadius(a) + reach);
    o.mesh->bvh.forEachTriangleOverlapping(
        o.localBox({a.position - r, a.position + r}), [&](std::uint32_t id, const Triangle& t) {
            out.push_back({o.toWorld(t.a), o.toWorld(t.b), o.toWorld(t.c)});
            if (ids) ids->push_back(id);
        });
}

float World::timeOfImpactWithObstacle(int candidate, float remaining) const {
    Impl::Candidate& c = impl_->candidates[candidate];
    // The triangles the body can reach in the time left. A sphere meets them exactly (gap 0,
    // like a wall): its centre flies straight, against each triangle grown by its radius. A box
    // advances conservatively to half the margin (like boxes against anything): its surface
    // cannot approach any triangle faster than its speed plus the spin bound.
    const Body& a = bodies_[c.a];
    const Obstacle& o = obstacles_[c.mesh];
    const float bound = glm::length(a.velocity) + rotationSpeedBound(a);
    const float travel = bound * remaining;
    const float gap = std::sqrt(sqDistPointAabb(a.position, o.bounds)) - boundingRadius(a);
    if (gap - kMargin > travel) return INFINITY;
    std::vector<Triangle>& near = impl_->nearTriangles;
    trianglesNear(a, c.mesh, travel + 2.0f * kMargin, near);
    if (near.empty()) return INFINITY;
    const float d0 = distanceToTriangles(a, near);
    if (a.shape == ShapeType::Sphere) {
        // A pair touching already fires again only once it closes by another half margin.
        c.target = d0 > 0.0f ? 0.0f : d0 - 0.5f * kMargin;
        const Sphere grown{a.position, a.radius + c.target};
        float first = INFINITY;
        for (const Triangle& t : near) {
            if (const auto hit = sweepSphereTriangle(grown, a.velocity, t, std::min(first, remaining)))
                first = std::min(first, *hit);
        }
        return first;
    }
    c.target = d0 > kMargin ? 0.5f * kMargin : d0 - 0.5f * kMargin;
    if (!(bound > 1e-9f)) return INFINITY;
    Body pa = a;
    return advanceConservatively(d0, c.target, bound, remaining, [&](float by) {
        lookAhead(pa, c.a, by);
        return distanceToTriangles(pa, near);
    });
}

void World::meshContactsOf(int a, int m, float margin, std::vector<MeshContact>& out) const {
    // One manifold per triangle the body (inflated by the margin) touches, deepest first. A
    // point that lies on a deeper triangle already in the list is dropped: a ball rolling over
    // the shared edge of two triangles of a flat face touches the edge of the second triangle
    // too, and that "internal edge" contact would push it sideways (a ghost bump).
    out.clear();
    const Body& body = bodies_[a];
    std::vector<Triangle>& near = impl_->nearTriangles;
    std::vector<std::uint32_t>& ids = impl_->nearIds;
    trianglesNear(body, m, margin, near, &ids);
    for (std::size_t k = 0; k < near.size(); ++k) {
        std::optional<Manifold> manifold;
        if (body.shape == ShapeType::Sphere) {
            manifold = contactSphereTriangle({body.position, body.radius + margin}, near[k]);
        } else {
            Obb inflated = obbOf(body);
            inflated.half += glm::vec3(margin);
            manifold = contactObbTriangle(inflated, near[k]);
        }
        if (!manifold) continue;
        manifold->depth -= margin;
        for (int i = 0; i < manifold->count; ++i)
            manifold->points[i].depth -= margin;
        out.push_back({*manifold, ids[k], near[k]});
    }
    std::sort(out.begin(), out.end(), [](const MeshContact& x, const MeshContact& y) {
        return x.manifold.depth > y.manifold.depth ||
               (x.manifold.depth == y.manifold.depth && x.triangle < y.triangle);
    });
    const float onSurface = 1e-5f * (1.0f + glm::length(body.position)) + 1e-4f * margin;
    std::size_t kept = 0;
    for (std::size_t k = 0; k < out.size(); ++k) {
        Manifold& mf = out[k].manifold;
        int count = 0;
        for (int i = 0; i < mf.count; ++i) {
            bool covered = false;
            for (std::size_t j = 0; j < kept && !covered; ++j) {
                const glm::vec3 d =
                    mf.points[i].position - closestPtPointTriangle(mf.points[i].position, out[j].placed);
                covered = glm::dot(d, d) <= onSurface * onSurface;
            }
            if (!covered) mf.points[count++] = mf.points[i];
        }
        if (count == 0) continue;
        mf.count = count;
        mf.depth = mf.points[0].depth;
        for (int i = 1; i < count; ++i)
            mf.depth = std::max(mf.depth, mf.points[i].depth);
        out[kept++] = out[k];
    }
    out.resize(std::min<std::size_t>(kept, kMaxMeshManifolds));
}

void World::resolve(double now, bool stepStart) {
    Impl& s = *impl_;
    const float h = settings_.timeStep;
    const float restingSpeed = 2.0f * glm::length(settings_.gravity) * h + 1e-5f;
    s.points.clear();
    s.rolling.clear();
    s.invInertia.resize(bodies_.size());
    s.inSolve.resize(bodies_.size(), 0);
    s.candidateStamp.resize(s.candidates.size(), 0);
    ++s.stamp;

    // The candidates of the involved bodies, each once, in a deterministic order.
    s.gathered.clear();
    for (int body : s.involved) {
        for (int ci : s.byBody[body]) {
            if (s.candidateStamp[ci] == s.stamp) continue;
            s.candidateStamp[ci] = s.stamp;
            s.gathered.push_back(ci);
        }
    }
    std::sort(s.gathered.begin(), s.gathered.end());
    s.solved.clear();
    int manifoldCount = 0;
    for (int ci : s.gathered) {
        const Impl::Candidate& c = s.candidates[ci];
        syncBody(c.a, now);
        if (c.b >= 0) syncBody(c.b, now);
        const Body& a = bodies_[c.a];
        // An obstacle gives a manifold per touched triangle; a body or a wall at most one.
        if (c.mesh >= 0) {
            meshContactsOf(c.a, c.mesh, kMargin, s.manifolds);
        } else {
            s.manifolds.clear();
            if (const auto single = contactOf(c.a, c.b, c.wall)) s.manifolds.push_back({*single, 0, {}});
        }
        if (s.manifolds.empty()) continue;
        if (!s.inSolve[c.a]) s.solved.push_back(c.a);
        s.inSolve[c.a] = 1;
        if (c.b >= 0 && !s.inSolve[c.b]) s.solved.push_back(c.b);
        if (c.b >= 0) s.inSolve[c.b] = 1;
        const Body* b = c.b >= 0 ? &bodies_[c.b] : nullptr;
        // What counts as touching: the gap the impact search stops at. Spheres against walls and
        // spheres meet exactly (gap 0), so a sphere still short of its wall is left to its exact
        // time of impact rather than bounced early; other pairs stop at half the margin.
        const float reach = meetExactly(a, b) ? 1e-5f : 0.5f * kMargin + 1e-5f;
        // Only a sphere rolls: its arm is its radius (Box2D v3 does the same for circles).
        const auto rollingArm = [](const Body& body) {
            return body.shape == ShapeType::Sphere ? body.rollingResistance * body.radius : 0.0f;
        };
        const bool rollsOnB = b && rollingArm(*b) > rollingArm(a);
        const float arm = rollsOnB ? rollingArm(*b) : rollingArm(a);
        const float radius = rollsOnB ? b->radius : a.radius;
        for (const MeshContact& contact : s.manifolds) {
            const Manifold* manifold = &contact.manifold;
            ++manifoldCount;
            s.rolling.push_back({arm, radius});
            for (int k = 0; k < manifold->count; ++k) {
                if (manifold->points[k].depth < -reach) continue;
                Impl::SolverPoint p{};
                p.a = c.a;
                p.b = c.b;
                p.candidate = ci;
                p.group = manifoldCount;
                p.triangle = contact.triangle;
                p.point = manifold->points[k].position;
                p.depth = manifold->points[k].depth;
                p.normal = manifold->normal;
                p.rA = p.point - a.position;
                p.rB = b ? p.point - b->position : glm::vec3(0.0f);
                p.friction = b ? std::sqrt(a.friction * b->friction) : a.friction;
                const float restitution = b ? std::max(a.restitution, b->restitution) : a.restitution;
                const glm::vec3 vRel =
                    a.velocity + glm::cross(a.angularVelocity, p.rA) -
                    (b ? b->velocity + glm::cross(b->angularVelocity, p.rB) : glm::vec3(0.0f));
                const float vn = glm::dot(vRel, p.normal);
                p.target = std::abs(vn) > restingSpeed ? -restitution * vn : 0.0f;
                const glm::vec3 vt = vRel - vn * p.normal;
                const float vtLength = glm::length(vt);
                p.tangent1 = vtLength > 1e-6f
                                 ? vt / vtLength
                                 : glm::normalize(glm::cross(p.normal, std::abs(p.normal.x) < 0.9f
                                                                           ? glm::vec3(1, 0, 0)
                                                                           : glm::vec3(0, 1, 0)));
                p.tangent2 = glm::cross(p.normal, p.tangent1);
                s.points.push_back(p);
            }
        }
    }
    for (int i : s.solved) {
        s.invInertia[i] = inverseInertiaWorld(bodies_[i]);
        s.inSolve[i] = 0;
    }
    if (s.points.empty()) return;
    const auto effectiveMass = [&](const Impl::SolverPoint& p, const glm::vec3& dir) {
        const Body& a = bodies_[p.a];
        float k = a.invMass + glm::dot(dir, glm::cross(s.invInertia[p.a] * glm::cross(p.rA, dir), p.rA));
        if (p.b >= 0) {
            const Body& b = bodies_[p.b];
            k += b.invMass + glm::dot(dir, glm::cross(s.invInertia[p.b] * glm::cross(p.rB, dir), p.rB));
        }
        return k > 0.0f ? 1.0f / k : 0.0f;
    };
    const auto applyImpulse = [&](const Impl::SolverPoint& p, const glm::vec3& impulse) {
        Body& a = bodies_[p.a];
        a.velocity += impulse * a.invMass;
        a.angularVelocity += s.invInertia[p.a] * glm::cross(p.rA, impulse);
        a.angularMomentum += glm::cross(p.rA, impulse);
        if (p.b >= 0) {
            Body& b = bodies_[p.b];
            b.velocity -= impulse * b.invMass;
            b.angularVelocity -= s.invInertia[p.b] * glm::cross(p.rB, impulse);
            b.angularMomentum -= glm::cross(p.rB, impulse);
        }
    };
    const auto relativeVelocity = [&](const Impl::SolverPoint& p) {
        const Body& a = bodies_[p.a];
        glm::vec3 v = a.velocity + glm::cross(a.angularVelocity, p.rA);
        if (p.b >= 0) v -= bodies_[p.b].velocity + glm::cross(bodies_[p.b].angularVelocity, p.rB);
        return v;
    };
    const auto cacheKey = [&](const Impl::SolverPoint& p) {
        const Impl::Candidate& c = s.candidates[p.candidate];
        return pairKey(c.a, c.b, c.wall, c.mesh);
    };

    // Rolling resistance (Box2D v3's, in 3D): the relative angular velocity wA - wB (rolling
    // about the contact plane's axes, and spinning about the normal, which a point contact
    // cannot otherwise damp) is opposed by an angular impulse whose length is at most
    // arm * (the manifold's total normal impulse): Coulomb friction for rotation.
    const auto resistRolling = [&](Impl::Rolling& r, const Impl::SolverPoint* group, int count) {
        const Impl::SolverPoint& first = group[0];
        float load = 0.0f;
        for (int i = 0; i < count; ++i)
            load += group[i].lambdaN;
        glm::vec3 w = bodies_[first.a].angularVelocity;
        glm::mat3 invInertia = s.invInertia[first.a];
        if (first.b >= 0) {
            w -= bodies_[first.b].angularVelocity;
            invInertia += s.invInertia[first.b];
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
        a.angularVelocity += s.invInertia[first.a] * delta;
        a.angularMomentum += delta;
        if (first.b >= 0) {
            Body& b = bodies_[first.b];
            b.angularVelocity -= s.invInertia[first.b] * delta;
            b.angularMomentum -= delta;
        }
        return glm::length(invInertia * delta) * r.radius; // the change of rolling surface speed
    };

    for (Impl::SolverPoint& p : s.points) {
        p.massN = effectiveMass(p, p.normal);
        p.massT1 = effectiveMass(p, p.tangent1);
        p.massT2 = effectiveMass(p, p.tangent2);
        // Warm start resting contacts with last step's impulses (matched by key and place).
        if (stepStart && p.target == 0.0f) {
            const std::uint64_t key = cacheKey(p);
            const glm::vec3 local = glm::inverse(bodies_[p.a].orientation) * p.rA;
            auto it = std::lower_bound(s.cache.begin(), s.cache.end(), key,
                                       [](const auto& e, std::uint64_t k) { return e.first < k; });
            for (; it != s.cache.end() && it->first == key; ++it) {
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

    // Each manifold's K (k_ij = 1/mA + (rA_j x n) . IA^-1 (rA_i x n), plus the same for B) is
    // fixed through the iterations: computed once here.
    s.blocks.resize(s.rolling.size());
    for (std::size_t begin = 0; begin < s.points.size();) {
        std::size_t end = begin + 1;
        while (end < s.points.size() && s.points[end].group == s.points[begin].group)
            ++end;
        const int count = static_cast<int>(end - begin);
        const Impl::SolverPoint* group = &s.points[begin];
        Impl::Block& block = s.blocks[static_cast<std::size_t>(group[0].group - 1)];
        block.whole.ready = false;
        for (int i = 0; i < count && count > 1; ++i) {
            const Impl::SolverPoint& pi = group[i];
            const glm::vec3 ai = s.invInertia[pi.a] * glm::cross(pi.rA, pi.normal);
            const glm::vec3 bi =
                pi.b >= 0 ? s.invInertia[pi.b] * glm::cross(pi.rB, pi.normal) : glm::vec3(0.0f);
            for (int j = 0; j < count; ++j) {
                const Impl::SolverPoint& pj = group[j];
                double kij = bodies_[pi.a].invMass + glm::dot(glm::cross(pj.rA, pj.normal), ai);
                if (pi.b >= 0) kij += bodies_[pi.b].invMass + glm::dot(glm::cross(pj.rB, pj.normal), bi);
                block.k[i][j] = kij;
            }
        }
        begin = end;
    }

    for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
        float largest = 0.0f;
        for (std::size_t begin = 0; begin < s.points.size();) {
            // One manifold (the points of one candidate pair) at a time.
            std::size_t end = begin + 1;
            while (end < s.points.size() && s.points[end].group == s.points[begin].group)
                ++end;
            const int count = static_cast<int>(end - begin);
            Impl::SolverPoint* group = &s.points[begin];

            if (count == 1) {
                Impl::SolverPoint& p = group[0];
                const float vn = glm::dot(relativeVelocity(p), p.normal);
                const float lambda = std::max(p.lambdaN + (p.target - vn) * p.massN, 0.0f);
                const float delta = lambda - p.lambdaN;
                p.lambdaN = lambda;
                applyImpulse(p, p.normal * delta);
                largest = std::max(largest, std::abs(delta) / std::max(p.massN, 1e-12f));
            } else {
                // Block solve of the manifold's normal impulses: the exact answer of the small
                // complementarity problem (vn_i >= target_i, lambda_i >= 0, one of them tight),
                // by trying active sets, largest first (Box2D's two-point block solver, for up
                // to four points). Nearly coincident points make Gauss-Seidel crawl; this does not.
                Impl::Block& block = s.blocks[static_cast<std::size_t>(group[0].group - 1)];
                const double(&k)[4][4] = block.k;
                double rhs[4], lambdaOld[4];
                for (int i = 0; i < count; ++i) {
                    const Impl::SolverPoint& pi = group[i];
                    lambdaOld[i] = pi.lambdaN;
                    rhs[i] = static_cast<double>(pi.target) - glm::dot(relativeVelocity(pi), pi.normal);
                }
                // Target in terms of the new totals: K lambdaNew >= rhs + K lambdaOld.
                double goal[4];
                for (int i = 0; i < count; ++i) {
                    goal[i] = rhs[i];
                    for (int j = 0; j < count; ++j)
                        goal[i] += k[i][j] * lambdaOld[j];
                }
                double best[4] = {0, 0, 0, 0};
                bool solved = false;
                for (int size = count; size >= 0 && !solved; --size) {
                    for (int mask = 0; mask < (1 << count) && !solved; ++mask) {
                        if (__builtin_popcount(static_cast<unsigned>(mask)) != size) continue;
                        double trial[4] = {0, 0, 0, 0};
                        if (size > 0 && !solveActiveSet(k, goal, count, mask, trial, block.whole)) continue;
                        bool valid = true;
                        for (int i = 0; i < count && valid; ++i) {
                            if (mask & (1 << i)) {
                                valid = trial[i] >= 0.0;
                            } else {
                                double vn = -goal[i];
                                for (int j = 0; j < count; ++j)
                                    vn += k[i][j] * trial[j];
                                valid = vn >= -1e-7 * (1.0 + std::abs(goal[i]));
                            }
                        }
                        if (valid) {
                            std::copy(trial, trial + 4, best);
                            solved = true;
                        }
                    }
                }
                for (int i = 0; i < count; ++i) {
                    Impl::SolverPoint& p = group[i];
                    float lambda = p.lambdaN;
                    if (solved) {
                        lambda = static_cast<float>(best[i]);
                    } else { // numerically stuck: one Gauss-Seidel update
                        const float vn = glm::dot(relativeVelocity(p), p.normal);
                        lambda = std::max(p.lambdaN + (p.target - vn) * p.massN, 0.0f);
                    }
                    const float delta = lambda - p.lambdaN;
                    p.lambdaN = lambda;
                    applyImpulse(p, p.normal * delta);
                    largest = std::max(largest, std::abs(delta) / std::max(p.massN, 1e-12f));
                }
            }

            for (int i = 0; i < count; ++i) {
                Impl::SolverPoint& p = group[i];
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
            Impl::Rolling& rolling = s.rolling[static_cast<std::size_t>(group[0].group - 1)];
            if (rolling.arm > 0.0f) largest = std::max(largest, resistRolling(rolling, group, count));
            begin = end;
        }
        if (largest < kConvergence) break;
    }

    // Impulses changed these bodies' angular momentum: a new energy level for free flight.
    for (int i : s.solved) {
        const Body& b = bodies_[i];
        s.spinEnergy[static_cast<std::size_t>(i)] =
            rotationalEnergy(b.orientation, b.angularMomentum, b.inertiaLocal);
    }

    // Bodies that changed velocity need new times of impact, and maybe new partners.
    for (const Impl::SolverPoint& p : s.points) {
        if (p.lambdaN == 0.0f && p.lambdaT1 == 0.0f && p.lambdaT2 == 0.0f) continue;
        watchPath(p.a, now);
        for (int ci : s.byBody[p.a])
            invalidate(ci);
        if (p.b >= 0) {
            watchPath(p.b, now);
            for (int ci : s.byBody[p.b])
                invalidate(ci);
        }
    }
    ++s.resolveSerial;
    for (const Impl::SolverPoint& p : s.points) {
        s.contactSerial.push_back(s.resolveSerial);
        contacts_.push_back({p.a, p.b, p.b < 0 ? s.candidates[p.candidate].wall : -1, p.point, p.normal,
                             p.depth, s.candidates[p.candidate].mesh, p.triangle});
    }
    if (stepStart) {
        s.nextCache.clear();
        for (const Impl::SolverPoint& p : s.points) {
            if (p.lambdaN > 0.0f && p.target == 0.0f) {
                s.nextCache.push_back(
                    {cacheKey(p), {glm::inverse(bodies_[p.a].orientation) * p.rA, p.lambdaN, 0, 0}});
            }
        }
        std::stable_sort(s.nextCache.begin(), s.nextCache.end(),
                         [](const auto& x, const auto& y) { return x.first < y.first; });
        std::swap(s.cache, s.nextCache);
    }
}

std::optional<Manifold> World::contactOf(int a, int b, int wall) const {
    // Bounding spheres first: most candidates are not touching, and this is far cheaper.
    const Body& body = bodies_[a];
    if (b >= 0 ? !boundsTouch(body, bodies_[b])
               : signedDistance(room_.planes[wall], body.position) > boundingRadius(body) + kMargin) {
        return std::nullopt;
    }
    return b >= 0 ? touching(body, bodies_[b]) : touchingWall(body, room_.planes[wall]);
}

void World::keepLatestContacts() {
    // A pair can be resolved several times in a step (at the start and at each impact of its
    // bodies): report only its latest contacts, so contacts() counts each touching pair once.
    Impl& s = *impl_;
    const auto key = [](const ContactInfo& c) { return pairKey(c.bodyA, c.bodyB, c.wall, c.obstacle); };
    std::vector<std::pair<std::uint64_t, std::uint32_t>> latest;
    latest.reserve(contacts_.size());
    for (std::size_t i = 0; i < contacts_.size(); ++i)
        latest.emplace_back(key(contacts_[i]), s.contactSerial[i]);
    std::sort(latest.begin(), latest.end());
    std::size_t kept = 0;
    for (std::size_t i = 0; i < contacts_.size(); ++i) {
        const std::uint64_t k = key(contacts_[i]);
        const auto last = std::upper_bound(latest.begin(), latest.end(), std::make_pair(k, UINT32_MAX)) - 1;
        if (s.contactSerial[i] == last->second) contacts_[kept++] = contacts_[i];
    }
    contacts_.resize(kept);
}

void World::projectPositions() {
    Impl& s = *impl_;
    // Split, mass-weighted position correction of what still overlaps: velocities untouched.
    for (int pass = 0; pass < 2; ++pass) {
        for (const Impl::Candidate& c : s.candidates) {
            Body& a = bodies_[c.a];
            if (c.mesh >= 0) {
                // The deepest triangle first; the next pass sees what is left.
                meshContactsOf(c.a, c.mesh, 0.0f, s.manifolds);
                if (s.manifolds.empty() || s.manifolds[0].manifold.depth <= kSlop) continue;
                a.position +=
                    s.manifolds[0].manifold.normal * (0.8f * (s.manifolds[0].manifold.depth - kSlop));
                continue;
            }
            const auto m = contactOf(c.a, c.b, c.wall);
            if (!m || m->depth <= kSlop) continue;
            const float correction = 0.8f * (m->depth - kSlop);
            if (c.b < 0) {
                a.position += m->normal * correction;
                continue;
            }
            Body& b = bodies_[c.b];
            const float total = a.invMass + b.invMass;
            a.position += m->normal * (correction * a.invMass / total);
            b.position -= m->normal * (correction * b.invMass / total);
        }
    }
}

double World::kineticEnergy() const {
    double sum = 0.0;
    for (const Body& b : bodies_)
        sum += kz::kineticEnergy(b);
    return sum;
}

glm::dvec3 World::linearMomentum() const {
    glm::dvec3 sum(0.0);
    for (const Body& b : bodies_)
        sum += static_cast<double>(b.mass) * glm::dvec3(b.velocity);
    return sum;
}

glm::dvec3 World::angularMomentum() const {
    glm::dvec3 sum(0.0);
    for (const Body& b : bodies_) {
        const glm::dvec3 spin(b.angularMomentum);
        sum +=
            spin + glm::cross(glm::dvec3(b.position), static_cast<double>(b.mass) * glm::dvec3(b.velocity));
    }
    return sum;
}

float World::maxPenetration() const {
    float deepest = 0.0f;
    for (const Body& b : bodies_) {
        for (const Plane& p : room_.planes)
            deepest = std::max(deepest, -distanceToPlane(b, p));
    }
    std::vector<Aabb> boxes;
    boxes.reserve(bodies_.size());
    for (const Body& b : bodies_)
        boxes.push_back({b.position - glm::vec3(b.radius), b.position + glm::vec3(b.radius)});
    std::vector<std::pair<int, int>> pairs;
    GridBroadPhase grid;
    grid.findPairs(boxes, pairs);
    for (const auto& [i, j] : pairs) {
        const Body &a = bodies_[i], &b = bodies_[j];
        std::optional<Manifold> m;
        if (a.shape == ShapeType::Sphere && b.shape == ShapeType::Sphere) {
            m = contactSphereSphere(sphereOf(a), sphereOf(b));
        } else if (a.shape == ShapeType::Sphere) {
            m = contactSphereObb(sphereOf(a), obbOf(b));
        } else if (b.shape == ShapeType::Sphere) {
            m = contactSphereObb(sphereOf(b), obbOf(a));
        } else {
            m = contactObbObb(obbOf(a), obbOf(b));
        }
        if (m) deepest = std::max(deepest, m->depth);
    }
    for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
        for (int m = 0; m < static_cast<int>(obstacles_.size()); ++m) {
            if (!testAabbAabb(boxes[i], obstacles_[m].bounds)) continue;
            meshContactsOf(i, m, 0.0f, impl_->manifolds);
            if (!impl_->manifolds.empty()) deepest = std::max(deepest, impl_->manifolds[0].manifold.depth);
        }
    }
    return deepest;
}

int World::escapedCount() const {
    int escaped = 0;
    for (const Body& b : bodies_) {
        if (!insideRoom(room_, b.position, 1e-4f)) ++escaped;
    }
    return escaped;
}

std::optional<ImpactPreview> World::impactPreview(int i) const {
    if (i < 0 || i >= static_cast<int>(bodies_.size())) return std::nullopt;
    const Body& b = bodies_[i];
    const float speed = glm::length(b.velocity);
    // A body at rest on a floor keeps a residual velocity of micrometres per second from the
    // solver's tolerance: its "impact" would be hours away, in a direction that means nothing.
    if (!(speed >= kPreviewMinSpeed)) return std::nullopt;
    std::optional<ImpactPreview> best;
    float bestT = INFINITY;
    for (int w = 0; w < static_cast<int>(room_.walls.size()); ++w) {
        const auto hit = raycastPolygon(Ray{b.position, b.velocity}, room_.walls[w], bestT);
        if (!hit) continue;
        bestT = hit->t;
        const Plane& plane = room_.planes[w];
        const float approach = -glm::dot(plane.normal, b.velocity);
        const float gap = std::max(0.0f, distanceToPlane(b, plane));
        best = ImpactPreview{w, hit->point, hit->t * speed, approach > 0.0f ? gap / approach : INFINITY};
    }
    for (int m = 0; m < static_cast<int>(obstacles_.size()); ++m) {
        const auto hit = raycast(Ray{b.position, b.velocity}, obstacles_[m], bestT);
        if (!hit || (best && hit->t >= bestT)) continue;
        bestT = hit->t;
        // The hit triangle's plane stands in for the wall's (the normal faces the centre).
        const Plane plane{hit->normal, -glm::dot(hit->normal, hit->point)};
        const float approach = -glm::dot(plane.normal, b.velocity);
        const float gap = std::max(0.0f, distanceToPlane(b, plane));
        best = ImpactPreview{-1, hit->point,   hit->t * speed, approach > 0.0f ? gap / approach : INFINITY,
                             m,  hit->triangle};
    }
    return best;
}

} // namespace kz
