#include "mesh_bvh.hpp"

#include "detail.hpp"
#include "raycast.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#define KZ_MESH_BVH_SSE2 1
#else
#define KZ_MESH_BVH_SSE2 0
#endif

namespace kz {

namespace {

constexpr int kBins = 16;
constexpr std::uint32_t kMaxLeafSize = 4;
/// Deeper subtrees are split at the object median, so the binary tree has fewer than
/// kMaxSahDepth + 32 levels whatever the input (MeshBvh::kStackSize is sized from it).
constexpr int kMaxSahDepth = 64;

/// Every box is enlarged, per ray, by kBoxSlack * (largest |coordinate| of the ray origin and the
/// mesh), about 34 ulps of those coordinates. The watertight triangle test rounds the sheared
/// vertices by a few ulps of |vertex - origin|, so it may accept a ray passing just outside a
/// triangle's exact bounds (through a shared edge); the slack keeps such a triangle's boxes, and
/// keeps every box's entry t at or before the hits inside it. (The tests see slips below 1e-7.)
constexpr float kBoxSlack = 2e-6f;
constexpr float kBoxSlackAbsolute = 1e-30f;
/// Exit distances are scaled by 1 + 2 gamma(3), gamma(n) = n u / (1 - n u), u = 2^-24: the bound
/// on the slab test's own rounding (Ize, "Robust BVH Ray Traversal", JCGT 2013).
constexpr float kUnitRoundoff = std::numeric_limits<float>::epsilon() * 0.5f;
constexpr float kExitGrowth = 1.0f + 2.0f * (3.0f * kUnitRoundoff) / (1.0f - 3.0f * kUnitRoundoff);

// ---------------------------------------------------------------------------------------------
// Four floats at once: SSE2 (the x86-64 baseline) or plain loops with the same semantics lane by
// lane, so that results never depend on the backend.

#if KZ_MESH_BVH_SSE2
struct F4 {
    __m128 v;
};
inline F4 load4(const float* p) {
    return {_mm_load_ps(p)};
} // 16-byte aligned
inline F4 splat4(float x) {
    return {_mm_set1_ps(x)};
}
inline void store4(float* p, F4 a) {
    _mm_storeu_ps(p, a.v);
}
inline F4 operator+(F4 a, F4 b) {
    return {_mm_add_ps(a.v, b.v)};
}
inline F4 operator-(F4 a, F4 b) {
    return {_mm_sub_ps(a.v, b.v)};
}
inline F4 operator*(F4 a, F4 b) {
    return {_mm_mul_ps(a.v, b.v)};
}
/// a < b ? a : b per lane (b when either is NaN), as MINPS.
inline F4 min4(F4 a, F4 b) {
    return {_mm_min_ps(a.v, b.v)};
}
/// a > b ? a : b per lane (b when either is NaN), as MAXPS.
inline F4 max4(F4 a, F4 b) {
    return {_mm_max_ps(a.v, b.v)};
}
/// Bit i set when a[i] <= b[i] (false for NaN).
inline int lessEqualMask(F4 a, F4 b) {
    return _mm_movemask_ps(_mm_cmple_ps(a.v, b.v));
}
/// Lanes 0-2 of a, lane 3 zero.
inline F4 xyz4(F4 a) {
    return {_mm_and_ps(a.v, _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1)))};
}
/// Truncates lanes 0-2 (already clamped to [0, kBins - 1]) to ints.
inline void truncate3(F4 a, int (&out)[4]) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvttps_epi32(a.v));
}
#else
struct F4 {
    float v[4];
};
template <class Op>
inline F4 lanes(Op op) {
    F4 r;
    for (int i = 0; i < 4; ++i)
        r.v[i] = op(i);
    return r;
}
inline F4 load4(const float* p) {
    return lanes([&](int i) { return p[i]; });
}
inline F4 splat4(float x) {
    return lanes([&](int) { return x; });
}
inline void store4(float* p, F4 a) {
    std::memcpy(p, a.v, sizeof a.v);
}
inline F4 operator+(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] + b.v[i]; });
}
inline F4 operator-(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] - b.v[i]; });
}
inline F4 operator*(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] * b.v[i]; });
}
inline F4 min4(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] < b.v[i] ? a.v[i] : b.v[i]; });
}
inline F4 max4(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] > b.v[i] ? a.v[i] : b.v[i]; });
}
inline int lessEqualMask(F4 a, F4 b) {
    int mask = 0;
    for (int i = 0; i < 4; ++i)
        mask |= a.v[i] <= b.v[i] ? 1 << i : 0;
    return mask;
}
inline F4 xyz4(F4 a) {
    a.v[3] = 0.0f;
    return a;
}
inline void truncate3(F4 a, int (&out)[4]) {
    for (int i = 0; i < 3; ++i)
        out[i] = static_cast<int>(a.v[i]);
    out[3] = 0;
}
#endif

