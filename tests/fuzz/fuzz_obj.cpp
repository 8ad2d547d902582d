// Fuzz target: OBJ files (src/meshio), the meshes scenarios place. An input is parsed; a
// rejected one must give a one-line error; an accepted mesh must be well formed, build a MeshBvh,
// and answer rays derived from the input exactly as a brute-force loop over its triangles does
// (MeshBvh's contract, mesh_bvh.hpp: the nearest t, the lower triangle index on a tie, the same
// barycentrics and normal as raycastBarycentric; raycastAll lists every triangle hit), on every
// SIMD path the machine has.
#include "fuzz_check.hpp"
#include "geom/fnv1a.hpp"
#include "geom/mesh_bvh.hpp"
#include "geom/raycast.hpp"
#include "geom/simd_path.hpp"
#include "meshio/obj.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

/// Rays per accepted mesh: each costs a brute-force pass over every triangle.
constexpr int kRays = 16;

/// SplitMix64 (Steele, Lea, Flood 2014): the rays' numbers, seeded from the input's bytes (their
/// FNV-1a), so an input always gets the same rays.
class Mix {
public:
    explicit Mix(std::string_view bytes) { kz::fnv1a(state_, bytes.data(), bytes.size()); }
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// In [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    std::uint64_t state_ = kz::kFnvOffset;
};

kz::Triangle triangleOf(const kz::TriangleMesh& mesh, std::size_t i) {
    return {mesh.vertices[mesh.indices[3 * i]], mesh.vertices[mesh.indices[3 * i + 1]],
            mesh.vertices[mesh.indices[3 * i + 2]]};
}

/// A ray at a point of a triangle: a vertex, an edge midpoint or the centroid (where shared
/// edges and vertices make rays slip through a non-watertight test), from a random direction,
/// starting outside the mesh's bounds; tMax infinite or exactly the aimed point's t (1).
kz::Ray aimedRay(const kz::TriangleMesh& mesh, glm::dvec3 lo, glm::dvec3 hi, Mix& mix, float& tMax) {
    const kz::Triangle tri = triangleOf(mesh, mix.next() % (mesh.indices.size() / 3));
    const glm::dvec3 a(tri.a), b(tri.b), c(tri.c);
    const glm::dvec3 targets[] = {a, b, c, (a + b) / 2.0, (b + c) / 2.0, (c + a) / 2.0, (a + b + c) / 3.0};
    const glm::dvec3 target = targets[mix.next() % std::size(targets)];
    glm::dvec3 dir(mix.unit() - 0.5, mix.unit() - 0.5, mix.unit() - 0.5);
    if (mix.next() % 4 == 0) dir[static_cast<int>(mix.next() % 3)] = 0.0; // in a coordinate plane
    if (dir == glm::dvec3(0.0)) dir.x = 1.0;
    dir = glm::normalize(dir) * (glm::length(hi - lo) + 1.0);
    tMax = mix.next() % 2 == 0 ? INFINITY : 1.0f;
    // Converted to float, a huge mesh's origin or direction may overflow: then both must miss.
    return {glm::vec3(target - dir), glm::vec3(dir)};
}

struct BruteHit {
    kz::TriangleHit hit;
    std::uint32_t triangle;
};

/// The nearest hit over every triangle in index order (a later one only when strictly nearer),
/// and how many triangles the ray hits.
std::optional<BruteHit> bruteForce(const kz::TriangleMesh& mesh, const kz::Ray& ray, float tMax,
                                   std::size_t& hits) {
    std::optional<BruteHit> best;
    hits = 0;
    for (std::size_t i = 0; i < mesh.indices.size() / 3; ++i) {
        const auto hit = kz::raycastBarycentric(ray, triangleOf(mesh, i), tMax);
        if (!hit) continue;
        ++hits;
        if (!best || hit->t < best->hit.t) best = BruteHit{*hit, static_cast<std::uint32_t>(i)};
    }
    return best;
}

bool sameHit(const kz::MeshHit& got, const BruteHit& ref) {
    return got.triangle == ref.triangle && got.t == ref.hit.t && got.u == ref.hit.u && got.v == ref.hit.v &&
           got.normal == ref.hit.normal;
}

std::string describe(const kz::Ray& ray, float tMax) {
    const auto f = [](const glm::vec3& v) {
        return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
    };
    return "ray " + f(ray.origin) + " + t " + f(ray.dir) + ", tMax " + std::to_string(tMax);
}

void checkRay(const kz::TriangleMesh& mesh, const kz::MeshBvh& bvh, const kz::Ray& ray, float tMax) {
    std::size_t hits = 0;
    const auto ref = bruteForce(mesh, ray, tMax, hits);
    const auto got = bvh.raycast(ray, tMax);
    kz::fuzz::check(
        got.has_value() == ref.has_value() && (!got || sameHit(*got, *ref)),
        "MeshBvh::raycast differs from brute force for " + describe(ray, tMax) + ": " +
            (got ? "triangle " + std::to_string(got->triangle) + " t " + std::to_string(got->t) : "no hit") +
            " vs " +
            (ref ? "triangle " + std::to_string(ref->triangle) + " t " + std::to_string(ref->hit.t)
                 : "no hit"));
    const auto all = bvh.raycastAll(ray, tMax);
    kz::fuzz::check(all.size() == hits && (all.empty() || sameHit(all.front(), *ref)),
                    "MeshBvh::raycastAll lists " + std::to_string(all.size()) + " hits, brute force " +
                        std::to_string(hits) + ", for " + describe(ray, tMax));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string name = "fuzz.obj";
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string error;
    const auto mesh = kz::parseObj(text, name, error);
    if (!mesh) {
        kz::fuzz::checkErrorLine(error, name);
        return 0;
    }
    // obj.hpp's promise: finite vertices, whole triangles, indices in range, at least one.
    kz::fuzz::check(error.empty() && !mesh->indices.empty() && mesh->indices.size() % 3 == 0,
                    "parseObj accepted a mesh without whole triangles");
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& v : mesh->vertices) {
        kz::fuzz::check(kz::isFinite(v), "parseObj accepted a non-finite vertex");
        lo = glm::min(lo, glm::dvec3(v));
        hi = glm::max(hi, glm::dvec3(v));
    }
    for (const std::uint32_t index : mesh->indices)
        kz::fuzz::check(index < mesh->vertices.size(), "parseObj accepted an index out of range");

    const auto bvh = kz::MeshBvh::tryBuild(mesh->vertices, mesh->indices, error);
    kz::fuzz::check(bvh.has_value(), "MeshBvh rejects a mesh parseObj accepted: " + error);
    // Every SIMD path the machine has (simd_path.hpp) must answer exactly like brute force.
    static const std::vector<kz::SimdPath> paths = kz::supportedSimdPaths();
    Mix mix(text);
    for (int i = 0; i < kRays; ++i) {
        float tMax = INFINITY;
        const kz::Ray ray = aimedRay(*mesh, lo, hi, mix, tMax);
        for (const kz::SimdPath path : paths) {
            kz::useSimdPath(path);
            checkRay(*mesh, *bvh, ray, tMax);
        }
    }
    return 0;
}
