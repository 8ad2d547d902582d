// MeshBvh's ray traversal and queries as templates over the SIMD path's box test `Isa` (private to
// src/geom). Each path's translation unit instantiates them with its own Isa: mesh_bvh_query.cpp
// with detail::Sse2 (the baseline), mesh_bvh_avx2.cpp and mesh_bvh_avx512.cpp with theirs, with
// their target switched on around this header only (everything it uses from other headers is
// included before, for the baseline). The trace (MeshBvh::explainRaycast, mesh_bvh_explain.cpp)
// instantiates the same templates with its observer instead of NoTraversalObserver, whose empty
// hooks compile away, so the trace follows the very order and culling of the fast path.
//
// No lambdas here: a lambda's call operator would not take a target switched on by
// `#pragma clang attribute`; local classes do.
#pragma once

#include "mesh_bvh_dispatch.hpp"
#include "mesh_bvh_traverse.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace kz::detail {

/// The box test over a SlabSetup, V::kLanes boxes at a time (two groups of 4 on SSE2, one of 8
/// on AVX): every path runs the same operations on each box, so every path enters the same boxes
/// at the same t.
template <class V>
struct NodeRay {
    using T = typename V::T;
    T inv[3];
    T farInv[3];
    T nearOrigin[3];
    T farOrigin[3];
    int nearOffset[3];
    int farOffset[3];
    float tLimit;

    NodeRay(const Ray& ray, float tMax, float slack) {
        const SlabSetup setup(ray, tMax, slack, 8);
        tLimit = setup.tLimit;
#pragma GCC unroll 3
        for (int i = 0; i < 3; ++i) {
            inv[i] = V::splat(setup.inv[i]);
            farInv[i] = V::splat(setup.farInv[i]);
            nearOrigin[i] = V::splat(setup.nearOrigin[i]);
            farOrigin[i] = V::splat(setup.farOrigin[i]);
            nearOffset[i] = setup.nearOffset[i];
            farOffset[i] = setup.farOffset[i];
        }
    }

    /// Which of the node's (enlarged) boxes the ray enters within [0, min(limit, tLimit)]: bit
    /// `slot` of the result; tEnter[slot] receives the entry distances. An empty slot's inverted
    /// box gives t0 = +inf, t1 = -inf on every axis, so it never enters.
    template <class Node>
    [[gnu::always_inline]] int enter(const Node& node, float limit, float (&tEnter)[8]) const {
        int mask = 0;
#pragma GCC unroll 8
        for (std::uint32_t group = 0; group < 8; group += V::kLanes) {
            const float* planes = &node.bounds[0][0] + group;
            T t0 = V::splat(0.0f);
            T t1 = V::splat(std::min(limit, tLimit));
#pragma GCC unroll 8
            for (int i = 0; i < 3; ++i) {
                const T tNear = (V::load(planes + nearOffset[i]) - nearOrigin[i]) * inv[i];
                const T tFar = (V::load(planes + farOffset[i]) - farOrigin[i]) * farInv[i];
                t0 = V::max(tNear, t0); // a NaN tNear or tFar leaves the bound unchanged
                t1 = V::min(tFar, t1);
            }
            V::store(tEnter + group, t0);
            mask |= V::lessEqual(t0, t1) << group;
        }
        return mask;
    }
};

/// The leaf filter's bound on the error of its edge functions, in units of q (q + 2^-18 d) (see
/// leafCandidates), and its floor for inputs so small that float arithmetic loses its relative
/// precision (subnormal products).
inline constexpr float kFilterError = 0x1p-19f;
inline constexpr float kFilterDepthShare = 0x1p-18f;
inline constexpr float kFilterFloor = 0x1p-120f;

