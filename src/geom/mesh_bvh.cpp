#include "mesh_bvh.hpp"

#include "detail.hpp"
#include "raycast.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <limits>
#include <stdexcept>
#include <utility>

namespace kz {

namespace {

constexpr int kBins = 16;
constexpr std::uint32_t kMaxLeafSize = 4;
/// Deeper subtrees are split at the object median, so the depth stays below
/// kMaxSahDepth + 32 whatever the input (the traversal stack is sized from it).
constexpr int kMaxSahDepth = 64;
constexpr int kStackSize = kMaxSahDepth + 40;
/// SAH cost of visiting a node, in units of one triangle test.
constexpr float kTraversalCost = 1.0f;

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

struct Box {
    glm::vec3 lo{FLT_MAX};
    glm::vec3 hi{-FLT_MAX};

    void grow(const glm::vec3& p) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    void grow(const Box& b) {
        lo = glm::min(lo, b.lo);
        hi = glm::max(hi, b.hi);
    }
    /// Half the surface area (the SAH only compares ratios); 0 for an empty box.
    float halfArea() const {
        const glm::vec3 e = glm::max(hi - lo, glm::vec3(0.0f));
        return e.x * e.y + e.y * e.z + e.z * e.x;
    }
};

/// The ray prepared for slab tests against boxes enlarged by `slack` (Kay-Kajiya; Ericson 5.3.3).
/// Moving the origin by -/+ slack along each axis's direction sign is the same as moving the
/// near/far planes outward, so the enlargement costs nothing per node.
struct SlabRay {
    glm::vec3 invDir;
    glm::vec3 nearOrigin;
    glm::vec3 farOrigin;
    std::array<bool, 3> negative;
    float tLimit; ///< min(tMax, FLT_MAX): a finite limit, so a box at +infinity (t0 = +inf) misses.

    SlabRay(const Ray& ray, float tMax, float slack) {
        tLimit = std::min(tMax, FLT_MAX);
        for (int i = 0; i < 3; ++i) {
            // A zero component gives an infinite inverse; the products below then are +-inf, or
            // NaN when the origin lies exactly on an enlarged plane. The comparisons in enters()
            // ignore a NaN, which keeps such a box (conservative).
            invDir[i] = 1.0f / ray.dir[i];
            negative[static_cast<std::size_t>(i)] = std::signbit(invDir[i]);
            const float s = negative[static_cast<std::size_t>(i)] ? -slack : slack;
            nearOrigin[i] = ray.origin[i] + s;
            farOrigin[i] = ray.origin[i] - s;
        }
    }

    /// Does the ray enter the enlarged box within [0, tLimit]? If so, `tEnter` is the entry t.
    bool enters(const float (&lo)[3], const float (&hi)[3], float& tEnter) const {
        float t0Max = 0.0f;
        float t1Min = tLimit;
        for (int i = 0; i < 3; ++i) {
            const bool neg = negative[static_cast<std::size_t>(i)];
            const float t0 = ((neg ? hi[i] : lo[i]) - nearOrigin[i]) * invDir[i];
            const float t1 = ((neg ? lo[i] : hi[i]) - farOrigin[i]) * invDir[i] * kExitGrowth;
            t0Max = t0 > t0Max ? t0 : t0Max; // a NaN t0 or t1 leaves the bound unchanged
            t1Min = t1 < t1Min ? t1 : t1Min;
        }
        tEnter = t0Max;
        return t0Max <= t1Min;
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

} // namespace

// ---------------------------------------------------------------------------------------------
// Build

/// Top-down binned SAH over the triangles' bounds and centroids; `prims` is permuted in place so
/// that every node covers a contiguous range of it.
struct MeshBvh::Builder {
    std::vector<Box> primBounds;
    std::vector<glm::vec3> centroids;
    std::vector<std::uint32_t> prims;
    std::vector<Node> nodes;

    static void store(Node& node, const Box& b) {
        for (int i = 0; i < 3; ++i) {
            node.min[i] = b.lo[i];
            node.max[i] = b.hi[i];
        }
    }

