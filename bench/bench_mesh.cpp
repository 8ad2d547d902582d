// Triangle-mesh ray queries: Kolize (kz::MeshBvh) against Embree 3 and Bullet, side by side.
//
// The mesh: a bumpy torus in the xy plane (major radius 1, minor radius 0.35 modulated by a few
// sinusoids and a small radial jitter from std::mt19937 with a fixed seed), a watertight grid of
// 1000 x 250 quads with shared, wrapped vertices: 250,000 vertices, 500,000 triangles.
// The rays: 1,000,000 generated once (fixed seed), from a uniformly random point on a sphere of
// radius 2 |half extent| around the mesh's bounds toward a uniformly random point of those bounds
// scaled by 1.1; unit directions, so t is a distance.
//
// BM_Raycast/<engine>: one iteration is one nearest-hit query of one ray, cycling over the ray
// set (exactly one pass over the 1,000,000 rays; BruteForce: 1,000 rays, every triangle tested
// with kz::raycastBarycentric, nearest t, lower index on ties).
//   KolizeBvh  kz::MeshBvh::raycast(ray) (tMax = infinity).
//   Embree     rtcIntersect1 with an RTCIntersectContext, tnear 0, tfar infinity, one
//              RTC_GEOMETRY_TYPE_TRIANGLE geometry in a scene with the default flags and build
//              quality (RTC_BUILD_QUALITY_MEDIUM), default device (all hardware threads).
//   Bullet     btBvhTriangleMeshShape (quantized BVH) over a btTriangleIndexVertexArray,
//              performRaycast over the segment origin -> origin + kBulletRayLength * dir with a
//              btTriangleRaycastCallback keeping the closest hit (two-sided, no back-face filter).
// BM_Build/<engine>: one iteration is one build from the shared vertex and index arrays
// (Embree: new scene + geometry with copied buffers + rtcCommitScene; Embree/1thread: the same on
// a device created with "threads=1", as our build uses one core). Destruction is not timed.
//
// Counters (computed once, untimed):
//   BM_Build/<engine> bytes_per_tri: resident memory held by the built structure per triangle,
//     measured as the RSS delta (/proc/self/statm) around one build in a forked child process
//     (malloc_trim(0) first so that freed build temporaries do not count). Kolize's MeshBvh has
//     no memory accessor, so this is a measurement, not sizeof(Node) * count. The shared input
//     arrays are not counted; Embree's copies of them are.
//   BM_Raycast/KolizeBvh: agree_pct, the percentage of the 1,000,000 rays where ours and Embree
//     agree (both miss, or both hit with the same triangle or t within 1e-5 relative);
//     embree_miss_we_hit, we_miss_embree_hit, both_hit_differ (of which differ_embree_farther:
//     Embree's t is the larger, i.e. it passed our hit, as when a ray slips through a crack
//     between two triangles); hit_pct.
//   BM_Raycast/BruteForce: bvh_mismatch, rays of the 1,000 where MeshBvh::raycast differs from
//     the brute-force loop (hit/miss, triangle or t not bit-identical).
// After the run, a summary prints ns per ray (the median over --benchmark_repetitions, which
// shrugs off the odd repetition slowed by other load), the ratios ours/Embree and Bullet/ours, build ms
// and ours/Embree (console output only; with --benchmark_format=json or csv there is no summary).
#include "bench_random.hpp"
#include "geom/mesh_bvh.hpp"
#include "geom/raycast.hpp"
#include "mean_reporter.hpp"

#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>
#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <embree3/rtcore.h>
#include <fstream>
#include <malloc.h>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

static_assert(sizeof(btScalar) == sizeof(float), "bench_mesh expects single-precision Bullet");

constexpr std::uint32_t kSeed = 20240605u;
constexpr int kRingSegments = 1000; ///< Around the major circle.
constexpr int kTubeSegments = 250;  ///< Around the minor circle.
constexpr float kMajorRadius = 1.0f;
constexpr float kMinorRadius = 0.35f;
constexpr std::size_t kRayCount = 1'000'000;
constexpr std::size_t kBruteRays = 1'000;
constexpr float kTwoPi = 6.28318530717958f;
constexpr float kAgreeRelT = 1e-5f;