/// Bit `lane` for each of V::kLanes triangles of a leaf from triangle `first` that the ray may
/// hit: a conservative float version of the sign test that
/// WatertightRay::intersect starts with, its first and most frequent rejection. The edge functions
/// U, V, W are computed as WatertightRay::run computes them, in float instead of double, with
/// the shear constants rounded to float. A triangle is dropped only when one of them is below -E
/// and another above E, E bounding how far they can be from the exact values:
///   the sheared coordinates are off by at most 2u q + 4u d (u = 2^-24, q the largest |x|, |y| of
///   the triangle's sheared vertices, d the largest |z|; |sx|, |sy| <= 1), so an edge function
///   x y' - y x' is off by at most 4 q (2u q + 4u d) from them and 4u q^2 from its own roundings,
///   less than 16u q (q + d); q and d measured from the float values add terms of order u, and
///   the double arithmetic of the exact test is 2^29 times more precise. E = 2^-19 q' (q + d)
///   with q' = q + 2^-18 d covers all of it twice over, and kFilterFloor the absolute errors of
///   subnormal results (2^-149 an operation).
/// So where the filter sees signs that differ, so does the exact test, and the filter changes no
/// result. A NaN edge function counts as neither surely negative nor surely positive, and every
/// edge function counts as neither once a product in them overflows: E is then infinite too (an
/// edge function that overflows only in its subtraction is a sum of two huge terms of one sign,
/// whose sign is right).
template <class V>
[[gnu::always_inline]] inline int leafCandidates(const LeafSetup& s, const MeshLeafView& leaf,
                                                 std::uint32_t first) {
    using T = typename V::T;
    const T ox = V::splat(s.ox), oy = V::splat(s.oy), oz = V::splat(s.oz);
    const T sx = V::splat(s.sx), sy = V::splat(s.sy);
    const typename V::Row rowX = V::row(leaf.rows + s.ix * leaf.stride, leaf.stride);
    const typename V::Row rowY = V::row(leaf.rows + s.iy * leaf.stride, leaf.stride);
    const typename V::Row rowZ = V::row(leaf.rows + s.iz * leaf.stride, leaf.stride);
    // Corner k is a, b, c for k = 0, 1, 2 (WatertightRay::run's az, ax, ay, ...).
    T x[3], y[3], z[3];
#pragma GCC unroll 8
    for (std::uint32_t k = 0; k < 3; ++k) {
        const typename V::Corners c = V::corners(leaf.corners + k * leaf.cornerStride + first);
        z[k] = V::gather(rowZ, c) - oz;
        x[k] = (V::gather(rowX, c) - ox) - sx * z[k];
        y[k] = (V::gather(rowY, c) - oy) - sy * z[k];
    }
    const T u = x[2] * y[1] - y[2] * x[1]; // cx * by - cy * bx
    const T v = x[0] * y[2] - y[0] * x[2]; // ax * cy - ay * cx
    const T w = x[1] * y[0] - y[1] * x[0]; // bx * ay - by * ax
    const T q = V::max(V::max(V::max(V::abs(x[0]), V::abs(y[0])), V::max(V::abs(x[1]), V::abs(y[1]))),
                       V::max(V::abs(x[2]), V::abs(y[2])));
    const T d = V::max(V::max(V::abs(z[0]), V::abs(z[1])), V::abs(z[2]));
    // The scale last: when a product of the edge functions overflows, so does q' (q + d) >= q^2,
    // and the bound is infinite too.
    const T bound =
        (q + V::splat(kFilterDepthShare) * d) * (q + d) * V::splat(kFilterError) + V::splat(kFilterFloor);
    const T negativeBound = V::splat(0.0f) - bound;
    // The smallest and the largest edge function against the bound: fewer operations than each
    // against it. MINPS and MAXPS return their second operand when either is NaN, so a NaN in u
    // or v is passed over and one in w makes the result NaN, which compares false: the triangle
    // is dropped only when some edge function is surely negative and another surely positive,
    // never more often than by comparing each.
    const int negative = V::less(V::min(u, V::min(v, w)), negativeBound);
    const int positive = V::less(bound, V::max(u, V::max(v, w)));
    return ~(negative & positive);
}

/// Calls onCandidate.candidate(leaf, t) for each of the leaf's triangles t that leafCandidates
/// keeps, in order. `V` is the path's leaf filter vector (V::kLanes triangles at once).
template <class V, class OnCandidate>
[[gnu::always_inline]] inline void forEachLeafCandidate(const MeshLeafView& leaf, const LeafSetup& filter,
                                                        OnCandidate& onCandidate) {
    // Every block filtered first, their candidates gathered in one mask (bit t: triangle t), then
    // tested: one branch on the candidates a leaf, not one a block (which mispredicted often: the
    // camera workload's hitting rays took 3%-4% longer on the AVX2 and SSE2 paths, whose leaves
    // have two blocks or more), and the blocks' filters overlap. 64 bits: a leaf holds at most 32
    // triangles, and a shift by 32 must be defined.
    static_assert(MeshBvh::kMaxLeafTriangles <= 32 && V::kLanes <= 32);
    constexpr std::uint64_t kLaneBits = (std::uint64_t{1} << V::kLanes) - 1;
    std::uint64_t candidates = 0;
    for (std::uint32_t first = 0; first < leaf.count; first += V::kLanes) {
        const auto block = static_cast<std::uint32_t>(leafCandidates<V>(filter, leaf, first));
        candidates |= (block & kLaneBits) << first;
    }
    // Lanes past the leaf's count repeat its last triangle; the mask drops them.
    for (candidates &= (std::uint64_t{1} << leaf.count) - 1; candidates != 0; candidates &= candidates - 1)
        onCandidate.candidate(leaf, static_cast<std::uint32_t>(std::countr_zero(candidates)));
}

/// A child the traversal takes or keeps for later: a subtree (count 0: the node at reference
/// `index`) or a leaf (`count` triangles, at reference `index`) entered at tEnter.
struct TraversalEntry {
    std::uint32_t index;
    std::uint32_t count;
    float tEnter;
};

