// Broad phase: which pairs of boxes may overlap, by sort and sweep (no O(n^2) pair loop).
#pragma once

#include "geom/types.hpp"

#include <span>
#include <utility>
#include <vector>

namespace kz {

/// Replaces `pairs` with every pair (i, j), i < j, whose boxes overlap (touching counts), in a
/// deterministic order. Sorts on the axis of largest spread, then sweeps. A box with a NaN
/// coordinate overlaps nothing; one with an infinite coordinate is compared with every box (both
/// finders: neither sorts nor grids such a box).
/// `order` is scratch space kept by the caller to avoid reallocating.
void sortAndSweep(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs,
                  std::vector<int>& order);

/// The same pairs, found with a uniform grid (counting sort of boxes into cells about twice
/// the median box size; each pair reported once, by the cell holding the low corner of the
/// two boxes' overlap). Linear in the number of boxes for evenly spread scenes, where a sweep
/// along one axis degrades to O(n^2 / cells per axis). The same boxes always give the same
/// pairs in the same order.
class GridBroadPhase {
public:
    void findPairs(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs);

private:
    std::vector<int> cellStart_;  ///< Per cell, first entry in entries_ (counting sort).
    std::vector<int> entries_;    ///< Box indices grouped by cell.
    std::vector<Aabb> boxCopies_; ///< The boxes, in the same order as entries_.
    std::vector<int> oversize_;   ///< Boxes spanning too many cells: tested against all.
    std::vector<float> extents_;
    std::vector<glm::ivec3> minCell_; ///< Per box, the cell of its min corner.
};

} // namespace kz
