// Tests for physics/broadphase.hpp: sortAndSweep against a brute-force O(n^2) pair list on seeded
// random boxes (on a coarse grid, so many touch exactly; some flat or reduced to a point), and
// the determinism of its output order.
#include "physics/broadphase.hpp"
#include "physics/job_system.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using kz::Aabb;
using Pairs = std::vector<std::pair<int, int>>;

/// The brute-force reference: no separating axis among x, y, z (touching counts as overlap).
Pairs bruteForcePairs(const std::vector<Aabb>& boxes) {
    Pairs pairs;
    for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
        for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j) {
            const Aabb& a = boxes[static_cast<std::size_t>(i)];
            const Aabb& b = boxes[static_cast<std::size_t>(j)];
            bool separated = false;
            for (int axis = 0; axis < 3; ++axis)
                separated = separated || a.max[axis] < b.min[axis] || b.max[axis] < a.min[axis];
            if (!separated) pairs.emplace_back(i, j);
        }
    }
    return pairs;
}

/// Boxes with corners on a grid of `cell` in [0, extent) per axis and sizes 0 .. maxCells cells
/// (0: flat on that axis; 0 on all three: a point). Grid values are exact in float, so
/// neighbours touch exactly.
std::vector<Aabb> gridBoxes(unsigned seed, int count, const glm::vec3& extent, float cell, int maxCells) {
    std::mt19937 rng(seed);
    std::vector<Aabb> boxes;
    for (int i = 0; i < count; ++i) {
        Aabb box{};
        for (int axis = 0; axis < 3; ++axis) {
            const int cells = static_cast<int>(extent[axis] / cell);
            const int start = std::uniform_int_distribution<int>(0, cells)(rng);
            const int size = std::uniform_int_distribution<int>(0, maxCells)(rng);
            box.min[axis] = static_cast<float>(start) * cell;
            box.max[axis] = static_cast<float>(start + size) * cell;
        }
        if (i % 50 == 0) box.max = box.min; // a point
        boxes.push_back(box);
    }
    return boxes;
}

enum class Finder { SortAndSweep, Grid };

Pairs findPairs(const std::vector<Aabb>& boxes, Finder finder) {
    Pairs pairs;
    std::vector<int> order;
    if (finder == Finder::SortAndSweep) {
        kz::sortAndSweep(boxes, pairs, order);
    } else {
        kz::GridBroadPhase grid;
        grid.findPairs(boxes, pairs);
    }
    return pairs;
}

testing::AssertionResult sameAsBruteForce(const std::vector<Aabb>& boxes,
                                          Finder finder = Finder::SortAndSweep) {
    const Pairs pairs = findPairs(boxes, finder);
    for (const auto& [i, j] : pairs) {
        if (!(0 <= i && i < j && j < static_cast<int>(boxes.size())))
            return testing::AssertionFailure() << "bad pair (" << i << ", " << j << ")";
    }
    Pairs sorted = pairs;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        return testing::AssertionFailure() << "duplicate pair";
    const Pairs expected = bruteForcePairs(boxes);
    if (sorted != expected) {
        std::vector<std::pair<int, int>> missing, extra;
        std::set_difference(expected.begin(), expected.end(), sorted.begin(), sorted.end(),
                            std::back_inserter(missing));
        std::set_difference(sorted.begin(), sorted.end(), expected.begin(), expected.end(),
                            std::back_inserter(extra));
        auto failure = testing::AssertionFailure();
        failure << sorted.size() << " pairs, expected " << expected.size() << "; " << missing.size()
                << " missing, " << extra.size() << " extra";
        if (!missing.empty())
            failure << "; first missing (" << missing[0].first << ", " << missing[0].second << ")";
        if (!extra.empty()) failure << "; first extra (" << extra[0].first << ", " << extra[0].second << ")";
        return failure;
    }
    return testing::AssertionSuccess() << expected.size() << " pairs";
}

// ---------------------------------------------------------------------------------------------

TEST(Broadphase, FewerThanTwoBoxesGiveNoPairs) {
    Pairs pairs;
    std::vector<int> order;
    kz::sortAndSweep({}, pairs, order);
    EXPECT_TRUE(pairs.empty());
    const Aabb one[] = {{glm::vec3(0.0f), glm::vec3(1.0f)}};
    kz::sortAndSweep(one, pairs, order);
    EXPECT_TRUE(pairs.empty());
}