/// Starts loading a child's memory: the node `index` (count 0) and the 512 bytes after it, where
/// its first leaves lie (MeshBvh::tree_), or the first 256 bytes of the leaf `index` (most leaves;
/// the rest follow while they are tested). Every node entered is prefetched so, the nearest one
/// too: its leaves' loads then start with its own, before its boxes are tested.
template <std::size_t kNodeBytes, std::uint32_t kRefOffsetMask>
struct PrefetchChild {
    const std::uint32_t* tree;
    [[gnu::always_inline]] void operator()(std::uint32_t index, std::uint32_t count) const {
        const std::uint32_t* p = tree + 4 * static_cast<std::size_t>(index & kRefOffsetMask);
        if (count == 0) {
            prefetch<kNodeBytes + 512>(p);
        } else {
            prefetch<256>(p);
        }
    }
};

/// The traversal's stack of children still to visit, one array a field so that the AVX-512 path
/// pushes a node's children with vector stores. Every path's push writes kWidth entries from the
/// top: hence the extra room (kCapacity = MeshBvh::kStackSize + kWidth).
template <int kCapacity>
struct TraversalStack {
    std::uint32_t index[kCapacity];
    std::uint32_t count[kCapacity];
    float t[kCapacity];
    int top = 0;

    [[gnu::always_inline]] void push(std::uint32_t childIndex, std::uint32_t childCount, float tEnter) {
        index[top] = childIndex;
        count[top] = childCount;
        t[top++] = tEnter;
    }

    /// Pops into `next` the next child that may still hold a hit no farther than `cull`, telling
    /// `observer` which are dropped and which is entered; false when none is left.
    template <class Observer>
    [[gnu::always_inline]] bool popWithin(float cull, TraversalEntry& next, Observer& observer) {
        while (top > 0) {
            --top;
            const TraversalEntry e{index[top], count[top], t[top]};
            if (e.tEnter <= cull) {
                next = e;
                observer.entered(next.index, next.count, next.tEnter, cull);
                return true;
            }
            observer.skipped(e.index, e.count, e.tEnter, cull);
        }
        return false;
    }
};

/// The child to take next among those of `node` that the ray enters (bit `slot` of `mask`, at
/// least one), the others pushed on `stack` with their memory on its way. One child: straight to
/// it. Two, the most frequent case after one: the nearer by entry distance (the lower slot on a
/// tie), the other on the stack. Three or more: pushed from far to near in the order of the ray's
/// octant (Node::order), not sorted by their entry distances (a sort's branches cost more than
/// the order loses); the nearest in that order is taken, the memory of the one after it fetched.
template <class Isa, class Node, class Stack, class Prefetch>
[[gnu::always_inline]] inline TraversalEntry
takeEnteredChildren(const Node& node, int mask, const float (&tEnter)[8], const Ray& ray, Stack& stack,
                    const Prefetch& prefetchChild) {
    const auto first = static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask)));
    if ((mask & (mask - 1)) == 0) return {node.child[first], node.count[first], tEnter[first]};
    if (std::popcount(static_cast<unsigned>(mask)) == 2) {
        const auto second =
            static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask & (mask - 1))));
        const bool swap = tEnter[second] < tEnter[first];
        const std::size_t near = swap ? second : first;
        const std::size_t far = swap ? first : second;
        prefetchChild(node.child[far], node.count[far]);
        stack.push(node.child[far], node.count[far], tEnter[far]);
        return {node.child[near], node.count[near], tEnter[near]};
    }
    const int k = std::popcount(static_cast<unsigned>(mask));
    const int top = stack.top;
    Isa::pushFarToNear(node, mask, tEnter, octantOf(ray.dir), stack.index + top, stack.count + top,
                       stack.t + top);
    stack.top = top + k - 1;
    prefetchChild(stack.index[stack.top - 1], stack.count[stack.top - 1]);
    return {stack.index[stack.top], stack.count[stack.top], stack.t[stack.top]};
}

} // namespace kz::detail

