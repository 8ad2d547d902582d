// Convex queries: Kolize's GJK, EPA and GJK ray cast (gjk.hpp, epa.hpp) beside libccd and Bullet's
// GJK/EPA, side by side in one run, on the same pairs of shapes.
//
// Pairs (kPairs): box-box, sphere-box, capsule-capsule, cylinder-box, hull32-hull32 and
// hull200-hull200 (hulls of 32 and 200 random points on spheres of radius 0.5 to 1.5, 8 of each,
// built once with kz::buildConvexHull; every engine reads the same vertices). Sizes: half extents,
// radii and half heights 0.25 to 1.5 (capsule radius 0.1 to 0.75). Each set holds kCaseCount pairs
// from std::mt19937(kSeed + set id): A at a random point of [-2, 2]^3, both shapes turned at random,
// B's centre at A's plus t u for a random unit u, with t found by bisection on Kolize's GJK distance
// (which grows with t, both shapes holding their centres) so that the gap is
//   separated    0.02 to 1 times the larger bounding radius (uniform),
//   near         1e-5 to 1e-2 times it (log-uniform): touching within float's reach,
//   overlapping  t = 0.2 to 0.98 times the touching t (uniform): shallow to deep,
// and `mixed` takes its i-th pair from separated, near and overlapping in turn (the overlap test's
// diet from a broad phase). Rays (kRayShapes): one shape of each kind at a random point of
// [-2, 2]^3, the ray from 4 to 8 away aimed at the centre jittered by up to 1.2 bounding radii on
// each axis (about half hit), dir of length 0.25 to 4, tMax = 20 / |dir| (a segment of length 20).
//
// Engines, one query per benchmark iteration, cycling over the set:
//   Kolize          closestPtConvexConvex / testConvexConvex / penetrationConvexConvex /
//                   raycastConvex (tMax as above).
//   Bullet          (float, the Debian build) shapes with collision margin 0 where Bullet allows it
//                   (box, cylinder, hull: the same solids; a sphere or capsule is its core plus a
//                   margin of its radius), shared btConvexHullShape per pooled hull.
//                   Distance: btGjkPairDetector (btVoronoiSimplexSolver, btGjkEpaPenetrationDepthSolver),
//                   as btConvexConvexAlgorithm runs it; Bullet-GjkEpa2: btGjkEpaSolver2::Distance on
//                   the cores, minus the margins. Overlap: btGjkEpaSolver2::Distance (GJK alone; Bullet
//                   has no early-exit boolean) returning false, or a core distance within the
//                   margins. Penetration: btGjkEpaSolver2::Penetration with margins. Ray: a
//                   btSphereShape of radius 0 cast with btSubsimplexConvexCast (what
//                   btCollisionWorld::rayTest runs for a convex shape) and, as Bullet-GJKcast, with
//                   btGjkConvexCast (its kF_UseGjkConvexCastRaytest).
//   libccd-GJK/MPR  (2.1, double; optional) ccdGJKIntersect / ccdMPRIntersect and ccdGJKPenetration /
//                   ccdMPRPenetration with FCL's settings (max_iterations 500, tolerances 1e-6) and
//                   support callbacks in double over the same shapes (hulls: a scan of the same
//                   vertices). Debian's libccd 2.1 has no distance query (no ccdGJKDist) and libccd
//                   no ray cast.
//
// After the run (console format only), a summary prints per query and set the median CPU ns per query of
// each engine over --benchmark_repetitions and the ratio Kolize/peer, then the accuracy table: per
// peer, over the same pairs, the max and median |distance - Kolize's|, |depth - Kolize's|, the
// angle between the normals and |t - Kolize's| (absolute: the shapes are about 1 in size), and the
// pairs where the peer's yes/no answer differs from Kolize's. Kolize's own answers are checked against
// double-precision references in tests/geom, so they are the yardstick here; for penetration a check
// that needs no yardstick joins them, for every engine: whether moving B by the answer's depth (plus
// 1e-4) along its normal separates the shapes (by Kolize's GJK), and how often a peer's depth exceeds
// Kolize's (by more than 1e-4) where Kolize's move does separate them.
#include "geom/convex.hpp"
#include "geom/convex_hull.hpp"
#include "geom/epa.hpp"
#include "geom/gjk.hpp"
#include "mean_reporter.hpp"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btSubSimplexConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#ifdef KZ_HAVE_CCD
#include <ccd/ccd.h>
#endif

#include "bench_random.hpp"

#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <glm/glm.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using kz::bench::Rng;
using kz::bench::uniform;

constexpr std::uint32_t kSeed = 20261128u;
constexpr std::size_t kCaseCount = 4096;
constexpr std::size_t kMask = kCaseCount - 1;
static_assert((kCaseCount & kMask) == 0, "kCaseCount must be a power of two");

// ---------------------------------------------------------------------------------------------
// Shapes, pairs and rays (engine-neutral)
// ---------------------------------------------------------------------------------------------

enum class Kind { Sphere, Box, Capsule, Cylinder, Hull };

/// One shape in the world, as every engine builds it.
struct ShapeSpec {
    Kind kind;
    glm::vec3 center;
    glm::mat3 rotation; ///< Columns: local axes.
    /// Box: half extents; sphere: x = radius; capsule, cylinder: x = radius, y = half height
    /// (along the local y axis).
    glm::vec3 dims;
    std::uint32_t hull; ///< Hull: index into hullPool().
};

constexpr std::size_t kHullsPerSize = 8;

struct PooledHull {
    kz::ConvexHull hull;
    std::vector<glm::dvec3> vertices; ///< The same vertices in double, for libccd's callbacks.
    std::unique_ptr<btConvexHullShape> bullet;
};

