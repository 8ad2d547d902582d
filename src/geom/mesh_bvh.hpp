// Triangle meshes: a bounding volume hierarchy (BVH) answering exact ray queries, to the triangle.
//
// Same meaning as every raycast in Kolize (see raycast.hpp): t in units of dir, 0 <= t <= tMax,
// no NaN ever, an invalid ray or tMax returns no hit. A mesh is a surface, not a solid: triangles
// are two-sided, a ray starting inside a closed mesh hits its far wall at t > 0, and the normal
// faces the ray origin. Each triangle is tested exactly as raycastBarycentric tests it
// (watertight, Woop et al. 2013) and the box tests are conservative, so the results are exactly
// those of a brute-force loop over all triangles (nearest t; on a tie the lower triangle index)
// and a ray through an edge or a vertex shared by triangles of a watertight mesh never slips
// through.
//
// The tree: binned surface area heuristic (Wald, "On fast Construction of SAH-based Bounding
// Volume Hierarchies", 2007; 16 bins per axis on the centroid bounds), counting triangles in
// blocks of 4 as Embree does: a node of up to 4 triangles is a leaf, and a larger one too when
// testing its blocks costs no more than the cheapest split (a split costing two block tests), up to
// kMaxLeafTriangles. Long thin or crossing triangles, whose boxes overlap whatever the split, so
// make leaves of several blocks and a shallower tree. That binary tree is then collapsed into
// 8-wide nodes (each opens the child with the largest surface area until it has 8 children, as
// Embree does), 256-byte nodes holding their children's boxes side by side, laid out depth first
// with each node's leaves right after it (tree_), so that a node's first leaves load with it: the
// traversal prefetches every node it enters with the 512 bytes after it. Each leaf keeps its
// distinct vertices once, as rows of x, y and z, and its triangles as three small indices into
// them, with their input indices (detail::MeshLeafView): half the memory of their coordinates,
// which is what a ray through a large mesh waits for.
// Traversal: an iterative stack; each node's 8 boxes are slab-tested at once, children entered
// nearest first (two by their entry distances; three or more in the order of the ray's octant that
// the node keeps, Node::order, without a sort), each prefetched as it is taken (and as it is put on
// the stack, but for three or more only the next one), subtrees entered beyond the best hit
// skipped. A leaf's triangles are first filtered 4 (SSE2), 8 (AVX2) or 16 (AVX-512) at once,
// every block before any is tested, by the watertight test's edge functions in float (their
// coordinates picked from the vertex rows by permutes), with a bound on their rounding error, so
// a triangle is dropped there only when the exact test would reject it by their signs too
// (leafCandidates, mesh_bvh_kernel.hpp); every other one is tested by the very code of raycastBarycentric
// (detail::WatertightRay, watertight_ray.hpp, in double), its per-ray constants computed once,
// at the first leaf the ray reaches (detail::LeafRay).
// The 4-wide and 8-wide steps run on the SIMD path chosen at run time (simd_path.hpp: SSE2, AVX2
// or AVX-512, or KOLIZE_SIMD); every path gives the same results bit for bit.
// Code: mesh_bvh_build.cpp builds the tree; mesh_bvh_kernel.hpp holds the traversal and the
// queries as templates over the SIMD path, instantiated by mesh_bvh_query.cpp (SSE2, and
// the dispatch), mesh_bvh_avx2.cpp and mesh_bvh_avx512.cpp; mesh_bvh_traverse.hpp has what the
// paths share (the slab and leaf-filter set-ups, the SSE2 vector); mesh_bvh_explain.cpp raycast's trace,
// mesh_bvh_debug.cpp reads the tree back for debug drawing; mesh_bvh_simd.hpp is the 4-wide
// float shim of the build, the SSE2 box test and the SSE2 leaf filter.
// Memory (memoryBytes): 26 to 32 bytes per triangle when the triangles share their vertices
// (bench_mesh's meshes), about 74 for a soup of unrelated triangles, whose leaves hold at most 10
// (the arrays on huge pages where the system has them, large_array.hpp).
#pragma once

#include "large_array.hpp"
#include "types.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kz {