using kz::bench::randUnit;
using kz::bench::Rng;
using kz::bench::uniform;

// ---------------------------------------------------------------------------------------------
// Mesh and rays
// ---------------------------------------------------------------------------------------------

struct Mesh {
    std::vector<glm::vec3> vertices;
    std::vector<std::uint32_t> indices;
    std::size_t triangles() const { return indices.size() / 3; }
};

Mesh makeBumpyTorus() {
    Rng rng(kSeed);
    std::array<float, 4> phase{};
    for (float& p : phase)
        p = uniform(rng, 0.0f, kTwoPi);
    const float edge = kTwoPi * kMinorRadius / static_cast<float>(kTubeSegments);

    Mesh mesh;
    mesh.vertices.reserve(static_cast<std::size_t>(kRingSegments) * kTubeSegments);
    for (int i = 0; i < kRingSegments; ++i) {
        const float u = kTwoPi * static_cast<float>(i) / static_cast<float>(kRingSegments);
        const glm::vec3 centre(kMajorRadius * std::cos(u), kMajorRadius * std::sin(u), 0.0f);
        for (int j = 0; j < kTubeSegments; ++j) {
            const float v = kTwoPi * static_cast<float>(j) / static_cast<float>(kTubeSegments);
            const glm::vec3 radial(std::cos(v) * std::cos(u), std::cos(v) * std::sin(u), std::sin(v));
            const float bumps = 0.12f * std::sin(7.0f * u + phase[0]) * std::sin(5.0f * v + phase[1]) +
                                0.05f * std::sin(23.0f * u + phase[2]) * std::cos(17.0f * v + phase[3]);
            const float r = kMinorRadius * (1.0f + bumps) + uniform(rng, -0.1f, 0.1f) * edge;
            mesh.vertices.push_back(centre + r * radial);
        }
    }
    auto index = [](int i, int j) {
        return static_cast<std::uint32_t>((i % kRingSegments) * kTubeSegments + (j % kTubeSegments));
    };
    mesh.indices.reserve(static_cast<std::size_t>(kRingSegments) * kTubeSegments * 6);
    for (int i = 0; i < kRingSegments; ++i) {
        for (int j = 0; j < kTubeSegments; ++j) {
            const std::uint32_t a = index(i, j), b = index(i + 1, j), c = index(i + 1, j + 1),
                                d = index(i, j + 1);
            mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
        }
    }
    return mesh;
}

const Mesh& mesh() {
    static const Mesh m = makeBumpyTorus();
    return m;
}