    void makeLeaf(std::uint32_t nodeIndex, std::uint32_t begin, std::uint32_t end) {
        nodes[nodeIndex].first = begin;
        nodes[nodeIndex].count = end - begin;
    }

    Box boundsOf(std::uint32_t begin, std::uint32_t end) const {
        Box b;
        for (std::uint32_t i = begin; i < end; ++i)
            b.grow(primBounds[prims[i]]);
        return b;
    }

    /// Splits [begin, end) in half by centroid along `axis` (used when the SAH cannot split,
    /// e.g. all centroids equal, or the tree is already deep).
    std::uint32_t medianSplit(std::uint32_t begin, std::uint32_t end, int axis) {
        const std::uint32_t mid = begin + (end - begin) / 2;
        std::nth_element(
            prims.begin() + begin, prims.begin() + mid, prims.begin() + end,
            [&](std::uint32_t a, std::uint32_t b) { return centroids[a][axis] < centroids[b][axis]; });
        return mid;
    }

    void split(std::uint32_t nodeIndex, std::uint32_t begin, std::uint32_t end, const Box& bounds,
               int depth) {
        store(nodes[nodeIndex], bounds);
        const std::uint32_t count = end - begin;
        if (count == 1) return makeLeaf(nodeIndex, begin, end);

        Box centroidBounds;
        for (std::uint32_t i = begin; i < end; ++i)
            centroidBounds.grow(centroids[prims[i]]);
        const glm::vec3 extent = centroidBounds.hi - centroidBounds.lo;
        const int widest =
            extent.x >= extent.y ? (extent.x >= extent.z ? 0 : 2) : (extent.y >= extent.z ? 1 : 2);

        std::uint32_t mid = begin;
        Box leftBounds, rightBounds;
        bool sahSplit = false;
        if (depth < kMaxSahDepth && extent[widest] > 0.0f) {
            // Bin the centroids on all three axes in one pass.
            glm::vec3 scale(0.0f);
            for (int a = 0; a < 3; ++a)
                scale[a] = extent[a] > 0.0f ? static_cast<float>(kBins) * 0.99999f / extent[a] : 0.0f;
            const auto binOf = [&](const glm::vec3& c, int a) {
                return std::min(kBins - 1, static_cast<int>((c[a] - centroidBounds.lo[a]) * scale[a]));
            };
            std::array<std::array<Box, kBins>, 3> binBounds{};
            std::array<std::array<std::uint32_t, kBins>, 3> binCounts{};
            for (std::uint32_t i = begin; i < end; ++i) {
                const std::uint32_t p = prims[i];
                for (int a = 0; a < 3; ++a) {
                    const auto bin = static_cast<std::size_t>(binOf(centroids[p], a));
                    binBounds[static_cast<std::size_t>(a)][bin].grow(primBounds[p]);
                    ++binCounts[static_cast<std::size_t>(a)][bin];
                }
            }
            // Sweep: cost of splitting after bin k = A(left) N(left) + A(right) N(right).
            float bestCost = INFINITY;
            int bestAxis = -1, bestBin = 0;
            for (int a = 0; a < 3; ++a) {
                if (!(extent[a] > 0.0f)) continue;
                const auto& bb = binBounds[static_cast<std::size_t>(a)];
                const auto& bc = binCounts[static_cast<std::size_t>(a)];
                std::array<float, kBins> rightCost{};
                std::array<Box, kBins> rightBox{};
                Box acc;
                std::uint32_t n = 0;
                for (int k = kBins - 1; k > 0; --k) {
                    acc.grow(bb[static_cast<std::size_t>(k)]);
                    n += bc[static_cast<std::size_t>(k)];
                    rightBox[static_cast<std::size_t>(k)] = acc;
                    rightCost[static_cast<std::size_t>(k)] =
                        n == 0 ? -1.0f : acc.halfArea() * static_cast<float>(n);
                }
                acc = Box{};
                n = 0;
                for (int k = 0; k < kBins - 1; ++k) {
                    acc.grow(bb[static_cast<std::size_t>(k)]);
                    n += bc[static_cast<std::size_t>(k)];
                    const float right = rightCost[static_cast<std::size_t>(k + 1)];
                    if (n == 0 || right < 0.0f) continue; // one side empty
                    const float cost = acc.halfArea() * static_cast<float>(n) + right;
                    if (cost < bestCost) {
                        bestCost = cost;
                        bestAxis = a;
                        bestBin = k;
                        leftBounds = acc;
                        rightBounds = rightBox[static_cast<std::size_t>(k + 1)];
                    }
                }
            }
            if (bestAxis >= 0) {
                const float area = bounds.halfArea();
                const float splitCost = kTraversalCost + (area > 0.0f ? bestCost / area : 0.0f);
                if (count <= kMaxLeafSize && static_cast<float>(count) <= splitCost) {
                    return makeLeaf(nodeIndex, begin, end);
                }
                const auto it =
                    std::partition(prims.begin() + begin, prims.begin() + end,
                                   [&](std::uint32_t p) { return binOf(centroids[p], bestAxis) <= bestBin; });
                mid = static_cast<std::uint32_t>(it - prims.begin());
                sahSplit = mid > begin && mid < end;
            }
        }
        if (!sahSplit) {
            if (count <= kMaxLeafSize) return makeLeaf(nodeIndex, begin, end);
            mid = medianSplit(begin, end, widest);
            leftBounds = boundsOf(begin, mid);
            rightBounds = boundsOf(mid, end);
        }

        const auto left = static_cast<std::uint32_t>(nodes.size());
        nodes[nodeIndex].first = left;
        nodes[nodeIndex].count = 0;
        nodes.push_back({});
        nodes.push_back({});
        split(left, begin, mid, leftBounds, depth + 1);
        split(left + 1, mid, end, rightBounds, depth + 1);
    }
};

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