/// Starts loading the cache lines of [p, p + bytes): a ray that enters several children needs
/// them soon, and the loads then overlap.
inline void prefetch(const void* p, std::size_t bytes) {
    constexpr std::uintptr_t kLine = 64;
    const auto first = reinterpret_cast<std::uintptr_t>(p) & ~(kLine - 1);
    const auto last = reinterpret_cast<std::uintptr_t>(p) + bytes - 1;
    for (std::uintptr_t line = first; line <= last; line += kLine) {
#if KZ_MESH_BVH_SSE2
        _mm_prefetch(reinterpret_cast<const char*>(line), _MM_HINT_T0);
#elif defined(__GNUC__)
        __builtin_prefetch(reinterpret_cast<const void*>(line));
#endif
    }
}

inline float lane(F4 a, int i) {
    alignas(16) float f[4];
    store4(f, a);
    return f[i];
}

// ---------------------------------------------------------------------------------------------
// Ray side

/// The ray prepared for slab tests against boxes enlarged by `slack` (Kay-Kajiya; Ericson 5.3.3),
/// four boxes at a time, with the same operations per box as a one-box test. Moving the origin by
/// -/+ slack along each axis's direction sign is the same as moving the near/far planes outward,
/// so the enlargement costs nothing per node.
struct SlabRay {
    F4 invDir[3];
    F4 nearOrigin[3];
    F4 farOrigin[3];
    int nearRow[3]; ///< Row of Node::bounds holding the plane the ray enters by on each axis.
    int farRow[3];
    float tLimit; ///< min(tMax, FLT_MAX): a finite limit, so a box at +infinity (t0 = +inf) misses.

    SlabRay(const Ray& ray, float tMax, float slack) {
        tLimit = std::min(tMax, FLT_MAX);
        for (int i = 0; i < 3; ++i) {
            // A zero component gives an infinite inverse; the products below then are +-inf, or
            // NaN when the origin lies exactly on an enlarged plane. The comparisons in enter()
            // ignore a NaN, which keeps such a box (conservative).
            const float inv = 1.0f / ray.dir[i];
            const bool negative = std::signbit(inv);
            const float s = negative ? -slack : slack;
            invDir[i] = splat4(inv);
            nearOrigin[i] = splat4(ray.origin[i] + s);
            farOrigin[i] = splat4(ray.origin[i] - s);
            nearRow[i] = 2 * i + (negative ? 1 : 0);
            farRow[i] = 2 * i + (negative ? 0 : 1);
        }
    }

    /// Which of the (enlarged) boxes in slots group to group + 3 of the node the ray enters within
    /// [0, min(limit, tLimit)]: bit slot - group of the result; tEnter[slot] receives the entry
    /// distances. An empty slot's inverted box gives t0 = +inf, t1 = -inf on every axis, so it
    /// never enters.
    template <class Node, std::size_t N>
    int enter(const Node& node, int group, float limit, float (&tEnter)[N]) const {
        F4 t0 = splat4(0.0f);
        F4 t1 = splat4(std::min(limit, tLimit));
        for (int i = 0; i < 3; ++i) {
            const F4 tNear = (load4(node.bounds[nearRow[i]] + group) - nearOrigin[i]) * invDir[i];
            const F4 tFar =
                (load4(node.bounds[farRow[i]] + group) - farOrigin[i]) * invDir[i] * splat4(kExitGrowth);
            t0 = max4(tNear, t0); // a NaN tNear or tFar leaves the bound unchanged
            t1 = min4(tFar, t1);
        }
        store4(tEnter + group, t0);
        return lessEqualMask(t0, t1);
    }
};

/// raycastBarycentric with its per-ray work (validation, the shear's axes and constants, |dir|)
/// done once per ray instead of once per triangle, and its cheapest rejection (the signs of the
/// edge functions) first. Every value it computes uses the same operations in the same order, so
/// its hits are bit-identical to raycastBarycentric's (see the tests).
struct WatertightRay {
    glm::vec3 origin;
    glm::vec3 dir;
    float dirLength;
    float tMax;
    int ix, iy, iz;
    float sx, sy, sz;

