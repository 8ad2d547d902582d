#include "body_bvh.hpp"

#include "free_flight.hpp"
#include "memory_bytes.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cstdint>

namespace kz {
namespace {

constexpr Aabb kEmptyBox{glm::vec3(INFINITY), glm::vec3(-INFINITY)};

// Component by component (std::min, not glm::min, which GCC does not inline at -O2): the build and
// the refit call these once per node and per body.
inline Aabb unite(const Aabb& a, const Aabb& b) {
    return {{std::min(a.min.x, b.min.x), std::min(a.min.y, b.min.y), std::min(a.min.z, b.min.z)},
            {std::max(a.max.x, b.max.x), std::max(a.max.y, b.max.y), std::max(a.max.z, b.max.z)}};
}

inline Aabb boxOf(const Sphere& s) {
    return {s.center - s.radius, s.center + s.radius};
}

inline bool holds(const Aabb& outer, const Aabb& inner) {
    return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
           outer.max.x >= inner.max.x && outer.max.y >= inner.max.y && outer.max.z >= inner.max.z;
}

/// Half the box's surface area (an empty box has none); FLT_MAX for an infinite or flat infinite
/// one, so that sums and comparisons of areas stay numbers.
inline float area(const Aabb& box) {
    const float x = std::max(box.max.x - box.min.x, 0.0f), y = std::max(box.max.y - box.min.y, 0.0f),
                z = std::max(box.max.z - box.min.z, 0.0f);
    const float a = x * y + y * z + z * x;
    return a <= FLT_MAX ? a : FLT_MAX;
}

float maxAbs(const glm::vec3& v) {
    return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)});
}

