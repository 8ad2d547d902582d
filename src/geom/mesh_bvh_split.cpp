// MeshBvh's build, the split search: how a node of the binary tree is split, by the top-down
// binned SAH (16 bins per axis, Wald 2007) over the triangles' bounds and centroids (sahSplit and
// its steps: binCentroids, cheapestBinSplit, partition), else at the median (medianSplit).
#include "mesh_bvh_split.hpp"

#include "mesh_bvh.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>

namespace kz::detail {

namespace {

constexpr int kBins = 16;
/// The SAH counts a leaf's triangles in blocks of 4, as Embree does (the SSE2 leaf filter tests 4
/// at once, AVX2 8, AVX-512 16).
constexpr std::uint32_t kBlock = 4;
/// The SAH's cost of a split (visiting one more node of the binary tree) in units of the cost of
/// testing one block of triangles. Embree weighs both 1; on bench_mesh's workloads 2 was as fast
/// or faster than 1 and 0.5 (medians of 5, the binaries run one after the other twice).
constexpr float kSplitCost = 2.0f;

/// Blocks of kBlock triangles needed for n triangles.
constexpr std::uint32_t blocks(std::uint32_t n) {
    return (n + kBlock - 1) / kBlock;
}
/// Deeper subtrees are split at the object median, so the binary tree has fewer than
/// kMaxSahDepth + 32 levels whatever the input (MeshBvh::kStackSize is sized from it).
constexpr int kMaxSahDepth = 64;

/// Bins of lanes 0-2 of twice the centroid, each clamped to [0, kBins - 1] (a NaN to 0).
struct Binner {
    F4 origin;
    F4 scale;
    void operator()(const PrimRef& p, int (&bin)[4]) const {
        const F4 x = (p.centroid2() - origin) * scale;
        truncate3(min4(max4(x, splat4(0.0f)), splat4(static_cast<float>(kBins - 1))), bin);
    }
    /// The bin on `axis` alone, in scalar: the same operations on that lane (MAXPS and
    /// MINPS as x > 0 ? x : 0 and x < kBins - 1 ? x : kBins - 1), so the same bin, without
    /// storing the vector to pick a lane from memory.
    struct OneAxis {
        float origin;
        float scale;
        std::size_t axis;
        int operator()(const PrimRef& p) const {
            const float x = ((p.lo[axis] + p.hi[axis]) - origin) * scale;
            const float low = x > 0.0f ? x : 0.0f;
            constexpr auto kLast = static_cast<float>(kBins - 1);
            return static_cast<int>(low < kLast ? low : kLast);
        }
    };
    OneAxis onAxis(std::size_t axis) const {
        return {lane(origin, static_cast<int>(axis)), lane(scale, static_cast<int>(axis)), axis};
    }
};

/// Triangles per bin, and the union of their bounds, on each axis.
struct Bins {
    std::array<std::array<Box, kBins>, 3> bounds;
    std::array<std::array<std::uint32_t, kBins>, 3> counts{};
};

/// The cheapest SAH split: after bin `bin` on `axis` (axis -1: no axis can be split), and its
/// cost: the sum over both sides of half their area times their blocks of triangles.
struct BinSplit {
    int axis = -1;
    int bin = 0;
    float cost = INFINITY;
};

/// What sahSplit decided.
enum class SahResult { Split, Leaf, CannotSplit };

/// The axis along which `extent` is largest (the first of equals).
int widestAxis(const float (&extent)[4]) {
    return extent[0] >= extent[1] ? (extent[0] >= extent[2] ? 0 : 2) : (extent[1] >= extent[2] ? 1 : 2);
}

/// The split search over `prims`, which it partitions in place so that every node covers a
/// contiguous range of it.
struct Splitter {
    std::span<PrimRef> prims;

    /// detail::findSplit (mesh_bvh_split.hpp).
    Split findSplit(std::uint32_t begin, std::uint32_t end, const Box& bounds, const Box& centroidBounds,
                    int depth) {
        Split split;
        const std::uint32_t count = end - begin;
        if (count <= kBlock) return split; // one block: testing it costs less than any split

        alignas(16) float extent[4];
        store4(extent, centroidBounds.hi - centroidBounds.lo);
        const int widest = widestAxis(extent);

        if (depth < kMaxSahDepth && extent[widest] > 0.0f) {
            const SahResult result = sahSplit(begin, end, bounds, centroidBounds, extent, split);
            if (result == SahResult::Split) return split;
            if (result == SahResult::Leaf) return Split{};
        }
        if (count <= MeshBvh::kMaxLeafTriangles) return Split{};
        medianSplit(begin, end, widest, split);
        return split;
    }

