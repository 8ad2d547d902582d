// MeshBvh's build: the checked input and the triangles' bounds (tryBuild), the binary tree split
// by split (findSplit, mesh_bvh_split.cpp) and collapsed into 8-wide nodes as it is built (fill),
// the leaves laid out (addLeaf) and the nodes' ray orders (setOrder).
#include "detail.hpp"
#include "mesh_bvh.hpp"
#include "mesh_bvh_simd.hpp"
#include "mesh_bvh_split.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

namespace kz {

namespace {

using detail::Box;
using detail::F4;
using detail::lane;
using detail::lessEqualMask;
using detail::lessMask;
using detail::load4;
using detail::PrimRef;
using detail::splat4;
using detail::Split;

/// tryBuild's message for malformed input, or empty.
std::string inputError(std::size_t vertexCount, std::span<const std::uint32_t> indices) {
    if (indices.size() % 3 != 0)
        return "indices count " + std::to_string(indices.size()) + " is not a multiple of 3";
    const std::size_t triangleCount = indices.size() / 3;
    if (triangleCount > std::numeric_limits<std::uint32_t>::max() / 2)
        return "too many triangles: " + std::to_string(triangleCount);
    for (std::size_t i = 0; i < indices.size(); ++i) {
        if (indices[i] >= vertexCount) {
            return "index " + std::to_string(i) + " of triangle " + std::to_string(i / 3) + " is " +
                   std::to_string(indices[i]) + ", but there are " + std::to_string(vertexCount) +
                   " vertices";
        }
    }
    return {};
}

} // namespace

/// Top-down binned SAH (16 bins per axis) over the triangles' bounds and centroids; `prims` is
/// partitioned in place so that every node covers a contiguous range of it. The binary tree is
/// collapsed into kWidth-wide nodes as it is built (see fill).
struct MeshBvh::Builder {
    std::vector<PrimRef, detail::LargeArrayAllocator<PrimRef>> prims;
    /// The build input (its triangle `id` is corners[3 id], corners[3 id + 1], corners[3 id + 2]).
    std::span<const glm::vec3> vertices;
    std::span<const std::uint32_t> corners;

    /// The leaves laid out so far, and room for the nodes (MeshBvh::tree_).
    std::vector<std::uint32_t, detail::LargeArrayAllocator<std::uint32_t>> words;
    /// The nodes, by the order they were made in, and where each lies in `words` (its reference):
    /// copied there once the tree is done (copyNodes), so that `words` is only ever written as
    /// words while it grows.
    std::vector<Node, detail::LargeArrayAllocator<Node>> nodes;
    std::vector<std::uint32_t> nodeRefs;
    /// Set when the tree outgrows what a reference can address.
    bool tooLarge = false;

    /// Lays out a new leaf over prims [first, first + count) (MeshBvh::LeafView): its reference,
    /// or nothing when its triangles have more than MeshBvh::kMaxLeafVertices distinct vertices.
    std::optional<std::uint32_t> addLeaf(std::uint32_t first, std::uint32_t count) {
        std::array<glm::vec3, MeshBvh::kMaxLeafVertices> unique;
        std::array<std::array<std::uint8_t, MeshBvh::kMaxLeafTriangles>, 3> local{};
        std::uint32_t m = 0;
        if (!distinctVertices(first, first + count, unique, m, local)) return std::nullopt;
        const std::uint32_t stride = (m + 3) / 4 * 4;
        const std::uint32_t cornerStride = (count + 15) / 16 * 16;
        const std::size_t offset = words.size() / 4;
        if (offset >= MeshBvh::kRefOffsetMask) tooLarge = true;
        words.resize(words.size() + 3 * stride + 3 * cornerStride / 4 + (count + 3) / 4 * 4, 0);
        std::uint32_t* w = words.data() + 4 * offset;
        for (int axis = 0; axis < 3; ++axis)
            for (std::uint32_t j = 0; j < m; ++j)
                w[axis * stride + j] = std::bit_cast<std::uint32_t>(unique[j][axis]);
        auto* c = reinterpret_cast<std::uint8_t*>(w + 3 * stride);
        for (std::uint32_t k = 0; k < 3; ++k)
            for (std::uint32_t t = 0; t < cornerStride; ++t)
                c[k * cornerStride + t] = local[k][std::min(t, count - 1)];
        std::uint32_t* ids = w + 3 * stride + 3 * cornerStride / 4;
        for (std::uint32_t t = 0; t < count; ++t)
            ids[t] = prims[first + t].id;
        return static_cast<std::uint32_t>(offset & MeshBvh::kRefOffsetMask) |
               ((stride / 4 - 1) << MeshBvh::kRefOffsetBits);
    }

