#include "broadphase.hpp"

#include <algorithm>

namespace kz {

void sortAndSweep(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs,
                  std::vector<int>& order) {
    pairs.clear();
    const int n = static_cast<int>(boxes.size());
    if (n < 2) return;

    // Sweep along the axis where the centres spread most: fewest false pairs.
    glm::vec3 mean(0.0f), meanSq(0.0f);
    for (const Aabb& box : boxes) {
        const glm::vec3 c = 0.5f * (box.min + box.max);
        mean += c;
        meanSq += c * c;
    }
    const glm::vec3 variance = meanSq / static_cast<float>(n) - (mean * mean) / static_cast<float>(n * n);
    const int axis =
        variance.x >= variance.y ? (variance.x >= variance.z ? 0 : 2) : (variance.y >= variance.z ? 1 : 2);

    order.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        order[static_cast<std::size_t>(i)] = i;
    std::sort(order.begin(), order.end(), [&](int p, int q) {
        const float a = boxes[p].min[axis], b = boxes[q].min[axis];
        return a < b || (a == b && p < q); // ties by index: deterministic
    });

    for (int oi = 0; oi < n; ++oi) {
        const Aabb& a = boxes[order[oi]];
        for (int oj = oi + 1; oj < n; ++oj) {
            const Aabb& b = boxes[order[oj]];
            if (b.min[axis] > a.max[axis]) break;
            if (a.min.x <= b.max.x && a.max.x >= b.min.x && a.min.y <= b.max.y && a.max.y >= b.min.y &&
                a.min.z <= b.max.z && a.max.z >= b.min.z) {
                pairs.emplace_back(std::min(order[oi], order[oj]), std::max(order[oi], order[oj]));
            }
        }
    }
}

} // namespace kz
