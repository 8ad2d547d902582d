// Picking in two parts: the candidates, bodies by their bounding spheres and obstacles by their
// world boxes, in order of where the ray enters them (TreeWalk: the world's bounding volume
// hierarchy walked front to back; ScanList: every bound tested and sorted, the reference), then
// the exact tests in that order (nearestOf, allOf), which both share.
#include "pick.hpp"

#include "body_bvh.hpp"
#include "free_flight.hpp"
#include "geom/gjk.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

namespace kz {
namespace {

/// A body or an obstacle whose bound the ray meets within tMax.
struct Candidate {
    float entry; ///< t where the ray enters the bound (0 if it starts inside).
    int index;   ///< Body index, or obstacle index when `obstacle`.
    bool obstacle;
};

/// Where the ray meets the body's bound: the sphere of boundingRadius, as BodyBvh::leafBox.
std::optional<RayHit> boundHit(const Ray& ray, const Body& b, float tMax) {
    return raycast(ray, Sphere{b.position, boundingRadius(b)}, tMax);
}

/// The reference's candidates: every bound tested, the hits sorted by entry t (ties: bodies
/// first, then by index).
class ScanList {
public:
    using Scratch = std::vector<Candidate>;

    ScanList(const World& world, const Ray& ray, float tMax, Scratch& list) : list_(list) {
        list_.clear();
        const auto bodies = world.bodies();
        for (int i = 0; i < static_cast<int>(bodies.size()); ++i) {
            if (const auto hit = boundHit(ray, bodies[i], tMax)) list_.push_back({hit->t, i, false});
        }
        const auto obstacles = world.obstacles();
        for (int i = 0; i < static_cast<int>(obstacles.size()); ++i) {
            if (const auto hit = raycast(ray, obstacles[i].bounds, tMax)) list_.push_back({hit->t, i, true});
        }
        std::sort(list_.begin(), list_.end(), [](const Candidate& a, const Candidate& c) {
            return std::tie(a.entry, a.obstacle, a.index) < std::tie(c.entry, c.obstacle, c.index);
        });
    }

    /// The next candidate, unless its bound starts beyond `limit`.
    std::optional<Candidate> next(float limit) {
        if (next_ == list_.size() || list_[next_].entry > limit) return std::nullopt;
        return list_[next_++];
    }

private:
    std::vector<Candidate>& list_;
    std::size_t next_ = 0;
};

/// An entry of the walk's heap: a node of the hierarchy, or a candidate.
struct Entry {
    enum Kind : std::uint64_t {
        Node,
        Body,
        Obstacle
    };                   ///< At equal keys a node first, then bodies, obstacles.
    double key;          ///< A candidate's entry t; a node's: at most its bodies'.
    std::uint64_t order; ///< Kind << 32 | index (the node, the body or the obstacle): ties by kind, index.

    Entry(double k, Kind kind, int index) : key(k), order(kind << 32 | static_cast<std::uint32_t>(index)) {}
    Kind kind() const { return static_cast<Kind>(order >> 32); }
    int index() const { return static_cast<int>(order & 0xffffffffu); }
};

/// The heap's order, reversed for std::push_heap's max-heap: the smallest (key, kind, index) on top.
struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
        return a.key != b.key ? a.key > b.key : a.order > b.order;
    }
};

/// The candidates from the world's hierarchy, in the scan's order (by entry t, bodies first, then
/// by index) without testing every bound: a heap holds the nodes keyed by where the ray enters
/// their box and the candidates found so far keyed by their entry t; the smallest key is taken
/// first, a node by queueing its two children (the nearer taken at once when nothing queued comes
/// before it). A node's key is at most the entry t of any body below it (its box holds their
/// bounding spheres, padded: BodyBvh::kRayPad), and at equal keys the node comes first, so a candidate
/// taken comes before everything not yet found. Obstacles, few, are tested by their boxes up
/// front.
class TreeWalk {
public:
    using Scratch = std::vector<Entry>;

    TreeWalk(const World& world, const Ray& ray, float tMax, Scratch& heap)
        : bodies_(world.bodies()), tree_(world.bodyBvh()), ray_(ray), tMax_(tMax), heap_(heap), boxes_(ray) {
        heap_.clear();
        const auto obstacles = world.obstacles();
        for (int i = 0; i < static_cast<int>(obstacles.size()); ++i) {
            if (const auto hit = raycast(ray, obstacles[i].bounds, tMax)) push({hit->t, Entry::Obstacle, i});
        }
        if (!tree_.empty()) {
            if (const auto root = visit(tree_.root(), tree_.rootBox(), tMax)) push(*root);
        }
    }

    /// The next candidate, unless its bound starts beyond `limit`.
    std::optional<Candidate> next(float limit) {
        Entry top(0.0, Entry::Node, 0);
        bool taken = false; // top holds the nearer child of the node just opened
        for (;;) {
            if (!taken) {
                if (heap_.empty() || heap_.front().key > limit) return std::nullopt;
                std::pop_heap(heap_.begin(), heap_.end(), Later());
                top = heap_.back();
                heap_.pop_back();
            }
            if (top.kind() != Entry::Node)
                return Candidate{static_cast<float>(top.key), top.index(), top.kind() == Entry::Obstacle};
            const BodyBvh::Node& node = tree_.nodes()[static_cast<std::size_t>(top.index())];
            std::optional<Entry> near = visit(node.child[0], node.box[0], limit);
            std::optional<Entry> far = visit(node.child[1], node.box[1], limit);
            if (!near || (far && Later()(*near, *far))) std::swap(near, far);
            if (far) push(*far);
            // The nearer child next, without the heap, when nothing in the heap comes before it.
            taken = near && (heap_.empty() || !Later()(*near, heap_.front()));
            if (taken) {
                top = *near;
            } else if (near) {
                push(*near);
            }
        }
    }

private:
    void push(const Entry& entry) {
        heap_.push_back(entry);
        std::push_heap(heap_.begin(), heap_.end(), Later());
    }

