// Geometry query micro-benchmarks: ns per query for every raycast, overlap test, contact query,
// intersectRays and screenRay.
//
// Every benchmark runs over a fixed set of kCaseCount random cases, generated once (on first use,
// outside the timed loop) from std::mt19937 seeded with kSeed, so runs are comparable across
// builds and machines. One iteration is one query; the index cycles through the set (i & kMask),
// so the branch predictor sees a realistic mix of hits and misses rather than one repeated case.
// The sets are tuned to give roughly 30-70% hits; the exact fraction (computed once over the whole
// set, untimed) is reported as the counter hit_rate. Pairs that answer the same question share one
// set (e.g. ObbPlaneProjected vs ObbPlaneCorners, OverlapObbObb vs ContactObbObb,
// ContactObbTriangle vs SeparationObbTriangle), so their timings compare like for like.
#include "geom/geom.hpp"

#include <array>
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

/// The seed of every case set: std::mt19937(kSeed + set id).
constexpr std::uint32_t kSeed = 20240517u;
constexpr std::size_t kCaseCount = 4096;
constexpr std::size_t kMask = kCaseCount - 1;
static_assert((kCaseCount & kMask) == 0, "kCaseCount must be a power of two");

// ---------------------------------------------------------------------------------------------
// Random helpers
// ---------------------------------------------------------------------------------------------

using Rng = std::mt19937;

float uniform(Rng& rng, float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
}

glm::vec3 randVec(Rng& rng, float lo, float hi) {
    return {uniform(rng, lo, hi), uniform(rng, lo, hi), uniform(rng, lo, hi)};
}

/// Uniform on the unit sphere: a normalised 3D Gaussian.
glm::vec3 randUnit(Rng& rng) {
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    for (;;) {
        const glm::vec3 v(gauss(rng), gauss(rng), gauss(rng));
        const float len2 = glm::dot(v, v);
        if (len2 > 1e-6f) return v / std::sqrt(len2);
    }
}

/// A uniformly random rotation: a normalised 4D Gaussian as a unit quaternion.
glm::mat3 randRotation(Rng& rng) {
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    for (;;) {
        const glm::quat q(gauss(rng), gauss(rng), gauss(rng), gauss(rng)); // (w, x, y, z)
        const float len2 = glm::dot(q, q);
        if (len2 > 1e-6f) return glm::mat3_cast(q / std::sqrt(len2));
    }
}

/// A non-unit direction: random unit vector times a random length in [0.25, 4].
glm::vec3 randDir(Rng& rng) {
    return randUnit(rng) * uniform(rng, 0.25f, 4.0f);
}

/// A ray from a random origin in the [-8, 8]^3 scene aimed (with a non-unit dir) at a point
/// jittered by up to `jitter` on each axis around `target`. The jitter sets the hit rate.
kz::Ray aimedRay(Rng& rng, const glm::vec3& target, float jitter) {
    const glm::vec3 origin = randVec(rng, -8.0f, 8.0f);
    const glm::vec3 aim = target + randVec(rng, -jitter, jitter);
    glm::vec3 dir = aim - origin;
    const float len = glm::length(dir);
    if (len < 1e-3f) return {origin, randDir(rng)};
    return {origin, dir / len * uniform(rng, 0.25f, 4.0f)};
}

kz::Sphere randSphere(Rng& rng, float centreRange, float rMin, float rMax) {
    return {randVec(rng, -centreRange, centreRange), uniform(rng, rMin, rMax)};
}

kz::Plane randPlane(Rng& rng, float dLo, float dHi) {
    return {randUnit(rng), uniform(rng, dLo, dHi)};
}

kz::Aabb randAabb(Rng& rng, float centreRange, float hMin, float hMax) {
    const glm::vec3 c = randVec(rng, -centreRange, centreRange);
    const glm::vec3 h = randVec(rng, hMin, hMax);
    return {c - h, c + h};
}

kz::Obb randObb(Rng& rng, float centreRange, float hMin, float hMax) {
    return {randVec(rng, -centreRange, centreRange), randVec(rng, hMin, hMax), randRotation(rng)};
}

kz::Triangle randTriangle(Rng& rng, float centreRange, float size) {
    const glm::vec3 c = randVec(rng, -centreRange, centreRange);
    return {c + randVec(rng, -size, size), c + randVec(rng, -size, size), c + randVec(rng, -size, size)};
}

