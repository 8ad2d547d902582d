// Triangle-mesh ray queries: Kolize (kz::MeshBvh) against Embree 3 and Bullet, side by side, on
// several workloads (a mesh and a set of rays each; mesh_workloads.hpp says what they are):
// random rays at a 500k-triangle torus, at a 1.5M-triangle sphere and at 480k long thin triangles,
// the torus's rays as finite segments, rays from inside the closed sphere, a camera's coherent
// rays at the torus, and the torus's rays turned away from it (a query's fixed cost).
//
// BM_Raycast/<workload>/<engine>: one iteration is one nearest-hit query of one ray with its tMax,
// cycling over the workload's rays (exactly one pass over them; BruteForce: 50 evenly spaced
// rays, fewer on a mesh of more than 500,000 triangles, every triangle tested with
// kz::raycastBarycentric, nearest t, lower index on ties).
//   KolizeBvh  kz::MeshBvh::raycast(ray, tMax).
//   Embree     rtcIntersect1 with an RTCIntersectContext, tnear 0, tfar tMax, one
//              RTC_GEOMETRY_TYPE_TRIANGLE geometry in a scene with the default flags and build
//              quality (RTC_BUILD_QUALITY_MEDIUM), default device (all hardware threads).
//              Embree picks its best kernels for the CPU; KOLIZE_EMBREE_ISA=sse2|sse4.2|avx|avx2|
//              avx512 limits every device to one (its "isa=" setting), so that a Kolize path forced
//              with KOLIZE_SIMD is compared with Embree's kernels for the same CPUs.
//   Bullet     btBvhTriangleMeshShape (quantized BVH) over a btTriangleIndexVertexArray,
//              performRaycast over the segment origin -> origin + length * dir with a
//              btTriangleRaycastCallback keeping the closest hit (two-sided, no back-face filter);
//              length is tMax, or for an infinite ray 4x the largest distance of the workload's
//              ray origins from the mesh's centre (at least 4 |half extent|), beyond any hit.
// BM_Build/<mesh>/<engine>: one iteration (one a repetition: builds take 0.1 to 2 s, the median
// over the repetitions evens them out) is one build from the shared vertex and index arrays
// (Embree: new scene + geometry with copied buffers + rtcCommitScene; Embree/1thread: the same on
// a device created with "threads=1", as our build uses one core, and with no other Embree device
// alive: Embree builds on as many threads as the live device that asks for the most). Destruction
// is not timed. Counter cores: the process's CPU time over the wall time of the timed builds (1 for
// a build on one core; the summary prints it, so a one-thread build that is not is seen).
//
// Counters (computed once per workload or mesh, untimed):
//   BM_Build/<mesh>/<engine> bytes_per_tri: resident memory held by the built structure per
//     triangle, measured as the RSS delta (/proc/self/statm) around one build in a child process
//     (this binary run again, so that nothing built before and no allocator or thread state of
//     this process distorts it; malloc_trim(0) first so that freed build temporaries do not
//     count). Kolize's MeshBvh has no memory accessor, so this is a measurement, not
//     sizeof(Node) * count. The shared input arrays are not counted; Embree's copies of them are.
//   BM_Raycast/<workload>/KolizeBvh: agree_pct, the percentage of the workload's rays where ours
//     and Embree agree (both miss, or both hit with the same triangle or t within 1e-5 relative);
//     embree_miss_we_hit, we_miss_embree_hit, both_hit_differ (of which differ_embree_farther:
//     Embree's t is the larger, i.e. it passed our hit, as when a ray slips through a crack
//     between two triangles); differ_ours_exact: of those rays (the first 100), the ones where
//     MeshBvh::raycast is brute force's hit exactly; hit_pct; for finite segments, short_pct: of the rays
//     that would hit the surface if they went on, the percentage that end before it.
//   BM_Raycast/<workload>/BruteForce: bvh_mismatch, rays of 500 evenly spaced ones (fewer on a
//     mesh of more than 500,000 triangles) where MeshBvh::raycast differs from the brute-force
//     loop (hit/miss, triangle or t not bit-identical).
// After the run, a summary prints per workload the ns per ray of each engine (the median over
// --benchmark_repetitions, which shrugs off the odd repetition slowed by other load) and the
// ratios ours/Embree and Bullet/ours, then per mesh the build ms and ours/Embree(1 thread), and
// the agreement (console output only; with --benchmark_format=json or csv there is no summary).
#include "geom/mesh_bvh.hpp"
#include "geom/raycast.hpp"
#include "geom/simd_path.hpp"
#include "mean_reporter.hpp"
#include "mesh_workloads.hpp"

