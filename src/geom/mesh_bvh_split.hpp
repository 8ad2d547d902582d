// MeshBvh's build, its split search (private to src/geom): the triangles' bounds while
// building (PrimRef), and how a node of the binary tree is split (findSplit: the top-down binned
// SAH, else the median). mesh_bvh_split.cpp holds the search, mesh_bvh_build.cpp the rest.
#pragma once

#include "mesh_bvh_simd.hpp"

#include <cfloat>
#include <cstdint>
#include <span>

namespace kz::detail {

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

/// How a binary node over [begin, end) is split (or not): children [begin, mid) and
/// [mid, end) with their bounds and the bounds of their (doubled) centroids.
struct Split {
    bool leaf = true;
    std::uint32_t mid = 0;
    Box bounds[2];
    Box centroids[2];
};

/// How to split prims [begin, end) (its triangles' bounds: `bounds`, of their doubled centroids:
/// `centroidBounds`) at depth `depth` of the binary tree: a leaf if it fits one block; else the
/// binned SAH, which either splits it or finds a leaf cheaper (a leaf holds at most
/// MeshBvh::kMaxLeafTriangles); else (the SAH could not split, or the tree is already deep) a leaf
/// if it fits one, or the median along the widest axis. (A leaf with more than
/// MeshBvh::kMaxLeafVertices distinct vertices is split at the median when it is laid out:
/// medianSplitAlongWidest.) `prims` is partitioned in place: each child covers a contiguous range.
Split findSplit(std::span<PrimRef> prims, std::uint32_t begin, std::uint32_t end, const Box& bounds,
                const Box& centroidBounds, int depth);

/// The median split of prims [begin, end) along the widest axis of their centroids, partitioned
/// in place.
Split medianSplitAlongWidest(std::span<PrimRef> prims, std::uint32_t begin, std::uint32_t end);

} // namespace kz::detail