/// 8 hulls of 32 points then 8 of 200 points, on spheres of radius 0.5 to 1.5.
const std::vector<PooledHull>& hullPool() {
    static const std::vector<PooledHull> pool = [] {
        Rng rng(kSeed);
        std::vector<PooledHull> out;
        for (std::size_t count : {std::size_t{32}, std::size_t{200}}) {
            for (std::size_t h = 0; h < kHullsPerSize; ++h) {
                const float radius = uniform(rng, 0.5f, 1.5f);
                std::vector<glm::vec3> points;
                for (std::size_t i = 0; i < count; ++i)
                    points.push_back(kz::bench::randUnit(rng) * radius);
                kz::HullBuild built = kz::buildConvexHull(points);
                if (!built.hull) {
                    std::fprintf(stderr, "bench_convex: hull build failed: %s\n", built.error.c_str());
                    std::exit(1);
                }
                PooledHull p{std::move(*built.hull), {}, nullptr};
                for (const glm::vec3& v : p.hull.vertices)
                    p.vertices.emplace_back(v);
                p.bullet = std::make_unique<btConvexHullShape>();
                for (const glm::vec3& v : p.hull.vertices)
                    p.bullet->addPoint(btVector3(v.x, v.y, v.z), false);
                p.bullet->recalcLocalAabb();
                p.bullet->setMargin(0.0f);
                out.push_back(std::move(p));
            }
        }
        return out;
    }();
    return pool;
}

/// A shape of `kind` at `center`, turned at random; hulls of 32 (`bigHull` false) or 200 points.
ShapeSpec randShape(Rng& rng, Kind kind, const glm::vec3& center, bool bigHull = false) {
    ShapeSpec s{kind, center, glm::mat3_cast(kz::bench::randRotation(rng)), glm::vec3(0.0f), 0};
    switch (kind) {
    case Kind::Sphere:
        s.dims.x = uniform(rng, 0.25f, 1.5f);
        break;
    case Kind::Box:
        s.dims = {uniform(rng, 0.25f, 1.5f), uniform(rng, 0.25f, 1.5f), uniform(rng, 0.25f, 1.5f)};
        break;
    case Kind::Capsule:
        s.dims = {uniform(rng, 0.1f, 0.75f), uniform(rng, 0.25f, 1.5f), 0.0f};
        break;
    case Kind::Cylinder:
        s.dims = {uniform(rng, 0.25f, 1.5f), uniform(rng, 0.25f, 1.5f), 0.0f};
        break;
    case Kind::Hull:
        s.hull = static_cast<std::uint32_t>(rng() % kHullsPerSize + (bigHull ? kHullsPerSize : 0));
        break;
    }
    return s;
}

/// A radius of a ball around the centre holding the shape.
float boundingRadius(const ShapeSpec& s) {
    switch (s.kind) {
    case Kind::Sphere:
        return s.dims.x;
    case Kind::Box:
        return glm::length(s.dims);
    case Kind::Capsule:
        return s.dims.x + s.dims.y;
    case Kind::Cylinder:
        return std::sqrt(s.dims.x * s.dims.x + s.dims.y * s.dims.y);
    case Kind::Hull: {
        float r = 0.0f;
        for (const glm::vec3& v : hullPool()[s.hull].hull.vertices)
            r = std::max(r, glm::length(v));
        return r;
    }
    }
    return 0.0f;
}

kz::ConvexShape toKolize(const ShapeSpec& s) {
    switch (s.kind) {
    case Kind::Sphere:
        return kz::Sphere{s.center, s.dims.x};
    case Kind::Box:
        return kz::Obb{s.center, s.dims, s.rotation};
    case Kind::Capsule:
        return kz::capsuleFromPose(s.center, s.rotation, s.dims.y, s.dims.x);
    case Kind::Cylinder:
        return kz::cylinderFromPose(s.center, s.rotation, s.dims.y, s.dims.x);
    case Kind::Hull:
        return kz::PosedHull{&hullPool()[s.hull].hull, s.center, s.rotation};
    }
    return kz::Sphere{s.center, 0.0f};
}

struct PairKind {
    const char* name;
    Kind a, b;
    bool bigHulls;
};
constexpr std::array<PairKind, 6> kPairs{{{"box-box", Kind::Box, Kind::Box, false},
                                          {"sphere-box", Kind::Sphere, Kind::Box, false},
                                          {"capsule-capsule", Kind::Capsule, Kind::Capsule, false},
                                          {"cylinder-box", Kind::Cylinder, Kind::Box, false},
                                          {"hull32-hull32", Kind::Hull, Kind::Hull, false},
                                          {"hull200-hull200", Kind::Hull, Kind::Hull, true}}};

enum class Dist { Separated, Near, Overlapping, Mixed };
constexpr std::array<const char*, 4> kDistNames{"separated", "near", "overlapping", "mixed"};

struct PairSpec {
    ShapeSpec a, b;
};

/// B's centre at A's + t u with the cores' GJK distance `gap` (bisection on t: the distance of
/// two convex sets holding their centres grows with t from 0).
float bisectOffset(PairSpec& p, const glm::vec3& u, float hi, double gap) {
    double lo = 0.0, up = hi;
    const kz::ConvexShape a = toKolize(p.a);
    for (int k = 0; k < 40; ++k) {
        const double mid = 0.5 * (lo + up);
        p.b.center = p.a.center + u * static_cast<float>(mid);
        const kz::GjkResult r = kz::closestPtConvexConvex(a, toKolize(p.b));
        (r.overlap || static_cast<double>(r.distance) <= gap ? lo : up) = mid;
    }
    return static_cast<float>(up);
}