/// The low 10 bits of x, each moved to every third bit: one coordinate of a Morton code.
std::uint32_t spreadBits(std::uint32_t x) {
    x &= 0x3ffu;
    x = (x | (x << 16)) & 0x030000ffu;
    x = (x | (x << 8)) & 0x0300f00fu;
    x = (x | (x << 4)) & 0x030c30c3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

/// Where the sorted keys [begin, end) split in two: after the last key whose Morton code (the high
/// 32 bits) agrees with the first one's at the highest bit where the first and the last differ;
/// in the middle when all codes are equal.
int splitAt(const std::vector<std::uint64_t>& keys, int begin, int end) {
    const auto code = [&](int k) {
        return static_cast<std::uint32_t>(keys[static_cast<std::size_t>(k)] >> 32);
    };
    const std::uint32_t first = code(begin);
    const int prefix = std::countl_zero(first ^ code(end - 1));
    if (prefix == 32) return begin + (end - begin) / 2;
    int low = begin, high = end - 1; // low shares more than `prefix` bits with first, high does not
    while (high - low > 1) {
        const int mid = low + (high - low) / 2;
        (std::countl_zero(first ^ code(mid)) > prefix ? low : high) = mid;
    }
    return high;
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

Aabb BodyBvh::placeLeaf(const Body& body, std::size_t i) {
    const float r = boundingRadius(body);
    const glm::vec3& p = body.position;
    // The ball: from where the body is to where its velocity takes it in kLookAhead (at most
    // kMaxLead radii), padded by kPad radii.
    float hx = 0.5f * kLookAhead * body.velocity.x, hy = 0.5f * kLookAhead * body.velocity.y,
          hz = 0.5f * kLookAhead * body.velocity.z;
    float lead = std::sqrt(hx * hx + hy * hy + hz * hz);
    if (lead > 0.5f * kMaxLead * r) {
        const float shorten = 0.5f * kMaxLead * r / lead;
        hx *= shorten;
        hy *= shorten;
        hz *= shorten;
        lead = 0.5f * kMaxLead * r;
    }
    glm::vec3 centre(p.x + hx, p.y + hy, p.z + hz);
    float reach = lead + kPad * r;
    // The box reaches a little further than ball and sphere, so that the rounding of the ball
    // test and of these sums cannot leave the sphere's box poking out of it.
    float half = reach + r + 1e-6f * (maxAbs(centre) + reach + r);
    const float all = centre.x + centre.y + centre.z + half;
    if (!(all - all == 0.0f) || !(r >= 0.0f)) { // something not finite (or a negative radius)
        const Sphere sphere = leafSphere(body);
        if (sphere.radius < 0.0f) {
            // Never hit, and never out of its ball (a NaN compares false, an infinity is inside).
            balls_[i] = {glm::vec3(0.0f), INFINITY};
            return kEmptyBox;
        }
        // A finite sphere whose velocity is not finite, or sums that overflow: no look-ahead.
        centre = p;
        reach = kPad * r;
        half = reach + r + 1e-6f * (maxAbs(centre) + reach + r);
    }
    balls_[i] = {centre, reach * reach};
    return {centre - half, centre + half};
}

void BodyBvh::setBox(Up up, const Aabb& box) {
    Aabb& slot = up < 0 ? rootBox_ : nodes_[static_cast<std::size_t>(up >> 1)].box[up & 1];
    const Ref ref = up < 0 ? root_ : nodes_[static_cast<std::size_t>(up >> 1)].child[up & 1];
    if (!isLeaf(ref)) areaSum_ += static_cast<double>(area(box)) - static_cast<double>(area(slot));
    slot = box;
}

void BodyBvh::growAbove(Up up, const Aabb& box) {
    while (up >= 0) {
        const Up above = nodeUp_[static_cast<std::size_t>(up >> 1)];
        Aabb& slot = above < 0 ? rootBox_ : nodes_[static_cast<std::size_t>(above >> 1)].box[above & 1];
        if (holds(slot, box)) return;
        const Aabb grown = unite(slot, box);
        areaSum_ += static_cast<double>(area(grown) - area(slot));
        slot = grown;
        up = above;
    }
}

void BodyBvh::updateCost() {
    const float rootArea = area(rootBox_);
    cost_ = rootArea > 0.0f ? static_cast<float>(areaSum_ / static_cast<double>(rootArea)) : 0.0f;
}

void BodyBvh::build(std::span<const Body> bodies) {
    const int n = static_cast<int>(bodies.size());
    bodyCount_ = builtCount_ = bodies.size();
    nodes_.clear();
    nodeUp_.clear();
    leafUp_.assign(bodies.size(), -1);
    balls_.resize(bodies.size());
    root_ = 0;
    rootBox_ = kEmptyBox;
    areaSum_ = 0.0;
    cost_ = builtCost_ = 0.0f;
    if (n == 0) return;

    // Scratch per thread: a rebuild allocates only when the bodies outgrow it, and a copy of the
    // tree does not carry it.
    thread_local std::vector<Aabb> boxes;
    thread_local std::vector<std::uint64_t> keys; // Morton code << 32 | body: sorted, deterministic
    boxes.resize(bodies.size());
    keys.resize(bodies.size());
    Aabb centres = kEmptyBox;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        boxes[i] = placeLeaf(bodies[i], i);
        const glm::vec3 middle = 0.5f * (boxes[i].min + boxes[i].max);
        if (isFinite(middle)) centres = unite(centres, {middle, middle});
    }
    const glm::vec3 extent = centres.max - centres.min;
    const glm::vec3 scale(extent.x > 0.0f ? 1024.0f / extent.x : 0.0f,
                          extent.y > 0.0f ? 1024.0f / extent.y : 0.0f,
                          extent.z > 0.0f ? 1024.0f / extent.z : 0.0f);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const glm::vec3 middle = 0.5f * (boxes[i].min + boxes[i].max);
        std::uint32_t code = 0;
        if (isFinite(middle) && isFinite(scale)) {
            const glm::vec3 q =
                glm::clamp((middle - centres.min) * scale, glm::vec3(0.0f), glm::vec3(1023.0f));
            code = spreadBits(static_cast<std::uint32_t>(q.x)) |
                   spreadBits(static_cast<std::uint32_t>(q.y)) << 1 |
                   spreadBits(static_cast<std::uint32_t>(q.z)) << 2;
        }
        keys[i] = static_cast<std::uint64_t>(code) << 32 | static_cast<std::uint64_t>(i);
    }
    std::sort(keys.begin(), keys.end());

    // The topology top down, each node before its children; then the boxes bottom up.
    struct Task {
        int begin, end;
        Up up;
    };
    thread_local std::vector<Task> tasks;
    tasks.assign(1, {0, n, -1});
    nodes_.reserve(bodies.size() - 1);
    nodeUp_.reserve(bodies.size() - 1);
    while (!tasks.empty()) {
        const Task task = tasks.back();
        tasks.pop_back();
        Ref ref;
        if (task.end - task.begin == 1) {
            const auto body = static_cast<int>(keys[static_cast<std::size_t>(task.begin)] & 0xffffffffu);
            ref = -1 - body;
            leafUp_[static_cast<std::size_t>(body)] = task.up;
        } else {
            ref = static_cast<Ref>(nodes_.size());
            nodes_.push_back({{kEmptyBox, kEmptyBox}, {0, 0}});
            nodeUp_.push_back(task.up);
            const int mid = splitAt(keys, task.begin, task.end);
            tasks.push_back({mid, task.end, ref * 2 + 1});
            tasks.push_back({task.begin, mid, ref * 2});
        }
        if (task.up < 0) {
            root_ = ref;
        } else {
            nodes_[static_cast<std::size_t>(task.up >> 1)].child[task.up & 1] = ref;
        }
    }
    if (nodes_.empty()) {
        rootBox_ = boxes[0];
        return;
    }
    for (std::size_t k = nodes_.size(); k-- > 0;) {
        Node& node = nodes_[k];
        for (int s = 0; s < 2; ++s) {
            if (isLeaf(node.child[s])) node.box[s] = boxes[static_cast<std::size_t>(bodyOf(node.child[s]))];
        }
        const Aabb box = unite(node.box[0], node.box[1]);
        areaSum_ += static_cast<double>(area(box));
        const Up up = nodeUp_[k];
        (up < 0 ? rootBox_ : nodes_[static_cast<std::size_t>(up >> 1)].box[up & 1]) = box;
    }
    updateCost();
    builtCost_ = cost_;
}