    MeshBvh bvh;
    std::vector<Triangle> kept;
    kept.reserve(triangleCount);
    bvh.triIds_.reserve(triangleCount);
    Builder builder;
    builder.primBounds.reserve(triangleCount);
    builder.centroids.reserve(triangleCount);
    Box all;
    for (std::size_t t = 0; t < triangleCount; ++t) {
        const Triangle tri{vertices[indices[3 * t]], vertices[indices[3 * t + 1]],
                           vertices[indices[3 * t + 2]]};
        if (!isValid(tri)) continue; // zero area or non-finite: raycastBarycentric never hits it
        Box b;
        b.grow(tri.a);
        b.grow(tri.b);
        b.grow(tri.c);
        all.grow(b);
        kept.push_back(tri);
        bvh.triIds_.push_back(static_cast<std::uint32_t>(t));
        builder.primBounds.push_back(b);
        builder.centroids.push_back((b.lo + b.hi) * 0.5f);
    }
    if (kept.empty()) return bvh;

    const auto n = static_cast<std::uint32_t>(kept.size());
    builder.prims.resize(n);
    for (std::uint32_t i = 0; i < n; ++i)
        builder.prims[i] = i;
    builder.nodes.reserve(2 * static_cast<std::size_t>(n));
    builder.nodes.push_back({});
    builder.split(0, 0, n, all, 0);