TEST(Broadphase, TouchingFacesEdgesAndCornersCountAsOverlap) {
    const std::vector<Aabb> boxes = {
        {{0, 0, 0}, {1, 1, 1}},
        {{1, 0, 0}, {2, 1, 1}},                   // shares the face x = 1 with 0
        {{1, 1, 0}, {2, 2, 1}},                   // shares an edge with 0, a face with 1
        {{1, 1, 1}, {2, 2, 2}},                   // shares a corner with 0
        {{0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}}, // a point inside 0
        {{3, 3, 3}, {3, 4, 4}},                   // flat, far away
        {{2, 2, 2}, {3, 3, 3}},                   // touches 3 and 5 at corners / edge
        {{1.0001f, 0, 0}, {1.0001f, 0.1f, 0.1f}}, // a flat sliver just right of 0, inside 1
    };
    EXPECT_TRUE(sameAsBruteForce(boxes));
    Pairs pairs;
    std::vector<int> order;
    kz::sortAndSweep(boxes, pairs, order);
    std::sort(pairs.begin(), pairs.end());
    const Pairs expected = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 7}, {2, 3}, {3, 6}, {5, 6}};
    EXPECT_EQ(pairs, expected);
}

TEST(Broadphase, IdenticalBoxesPairEveryoneWithEveryone) {
    const std::vector<Aabb> boxes(300, Aabb{{-1, -1, -1}, {1, 1, 1}});
    Pairs pairs;
    std::vector<int> order;
    kz::sortAndSweep(boxes, pairs, order);
    EXPECT_EQ(pairs.size(), 300u * 299u / 2u);
    EXPECT_TRUE(sameAsBruteForce(boxes));
}

TEST(Broadphase, RandomBoxesGiveTheBruteForcePairs) {
    struct Layout {
        const char* name;
        glm::vec3 extent;
        int count;
        int maxCells;
    };
    const Layout layouts[] = {
        {"spread in a cube", {40.0f, 40.0f, 40.0f}, 4000, 8}, {"dense cluster", {6.0f, 6.0f, 6.0f}, 2000, 4},
        {"long along x", {400.0f, 4.0f, 4.0f}, 3000, 8},      {"long along y", {4.0f, 400.0f, 4.0f}, 3000, 8},
        {"long along z", {4.0f, 4.0f, 400.0f}, 3000, 8},
    };
    unsigned seed = 1234u;
    for (const Layout& layout : layouts) {
        ++seed;
        SCOPED_TRACE(std::string(layout.name) + ", seed " + std::to_string(seed));
        const std::vector<Aabb> boxes = gridBoxes(seed, layout.count, layout.extent, 0.25f, layout.maxCells);
        EXPECT_TRUE(sameAsBruteForce(boxes));
    }
}

TEST(Broadphase, RandomUnsnappedBoxesGiveTheBruteForcePairs) {
    const unsigned seed = 99u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> where(-50.0f, 50.0f), size(0.0f, 3.0f);
    std::vector<Aabb> boxes;
    for (int i = 0; i < 5000; ++i) {
        const glm::vec3 lo(where(rng), where(rng), where(rng));
        boxes.push_back({lo, lo + glm::vec3(size(rng), size(rng), size(rng))});
    }
    EXPECT_TRUE(sameAsBruteForce(boxes));
}

TEST(Broadphase, OutputOrderIsDeterministic) {
    const unsigned seed = 4321u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    const std::vector<Aabb> boxes = gridBoxes(seed, 3000, glm::vec3(30.0f), 0.25f, 8);
    Pairs first, second, third;
    std::vector<int> order;
    kz::sortAndSweep(boxes, first, order);
    kz::sortAndSweep(boxes, second, order); // scratch reused as left by the first call
    std::vector<int> garbage(17, -5);
    kz::sortAndSweep(boxes, third, garbage); // scratch of another size and content
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first, second);
    EXPECT_EQ(first, third);
}

// ---------------------------------------------------------------------------------------------
// The grid broad phase (what World uses) against the same brute force.

TEST(GridBroadphase, RandomLayoutsGiveTheBruteForcePairs) {
    const glm::vec3 extents[] = {
        {40.0f, 40.0f, 40.0f}, {6.0f, 6.0f, 6.0f}, {400.0f, 4.0f, 4.0f}, {4.0f, 4.0f, 400.0f}};
    unsigned seed = 2345u;
    for (const glm::vec3& extent : extents) {
        ++seed;
        SCOPED_TRACE("seed " + std::to_string(seed));
        EXPECT_TRUE(sameAsBruteForce(gridBoxes(seed, 3000, extent, 0.25f, 8), Finder::Grid));
    }
}