glm::vec3 centroid(const kz::Triangle& t) {
    return (t.a + t.b + t.c) / 3.0f;
}

using Hexagon = std::array<glm::vec3, 6>;

/// A regular hexagon (radius 1 to 2.5, counter-clockwise) in a randomly rotated plane.
Hexagon randHexagon(Rng& rng, const glm::vec3& centre) {
    const glm::mat3 rot = randRotation(rng);
    const float radius = uniform(rng, 1.0f, 2.5f);
    Hexagon hex{};
    for (std::size_t k = 0; k < hex.size(); ++k) {
        const float angle = static_cast<float>(k) * (2.0f * glm::pi<float>() / 6.0f);
        hex[k] = centre + rot * glm::vec3(radius * std::cos(angle), radius * std::sin(angle), 0.0f);
    }
    return hex;
}

/// A fixed set of kCaseCount cases, each made by gen(rng) from std::mt19937(kSeed + setId).
template <class Gen>
auto makeCases(std::uint32_t setId, Gen gen) {
    Rng rng(kSeed + setId);
    std::vector<decltype(gen(rng))> cases;
    cases.reserve(kCaseCount);
    for (std::size_t i = 0; i < kCaseCount; ++i)
        cases.push_back(gen(rng));
    return cases;
}

// ---------------------------------------------------------------------------------------------
// Case sets (built on first use, then shared)
// ---------------------------------------------------------------------------------------------

struct RaySphere {
    kz::Ray ray;
    kz::Sphere sphere;
};
struct RayPlane {
    kz::Ray ray;
    kz::Plane plane;
};
struct RayAabb {
    kz::Ray ray;
    kz::Aabb box;
};
struct RayObb {
    kz::Ray ray;
    kz::Obb box;
};
struct RayTriangle {
    kz::Ray ray;
    kz::Triangle tri;
};
struct RayHexagon {
    kz::Ray ray;
    Hexagon hex;
};
struct SpherePlane {
    kz::Sphere sphere;
    kz::Plane plane;
};
struct SphereSphere {
    kz::Sphere a;
    kz::Sphere b;
};
struct SphereAabb {
    kz::Sphere sphere;
    kz::Aabb box;
};
struct SphereObb {
    kz::Sphere sphere;
    kz::Obb box;
};
struct ObbPlane {
    kz::Obb box;
    kz::Plane plane;
};
struct AabbAabb {
    kz::Aabb a;
    kz::Aabb b;
};
struct ObbObb {
    kz::Obb a;
    kz::Obb b;
};
struct SphereTriangle {
    kz::Sphere sphere;
    kz::Triangle tri;
};
struct ObbTriangle {
    kz::Obb box;
    kz::Triangle tri;
};
struct RayRay {
    kz::Ray first;
    kz::Ray second;
};
struct Pick {
    glm::vec2 pixel;
    std::uint32_t camera; ///< Index into the camera set.
};
struct Camera {
    glm::mat4 view;
    glm::mat4 proj;
};

const std::vector<RaySphere>& raySphereCases() {
    static const auto cases = makeCases(1, [](Rng& rng) {
        const kz::Sphere s = randSphere(rng, 3.0f, 0.25f, 2.0f);
        return RaySphere{aimedRay(rng, s.center, 2.0f), s};
    });
    return cases;
}

const std::vector<RayPlane>& rayPlaneCases() {
    // A random direction heads toward the plane about half the time.
    static const auto cases = makeCases(2, [](Rng& rng) {
        return RayPlane{{randVec(rng, -8.0f, 8.0f), randDir(rng)}, randPlane(rng, -3.0f, 3.0f)};
    });
    return cases;
}

const std::vector<RayAabb>& rayAabbCases() {
    static const auto cases = makeCases(3, [](Rng& rng) {
        const kz::Aabb box = randAabb(rng, 3.0f, 0.25f, 2.0f);
        return RayAabb{aimedRay(rng, (box.min + box.max) * 0.5f, 2.0f), box};
    });
    return cases;
}