PairSpec makePair(Rng& rng, const PairKind& kind, Dist dist) {
    const glm::vec3 centre(uniform(rng, -2.0f, 2.0f), uniform(rng, -2.0f, 2.0f), uniform(rng, -2.0f, 2.0f));
    PairSpec p{randShape(rng, kind.a, centre, kind.bigHulls), randShape(rng, kind.b, centre, kind.bigHulls)};
    const float ra = boundingRadius(p.a), rb = boundingRadius(p.b);
    const glm::vec3 u = kz::bench::randUnit(rng);
    const float hi = ra + rb + 2.0f;
    const double size = std::max(ra, rb);
    switch (dist) {
    case Dist::Separated:
        bisectOffset(p, u, hi, size * static_cast<double>(uniform(rng, 0.02f, 1.0f)));
        break;
    case Dist::Near:
        bisectOffset(p, u, hi, size * std::pow(10.0, static_cast<double>(uniform(rng, -5.0f, -2.0f))));
        break;
    case Dist::Overlapping:
    case Dist::Mixed: {
        const float touching = bisectOffset(p, u, hi, 0.0);
        p.b.center = p.a.center + u * (touching * uniform(rng, 0.2f, 0.98f));
        break;
    }
    }
    return p;
}

/// The pairs of set (pair, dist), made on first use.
const std::vector<PairSpec>& pairSet(std::size_t pair, Dist dist) {
    static std::map<std::pair<std::size_t, Dist>, std::vector<PairSpec>> sets;
    auto [it, fresh] = sets.try_emplace({pair, dist});
    if (!fresh) return it->second;
    std::vector<PairSpec>& out = it->second;
    if (dist == Dist::Mixed) {
        const std::array<const std::vector<PairSpec>*, 3> from{
            &pairSet(pair, Dist::Separated), &pairSet(pair, Dist::Near), &pairSet(pair, Dist::Overlapping)};
        for (std::size_t i = 0; i < kCaseCount; ++i)
            out.push_back((*from[i % 3])[i]);
        return out;
    }
    Rng rng(kSeed + static_cast<std::uint32_t>(1 + pair * 4 + static_cast<std::size_t>(dist)));
    for (std::size_t i = 0; i < kCaseCount; ++i)
        out.push_back(makePair(rng, kPairs[pair], dist));
    return out;
}

struct RayShapeKind {
    const char* name;
    Kind kind;
    bool bigHull;
};
constexpr std::array<RayShapeKind, 6> kRayShapes{{{"sphere", Kind::Sphere, false},
                                                  {"box", Kind::Box, false},
                                                  {"capsule", Kind::Capsule, false},
                                                  {"cylinder", Kind::Cylinder, false},
                                                  {"hull32", Kind::Hull, false},
                                                  {"hull200", Kind::Hull, true}}};

struct RaySpec {
    kz::Ray ray;
    float tMax;
    ShapeSpec shape;
};

const std::vector<RaySpec>& raySet(std::size_t shape) {
    static std::map<std::size_t, std::vector<RaySpec>> sets;
    auto [it, fresh] = sets.try_emplace(shape);
    if (!fresh) return it->second;
    Rng rng(kSeed + 100u + static_cast<std::uint32_t>(shape));
    for (std::size_t i = 0; i < kCaseCount; ++i) {
        const glm::vec3 c(uniform(rng, -2.0f, 2.0f), uniform(rng, -2.0f, 2.0f), uniform(rng, -2.0f, 2.0f));
        const ShapeSpec s = randShape(rng, kRayShapes[shape].kind, c, kRayShapes[shape].bigHull);
        const float jitter = 1.2f * boundingRadius(s);
        const glm::vec3 origin = c + kz::bench::randUnit(rng) * uniform(rng, 4.0f, 8.0f);
        const glm::vec3 aim = c + glm::vec3(uniform(rng, -jitter, jitter), uniform(rng, -jitter, jitter),
                                            uniform(rng, -jitter, jitter));
        const float len = uniform(rng, 0.25f, 4.0f);
        it->second.push_back({{origin, glm::normalize(aim - origin) * len}, 20.0f / len, s});
    }
    return it->second;
}

// ---------------------------------------------------------------------------------------------
// Bullet's view of the shapes
// ---------------------------------------------------------------------------------------------

btTransform toBullet(const glm::vec3& c, const glm::mat3& m) {
    // glm is column-major (m[col][row]); btMatrix3x3 takes rows.
    const btMatrix3x3 basis(m[0][0], m[1][0], m[2][0], m[0][1], m[1][1], m[2][1], m[0][2], m[1][2], m[2][2]);
    return btTransform(basis, btVector3(c.x, c.y, c.z));
}

/// A Bullet shape for `s`: owned in `owned` unless it is a pooled hull.
const btConvexShape* bulletShape(const ShapeSpec& s, std::vector<std::unique_ptr<btConvexShape>>& owned) {
    std::unique_ptr<btConvexShape> shape;
    switch (s.kind) {
    case Kind::Sphere:
        shape = std::make_unique<btSphereShape>(s.dims.x);
        break;
    case Kind::Box:
        shape = std::make_unique<btBoxShape>(btVector3(s.dims.x, s.dims.y, s.dims.z));
        shape->setMargin(0.0f);
        break;
    case Kind::Capsule:
        shape = std::make_unique<btCapsuleShape>(s.dims.x, 2.0f * s.dims.y);
        break;
    case Kind::Cylinder:
        shape = std::make_unique<btCylinderShape>(btVector3(s.dims.x, s.dims.y, s.dims.x));
        shape->setMargin(0.0f);
        break;
    case Kind::Hull:
        return hullPool()[s.hull].bullet.get();
    }
    owned.push_back(std::move(shape));
    return owned.back().get();
}

struct BulletObject {
    const btConvexShape* shape;
    btTransform pose;
};
struct BulletPair {
    BulletObject a, b;
};

struct BulletPairSet {
    std::vector<std::unique_ptr<btConvexShape>> owned;
    std::vector<BulletPair> pairs;
};