    WatertightRay(const Ray& ray, float tMaxIn)
        : origin(ray.origin), dir(ray.dir), dirLength(glm::length(ray.dir)), tMax(tMaxIn) {
        const glm::vec3 absDir = glm::abs(ray.dir);
        iz = absDir.x > absDir.y ? (absDir.x > absDir.z ? 0 : 2) : (absDir.y > absDir.z ? 1 : 2);
        ix = (iz + 1) % 3;
        iy = (ix + 1) % 3;
        if (ray.dir[iz] < 0.0f) std::swap(ix, iy); // keep the winding
        sx = ray.dir[ix] / ray.dir[iz];
        sy = ray.dir[iy] / ray.dir[iz];
        sz = 1.0f / ray.dir[iz];
    }

    /// raycastBarycentric(ray, tri, tMax) for a ray that isValid and a tMax that validTMax.
    bool intersect(const Triangle& tri, TriangleHit& hit) const {
        const float az = tri.a[iz] - origin[iz], bz = tri.b[iz] - origin[iz], cz = tri.c[iz] - origin[iz];
        const float ax = (tri.a[ix] - origin[ix]) - sx * az, ay = (tri.a[iy] - origin[iy]) - sy * az;
        const float bx = (tri.b[ix] - origin[ix]) - sx * bz, by = (tri.b[iy] - origin[iy]) - sy * bz;
        const float cx = (tri.c[ix] - origin[ix]) - sx * cz, cy = (tri.c[iy] - origin[iy]) - sy * cz;

        float u = cx * by - cy * bx; // edge b-c: weight of a
        float v = ax * cy - ay * cx; // edge c-a: weight of b
        float w = bx * ay - by * ax; // edge a-b: weight of c
        if (u == 0.0f || v == 0.0f || w == 0.0f) [[unlikely]] {
            u = static_cast<float>(static_cast<double>(cx) * by - static_cast<double>(cy) * bx);
            v = static_cast<float>(static_cast<double>(ax) * cy - static_cast<double>(ay) * cx);
            w = static_cast<float>(static_cast<double>(bx) * ay - static_cast<double>(by) * ax);
        }
        if ((u < 0.0f || v < 0.0f || w < 0.0f) && (u > 0.0f || v > 0.0f || w > 0.0f)) return false;
        const float det = u + v + w;
        if (det == 0.0f) return false;

        // The ray crosses the triangle's edges: now raycastBarycentric's other rejections.
        if (!isFinite(tri.a) || !isFinite(tri.b) || !isFinite(tri.c)) return false;
        const glm::vec3 faceNormal = glm::cross(tri.b - tri.a, tri.c - tri.a);
        const float faceNormalLength = glm::length(faceNormal);
        if (!(faceNormalLength > 0.0f) || !std::isfinite(faceNormalLength)) return false;
        const float dirDotNormal = glm::dot(faceNormal, dir);
        if (std::abs(dirDotNormal) <= kParallelCosine * faceNormalLength * dirLength) return false;

        const float tScaled = u * (sz * az) + v * (sz * bz) + w * (sz * cz);
        if (det > 0.0f ? (tScaled < 0.0f || tScaled > tMax * det)
                       : (tScaled > 0.0f || tScaled < tMax * det)) {
            return false;
        }
        const float invDet = 1.0f / det;
        hit = {tScaled * invDet + 0.0f, v * invDet, w * invDet, faceNormal / faceNormalLength};
        if (dirDotNormal > 0.0f) hit.normal = -hit.normal;
        return std::isfinite(hit.t) && std::isfinite(hit.u) && std::isfinite(hit.v) && isFinite(hit.normal) &&
               hit.t <= tMax;
    }
};

float maxAbs(const glm::vec3& v) {
    return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)});
}

MeshHit toMeshHit(const Ray& ray, const TriangleHit& hit, std::uint32_t triangle) {
    return {hit.t + 0.0f,
            ray.origin + hit.t * ray.dir + glm::vec3(0.0f),
            hit.normal + glm::vec3(0.0f),
            triangle,
            hit.u + 0.0f,
            hit.v + 0.0f};
}

bool validRay(const Ray& ray, float tMax) {
    return isValid(ray) && detail::validTMax(tMax);
}

// ---------------------------------------------------------------------------------------------
// Build side

/// A box in lanes 0-2 (lane 3 is ignored).
struct Box {
    F4 lo = splat4(FLT_MAX);
    F4 hi = splat4(-FLT_MAX);

    void grow(F4 p) {
        lo = min4(lo, p);
        hi = max4(hi, p);
    }
    void grow(const Box& b) {
        lo = min4(lo, b.lo);
        hi = max4(hi, b.hi);
    }
    /// Half the surface area (the SAH only compares ratios); 0 for an empty box.
    float halfArea() const {
        alignas(16) float e[4];
        store4(e, max4(hi - lo, splat4(0.0f)));
        return e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
    }
};