    /// The distinct vertices (the same when their coordinates are, bit for bit) of prims
    /// [begin, end), in order of first use, into `out` (at most MeshBvh::kMaxLeafVertices) and each
    /// corner's index among them into local[k][t - begin]; false when there are more than
    /// MeshBvh::kMaxLeafVertices of them (a leaf cannot hold them).
    bool distinctVertices(std::uint32_t begin, std::uint32_t end,
                          std::array<glm::vec3, MeshBvh::kMaxLeafVertices>& out, std::uint32_t& m,
                          std::array<std::array<std::uint8_t, MeshBvh::kMaxLeafTriangles>, 3>& local) const {
        // The corners seen so far by their input index, in a small table by its low bits: a corner
        // whose index is there is that vertex (most corners: neighbours share their vertices).
        // Another is compared with every vertex found so far by its coordinates' bits (a vertex
        // repeated under another index, as on a seam), then added.
        constexpr std::uint32_t kSlots = 64;
        std::array<std::uint32_t, kSlots> seenIndex;
        std::array<std::uint8_t, kSlots> seenVertex;
        seenIndex.fill(std::numeric_limits<std::uint32_t>::max());
        std::array<std::array<std::uint32_t, 3>, MeshBvh::kMaxLeafVertices> bits;
        m = 0;
        // The triangles' corners, then their vertices, requested all at once: a leaf's triangles
        // lie anywhere in the input, and its loads then overlap instead of waiting one by one.
        for (std::uint32_t t = begin; t < end; ++t)
            detail::prefetchLine(
                reinterpret_cast<const char*>(corners.data() + 3 * static_cast<std::size_t>(prims[t].id)));
        for (std::uint32_t t = begin; t < end; ++t)
            for (std::uint32_t k = 0; k < 3; ++k)
                detail::prefetchLine(reinterpret_cast<const char*>(
                    vertices.data() + corners[3 * static_cast<std::size_t>(prims[t].id) + k]));
        for (std::uint32_t t = begin; t < end; ++t) {
            for (std::uint32_t k = 0; k < 3; ++k) {
                const std::uint32_t i = corners[3 * static_cast<std::size_t>(prims[t].id) + k];
                std::uint32_t j = 0;
                if (seenIndex[i % kSlots] == i) {
                    j = seenVertex[i % kSlots];
                } else {
                    const glm::vec3& v = vertices[i];
                    const std::array<std::uint32_t, 3> b = {std::bit_cast<std::uint32_t>(v.x),
                                                            std::bit_cast<std::uint32_t>(v.y),
                                                            std::bit_cast<std::uint32_t>(v.z)};
                    while (j < m && bits[j] != b)
                        ++j;
                    if (j == m) {
                        if (m == MeshBvh::kMaxLeafVertices) return false;
                        bits[m] = b;
                        out[m++] = v;
                    }
                    seenIndex[i % kSlots] = i;
                    seenVertex[i % kSlots] = static_cast<std::uint8_t>(j);
                }
                local[k][t - begin] = static_cast<std::uint8_t>(j);
            }
        }
        return true;
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

    /// A new node (every slot empty), its place in `words` kept at the next multiple of 64 bytes:
    /// its index in `nodes`.
    std::uint32_t newNode() {
        words.resize((words.size() + 15) / 16 * 16, 0);
        const std::size_t offset = words.size() / 4;
        if (offset >= MeshBvh::kRefOffsetMask) tooLarge = true;
        words.resize(words.size() + sizeof(Node) / sizeof(std::uint32_t), 0);
        Node node{};
        for (std::size_t row = 0; row < 6; ++row)
            for (std::size_t s = 0; s < kWidth; ++s)
                node.bounds[row][s] = row % 2 == 0 ? INFINITY : -INFINITY;
        for (std::size_t s = 0; s < kWidth; ++s) {
            node.child[s] = kEmpty;
            node.count[s] = 0;
        }
        node.topology = 0;
        nodes.push_back(node);
        nodeRefs.push_back(static_cast<std::uint32_t>(offset & MeshBvh::kRefOffsetMask));
        return static_cast<std::uint32_t>(nodes.size() - 1);
    }

    /// Set bits of each byte (std::popcount is a long sequence without the POPCNT instruction,
    /// which the baseline build does not assume).
    static constexpr std::array<std::uint8_t, 256> kBitCount = [] {
        std::array<std::uint8_t, 256> bits{};
        for (std::size_t i = 0; i < bits.size(); ++i)
            bits[i] = static_cast<std::uint8_t>(std::popcount(i));
        return bits;
    }();

    /// Node::order: for each octant 0..3, the slots sorted by the centres of their boxes along
    /// the octant's diagonal (the sum of the centre's coordinates with the octant's signs), empty
    /// and non-finite ones last, ties in slot order. Each slot's place is its rank, counted with
    /// two 4-wide comparisons of all eight keys (a sort's branches made the build 4% longer).
    static void setOrder(Node& node) {
        float centre[3][kWidth];
        for (std::size_t axis = 0; axis < 3; ++axis)
            for (std::size_t s = 0; s < kWidth; ++s) // halves first: min + max of huge boxes would overflow
                centre[axis][s] = 0.5f * node.bounds[2 * axis][s] + 0.5f * node.bounds[2 * axis + 1][s];
        for (int octant = 0; octant < 4; ++octant) {
            alignas(16) float key[kWidth];
            for (std::size_t s = 0; s < kWidth; ++s) {
                const float x = (octant & 1) != 0 ? -centre[0][s] : centre[0][s];
                const float y = (octant & 2) != 0 ? -centre[1][s] : centre[1][s];
                const float sum = x + y + centre[2][s];
                key[s] = std::isfinite(sum) ? sum : INFINITY; // an empty slot's centre is NaN
            }
            const F4 lo = load4(key), hi = load4(key + 4);
            std::uint32_t packed = 0;
            for (std::uint32_t s = 0; s < kWidth; ++s) {
                const F4 k = splat4(key[s]);
                const auto less = static_cast<unsigned>(lessMask(lo, k) | lessMask(hi, k) << 4);
                const auto lessEqual =
                    static_cast<unsigned>(lessEqualMask(lo, k) | lessEqualMask(hi, k) << 4);
                const int rank = kBitCount[less] + kBitCount[lessEqual & ~less & ((1u << s) - 1)];
                packed |= s << (3 * rank);
            }
            for (int byte = 0; byte < 3; ++byte)
                node.order[octant][byte] = static_cast<std::uint8_t>(packed >> (8 * byte));
        }
    }

    /// Copies every node, its order set, to its place in `words`.
    void copyNodes() {
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            setOrder(nodes[i]);
            std::memcpy(words.data() + 4 * static_cast<std::size_t>(nodeRefs[i]), &nodes[i], sizeof(Node));
        }
    }

