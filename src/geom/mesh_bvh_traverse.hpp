// MeshBvh's ray traversal and nearest-hit search (private to src/geom), shared by the fast
// queries (mesh_bvh_query.cpp) and their trace (MeshBvh::explainRaycast, mesh_bvh_explain.cpp):
// both instantiate the same templates, the fast ones with NoTraversalObserver, whose empty hooks
// compile away, so the trace follows the very order and culling of the fast path.
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

namespace kz {

template <class VisitLeaf, class Observer>
void MeshBvh::traverse(const Ray& ray, float tMax, VisitLeaf&& visitLeaf, Observer&& observer) const {
    const float slack =
        detail::kBoxSlack * (detail::maxAbs(ray.origin) + coordinateScale_) + detail::kBoxSlackAbsolute;
    const detail::SlabRay slab(ray, tMax, slack);

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
            observer.considered(node, current.index, slab, mask, tEnter, cull);
            if (mask != 0) {
                // Nearest child next; the others wait on the stack, the nearest of them on top.
                Entry hits[kWidth];
                int k = 0;
                for (; mask != 0; mask &= mask - 1) {
                    const auto slot = static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask)));
                    const Entry e{node.child[slot], node.count[slot], tEnter[slot]};
                    if (e.count == 0) {
                        detail::prefetch(&nodes_[e.index], sizeof(Node));
                    } else {
                        detail::prefetch(&triangles_[e.index], e.count * sizeof(Triangle));
                        detail::prefetch(&triIds_[e.index], e.count * sizeof(std::uint32_t));
                    }
                    int j = k++;
                    for (; j > 0 && hits[j - 1].tEnter > e.tEnter; --j)
                        hits[j] = hits[j - 1];
                    hits[j] = e;
                }
                for (int j = k - 1; j > 0; --j)
                    stack[static_cast<std::size_t>(top++)] = hits[j];
                current = hits[0];
                observer.entered(current.index, current.count, current.tEnter, cull);
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
                observer.entered(current.index, current.count, current.tEnter, cull);
                break;
            }
            observer.skipped(e.index, e.count, e.tEnter, cull);
        }
        if (!found) return;
    }
}

template <class Observer>
std::optional<MeshHit> MeshBvh::nearestHit(const Ray& ray, float tMax, Observer&& observer) const {
    if (nodes_.empty() || !detail::validMeshRay(ray, tMax)) return std::nullopt;
    const detail::WatertightRay watertight(ray, tMax);
    TriangleHit best{INFINITY, 0.0f, 0.0f, glm::vec3(0.0f)};
    std::uint32_t bestId = std::numeric_limits<std::uint32_t>::max();
    traverse(
        ray, tMax,
        [&](std::uint32_t first, std::uint32_t count) {
            observer.leaf(first, count, best.t);
            for (std::uint32_t i = first; i < first + count; ++i) {
                TriangleHit hit;
                // Nearest wins; on an exact tie the lower input index, as a brute-force loop would.
                if (watertight.intersect(triangles_[i], hit) &&
                    (hit.t < best.t || (hit.t == best.t && triIds_[i] < bestId))) {
                    observer.newBest(first, triIds_[i], hit.t, best.t);
                    best = hit;
                    bestId = triIds_[i];
                }
            }
            return best.t;
        },
        observer);
    if (bestId == std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
    const MeshHit hit = detail::toMeshHit(ray, best, bestId);
    if (!isFinite(hit.point)) return std::nullopt; // origin + t dir overflowed
    return hit;
}

} // namespace kz
