#include "broadphase.hpp"

#include "job_system.hpp"
#include "memory_bytes.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

/// Whether every coordinate of the box is finite: only such boxes are sorted or gridded (a NaN
/// has no order and no cell; an infinity has no cell).
bool isFinite(const Aabb& box) {
    return std::isfinite(box.min.x) && std::isfinite(box.min.y) && std::isfinite(box.min.z) &&
           std::isfinite(box.max.x) && std::isfinite(box.max.y) && std::isfinite(box.max.z);
}

/// Touching counts; a box with a NaN coordinate overlaps nothing.
bool overlaps(const Aabb& a, const Aabb& b) {
    return a.min.x <= b.max.x && a.max.x >= b.min.x && a.min.y <= b.max.y && a.max.y >= b.min.y &&
           a.min.z <= b.max.z && a.max.z >= b.min.z;
}

} // namespace

void sortAndSweep(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs,
                  std::vector<int>& order) {
    pairs.clear();
    const int n = static_cast<int>(boxes.size());
    if (n < 2) return;

    // Sweep along the axis where the centres spread most: fewest false pairs. Boxes with a NaN
    // or an infinite coordinate are left out of the sort (a NaN breaks its ordering) and tested
    // against every box at the end.
    glm::vec3 mean(0.0f), meanSq(0.0f);
    order.clear();
    for (int i = 0; i < n; ++i) {
        if (!isFinite(boxes[i])) continue;
        const glm::vec3 c = 0.5f * (boxes[i].min + boxes[i].max);
        mean += c;
        meanSq += c * c;
        order.push_back(i);
    }
    const int sorted = static_cast<int>(order.size());
    const float count = static_cast<float>(std::max(sorted, 1));
    const glm::vec3 variance = meanSq / count - (mean * mean) / (count * count);
    const int axis =
        variance.x >= variance.y ? (variance.x >= variance.z ? 0 : 2) : (variance.y >= variance.z ? 1 : 2);

    std::sort(order.begin(), order.end(), [&](int p, int q) {
        const float a = boxes[p].min[axis], b = boxes[q].min[axis];
        return a < b || (a == b && p < q); // ties by index: deterministic
    });

    for (int oi = 0; oi < sorted; ++oi) {
        const Aabb& a = boxes[order[oi]];
        for (int oj = oi + 1; oj < sorted; ++oj) {
            const Aabb& b = boxes[order[oj]];
            if (b.min[axis] > a.max[axis]) break;
            if (a.min.x <= b.max.x && a.max.x >= b.min.x && a.min.y <= b.max.y && a.max.y >= b.min.y &&
                a.min.z <= b.max.z && a.max.z >= b.min.z) {
                pairs.emplace_back(std::min(order[oi], order[oj]), std::max(order[oi], order[oj]));
            }
        }
    }
    if (sorted == n) return;
    for (int i = 0; i < n; ++i) {
        if (isFinite(boxes[i])) continue;
        for (int j = 0; j < n; ++j) {
            if (j != i && (isFinite(boxes[j]) || j > i) && overlaps(boxes[i], boxes[j]))
                pairs.emplace_back(std::min(i, j), std::max(i, j));
        }
    }
}

namespace {

/// Boxes per chunk when finding each box's cells; cells per chunk of the pair search.
constexpr std::size_t kBoxGrain = 2048;
constexpr std::size_t kCellGrain = 256;
/// A box grown over more cells than this (noteGrown) is returned by every boxesNear instead.
constexpr std::int64_t kMaxGrownCells = 64;

std::vector<int>& fillScratch() {
    thread_local std::vector<int> scratch;
    return scratch;
}

} // namespace