    /// A binary node with its split decided (split.leaf: it is a leaf).
    struct Pending {
        std::uint32_t begin, end;
        Box bounds;
        int depth;
        Split split;
    };

    /// The median split of a leaf-to-be that addLeaf could not lay out, along the widest axis of
    /// its centroids (a leaf of up to kMaxLeafVertices / 3 triangles always fits, so this ends).
    Split splitTooManyVertices(const Pending& leaf) {
        return detail::medianSplitAlongWidest(prims, leaf.begin, leaf.end);
    }

    Pending child(const Pending& parent, int side) {
        const std::uint32_t begin = side == 0 ? parent.begin : parent.split.mid;
        const std::uint32_t end = side == 0 ? parent.split.mid : parent.end;
        const Box& bounds = parent.split.bounds[side];
        return {begin, end, bounds, parent.depth + 1,
                detail::findSplit(prims, begin, end, bounds, parent.split.centroids[side], parent.depth + 1)};
    }

    /// A binary subtree being collapsed into one wide node: local[0] is its root; `left` < 0
    /// marks a frontier node, and frontier[0, slots) lists them in preorder (the node's slots).
    struct Subtree {
        struct Local {
            Pending binary;
            int left = -1, right = -1;
        };
        std::array<Local, 2 * kWidth> local;
        std::array<int, kWidth> frontier{};
        int locals = 1, slots = 1;
    };