kz::Aabb meshBounds(const Mesh& m) {
    kz::Aabb box{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    for (const glm::vec3& p : m.vertices) {
        box.min = glm::min(box.min, p);
        box.max = glm::max(box.max, p);
    }
    return box;
}

/// Radius of the sphere the rays start on.
float raySphereRadius() {
    const kz::Aabb box = meshBounds(mesh());
    return 2.0f * glm::length(0.5f * (box.max - box.min));
}

const std::vector<kz::Ray>& rays() {
    static const std::vector<kz::Ray> out = [] {
        const kz::Aabb box = meshBounds(mesh());
        const glm::vec3 centre = 0.5f * (box.min + box.max);
        const glm::vec3 half = 0.5f * (box.max - box.min);
        const float radius = raySphereRadius();
        Rng rng(kSeed + 1u);
        std::vector<kz::Ray> r;
        r.reserve(kRayCount);
        while (r.size() < kRayCount) {
            const glm::vec3 origin = centre + radius * randUnit(rng);
            const glm::vec3 target =
                centre + 1.1f * half *
                             glm::vec3(uniform(rng, -1.0f, 1.0f), uniform(rng, -1.0f, 1.0f),
                                       uniform(rng, -1.0f, 1.0f));
            const glm::vec3 d = target - origin;
            const float len = glm::length(d);
            if (len > 1e-3f) r.push_back({origin, d / len});
        }
        return r;
    }();
    return out;
}

/// A common hit record: triangle index and t (distance along the unit direction).
struct Hit {
    std::uint32_t triangle;
    float t;
};

// ---------------------------------------------------------------------------------------------
// Kolize
// ---------------------------------------------------------------------------------------------

kz::MeshBvh buildKolize(const Mesh& m) {
    return kz::MeshBvh::build(m.vertices, m.indices);
}

const kz::MeshBvh& kolize() {
    static const kz::MeshBvh bvh = buildKolize(mesh());
    return bvh;
}

std::optional<Hit> bruteForce(const Mesh& m, const kz::Ray& ray) {
    std::optional<Hit> best;
    float bestT = INFINITY;
    const std::size_t n = m.triangles();
    for (std::size_t i = 0; i < n; ++i) {
        const kz::Triangle tri{m.vertices[m.indices[3 * i]], m.vertices[m.indices[3 * i + 1]],
                               m.vertices[m.indices[3 * i + 2]]};
        const auto h = kz::raycastBarycentric(ray, tri, bestT);
        if (h && (!best || h->t < bestT)) {
            bestT = h->t;
            best = Hit{static_cast<std::uint32_t>(i), h->t};
        }
    }
    return best;
}

// ---------------------------------------------------------------------------------------------
// Embree
// ---------------------------------------------------------------------------------------------

class EmbreeDevice {
public:
    explicit EmbreeDevice(const char* config) : device_(rtcNewDevice(config)) {
        if (!device_) {
            std::fprintf(stderr, "bench_mesh: rtcNewDevice failed (error %d)\n",
                         static_cast<int>(rtcGetDeviceError(nullptr)));
            std::abort();
        }
    }
    EmbreeDevice(const EmbreeDevice&) = delete;
    EmbreeDevice& operator=(const EmbreeDevice&) = delete;
    ~EmbreeDevice() { rtcReleaseDevice(device_); }
    RTCDevice get() const { return device_; }

private:
    RTCDevice device_;
};

class EmbreeScene {
public:
    EmbreeScene(RTCDevice device, const Mesh& m) : scene_(rtcNewScene(device)) {
        RTCGeometry geom = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
        // Copied buffers: Embree allocates them with the padding its SIMD loads need.
        auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(
            geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), m.vertices.size()));
        auto* idx = static_cast<std::uint32_t*>(rtcSetNewGeometryBuffer(
            geom, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(std::uint32_t), m.triangles()));
        std::memcpy(v, m.vertices.data(), m.vertices.size() * sizeof(glm::vec3));
        std::memcpy(idx, m.indices.data(), m.indices.size() * sizeof(std::uint32_t));
        rtcCommitGeometry(geom);
        rtcAttachGeometry(scene_, geom);
        rtcReleaseGeometry(geom);
        rtcCommitScene(scene_);
        const RTCError err = rtcGetDeviceError(device);
        if (err != RTC_ERROR_NONE) {
            std::fprintf(stderr, "bench_mesh: Embree build failed (error %d)\n", static_cast<int>(err));
            std::abort();
        }
    }
    EmbreeScene(const EmbreeScene&) = delete;
    EmbreeScene& operator=(const EmbreeScene&) = delete;
    ~EmbreeScene() { rtcReleaseScene(scene_); }

    std::optional<Hit> raycast(const kz::Ray& ray) const {
        RTCIntersectContext context;
        rtcInitIntersectContext(&context);
        RTCRayHit rh;
        rh.ray.org_x = ray.origin.x;
        rh.ray.org_y = ray.origin.y;
        rh.ray.org_z = ray.origin.z;
        rh.ray.tnear = 0.0f;
        rh.ray.dir_x = ray.dir.x;
        rh.ray.dir_y = ray.dir.y;
        rh.ray.dir_z = ray.dir.z;
        rh.ray.time = 0.0f;
        rh.ray.tfar = INFINITY;
        rh.ray.mask = 0xFFFFFFFFu;
        rh.ray.id = 0;
        rh.ray.flags = 0;
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(scene_, &context, &rh);
        if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) return std::nullopt;
        return Hit{rh.hit.primID, rh.ray.tfar};
    }