namespace kz {

template <class Isa, class VisitLeaf, class Observer>
void MeshBvh::traverse(const Ray& ray, float tMax, VisitLeaf&& visitLeaf, Observer&& observer) const {
    const float slack =
        detail::kBoxSlack * (detail::maxAbs(ray.origin) + coordinateScale_) + detail::kBoxSlackAbsolute;
    const detail::NodeRay<typename Isa::BoxVec> slab(ray, tMax, slack);
    const detail::PrefetchChild<sizeof(Node), kRefOffsetMask> prefetchChild{tree_.data()};
    detail::TraversalStack<kStackSize + kWidth> stack;
    float cull = INFINITY; // subtrees entered beyond this distance cannot improve the result

    detail::TraversalEntry current{0, 0, 0.0f};
    for (;;) {
        if (current.count == 0) {
            const Node& node = this->node(current.index);
            float tEnter[kWidth];
            const int mask = slab.enter(node, cull, tEnter);
            observer.considered(node, current.index, slab, mask, tEnter, cull);
            if (mask != 0) {
                current = detail::takeEnteredChildren<Isa>(node, mask, tEnter, ray, stack, prefetchChild);
                if (current.count == 0) prefetchChild(current.index, 0);
                observer.entered(current.index, current.count, current.tEnter, cull);
                continue;
            }
        } else {
            cull = visitLeaf(current.index, current.count);
        }
        if (!stack.popWithin(cull, current, observer)) return;
    }
}

template <class Isa, class Observer>
std::optional<MeshHit> MeshBvh::nearestHit(const Ray& ray, float tMax, Observer&& observer) const {
    if (tree_.empty() || !detail::validMeshRay(ray, tMax)) return std::nullopt;

    /// Tests a leaf's triangles; returns the best hit's t.
    struct NearestInLeaf {
        const MeshBvh& bvh;
        Observer& observer;
        detail::LeafRay ray;
        TriangleHit best{INFINITY, 0.0f, 0.0f, glm::vec3(0.0f)};
        std::uint32_t bestId = std::numeric_limits<std::uint32_t>::max();

        std::uint32_t leafIndex = 0; ///< The leaf being tested (its first block), for the observer.

        float operator()(std::uint32_t index, std::uint32_t count) {
            observer.leaf(index, count, best.t);
            leafIndex = index;
            detail::forEachLeafCandidate<typename Isa::LeafVec>(bvh.leaf(index, count), ray.filter(), *this);
            return best.t;
        }

        void candidate(const LeafView& leaf, std::uint32_t t) {
            TriangleHit hit;
            // Nearest wins; on an exact tie the lower input index, as a brute-force loop would.
            if (ray.watertight().intersectValid(leaf.vertex(t, 0), leaf.vertex(t, 1), leaf.vertex(t, 2),
                                                leaf.stride, hit) &&
                (hit.t < best.t || (hit.t == best.t && leaf.ids[t] < bestId))) {
                observer.newBest(leafIndex, leaf.ids[t], hit.t, best.t);
                best = hit;
                bestId = leaf.ids[t];
            }
        }
    };
    NearestInLeaf visit{*this, observer, detail::LeafRay(ray, tMax)};
    traverse<Isa>(ray, tMax, visit, observer);
    if (visit.bestId == std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
    const MeshHit hit = detail::toMeshHit(ray, visit.best, visit.bestId);
    if (!isFinite(hit.point)) return std::nullopt; // origin + t dir overflowed
    return hit;
}

template <class Isa>
void MeshBvh::allHits(const Ray& ray, float tMax, std::vector<MeshHit>& hits) const {
    if (tree_.empty() || !detail::validMeshRay(ray, tMax)) return;

    /// Collects a leaf's hits; returns infinity (every leaf the ray enters is visited).
    struct AllInLeaf {
        const MeshBvh& bvh;
        std::vector<MeshHit>& hits;
        detail::LeafRay ray;

        float operator()(std::uint32_t index, std::uint32_t count) {
            detail::forEachLeafCandidate<typename Isa::LeafVec>(bvh.leaf(index, count), ray.filter(), *this);
            return INFINITY;
        }

        void candidate(const LeafView& leaf, std::uint32_t t) {
            TriangleHit hit;
            if (!ray.watertight().intersectValid(leaf.vertex(t, 0), leaf.vertex(t, 1), leaf.vertex(t, 2),
                                                 leaf.stride, hit))
                return;
            const MeshHit meshHit = detail::toMeshHit(ray.ray(), hit, leaf.ids[t]);
            if (isFinite(meshHit.point)) hits.push_back(meshHit);
        }
    };
    AllInLeaf visit{*this, hits, detail::LeafRay(ray, tMax)};
    traverse<Isa>(ray, tMax, visit, detail::NoTraversalObserver{});
}

namespace detail {

/// The queries of one SIMD path, as the dispatch table's function pointers.
struct MeshBvhKernels {
    template <class Isa>
    static std::optional<MeshHit> raycast(const MeshBvh& bvh, const Ray& ray, float tMax) {
        return bvh.nearestHit<Isa>(ray, tMax, NoTraversalObserver{});
    }
    template <class Isa>
    static void raycastAll(const MeshBvh& bvh, const Ray& ray, float tMax, std::vector<MeshHit>& hits) {
        bvh.allHits<Isa>(ray, tMax, hits);
    }
    template <class Isa>
    static constexpr MeshKernels table() {
        return {&raycast<Isa>, &raycastAll<Isa>};
    }
};

} // namespace detail
} // namespace kz