const BulletPairSet& bulletPairSet(std::size_t pair, Dist dist) {
    static std::map<std::pair<std::size_t, Dist>, BulletPairSet> sets;
    auto [it, fresh] = sets.try_emplace({pair, dist});
    if (!fresh) return it->second;
    for (const PairSpec& p : pairSet(pair, dist)) {
        const btConvexShape* a = bulletShape(p.a, it->second.owned);
        const btConvexShape* b = bulletShape(p.b, it->second.owned);
        it->second.pairs.push_back(
            {{a, toBullet(p.a.center, p.a.rotation)}, {b, toBullet(p.b.center, p.b.rotation)}});
    }
    return it->second;
}

struct BulletRaySet {
    std::vector<std::unique_ptr<btConvexShape>> owned;
    std::vector<BulletObject> shapes;
};

const BulletRaySet& bulletRaySet(std::size_t shape) {
    static std::map<std::size_t, BulletRaySet> sets;
    auto [it, fresh] = sets.try_emplace(shape);
    if (!fresh) return it->second;
    for (const RaySpec& r : raySet(shape))
        it->second.shapes.push_back(
            {bulletShape(r.shape, it->second.owned), toBullet(r.shape.center, r.shape.rotation)});
    return it->second;
}

/// Bullet's answers, in Kolize's conventions.
struct BulletSolvers {
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver epa;
    btSphereShape point{0.0f};
    BulletSolvers() { point.setMargin(0.0f); }
};
BulletSolvers& bulletSolvers() {
    static BulletSolvers solvers;
    return solvers;
}

/// btGjkPairDetector's distance (negative: penetrating, as Bullet reports it).
float bulletDistance(const BulletPair& p) {
    BulletSolvers& s = bulletSolvers();
    btGjkPairDetector gjk(p.a.shape, p.b.shape, &s.simplex, &s.epa);
    btDiscreteCollisionDetectorInterface::ClosestPointInput input;
    input.m_transformA = p.a.pose;
    input.m_transformB = p.b.pose;
    btPointCollector out;
    gjk.getClosestPoints(input, out, nullptr);
    return out.m_hasResult ? out.m_distance : INFINITY;
}

/// btGjkEpaSolver2::Distance on the cores minus the margins; -1 when its GJK finds the cores
/// overlapping (or fails).
float bulletGjkEpa2Distance(const BulletPair& p) {
    btGjkEpaSolver2::sResults r;
    const btVector3 guess = p.b.pose.getOrigin() - p.a.pose.getOrigin();
    if (!btGjkEpaSolver2::Distance(p.a.shape, p.a.pose, p.b.shape, p.b.pose, guess, r)) return -1.0f;
    return r.distance - p.a.shape->getMargin() - p.b.shape->getMargin();
}

bool bulletOverlap(const BulletPair& p) {
    return bulletGjkEpa2Distance(p) <= 0.0f;
}

struct Penetration {
    bool overlap;
    float depth;
    glm::vec3 normal; ///< From B toward A.
};

Penetration bulletPenetration(const BulletPair& p) {
    btGjkEpaSolver2::sResults r;
    const btVector3 guess = p.b.pose.getOrigin() - p.a.pose.getOrigin();
    if (!btGjkEpaSolver2::Penetration(p.a.shape, p.a.pose, p.b.shape, p.b.pose, guess, r))
        return {false, 0.0f, glm::vec3(0.0f)};
    // Its EPA runs in A's local frame and returns the normal there (the witnesses in the world).
    const btVector3 n = p.a.pose.getBasis() * r.normal;
    return {true, -r.distance, glm::vec3(n.x(), n.y(), n.z())};
}

