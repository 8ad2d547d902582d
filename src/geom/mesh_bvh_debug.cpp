// MeshBvh's debug views: the boxes of the binary tree's nodes (for debug drawing) and its depth,
// read back from the wide nodes' topology bits.
#include "mesh_bvh.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

namespace kz {

template <class Visit>
void MeshBvh::forEachBinaryNode(int maxLevel, Visit&& visit) const {
    if (tree_.empty() || maxLevel < 0) return;
    // A binary node inside a wide node covers a run of its slots (its frontier in preorder); its
    // box is the union of theirs.
    const auto runBox = [](const Node& node, int first, int last) {
        Aabb box{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
        for (auto s = static_cast<std::size_t>(first); s < static_cast<std::size_t>(last); ++s) {
            box.min = glm::min(box.min, glm::vec3(node.bounds[0][s], node.bounds[2][s], node.bounds[4][s]));
            box.max = glm::max(box.max, glm::vec3(node.bounds[1][s], node.bounds[3][s], node.bounds[5][s]));
        }
        return box;
    };
    struct Pending {
        std::uint32_t node;
        int level; ///< Of the wide node's binary root.
    };
    std::vector<Pending> pending{{0u, 0}};
    while (!pending.empty()) {
        const Pending p = pending.back();
        pending.pop_back();
        const Node& node = this->node(p.node);
        // The topology in preorder: each binary node's level and run of slots [first, last).
        struct Entry {
            int first, last, level;
            bool inner;
        };
        Entry entries[2 * kWidth];
        int open[kWidth]; // entries of inner nodes still missing a child
        int seen[kWidth]; // how many children each of them has so far
        int entryCount = 0, openCount = 0, slot = 0;
        for (int bit = 0;; ++bit) {
            const int level = openCount == 0 ? p.level : entries[open[openCount - 1]].level + 1;
            if ((node.topology >> bit) & 1u) {
                entries[entryCount] = {slot, slot, level, true};
                seen[openCount] = 0;
                open[openCount++] = entryCount++;
                continue;
            }
            entries[entryCount++] = {slot, slot + 1, level, false};
            ++slot;
            // Close every inner node whose second child this was.
            while (openCount > 0 && ++seen[openCount - 1] == 2)
                entries[open[--openCount]].last = slot;
            if (openCount == 0) break;
        }
        for (int e = 0; e < entryCount; ++e) {
            const Entry& entry = entries[e];
            if (entry.level > maxLevel) continue;
            const auto s = static_cast<std::size_t>(entry.first);
            if (entry.inner) {
                visit(runBox(node, entry.first, entry.last), entry.level, false);
            } else if (node.count[s] > 0) {
                visit(runBox(node, entry.first, entry.last), entry.level, true);
            } else {
                pending.push_back({node.child[s], entry.level}); // a wide node of its own
            }
        }
    }
}

std::vector<Aabb> MeshBvh::nodeBoxes(int maxDepth) const {
    std::vector<Aabb> boxes;
    forEachBinaryNode(maxDepth, [&](const Aabb& box, int, bool) { boxes.push_back(box); });
    return boxes;
}

int MeshBvh::depth() const {
    int deepest = 0;
    forEachBinaryNode(INT_MAX, [&](const Aabb&, int level, bool) { deepest = std::max(deepest, level + 1); });
    return deepest;
}

} // namespace kz