GridBroadPhase::Grid GridBroadPhase::chooseGrid(std::span<const Aabb> boxes, JobSystem* jobs) {
    // Cell size: twice the median of the boxes' largest extents; the grid covers all finite
    // boxes. A box with a NaN or an infinite coordinate has no cell: it is tested against all
    // (as an oversize box), and so is every box when the boxes span more than a float can hold.
    // Per chunk of boxes, then merged: the median's value and the bounds do not depend on the
    // order (but for the sign of a zero bound, which gives the same cells).
    const auto measure = [&](std::size_t begin, std::size_t end, std::vector<float>& extents, glm::vec3& lo,
                             glm::vec3& hi) {
        for (std::size_t i = begin; i < end; ++i) {
            const Aabb& box = boxes[i];
            if (!isFinite(box)) continue;
            const glm::vec3 size = box.max - box.min;
            extents.push_back(std::max({size.x, size.y, size.z}));
            lo = glm::min(lo, box.min);
            hi = glm::max(hi, box.max);
        }
    };
    extents_.clear();
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    const std::size_t chunks = chunkCount(jobs, boxes.size(), kBoxGrain);
    if (chunks <= 1) {
        measure(0, boxes.size(), extents_, lo, hi);
    } else {
        std::vector<ExtentPart>& parts = extentParts_.value;
        parts.resize(chunks);
        jobs->parallelFor(boxes.size(), kBoxGrain, [&](const JobChunk& chunk) {
            ExtentPart& part = parts[chunk.index];
            part.extents.clear();
            part.lo = glm::vec3(INFINITY);
            part.hi = glm::vec3(-INFINITY);
            measure(chunk.begin, chunk.end, part.extents, part.lo, part.hi);
        });
        for (const ExtentPart& part : parts) {
            extents_.insert(extents_.end(), part.extents.begin(), part.extents.end());
            lo = glm::min(lo, part.lo);
            hi = glm::max(hi, part.hi);
        }
    }
    const std::size_t middle = extents_.size() / 2;
    std::nth_element(extents_.begin(), extents_.begin() + static_cast<std::ptrdiff_t>(middle),
                     extents_.end());
    float cell = extents_.empty() ? 1.0f : std::max(2.0f * extents_[middle], 1e-6f);
    glm::vec3 span = hi - lo;
    const bool gridded = std::isfinite(span.x) && std::isfinite(span.y) && std::isfinite(span.z);
    if (!gridded) span = glm::vec3(0.0f);
    // At most 2^21 cells: coarser cells for a sparse, wide scene.
    while ((std::floor(span.x / cell) + 1.0f) * (std::floor(span.y / cell) + 1.0f) *
               (std::floor(span.z / cell) + 1.0f) >
           2097152.0f) {
        cell *= 2.0f;
    }
    return {lo, 1.0f / cell, glm::ivec3(glm::floor(span / cell)) + 1, gridded};
}

void GridBroadPhase::sortIntoCells(std::span<const Aabb> boxes, const Grid& grid, JobSystem* jobs) {
    // Counting sort of (cell, box) entries; a box spanning too many cells is oversize. The cells
    // are cut into ranges; each range is counted, then filled, by one thread from the boxes that
    // reach it, in index order: a cell's entries come in index order, whoever fills which range.
    constexpr int kMaxCellsPerBox = 64;
    const int n = static_cast<int>(boxes.size());
    const int cellCount = grid.cellCount();
    // Four ranges a thread, taken in turn: a thread that starts late or is interrupted leaves its
    // share to the others.
    const int ranges =
        jobs && jobs->threads() > 1 ? std::min(4 * jobs->threads(), std::max(cellCount, 1)) : 1;
    const auto cellAt = [&](int r) {
        return static_cast<int>(static_cast<std::int64_t>(r) * cellCount / ranges);
    };
    const auto rangeOf = [&](int cell) {
        int r = static_cast<int>(static_cast<std::int64_t>(cell) * ranges / cellCount);
        while (r + 1 < ranges && cellAt(r + 1) <= cell)
            ++r;
        while (r > 0 && cellAt(r) > cell)
            --r;
        return r;
    };
    minCell_.resize(static_cast<std::size_t>(n));
    maxCell_.resize(static_cast<std::size_t>(n));
    // Each box's cells, and the ranges it reaches (per chunk of boxes, so each range's list of
    // boxes is the chunks' lists in order).
    std::vector<std::vector<int>>& reaching = reaching_.value;
    const std::size_t boxChunks = chunkCount(jobs, boxes.size(), kBoxGrain);
    reaching.resize(boxChunks * static_cast<std::size_t>(ranges));
    parallelFor(jobs, boxes.size(), kBoxGrain, [&](const JobChunk& chunk) {
        std::vector<int>* lists = &reaching[chunk.index * static_cast<std::size_t>(ranges)];
        for (int r = 0; r < ranges; ++r)
            lists[r].clear();
        for (int i = static_cast<int>(chunk.begin); i < static_cast<int>(chunk.end); ++i) {
            maxCell_[i] = glm::ivec3(-1); // oversize until it has its cells
            if (!grid.gridded || !isFinite(boxes[i])) continue;
            const glm::ivec3 a = grid.cellOf(boxes[i].min), b = grid.cellOf(boxes[i].max);
            minCell_[i] = a;
            const glm::ivec3 count = b - a + 1;
            if (count.x * count.y * count.z > kMaxCellsPerBox) continue;
            maxCell_[i] = b;
            for (int r = rangeOf(grid.flat(a)); r <= rangeOf(grid.flat(b)); ++r)
                lists[r].push_back(i);
        }
    });
    oversize_.clear();
    for (int i = 0; i < n; ++i) {
        if (maxCell_[i].x < 0) oversize_.push_back(i);
    }
    cellStart_.assign(static_cast<std::size_t>(cellCount) + 1, 0);
    parallelFor(jobs, static_cast<std::size_t>(ranges), 1, [&](const JobChunk& chunk) {
        const int r = static_cast<int>(chunk.index);
        placeInCells(boxes, grid, r, ranges, cellAt(r), cellAt(r + 1), false);
    });
    for (int c = 0; c < cellCount; ++c)
        cellStart_[c + 1] += cellStart_[c];
    entries_.resize(static_cast<std::size_t>(cellStart_[cellCount]));
    boxCopies_.resize(entries_.size());
    parallelFor(jobs, static_cast<std::size_t>(ranges), 1, [&](const JobChunk& chunk) {
        const int r = static_cast<int>(chunk.index);
        placeInCells(boxes, grid, r, ranges, cellAt(r), cellAt(r + 1), true);
    });
}