    /// Builds the wide node `rootIndex` (of `nodes`) for the inner binary node `root`, and below
    /// it the rest of the tree, one wide node at a time, depth first: a node is laid out when it
    /// is filled (collapse), its leaves right after it, then its inner children's nodes, each when
    /// its turn comes (its parent's slot then refers to it).
    void fill(std::uint32_t rootIndex, const Pending& root) {
        struct Work {
            std::uint32_t parent; ///< The parent node's index, kEmpty for the root.
            int slot;             ///< The parent's slot that refers to this node.
            Pending binary;
        };
        std::vector<Work> work{{kEmpty, 0, root}};
        while (!work.empty()) {
            const Work item = work.back();
            work.pop_back();
            const std::uint32_t node = item.parent == kEmpty ? rootIndex : newNode();
            if (item.parent != kEmpty) nodes[item.parent].child[item.slot] = nodeRefs[node];
            Subtree sub = collapse(item.binary);
            nodes[node].topology = topologyOf(sub);

            // The frontier becomes the slots: leaves laid out now, inner nodes when filled.
            std::array<bool, kWidth> inner{};
            for (int f = 0; f < sub.slots; ++f) {
                Pending& b = sub.local[sub.frontier[f]].binary;
                if (b.split.leaf) {
                    if (const auto leaf = addLeaf(b.begin, b.end - b.begin)) {
                        setSlot(node, f, b.bounds, *leaf, b.end - b.begin);
                        continue;
                    }
                    b.split = splitTooManyVertices(b);
                }
                setSlot(node, f, b.bounds, kEmpty, 0); // its node's reference comes when filled
                inner[static_cast<std::size_t>(f)] = true;
            }
            for (int f = sub.slots; f-- > 0;)
                if (inner[static_cast<std::size_t>(f)])
                    work.push_back({node, f, sub.local[sub.frontier[f]].binary});
        }
    }

    /// The binary subtree under `root` reached by opening the inner frontier node with the
    /// largest surface area until kWidth nodes are on the frontier (Wald et al., "Getting Rid of
    /// Packets", 2008; as Embree collapses its BVHs). Opening a node decides its children's splits.
    Subtree collapse(const Pending& root) {
        Subtree sub;
        auto& local = sub.local;
        auto& frontier = sub.frontier;
        local[0].binary = root;
        for (;;) {
            int widest = -1;
            float widestArea = -1.0f;
            for (int f = 0; f < sub.slots; ++f) {
                const Pending& b = local[frontier[f]].binary;
                if (!b.split.leaf && b.bounds.halfArea() > widestArea) {
                    widest = f;
                    widestArea = b.bounds.halfArea();
                }
            }
            if (widest < 0 || sub.slots == kWidth) break;
            Subtree::Local& open = local[frontier[widest]];
            open.left = sub.locals++;
            open.right = sub.locals++;
            local[open.left].binary = child(open.binary, 0);
            local[open.right].binary = child(open.binary, 1);
            // The opened node's children take its place: the frontier stays in preorder.
            for (int f = sub.slots++; f > widest + 1; --f)
                frontier[f] = frontier[f - 1];
            frontier[widest] = open.left;
            frontier[widest + 1] = open.right;
        }
        return sub;
    }