/// One kept triangle while building: its bounds, and its index in the build input in lane 3 of
/// `lo` (masked off before any arithmetic).
struct alignas(16) PrimRef {
    float lo[3];
    std::uint32_t id;
    float hi[4];

    F4 lower() const { return xyz4(load4(lo)); }
    F4 upper() const { return load4(hi); }
    /// Twice the centroid of the bounds.
    F4 centroid2() const { return lower() + upper(); }
};

} // namespace

/// Top-down binned SAH (16 bins per axis) over the triangles' bounds and centroids; `prims` is
/// partitioned in place so that every node covers a contiguous range of it. The binary tree is
/// collapsed into kWidth-wide nodes as it is built (see fill).
struct MeshBvh::Builder {
    std::vector<PrimRef> prims;
    std::vector<Node> nodes;

    /// How a binary node over [begin, end) is split (or not): children [begin, mid) and
    /// [mid, end) with their bounds and the bounds of their (doubled) centroids.
    struct Split {
        bool leaf = true;
        std::uint32_t mid = 0;
        Box bounds[2];
        Box centroids[2];
    };

    /// Bins of lanes 0-2 of twice the centroid, each clamped to [0, kBins - 1] (a NaN to 0).
    struct Binner {
        F4 origin;
        F4 scale;
        void operator()(const PrimRef& p, int (&bin)[4]) const {
            const F4 x = (p.centroid2() - origin) * scale;
            truncate3(min4(max4(x, splat4(0.0f)), splat4(static_cast<float>(kBins - 1))), bin);
        }
    };

    Split findSplit(std::uint32_t begin, std::uint32_t end, const Box& centroidBounds, int depth) {
        Split split;
        const std::uint32_t count = end - begin;
        // Every node of at most kMaxLeafSize triangles is a leaf: testing them costs less than
        // visiting another node. (The SAH leaf test with a node cost of 3 triangle tests made the
        // same leaves on the benchmark's torus; skipping it halves the build's binning passes.)
        if (count <= kMaxLeafSize) return split;

        alignas(16) float extent[4];
        store4(extent, centroidBounds.hi - centroidBounds.lo);
        const int widest =
            extent[0] >= extent[1] ? (extent[0] >= extent[2] ? 0 : 2) : (extent[1] >= extent[2] ? 1 : 2);

        if (depth < kMaxSahDepth && extent[widest] > 0.0f) {
            alignas(16) float scale[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int a = 0; a < 3; ++a) {
                const float s = extent[a] > 0.0f ? static_cast<float>(kBins) * 0.99999f / extent[a] : 0.0f;
                scale[a] = std::min(s, FLT_MAX);
            }
            const Binner binOf{centroidBounds.lo, load4(scale)};

            // Bin the centroids on all three axes in one pass.
            std::array<std::array<Box, kBins>, 3> binBounds;
            std::array<std::array<std::uint32_t, kBins>, 3> binCounts{};
            for (std::uint32_t i = begin; i < end; ++i) {
                const PrimRef& p = prims[i];
                int bin[4];
                binOf(p, bin);
                Box b;
                b.lo = p.lower();
                b.hi = p.upper();
                for (std::size_t a = 0; a < 3; ++a) {
                    const auto k = static_cast<std::size_t>(bin[a]);
                    binBounds[a][k].grow(b);
                    ++binCounts[a][k];
                }
            }
            // Sweep: cost of splitting after bin k = A(left) N(left) + A(right) N(right), over the
            // non-empty bins only (a split after an empty bin repeats the one before it).
            float bestCost = INFINITY;
            int bestAxis = -1, bestBin = 0;
            for (std::size_t a = 0; a < 3; ++a) {
                if (!(extent[a] > 0.0f)) continue;
                const auto& bb = binBounds[a];
                const auto& bc = binCounts[a];
                std::array<std::size_t, kBins> used;
                std::size_t m = 0;
                for (std::size_t k = 0; k < kBins; ++k)
                    if (bc[k] > 0) used[m++] = k;
                if (m < 2) continue;
                std::array<float, kBins> rightCost;
                Box acc;
                std::uint32_t n = 0;
                for (std::size_t j = m - 1; j > 0; --j) {
                    acc.grow(bb[used[j]]);
                    n += bc[used[j]];
                    rightCost[j] = acc.halfArea() * static_cast<float>(n);
                }
                acc = Box{};
                n = 0;
                for (std::size_t j = 0; j + 1 < m; ++j) {
                    acc.grow(bb[used[j]]);
                    n += bc[used[j]];
                    const float cost = acc.halfArea() * static_cast<float>(n) + rightCost[j + 1];
                    if (cost < bestCost) {
                        bestCost = cost;
                        bestAxis = static_cast<int>(a);
                        bestBin = static_cast<int>(used[j]);
                    }
                }
            }
            if (bestAxis >= 0) {
                // The children's bounds are the unions of their bins, and the partition below
                // uses the same bins, so every triangle lies inside its node's box.
                for (std::size_t k = 0; k < kBins; ++k)
                    split.bounds[static_cast<int>(k) <= bestBin ? 0 : 1].grow(
                        binBounds[static_cast<std::size_t>(bestAxis)][k]);
                const auto axis = static_cast<std::size_t>(bestAxis);
                partition(begin, end, split, [&](const PrimRef& p) {
                    int bin[4];
                    binOf(p, bin);
                    return bin[axis] <= bestBin;
                });
                if (split.mid > begin && split.mid < end) {
                    split.leaf = false;
                    return split;
                }
                split = Split{};
            }
        }
        medianSplit(begin, end, widest, split);
        return split;
    }

