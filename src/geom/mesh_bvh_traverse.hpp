// What every SIMD path of MeshBvh's ray queries shares (private to src/geom): the box slack, the
// per-ray set-ups of the box test (SlabSetup) and the leaf filter (LeafSetup), the SSE2 path's
// vector (detail::Sse2, the baseline path's Isa), the hit conversion and the observer of the fast
// queries. The traversal itself is in mesh_bvh_kernel.hpp. Nothing here
// depends on the path, so the AVX translation units include this header before switching their
// target on, and this code is compiled for the baseline only.
#pragma once

#include "detail.hpp"
#include "mesh_bvh.hpp"
#include "mesh_bvh_simd.hpp"
#include "raycast.hpp"
#include "watertight_ray.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cstdint>
#include <limits>
#include <optional>

namespace kz::detail {

/// Every box is enlarged, per ray, by kBoxSlack * (largest |coordinate| of the ray origin and the
/// mesh), about 34 ulps of those coordinates. The watertight triangle test (in double) may accept
/// a ray passing a tiny fraction of an ulp outside a triangle's exact bounds (through a shared
/// edge); the slack keeps such a triangle's boxes, and keeps every box's entry t at or before the
/// hits inside it.
inline constexpr float kBoxSlack = 2e-6f;
inline constexpr float kBoxSlackAbsolute = 1e-30f;
/// Exit distances are scaled by 1 + 2 gamma(3), gamma(n) = n u / (1 - n u), u = 2^-24: the bound
/// on the slab test's own rounding (Ize, "Robust BVH Ray Traversal", JCGT 2013).
inline constexpr float kUnitRoundoff = std::numeric_limits<float>::epsilon() * 0.5f;
inline constexpr float kExitGrowth = 1.0f + 2.0f * (3.0f * kUnitRoundoff) / (1.0f - 3.0f * kUnitRoundoff);

/// The SSE2 path's vector of four floats for the box test: F4 (mesh_bvh_simd.hpp).
struct Sse2Vec {
    using T = F4;
    static constexpr std::uint32_t kLanes = 4;
    static T load(const float* p) { return load4(p); }
    static void store(float* p, T a) { store4(p, a); }
    static T splat(float x) { return splat4(x); }
    static T max(T a, T b) { return max4(a, b); }
    static T min(T a, T b) { return min4(a, b); }
    static int lessEqual(T a, T b) { return lessEqualMask(a, b); }
};

/// The SSE2 path's vector of four floats for the leaf filter (leafCandidates, mesh_bvh_kernel.hpp):
/// four triangles of a leaf at a time. Every path's vector has this API: a leaf's row of one
/// coordinate of its vertices made ready (row), the corner indices of kLanes triangles (corners),
/// and each one's coordinate picked from the row (gather).
struct Sse2LeafVec {
    using T = F4;
    static constexpr std::uint32_t kLanes = 4;
    /// SSE2 has no variable shuffle: the lanes are loaded one by one.
    using Row = const float*;
    using Corners = const std::uint8_t*;
    /// `p`: the row's `stride` floats (MeshBvh::LeafView::rows).
    static Row row(const float* p, std::uint32_t) { return p; }
    /// `p`: kLanes corner indices.
    static Corners corners(const std::uint8_t* p) { return p; }
    static T gather(Row row, Corners c) { return set4(row[c[0]], row[c[1]], row[c[2]], row[c[3]]); }
    static T splat(float x) { return splat4(x); }
    static T abs(T a) { return abs4(a); }
    static T max(T a, T b) { return max4(a, b); }
    static T min(T a, T b) { return min4(a, b); }
    /// Bit i set when a[i] < b[i] (false for NaN).
    static int less(T a, T b) { return lessMask(a, b); }
};

/// The ray prepared for slab tests against boxes enlarged by `slack` (Kay-Kajiya; Ericson 5.3.3),
/// per axis: the plane rows it enters and leaves by, and the constants of
/// tNear = (near plane - nearOrigin) * inv and tFar = (far plane - farOrigin) * farInv. Moving the
/// origin by -/+ slack along each axis's direction sign is the same as moving the near/far planes
/// outward, so the enlargement costs nothing per node; farInv = inv * kExitGrowth scales the exit
/// distances up by the bound on the test's rounding (four roundings on either side, as when the
/// growth multiplies tFar). Every path (SSE2, AVX2, AVX-512) broadcasts these and runs the same
/// operations, so every path enters the same boxes at the same t.
struct SlabSetup {
    float inv[3];
    float farInv[3];
    float nearOrigin[3];
    float farOrigin[3];
    /// Offset in floats from Node::bounds[0] of the row holding the plane the ray enters
    /// (leaves) by on each axis: row * kWidth.
    int nearOffset[3];
    int farOffset[3];
    float tLimit; ///< min(tMax, FLT_MAX): a finite limit, so a box at +infinity (t0 = +inf) misses.

