#include "body_bvh.hpp"

#include "free_flight.hpp"
#include "memory_bytes.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <numeric>

namespace kz {
namespace {

constexpr int kBins = 16;
constexpr Aabb kEmptyBox{glm::vec3(INFINITY), glm::vec3(-INFINITY)};

Aabb unite(const Aabb& a, const Aabb& b) {
    return {glm::min(a.min, b.min), glm::max(a.max, b.max)};
}

/// Half the box's surface area (an empty box has none); FLT_MAX for an infinite or flat infinite
/// one, so that sums and comparisons of areas stay numbers.
float area(const Aabb& box) {
    const glm::vec3 e = glm::max(box.max - box.min, glm::vec3(0.0f));
    const float a = e.x * e.y + e.y * e.z + e.z * e.x;
    return a <= FLT_MAX ? a : FLT_MAX;
}

/// Splits order[begin, end) in two by the surface area heuristic, binned along the axis of
/// largest spread of the centres; returns where the second half starts. Halves by count when
/// the centres coincide.
int split(std::vector<int>& order, int begin, int end, std::span<const Aabb> boxes,
          std::span<const glm::vec3> centres) {
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (int k = begin; k < end; ++k) {
        lo = glm::min(lo, centres[order[k]]);
        hi = glm::max(hi, centres[order[k]]);
    }
    const glm::vec3 spread = hi - lo;
    const int axis = spread.x >= spread.y ? (spread.x >= spread.z ? 0 : 2) : (spread.y >= spread.z ? 1 : 2);
    const float scale = static_cast<float>(kBins) / spread[axis];
    const int half = begin + (end - begin) / 2;
    if (!(spread[axis] > 0.0f) || !std::isfinite(scale)) return half;
    const auto binOf = [&](int body) {
        return std::min(static_cast<int>((centres[body][axis] - lo[axis]) * scale), kBins - 1);
    };

    std::array<int, kBins> count{};
    std::array<Aabb, kBins> bin;
    bin.fill(kEmptyBox);
    for (int k = begin; k < end; ++k) {
        const int b = binOf(order[k]);
        ++count[b];
        bin[b] = unite(bin[b], boxes[order[k]]);
    }
    // The cost of splitting before bin s: area x count on each side.
    std::array<float, kBins> rightCost{};
    Aabb right = kEmptyBox;
    int rightCount = 0;
    for (int s = kBins - 1; s > 0; --s) {
        right = unite(right, bin[s]);
        rightCount += count[s];
        rightCost[s] = area(right) * static_cast<float>(rightCount);
    }
    Aabb left = kEmptyBox;
    int leftCount = 0;
    int best = 1;
    float bestCost = INFINITY;
    for (int s = 1; s < kBins; ++s) {
        left = unite(left, bin[s - 1]);
        leftCount += count[s - 1];
        const float cost = area(left) * static_cast<float>(leftCount) + rightCost[s];
        if (leftCount > 0 && leftCount < end - begin && cost < bestCost) {
            bestCost = cost;
            best = s;
        }
    }
    const auto middle = std::partition(order.begin() + begin, order.begin() + end,
                                       [&](int body) { return binOf(body) < best; });
    const int mid = static_cast<int>(middle - order.begin());
    return mid == begin || mid == end ? half : mid;
}

} // namespace

Aabb BodyBvh::leafBox(const Body& body) {
    const float r = boundingRadius(body);
    if (!isFinite(body.position) || !std::isfinite(r) || !(r >= 0.0f)) return kEmptyBox;
    return {body.position - glm::vec3(r), body.position + glm::vec3(r)};
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
    root_ = 0;
    rootBox_ = kEmptyBox;
    cost_ = builtCost_ = 0.0f;
    if (n == 0) return;

    // Scratch per thread: a rebuild allocates only when the bodies outgrow it, and a copy of the
    // tree does not carry it.
    thread_local std::vector<int> order;
    thread_local std::vector<Aabb> boxes;
    thread_local std::vector<glm::vec3> centres;
    order.resize(bodies.size());
    std::iota(order.begin(), order.end(), 0);
    boxes.resize(bodies.size());
    centres.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        boxes[i] = leafBox(bodies[i]);
        centres[i] = boxes[i].min.x <= boxes[i].max.x ? bodies[i].position : glm::vec3(0.0f);
    }

    // Top down, depth first, each node before its children: a refit then walks the nodes
    // backwards, children first.
    struct Task {
        int begin, end;
        Up up;
    };
    thread_local std::vector<Task> tasks;
    tasks.assign(1, {0, n, -1});
    nodes_.reserve(bodies.size() - 1);
    nodeUp_.reserve(bodies.size() - 1);
    float sum = 0.0f;
    while (!tasks.empty()) {
        const Task task = tasks.back();
        tasks.pop_back();
        Aabb box = kEmptyBox;
        for (int k = task.begin; k < task.end; ++k)
            box = unite(box, boxes[static_cast<std::size_t>(order[k])]);
        setBox(task.up, box);
        Ref ref;
        if (task.end - task.begin == 1) {
            ref = -1 - order[task.begin];
            leafUp_[static_cast<std::size_t>(order[task.begin])] = task.up;
        } else {
            ref = static_cast<Ref>(nodes_.size());
            nodes_.push_back({{kEmptyBox, kEmptyBox}, {0, 0}});
            nodeUp_.push_back(task.up);
            sum += area(box);
            const int mid = split(order, task.begin, task.end, boxes, centres);
            tasks.push_back({mid, task.end, ref * 2 + 1});
            tasks.push_back({task.begin, mid, ref * 2});
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
    const Aabb leaf = leafBox(bodies[n - 1]);
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
    refitPath(leafUp_[static_cast<std::size_t>(i)], leafBox(bodies[static_cast<std::size_t>(i)]));
}

bool BodyBvh::refit(std::span<const Body> bodies) {
    if (bodies.size() != bodyCount_ || !ordered_) {
        build(bodies);
        return true;
    }
    for (std::size_t i = 0; i < bodies.size(); ++i)
        setBox(leafUp_[i], leafBox(bodies[i]));
    float sum = 0.0f;
    for (std::size_t k = nodes_.size(); k-- > 0;) {
        const Aabb box = unite(nodes_[k].box[0], nodes_[k].box[1]);
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
    return vectorBytes(nodes_) + vectorBytes(nodeUp_) + vectorBytes(leafUp_);
}

} // namespace kz