const std::vector<RayObb>& rayObbCases() {
    static const auto cases = makeCases(4, [](Rng& rng) {
        const kz::Obb box = randObb(rng, 3.0f, 0.25f, 2.0f);
        return RayObb{aimedRay(rng, box.center, 2.0f), box};
    });
    return cases;
}

const std::vector<RayTriangle>& rayTriangleCases() {
    static const auto cases = makeCases(5, [](Rng& rng) {
        const kz::Triangle tri = randTriangle(rng, 3.0f, 2.0f);
        return RayTriangle{aimedRay(rng, centroid(tri), 0.75f), tri};
    });
    return cases;
}

const std::vector<RayHexagon>& rayHexagonCases() {
    static const auto cases = makeCases(6, [](Rng& rng) {
        const glm::vec3 centre = randVec(rng, -3.0f, 3.0f);
        return RayHexagon{aimedRay(rng, centre, 1.75f), randHexagon(rng, centre)};
    });
    return cases;
}

const std::vector<SpherePlane>& spherePlaneCases() {
    static const auto cases = makeCases(7, [](Rng& rng) {
        return SpherePlane{randSphere(rng, 3.0f, 0.25f, 2.5f), randPlane(rng, 0.5f, 2.5f)};
    });
    return cases;
}

const std::vector<SphereSphere>& sphereSphereCases() {
    static const auto cases = makeCases(8, [](Rng& rng) {
        return SphereSphere{randSphere(rng, 2.0f, 0.25f, 2.0f), randSphere(rng, 2.0f, 0.25f, 2.0f)};
    });
    return cases;
}

const std::vector<SphereAabb>& sphereAabbCases() {
    static const auto cases = makeCases(9, [](Rng& rng) {
        return SphereAabb{randSphere(rng, 2.0f, 0.25f, 2.0f), randAabb(rng, 2.0f, 0.25f, 1.5f)};
    });
    return cases;
}

const std::vector<SphereObb>& sphereObbCases() {
    static const auto cases = makeCases(10, [](Rng& rng) {
        return SphereObb{randSphere(rng, 2.0f, 0.25f, 2.0f), randObb(rng, 2.0f, 0.25f, 1.5f)};
    });
    return cases;
}

const std::vector<ObbPlane>& obbPlaneCases() {
    static const auto cases = makeCases(11, [](Rng& rng) {
        return ObbPlane{randObb(rng, 3.0f, 0.25f, 2.0f), randPlane(rng, 0.5f, 2.5f)};
    });
    return cases;
}

const std::vector<AabbAabb>& aabbAabbCases() {
    static const auto cases = makeCases(12, [](Rng& rng) {
        return AabbAabb{randAabb(rng, 1.75f, 0.25f, 1.5f), randAabb(rng, 1.75f, 0.25f, 1.5f)};
    });
    return cases;
}

const std::vector<ObbObb>& obbObbCases() {
    static const auto cases = makeCases(13, [](Rng& rng) {
        return ObbObb{randObb(rng, 2.0f, 0.25f, 1.5f), randObb(rng, 2.0f, 0.25f, 1.5f)};
    });
    return cases;
}

const std::vector<SphereTriangle>& sphereTriangleCases() {
    static const auto cases = makeCases(14, [](Rng& rng) {
        const kz::Triangle tri = randTriangle(rng, 1.0f, 2.0f);
        return SphereTriangle{randSphere(rng, 1.5f, 0.25f, 2.0f), tri};
    });
    return cases;
}

/// Boxes against triangles of mixed size near them (mesh triangles are often larger than the
/// box); set id 18, after the cameras (16) and picks (17).
const std::vector<ObbTriangle>& obbTriangleCases() {
    static const auto cases = makeCases(18, [](Rng& rng) {
        const kz::Obb box = randObb(rng, 1.0f, 0.25f, 1.5f);
        return ObbTriangle{box, randTriangle(rng, 1.5f, uniform(rng, 0.5f, 3.0f))};
    });
    return cases;
}

/// Ray pairs: about half are built to meet (the second ray aimed through a point on the first,
/// then pushed off along the common perpendicular by up to twice kRayTolerance, so about half of
/// those stay within it), a few are parallel, the rest are independent random (skew) rays.
constexpr float kRayTolerance = 1e-2f;