    SlabSetup(const Ray& ray, float tMax, float slack, int width) {
        tLimit = std::min(tMax, FLT_MAX);
        const float origin[3] = {ray.origin.x, ray.origin.y, ray.origin.z}; // not glm's switch
        const float dir[3] = {ray.dir.x, ray.dir.y, ray.dir.z};
        // This loop, NodeRay's and LeafSetup's are unrolled: as loops they made a query's fixed
        // cost 35 ns instead of 25 ns (rays missing the root box of bench_mesh's torus, AVX-512).
#pragma GCC unroll 3
        for (int i = 0; i < 3; ++i) {
            // A zero component gives an infinite inverse; the products then are +-inf, or NaN
            // when the origin lies exactly on an enlarged plane. The comparisons of the box test
            // ignore a NaN, which keeps such a box (conservative).
            inv[i] = 1.0f / dir[i];
            farInv[i] = inv[i] * kExitGrowth;
            // Without branches: GCC made branches of selects on the sign, which a random ray's
            // direction mispredicts half the time (a ray missing the mesh's box took 41 ns
            // instead of 26, AVX-512).
            const int negative = std::signbit(inv[i]) ? 1 : 0;
            const float s = std::copysign(slack, inv[i]);
            nearOrigin[i] = origin[i] + s;
            farOrigin[i] = origin[i] - s;
            nearOffset[i] = (2 * i + negative) * width;
            farOffset[i] = (2 * i + 1 - negative) * width;
        }
    }
};

/// The octant of a direction (bit 0: x negative, bit 1: y, bit 2: z; by the sign bits, so -0 counts
/// as negative), without branches: which octant a random ray has is unpredictable.
inline int octantOf(const glm::vec3& dir) {
    return static_cast<int>(std::bit_cast<std::uint32_t>(dir.x) >> 31) |
           static_cast<int>(std::bit_cast<std::uint32_t>(dir.y) >> 31 << 1) |
           static_cast<int>(std::bit_cast<std::uint32_t>(dir.z) >> 31 << 2);
}

/// Node::order for a ray in `octant`, from far to near: the row of octant 7 - octant (near to far
/// for it is far to near for this one), or this octant's own row reversed when 7 - octant has
/// none (octants 0-3). `reversed`: positions are then read from 7 down to 0.
template <class Node>
[[gnu::always_inline]] inline std::uint32_t farToNearRow(const Node& node, int octant, bool& reversed) {
    reversed = octant < 4;
    const std::uint8_t* row = node.order[reversed ? octant : 7 - octant];
    return static_cast<std::uint32_t>(row[0]) | static_cast<std::uint32_t>(row[1]) << 8 |
           static_cast<std::uint32_t>(row[2]) << 16;
}

/// Writes the children of `node` that the ray enters (bit `slot` of `mask`) from far to near in
/// the order of the ray's octant (Node::order): their references, counts and entry distances to
/// index[0..k), count[0..k), t[0..k), k = popcount(mask). Without branches: all kWidth entries are
/// written, those at k and beyond being leftovers that the caller does not read.
template <class Node>
[[gnu::always_inline]] inline void pushFarToNearScalar(const Node& node, int mask, const float (&tEnter)[8],
                                                       int octant, std::uint32_t* index, std::uint32_t* count,
                                                       float* t) {
    bool reversed = false;
    const std::uint32_t row = farToNearRow(node, octant, reversed);
    std::uint32_t n = 0;
#pragma GCC unroll 8
    for (std::uint32_t p = 0; p < 8; ++p) {
        const std::uint32_t slot = (row >> (3 * (reversed ? 7 - p : p))) & 7u;
        index[n] = node.child[slot];
        count[n] = node.count[slot];
        t[n] = tEnter[slot];
        n += (static_cast<std::uint32_t>(mask) >> slot) & 1u;
    }
}

/// The push of a path without a vector version of it (SSE2, AVX2): pushFarToNearScalar.
struct ScalarPush {
    template <class Node>
    [[gnu::always_inline]] static void pushFarToNear(const Node& node, int mask, const float (&tEnter)[8],
                                                     int octant, std::uint32_t* index, std::uint32_t* count,
                                                     float* t) {
        pushFarToNearScalar(node, mask, tEnter, octant, index, count, t);
    }
};

/// The SSE2 path: a node's eight boxes tested in two groups of four (the NodeRay of
/// mesh_bvh_kernel.hpp over Sse2Vec), a leaf's triangles filtered a block of four at a time, the
/// entered children pushed in order one by one.
struct Sse2 : ScalarPush {
    using BoxVec = Sse2Vec;
    using LeafVec = Sse2LeafVec;
};

/// The ray prepared for the leaf filter (leafCandidates, mesh_bvh_kernel.hpp): the watertight
/// test's shear frame, its constants in float, and where each vertex's coordinates on its axes sit
/// in a leaf.
struct LeafSetup {
    /// The shear frame's axes (WatertightRay's): the leaf rows the filter reads.
    std::uint32_t ix, iy, iz;
    float ox, oy, oz; ///< The origin's coordinates on those axes (WatertightRay's, which are floats).
    float sx, sy;     ///< WatertightRay's dir[ix] / dir[iz], dir[iy] / dir[iz], rounded to float.