    /// The binned SAH split of [begin, end), partitioned in place (Split); or Leaf when testing
    /// all its triangles costs no more than the split (and they fit a leaf), or CannotSplit when
    /// no bin boundary leaves triangles on both sides (`split` reset for both).
    SahResult sahSplit(std::uint32_t begin, std::uint32_t end, const Box& bounds, const Box& centroidBounds,
                       const float (&extent)[4], Split& split) {
        alignas(16) float scale[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int a = 0; a < 3; ++a) {
            const float s = extent[a] > 0.0f ? static_cast<float>(kBins) * 0.99999f / extent[a] : 0.0f;
            scale[a] = std::min(s, FLT_MAX);
        }
        const Binner binOf{centroidBounds.lo, load4(scale)};
        const Bins bins = binCentroids(std::span<const PrimRef>(prims.data() + begin, end - begin), binOf);
        const BinSplit best = cheapestBinSplit(bins, extent);
        if (best.axis < 0) return SahResult::CannotSplit;
        const std::uint32_t count = end - begin;
        const float area = bounds.halfArea();
        if (count <= MeshBvh::kMaxLeafTriangles &&
            area * static_cast<float>(blocks(count)) <= area * kSplitCost + best.cost)
            return SahResult::Leaf;

        // The children's bounds are the unions of their bins, and the partition below uses the
        // same bins, so every triangle lies inside its node's box.
        const auto axis = static_cast<std::size_t>(best.axis);
        for (std::size_t k = 0; k < kBins; ++k)
            split.bounds[static_cast<int>(k) <= best.bin ? 0 : 1].grow(bins.bounds[axis][k]);
        const Binner::OneAxis binOnAxis = binOf.onAxis(axis);
        partition(begin, end, split, [&](const PrimRef& p) { return binOnAxis(p) <= best.bin; });
        if (split.mid > begin && split.mid < end) {
            split.leaf = false;
            return SahResult::Split;
        }
        split = Split{};
        return SahResult::CannotSplit;
    }

    /// Bins the centroids of `range` on all three axes in one pass. (Static, on a span and a copy
    /// of the binner: nothing the loop stores into the bins can alias what it reads.) Neighbouring
    /// triangles mostly fall into the same bins, so each grows the box the one before it just
    /// stored: a large range alternates between two sets of bins, merged at the end, so that two
    /// such chains run at once. Unions and counts do not depend on the order: the same bins.
    static Bins binCentroids(std::span<const PrimRef> range, const Binner binOf) {
        const auto add = [&binOf](const PrimRef& p, Bins& bins) {
            int bin[4];
            binOf(p, bin);
            Box b;
            b.lo = p.lower();
            b.hi = p.upper();
#pragma GCC unroll 3
            for (std::size_t a = 0; a < 3; ++a) {
                const auto k = static_cast<std::size_t>(bin[a]);
                bins.bounds[a][k].grow(b);
                ++bins.counts[a][k];
            }
        };
        Bins bins;
        if (range.size() < kTwoBinSets) {
            for (const PrimRef& p : range)
                add(p, bins);
            return bins;
        }
        Bins odd;
        std::size_t i = 0;
        for (; i + 1 < range.size(); i += 2) {
            add(range[i], bins);
            add(range[i + 1], odd);
        }
        if (i < range.size()) add(range[i], bins);
        for (std::size_t a = 0; a < 3; ++a) {
            for (std::size_t k = 0; k < kBins; ++k) {
                bins.bounds[a][k].grow(odd.bounds[a][k]);
                bins.counts[a][k] += odd.counts[a][k];
            }
        }
        return bins;
    }
    /// The range from which binCentroids uses two sets of bins.
    static constexpr std::size_t kTwoBinSets = 256;

