// The meshes and ray sets of bench_mesh (see mesh_workloads.hpp for what each one is).
#include "mesh_workloads.hpp"

#include "bench_random.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <glm/gtc/constants.hpp>
#include <memory>

namespace kz::bench {
namespace {

constexpr std::uint32_t kSeed = 20240605u;
constexpr float kTwoPi = 6.28318530717958f;

// ---------------------------------------------------------------------------------------------
// Meshes
// ---------------------------------------------------------------------------------------------

/// Two triangles (a, b, c) and (a, c, d) for each quad of a grid of `outer` x `inner` quads, whose
/// corners a, b, c, d are the vertices index(i, j), index(i + 1, j), index(i + 1, j + 1) and
/// index(i, j + 1) (index wraps where the grid is closed).
template <class Index>
void appendQuadGrid(Mesh& mesh, int outer, int inner, Index&& index) {
    mesh.indices.reserve(mesh.indices.size() + static_cast<std::size_t>(outer) * inner * 6);
    for (int i = 0; i < outer; ++i) {
        for (int j = 0; j < inner; ++j) {
            const std::uint32_t a = index(i, j), b = index(i + 1, j), c = index(i + 1, j + 1),
                                d = index(i, j + 1);
            mesh.indices.insert(mesh.indices.end(), {a, b, c, a, c, d});
        }
    }
}

constexpr int kRingSegments = 1000; ///< Torus: around the major circle.
constexpr int kTubeSegments = 250;  ///< Torus: around the minor circle.
constexpr float kMajorRadius = 1.0f;
constexpr float kMinorRadius = 0.35f;

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
    appendQuadGrid(mesh, kRingSegments, kTubeSegments, [](int i, int j) {
        return static_cast<std::uint32_t>((i % kRingSegments) * kTubeSegments + (j % kTubeSegments));
    });
    return mesh;
}

constexpr int kCubeCells = 354; ///< Sphere: quads along each edge of each cube face.

/// A number in [-1, 1] from an integer point (SplitMix64's finaliser): the same point always
/// gives the same number, whichever face it is generated for.
float hashUnit(int x, int y, int z) {
    std::uint64_t h = (static_cast<std::uint64_t>(x) << 42) ^ (static_cast<std::uint64_t>(y) << 21) ^
                      static_cast<std::uint64_t>(z);
    h += 0x9E3779B97F4A7C15ull;
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    return static_cast<float>(h >> 40) / static_cast<float>(1u << 23) - 1.0f;
}

Mesh makeDisplacedSphere() {
    Rng rng(kSeed + 2u);
    std::array<float, 4> phase{};
    for (float& p : phase)
        p = uniform(rng, 0.0f, kTwoPi);
    constexpr int n = kCubeCells;
    const float edge = kTwoPi / (4.0f * static_cast<float>(n));
    // A point of the cube's integer lattice [0, n]^3 on its surface, to the displaced sphere.
    auto position = [&](const std::array<int, 3>& lattice) {
        glm::vec3 warped;
        for (int k = 0; k < 3; ++k) {
            const float q = static_cast<float>(2 * lattice[k] - n) / static_cast<float>(n);
            warped[k] = std::tan(q * glm::quarter_pi<float>());
        }
        const glm::vec3 u = glm::normalize(warped);
        const float bumps = 0.05f * std::sin(9.0f * u.x + phase[0]) * std::sin(7.0f * u.y + phase[1]) *
                                std::sin(8.0f * u.z + phase[2]) +
                            0.02f * std::sin(31.0f * u.x + 29.0f * u.y + 23.0f * u.z + phase[3]);
        const float r = 1.0f + bumps + 0.1f * edge * hashUnit(lattice[0], lattice[1], lattice[2]);
        return r * u;
    };

    Mesh mesh;
    const std::size_t perFace = static_cast<std::size_t>(n + 1) * (n + 1);
    mesh.vertices.reserve(6 * perFace);
    for (int axis = 0; axis < 3; ++axis) {
        for (int side : {0, n}) {
            const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
            for (int i = 0; i <= n; ++i) {
                for (int j = 0; j <= n; ++j) {
                    std::array<int, 3> lattice{};
                    lattice[axis] = side;
                    lattice[(axis + 1) % 3] = i;
                    lattice[(axis + 2) % 3] = j;
                    mesh.vertices.push_back(position(lattice));
                }
            }
            appendQuadGrid(mesh, n, n,
                           [&](int i, int j) { return base + static_cast<std::uint32_t>(i * (n + 1) + j); });
        }
    }
    return mesh;
}

constexpr int kNeedleColumns = 20'000; ///< Needles: vertices around each ring.
constexpr int kNeedleRows = 12;        ///< Needles: rows of quads (kNeedleRows + 1 rings).
constexpr float kNeedleHeight = 4.0f;
/// Turn of each ring from the one below (64 columns): the slivers lean by 3.4 degrees.
constexpr float kNeedleTwist = 0.02f;

Mesh makeTwistedNeedles() {
    Mesh mesh;
    mesh.vertices.reserve(static_cast<std::size_t>(kNeedleRows + 1) * kNeedleColumns);
    for (int j = 0; j <= kNeedleRows; ++j) {
        const float z = kNeedleHeight * (static_cast<float>(j) / static_cast<float>(kNeedleRows) - 0.5f);
        for (int i = 0; i < kNeedleColumns; ++i) {
            const float angle = kTwoPi * static_cast<float>(i) / static_cast<float>(kNeedleColumns) +
                                kNeedleTwist * static_cast<float>(j);
            mesh.vertices.emplace_back(std::cos(angle), std::sin(angle), z);
        }
    }
    // Column i, ring j; the columns wrap around.
    appendQuadGrid(mesh, kNeedleColumns, kNeedleRows, [](int i, int j) {
        return static_cast<std::uint32_t>(j * kNeedleColumns + i % kNeedleColumns);
    });
    return mesh;
}

// ---------------------------------------------------------------------------------------------
// Rays
// ---------------------------------------------------------------------------------------------

constexpr std::size_t kTorusRays = 1'000'000;
constexpr std::size_t kRandomRays = 500'000; ///< sphere1.5M and inside.
constexpr std::size_t kNeedleRays = 200'000; ///< needles: Bullet takes about 30 us a ray there.
constexpr int kImageWidth = 1024, kImageHeight = 768, kTile = 8;
/// Segments end this far along the way to their random targets: on the torus, about half of the
/// segments whose ray meets the surface end before it (with the whole way, under a fifth do).
constexpr float kSegmentReach = 0.85f;

/// Rays from a sphere of radius 2 |half extent| around the mesh's bounds toward random points of
/// those bounds scaled by 1.1. With `segments`, each ray's tMax is kSegmentReach times the
/// distance to its target; with `away`, each ray points the other way.
RaySet randomRays(const Mesh& m, std::size_t count, std::uint32_t seed, bool segments, bool away = false) {
    const Aabb box = meshBounds(m);
    const glm::vec3 centre = 0.5f * (box.min + box.max);
    const glm::vec3 half = 0.5f * (box.max - box.min);
    const float radius = 2.0f * glm::length(half);
    Rng rng(seed);
    RaySet set;
    set.rays.reserve(count);
    if (segments) set.tMaxs.reserve(count);
    while (set.rays.size() < count) {
        const glm::vec3 origin = centre + radius * randUnit(rng);
        const glm::vec3 target = centre + 1.1f * half *
                                              glm::vec3(uniform(rng, -1.0f, 1.0f), uniform(rng, -1.0f, 1.0f),
                                                        uniform(rng, -1.0f, 1.0f));
        const glm::vec3 d = target - origin;
        const float len = glm::length(d);
        if (len > 1e-3f) {
            set.rays.push_back({origin, (away ? -1.0f : 1.0f) * d / len});
            if (segments) set.tMaxs.push_back(kSegmentReach * len);
        }
    }
    return set;
}

/// Rays from uniformly random points of the ball (centre, radius) in uniformly random directions.
RaySet insideRays(glm::vec3 centre, float radius, std::size_t count, std::uint32_t seed) {
    Rng rng(seed);
    RaySet set;
    set.rays.reserve(count);
    while (set.rays.size() < count) {
        const glm::vec3 p(uniform(rng, -1.0f, 1.0f), uniform(rng, -1.0f, 1.0f), uniform(rng, -1.0f, 1.0f));
        if (glm::dot(p, p) > 1.0f) continue; // rejection sampling: uniform in the ball
        set.rays.push_back({centre + radius * p, randUnit(rng)});
    }
    return set;
}

/// One ray per pixel centre of a pinhole camera at `eye` looking at `target` (z up), in
/// kTile x kTile tiles: tiles in scanline order, pixels in a tile in scanline order.
RaySet cameraRays(glm::vec3 eye, glm::vec3 target, float verticalFovRadians) {
    const glm::vec3 forward = glm::normalize(target - eye);
    const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 0.0f, 1.0f)));
    const glm::vec3 up = glm::cross(right, forward);
    const float tanHalf = std::tan(0.5f * verticalFovRadians);
    const float aspect = static_cast<float>(kImageWidth) / static_cast<float>(kImageHeight);
    RaySet set;
    set.rays.reserve(static_cast<std::size_t>(kImageWidth) * kImageHeight);
    for (int ty = 0; ty < kImageHeight; ty += kTile) {
        for (int tx = 0; tx < kImageWidth; tx += kTile) {
            for (int y = ty; y < ty + kTile; ++y) {
                for (int x = tx; x < tx + kTile; ++x) {
                    const float sx =
                        (2.0f * (static_cast<float>(x) + 0.5f) / static_cast<float>(kImageWidth) - 1.0f) *
                        tanHalf * aspect;
                    const float sy =
                        (1.0f - 2.0f * (static_cast<float>(y) + 0.5f) / static_cast<float>(kImageHeight)) *
                        tanHalf;
                    set.rays.push_back({eye, glm::normalize(forward + sx * right + sy * up)});
                }
            }
        }
    }
    return set;
}