    /// In-place partition of [begin, end) into the triangles `goesLeft` accepts, then the rest;
    /// sets split.mid and the children's centroid bounds.
    template <class GoesLeft>
    void partition(std::uint32_t begin, std::uint32_t end, Split& split, GoesLeft&& goesLeft) {
        std::uint32_t i = begin, j = end;
        for (;;) {
            while (i < j && goesLeft(prims[i])) {
                split.centroids[0].grow(prims[i].centroid2());
                ++i;
            }
            while (i < j && !goesLeft(prims[j - 1])) {
                split.centroids[1].grow(prims[j - 1].centroid2());
                --j;
            }
            if (i >= j) break;
            std::swap(prims[i], prims[j - 1]);
        }
        split.mid = i;
    }

    /// Splits [begin, end) in half by centroid along `axis` (used when the SAH cannot split,
    /// e.g. all centroids equal, or the tree is already deep).
    void medianSplit(std::uint32_t begin, std::uint32_t end, int axis, Split& split) {
        const std::uint32_t mid = begin + (end - begin) / 2;
        std::nth_element(prims.begin() + begin, prims.begin() + mid, prims.begin() + end,
                         [&](const PrimRef& a, const PrimRef& b) {
                             return a.lo[axis] + a.hi[axis] < b.lo[axis] + b.hi[axis];
                         });
        split = Split{};
        split.leaf = false;
        split.mid = mid;
        for (std::uint32_t i = begin; i < end; ++i) {
            const int side = i < mid ? 0 : 1;
            split.bounds[side].grow(Box{prims[i].lower(), prims[i].upper()});
            split.centroids[side].grow(prims[i].centroid2());
        }
    }

    void setSlot(std::uint32_t nodeIndex, int slot, const Box& box, std::uint32_t child,
                 std::uint32_t count) {
        Node& node = nodes[nodeIndex];
        for (int axis = 0; axis < 3; ++axis) {
            node.bounds[2 * axis][slot] = lane(box.lo, axis);
            node.bounds[2 * axis + 1][slot] = lane(box.hi, axis);
        }
        node.child[slot] = child;
        node.count[slot] = static_cast<std::uint8_t>(count);
    }

    std::uint32_t newNode() {
        Node node;
        for (std::size_t row = 0; row < 6; ++row)
            for (std::size_t s = 0; s < kWidth; ++s)
                node.bounds[row][s] = row % 2 == 0 ? INFINITY : -INFINITY;
        for (std::size_t s = 0; s < kWidth; ++s) {
            node.child[s] = kEmpty;
            node.count[s] = 0;
        }
        node.topology = 0;
        nodes.push_back(node);
        return static_cast<std::uint32_t>(nodes.size() - 1);
    }

    /// A binary node with its split decided (split.leaf: it is a leaf).
    struct Pending {
        std::uint32_t begin, end;
        Box bounds;
        int depth;
        Split split;
    };

    Pending child(const Pending& parent, int side) {
        const std::uint32_t begin = side == 0 ? parent.begin : parent.split.mid;
        const std::uint32_t end = side == 0 ? parent.split.mid : parent.end;
        const Box& bounds = parent.split.bounds[side];
        return {begin, end, bounds, parent.depth + 1,
                findSplit(begin, end, parent.split.centroids[side], parent.depth + 1)};
    }