struct MeshRayTrace; // explain_ray.hpp
namespace detail {
struct MeshBvhKernels; // mesh_bvh_kernel.hpp

/// A leaf of a MeshBvh as it lies in MeshBvh::tree_ (32-bit words), from a multiple of 16
/// bytes: its m distinct vertices (MeshBvh::kMaxLeafVertices at most; vertices are the same when
/// their coordinates are, bit for bit) once each, and each triangle as three small indices into
/// them, so a leaf takes about half the memory of its triangles' own coordinates (the memory a
/// random ray waits for). With stride = m rounded up to 4 and cornerStride = n (its triangles)
/// rounded up to 16:
///   rows[axis * stride + j]: coordinate `axis` of vertex j (lanes past m hold 0);
///   corners[k * cornerStride + t]: the vertex (0 to m - 1) that is triangle t's corner k
///   (a, b, c for k = 0, 1, 2); lanes past n repeat the last triangle's;
///   ids[t]: triangle t's index in the build input.
/// A node refers to a leaf by (stride / 4 - 1) << MeshBvh::kRefOffsetBits | its offset in
/// 16-byte units (MeshBvh::leaf), so every address of the leaf is known before any of it is loaded.
struct MeshLeafView {
    const float* rows;
    std::uint32_t stride;
    const std::uint8_t* corners;
    std::uint32_t cornerStride;
    const std::uint32_t* ids;
    std::uint32_t count;

    /// Coordinate `axis` of triangle t's corner k is vertex(t, k)[axis * stride].
    const float* vertex(std::uint32_t t, std::uint32_t k) const {
        return rows + corners[k * cornerStride + t];
    }
    Triangle triangle(std::uint32_t t) const {
        const float* p[3] = {vertex(t, 0), vertex(t, 1), vertex(t, 2)};
        return {{p[0][0], p[0][stride], p[0][2 * stride]},
                {p[1][0], p[1][stride], p[1][2 * stride]},
                {p[2][0], p[2][stride], p[2][2 * stride]}};
    }
};

} // namespace detail

/// Where a ray meets a mesh triangle.
struct MeshHit {
    float t;                ///< Ray parameter in units of dir: 0 <= t <= tMax.
    glm::vec3 point;        ///< origin + t * dir.
    glm::vec3 normal;       ///< Unit face normal facing the ray origin (meshes are two-sided).
    std::uint32_t triangle; ///< Index of the triangle in the build input (indices[3 * triangle ...]).
    float u;                ///< Weight of the triangle's second vertex (b), in [0, 1].
    float v;                ///< Weight of its third vertex (c); a's weight is 1 - u - v.
};

/// An immutable BVH over a triangle mesh. Build once, then query from any number of threads:
/// queries are const, do not allocate (except raycastAll's result) and never throw.
class MeshBvh {
public:
    /// Builds the tree over `vertices` and `indices` (3 indices a triangle, triangle i is
    /// indices[3i], indices[3i + 1], indices[3i + 2]). Degenerate triangles (zero area, or a
    /// non-finite vertex, or an area that overflows) are skipped: no query ever returns them.
    /// An empty mesh (no indices) is valid and never hit.
    /// Throws std::invalid_argument with tryBuild's message when the input is malformed.
    /// Allocates O(triangles) memory; about 0.3 s for a million triangles on one core.
    static MeshBvh build(std::span<const glm::vec3> vertices, std::span<const std::uint32_t> indices);

    /// build() without exceptions: nullopt on malformed input, with `error` set to one line
    /// naming the problem, e.g. "indices count 10 is not a multiple of 3" or "index 7 of
    /// triangle 2 is 40, but there are 12 vertices" (7 is the position in `indices`).
    /// `error` is cleared on success.
    static std::optional<MeshBvh> tryBuild(std::span<const glm::vec3> vertices,
                                           std::span<const std::uint32_t> indices, std::string& error);

    /// The nearest triangle hit with 0 <= t <= tMax, two-sided, normal facing the ray origin.
    /// On equal t (a ray through an edge or vertex shared by triangles) the lowest triangle
    /// index wins, so the result does not depend on the tree's layout.
    std::optional<MeshHit> raycast(const Ray& ray, float tMax = INFINITY) const;

    /// Every triangle hit with 0 <= t <= tMax, sorted by t (then by triangle index). A ray
    /// through an edge or vertex shared by several triangles lists each triangle that the
    /// watertight test accepts, so one crossing of the surface can appear more than once.
    std::vector<MeshHit> raycastAll(const Ray& ray, float tMax = INFINITY) const;

    /// raycast with its traversal: every child box considered (entered, culled by a slab miss,
    /// skipped beyond the best hit), every leaf tested and every new best hit, in order
    /// (explain_ray.hpp). The traversal is raycast's own code, so the hit is raycast's exactly.
    /// Allocates the event list (about 40 events for a ray through a 3,000-triangle mesh).
    MeshRayTrace explainRaycast(const Ray& ray, float tMax = INFINITY) const;

    /// The bounds of the non-degenerate triangles; for an empty mesh min = +inf, max = -inf
    /// (isValid(bounds()) is false then, and every ray misses it).
    Aabb bounds() const;