RaySet makeRaySet(WorkloadId id) {
    switch (id) {
    case WorkloadId::Torus:
        return randomRays(mesh(MeshId::Torus), kTorusRays, kSeed + 1u, false);
    case WorkloadId::Sphere:
        return randomRays(mesh(MeshId::Sphere), kRandomRays, kSeed + 3u, false);
    case WorkloadId::Segments:
        return randomRays(mesh(MeshId::Torus), kTorusRays, kSeed + 1u, true);
    case WorkloadId::Inside:
        return insideRays(glm::vec3(0.0f), 0.8f, kRandomRays, kSeed + 4u);
    case WorkloadId::Camera: {
        const float elevation = glm::radians(40.0f);
        const glm::vec3 eye = 3.2f * glm::vec3(0.0f, -std::cos(elevation), std::sin(elevation));
        return cameraRays(eye, glm::vec3(0.0f), glm::radians(50.0f));
    }
    case WorkloadId::Needles:
        return randomRays(mesh(MeshId::Needles), kNeedleRays, kSeed + 5u, false);
    case WorkloadId::Misses:
        return randomRays(mesh(MeshId::Torus), kTorusRays, kSeed + 1u, false, true);
    }
    return {};
}

} // namespace

const char* meshName(MeshId id) {
    switch (id) {
    case MeshId::Torus:
        return "torus500k";
    case MeshId::Sphere:
        return "sphere1.5M";
    case MeshId::Needles:
        return "needles480k";
    }
    return "?";
}