const std::vector<RayRay>& rayRayCases() {
    static const auto cases = makeCases(15, [](Rng& rng) {
        const kz::Ray first{randVec(rng, -8.0f, 8.0f), randDir(rng)};
        const float kind = uniform(rng, 0.0f, 1.0f);
        if (kind < 0.05f) { // parallel (or anti-parallel)
            const float sign = kind < 0.025f ? 1.0f : -1.0f;
            return RayRay{first, {randVec(rng, -8.0f, 8.0f), first.dir * (sign * uniform(rng, 0.5f, 2.0f))}};
        }
        if (kind < 0.25f) // unrelated: skew
            return RayRay{first, {randVec(rng, -8.0f, 8.0f), randDir(rng)}};
        const glm::vec3 meet = first.origin + first.dir * uniform(rng, 0.0f, 4.0f);
        const glm::vec3 dir2 = randDir(rng);
        const glm::vec3 perp = glm::normalize(glm::cross(first.dir, dir2));
        const glm::vec3 origin2 =
            meet - dir2 * uniform(rng, 0.0f, 4.0f) + perp * uniform(rng, 0.0f, 2.0f * kRayTolerance);
        return RayRay{first, {origin2, dir2}};
    });
    return cases;
}

constexpr glm::vec2 kViewport(1920.0f, 1080.0f);

/// 16 cameras on a sphere of radius 6 to 12 looking at points near the origin, perspective
/// (fov 40-90 degrees) or, one in four, orthographic.
const std::vector<Camera>& cameras() {
    static const std::vector<Camera> cams = [] {
        Rng rng(kSeed + 16u);
        std::vector<Camera> out;
        for (int i = 0; i < 16; ++i) {
            const glm::vec3 eye = randUnit(rng) * uniform(rng, 6.0f, 12.0f);
            const glm::vec3 target = randVec(rng, -1.0f, 1.0f);
            glm::vec3 up(0.0f, 1.0f, 0.0f);
            if (std::abs(glm::dot(glm::normalize(target - eye), up)) > 0.95f)
                up = glm::vec3(1.0f, 0.0f, 0.0f);
            const glm::mat4 view = glm::lookAt(eye, target, up);
            const float aspect = kViewport.x / kViewport.y;
            const glm::mat4 proj =
                i % 4 == 3 ? glm::ortho(-4.0f * aspect, 4.0f * aspect, -4.0f, 4.0f, 0.1f, 100.0f)
                           : glm::perspective(glm::radians(uniform(rng, 40.0f, 90.0f)), aspect, 0.1f, 100.0f);
            out.push_back({view, proj});
        }
        return out;
    }();
    return cams;
}

/// Pixels anywhere in the middle 70% of the viewport (where users click), on random cameras.
const std::vector<Pick>& pickCases() {
    static const auto cases = makeCases(17, [](Rng& rng) {
        return Pick{{uniform(rng, 0.15f, 0.85f) * kViewport.x, uniform(rng, 0.15f, 0.85f) * kViewport.y},
                    static_cast<std::uint32_t>(rng() % 16u)};
    });
    return cases;
}

/// What counts as a pick hit for ScreenRay's hit_rate (untimed): the ray meets a radius-3
/// sphere at the origin, the object under the cursor.
constexpr kz::Sphere kPickTarget{{0.0f, 0.0f, 0.0f}, 3.0f};

// ---------------------------------------------------------------------------------------------
// The runner
// ---------------------------------------------------------------------------------------------

template <class T>
bool isHit(const std::optional<T>& r) {
    return r.has_value();
}
bool isHit(bool r) {
    return r;
}
bool isHit(const std::optional<kz::RayPairResult>& r) {
    return r.has_value() && r->kind == kz::RayPairKind::Intersecting;
}