TEST(GridBroadphase, UnsnappedBoxesOfMixedSizesGiveTheBruteForcePairs) {
    const unsigned seed = 98u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> where(-50.0f, 50.0f), size(0.0f, 3.0f);
    std::vector<Aabb> boxes;
    for (int i = 0; i < 5000; ++i) {
        const glm::vec3 lo(where(rng), where(rng), where(rng));
        boxes.push_back({lo, lo + glm::vec3(size(rng), size(rng), size(rng))});
    }
    EXPECT_TRUE(sameAsBruteForce(boxes, Finder::Grid));
}

TEST(GridBroadphase, OversizeBoxesSpanningManyCellsAreStillPaired) {
    // Small boxes plus a few huge ones (a fast body's sweep, a slab): those span more cells than
    // the grid files and are tested against everything, each pair still reported once.
    std::vector<Aabb> boxes = gridBoxes(77u, 2000, glm::vec3(20.0f), 0.25f, 4);
    boxes.push_back({glm::vec3(-10.0f), glm::vec3(0.0f)});
    boxes.push_back({glm::vec3(-10.0f, -0.1f, -10.0f), glm::vec3(10.0f, 0.1f, 10.0f)});
    boxes.push_back({glm::vec3(-5.0f), glm::vec3(5.0f)});
    EXPECT_TRUE(sameAsBruteForce(boxes, Finder::Grid));
}

TEST(GridBroadphase, TouchingFlatAndPointBoxesCountAsOverlap) {
    const std::vector<Aabb> boxes = {
        {{0, 0, 0}, {1, 1, 1}},
        {{1, 0, 0}, {2, 1, 1}},                   // share a face
        {{1, 1, 1}, {2, 2, 2}},                   // shares a corner with the first
        {{0.5f, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}}, // a point inside the first
        {{0, 3, 0}, {5, 3, 5}},                   // flat
        {{2, 3, 2}, {2, 3, 2}},                   // a point on the flat one
        {{9, 9, 9}, {10, 10, 10}},                // alone
    };
    EXPECT_TRUE(sameAsBruteForce(boxes, Finder::Grid));
}

TEST(GridBroadphase, SameBoxesGiveTheSamePairsInTheSameOrder) {
    const std::vector<Aabb> boxes = gridBoxes(4322u, 3000, glm::vec3(30.0f), 0.25f, 8);
    Pairs first, second;
    kz::GridBroadPhase grid, other;
    grid.findPairs(boxes, first);
    grid.findPairs(boxes, second); // reused scratch
    Pairs third;
    other.findPairs(boxes, third);
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first, second);
    EXPECT_EQ(first, third);
}

TEST(GridBroadphase, AnyThreadsGiveTheSamePairsInTheSameOrder) {
    // Big boxes among small ones (oversize: tested against all), a NaN and an infinite corner, and
    // enough boxes and cells for every loop to run in several chunks on every thread.
    std::vector<Aabb> boxes = gridBoxes(977u, 6000, glm::vec3(40.0f), 0.25f, 6);
    boxes[17] = {glm::vec3(0.0f), glm::vec3(30.0f)};
    boxes[400].min.x = std::numeric_limits<float>::quiet_NaN();
    boxes[401].max.y = std::numeric_limits<float>::infinity();
    Pairs alone;
    kz::GridBroadPhase reference;
    reference.findPairs(boxes, alone);
    ASSERT_GT(alone.size(), 1000u);
    for (const int threads : {1, 2, 3, 4}) {
        for (const std::size_t maxChunk : {std::size_t{0}, std::size_t{5}}) {
            SCOPED_TRACE(std::to_string(threads) + " threads, chunks of at most " + std::to_string(maxChunk));
            kz::JobSystem jobs(threads, maxChunk);
            kz::GridBroadPhase grid;
            Pairs pairs;
            grid.findPairs(boxes, pairs, &jobs);
            EXPECT_EQ(pairs, alone);
            grid.findPairs(boxes, pairs, &jobs); // reused scratch
            EXPECT_EQ(pairs, alone);
        }
    }
}

TEST(GridBroadphase, FewerThanTwoBoxesGiveNoPairs) {
    kz::GridBroadPhase grid;
    Pairs pairs = {{0, 1}};
    grid.findPairs(std::vector<Aabb>{}, pairs);
    EXPECT_TRUE(pairs.empty());
    grid.findPairs(std::vector<Aabb>{{glm::vec3(0.0f), glm::vec3(1.0f)}}, pairs);
    EXPECT_TRUE(pairs.empty());
}