    /// A child whose bound the ray enters within `limit`: a body as a candidate, a node by its
    /// padded box; none when the ray does not.
    std::optional<Entry> visit(BodyBvh::Ref ref, const Aabb& box, float limit) const {
        if (BodyBvh::isLeaf(ref)) {
            const int body = BodyBvh::bodyOf(ref);
            const auto hit = boundHit(ray_, bodies_[static_cast<std::size_t>(body)], tMax_);
            if (hit && hit->t <= limit) return Entry(hit->t, Entry::Body, body);
            return std::nullopt;
        }
        double key;
        if (boxes_.entry(box, key) && key <= limit) return Entry(key, Entry::Node, ref);
        return std::nullopt;
    }

    std::span<const Body> bodies_;
    const BodyBvh& tree_;
    const Ray& ray_;
    float tMax_;
    std::vector<Entry>& heap_;
    BodyBvh::RayBoxes boxes_;
};

std::optional<PickHit> exact(const World& world, const Candidate& c, const Ray& ray, float tMax) {
    if (c.obstacle) {
        const auto hit = raycast(ray, world.obstacles()[c.index], tMax);
        if (!hit) return std::nullopt;
        return PickHit{-1, {hit->t, hit->point, hit->normal}, c.index, hit->triangle, hit->u, hit->v};
    }
    const Body& b = world.bodies()[c.index];
    const auto hit = b.shape == ShapeType::Sphere ? raycast(ray, sphereOf(b), tMax)
                     : b.shape == ShapeType::Box  ? raycast(ray, obbOf(b), tMax)
                                                  : raycastConvex(ray, convexOf(b), tMax).hit;
    if (!hit) return std::nullopt;
    return PickHit{c.index, *hit};
}

/// Whether a is preferred to b at equal t: bodies before obstacles, then the lower index.
bool before(const PickHit& a, const PickHit& b) {
    if (a.isBody() != b.isBody()) return a.isBody();
    return a.isBody() ? a.body < b.body : a.obstacle < b.obstacle;
}

bool validQuery(const Ray& ray, float tMax) {
    return isValid(ray) && tMax >= 0.0f;
}

/// The exact tests in candidate order, each within the best t so far; nothing whose bound starts
/// beyond the best hit can be nearer, so the candidates stop there.
template <class Candidates>
std::optional<PickHit> nearestOf(const World& world, const Ray& ray, float tMax, Candidates& candidates) {
    std::optional<PickHit> best;
    float bestT = tMax;
    while (const auto c = candidates.next(bestT)) {
        if (const auto hit = exact(world, *c, ray, bestT)) {
            if (!best || hit->hit.t < bestT || (hit->hit.t == bestT && before(*hit, *best))) {
                best = hit;
                bestT = hit->hit.t;
            }
        }
    }
    return best;
}

/// Every candidate's exact hit, sorted by t (stable: at equal t in candidate order).
template <class Candidates>
std::vector<PickHit> allOf(const World& world, const Ray& ray, float tMax, Candidates& candidates) {
    std::vector<PickHit> hits;
    while (const auto c = candidates.next(tMax)) {
        if (const auto hit = exact(world, *c, ray, tMax)) hits.push_back(*hit);
    }
    std::stable_sort(hits.begin(), hits.end(),
                     [](const PickHit& a, const PickHit& b) { return a.hit.t < b.hit.t; });
    return hits;
}

/// The answer of `of` (nearestOf or allOf) over the candidates of `Candidates` (TreeWalk or
/// ScanList), with that pair's scratch kept per thread; empty for an invalid ray or tMax.
template <class Candidates, class Of>
auto answer(const World& world, const Ray& ray, float tMax, Of of) {
    using Answer = decltype(of(world, ray, tMax, std::declval<Candidates&>()));
    if (!validQuery(ray, tMax)) return Answer{};
    thread_local typename Candidates::Scratch scratch;
    Candidates candidates(world, ray, tMax, scratch);
    return of(world, ray, tMax, candidates);
}

} // namespace

std::optional<PickHit> pickNearest(const World& world, const Ray& ray, float tMax) {
    return answer<TreeWalk>(world, ray, tMax, nearestOf<TreeWalk>);
}

std::vector<PickHit> pickAll(const World& world, const Ray& ray, float tMax) {
    return answer<TreeWalk>(world, ray, tMax, allOf<TreeWalk>);
}

std::optional<PickHit> pickNearestByScan(const World& world, const Ray& ray, float tMax) {
    return answer<ScanList>(world, ray, tMax, nearestOf<ScanList>);
}

std::vector<PickHit> pickAllByScan(const World& world, const Ray& ray, float tMax) {
    return answer<ScanList>(world, ray, tMax, allOf<ScanList>);
}

} // namespace kz