    // Copy the triangles into leaf order.
    bvh.triangles_.resize(n);
    std::vector<std::uint32_t> ids(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        bvh.triangles_[i] = kept[builder.prims[i]];
        ids[i] = bvh.triIds_[builder.prims[i]];
    }
    bvh.triIds_ = std::move(ids);
    bvh.nodes_ = std::move(builder.nodes);
    bvh.bounds_ = {all.lo, all.hi};
    bvh.coordinateScale_ = std::max(maxAbs(all.lo), maxAbs(all.hi));
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

std::vector<Aabb> MeshBvh::nodeBoxes(int maxDepth) const {
    std::vector<Aabb> boxes;
    if (nodes_.empty() || maxDepth < 0) return boxes;
    std::vector<std::pair<std::uint32_t, int>> stack{{0u, 0}};
    while (!stack.empty()) {
        const auto [index, level] = stack.back();
        stack.pop_back();
        const Node& node = nodes_[index];
        boxes.push_back({glm::vec3(node.min[0], node.min[1], node.min[2]),
                         glm::vec3(node.max[0], node.max[1], node.max[2])});
        if (node.count == 0 && level < maxDepth) {
            stack.emplace_back(node.first + 1, level + 1);
            stack.emplace_back(node.first, level + 1);
        }
    }
    return boxes;
}

int MeshBvh::depth() const {
    if (nodes_.empty()) return 0;
    int deepest = 0;
    std::vector<std::pair<std::uint32_t, int>> stack{{0u, 1}};
    while (!stack.empty()) {
        const auto [index, level] = stack.back();
        stack.pop_back();
        deepest = std::max(deepest, level);
        const Node& node = nodes_[index];
        if (node.count == 0) {
            stack.emplace_back(node.first, level + 1);
            stack.emplace_back(node.first + 1, level + 1);
        }
    }
    return deepest;
}

// ---------------------------------------------------------------------------------------------
// Queries

template <class VisitLeaf>
void MeshBvh::traverse(const Ray& ray, float tMax, VisitLeaf&& visitLeaf) const {
    const float slack = kBoxSlack * (maxAbs(ray.origin) + coordinateScale_) + kBoxSlackAbsolute;
    const SlabRay slab(ray, tMax, slack);

    struct Entry {
        std::uint32_t node;
        float tEnter;
    };
    std::array<Entry, kStackSize> stack;
    int top = 0;
    float cull = INFINITY; // subtrees entered beyond this distance cannot improve the result

    float tRoot = 0.0f;
    if (!slab.enters(nodes_[0].min, nodes_[0].max, tRoot)) return;
    std::uint32_t current = 0;
    for (;;) {
        const Node& node = nodes_[current];
        if (node.count > 0) {
            cull = visitLeaf(node.first, node.count);
        } else {
            const Node& left = nodes_[node.first];
            const Node& right = nodes_[node.first + 1];
            float tLeft = 0.0f, tRight = 0.0f;
            const bool hitLeft = slab.enters(left.min, left.max, tLeft) && tLeft <= cull;
            const bool hitRight = slab.enters(right.min, right.max, tRight) && tRight <= cull;
            if (hitLeft && hitRight) {
                // Nearer child first; the farther one waits with its entry distance.
                const bool rightFirst = tRight < tLeft;
                stack[static_cast<std::size_t>(top++)] =
                    rightFirst ? Entry{node.first, tLeft} : Entry{node.first + 1, tRight};
                current = rightFirst ? node.first + 1 : node.first;
                continue;
            }
            if (hitLeft || hitRight) {
                current = hitLeft ? node.first : node.first + 1;
                continue;
            }
        }
        // Pop the next subtree that may still hold a hit no farther than the best one.
        bool found = false;
        while (top > 0) {
            const Entry e = stack[static_cast<std::size_t>(--top)];
            if (e.tEnter <= cull) {
                current = e.node;
                found = true;
                break;
            }
        }
        if (!found) return;
    }
}

std::optional<MeshHit> MeshBvh::raycast(const Ray& ray, float tMax) const {
    if (nodes_.empty() || !validRay(ray, tMax)) return std::nullopt;
    TriangleHit best{INFINITY, 0.0f, 0.0f, glm::vec3(0.0f)};
    std::uint32_t bestId = std::numeric_limits<std::uint32_t>::max();
    traverse(ray, tMax, [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t i = first; i < first + count; ++i) {
            const auto hit = raycastBarycentric(ray, triangles_[i], tMax);
            // Nearest wins; on an exact tie the lower input index, as a brute-force loop would.
            if (hit && (hit->t < best.t || (hit->t == best.t && triIds_[i] < bestId))) {
                best = *hit;
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
    traverse(ray, tMax, [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t i = first; i < first + count; ++i) {
            const auto hit = raycastBarycentric(ray, triangles_[i], tMax);
            if (!hit) continue;
            const MeshHit meshHit = toMeshHit(ray, *hit, triIds_[i]);
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