    explicit LeafSetup(const WatertightRay& w)
        : ix(static_cast<std::uint32_t>(w.ix)), iy(static_cast<std::uint32_t>(w.iy)),
          iz(static_cast<std::uint32_t>(w.iz)), ox(static_cast<float>(w.ox)), oy(static_cast<float>(w.oy)),
          oz(static_cast<float>(w.oz)), sx(static_cast<float>(w.sx)), sy(static_cast<float>(w.sy)) {}
};

/// The ray prepared for a leaf's triangles: the watertight test's set-up (in double, with three
/// divisions) and the leaf filter's, made at the first leaf the ray reaches, so a ray that reaches
/// no leaf (one that misses the mesh's box, or passes between its leaves' boxes) never pays for
/// them. The set-ups are the same whenever they are made, so the results are too.
class LeafRay {
public:
    LeafRay(const Ray& ray, float tMax) : ray_(ray), tMax_(tMax) {}

    const Ray& ray() const { return ray_; }
    /// The watertight test's set-up, once filter() has made it (every candidate triangle comes
    /// from the filter).
    const WatertightRay& watertight() const { return prepared_->watertight; }
    /// The leaf filter's set-up; the first call makes both set-ups.
    const LeafSetup& filter() {
        if (!prepared_) prepared_.emplace(ray_, tMax_);
        return prepared_->filter;
    }

private:
    /// Both set-ups, made together (the filter's from the watertight test's).
    struct Prepared {
        WatertightRay watertight;
        LeafSetup filter;
        Prepared(const Ray& ray, float tMax) : watertight(ray, tMax), filter(watertight) {}
    };

    const Ray& ray_;
    float tMax_;
    std::optional<Prepared> prepared_;
};

inline MeshHit toMeshHit(const Ray& ray, const TriangleHit& hit, std::uint32_t triangle) {
    return {hit.t + 0.0f,
            ray.origin + hit.t * ray.dir + glm::vec3(0.0f),
            hit.normal + glm::vec3(0.0f),
            triangle,
            hit.u + 0.0f,
            hit.v + 0.0f};
}

/// A ray and tMax the mesh queries accept.
inline bool validMeshRay(const Ray& ray, float tMax) {
    return isValid(ray) && detail::validTMax(tMax);
}

/// The observer of the fast queries: every hook does nothing.
struct NoTraversalObserver {
    /// After a node's children were slab-tested: `mask` has a bit per child entered before `cull`.
    template <class... Args>
    void considered(const Args&...) const {}
    /// A child (count 0: the inner node `index`; else a leaf of `count` triangles from `index`) is
    /// taken at its entry distance.
    template <class... Args>
    void entered(const Args&...) const {}
    /// A child popped from the stack starts beyond the best hit: dropped.
    template <class... Args>
    void skipped(const Args&...) const {}
    /// A leaf's triangles are about to be tested.
    template <class... Args>
    void leaf(const Args&...) const {}
    /// A triangle of the leaf just tested is the nearest hit so far.
    template <class... Args>
    void newBest(const Args&...) const {}
};

} // namespace kz::detail