#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>
#include <algorithm>
#include <array>
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>
#include <chrono>
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
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

static_assert(sizeof(btScalar) == sizeof(float), "bench_mesh expects single-precision Bullet");

using kz::bench::Mesh;
using kz::bench::MeshId;
using kz::bench::RaySet;
using kz::bench::WorkloadId;

constexpr float kAgreeRelT = 1e-5f;
/// Brute force (about 20 ns a triangle) checks MeshBvh on 500 rays of each workload, fewer when
/// the mesh has more than 500,000 triangles (about 5 s a workload, once), and times 50 of them
/// per repetition, fewer likewise (about 0.5 s).
constexpr std::size_t kBruteCheckedRays = 500;
constexpr std::size_t kBruteTimedRays = 50;
constexpr std::size_t kBruteTrianglesPerRay = 500'000;
/// Rays where ours and Embree disagree are cast by brute force too, up to this many a workload.
constexpr std::size_t kDisagreeChecked = 100;

/// A common hit record: triangle index and t (distance along the unit direction).
struct Hit {
    std::uint32_t triangle;
    float t;
};

// ---------------------------------------------------------------------------------------------
// Kolize and brute force
// ---------------------------------------------------------------------------------------------

kz::MeshBvh buildKolize(const Mesh& m) {
    return kz::MeshBvh::build(m.vertices, m.indices);
}

const kz::MeshBvh& kolize(MeshId id) {
    static std::map<MeshId, kz::MeshBvh> built;
    auto it = built.find(id);
    if (it == built.end()) it = built.emplace(id, buildKolize(kz::bench::mesh(id))).first;
    return it->second;
}