TEST(Broadphase, BoxesWithANaNPairWithNothingAndInfiniteBoxesPairByComparison) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<Aabb> boxes = {
        {glm::vec3(0.0f), glm::vec3(1.0f)},           // 0
        {glm::vec3(0.5f), glm::vec3(1.5f)},           // 1: overlaps 0
        {glm::vec3(nan), glm::vec3(nan)},             // 2: overlaps nothing
        {glm::vec3(-inf), glm::vec3(inf)},            // 3: overlaps every box without a NaN
        {glm::vec3(10.0f), glm::vec3(11.0f)},         // 4
        {glm::vec3(0.0f, nan, 0.0f), glm::vec3(1.0f)} // 5: one NaN is enough to overlap nothing
    };
    const Pairs expected = {{0, 1}, {0, 3}, {1, 3}, {3, 4}};
    for (const Finder finder : {Finder::SortAndSweep, Finder::Grid}) {
        SCOPED_TRACE(finder == Finder::Grid ? "grid" : "sort and sweep");
        Pairs pairs = findPairs(boxes, finder);
        std::sort(pairs.begin(), pairs.end());
        EXPECT_EQ(pairs, expected);
    }
}

TEST(GridBroadphase, BoxesSpreadWiderThanAFloatCanSpanStillGiveTheBruteForcePairs) {
    // hi - lo overflows to infinity: no cell size fits, so every box is tested against all.
    std::vector<Aabb> boxes = gridBoxes(11, 60, glm::vec3(10.0f), 0.5f, 3);
    boxes.push_back({glm::vec3(-3e38f), glm::vec3(-2.9e38f)});
    boxes.push_back({glm::vec3(2.9e38f), glm::vec3(3e38f)});
    boxes.push_back({glm::vec3(2.95e38f), glm::vec3(3e38f)});
    EXPECT_TRUE(sameAsBruteForce(boxes, Finder::Grid));
}

TEST(GridBroadphase, BoxesNearFindsEveryBoxAsGrownSinceTheLastFindPairsAndForgetsItAfter) {
    // World::watchPath grows a body's box after an impact and asks for the boxes near the grown
    // one: every box that meets a query, as found or as grown since, must be among boxesNear's.
    const std::vector<Aabb> found = gridBoxes(811, 400, glm::vec3(40.0f), 0.5f, 3);
    kz::GridBroadPhase grid;
    Pairs pairs;
    grid.findPairs(found, pairs);
    std::vector<Aabb> now = found;
    std::mt19937 rng(812);
    std::uniform_real_distribution<float> coordinate(0.0f, 40.0f), size(0.0f, 3.0f);
    int grownFar = 0;
    for (int k = 0; k < 120; ++k) {
        const int i = std::uniform_int_distribution<int>(0, 399)(rng);
        Aabb& box = now[static_cast<std::size_t>(i)];
        // Grown by a path to anywhere in the room: a few cells, or (every tenth) most of it.
        const glm::vec3 to(coordinate(rng), coordinate(rng), coordinate(rng));
        const glm::vec3 reach = k % 10 == 0 ? glm::vec3(30.0f) : glm::vec3(size(rng));
        box = {glm::min(box.min, to - reach), glm::max(box.max, to + reach)};
        grid.noteGrown(i, box);
        grownFar += glm::length(to - found[static_cast<std::size_t>(i)].min) > 10.0f;
    }
    ASSERT_GT(grownFar, 50);
    // A box that is not finite meets nothing and is not kept.
    grid.noteGrown(7, {glm::vec3(0.0f), glm::vec3(INFINITY)});
    for (int q = 0; q < 500; ++q) {
        const glm::vec3 at(coordinate(rng), coordinate(rng), coordinate(rng));
        const Aabb query{at, at + glm::vec3(size(rng))};
        std::vector<int> near;
        grid.boxesNear(query, near);
        const std::set<int> got(near.begin(), near.end());
        for (int i = 0; i < 400; ++i) {
            const Aabb& box = now[static_cast<std::size_t>(i)];
            bool meets = true;
            for (int axis = 0; axis < 3; ++axis)
                meets = meets && box.min[axis] <= query.max[axis] && query.min[axis] <= box.max[axis];
            ASSERT_TRUE(!meets || got.count(i)) << "query " << q << " misses box " << i;
        }
    }
    // A new findPairs starts from its own boxes: what was grown before is forgotten, and a query
    // finds what a grid that never saw a grown box finds.
    grid.findPairs(found, pairs);
    kz::GridBroadPhase fresh;
    fresh.findPairs(found, pairs);
    for (int q = 0; q < 100; ++q) {
        const glm::vec3 at(coordinate(rng), coordinate(rng), coordinate(rng));
        const Aabb query{at, at + glm::vec3(size(rng))};
        std::vector<int> near, want;
        grid.boxesNear(query, near);
        fresh.boxesNear(query, want);
        ASSERT_EQ(near, want) << "query " << q;
    }
}

} // namespace