private:
    RTCScene scene_;
};

const EmbreeDevice& embreeDevice() {
    static const EmbreeDevice device(nullptr);
    return device;
}

const EmbreeDevice& embreeDeviceSingleThread() {
    static const EmbreeDevice device("threads=1");
    return device;
}

const EmbreeScene& embree() {
    static const EmbreeScene scene(embreeDevice().get(), mesh());
    return scene;
}

// ---------------------------------------------------------------------------------------------
// Bullet
// ---------------------------------------------------------------------------------------------

/// Rays become segments of this length for Bullet: 4x the start sphere's radius, beyond any hit.
float bulletRayLength() {
    static const float length = 4.0f * raySphereRadius();
    return length;
}

class BulletMesh {
public:
    explicit BulletMesh(const Mesh& m)
        : array_(static_cast<int>(m.triangles()),
                 // Bullet takes non-const pointers but only reads through them.
                 reinterpret_cast<int*>(const_cast<std::uint32_t*>(m.indices.data())),
                 static_cast<int>(3 * sizeof(std::uint32_t)), static_cast<int>(m.vertices.size()),
                 const_cast<btScalar*>(&m.vertices.data()->x), static_cast<int>(sizeof(glm::vec3))),
          shape_(&array_, true, true) {}
    BulletMesh(const BulletMesh&) = delete;
    BulletMesh& operator=(const BulletMesh&) = delete;

    std::optional<Hit> raycast(const kz::Ray& ray) {
        const float length = bulletRayLength();
        const glm::vec3 to = ray.origin + length * ray.dir;
        const btVector3 from(ray.origin.x, ray.origin.y, ray.origin.z);
        const btVector3 target(to.x, to.y, to.z);
        Closest callback(from, target);
        shape_.performRaycast(&callback, from, target);
        if (callback.triangle < 0) return std::nullopt;
        return Hit{static_cast<std::uint32_t>(callback.triangle), callback.m_hitFraction * length};
    }

private:
    struct Closest : btTriangleRaycastCallback {
        Closest(const btVector3& from, const btVector3& to) : btTriangleRaycastCallback(from, to) {}
        btScalar reportHit(const btVector3& /*normal*/, btScalar fraction, int /*part*/, int index) override {
            // processTriangle calls this only when fraction < m_hitFraction: it is the closest so far.
            triangle = index;
            return fraction;
        }
        int triangle = -1;
    };

    btTriangleIndexVertexArray array_;
    btBvhTriangleMeshShape shape_;
};

BulletMesh& bullet() {
    static BulletMesh shape(mesh());
    return shape;
}

// ---------------------------------------------------------------------------------------------
// Untimed measurements
// ---------------------------------------------------------------------------------------------

enum class Engine { Kolize, Embree, Embree1, Bullet };

const char* engineName(Engine e) {
    switch (e) {
    case Engine::Kolize:
        return "KolizeBvh";
    case Engine::Embree:
        return "Embree";
    case Engine::Embree1:
        return "Embree/1thread";
    case Engine::Bullet:
        return "Bullet";
    }
    return "?";
}