    /// Builds the wide node `rootIndex` for the inner binary node `root`, and below it the rest
    /// of the tree. Each node takes the binary subtree reached by opening, from its binary root,
    /// the inner frontier node with the largest surface area until kWidth nodes are on the frontier
    /// (Wald et al., "Getting Rid of Packets", 2008; as Embree collapses its BVHs).
    void fill(std::uint32_t rootIndex, const Pending& root) {
        struct Work {
            std::uint32_t node;
            Pending binary;
        };
        std::vector<Work> work{{rootIndex, root}};
        while (!work.empty()) {
            const Work item = work.back();
            work.pop_back();

            // The subtree: local[0] is its root; `left` < 0 marks a frontier node.
            struct Local {
                Pending binary;
                int left = -1, right = -1;
            };
            std::array<Local, 2 * kWidth> local;
            std::array<int, kWidth> frontier{}; // in preorder
            local[0].binary = item.binary;
            int locals = 1, slots = 1;
            for (;;) {
                int widest = -1;
                float widestArea = -1.0f;
                for (int f = 0; f < slots; ++f) {
                    const Pending& b = local[frontier[f]].binary;
                    if (!b.split.leaf && b.bounds.halfArea() > widestArea) {
                        widest = f;
                        widestArea = b.bounds.halfArea();
                    }
                }
                if (widest < 0 || slots == kWidth) break;
                Local& open = local[frontier[widest]];
                open.left = locals++;
                open.right = locals++;
                local[open.left].binary = child(open.binary, 0);
                local[open.right].binary = child(open.binary, 1);
                // The opened node's children take its place: the frontier stays in preorder.
                for (int f = slots++; f > widest + 1; --f)
                    frontier[f] = frontier[f - 1];
                frontier[widest] = open.left;
                frontier[widest + 1] = open.right;
            }

            // The subtree's shape in preorder: 1 for an opened node, 0 for a frontier node.
            std::uint32_t topology = 0;
            int bit = 0;
            int stack[2 * kWidth];
            int top = 0;
            stack[top++] = 0;
            while (top > 0) {
                const Local& l = local[stack[--top]];
                if (l.left >= 0) {
                    topology |= 1u << bit;
                    stack[top++] = l.right;
                    stack[top++] = l.left;
                }
                ++bit;
            }
            nodes[item.node].topology = static_cast<std::uint16_t>(topology);

            // The frontier becomes the slots; inner nodes get wide nodes of their own, side by side.
            for (int f = 0; f < slots; ++f) {
                const Pending& b = local[frontier[f]].binary;
                if (b.split.leaf) {
                    setSlot(item.node, f, b.bounds, b.begin, b.end - b.begin);
                } else {
                    setSlot(item.node, f, b.bounds, newNode(), 0);
                }
            }
            for (int f = slots; f-- > 0;) {
                const Pending& b = local[frontier[f]].binary;
                if (!b.split.leaf) work.push_back({nodes[item.node].child[f], b});
            }
        }
    }
};

// ---------------------------------------------------------------------------------------------
// Build

std::optional<MeshBvh> MeshBvh::tryBuild(std::span<const glm::vec3> vertices,
                                         std::span<const std::uint32_t> indices, std::string& error) {
    if (indices.size() % 3 != 0) {
        error = "indices count " + std::to_string(indices.size()) + " is not a multiple of 3";
        return std::nullopt;
    }
    const std::size_t triangleCount = indices.size() / 3;
    if (triangleCount > std::numeric_limits<std::uint32_t>::max() / 2) {
        error = "too many triangles: " + std::to_string(triangleCount);
        return std::nullopt;
    }
    for (std::size_t i = 0; i < indices.size(); ++i) {
        if (indices[i] >= vertices.size()) {
            error = "index " + std::to_string(i) + " of triangle " + std::to_string(i / 3) + " is " +
                    std::to_string(indices[i]) + ", but there are " + std::to_string(vertices.size()) +
                    " vertices";
            return std::nullopt;
        }
    }
    error.clear();

    const auto triangleAt = [&](std::size_t t) {
        return Triangle{vertices[indices[3 * t]], vertices[indices[3 * t + 1]], vertices[indices[3 * t + 2]]};
    };
    MeshBvh bvh;
    Builder builder;
    builder.prims.reserve(triangleCount);
    Box all, allCentroids;
    for (std::size_t t = 0; t < triangleCount; ++t) {
        const Triangle tri = triangleAt(t);
        if (!isValid(tri)) continue; // zero area or non-finite: raycastBarycentric never hits it
        const glm::vec3 lo = glm::min(tri.a, glm::min(tri.b, tri.c));
        const glm::vec3 hi = glm::max(tri.a, glm::max(tri.b, tri.c));
        const PrimRef& p = builder.prims.emplace_back(
            PrimRef{{lo.x, lo.y, lo.z}, static_cast<std::uint32_t>(t), {hi.x, hi.y, hi.z, 0.0f}});
        all.grow(Box{p.lower(), p.upper()});
        allCentroids.grow(p.centroid2());
    }
    if (builder.prims.empty()) return bvh;

    const auto n = static_cast<std::uint32_t>(builder.prims.size());
    builder.nodes.reserve(n / kWidth + 1);
    const std::uint32_t root = builder.newNode();
    const Builder::Pending rootBinary{0, n, all, 0, builder.findSplit(0, n, allCentroids, 0)};
    if (rootBinary.split.leaf) {
        builder.setSlot(root, 0, all, 0, n); // topology 0: the root is slot 0
    } else {
        builder.fill(root, rootBinary);
    }

    // The triangles in leaf order.
    bvh.triangles_.resize(n);
    bvh.triIds_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t id = builder.prims[i].id;
        bvh.triangles_[i] = triangleAt(id);
        bvh.triIds_[i] = id;
    }
    bvh.nodes_ = std::move(builder.nodes);
    const glm::vec3 lo(lane(all.lo, 0), lane(all.lo, 1), lane(all.lo, 2));
    const glm::vec3 hi(lane(all.hi, 0), lane(all.hi, 1), lane(all.hi, 2));
    bvh.bounds_ = {lo, hi};
    bvh.coordinateScale_ = std::max(maxAbs(lo), maxAbs(hi));
    return bvh;
}

