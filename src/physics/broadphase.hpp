// Broad phase: which pairs of boxes may overlap, without an O(n^2) pair loop: a uniform grid
// (GridBroadPhase, what the world's step and maxPenetration use) or sort and sweep (the
// reference the grid is tested against).
#pragma once

#include "geom/types.hpp"
#include "uncopied.hpp"

#include <cmath>
#include <span>
#include <utility>
#include <vector>

namespace kz {

class JobSystem;

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
/// pairs in the same order, on any number of threads (`jobs`; null: the calling thread): the
/// boxes' cells are found per box, the cells filled and searched by ranges of cells, and each
/// range's pairs appended in cell order.
class GridBroadPhase {
public:
    void findPairs(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs,
                   JobSystem* jobs = nullptr);
    /// Appends to `out` the indices of the boxes the last findPairs was given that may overlap
    /// `query` (a finite box): those in the cells it covers, and those without a cell; each at
    /// least once, in no particular order. Every box of that call that overlaps `query` is among
    /// them (all of them when it had fewer than two boxes).
    void boxesNear(const Aabb& query, std::vector<int>& out) const;
    /// Box `i` of the last findPairs has grown to `box` since (World::watchPath): boxesNear also
    /// appends `i` for every query that meets the cells `box` covers (a box that is not finite
    /// meets nothing and is not kept). Each findPairs forgets what was grown before it.
    void noteGrown(int i, const Aabb& box);
    /// The heap bytes a copy holds (the last grid's cells and entries).
    std::size_t memoryBytes() const;

private:
    /// The uniform grid over the finite boxes.
    struct Grid {
        glm::vec3 lo;    ///< The low corner of cell (0, 0, 0).
        float invCell;   ///< 1 / the cell size.
        glm::ivec3 dims; ///< Cells per axis.
        bool gridded;    ///< False when the boxes span more than a float can hold: all oversize.

        /// The cell holding p (p >= lo, so truncation is floor, and avoids a libm call per
        /// coordinate).
        glm::ivec3 cellOf(const glm::vec3& p) const {
            return glm::min(glm::ivec3((p - lo) * invCell), dims - 1);
        }
        int flat(const glm::ivec3& c) const { return (c.z * dims.y + c.y) * dims.x + c.x; }
        int cellCount() const { return dims.x * dims.y * dims.z; }
    };
    Grid chooseGrid(std::span<const Aabb> boxes, JobSystem* jobs);
    void sortIntoCells(std::span<const Aabb> boxes, const Grid& grid, JobSystem* jobs);
    /// Counts (fill == false) or fills the entries of the cells in [first, last), range `range` of
    /// `ranges`, from the boxes that reach it, each cell's boxes in index order.
    void placeInCells(std::span<const Aabb> boxes, const Grid& grid, int range, int ranges, int first,
                      int last, bool fill);
    void pairsWithinCells(const Grid& grid, int first, int last,
                          std::vector<std::pair<int, int>>& pairs) const;
    /// Pairs of the oversize boxes (no cell, or too many) with every box they overlap.
    void oversizePairs(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs) const;

    std::vector<int> cellStart_;  ///< Per cell, first entry in entries_ (counting sort).
    std::vector<int> entries_;    ///< Box indices grouped by cell.
    std::vector<Aabb> boxCopies_; ///< The boxes, in the same order as entries_.
    std::vector<int> oversize_;   ///< Boxes spanning too many cells: tested against all.
    std::vector<float> extents_;
    std::vector<glm::ivec3> minCell_; ///< Per box, the cell of its min corner.
    std::vector<glm::ivec3> maxCell_; ///< Per box, the cell of its max corner; x = -1 for an oversize box.
    /// The cells, clamped into the grid, that a finite box covers.
    std::pair<glm::ivec3, glm::ivec3> cellRange(const Aabb& box) const;

    /// Per cell, the boxes grown into it since the last findPairs (noteGrown), and the cells
    /// that have any (to clear them); boxes grown over too many cells.
    std::vector<std::vector<int>> grownInCell_;
    std::vector<int> grownCells_;
    std::vector<int> grownOversize_;
    Grid grid_{};      ///< The last findPairs' grid.
    int boxCount_ = 0; ///< And its number of boxes.
    /// Per chunk of cells, its pairs (when the search runs in more than one chunk).
    Uncopied<std::vector<std::vector<std::pair<int, int>>>> chunkPairs_;
    /// Per chunk of boxes and range of cells (chunk * ranges + range): the boxes that reach it.
    Uncopied<std::vector<std::vector<int>>> reaching_;
    /// Per chunk of boxes: its finite boxes' largest extents and their bounds (chooseGrid).
    struct ExtentPart {
        std::vector<float> extents;
        glm::vec3 lo{INFINITY}, hi{-INFINITY};
    };
    Uncopied<std::vector<ExtentPart>> extentParts_;
};

} // namespace kz