    /// Calls visit(triangle, tri) for every kept triangle whose bounds overlap `box` (touching
    /// counts), with `triangle` its index in the build input. For the physics' narrow phase: the
    /// triangles near a moving body. The order follows the tree, not the input; an invalid box
    /// (NaN, or min > max) visits nothing.
    template <class Visit>
    void forEachTriangleOverlapping(const Aabb& box, Visit&& visit) const;

    /// The boxes of the tree's nodes from the root (depth 0) down to `maxDepth`, for debug
    /// drawing; leaves above maxDepth are included. Empty for an empty mesh or maxDepth < 0.
    std::vector<Aabb> nodeBoxes(int maxDepth) const;
    /// The number of levels in the tree (0 for an empty mesh, 1 for a single leaf).
    int depth() const;
    /// Kept (non-degenerate) triangles.
    std::size_t triangleCount() const { return triangleCount_; }
    /// The bytes the tree's nodes and leaves take (a leaf keeps each distinct vertex once: 26 to
    /// 32 bytes a triangle for bench_mesh's meshes, whose triangles share their vertices).
    std::size_t memoryBytes() const { return tree_.size() * sizeof(std::uint32_t); }

    /// The most triangles a leaf holds: the SAH makes a leaf of a node whose triangles cost less to
    /// test than to split further, up to this many (and up to kMaxLeafVertices distinct vertices).
    static constexpr std::uint32_t kMaxLeafTriangles = 32;
    /// The most distinct vertices a leaf holds (the same when their coordinates are, bit for bit):
    /// a leaf keeps each once (MeshLeafView), and a row of them fits two 512-bit registers, which
    /// the AVX-512 leaf filter permutes in one instruction. Four triangles always fit.
    static constexpr std::uint32_t kMaxLeafVertices = 32;

private:
    friend struct detail::MeshBvhKernels;
    /// Children per node: the boxes of eight children are tested at once (two SSE groups of four,
    /// or one AVX group of eight).
    static constexpr int kWidth = 8;
    /// 256 bytes, four cache lines: the boxes of up to kWidth children side by side (structure of
    /// arrays, for 4-wide slab tests), then what each child is. A node stands for a subtree of the
    /// binary SAH tree whose frontier (up to kWidth nodes) are its children, in slots 0, 1, ...
    /// in preorder; `topology` keeps that subtree's shape, so the binary tree (nodeBoxes, depth)
    /// can be read back.
    struct alignas(64) Node {
        float bounds[6][kWidth]; ///< bounds[2 axis][slot] = min, bounds[2 axis + 1][slot] = max.
        /// An inner child's reference (where its node lies in tree_, in 16-byte units), a leaf's
        /// (where it lies and its stride, see LeafView), or kEmpty.
        std::uint32_t child[kWidth];
        /// A leaf's triangle count (1 to kMaxLeafTriangles); 0 for an inner child or kEmpty.
        std::uint8_t count[kWidth];
        /// The binary subtree in preorder from bit 0: 1 for an inner node of it, 0 for a slot.
        std::uint16_t topology;
        /// The slots from near to far for a ray in octant o = 0..3 (bit 0: x negative, bit 1: y
        /// negative; z positive): 3 bits a slot from bit 0 of order[o] (24 bits, little-endian),
        /// ordered by their boxes' centres along the octant's diagonal, empty slots last. A ray in
        /// octant 7 - o takes them in the reverse order. The traversal pushes three or more
        /// entered children in this order instead of sorting them by their entry distances
        /// (ordered traversal by octant, as Fuetterling et al. 2017 and tinybvh's BVH8_CPU).
        std::uint8_t order[4][3];
    };
    static_assert(sizeof(Node) == 256, "a node is four cache lines");
    /// An empty slot: its box is min = +inf, max = -inf, which every slab and overlap test rejects.
    static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
    /// Enough for any traversal: the binary tree has at most 96 levels (SAH splits down to level
    /// 64, then median splits), so a path has at most 96 nodes, each pushing kWidth - 1 entries.
    static constexpr int kStackSize = (kWidth - 1) * 96 + 1;
    struct Builder;

    MeshBvh() = default;

    using LeafView = detail::MeshLeafView;
    /// A child's reference (Node::child) holds where the node or leaf lies in tree_, in 16-byte
    /// units, in its low kRefOffsetBits bits; a leaf's holds its stride above them (leaf()).
    static constexpr std::uint32_t kRefOffsetBits = 29;
    static constexpr std::uint32_t kRefOffsetMask = (1u << kRefOffsetBits) - 1;
    /// The leaf a node's child `ref` (with `count` triangles) refers to.
    LeafView leaf(std::uint32_t ref, std::uint32_t count) const {
        const std::uint32_t stride = ((ref >> kRefOffsetBits) + 1) * 4;
        const std::uint32_t cornerStride = (count + 15) / 16 * 16;
        const std::uint32_t* words = tree_.data() + 4 * static_cast<std::size_t>(ref & kRefOffsetMask);
        const auto* rows = reinterpret_cast<const float*>(words);
        const auto* corners = reinterpret_cast<const std::uint8_t*>(words + 3 * stride);
        const std::uint32_t* ids = words + 3 * stride + 3 * cornerStride / 4;
        return {rows, stride, corners, cornerStride, ids, count};
    }

