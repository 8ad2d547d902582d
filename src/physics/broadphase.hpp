// Broad phase: which pairs of boxes may overlap, by sort and sweep (no O(n^2) pair loop).
#pragma once

#include "geom/types.hpp"

#include <span>
#include <utility>
#include <vector>

namespace kz {

/// Appends every pair (i, j), i < j, whose boxes overlap (touching counts) to `pairs`, in a
/// deterministic order. Sorts on the axis of largest spread, then sweeps.
/// `order` is scratch space kept by the caller to avoid reallocating.
void sortAndSweep(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs,
                  std::vector<int>& order);

} // namespace kz