MeshBvh MeshBvh::build(std::span<const glm::vec3> vertices, std::span<const std::uint32_t> indices) {
    std::string error;
    auto bvh = tryBuild(vertices, indices, error);
    if (!bvh) throw std::invalid_argument(error);
    return std::move(*bvh);
}

Aabb MeshBvh::bounds() const {
    return bounds_;
}

// ---------------------------------------------------------------------------------------------
// The binary tree, read back from the wide nodes' topology

template <class Visit>
void MeshBvh::forEachBinaryNode(int maxLevel, Visit&& visit) const {
    if (nodes_.empty() || maxLevel < 0) return;
    // A binary node inside a wide node covers a run of its slots (its frontier in preorder); its
    // box is the union of theirs.
    const auto runBox = [](const Node& node, int first, int last) {
        Aabb box{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
        for (auto s = static_cast<std::size_t>(first); s < static_cast<std::size_t>(last); ++s) {
            box.min = glm::min(box.min, glm::vec3(node.bounds[0][s], node.bounds[2][s], node.bounds[4][s]));
            box.max = glm::max(box.max, glm::vec3(node.bounds[1][s], node.bounds[3][s], node.bounds[5][s]));
        }
        return box;
    };
    struct Pending {
        std::uint32_t node;
        int level; ///< Of the wide node's binary root.
    };
    std::vector<Pending> pending{{0u, 0}};
    while (!pending.empty()) {
        const Pending p = pending.back();
        pending.pop_back();
        const Node& node = nodes_[p.node];
        // The topology in preorder: each binary node's level and run of slots [first, last).
        struct Entry {
            int first, last, level;
            bool inner;
        };
        Entry entries[2 * kWidth];
        int open[kWidth]; // entries of inner nodes still missing a child
        int seen[kWidth]; // how many children each of them has so far
        int entryCount = 0, openCount = 0, slot = 0;
        for (int bit = 0;; ++bit) {
            const int level = openCount == 0 ? p.level : entries[open[openCount - 1]].level + 1;
            if ((node.topology >> bit) & 1u) {
                entries[entryCount] = {slot, slot, level, true};
                seen[openCount] = 0;
                open[openCount++] = entryCount++;
                continue;
            }
            entries[entryCount++] = {slot, slot + 1, level, false};
            ++slot;
            // Close every inner node whose second child this was.
            while (openCount > 0 && ++seen[openCount - 1] == 2)
                entries[open[--openCount]].last = slot;
            if (openCount == 0) break;
        }
        for (int e = 0; e < entryCount; ++e) {
            const Entry& entry = entries[e];
            if (entry.level > maxLevel) continue;
            const auto s = static_cast<std::size_t>(entry.first);
            if (entry.inner) {
                visit(runBox(node, entry.first, entry.last), entry.level, false);
            } else if (node.count[s] > 0) {
                visit(runBox(node, entry.first, entry.last), entry.level, true);
            } else {
                pending.push_back({node.child[s], entry.level}); // a wide node of its own
            }
        }
    }
}

std::vector<Aabb> MeshBvh::nodeBoxes(int maxDepth) const {
    std::vector<Aabb> boxes;
    forEachBinaryNode(maxDepth, [&](const Aabb& box, int, bool) { boxes.push_back(box); });
    return boxes;
}

int MeshBvh::depth() const {
    int deepest = 0;
    forEachBinaryNode(INT_MAX, [&](const Aabb&, int level, bool) { deepest = std::max(deepest, level + 1); });
    return deepest;
}

// ---------------------------------------------------------------------------------------------
// Queries

template <class VisitLeaf>
void MeshBvh::traverse(const Ray& ray, float tMax, VisitLeaf&& visitLeaf) const {
    const float slack = kBoxSlack * (maxAbs(ray.origin) + coordinateScale_) + kBoxSlackAbsolute;
    const SlabRay slab(ray, tMax, slack);

    /// A subtree (count 0: the node `index`) or a leaf (`count` triangles from `index`) entered
    /// at tEnter.
    struct Entry {
        std::uint32_t index;
        std::uint32_t count;
        float tEnter;
    };
    std::array<Entry, kStackSize> stack;
    int top = 0;
    float cull = INFINITY; // subtrees entered beyond this distance cannot improve the result

    Entry current{0, 0, 0.0f};
    for (;;) {
        if (current.count == 0) {
            const Node& node = nodes_[current.index];
            float tEnter[kWidth];
            int mask = 0;
            for (int group = 0; group < kWidth; group += 4)
                mask |= slab.enter(node, group, cull, tEnter) << group;
            if (mask != 0) {
                // Nearest child next; the others wait on the stack, the nearest of them on top.
                Entry hits[kWidth];
                int k = 0;
                for (; mask != 0; mask &= mask - 1) {
                    const auto slot = static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask)));
                    const Entry e{node.child[slot], node.count[slot], tEnter[slot]};
                    if (e.count == 0) {
                        prefetch(&nodes_[e.index], sizeof(Node));
                    } else {
                        prefetch(&triangles_[e.index], e.count * sizeof(Triangle));
                        prefetch(&triIds_[e.index], e.count * sizeof(std::uint32_t));
                    }
                    int j = k++;
                    for (; j > 0 && hits[j - 1].tEnter > e.tEnter; --j)
                        hits[j] = hits[j - 1];
                    hits[j] = e;
                }
                for (int j = k - 1; j > 0; --j)
                    stack[static_cast<std::size_t>(top++)] = hits[j];
                current = hits[0];
                continue;
            }
        } else {
            cull = visitLeaf(current.index, current.count);
        }
        // Pop the next subtree that may still hold a hit no farther than the best one.
        bool found = false;
        while (top > 0) {
            const Entry e = stack[static_cast<std::size_t>(--top)];
            if (e.tEnter <= cull) {
                current = e;
                found = true;
                break;
            }
        }
        if (!found) return;
    }
}