void BodyBvh::insertLast(std::span<const Body> bodies) {
    const std::size_t n = bodies.size();
    if (n == 0 || n - 1 != bodyCount_ || n >= 2 * builtCount_) {
        build(bodies);
        return;
    }
    const int body = static_cast<int>(n) - 1;
    balls_.emplace_back();
    const Aabb leaf = placeLeaf(bodies[n - 1], n - 1);
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
    // A new parent of the sibling and the leaf takes the sibling's place; the boxes above grow.
    const Ref parent = static_cast<Ref>(nodes_.size());
    const Aabb parentBox = unite(siblingBox, leaf);
    nodes_.push_back({{siblingBox, leaf}, {sibling, -1 - body}});
    nodeUp_.push_back(up);
    if (isLeaf(sibling)) {
        leafUp_[static_cast<std::size_t>(bodyOf(sibling))] = parent * 2;
    } else {
        nodeUp_[static_cast<std::size_t>(sibling)] = parent * 2;
    }
    leafUp_.push_back(parent * 2 + 1);
    areaSum_ += static_cast<double>(area(parentBox));
    if (up < 0) {
        root_ = parent;
        rootBox_ = parentBox;
    } else {
        Node& above = nodes_[static_cast<std::size_t>(up >> 1)];
        above.child[up & 1] = parent;
        above.box[up & 1] = parentBox; // the sibling's area, counted there, is now counted below
    }
    growAbove(up, parentBox);
    bodyCount_ = n;
    updateCost();
}

void BodyBvh::update(std::span<const Body> bodies, int i) {
    if (bodies.size() != bodyCount_ || i < 0 || static_cast<std::size_t>(i) >= bodies.size()) {
        build(bodies);
        return;
    }
    const auto k = static_cast<std::size_t>(i);
    const Aabb box = placeLeaf(bodies[k], k);
    setBox(leafUp_[k], box);
    growAbove(leafUp_[k], box);
    updateCost();
}

bool BodyBvh::refit(std::span<const Body> bodies) {
    if (bodies.size() != bodyCount_) {
        build(bodies);
        return true;
    }
    // First only the comparisons, in one tight pass over the bodies; then the few that moved.
    thread_local std::vector<std::size_t> moved;
    moved.clear();
    const Ball* ball = balls_.data();
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const glm::vec3& p = bodies[i].position;
        const float dx = p.x - ball[i].centre.x, dy = p.y - ball[i].centre.y, dz = p.z - ball[i].centre.z;
        if (dx * dx + dy * dy + dz * dz > ball[i].radius2) moved.push_back(i);
    }
    for (const std::size_t i : moved) {
        const Aabb box = placeLeaf(bodies[i], i);
        setBox(leafUp_[i], box);
        growAbove(leafUp_[i], box);
    }
    updateCost();
    if (cost_ > kRebuildRatio * builtCost_) {
        build(bodies);
        return true;
    }
    return false;
}

std::size_t BodyBvh::memoryBytes() const {
    return vectorBytes(nodes_) + vectorBytes(nodeUp_) + vectorBytes(leafUp_) + vectorBytes(balls_);
}

} // namespace kz