    /// Visits, nearest first (exactly when a node is entered by two children, by the ray's
    /// octant when by more: Node::order), every leaf whose (conservatively enlarged) box the ray enters
    /// within [0, tMax] and before the distance `visitLeaf(leaf, count)` last returned, telling
    /// `observer` each step (detail::NoTraversalObserver for the fast queries: nothing). `Isa` is
    /// the SIMD path's box test (mesh_bvh_traverse.hpp, mesh_bvh_avx2.cpp, ...).
    /// Defined in mesh_bvh_kernel.hpp.
    template <class Isa, class VisitLeaf, class Observer>
    void traverse(const Ray& ray, float tMax, VisitLeaf&& visitLeaf, Observer&& observer) const;
    /// raycast's search, telling `observer` each step of the traversal, each leaf and each new
    /// best hit. Defined in mesh_bvh_kernel.hpp.
    template <class Isa, class Observer>
    std::optional<MeshHit> nearestHit(const Ray& ray, float tMax, Observer&& observer) const;
    /// raycastAll's search: appends every hit, unsorted. Defined in mesh_bvh_kernel.hpp.
    template <class Isa>
    void allHits(const Ray& ray, float tMax, std::vector<MeshHit>& hits) const;
    /// The observer that records explainRaycast's events (mesh_bvh_explain.cpp).
    struct ExplainObserver;
    /// Calls visit(box, level, isLeaf) for every node of the binary tree, parents first.
    template <class Visit>
    void forEachBinaryNode(int maxLevel, Visit&& visit) const;

    /// The tree: nodes (at multiples of 64 bytes) and leaves (LeafView, at multiples of 16) in one
    /// array, each node followed by its leaves, then by its first inner child's node (depth first,
    /// as Embree lays its trees out): the leaf a ray takes after a node often lies within a few
    /// hundred bytes of it, which the traversal prefetches with the node. The root node is at
    /// 0; empty for an empty mesh. Then kLeafPadding words of zeros, so that a vector load from a
    /// leaf's last row stays inside the array.
    std::vector<std::uint32_t, detail::LargeArrayAllocator<std::uint32_t>> tree_;
    /// The node an inner child's reference (Node::child) refers to.
    const Node& node(std::uint32_t ref) const {
        return *reinterpret_cast<const Node*>(tree_.data() + 4 * static_cast<std::size_t>(ref));
    }
    static constexpr std::size_t kLeafPadding = 16;
    std::size_t triangleCount_ = 0;
    Aabb bounds_{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    float coordinateScale_ = 0.0f; ///< Largest |coordinate| of any kept vertex.
};

template <class Visit>
void MeshBvh::forEachTriangleOverlapping(const Aabb& box, Visit&& visit) const {
    if (tree_.empty() || !isValid(box)) return;
    std::uint32_t stack[kStackSize];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = this->node(stack[--top]);
        for (std::size_t s = 0; s < kWidth; ++s) {
            // An empty slot's inverted box fails the test.
            if (!(node.bounds[0][s] <= box.max.x && node.bounds[1][s] >= box.min.x &&
                  node.bounds[2][s] <= box.max.y && node.bounds[3][s] >= box.min.y &&
                  node.bounds[4][s] <= box.max.z && node.bounds[5][s] >= box.min.z)) {
                continue;
            }
            if (node.count[s] == 0) {
                stack[top++] = node.child[s];
                continue;
            }
            // Each triangle's bounds against the box, in the leaf's order.
            const LeafView view = leaf(node.child[s], node.count[s]);
            for (std::uint32_t t = 0; t < view.count; ++t) {
                const float* corner[3] = {view.vertex(t, 0), view.vertex(t, 1), view.vertex(t, 2)};
                bool all = true;
                for (int axis = 0; axis < 3; ++axis) {
                    const std::size_t row = static_cast<std::size_t>(axis) * view.stride;
                    const float a = corner[0][row], b = corner[1][row], c = corner[2][row];
                    const float lo = std::min(a, std::min(b, c)); // glm::min's order
                    const float hi = std::max(a, std::max(b, c));
                    all = all && lo <= box.max[axis] && hi >= box.min[axis];
                }
                if (all) visit(view.ids[t], view.triangle(t));
            }
        }
    }
}

} // namespace kz