    /// The subtree's shape in preorder (Node::topology): 1 for an opened node, 0 for a frontier node.
    static std::uint16_t topologyOf(const Subtree& sub) {
        std::uint32_t topology = 0;
        int bit = 0;
        int stack[2 * kWidth];
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            const Subtree::Local& l = sub.local[stack[--top]];
            if (l.left >= 0) {
                topology |= 1u << bit;
                stack[top++] = l.right;
                stack[top++] = l.left;
            }
            ++bit;
        }
        return static_cast<std::uint16_t>(topology);
    }
};

// ---------------------------------------------------------------------------------------------
// Build: checked input, the triangles' bounds, the tree, then the triangles in leaf order

std::optional<MeshBvh> MeshBvh::tryBuild(std::span<const glm::vec3> vertices,
                                         std::span<const std::uint32_t> indices, std::string& error) {
    error = inputError(vertices.size(), indices);
    if (!error.empty()) return std::nullopt;
    const std::size_t triangleCount = indices.size() / 3;
    const auto triangleAt = [&](std::size_t t) {
        return Triangle{vertices[indices[3 * t]], vertices[indices[3 * t + 1]], vertices[indices[3 * t + 2]]};
    };
    MeshBvh bvh;
    Builder builder;
    builder.vertices = vertices;
    builder.corners = indices;
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
    // Address space for the usual tree, about 8 words a triangle (only what is written is
    // touched; small leaves take more, and the vector grows then).
    builder.words.reserve(10 * static_cast<std::size_t>(n) + 64);
    builder.nodes.reserve(n / kWidth + 1);
    builder.nodeRefs.reserve(n / kWidth + 1);
    const std::uint32_t root = builder.newNode();
    Builder::Pending rootBinary{0, n, all, 0, detail::findSplit(builder.prims, 0, n, all, allCentroids, 0)};
    std::optional<std::uint32_t> rootLeaf;
    if (rootBinary.split.leaf) rootLeaf = builder.addLeaf(0, n);
    if (rootLeaf) {
        builder.setSlot(root, 0, all, *rootLeaf, n); // topology 0: the root is slot 0
    } else {
        if (rootBinary.split.leaf) rootBinary.split = builder.splitTooManyVertices(rootBinary);
        builder.fill(root, rootBinary);
    }
    if (builder.tooLarge) {
        error = "mesh too large: its tree would take more than 8 GiB";
        return std::nullopt;
    }

    static_assert(kMaxLeafTriangles <= std::numeric_limits<std::uint8_t>::max(),
                  "a leaf's count fits Node::count");
    static_assert(kMaxLeafVertices <= 32 && kMaxLeafTriangles <= 32, "Builder::addLeaf's tables");
    builder.copyNodes();
    bvh.tree_ = std::move(builder.words);
    bvh.tree_.resize(bvh.tree_.size() + kLeafPadding, 0);
    bvh.triangleCount_ = n;
    const glm::vec3 lo(lane(all.lo, 0), lane(all.lo, 1), lane(all.lo, 2));
    const glm::vec3 hi(lane(all.hi, 0), lane(all.hi, 1), lane(all.hi, 2));
    bvh.bounds_ = {lo, hi};
    bvh.coordinateScale_ = std::max(detail::maxAbs(lo), detail::maxAbs(hi));
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

} // namespace kz