const Mesh& mesh(MeshId id) {
    static std::array<std::unique_ptr<const Mesh>, std::size(kMeshes)> meshes;
    std::unique_ptr<const Mesh>& slot = meshes[static_cast<std::size_t>(id)];
    if (!slot) {
        switch (id) {
        case MeshId::Torus:
            slot = std::make_unique<const Mesh>(makeBumpyTorus());
            break;
        case MeshId::Sphere:
            slot = std::make_unique<const Mesh>(makeDisplacedSphere());
            break;
        case MeshId::Needles:
            slot = std::make_unique<const Mesh>(makeTwistedNeedles());
            break;
        }
        if (slot->triangles() != triangleCount(id)) {
            std::fprintf(stderr, "mesh_workloads: %s has %zu triangles, not %zu\n", meshName(id),
                         slot->triangles(), triangleCount(id));
            std::abort();
        }
    }
    return *slot;
}

std::size_t triangleCount(MeshId id) {
    switch (id) {
    case MeshId::Torus:
        return 2 * static_cast<std::size_t>(kRingSegments) * kTubeSegments;
    case MeshId::Sphere:
        return 6 * 2 * static_cast<std::size_t>(kCubeCells) * kCubeCells;
    case MeshId::Needles:
        return 2 * static_cast<std::size_t>(kNeedleRows) * kNeedleColumns;
    }
    return 0;
}

const char* workloadName(WorkloadId id) {
    switch (id) {
    case WorkloadId::Torus:
        return "torus";
    case WorkloadId::Sphere:
        return "sphere1.5M";
    case WorkloadId::Segments:
        return "segments";
    case WorkloadId::Inside:
        return "inside";
    case WorkloadId::Camera:
        return "camera";
    case WorkloadId::Needles:
        return "needles";
    case WorkloadId::Misses:
        return "misses";
    }
    return "?";
}

MeshId workloadMesh(WorkloadId id) {
    switch (id) {
    case WorkloadId::Torus:
    case WorkloadId::Segments:
    case WorkloadId::Camera:
    case WorkloadId::Misses:
        return MeshId::Torus;
    case WorkloadId::Sphere:
    case WorkloadId::Inside:
        return MeshId::Sphere;
    case WorkloadId::Needles:
        return MeshId::Needles;
    }
    return MeshId::Torus;
}

const RaySet& raySet(WorkloadId id) {
    static std::array<std::unique_ptr<const RaySet>, std::size(kWorkloads)> sets;
    std::unique_ptr<const RaySet>& slot = sets[static_cast<std::size_t>(id)];
    if (!slot) {
        slot = std::make_unique<const RaySet>(makeRaySet(id));
        if (slot->size() != rayCount(id)) {
            std::fprintf(stderr, "mesh_workloads: %s has %zu rays, not %zu\n", workloadName(id), slot->size(),
                         rayCount(id));
            std::abort();
        }
    }
    return *slot;
}

std::size_t rayCount(WorkloadId id) {
    switch (id) {
    case WorkloadId::Torus:
    case WorkloadId::Segments:
    case WorkloadId::Misses:
        return kTorusRays;
    case WorkloadId::Sphere:
    case WorkloadId::Inside:
        return kRandomRays;
    case WorkloadId::Needles:
        return kNeedleRays;
    case WorkloadId::Camera:
        return static_cast<std::size_t>(kImageWidth) * kImageHeight;
    }
    return 0;
}

Aabb meshBounds(const Mesh& m) {
    Aabb box{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    for (const glm::vec3& p : m.vertices) {
        box.min = glm::min(box.min, p);
        box.max = glm::max(box.max, p);
    }
    return box;
}

} // namespace kz::bench