/// Bullet's ray test of a convex shape: a point (radius-0 sphere) cast from `from` to `to`;
/// the hit's fraction of the segment, or empty.
template <class Caster>
std::optional<float> bulletRaycast(const RaySpec& r, const BulletObject& o) {
    BulletSolvers& s = bulletSolvers();
    Caster caster(&s.point, o.shape, &s.simplex);
    const glm::vec3 to = r.ray.origin + r.ray.dir * r.tMax;
    const btTransform from = toBullet(r.ray.origin, glm::mat3(1.0f));
    const btTransform toPose = toBullet(to, glm::mat3(1.0f));
    btConvexCast::CastResult result;
    result.m_fraction = 1.0f;
    if (caster.calcTimeOfImpact(from, toPose, o.pose, o.pose, result) && result.m_normal.length2() > 1e-4f &&
        result.m_fraction < 1.0f)
        return result.m_fraction * r.tMax;
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// libccd's view of the shapes
// ---------------------------------------------------------------------------------------------

#ifdef KZ_HAVE_CCD

struct CcdShape {
    glm::dvec3 center;
    glm::dmat3 rotation;
    glm::dvec3 dims;
    const std::vector<glm::dvec3>* vertices; ///< Hull only.
};

/// The support point in local coordinates along the local direction d (libccd's callback shapes,
/// as FCL writes them).
glm::dvec3 ccdLocalSupport(Kind kind, const CcdShape& s, const glm::dvec3& d) {
    switch (kind) {
    case Kind::Sphere: {
        const double len = glm::length(d);
        return len > 0.0 ? d * (s.dims.x / len) : glm::dvec3(0.0);
    }
    case Kind::Box:
        return {d.x >= 0.0 ? s.dims.x : -s.dims.x, d.y >= 0.0 ? s.dims.y : -s.dims.y,
                d.z >= 0.0 ? s.dims.z : -s.dims.z};
    case Kind::Capsule: {
        const double len = glm::length(d);
        const glm::dvec3 end(0.0, d.y >= 0.0 ? s.dims.y : -s.dims.y, 0.0);
        return len > 0.0 ? end + d * (s.dims.x / len) : end;
    }
    case Kind::Cylinder: {
        const double rim = std::sqrt(d.x * d.x + d.z * d.z);
        const double y = d.y >= 0.0 ? s.dims.y : -s.dims.y;
        return rim > 0.0 ? glm::dvec3(d.x * s.dims.x / rim, y, d.z * s.dims.x / rim)
                         : glm::dvec3(0.0, y, 0.0);
    }
    case Kind::Hull: {
        const std::vector<glm::dvec3>& v = *s.vertices;
        std::size_t best = 0;
        double bestDot = glm::dot(v[0], d);
        for (std::size_t i = 1; i < v.size(); ++i) {
            const double dd = glm::dot(v[i], d);
            if (dd > bestDot) {
                bestDot = dd;
                best = i;
            }
        }
        return v[best];
    }
    }
    return glm::dvec3(0.0);
}

template <Kind kKind>
void ccdSupport(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
    const CcdShape& s = *static_cast<const CcdShape*>(obj);
    const glm::dvec3 d(dir->v[0], dir->v[1], dir->v[2]);
    const glm::dvec3 p = s.center + s.rotation * ccdLocalSupport(kKind, s, glm::transpose(s.rotation) * d);
    ccdVec3Set(out, p.x, p.y, p.z);
}

void ccdCenter(const void* obj, ccd_vec3_t* center) {
    const CcdShape& s = *static_cast<const CcdShape*>(obj);
    ccdVec3Set(center, s.center.x, s.center.y, s.center.z);
}

ccd_support_fn ccdSupportFn(Kind kind) {
    switch (kind) {
    case Kind::Sphere:
        return ccdSupport<Kind::Sphere>;
    case Kind::Box:
        return ccdSupport<Kind::Box>;
    case Kind::Capsule:
        return ccdSupport<Kind::Capsule>;
    case Kind::Cylinder:
        return ccdSupport<Kind::Cylinder>;
    case Kind::Hull:
        return ccdSupport<Kind::Hull>;
    }
    return nullptr;
}

CcdShape toCcd(const ShapeSpec& s) {
    return {glm::dvec3(s.center), glm::dmat3(s.rotation), glm::dvec3(s.dims),
            s.kind == Kind::Hull ? &hullPool()[s.hull].vertices : nullptr};
}

struct CcdPair {
    CcdShape a, b;
    ccd_t ccd;
};

const std::vector<CcdPair>& ccdPairSet(std::size_t pair, Dist dist) {
    static std::map<std::pair<std::size_t, Dist>, std::vector<CcdPair>> sets;
    auto [it, fresh] = sets.try_emplace({pair, dist});
    if (!fresh) return it->second;
    for (const PairSpec& p : pairSet(pair, dist)) {
        CcdPair c{toCcd(p.a), toCcd(p.b), {}};
        CCD_INIT(&c.ccd);
        c.ccd.support1 = ccdSupportFn(p.a.kind);
        c.ccd.support2 = ccdSupportFn(p.b.kind);
        c.ccd.center1 = ccdCenter;
        c.ccd.center2 = ccdCenter;
        // FCL's settings for libccd (GJKSolver_libccd): 500 iterations, tolerances 1e-6.
        c.ccd.max_iterations = 500;
        c.ccd.epa_tolerance = 1e-6;
        c.ccd.mpr_tolerance = 1e-6;
        c.ccd.dist_tolerance = 1e-6;
        it->second.push_back(c);
    }
    return it->second;
}

bool ccdOverlapGjk(const CcdPair& c) {
    return ccdGJKIntersect(&c.a, &c.b, &c.ccd) != 0;
}
bool ccdOverlapMpr(const CcdPair& c) {
    return ccdMPRIntersect(&c.a, &c.b, &c.ccd) != 0;
}

/// libccd reports the direction to move obj2 (B) out of obj1 (A): the normal is its opposite.
template <bool kMpr>
Penetration ccdPenetration(const CcdPair& c) {
    ccd_real_t depth = 0.0;
    ccd_vec3_t dir, pos;
    const int rc = kMpr ? ccdMPRPenetration(&c.a, &c.b, &c.ccd, &depth, &dir, &pos)
                        : ccdGJKPenetration(&c.a, &c.b, &c.ccd, &depth, &dir, &pos);
    if (rc != 0) return {false, 0.0f, glm::vec3(0.0f)};
    return {
        true, static_cast<float>(depth),
        -glm::vec3(static_cast<float>(dir.v[0]), static_cast<float>(dir.v[1]), static_cast<float>(dir.v[2]))};
}

#endif // KZ_HAVE_CCD

// ---------------------------------------------------------------------------------------------
// Queries and engines
// ---------------------------------------------------------------------------------------------

enum class Query { Distance, Overlap, Penetration, Raycast };
constexpr std::array<const char*, 4> kQueryNames{"Distance", "Overlap", "Penetration", "Raycast"};

enum class Engine { Kolize, Bullet, BulletGjkEpa2, BulletGjkCast, CcdGjk, CcdMpr };

const char* engineName(Engine e) {
    switch (e) {
    case Engine::Kolize:
        return "Kolize";
    case Engine::Bullet:
        return "Bullet";
    case Engine::BulletGjkEpa2:
        return "Bullet-GjkEpa2";
    case Engine::BulletGjkCast:
        return "Bullet-GJKcast";
    case Engine::CcdGjk:
        return "libccd-GJK";
    case Engine::CcdMpr:
        return "libccd-MPR";
    }
    return "?";
}

/// The engines timed for a query, Kolize first.
std::vector<Engine> engines(Query q) {
    switch (q) {
    case Query::Distance:
        return {Engine::Kolize, Engine::Bullet, Engine::BulletGjkEpa2};
    case Query::Overlap:
    case Query::Penetration:
#ifdef KZ_HAVE_CCD
        return {Engine::Kolize, Engine::CcdGjk, Engine::CcdMpr, Engine::Bullet};
#else
        return {Engine::Kolize, Engine::Bullet};
#endif
    case Query::Raycast:
        return {Engine::Kolize, Engine::Bullet, Engine::BulletGjkCast};
    }
    return {};
}

/// The sets each query runs on (Raycast: one per ray shape, `dist` unused).
std::vector<Dist> dists(Query q) {
    switch (q) {
    case Query::Distance:
        return {Dist::Separated, Dist::Near};
    case Query::Overlap:
        return {Dist::Mixed};
    case Query::Penetration:
        return {Dist::Overlapping};
    case Query::Raycast:
        return {Dist::Separated};
    }
    return {};
}

struct KolizePair {
    kz::ConvexShape a, b;
};

const std::vector<KolizePair>& kolizePairSet(std::size_t pair, Dist dist) {
    static std::map<std::pair<std::size_t, Dist>, std::vector<KolizePair>> sets;
    auto [it, fresh] = sets.try_emplace({pair, dist});
    if (fresh)
        for (const PairSpec& p : pairSet(pair, dist))
            it->second.push_back({toKolize(p.a), toKolize(p.b)});
    return it->second;
}

struct KolizeRay {
    kz::Ray ray;
    float tMax;
    kz::ConvexShape shape;
};

const std::vector<KolizeRay>& kolizeRaySet(std::size_t shape) {
    static std::map<std::size_t, std::vector<KolizeRay>> sets;
    auto [it, fresh] = sets.try_emplace(shape);
    if (fresh)
        for (const RaySpec& r : raySet(shape))
            it->second.push_back({r.ray, r.tMax, toKolize(r.shape)});
    return it->second;
}

Penetration kolizePenetration(const KolizePair& p) {
    const kz::EpaResult r = kz::penetrationConvexConvex(p.a, p.b);
    return {r.overlap, r.depth, r.normal};
}

/// One engine's answer to one case, for the accuracy table: yes (overlap, hit), the value
/// (distance clamped at 0, depth, t) and the normal (penetration).
struct Answer {
    bool yes;
    float value;
    glm::vec3 normal;
};

/// Calls f(case) for every case of (q, set, dist) in `e`'s form; f's result is converted by the
/// overloads of `answerOf`. Returns false if the engine does not run that query.
template <class Fn>
bool withCases(Query q, std::size_t set, Dist dist, Engine e, Fn&& f) {
    switch (q) {
    case Query::Distance:
        if (e == Engine::Kolize)
            return f(kolizePairSet(set, dist), [](const KolizePair& p) {
                const kz::GjkResult r = kz::closestPtConvexConvex(p.a, p.b);
                return Answer{r.overlap, r.distance, r.normal};
            });
        if (e == Engine::Bullet || e == Engine::BulletGjkEpa2)
            return f(bulletPairSet(set, dist).pairs, [e](const BulletPair& p) {
                const float d = e == Engine::Bullet ? bulletDistance(p) : bulletGjkEpa2Distance(p);
                return Answer{d <= 0.0f, std::max(d, 0.0f), glm::vec3(0.0f)};
            });
        return false;
    case Query::Overlap:
        if (e == Engine::Kolize)
            return f(kolizePairSet(set, dist), [](const KolizePair& p) {
                return Answer{kz::testConvexConvex(p.a, p.b), 0.0f, glm::vec3(0.0f)};
            });
        if (e == Engine::Bullet)
            return f(bulletPairSet(set, dist).pairs, [](const BulletPair& p) {
                return Answer{bulletOverlap(p), 0.0f, glm::vec3(0.0f)};
            });
#ifdef KZ_HAVE_CCD
        if (e == Engine::CcdGjk || e == Engine::CcdMpr)
            return f(ccdPairSet(set, dist), [e](const CcdPair& c) {
                return Answer{e == Engine::CcdGjk ? ccdOverlapGjk(c) : ccdOverlapMpr(c), 0.0f,
                              glm::vec3(0.0f)};
            });
#endif
        return false;
    case Query::Penetration: {
        const auto answer = [](const Penetration& r) { return Answer{r.overlap, r.depth, r.normal}; };
        if (e == Engine::Kolize)
            return f(kolizePairSet(set, dist),
                     [&](const KolizePair& p) { return answer(kolizePenetration(p)); });
        if (e == Engine::Bullet)
            return f(bulletPairSet(set, dist).pairs,
                     [&](const BulletPair& p) { return answer(bulletPenetration(p)); });
#ifdef KZ_HAVE_CCD
        if (e == Engine::CcdGjk)
            return f(ccdPairSet(set, dist),
                     [&](const CcdPair& c) { return answer(ccdPenetration<false>(c)); });
        if (e == Engine::CcdMpr)
            return f(ccdPairSet(set, dist),
                     [&](const CcdPair& c) { return answer(ccdPenetration<true>(c)); });
#endif
        return false;
    }
    case Query::Raycast: {
        // The value is the distance along the ray, t |dir|.
        const auto answer = [](const std::optional<float>& t, const kz::Ray& ray) {
            return Answer{t.has_value(), t.value_or(0.0f) * glm::length(ray.dir), glm::vec3(0.0f)};
        };
        if (e == Engine::Kolize)
            return f(kolizeRaySet(set), [&](const KolizeRay& r) {
                const kz::ConvexRayCast c = kz::raycastConvex(r.ray, r.shape, r.tMax);
                return answer(c.hit ? std::optional<float>(c.hit->t) : std::nullopt, r.ray);
            });
        // Bullet's cases are the shapes; the rays come from the shared specs by index.
        const std::vector<RaySpec>& rays = raySet(set);
        const std::vector<BulletObject>& shapes = bulletRaySet(set).shapes;
        std::vector<std::pair<const RaySpec*, const BulletObject*>> cases;
        for (std::size_t i = 0; i < rays.size(); ++i)
            cases.emplace_back(&rays[i], &shapes[i]);
        if (e == Engine::Bullet)
            return f(cases, [&](const std::pair<const RaySpec*, const BulletObject*>& c) {
                return answer(bulletRaycast<btSubsimplexConvexCast>(*c.first, *c.second), c.first->ray);
            });
        if (e == Engine::BulletGjkCast)
            return f(cases, [&](const std::pair<const RaySpec*, const BulletObject*>& c) {
                return answer(bulletRaycast<btGjkConvexCast>(*c.first, *c.second), c.first->ray);
            });
        return false;
    }
    }
    return false;
}

/// Every answer of `e` on (q, set, dist), computed once (untimed).
const std::vector<Answer>& answers(Query q, std::size_t set, Dist dist, Engine e) {
    static std::map<std::tuple<Query, std::size_t, Dist, Engine>, std::vector<Answer>> cache;
    auto [it, fresh] = cache.try_emplace({q, set, dist, e});
    if (fresh)
        withCases(q, set, dist, e, [&](const auto& cases, auto query) {
            for (const auto& c : cases)
                it->second.push_back(query(c));
            return true;
        });
    return it->second;
}

/// Kolize's mean iteration count over the set (untimed): GJK's support points for the distance,
/// EPA's for penetration (0 where GJK settled it), the ray cast's; NaN for the overlap test
/// (testConvexConvex returns a bool only).
double kolizeIterations(Query q, std::size_t set, Dist dist) {
    double sum = 0.0;
    std::size_t n = 0;
    if (q == Query::Raycast) {
        for (const KolizeRay& r : kolizeRaySet(set)) {
            sum += kz::raycastConvex(r.ray, r.shape, r.tMax).iterations;
            ++n;
        }
    } else if (q != Query::Overlap) {
        for (const KolizePair& p : kolizePairSet(set, dist)) {
            sum += q == Query::Distance ? kz::closestPtConvexConvex(p.a, p.b).iterations
                                        : kz::penetrationConvexConvex(p.a, p.b).iterations;
            ++n;
        }
    }
    return n > 0 ? sum / static_cast<double>(n) : std::nan("");
}

/// One query per iteration, cycling over the set. Counters (Kolize's iters: kolizeIterations) yes_pct: this
/// engine's percentage of overlaps (distance 0) or hits over the set, computed once, untimed.
void BM_Convex(benchmark::State& state, Query q, std::size_t set, Dist dist, Engine e) {
    withCases(q, set, dist, e, [&](const auto& cases, auto query) {
        std::size_t i = 0;
        for ([[maybe_unused]] auto _ : state) {
            auto result = query(cases[i & kMask]);
            benchmark::DoNotOptimize(result);
            ++i;
        }
        return true;
    });
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
    const std::vector<Answer>& a = answers(q, set, dist, e);
    const auto yes = std::count_if(a.begin(), a.end(), [](const Answer& x) { return x.yes; });
    state.counters["yes_pct"] = 100.0 * static_cast<double>(yes) / static_cast<double>(a.size());
    if (e == Engine::Kolize && q != Query::Overlap) state.counters["iters"] = kolizeIterations(q, set, dist);
}

std::string setName(Query q, std::size_t set, Dist dist) {
    if (q == Query::Raycast) return kRayShapes[set].name;
    return std::string(kPairs[set].name) + "/" + kDistNames[static_cast<std::size_t>(dist)];
}

std::string benchName(Query q, std::size_t set, Dist dist, Engine e) {
    return "BM_" + std::string(kQueryNames[static_cast<std::size_t>(q)]) + "/" + setName(q, set, dist) + "/" +
           engineName(e);
}

std::size_t setCount(Query q) {
    return q == Query::Raycast ? kRayShapes.size() : kPairs.size();
}

// ---------------------------------------------------------------------------------------------
// Summary: times, ratios and the accuracy table
// ---------------------------------------------------------------------------------------------

std::string fmt(double x, const char* format) {
    if (!std::isfinite(x)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

/// A peer's answers against Kolize's on one set.
struct Accuracy {
    std::size_t compared = 0; ///< Cases where both answered with a value.
    std::size_t disagree = 0; ///< Cases where the yes/no answers differ.
    double maxErr = 0.0, medianErr = 0.0;
    double maxAngle = 0.0, medianAngle = 0.0; ///< Penetration normals, degrees.
    /// Penetration: answers whose move (B by depth + kSeparationSlack along -normal) leaves the
    /// shapes overlapping (Kolize's GJK): not a way out at all.
    std::size_t notSeparating = 0;
    /// Penetration: answers deeper than Kolize's by more than kSeparationSlack where Kolize's move
    /// separates them: not the least way out.
    std::size_t deeper = 0;
};

/// Slack on a penetration answer's move before it must separate the shapes (Bullet is float).
constexpr double kSeparationSlack = 1e-4;

/// Whether moving B of pair `p` by -(depth + kSeparationSlack) * normal separates it from A.
bool separates(const PairSpec& p, const Answer& a) {
    const double length = glm::length(glm::dvec3(a.normal));
    if (!(length > 0.5)) return false;
    ShapeSpec b = p.b;
    const glm::dvec3 move = glm::dvec3(a.normal) / length * (static_cast<double>(a.value) + kSeparationSlack);
    b.center = glm::vec3(glm::dvec3(b.center) - move);
    return !kz::closestPtConvexConvex(toKolize(p.a), toKolize(b)).overlap;
}

/// For Kolize itself (peer == Kolize), only notSeparating is filled.

Accuracy accuracy(Query q, std::size_t set, Dist dist, Engine peer) {
    const std::vector<Answer>& k = answers(q, set, dist, Engine::Kolize);
    const std::vector<Answer>& p = answers(q, set, dist, peer);
    Accuracy acc;
    std::vector<double> errs, angles;
    for (std::size_t i = 0; i < k.size() && i < p.size(); ++i) {
        if (k[i].yes != p[i].yes) ++acc.disagree;
        if (q == Query::Penetration && p[i].yes) {
            const PairSpec& pair = pairSet(set, dist)[i];
            const bool valid = separates(pair, p[i]);
            if (!valid) ++acc.notSeparating;
            if (valid && k[i].yes &&
                static_cast<double>(p[i].value) > static_cast<double>(k[i].value) + kSeparationSlack &&
                separates(pair, k[i]))
                ++acc.deeper;
        }
        if (peer == Engine::Kolize) continue;
        // Distances compare on every pair (0 for an overlap); depths and t where both say yes.
        const bool valued = q == Query::Distance || (q != Query::Overlap && k[i].yes && p[i].yes);
        if (!valued) continue;
        errs.push_back(std::abs(static_cast<double>(p[i].value) - static_cast<double>(k[i].value)));
        if (q == Query::Penetration) {
            const double c = glm::dot(glm::dvec3(glm::normalize(p[i].normal)), glm::dvec3(k[i].normal));
            angles.push_back(std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / 3.14159265358979323846);
        }
    }
    acc.compared = errs.size();
    if (!errs.empty()) {
        acc.maxErr = *std::max_element(errs.begin(), errs.end());
        acc.medianErr = kz::bench::MeanReporter::medianOf(errs);
    }
    if (!angles.empty()) {
        acc.maxAngle = *std::max_element(angles.begin(), angles.end());
        acc.medianAngle = kz::bench::MeanReporter::medianOf(angles);
    }
    return acc;
}

class SummaryReporter : public kz::bench::MeanReporter {
public:
    void printSummary() const {
        std::printf("\nCPU time per query in ns (wall time on a shared machine also counts other "
                    "processes), median over %d repetition(s); ratio = Kolize / peer (< 1: Kolize faster)\n",
                    repetitions());
        for (std::size_t qi = 0; qi < kQueryNames.size(); ++qi)
            printTimes(static_cast<Query>(qi));
        std::printf(
            "\nAccuracy against Kolize over the same pairs (absolute; shapes about 1 in size): "
            "pairs compared, yes/no disagreements, max and median |value - Kolize's| (a ray's: "
            "distance along it, t |dir|), and for penetration the normals' angle in degrees (max, median), "
            "the answers whose move (B by depth + %g along -normal) does not separate the shapes, "
            "and those deeper than Kolize's by more than %g where Kolize's move separates them\n",
            kSeparationSlack, kSeparationSlack);
        for (std::size_t qi = 0; qi < kQueryNames.size(); ++qi)
            printAccuracy(static_cast<Query>(qi));
    }

private:
    bool ran(Query q, std::size_t set, Dist dist) const {
        return !std::isnan(realMedian(benchName(q, set, dist, Engine::Kolize)));
    }

    void printTimes(Query q) const {
        const std::vector<Engine> es = engines(q);
        std::printf("\n%-28s", kQueryNames[static_cast<std::size_t>(q)]);
        for (Engine e : es)
            std::printf(" %14s", engineName(e));
        for (std::size_t i = 1; i < es.size(); ++i)
            std::printf(" %17s", (std::string("K/") + engineName(es[i])).c_str());
        std::printf("\n");
        for (std::size_t set = 0; set < setCount(q); ++set) {
            for (Dist dist : dists(q)) {
                if (!ran(q, set, dist)) continue;
                std::printf("%-28s", setName(q, set, dist).c_str());
                std::vector<double> ns;
                for (Engine e : es)
                    ns.push_back(cpuMedian(benchName(q, set, dist, e)));
                for (double x : ns)
                    std::printf(" %14s", fmt(x, "%.0f").c_str());
                for (std::size_t i = 1; i < ns.size(); ++i)
                    std::printf(" %17s", fmt(ns[0] / ns[i], "%.2fx").c_str());
                std::printf("\n");
            }
        }
    }

    void printAccuracy(Query q) const {
        for (std::size_t set = 0; set < setCount(q); ++set) {
            for (Dist dist : dists(q)) {
                if (!ran(q, set, dist)) continue;
                for (Engine e : engines(q)) {
                    if (e == Engine::Kolize && q != Query::Penetration) continue;
                    const Accuracy a = accuracy(q, set, dist, e);
                    if (e == Engine::Kolize) {
                        std::printf("  %-12s %-28s %-15s%80s  not separating %4zu\n",
                                    kQueryNames[static_cast<std::size_t>(q)], setName(q, set, dist).c_str(),
                                    engineName(e), "", a.notSeparating);
                        continue;
                    }
                    std::printf("  %-12s %-28s %-15s %5zu %5zu", kQueryNames[static_cast<std::size_t>(q)],
                                setName(q, set, dist).c_str(), engineName(e), a.compared, a.disagree);
                    if (q != Query::Overlap) std::printf("  max %9.2e  median %9.2e", a.maxErr, a.medianErr);
                    if (q == Query::Penetration)
                        std::printf("  angle max %7.3f  median %7.3f  not separating %4zu  deeper %4zu",
                                    a.maxAngle, a.medianAngle, a.notSeparating, a.deeper);
                    std::printf("\n");
                }
            }
        }
    }
};

} // namespace

int main(int argc, char** argv) {
    bool console = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--benchmark_format=", 19) == 0 &&
            std::strcmp(argv[i] + 19, "console") != 0)
            console = false;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

    // Sets are made on first use, so a --benchmark_filter that selects one set makes only that one.
    for (std::size_t qi = 0; qi < kQueryNames.size(); ++qi) {
        const Query q = static_cast<Query>(qi);
        for (std::size_t set = 0; set < setCount(q); ++set)
            for (Dist dist : dists(q))
                for (Engine e : engines(q))
                    benchmark::RegisterBenchmark(benchName(q, set, dist, e).c_str(), BM_Convex, q, set, dist,
                                                 e)
                        ->Unit(benchmark::kNanosecond);
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
