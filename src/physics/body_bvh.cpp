#include "body_bvh.hpp"

#include "free_flight.hpp"
#include "memory_bytes.hpp"

#include <algorithm>
#include <array>
#include <cfloat>

namespace kz {
namespace {

constexpr int kBins = 16;
constexpr Aabb kEmptyBox{glm::vec3(INFINITY), glm::vec3(-INFINITY)};

// Component by component (std::min, not glm::min, which GCC does not inline at -O2): the build and
// the refit call these once per node and per body.
inline Aabb unite(const Aabb& a, const Aabb& b) {
    return {{std::min(a.min.x, b.min.x), std::min(a.min.y, b.min.y), std::min(a.min.z, b.min.z)},
            {std::max(a.max.x, b.max.x), std::max(a.max.y, b.max.y), std::max(a.max.z, b.max.z)}};
}

inline Aabb boxOf(const Sphere& s) {
    return {{s.center.x - s.radius, s.center.y - s.radius, s.center.z - s.radius},
            {s.center.x + s.radius, s.center.y + s.radius, s.center.z + s.radius}};
}

/// Half the box's surface area (an empty box has none); FLT_MAX for an infinite or flat infinite
/// one, so that sums and comparisons of areas stay numbers.
inline float area(const Aabb& box) {
    const float x = std::max(box.max.x - box.min.x, 0.0f), y = std::max(box.max.y - box.min.y, 0.0f),
                z = std::max(box.max.z - box.min.z, 0.0f);
    const float a = x * y + y * z + z * x;
    return a <= FLT_MAX ? a : FLT_MAX;
}

/// A body as the build sorts it: its leaf sphere (radius -1: an empty leaf, centred at 0).
struct Item {
    Sphere sphere;
    int body;
};

/// A range of items to build a subtree over, with the box of their spheres and of their centres.
struct Range {
    int begin, end;
    Aabb box, centres;
};

Range rangeOf(std::span<const Item> items, int begin, int end) {
    Range r{begin, end, kEmptyBox, kEmptyBox};
    for (int k = begin; k < end; ++k) {
        r.box = unite(r.box, boxOf(items[k].sphere));
        r.centres = unite(r.centres, {items[k].sphere.center, items[k].sphere.center});
    }
    return r;
}

/// Splits the range in two by the surface area heuristic, binned along the axis of largest spread
/// of the centres (items reordered in place); halves it by count when the centres coincide.
std::pair<Range, Range> split(std::vector<Item>& items, const Range& range) {
    if (range.end - range.begin == 2)
        return {rangeOf(items, range.begin, range.begin + 1), rangeOf(items, range.begin + 1, range.end)};
    const glm::vec3 lo = range.centres.min, spread = range.centres.max - range.centres.min;
    const int axis = spread.x >= spread.y ? (spread.x >= spread.z ? 0 : 2) : (spread.y >= spread.z ? 1 : 2);
    const float scale = static_cast<float>(kBins) / spread[axis];
    if (!(spread[axis] > 0.0f) || !std::isfinite(scale)) {
        const int half = range.begin + (range.end - range.begin) / 2;
        return {rangeOf(items, range.begin, half), rangeOf(items, half, range.end)};
    }
    const auto binOf = [&](const Item& item) {
        return std::min(static_cast<int>((item.sphere.center[axis] - lo[axis]) * scale), kBins - 1);
    };

    struct Bin {
        int count = 0;
        Aabb box = kEmptyBox, centres = kEmptyBox;
    };
    std::array<Bin, kBins> bins{};
    for (int k = range.begin; k < range.end; ++k) {
        Bin& bin = bins[static_cast<std::size_t>(binOf(items[k]))];
        ++bin.count;
        bin.box = unite(bin.box, boxOf(items[k].sphere));
        bin.centres = unite(bin.centres, {items[k].sphere.center, items[k].sphere.center});
    }
    // The cost of splitting before bin s: area x count on each side; the cheapest s with items on
    // both sides (there is one: the lowest and the highest centre fall in the first and last bin).
    std::array<float, kBins> rightCost{};
    Aabb right = kEmptyBox;
    int rightCount = 0;
    for (int s = kBins - 1; s > 0; --s) {
        right = unite(right, bins[static_cast<std::size_t>(s)].box);
        rightCount += bins[static_cast<std::size_t>(s)].count;
        rightCost[static_cast<std::size_t>(s)] = area(right) * static_cast<float>(rightCount);
    }
    Aabb left = kEmptyBox;
    int leftCount = 0, best = 0;
    float bestCost = INFINITY;
    for (int s = 1; s < kBins; ++s) {
        left = unite(left, bins[static_cast<std::size_t>(s - 1)].box);
        leftCount += bins[static_cast<std::size_t>(s - 1)].count;
        const float cost =
            area(left) * static_cast<float>(leftCount) + rightCost[static_cast<std::size_t>(s)];
        if (leftCount > 0 && leftCount < range.end - range.begin && cost < bestCost) {
            bestCost = cost;
            best = s;
        }
    }
    if (best == 0) { // not reached (see above); a split by count is still a valid tree
        const int half = range.begin + (range.end - range.begin) / 2;
        return {rangeOf(items, range.begin, half), rangeOf(items, half, range.end)};
    }
    Range first{range.begin, range.begin, kEmptyBox, kEmptyBox}, second{0, range.end, kEmptyBox, kEmptyBox};
    for (int s = 0; s < kBins; ++s) {
        Range& side = s < best ? first : second;
        side.box = unite(side.box, bins[static_cast<std::size_t>(s)].box);
        side.centres = unite(side.centres, bins[static_cast<std::size_t>(s)].centres);
    }
    const auto middle = std::partition(items.begin() + range.begin, items.begin() + range.end,
                                       [&](const Item& item) { return binOf(item) < best; });
    first.end = second.begin = static_cast<int>(middle - items.begin());
    return {first, second};
}

} // namespace

Sphere BodyBvh::leafSphere(const Body& body) {
    const float r = boundingRadius(body);
    if (!isFinite(body.position) || !std::isfinite(r) || !(r >= 0.0f)) return {glm::vec3(0.0f), -1.0f};
    return {body.position, r};
}

Aabb BodyBvh::leafBox(const Body& body) {
    return boxOf(leafSphere(body));
}

void BodyBvh::setBox(Up up, const Aabb& box) {
    if (up < 0) {
        rootBox_ = box;
    } else {
        nodes_[static_cast<std::size_t>(up >> 1)].box[up & 1] = box;
    }
}

void BodyBvh::refitPath(Up up, Aabb box) {
    while (up >= 0) {
        Node& parent = nodes_[static_cast<std::size_t>(up >> 1)];
        parent.box[up & 1] = box;
        box = unite(parent.box[0], parent.box[1]);
        up = nodeUp_[static_cast<std::size_t>(up >> 1)];
    }
    rootBox_ = box;
}

void BodyBvh::build(std::span<const Body> bodies) {
    const int n = static_cast<int>(bodies.size());
    bodyCount_ = builtCount_ = bodies.size();
    ordered_ = true;
    nodes_.clear();
    nodeUp_.clear();
    leafUp_.assign(bodies.size(), -1);
    spheres_.resize(bodies.size());
    root_ = 0;
    rootBox_ = kEmptyBox;
    cost_ = builtCost_ = 0.0f;
    if (n == 0) return;

    // Scratch per thread: a rebuild allocates only when the bodies outgrow it, and a copy of the
    // tree does not carry it.
    thread_local std::vector<Item> items;
    items.resize(bodies.size());
    for (int i = 0; i < n; ++i) {
        spheres_[static_cast<std::size_t>(i)] = leafSphere(bodies[static_cast<std::size_t>(i)]);
        items[static_cast<std::size_t>(i)] = {spheres_[static_cast<std::size_t>(i)], i};
    }

    // Top down, depth first, each node before its children: a refit then walks the nodes
    // backwards, children first.
    struct Task {
        Range range;
        Up up;
    };
    thread_local std::vector<Task> tasks;
    tasks.assign(1, {rangeOf(items, 0, n), -1});
    nodes_.reserve(bodies.size() - 1);
    nodeUp_.reserve(bodies.size() - 1);
    float sum = 0.0f;
    while (!tasks.empty()) {
        const Task task = tasks.back();
        tasks.pop_back();
        setBox(task.up, task.range.box);
        Ref ref;
        if (task.range.end - task.range.begin == 1) {
            const int body = items[static_cast<std::size_t>(task.range.begin)].body;
            ref = -1 - body;
            leafUp_[static_cast<std::size_t>(body)] = task.up;
        } else {
            ref = static_cast<Ref>(nodes_.size());
            nodes_.push_back({{kEmptyBox, kEmptyBox}, {0, 0}});
            nodeUp_.push_back(task.up);
            sum += area(task.range.box);
            const auto [first, second] = split(items, task.range);
            tasks.push_back({second, ref * 2 + 1});
            tasks.push_back({first, ref * 2});
        }
        if (task.up < 0) {
            root_ = ref;
        } else {
            nodes_[static_cast<std::size_t>(task.up >> 1)].child[task.up & 1] = ref;
        }
    }
    const float rootArea = area(rootBox_);
    cost_ = builtCost_ = rootArea > 0.0f ? sum / rootArea : 0.0f;
}

void BodyBvh::insertLast(std::span<const Body> bodies) {
    const std::size_t n = bodies.size();
    if (n == 0 || n - 1 != bodyCount_ || n >= 2 * builtCount_) {
        build(bodies);
        return;
    }
    const int body = static_cast<int>(n) - 1;
    spheres_.push_back(leafSphere(bodies[n - 1]));
    const Aabb leaf = boxOf(spheres_.back());
    // Descend while a child's subtree takes the leaf more cheaply than a new parent here
    // (Box2D's b2DynamicTree::InsertLeaf: the cost is the area of the new and grown boxes).
    Ref sibling = root_;
    Aabb siblingBox = rootBox_;
    Up up = -1;
    while (!isLeaf(sibling)) {
        const Node& node = nodes_[static_cast<std::size_t>(sibling)];
        const float combined = area(unite(siblingBox, leaf));
        const float here = 2.0f * combined;
        const float inherited = 2.0f * (combined - area(siblingBox));
        float cost[2];
        for (int s = 0; s < 2; ++s) {
            const float grown = area(unite(node.box[s], leaf));
            cost[s] = inherited + (isLeaf(node.child[s]) ? grown : grown - area(node.box[s]));
        }
        if (here < cost[0] && here < cost[1]) break;
        const int s = cost[1] < cost[0] ? 1 : 0;
        up = sibling * 2 + s;
        siblingBox = node.box[s];
        sibling = node.child[s];
    }
    const Ref parent = static_cast<Ref>(nodes_.size());
    nodes_.push_back({{siblingBox, leaf}, {sibling, -1 - body}});
    nodeUp_.push_back(up);
    if (isLeaf(sibling)) {
        leafUp_[static_cast<std::size_t>(bodyOf(sibling))] = parent * 2;
    } else {
        nodeUp_[static_cast<std::size_t>(sibling)] = parent * 2;
    }
    leafUp_.push_back(parent * 2 + 1);
    if (up < 0) {
        root_ = parent;
    } else {
        nodes_[static_cast<std::size_t>(up >> 1)].child[up & 1] = parent;
    }
    refitPath(up, unite(siblingBox, leaf));
    bodyCount_ = n;
    ordered_ = false; // the new parent comes after its children
}

void BodyBvh::update(std::span<const Body> bodies, int i) {
    if (bodies.size() != bodyCount_ || i < 0 || static_cast<std::size_t>(i) >= bodies.size()) {
        build(bodies);
        return;
    }
    const auto k = static_cast<std::size_t>(i);
    spheres_[k] = leafSphere(bodies[k]);
    refitPath(leafUp_[k], boxOf(spheres_[k]));
}

bool BodyBvh::refit(std::span<const Body> bodies) {
    if (bodies.size() != bodyCount_ || !ordered_) {
        build(bodies);
        return true;
    }
    // The spheres in body order (the bodies read in sequence), then each node from its children:
    // a leaf's box from its sphere, an inner child's already refitted (children come after
    // their parents).
    for (std::size_t i = 0; i < bodies.size(); ++i)
        spheres_[i] = leafSphere(bodies[i]);
    if (nodes_.empty()) {
        if (!spheres_.empty()) rootBox_ = boxOf(spheres_[0]);
        return false;
    }
    float sum = 0.0f;
    for (std::size_t k = nodes_.size(); k-- > 0;) {
        Node& node = nodes_[k];
        for (int s = 0; s < 2; ++s) {
            if (isLeaf(node.child[s]))
                node.box[s] = boxOf(spheres_[static_cast<std::size_t>(bodyOf(node.child[s]))]);
        }
        const Aabb box = unite(node.box[0], node.box[1]);
        sum += area(box);
        setBox(nodeUp_[k], box);
    }
    const float rootArea = area(rootBox_);
    cost_ = rootArea > 0.0f ? sum / rootArea : 0.0f;
    if (cost_ > kRebuildRatio * builtCost_) {
        build(bodies);
        return true;
    }
    return false;
}

std::size_t BodyBvh::memoryBytes() const {
    return vectorBytes(nodes_) + vectorBytes(nodeUp_) + vectorBytes(leafUp_) + vectorBytes(spheres_);
}

} // namespace kz