    /// Sweep: cost of splitting after bin k = A(left) B(left) + A(right) B(right), B the blocks
    /// of triangles on a side, for every k leaving triangles on both sides. The first cheapest
    /// wins, axes in order x, y, z: a split after an empty bin costs exactly what the split after
    /// the non-empty bin before it costs (an empty bin's inverted box changes no union), so it
    /// never wins. The half areas of the unions are computed four at a time, each with
    /// Box::halfArea's operations in its order, so the costs are Box::halfArea's to the bit.
    static BinSplit cheapestBinSplit(const Bins& bins, const float (&extent)[4]) {
        BinSplit best;
        for (std::size_t a = 0; a < 3; ++a) {
            if (!(extent[a] > 0.0f)) continue;
            const auto& bb = bins.bounds[a];
            const auto& bc = bins.counts[a];
            // left[k]: bins 0 to k; right[k]: bins k to kBins - 1.
            alignas(16) float leftArea[kBins];
            alignas(16) float rightArea[kBins];
            std::array<std::uint32_t, kBins> leftCount;
            std::array<std::uint32_t, kBins> rightCount;
            std::array<F4, kBins> leftExtent;
            std::array<F4, kBins> rightExtent;
            Box left;
            Box right;
            std::uint32_t nLeft = 0;
            std::uint32_t nRight = 0;
            for (std::size_t k = 0; k < kBins; ++k) {
                const std::size_t r = kBins - 1 - k;
                left.grow(bb[k]);
                right.grow(bb[r]);
                nLeft += bc[k];
                nRight += bc[r];
                leftCount[k] = nLeft;
                rightCount[r] = nRight;
                leftExtent[k] = max4(left.hi - left.lo, splat4(0.0f));
                rightExtent[r] = max4(right.hi - right.lo, splat4(0.0f));
            }
            for (std::size_t k = 0; k < kBins; k += 4) {
                halfAreas(&leftExtent[k], leftArea + k);
                halfAreas(&rightExtent[k], rightArea + k);
            }
            for (std::size_t k = 0; k + 1 < kBins; ++k) {
                if (leftCount[k] == 0 || rightCount[k + 1] == 0) continue;
                const float cost = leftArea[k] * static_cast<float>(blocks(leftCount[k])) +
                                   rightArea[k + 1] * static_cast<float>(blocks(rightCount[k + 1]));
                if (cost < best.cost) best = {static_cast<int>(a), static_cast<int>(k), cost};
            }
        }
        return best;
    }

    /// Box::halfArea of four boxes from their extents (lanes 0-2 of max(hi - lo, 0)), into
    /// area[0..4): e0 e1 + e1 e2 + e2 e0 in that order, four lanes at once.
    static void halfAreas(const F4* extents, float* area) {
        F4 x, y, z;
        transpose3(extents[0], extents[1], extents[2], extents[3], x, y, z);
        store4(area, x * y + y * z + z * x);
    }

    /// In-place partition of [begin, end) into the triangles `goesLeft` accepts, then the rest;
    /// sets split.mid and the children's centroid bounds.
    template <class GoesLeft>
    void partition(std::uint32_t begin, std::uint32_t end, Split& split, GoesLeft&& goesLeft) {
        // The centroid bounds in locals, not in `split`: through the reference, each grow was a
        // load and a store that the next one waited for.
        Box left = split.centroids[0];
        Box right = split.centroids[1];
        PrimRef* const p = prims.data();
        std::uint32_t i = begin, j = end;
        for (;;) {
            while (i < j && goesLeft(p[i])) {
                left.grow(p[i].centroid2());
                ++i;
            }
            while (i < j && !goesLeft(p[j - 1])) {
                right.grow(p[j - 1].centroid2());
                --j;
            }
            if (i >= j) break;
            std::swap(p[i], p[j - 1]);
        }
        split.centroids[0] = left;
        split.centroids[1] = right;
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
};

} // namespace

Split findSplit(std::span<PrimRef> prims, std::uint32_t begin, std::uint32_t end, const Box& bounds,
                const Box& centroidBounds, int depth) {
    return Splitter{prims}.findSplit(begin, end, bounds, centroidBounds, depth);
}

Split medianSplitAlongWidest(std::span<PrimRef> prims, std::uint32_t begin, std::uint32_t end) {
    Box centroids;
    for (std::uint32_t i = begin; i < end; ++i)
        centroids.grow(prims[i].centroid2());
    alignas(16) float extent[4];
    store4(extent, centroids.hi - centroids.lo);
    Split split;
    Splitter{prims}.medianSplit(begin, end, widestAxis(extent), split);
    return split;
}

} // namespace kz::detail