void GridBroadPhase::placeInCells(std::span<const Aabb> boxes, const Grid& grid, int range, int ranges,
                                  int first, int last, bool fill) {
    if (first >= last) return;
    const std::vector<std::vector<int>>& reaching = reaching_.value;
    std::vector<int>& next = fillScratch(); // per cell of the range: its next free entry
    if (fill) next.assign(cellStart_.begin() + first, cellStart_.begin() + last);
    for (std::size_t list = static_cast<std::size_t>(range); list < reaching.size();
         list += static_cast<std::size_t>(ranges)) {
        for (const int i : reaching[list]) {
            const glm::ivec3 a = minCell_[i], b = maxCell_[i];
            for (int z = a.z; z <= b.z; ++z)
                for (int y = a.y; y <= b.y; ++y)
                    for (int x = a.x; x <= b.x; ++x) {
                        const int cell = grid.flat({x, y, z});
                        if (cell < first || cell >= last) continue;
                        if (!fill) {
                            ++cellStart_[cell + 1];
                            continue;
                        }
                        const int slot = next[cell - first]++;
                        entries_[slot] = i;
                        boxCopies_[slot] = boxes[i]; // pair tests then read memory in sequence
                    }
        }
    }
}

void GridBroadPhase::pairsWithinCells(const Grid& grid, int first, int last,
                                      std::vector<std::pair<int, int>>& pairs) const {
    for (int c = first; c < last; ++c) {
        const int begin = cellStart_[c], end = cellStart_[c + 1];
        if (end - begin < 2) continue;
        for (int p = begin; p < end; ++p) {
            const Aabb& a = boxCopies_[p];
            for (int q = p + 1; q < end; ++q) {
                const Aabb& b = boxCopies_[q];
                if (!(a.min.x <= b.max.x && a.max.x >= b.min.x && a.min.y <= b.max.y && a.max.y >= b.min.y &&
                      a.min.z <= b.max.z && a.max.z >= b.min.z)) {
                    continue;
                }
                const int i = entries_[p], j = entries_[q];
                // Report from one cell only: the one holding the low corner of the overlap
                // (cellOf is monotonic, so that cell is the larger of the two boxes' low cells).
                if (grid.flat(glm::max(minCell_[i], minCell_[j])) != c) continue;
                pairs.emplace_back(std::min(i, j), std::max(i, j));
            }
        }
    }
}

void GridBroadPhase::oversizePairs(std::span<const Aabb> boxes,
                                   std::vector<std::pair<int, int>>& pairs) const {
    const int n = static_cast<int>(boxes.size());
    for (std::size_t k = 0; k < oversize_.size(); ++k) {
        const int i = oversize_[k];
        for (int j = 0; j < n; ++j) {
            const bool jOversize = std::binary_search(oversize_.begin(), oversize_.end(), j);
            if (j == i || (jOversize && j < i) || !overlaps(boxes[i], boxes[j]))
                continue; // oversize pairs once
            pairs.emplace_back(std::min(i, j), std::max(i, j));
        }
    }
}