long residentBytes() {
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

/// RSS delta of one build of `engine`, measured in a forked child so that nothing built before
/// (and no allocator state of this process) distorts it. -1 if the measurement failed.
/// Called before any Embree device exists in this process (forking a TBB process is unsafe).
double buildResidentBytes(Engine engine) {
    int fds[2];
    if (pipe(fds) != 0) return -1.0;
    const pid_t pid = fork();
    if (pid < 0) return -1.0;
    if (pid == 0) {
        close(fds[0]);
        const Mesh& m = mesh();
        long delta = -1;
        if (engine == Engine::Kolize) {
            malloc_trim(0);
            const long before = residentBytes();
            const kz::MeshBvh bvh = buildKolize(m);
            malloc_trim(0);
            delta = residentBytes() - before;
            benchmark::DoNotOptimize(&bvh);
        } else if (engine == Engine::Embree || engine == Engine::Embree1) {
            const EmbreeDevice device(engine == Engine::Embree ? nullptr : "threads=1");
            malloc_trim(0);
            const long before = residentBytes();
            const EmbreeScene scene(device.get(), m);
            malloc_trim(0);
            delta = residentBytes() - before;
        } else {
            malloc_trim(0);
            const long before = residentBytes();
            const BulletMesh shape(m);
            malloc_trim(0);
            delta = residentBytes() - before;
        }
        const ssize_t written = write(fds[1], &delta, sizeof delta);
        _exit(written == static_cast<ssize_t>(sizeof delta) ? 0 : 1);
    }
    close(fds[1]);
    long delta = -1;
    const ssize_t got = read(fds[0], &delta, sizeof delta);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != static_cast<ssize_t>(sizeof delta) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1.0;
    return static_cast<double>(delta);
}

std::map<Engine, double>& memoryBytes() {
    static std::map<Engine, double> bytes;
    return bytes;
}

struct Agreement {
    std::size_t rays = 0, agree = 0, embreeMissWeHit = 0, weMissEmbreeHit = 0, bothHitDiffer = 0, weHit = 0;
    std::size_t embreeFarther = 0; ///< Of bothHitDiffer: Embree's t is the larger (it went past our hit).
};

const Agreement& agreement() {
    static const Agreement a = [] {
        Agreement r;
        const kz::MeshBvh& bvh = kolize();
        const EmbreeScene& scene = embree();
        for (const kz::Ray& ray : rays()) {
            const auto ours = bvh.raycast(ray);
            const auto theirs = scene.raycast(ray);
            ++r.rays;
            r.weHit += ours.has_value();
            if (!ours && !theirs) {
                ++r.agree;
            } else if (ours && !theirs) {
                ++r.embreeMissWeHit;
            } else if (!ours && theirs) {
                ++r.weMissEmbreeHit;
            } else if (ours->triangle == theirs->triangle ||
                       std::abs(ours->t - theirs->t) <= kAgreeRelT * std::max(ours->t, theirs->t)) {
                ++r.agree;
            } else {
                ++r.bothHitDiffer;
                r.embreeFarther += theirs->t > ours->t;
            }
        }
        return r;
    }();
    return a;
}

std::size_t bruteMismatches() {
    static const std::size_t count = [] {
        std::size_t n = 0;
        for (std::size_t i = 0; i < kBruteRays; ++i) {
            const kz::Ray& ray = rays()[i];
            const auto ours = kolize().raycast(ray);
            const auto ref = bruteForce(mesh(), ray);
            if (ours.has_value() != ref.has_value() ||
                (ours && (ours->triangle != ref->triangle || ours->t != ref->t)))
                ++n;
        }
        return n;
    }();
    return count;
}

// ---------------------------------------------------------------------------------------------
// Benchmarks
// ---------------------------------------------------------------------------------------------

void BM_Raycast(benchmark::State& state, Engine engine) {
    const std::vector<kz::Ray>& rs = rays();
    std::size_t i = 0, hits = 0;
    if (engine == Engine::Kolize) {
        const kz::MeshBvh& bvh = kolize();
        for (auto _ : state) {
            const auto hit = bvh.raycast(rs[i]);
            hits += hit.has_value();
            benchmark::DoNotOptimize(hit);
            if (++i == rs.size()) i = 0;
        }
        const Agreement& a = agreement();
        const double n = static_cast<double>(a.rays);
        state.counters["agree_pct"] = 100.0 * static_cast<double>(a.agree) / n;
        state.counters["embree_miss_we_hit"] = static_cast<double>(a.embreeMissWeHit);
        state.counters["we_miss_embree_hit"] = static_cast<double>(a.weMissEmbreeHit);
        state.counters["both_hit_differ"] = static_cast<double>(a.bothHitDiffer);
        state.counters["differ_embree_farther"] = static_cast<double>(a.embreeFarther);
    } else if (engine == Engine::Embree) {
        const EmbreeScene& scene = embree();
        for (auto _ : state) {
            const auto hit = scene.raycast(rs[i]);
            hits += hit.has_value();
            benchmark::DoNotOptimize(hit);
            if (++i == rs.size()) i = 0;
        }
    } else {
        BulletMesh& shape = bullet();
        for (auto _ : state) {
            const auto hit = shape.raycast(rs[i]);
            hits += hit.has_value();
            benchmark::DoNotOptimize(hit);
            if (++i == rs.size()) i = 0;
        }
    }
    state.counters["hit_pct"] = 100.0 * static_cast<double>(hits) / static_cast<double>(state.iterations());
}

void BM_RaycastBruteForce(benchmark::State& state) {
    const Mesh& m = mesh();
    const std::vector<kz::Ray>& rs = rays();
    std::size_t i = 0, hits = 0;
    for (auto _ : state) {
        const auto hit = bruteForce(m, rs[i]);
        hits += hit.has_value();
        benchmark::DoNotOptimize(hit);
        if (++i == kBruteRays) i = 0;
    }
    state.counters["hit_pct"] = 100.0 * static_cast<double>(hits) / static_cast<double>(state.iterations());
    state.counters["bvh_mismatch"] = static_cast<double>(bruteMismatches());
}

void BM_Build(benchmark::State& state, Engine engine) {
    const Mesh& m = mesh();
    for (auto _ : state) {
        if (engine == Engine::Kolize) {
            std::optional<kz::MeshBvh> bvh(buildKolize(m));
            benchmark::DoNotOptimize(bvh);
            state.PauseTiming();
            bvh.reset();
            state.ResumeTiming();
        } else if (engine == Engine::Embree || engine == Engine::Embree1) {
            const RTCDevice device =
                engine == Engine::Embree ? embreeDevice().get() : embreeDeviceSingleThread().get();
            auto scene = std::make_unique<EmbreeScene>(device, m);
            benchmark::DoNotOptimize(scene);
            state.PauseTiming();
            scene.reset();
            state.ResumeTiming();
        } else {
            auto shape = std::make_unique<BulletMesh>(m);
            benchmark::DoNotOptimize(shape);
            state.PauseTiming();
            shape.reset();
            state.ResumeTiming();
        }
    }
    state.counters["triangles"] = static_cast<double>(m.triangles());
    const auto it = memoryBytes().find(engine);
    if (it != memoryBytes().end() && it->second >= 0.0)
        state.counters["bytes_per_tri"] = it->second / static_cast<double>(m.triangles());
}

/// The console table, then a summary with the ratios to Embree and Bullet.
class SummaryReporter : public kz::bench::MeanReporter {
public:
    void printSummary() const {
        const double tris = static_cast<double>(mesh().triangles());
        std::printf("\nSummary: %zu triangles, %zu rays (brute force: %zu); real time, median over %d "
                    "repetition(s)\n",
                    mesh().triangles(), kRayCount, kBruteRays, repetitions());
        std::printf("%-16s  %12s  %10s  %14s\n", "engine", "ns/ray", "build ms", "bytes/tri (RSS)");
        for (Engine e : {Engine::Kolize, Engine::Embree, Engine::Embree1, Engine::Bullet}) {
            const double ray = realMedian(std::string("BM_Raycast/") + engineName(e));
            const double build = realMedian(std::string("BM_Build/") + engineName(e));
            const auto mem = memoryBytes().find(e);
            const double bpt =
                mem != memoryBytes().end() && mem->second >= 0.0 ? mem->second / tris : std::nan("");
            std::printf("%-16s  %12s  %10s  %14s\n", engineName(e), fmt(ray, "%.1f").c_str(),
                        fmt(build, "%.1f").c_str(), fmt(bpt, "%.1f").c_str());
        }
        const double brute = realMedian("BM_Raycast/BruteForce");
        std::printf("%-16s  %12s\n", "BruteForce", fmt(brute, "%.0f").c_str());

        const double kRay = realMedian("BM_Raycast/KolizeBvh"), eRay = realMedian("BM_Raycast/Embree"),
                     bRay = realMedian("BM_Raycast/Bullet");
        const double kBuild = realMedian("BM_Build/KolizeBvh"), eBuild = realMedian("BM_Build/Embree"),
                     e1Build = realMedian("BM_Build/Embree/1thread");
        std::printf("\nRatios (targets: ray ours/Embree <= 2, Bullet/ours >= 5, build ours/Embree <= 3)\n");
        std::printf("  ray   ours/Embree            %s\n", fmt(kRay / eRay, "%.2fx").c_str());
        std::printf("  ray   Bullet/ours            %s\n", fmt(bRay / kRay, "%.2fx").c_str());
        std::printf("  ray   BruteForce/ours        %s\n", fmt(brute / kRay, "%.0fx").c_str());
        std::printf("  build ours/Embree            %s\n", fmt(kBuild / eBuild, "%.2fx").c_str());
        std::printf("  build ours/Embree(1 thread)  %s\n", fmt(kBuild / e1Build, "%.2fx").c_str());
        if (MeanReporter::mean("BM_Raycast/KolizeBvh")) {
            const Agreement& a = agreement(); // cached: already computed
            std::printf("\nAgreement with Embree over %zu rays: %.4f%% (Embree misses, we hit: %zu; we miss, "
                        "Embree hits: %zu; both hit, different triangle and t: %zu, of which Embree's hit is "
                        "the farther: %zu)\n",
                        a.rays, 100.0 * static_cast<double>(a.agree) / static_cast<double>(a.rays),
                        a.embreeMissWeHit, a.weMissEmbreeHit, a.bothHitDiffer, a.embreeFarther);
        }
        if (MeanReporter::mean("BM_Raycast/BruteForce"))
            std::printf("MeshBvh vs brute force on %zu rays: %zu mismatches\n", kBruteRays,
                        bruteMismatches());
    }

    /// Keeps every repetition's wall time per iteration, for the medians.
    void ReportRuns(const std::vector<Run>& reports) override {
        for (const Run& r : reports) {
            if (r.run_type == Run::RT_Iteration && !r.error_occurred)
                realTimes_[r.run_name.function_name].push_back(r.GetAdjustedRealTime());
        }
        MeanReporter::ReportRuns(reports);
    }

private:
    /// Median wall time per iteration over the repetitions, NaN if the benchmark did not run.
    double realMedian(const std::string& name) const {
        const auto it = realTimes_.find(name);
        if (it == realTimes_.end() || it->second.empty()) return std::nan("");
        std::vector<double> times = it->second;
        std::sort(times.begin(), times.end());
        const std::size_t n = times.size();
        return n % 2 == 1 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
    }
    int repetitions() const {
        std::size_t most = 0;
        for (const auto& [name, times] : realTimes_)
            most = std::max(most, times.size());
        return static_cast<int>(most);
    }

    static std::string fmt(double x, const char* format) {
        if (!std::isfinite(x)) return "-";
        char buf[64];
        std::snprintf(buf, sizeof buf, format, x);
        return buf;
    }

    std::map<std::string, std::vector<double>> realTimes_;
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

    // Memory first, in forked children, before this process creates any Embree device. The mesh
    // and the rays are generated here, once, so that the children share them.
    mesh();
    rays();
    for (Engine e : {Engine::Kolize, Engine::Embree, Engine::Embree1, Engine::Bullet})
        memoryBytes()[e] = buildResidentBytes(e);

    for (Engine e : {Engine::Kolize, Engine::Embree, Engine::Embree1, Engine::Bullet}) {
        benchmark::RegisterBenchmark((std::string("BM_Build/") + engineName(e)).c_str(), BM_Build, e)
            ->Unit(benchmark::kMillisecond)
            ->Iterations(3);
    }
    for (Engine e : {Engine::Kolize, Engine::Embree, Engine::Bullet}) {
        benchmark::RegisterBenchmark((std::string("BM_Raycast/") + engineName(e)).c_str(), BM_Raycast, e)
            ->Unit(benchmark::kNanosecond)
            ->Iterations(static_cast<benchmark::IterationCount>(kRayCount));
    }
    benchmark::RegisterBenchmark("BM_Raycast/BruteForce", BM_RaycastBruteForce)
        ->Unit(benchmark::kNanosecond)
        ->Iterations(static_cast<benchmark::IterationCount>(kBruteRays));

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