/// Times one query per iteration, cycling through the cases; hit_rate is the fraction of the
/// whole set for which `hit(query(case))` holds, computed once before the timed loop.
template <class Case, class Query, class Hit>
void runCases(benchmark::State& state, const std::vector<Case>& cases, Query query, Hit hit) {
    std::size_t hits = 0;
    for (const Case& c : cases)
        if (hit(c)) ++hits;
    std::size_t i = 0;
    for ([[maybe_unused]] auto _ : state) {
        auto result = query(cases[i & kMask]);
        benchmark::DoNotOptimize(result);
        ++i;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
    state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(cases.size());
}

/// The common form: a hit is a non-empty optional or true.
template <class Case, class Query>
void runCases(benchmark::State& state, const std::vector<Case>& cases, Query query) {
    runCases(state, cases, query, [&](const Case& c) { return isHit(query(c)); });
}

// ---------------------------------------------------------------------------------------------
// Raycasts
// ---------------------------------------------------------------------------------------------

void raycastSphere(benchmark::State& state) {
    runCases(state, raySphereCases(), [](const RaySphere& c) { return kz::raycast(c.ray, c.sphere); });
}
void raycastPlane(benchmark::State& state) {
    runCases(state, rayPlaneCases(), [](const RayPlane& c) { return kz::raycast(c.ray, c.plane); });
}
void raycastAabb(benchmark::State& state) {
    runCases(state, rayAabbCases(), [](const RayAabb& c) { return kz::raycast(c.ray, c.box); });
}
void raycastObb(benchmark::State& state) {
    runCases(state, rayObbCases(), [](const RayObb& c) { return kz::raycast(c.ray, c.box); });
}
void raycastTriangle(benchmark::State& state) {
    runCases(state, rayTriangleCases(), [](const RayTriangle& c) { return kz::raycast(c.ray, c.tri); });
}
void raycastTriangleBarycentric(benchmark::State& state) {
    runCases(state, rayTriangleCases(),
             [](const RayTriangle& c) { return kz::raycastBarycentric(c.ray, c.tri); });
}
void raycastHexagon(benchmark::State& state) {
    runCases(state, rayHexagonCases(), [](const RayHexagon& c) {
        return kz::raycastPolygon(c.ray, std::span<const glm::vec3>(c.hex));
    });
}

BENCHMARK(raycastSphere)->Name("BM_Raycast/Sphere");
BENCHMARK(raycastPlane)->Name("BM_Raycast/Plane");
BENCHMARK(raycastAabb)->Name("BM_Raycast/Aabb");
BENCHMARK(raycastObb)->Name("BM_Raycast/Obb");
BENCHMARK(raycastTriangle)->Name("BM_Raycast/Triangle");
BENCHMARK(raycastTriangleBarycentric)->Name("BM_Raycast/TriangleBarycentric");
BENCHMARK(raycastHexagon)->Name("BM_Raycast/PolygonHexagon");

// ---------------------------------------------------------------------------------------------
// Boolean overlap tests
// ---------------------------------------------------------------------------------------------

void overlapSpherePlane(benchmark::State& state) {
    runCases(state, spherePlaneCases(),
             [](const SpherePlane& c) { return kz::testSpherePlane(c.sphere, c.plane); });
}
void overlapSphereSphere(benchmark::State& state) {
    runCases(state, sphereSphereCases(),
             [](const SphereSphere& c) { return kz::testSphereSphere(c.a, c.b); });
}
void overlapSphereAabb(benchmark::State& state) {
    runCases(state, sphereAabbCases(),
             [](const SphereAabb& c) { return kz::testSphereAabb(c.sphere, c.box); });
}
void overlapSphereObb(benchmark::State& state) {
    runCases(state, sphereObbCases(), [](const SphereObb& c) { return kz::testSphereObb(c.sphere, c.box); });
}
void overlapObbPlaneProjected(benchmark::State& state) {
    runCases(state, obbPlaneCases(), [](const ObbPlane& c) { return kz::testObbPlane(c.box, c.plane); });
}
void overlapObbPlaneCorners(benchmark::State& state) {
    runCases(state, obbPlaneCases(),
             [](const ObbPlane& c) { return kz::testObbPlaneCorners(c.box, c.plane); });
}
void overlapAabbAabb(benchmark::State& state) {
    runCases(state, aabbAabbCases(), [](const AabbAabb& c) { return kz::testAabbAabb(c.a, c.b); });
}
void overlapObbObb(benchmark::State& state) {
    runCases(state, obbObbCases(), [](const ObbObb& c) { return kz::testObbObb(c.a, c.b); });
}

BENCHMARK(overlapSpherePlane)->Name("BM_Overlap/SpherePlane");
BENCHMARK(overlapSphereSphere)->Name("BM_Overlap/SphereSphere");
BENCHMARK(overlapSphereAabb)->Name("BM_Overlap/SphereAabb");
BENCHMARK(overlapSphereObb)->Name("BM_Overlap/SphereObb");
BENCHMARK(overlapObbPlaneProjected)->Name("BM_Overlap/ObbPlaneProjected");
BENCHMARK(overlapObbPlaneCorners)->Name("BM_Overlap/ObbPlaneCorners");
BENCHMARK(overlapAabbAabb)->Name("BM_Overlap/AabbAabb");
BENCHMARK(overlapObbObb)->Name("BM_Overlap/ObbObb");

// ---------------------------------------------------------------------------------------------
// Contacts (same case sets as the matching overlap tests)
// ---------------------------------------------------------------------------------------------

void contactSpherePlane(benchmark::State& state) {
    runCases(state, spherePlaneCases(),
             [](const SpherePlane& c) { return kz::contactSpherePlane(c.sphere, c.plane); });
}
void contactSphereSphere(benchmark::State& state) {
    runCases(state, sphereSphereCases(),
             [](const SphereSphere& c) { return kz::contactSphereSphere(c.a, c.b); });
}
void contactSphereObb(benchmark::State& state) {
    runCases(state, sphereObbCases(),
             [](const SphereObb& c) { return kz::contactSphereObb(c.sphere, c.box); });
}
void contactObbPlane(benchmark::State& state) {
    runCases(state, obbPlaneCases(), [](const ObbPlane& c) { return kz::contactObbPlane(c.box, c.plane); });
}
void contactObbObb(benchmark::State& state) {
    runCases(state, obbObbCases(), [](const ObbObb& c) { return kz::contactObbObb(c.a, c.b); });
}
void contactSphereTriangle(benchmark::State& state) {
    runCases(state, sphereTriangleCases(),
             [](const SphereTriangle& c) { return kz::contactSphereTriangle(c.sphere, c.tri); });
}
void contactObbTriangle(benchmark::State& state) {
    runCases(state, obbTriangleCases(),
             [](const ObbTriangle& c) { return kz::contactObbTriangle(c.box, c.tri); });
}
/// hit_rate: the fraction with separation <= 0 (exactly the cases where contactObbTriangle gives a
/// manifold).
void separationObbTriangle(benchmark::State& state) {
    runCases(
        state, obbTriangleCases(),
        [](const ObbTriangle& c) { return kz::separationObbTriangle(c.box, c.tri); },
        [](const ObbTriangle& c) { return kz::separationObbTriangle(c.box, c.tri) <= 0.0f; });
}

BENCHMARK(contactSpherePlane)->Name("BM_Contact/SpherePlane");
BENCHMARK(contactSphereSphere)->Name("BM_Contact/SphereSphere");
BENCHMARK(contactSphereObb)->Name("BM_Contact/SphereObb");
BENCHMARK(contactObbPlane)->Name("BM_Contact/ObbPlane");
BENCHMARK(contactObbObb)->Name("BM_Contact/ObbObb");
BENCHMARK(contactSphereTriangle)->Name("BM_Contact/SphereTriangle");
BENCHMARK(contactObbTriangle)->Name("BM_Contact/ObbTriangle");
BENCHMARK(separationObbTriangle)->Name("BM_Contact/SeparationObbTriangle");

// ---------------------------------------------------------------------------------------------
// Closest points and picking
// ---------------------------------------------------------------------------------------------

void intersectRays(benchmark::State& state) {
    runCases(state, rayRayCases(),
             [](const RayRay& c) { return kz::intersectRays(c.first, c.second, kRayTolerance); });
}

/// hit_rate here is the fraction of pick rays that meet kPickTarget (untimed); the timed query
/// is screenRay alone.
void screenRay(benchmark::State& state) {
    const std::vector<Camera>& cams = cameras();
    const auto query = [&cams](const Pick& c) {
        const Camera& cam = cams[c.camera];
        return kz::screenRay(c.pixel, kViewport, cam.view, cam.proj);
    };
    runCases(state, pickCases(), query,
             [&query](const Pick& c) { return kz::raycast(query(c), kPickTarget).has_value(); });
}

BENCHMARK(intersectRays)->Name("BM_Closest/IntersectRays");
BENCHMARK(screenRay)->Name("BM_Pick/ScreenRay");

} // namespace
