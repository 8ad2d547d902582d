// MeshBvh::explainRaycast: raycast's own search (MeshBvh::nearestHit, mesh_bvh_kernel.hpp) run
// with an observer that writes every step of the traversal as a BvhEvent (explain_ray.hpp). It
// runs the SSE2 path's box test, whose entries and distances every path shares bit for bit.
#include "explain_ray.hpp"
#include "mesh_bvh_kernel.hpp"

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace kz {

/// Records the traversal's events. Every child of a visited node is considered once: culled or
/// skipped at once by the parent's test, or later entered or skipped when the stack pops it.
struct MeshBvh::ExplainObserver {
    /// What the trace remembers of a child between its parent's test and its own event.
    struct Child {
        int depth; ///< Levels below the root.
        Aabb box;  ///< The child's box as stored.
    };

    const MeshBvh& bvh;
    MeshRayTrace& trace;
    std::unordered_map<std::uint64_t, Child> children; ///< By childKey.

    /// A node and a leaf never share a place in the tree; the key says which it is all the same.
    static std::uint64_t childKey(bool isLeaf, std::uint32_t index) {
        return (static_cast<std::uint64_t>(isLeaf) << 32) | index;
    }

    Child child(bool isLeaf, std::uint32_t index) const {
        const auto it = children.find(childKey(isLeaf, index));
        return it != children.end() ? it->second : Child{0, bvh.bounds_}; // the root has no parent
    }

    /// The event shows a leaf by where it lies in the tree (its reference without the stride).
    BvhEvent event(BvhEventKind kind, bool isLeaf, std::uint32_t index, float t, float bestT) const {
        const Child c = child(isLeaf, index);
        return {kind, isLeaf, isLeaf ? index & kRefOffsetMask : index, c.depth, t, bestT, c.box, 0, {}};
    }

    /// The children of the node `index` were tested: those outside the mask are culled (no entry
    /// within [0, tMax]) or skipped (entered, but beyond the best hit); the test is repeated
    /// without the best-hit limit to tell the two apart.
    template <class NodeRay>
    void considered(const Node& node, std::uint32_t index, const NodeRay& slab, int mask,
                    const float (&)[kWidth], float cull) {
        const int depth = child(false, index).depth + 1;
        float tEnter[kWidth];
        const int reached = slab.enter(node, INFINITY, tEnter);
        for (std::size_t s = 0; s < kWidth; ++s) {
            if (node.child[s] == kEmpty) continue;
            const bool isLeaf = node.count[s] != 0;
            const Aabb box{{node.bounds[0][s], node.bounds[2][s], node.bounds[4][s]},
                           {node.bounds[1][s], node.bounds[3][s], node.bounds[5][s]}};
            children[childKey(isLeaf, node.child[s])] = {depth, box};
            ++trace.totals.childrenConsidered;
            const int bit = 1 << s;
            if ((mask & bit) != 0) continue; // entered or skipped when its turn comes
            if ((reached & bit) != 0) {
                trace.events.push_back(event(BvhEventKind::Skipped, isLeaf, node.child[s], tEnter[s], cull));
                ++trace.totals.skipped;
            } else {
                trace.events.push_back(event(BvhEventKind::Culled, isLeaf, node.child[s], 0.0f, cull));
                ++trace.totals.culled;
            }
        }
    }

    void entered(std::uint32_t index, std::uint32_t count, float tEnter, float cull) {
        trace.events.push_back(event(BvhEventKind::Entered, count != 0, index, tEnter, cull));
        ++trace.totals.entered;
    }

    void skipped(std::uint32_t index, std::uint32_t count, float tEnter, float cull) {
        trace.events.push_back(event(BvhEventKind::Skipped, count != 0, index, tEnter, cull));
        ++trace.totals.skipped;
    }

    void leaf(std::uint32_t leafIndex, std::uint32_t count, float bestT) {
        BvhEvent e = event(BvhEventKind::LeafTested, true, leafIndex, 0.0f, bestT);
        e.triangleCount = count;
        const LeafView view = bvh.leaf(leafIndex, count);
        for (std::uint32_t i = 0; i < count && i < e.triangles.size(); ++i)
            e.triangles[i] = view.ids[i];
        trace.events.push_back(e);
        ++trace.totals.leavesTested;
        trace.totals.trianglesTested += static_cast<int>(count);
    }

    void newBest(std::uint32_t leafIndex, std::uint32_t triangle, float t, float previousBest) {
        BvhEvent e = event(BvhEventKind::NewBestHit, true, leafIndex, t, previousBest);
        e.triangleCount = 1;
        e.triangles[0] = triangle;
        trace.events.push_back(e);
        ++trace.totals.newBestHits;
    }
};

MeshRayTrace MeshBvh::explainRaycast(const Ray& ray, float tMax) const {
    MeshRayTrace trace{};
    trace.validInput = !tree_.empty() && detail::validMeshRay(ray, tMax);
    if (!trace.validInput) return trace;
    ExplainObserver observer{*this, trace, {}};
    trace.hit = nearestHit<detail::Sse2>(ray, tMax, observer);
    return trace;
}

} // namespace kz