std::optional<Hit> bruteForce(const Mesh& m, const kz::Ray& ray, float tMax) {
    std::optional<Hit> best;
    float bestT = tMax;
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

/// The indices of about `rays` rays of workload `id` (fewer on a mesh of more than
/// kBruteTrianglesPerRay triangles), evenly spaced over the whole set.
std::vector<std::size_t> bruteSubset(WorkloadId id, std::size_t rays) {
    const std::size_t total = kz::bench::rayCount(id);
    const std::size_t tris = kz::bench::triangleCount(kz::bench::workloadMesh(id));
    const std::size_t count = std::clamp<std::size_t>(
        rays * kBruteTrianglesPerRay / std::max<std::size_t>(tris, 1), 1, std::min(rays, total));
    std::vector<std::size_t> subset(count);
    for (std::size_t i = 0; i < count; ++i)
        subset[i] = i * total / count;
    return subset;
}

// ---------------------------------------------------------------------------------------------
// Embree
// ---------------------------------------------------------------------------------------------

/// The instruction sets Embree 3 can be limited to with its "isa=" device setting, and whether
/// this CPU runs each (Embree accepts any value and would run an ISA the CPU lacks).
struct EmbreeIsa {
    const char* name;
    bool supported;
};
std::array<EmbreeIsa, 5> embreeIsas() {
    __builtin_cpu_init();
    return {
        {{"sse2", __builtin_cpu_supports("sse2") != 0},
         {"sse4.2", __builtin_cpu_supports("sse4.2") != 0},
         {"avx", __builtin_cpu_supports("avx") != 0},
         {"avx2", __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("fma") != 0},
         // Embree's AVX-512 kernels are for Skylake-X: F, CD, DQ, BW and VL.
         {"avx512", __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512cd") != 0 &&
                        __builtin_cpu_supports("avx512dq") != 0 && __builtin_cpu_supports("avx512bw") != 0 &&
                        __builtin_cpu_supports("avx512vl") != 0}}};
}

/// KOLIZE_EMBREE_ISA's value (Embree's instruction set, so that a forced KOLIZE_SIMD path is
/// compared with Embree on the same one), or empty: Embree's best for this CPU.
std::string embreeIsaSetting() {
    const char* value = std::getenv("KOLIZE_EMBREE_ISA");
    return value != nullptr ? value : "";
}

/// Why KOLIZE_EMBREE_ISA cannot be used, or empty.
std::string embreeIsaError() {
    const std::string isa = embreeIsaSetting();
    if (isa.empty()) return "";
    // The value as given, on one line: at most 40 characters, any other than printable ASCII as '?'.
    std::string shown = "KOLIZE_EMBREE_ISA=";
    for (const char c : isa.substr(0, 40))
        shown += c >= 0x20 && c < 0x7f ? c : '?';
    if (isa.size() > 40) shown += "...";
    std::string names;
    for (const EmbreeIsa& known : embreeIsas()) {
        if (isa == known.name) return known.supported ? "" : shown + ": this CPU does not have it";
        names += std::string(names.empty() ? "" : ", ") + known.name;
    }
    return shown + ": not one of " + names;
}

/// An Embree device's configuration: `base` (or nothing) and KOLIZE_EMBREE_ISA's "isa=".
std::string embreeConfig(const char* base) {
    std::string config = base != nullptr ? base : "";
    if (const std::string isa = embreeIsaSetting(); !isa.empty())
        config += (config.empty() ? "isa=" : ",isa=") + isa;
    return config;
}

class EmbreeDevice {
public:
    explicit EmbreeDevice(const char* base) : device_(rtcNewDevice(embreeConfig(base).c_str())) {
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

    std::optional<Hit> raycast(const kz::Ray& ray, float tMax) const {
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
        rh.ray.tfar = tMax;
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

/// The one Embree device alive at a time, with the scenes the ray benchmarks cast at (built on
/// first use, on the default device). Embree's task scheduler runs every live device's builds on
/// as many threads as the device that asks for the most, so a "threads=1" device next to the
/// default one would build on all cores: switching devices releases the other one and its scenes.
class EmbreeDevices {
public:
    /// The default device (all hardware threads).
    RTCDevice allThreads() { return use(false); }
    /// A device created with "threads=1" (the default device and its scenes released first).
    RTCDevice oneThread() { return use(true); }

    /// The ray benchmarks' scene over mesh `id`, on the default device.
    const EmbreeScene& scene(MeshId id) {
        const RTCDevice device = allThreads();
        std::unique_ptr<const EmbreeScene>& scene = scenes_[id];
        if (!scene) scene = std::make_unique<const EmbreeScene>(device, kz::bench::mesh(id));
        return *scene;
    }

private:
    RTCDevice use(bool oneThread) {
        if (!device_ || oneThread != oneThread_) {
            scenes_.clear(); // each holds a reference to the device
            device_.reset();
            device_.emplace(oneThread ? "threads=1" : nullptr);
            oneThread_ = oneThread;
        }
        return device_->get();
    }

    std::optional<EmbreeDevice> device_;
    bool oneThread_ = false;
    std::map<MeshId, std::unique_ptr<const EmbreeScene>> scenes_;
};

EmbreeDevices& embreeDevices() {
    static EmbreeDevices devices;
    return devices;
}

const EmbreeScene& embree(MeshId id) {
    return embreeDevices().scene(id);
}

// ---------------------------------------------------------------------------------------------
// Bullet
// ---------------------------------------------------------------------------------------------

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

    /// The closest hit on the segment origin -> origin + length * dir.
    std::optional<Hit> raycast(const kz::Ray& ray, float length) {
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

BulletMesh& bullet(MeshId id) {
    static std::map<MeshId, std::unique_ptr<BulletMesh>> built;
    std::unique_ptr<BulletMesh>& shape = built[id];
    if (!shape) shape = std::make_unique<BulletMesh>(kz::bench::mesh(id));
    return *shape;
}

/// Bullet casts segments: an infinite ray of workload `id` becomes one of this length, 4x the
/// largest distance of the workload's ray origins from the mesh's centre (at least 4 |half
/// extent|), so that it reaches beyond any hit.
float bulletRayLength(WorkloadId id) {
    static std::map<WorkloadId, float> lengths;
    const auto it = lengths.find(id);
    if (it != lengths.end()) return it->second;
    const kz::Aabb box = kz::bench::meshBounds(kz::bench::mesh(kz::bench::workloadMesh(id)));
    const glm::vec3 centre = 0.5f * (box.min + box.max);
    float reach = glm::length(0.5f * (box.max - box.min));
    for (const kz::Ray& ray : kz::bench::raySet(id).rays)
        reach = std::max(reach, glm::length(ray.origin - centre));
    return lengths[id] = 4.0f * reach;
}

// ---------------------------------------------------------------------------------------------
// Untimed measurements
// ---------------------------------------------------------------------------------------------

enum class Engine { Kolize, Embree, Embree1, Bullet, BruteForce };

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
    case Engine::BruteForce:
        return "BruteForce";
    }
    return "?";
}

constexpr Engine kBuildEngines[] = {Engine::Kolize, Engine::Embree, Engine::Embree1, Engine::Bullet};
constexpr Engine kRayEngines[] = {Engine::Kolize, Engine::Embree, Engine::Bullet, Engine::BruteForce};

std::string raycastName(WorkloadId w, Engine e) {
    return std::string("BM_Raycast/") + kz::bench::workloadName(w) + "/" + engineName(e);
}

std::string buildName(MeshId m, Engine e) {
    return std::string("BM_Build/") + kz::bench::meshName(m) + "/" + engineName(e);
}

long residentBytes() {
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

/// The option that makes this binary measure one build's memory and write it to stdout.
constexpr const char* kMemoryOption = "--kz_build_memory=";

/// In the child process: the RSS delta of one build of `engine` over mesh `id`, -1 on failure.
long measureBuildResidentBytes(MeshId id, Engine engine) {
    const Mesh& m = kz::bench::mesh(id);
    if (engine == Engine::Kolize) {
        malloc_trim(0);
        const long before = residentBytes();
        const kz::MeshBvh bvh = buildKolize(m);
        malloc_trim(0);
        benchmark::DoNotOptimize(&bvh);
        return residentBytes() - before;
    }
    if (engine == Engine::Embree || engine == Engine::Embree1) {
        const EmbreeDevice device(engine == Engine::Embree ? nullptr : "threads=1");
        malloc_trim(0);
        const long before = residentBytes();
        const EmbreeScene scene(device.get(), m);
        malloc_trim(0);
        return residentBytes() - before;
    }
    if (engine == Engine::Bullet) {
        malloc_trim(0);
        const long before = residentBytes();
        const BulletMesh shape(m);
        malloc_trim(0);
        return residentBytes() - before;
    }
    return -1;
}

/// The child's side of buildResidentBytes: `arg` is "<mesh>:<engine>" (their enum values).
int runMemoryChild(const char* arg) {
    int mesh = -1, engine = -1;
    long delta = -1;
    if (std::sscanf(arg, "%d:%d", &mesh, &engine) == 2 && mesh >= 0 &&
        mesh < static_cast<int>(std::size(kz::bench::kMeshes)) && engine >= 0 &&
        engine <= static_cast<int>(Engine::Bullet))
        delta = measureBuildResidentBytes(static_cast<MeshId>(mesh), static_cast<Engine>(engine));
    const ssize_t written = write(STDOUT_FILENO, &delta, sizeof delta);
    return written == static_cast<ssize_t>(sizeof delta) && delta >= 0 ? 0 : 1;
}

/// RSS delta of one build of `engine` over mesh `id`, measured in a new process (this binary
/// run again with kMemoryOption: a fork alone would share this process's allocator state, and
/// forking a process that runs Embree's TBB threads is unsafe). -1 if the measurement failed.
double buildResidentBytes(MeshId id, Engine engine) {
    std::string option = std::string(kMemoryOption) + std::to_string(static_cast<int>(id)) + ":" +
                         std::to_string(static_cast<int>(engine));
    std::string program = "bench_mesh";
    char* argv[] = {program.data(), option.data(), nullptr};
    int fds[2];
    if (pipe(fds) != 0) return -1.0;
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1.0;
    }
    if (pid == 0) { // only async-signal-safe calls until exec
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv("/proc/self/exe", argv);
        _exit(127);
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

double memoryBytes(MeshId id, Engine engine) {
    static std::map<std::pair<MeshId, Engine>, double> bytes;
    const auto key = std::make_pair(id, engine);
    const auto it = bytes.find(key);
    if (it != bytes.end()) return it->second;
    return bytes[key] = buildResidentBytes(id, engine);
}

/// Whether MeshBvh::raycast gives brute force's result bit for bit on ray `i` of workload `id`.
bool matchesBruteForce(WorkloadId id, std::size_t i) {
    const RaySet& set = kz::bench::raySet(id);
    const MeshId meshId = kz::bench::workloadMesh(id);
    const auto ours = kolize(meshId).raycast(set.rays[i], set.tMax(i));
    const auto ref = bruteForce(kz::bench::mesh(meshId), set.rays[i], set.tMax(i));
    return ours.has_value() == ref.has_value() &&
           (!ours || (ours->triangle == ref->triangle && ours->t == ref->t));
}

struct Agreement {
    std::size_t rays = 0, agree = 0, embreeMissWeHit = 0, weMissEmbreeHit = 0, bothHitDiffer = 0, weHit = 0;
    std::size_t embreeFarther = 0; ///< Of bothHitDiffer: Embree's t is the larger (it went past our hit).
    std::size_t checked = 0;      ///< Disagreeing rays also cast by brute force (the first kDisagreeChecked).
    std::size_t checkedExact = 0; ///< Of checked: those where ours is brute force's hit exactly.
    std::size_t longHits = 0;     ///< Finite rays that would hit if infinite (ours).
    std::size_t shortRays = 0;    ///< Of longHits: those that end before that hit.
    bool finite = false;          ///< The workload's rays have finite tMax.
};

const Agreement& agreement(WorkloadId id) {
    static std::map<WorkloadId, Agreement> computed;
    const auto it = computed.find(id);
    if (it != computed.end()) return it->second;
    Agreement r;
    const RaySet& set = kz::bench::raySet(id);
    const MeshId meshId = kz::bench::workloadMesh(id);
    const kz::MeshBvh& bvh = kolize(meshId);
    const EmbreeScene& scene = embree(meshId);
    r.finite = !set.tMaxs.empty();
    for (std::size_t i = 0; i < set.size(); ++i) {
        const kz::Ray& ray = set.rays[i];
        const float tMax = set.tMax(i);
        const auto ours = bvh.raycast(ray, tMax);
        const auto theirs = scene.raycast(ray, tMax);
        ++r.rays;
        r.weHit += ours.has_value();
        if (r.finite && bvh.raycast(ray)) {
            ++r.longHits;
            r.shortRays += !ours;
        }
        if (!ours && !theirs) {
            ++r.agree;
            continue;
        }
        if (ours && theirs &&
            (ours->triangle == theirs->triangle ||
             std::abs(ours->t - theirs->t) <= kAgreeRelT * std::max(ours->t, theirs->t))) {
            ++r.agree;
            continue;
        }
        if (ours && !theirs) {
            ++r.embreeMissWeHit;
        } else if (!ours && theirs) {
            ++r.weMissEmbreeHit;
        } else {
            ++r.bothHitDiffer;
            r.embreeFarther += theirs->t > ours->t;
        }
        if (r.checked < kDisagreeChecked) {
            ++r.checked;
            r.checkedExact += matchesBruteForce(id, i);
        }
    }
    return computed[id] = r;
}

std::size_t bruteMismatches(WorkloadId id) {
    static std::map<WorkloadId, std::size_t> computed;
    const auto it = computed.find(id);
    if (it != computed.end()) return it->second;
    std::size_t n = 0;
    for (std::size_t i : bruteSubset(id, kBruteCheckedRays))
        n += !matchesBruteForce(id, i);
    return computed[id] = n;
}

// ---------------------------------------------------------------------------------------------
// Benchmarks
// ---------------------------------------------------------------------------------------------

/// Casts the workload's rays in order with `cast(ray, tMax)`, one a benchmark iteration, cycling;
/// returns the number of hits.
template <class Cast>
std::size_t castRays(benchmark::State& state, const RaySet& set, Cast&& cast) {
    std::size_t i = 0, hits = 0;
    for (auto _ : state) {
        const std::optional<Hit> hit = cast(set.rays[i], set.tMax(i));
        hits += hit.has_value();
        benchmark::DoNotOptimize(hit);
        if (++i == set.size()) i = 0;
    }
    return hits;
}

void BM_Raycast(benchmark::State& state, WorkloadId id, Engine engine) {
    const RaySet& set = kz::bench::raySet(id);
    const MeshId meshId = kz::bench::workloadMesh(id);
    std::size_t hits = 0;
    if (engine == Engine::Kolize) {
        const kz::MeshBvh& bvh = kolize(meshId);
        hits = castRays(state, set, [&](const kz::Ray& ray, float tMax) -> std::optional<Hit> {
            const auto hit = bvh.raycast(ray, tMax);
            if (!hit) return std::nullopt;
            return Hit{hit->triangle, hit->t};
        });
        const Agreement& a = agreement(id);
        const double n = static_cast<double>(a.rays);
        state.counters["agree_pct"] = 100.0 * static_cast<double>(a.agree) / n;
        state.counters["embree_miss_we_hit"] = static_cast<double>(a.embreeMissWeHit);
        state.counters["we_miss_embree_hit"] = static_cast<double>(a.weMissEmbreeHit);
        state.counters["both_hit_differ"] = static_cast<double>(a.bothHitDiffer);
        state.counters["differ_embree_farther"] = static_cast<double>(a.embreeFarther);
        state.counters["differ_ours_exact"] = static_cast<double>(a.checkedExact);
        if (a.finite)
            state.counters["short_pct"] =
                100.0 * static_cast<double>(a.shortRays) / static_cast<double>(a.longHits);
    } else if (engine == Engine::Embree) {
        const EmbreeScene& scene = embree(meshId);
        hits = castRays(state, set, [&](const kz::Ray& ray, float tMax) { return scene.raycast(ray, tMax); });
    } else if (engine == Engine::Bullet) {
        BulletMesh& shape = bullet(meshId);
        const float infiniteLength = bulletRayLength(id);
        hits = castRays(state, set, [&](const kz::Ray& ray, float tMax) {
            return shape.raycast(ray, std::isfinite(tMax) ? tMax : infiniteLength);
        });
    } else {
        const Mesh& m = kz::bench::mesh(meshId);
        const std::vector<std::size_t> subset = bruteSubset(id, kBruteTimedRays);
        std::size_t i = 0;
        for (auto _ : state) {
            const auto hit = bruteForce(m, set.rays[subset[i]], set.tMax(subset[i]));
            hits += hit.has_value();
            benchmark::DoNotOptimize(hit);
            if (++i == subset.size()) i = 0;
        }
        state.counters["bvh_mismatch"] = static_cast<double>(bruteMismatches(id));
    }
    state.counters["hit_pct"] = 100.0 * static_cast<double>(hits) / static_cast<double>(state.iterations());
}

/// CPU time used so far by all of this process's threads, in seconds.
double processCpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
    };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void BM_Build(benchmark::State& state, MeshId id, Engine engine) {
    const Mesh& m = kz::bench::mesh(id);
    // The Embree device is switched to before the clocks start (see EmbreeDevices).
    const RTCDevice device = engine == Engine::Embree    ? embreeDevices().allThreads()
                             : engine == Engine::Embree1 ? embreeDevices().oneThread()
                                                         : nullptr;
    double cpu = 0.0, wall = 0.0; // of the timed builds: cores used = cpu / wall
    for (auto _ : state) {
        const double cpuStart = processCpuSeconds();
        const auto wallStart = std::chrono::steady_clock::now();
        const auto stopClocks = [&] {
            wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
            cpu += processCpuSeconds() - cpuStart;
            state.PauseTiming();
        };
        if (engine == Engine::Kolize) {
            auto bvh = std::make_unique<kz::MeshBvh>(buildKolize(m));
            benchmark::DoNotOptimize(bvh);
            stopClocks();
            bvh.reset();
        } else if (engine == Engine::Embree || engine == Engine::Embree1) {
            auto scene = std::make_unique<EmbreeScene>(device, m);
            benchmark::DoNotOptimize(scene);
            stopClocks();
            scene.reset();
        } else {
            auto shape = std::make_unique<BulletMesh>(m);
            benchmark::DoNotOptimize(shape);
            stopClocks();
            shape.reset();
        }
        state.ResumeTiming();
    }
    if (wall > 0.0) state.counters["cores"] = cpu / wall;
    state.counters["triangles"] = static_cast<double>(m.triangles());
    const double bytes = memoryBytes(id, engine);
    if (bytes >= 0.0) state.counters["bytes_per_tri"] = bytes / static_cast<double>(m.triangles());
}

// ---------------------------------------------------------------------------------------------
// Summary
// ---------------------------------------------------------------------------------------------

/// The console table, then a summary with the ratios to Embree and Bullet per workload and mesh.
class SummaryReporter : public kz::bench::MeanReporter {
public:
    void printSummary() const {
        const std::string embreeIsa = embreeIsaSetting();
        std::printf("\nRays: real time per ray in ns, median over %d repetition(s); Kolize's SIMD path: %s; "
                    "Embree's ISA: %s\n",
                    repetitions(), std::string(kz::simdPathName(kz::activeSimdPath())).c_str(),
                    embreeIsa.empty() ? "its best for this CPU" : embreeIsa.c_str());
        std::printf("%-11s %-12s %9s %6s %10s %8s %8s %10s %12s %12s %6s\n", "workload", "mesh", "rays",
                    "hit%", "KolizeBvh", "Embree", "Bullet", "BruteForce", "ours/Embree", "Bullet/ours",
                    "brute");
        for (WorkloadId w : kz::bench::kWorkloads) {
            const double k = realMedian(raycastName(w, Engine::Kolize));
            const double e = realMedian(raycastName(w, Engine::Embree));
            const double b = realMedian(raycastName(w, Engine::Bullet));
            const double bf = realMedian(raycastName(w, Engine::BruteForce));
            if (std::isnan(k) && std::isnan(e) && std::isnan(b) && std::isnan(bf)) continue;
            const RaySet& set = kz::bench::raySet(w);
            const bool compared = !std::isnan(k);
            const std::string hitPct =
                compared
                    ? fmt(100.0 * static_cast<double>(agreement(w).weHit) / static_cast<double>(set.size()),
                          "%.1f")
                    : "-";
            // "brute": the subset's size and MeshBvh's mismatches against brute force on it.
            const std::string brute = std::isnan(bf)
                                          ? "-"
                                          : std::to_string(bruteMismatches(w)) + "/" +
                                                std::to_string(bruteSubset(w, kBruteCheckedRays).size());
            std::printf("%-11s %-12s %9zu %6s %10s %8s %8s %10s %12s %12s %6s\n", kz::bench::workloadName(w),
                        kz::bench::meshName(kz::bench::workloadMesh(w)), set.size(), hitPct.c_str(),
                        fmt(k, "%.1f").c_str(), fmt(e, "%.1f").c_str(), fmt(b, "%.0f").c_str(),
                        fmt(bf, "%.0f").c_str(), fmt(k / e, "%.2fx").c_str(), fmt(b / k, "%.1fx").c_str(),
                        brute.c_str());
        }

        std::printf("\nBuilds: ms, median over the repetitions; bytes per triangle (RSS) K/E/B\n");
        std::printf("%-12s %9s %10s %8s %15s %8s %22s %16s %14s\n", "mesh", "triangles", "KolizeBvh",
                    "Embree", "Embree/1thread", "Bullet", "ours/Embree(1 thread)", "bytes/tri",
                    "cores K/E/E1");
        for (MeshId m : kz::bench::kMeshes) {
            std::array<double, 4> ms{};
            for (std::size_t i = 0; i < ms.size(); ++i)
                ms[i] = realMedian(buildName(m, kBuildEngines[i]));
            if (std::all_of(ms.begin(), ms.end(), [](double x) { return std::isnan(x); })) continue;
            const double tris = static_cast<double>(kz::bench::mesh(m).triangles());
            auto perTri = [&](Engine e) {
                const double bytes = std::isnan(realMedian(buildName(m, e))) ? -1.0 : memoryBytes(m, e);
                return bytes >= 0.0 ? fmt(bytes / tris, "%.0f") : std::string("-");
            };
            const std::string bytes =
                perTri(Engine::Kolize) + "/" + perTri(Engine::Embree) + "/" + perTri(Engine::Bullet);
            const std::string cores = fmt(coresMedian(buildName(m, Engine::Kolize)), "%.1f") + "/" +
                                      fmt(coresMedian(buildName(m, Engine::Embree)), "%.1f") + "/" +
                                      fmt(coresMedian(buildName(m, Engine::Embree1)), "%.1f");
            std::printf("%-12s %9.0f %10s %8s %15s %8s %22s %16s %14s\n", kz::bench::meshName(m), tris,
                        fmt(ms[0], "%.1f").c_str(), fmt(ms[1], "%.1f").c_str(), fmt(ms[2], "%.1f").c_str(),
                        fmt(ms[3], "%.1f").c_str(), fmt(ms[0] / ms[2], "%.2fx").c_str(), bytes.c_str(),
                        cores.c_str());
        }
        std::printf(
            "\nTargets: ray ours/Embree <= 1.0 on every workload; build ours/Embree(1 thread) <= 1.0.\n");

        std::printf("\nAgreement with Embree (both miss, or same triangle or t within %g relative):\n",
                    static_cast<double>(kAgreeRelT));
        for (WorkloadId w : kz::bench::kWorkloads) {
            if (std::isnan(realMedian(raycastName(w, Engine::Kolize)))) continue;
            const Agreement& a = agreement(w); // cached: already computed
            std::printf(
                "  %-11s %.4f%% of %zu rays (Embree misses, we hit: %zu; we miss, Embree hits: %zu; both "
                "hit, different triangle and t: %zu, of which Embree's hit is the farther: %zu; ours is "
                "brute "
                "force's hit on %zu of %zu of these rays)",
                kz::bench::workloadName(w),
                100.0 * static_cast<double>(a.agree) / static_cast<double>(a.rays), a.rays, a.embreeMissWeHit,
                a.weMissEmbreeHit, a.bothHitDiffer, a.embreeFarther, a.checkedExact, a.checked);
            if (a.finite)
                std::printf("; of the %zu segments that would hit if they went on, %.1f%% end before the "
                            "surface",
                            a.longHits,
                            100.0 * static_cast<double>(a.shortRays) / static_cast<double>(a.longHits));
            std::printf("\n");
        }
    }

private:
    /// Median of a build's cores counter over the repetitions, NaN if it did not run.
    double coresMedian(const std::string& name) const { return counterMedian(name, "cores"); }

    static std::string fmt(double x, const char* format) {
        if (!std::isfinite(x)) return "-";
        char buf[64];
        std::snprintf(buf, sizeof buf, format, x);
        return buf;
    }
};

} // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strncmp(argv[1], kMemoryOption, std::strlen(kMemoryOption)) == 0)
        return runMemoryChild(argv[1] + std::strlen(kMemoryOption));

    bool console = true;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--benchmark_format=", 19) == 0 &&
            std::strcmp(argv[i] + 19, "console") != 0)
            console = false;
    }
    // A forced SIMD path (KOLIZE_SIMD) this CPU cannot run is refused, not silently replaced.
    if (const std::string simd = kz::simdPathEnvironmentError(); !simd.empty()) {
        std::fprintf(stderr, "bench_mesh: %s\n", simd.c_str());
        return 2;
    }
    if (const std::string isa = embreeIsaError(); !isa.empty()) {
        std::fprintf(stderr, "bench_mesh: %s\n", isa.c_str());
        return 2;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

    // Meshes, rays and engines' structures are made on first use, so a --benchmark_filter that
    // selects one workload makes only what that workload needs.
    for (MeshId m : kz::bench::kMeshes) {
        for (Engine e : kBuildEngines) {
            benchmark::RegisterBenchmark(buildName(m, e).c_str(), BM_Build, m, e)
                ->Unit(benchmark::kMillisecond)
                ->Iterations(1);
        }
    }
    for (WorkloadId w : kz::bench::kWorkloads) {
        for (Engine e : kRayEngines) {
            // One pass over the workload's rays (or its brute-force subset), counted without
            // making them.
            const std::size_t iterations =
                e == Engine::BruteForce ? bruteSubset(w, kBruteTimedRays).size() : kz::bench::rayCount(w);
            benchmark::RegisterBenchmark(raycastName(w, e).c_str(), BM_Raycast, w, e)
                ->Unit(benchmark::kNanosecond)
                ->Iterations(static_cast<benchmark::IterationCount>(iterations));
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