std::optional<MeshHit> MeshBvh::raycast(const Ray& ray, float tMax) const {
    if (nodes_.empty() || !validRay(ray, tMax)) return std::nullopt;
    const WatertightRay watertight(ray, tMax);
    TriangleHit best{INFINITY, 0.0f, 0.0f, glm::vec3(0.0f)};
    std::uint32_t bestId = std::numeric_limits<std::uint32_t>::max();
    traverse(ray, tMax, [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t i = first; i < first + count; ++i) {
            TriangleHit hit;
            // Nearest wins; on an exact tie the lower input index, as a brute-force loop would.
            if (watertight.intersect(triangles_[i], hit) &&
                (hit.t < best.t || (hit.t == best.t && triIds_[i] < bestId))) {
                best = hit;
                bestId = triIds_[i];
            }
        }
        return best.t;
    });
    if (bestId == std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
    const MeshHit hit = toMeshHit(ray, best, bestId);
    if (!isFinite(hit.point)) return std::nullopt; // origin + t dir overflowed
    return hit;
}

std::vector<MeshHit> MeshBvh::raycastAll(const Ray& ray, float tMax) const {
    std::vector<MeshHit> hits;
    if (nodes_.empty() || !validRay(ray, tMax)) return hits;
    const WatertightRay watertight(ray, tMax);
    traverse(ray, tMax, [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t i = first; i < first + count; ++i) {
            TriangleHit hit;
            if (!watertight.intersect(triangles_[i], hit)) continue;
            const MeshHit meshHit = toMeshHit(ray, hit, triIds_[i]);
            if (isFinite(meshHit.point)) hits.push_back(meshHit);
        }
        return INFINITY;
    });
    std::sort(hits.begin(), hits.end(), [](const MeshHit& a, const MeshHit& b) {
        return a.t < b.t || (a.t == b.t && a.triangle < b.triangle);
    });
    return hits;
}

} // namespace kz