void GridBroadPhase::findPairs(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs,
                               JobSystem* jobs) {
    pairs.clear();
    for (const int cell : grownCells_)
        grownInCell_[static_cast<std::size_t>(cell)].clear();
    grownCells_.clear();
    grownOversize_.clear();
    boxCount_ = static_cast<int>(boxes.size());
    if (boxes.size() < 2) return;
    const Grid grid = chooseGrid(boxes, jobs);
    grid_ = grid;
    sortIntoCells(boxes, grid, jobs);
    const std::size_t cells = static_cast<std::size_t>(grid.cellCount());
    const std::size_t chunks = chunkCount(jobs, cells, kCellGrain);
    if (chunks <= 1) {
        pairsWithinCells(grid, 0, grid.cellCount(), pairs);
    } else {
        // Each chunk's pairs apart, then appended in chunk (cell) order.
        std::vector<std::vector<std::pair<int, int>>>& found = chunkPairs_.value;
        found.resize(chunks);
        jobs->parallelFor(cells, kCellGrain, [&](const JobChunk& chunk) {
            found[chunk.index].clear();
            pairsWithinCells(grid, static_cast<int>(chunk.begin), static_cast<int>(chunk.end),
                             found[chunk.index]);
        });
        for (const auto& part : found)
            pairs.insert(pairs.end(), part.begin(), part.end());
    }
    oversizePairs(boxes, pairs);
}

std::pair<glm::ivec3, glm::ivec3> GridBroadPhase::cellRange(const Aabb& box) const {
    // The cells of the box's corners, clamped into the grid (every gridded box lies inside it,
    // and cellOf is monotonic: a box meeting this one has a cell in this range).
    const glm::ivec3 last = grid_.dims - 1;
    return {glm::clamp(grid_.cellOf(glm::max(box.min, grid_.lo)), glm::ivec3(0), last),
            glm::clamp(grid_.cellOf(glm::max(box.max, grid_.lo)), glm::ivec3(0), last)};
}

void GridBroadPhase::boxesNear(const Aabb& query, std::vector<int>& out) const {
    const auto all = [&] {
        for (int i = 0; i < boxCount_; ++i)
            out.push_back(i);
    };
    if (boxCount_ < 2 || !grid_.gridded) return all();
    const auto [a, b] = cellRange(query);
    const glm::ivec3 count = b - a + 1;
    // A query as wide as a good part of the grid: every box is as quick.
    if (static_cast<std::int64_t>(count.x) * count.y * count.z > boxCount_ / 8) return all();
    out.insert(out.end(), oversize_.begin(), oversize_.end());
    out.insert(out.end(), grownOversize_.begin(), grownOversize_.end());
    const bool grown = !grownCells_.empty();
    for (int z = a.z; z <= b.z; ++z)
        for (int y = a.y; y <= b.y; ++y)
            for (int x = a.x; x <= b.x; ++x) {
                const int cell = grid_.flat({x, y, z});
                out.insert(out.end(), entries_.begin() + cellStart_[cell],
                           entries_.begin() + cellStart_[cell + 1]);
                if (grown) {
                    const std::vector<int>& more = grownInCell_[static_cast<std::size_t>(cell)];
                    out.insert(out.end(), more.begin(), more.end());
                }
            }
}

void GridBroadPhase::noteGrown(int i, const Aabb& box) {
    if (boxCount_ < 2 || !grid_.gridded || !isFinite(box.min) || !isFinite(box.max))
        return; // boxesNear returns every box, or this one meets none
    const auto [a, b] = cellRange(box);
    const glm::ivec3 count = b - a + 1;
    if (static_cast<std::int64_t>(count.x) * count.y * count.z > kMaxGrownCells) {
        grownOversize_.push_back(i);
        return;
    }
    grownInCell_.resize(static_cast<std::size_t>(grid_.cellCount()));
    for (int z = a.z; z <= b.z; ++z)
        for (int y = a.y; y <= b.y; ++y)
            for (int x = a.x; x <= b.x; ++x) {
                const int cell = grid_.flat({x, y, z});
                std::vector<int>& list = grownInCell_[static_cast<std::size_t>(cell)];
                if (list.empty()) grownCells_.push_back(cell);
                list.push_back(i);
            }
}

std::size_t GridBroadPhase::memoryBytes() const {
    std::size_t grown = vectorBytes(grownInCell_) + vectorBytes(grownCells_) + vectorBytes(grownOversize_);
    for (const std::vector<int>& cell : grownInCell_)
        grown += vectorBytes(cell);
    return vectorBytes(cellStart_) + vectorBytes(entries_) + vectorBytes(boxCopies_) +
           vectorBytes(oversize_) + vectorBytes(extents_) + vectorBytes(minCell_) + vectorBytes(maxCell_) +
           grown;
}

} // namespace kz
