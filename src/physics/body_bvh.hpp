// The bodies' bounding volume hierarchy: a binary tree of axis-aligned boxes over the bodies'
// bounding spheres, which picking walks front to back (pick.cpp). The world keeps it up to date:
// each leaf's box is loose (Box2D's fat boxes), so that the end of a step only finds the few
// bodies that left theirs and moves those; the tree is rebuilt when the boxes have grown loose;
// an added body is inserted, a changed one moved. It is a cache: it never changes a body, and a
// query's answer does not depend on its shape.
#pragma once

#include "body.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace kz {

class BodyBvh {
public:
    /// A reference to a subtree: an inner node (>= 0, an index into nodes()) or a leaf, one body
    /// (< 0: body -1 - ref).
    using Ref = int;
    static bool isLeaf(Ref ref) { return ref < 0; }
    static int bodyOf(Ref leaf) { return -1 - leaf; }

    /// An inner node: its two children and their boxes, side by side, so that one node read
    /// gives both boxes a ray is tested against.
    struct Node {
        Aabb box[2]; ///< Each child's box: holds the bounding sphere of every body below it.
        Ref child[2];
    };

    /// The bounding sphere of a body (the sphere, or a box's circumscribed sphere:
    /// boundingRadius), or radius -1 for a body that picking skips: one whose position or size is
    /// not finite or whose radius is negative.
    static Sphere leafSphere(const Body& body);
    /// The box of leafSphere: what a leaf's box must hold. Empty (min > max: no ray meets it) for
    /// a body that picking skips.
    static Aabb leafBox(const Body& body);

    /// Replaces the tree with one over `bodies`: a linear BVH (the leaves sorted along a 30-bit
    /// Morton curve of their boxes' centres, each range split where the codes' highest
    /// differing bit changes: Lauterbach et al. 2009, Karras 2012), O(n log n) and a few hundred
    /// instructions a body, so that a rebuild costs the step little.
    void build(std::span<const Body> bodies);
    /// Body `bodies.size() - 1`, just added, joins the tree: a full build when the bodies have
    /// doubled since the last one (so adding n bodies one by one costs O(n log n) in all), else
    /// a leaf inserted beside the subtree that grows least (Box2D's b2DynamicTree::InsertLeaf).
    void insertLast(std::span<const Body> bodies);
    /// Body i changed (moved, resized): its leaf gets a new loose box, and the boxes above grow
    /// to hold it.
    void update(std::span<const Body> bodies, int i);
    /// Every body may have moved (the end of a step). A leaf's box holds the body's bounding
    /// sphere wherever its centre lies within a ball around where it was placed: the path its
    /// velocity would take in kLookAhead seconds (at most kMaxLead radii long), padded by kPad
    /// radii. The refit only
    /// compares each body's centre with its ball (a few instructions a body); a body found
    /// outside gets a new box where it is now, and the boxes above grow to hold it (they never
    /// shrink). Then, when the tree's surface area cost has grown past kRebuildRatio times its
    /// cost at the last build (boxes grown after bodies that moved away), it is rebuilt.
    /// Returns whether it rebuilt.
    bool refit(std::span<const Body> bodies);

    /// A ray prepared for the slab test against the tree's boxes in double precision, which
    /// picking (pick.cpp) and the sphere cast (sphere_cast.cpp) walk the tree with.
    class RayBoxes {
    public:
        explicit RayBoxes(const Ray& ray) : origin_(ray.origin), originSize_(size(ray.origin)) {
            for (int a = 0; a < 3; ++a)
                inverse_[a] = ray.dir[a] != 0.0f ? 1.0 / static_cast<double>(ray.dir[a]) : 0.0;
        }
        /// Whether the ray (t >= 0) enters `box` padded by kRayPad times the size of the
        /// coordinates (the ray origin's and the box's), and where: `key`, 0 when it starts
        /// inside. An empty box (min > max) is never entered. Picking's test.
        bool entry(const Aabb& box, double& key) const {
            return boxEntry(box, kRayPad * (originSize_ + boxSize(box)), key);
        }
        /// entry() for `box` grown by `grow` (>= 0: a cast sphere's radius) on every side and
        /// padded by kCastPad times the size of the coordinates (the ray origin's, the box's and
        /// `grow`). The sphere cast's test.
        bool entryGrown(const Aabb& box, double grow, double& key) const {
            return boxEntry(box, kCastPad * (originSize_ + boxSize(box) + grow) + grow, key);
        }

    private:
        /// The largest |coordinate|.
        static double size(const glm::vec3& v) {
            return static_cast<double>(std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}));
        }
        static double boxSize(const Aabb& box) { return std::max(size(box.min), size(box.max)); }
        /// The slab test in double on `box` moved out by `out` on every side.
        bool boxEntry(const Aabb& box, double out, double& key) const {
            if (!(box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z)) return false;
            double enter = 0.0, exit = INFINITY;
            for (int a = 0; a < 3; ++a) {
                const double lo = static_cast<double>(box.min[a]) - out,
                             hi = static_cast<double>(box.max[a]) + out;
                if (inverse_[a] == 0.0) { // parallel to the slab: between its faces or never inside
                    if (origin_[a] < lo || origin_[a] > hi) return false;
                    continue;
                }
                double near = (lo - origin_[a]) * inverse_[a], far = (hi - origin_[a]) * inverse_[a];
                if (near > far) std::swap(near, far);
                enter = std::max(enter, near);
                exit = std::min(exit, far);
            }
            key = enter;
            return enter <= exit;
        }

        glm::dvec3 origin_;
        double originSize_;
        double inverse_[3]; ///< 1 / dir, or 0 along an axis the ray is parallel to.
    };
    /// Picking's padding of the boxes (RayBoxes::entry), relative to the size of the
    /// coordinates: about 170 float epsilons. A body's bound entry t is the float ray-sphere
    /// test's, whose rounding puts the ray's point at that t within a few tens of epsilons of
    /// those sizes from the sphere (also for a grazing ray: the error in the discriminant moves
    /// the point along the sphere, not away from it); inside the padded box, then, whose entry t
    /// (in double precision) is no later.
    static constexpr double kRayPad = 1e-5;
    /// The sphere cast's padding of the grown boxes, relative to the size of the coordinates. Its
    /// float sweeps solve quadratics whose constant term |q|^2 - R^2 (q: from the body, or an edge
    /// or a corner of a box, to the ray origin; R: the cast radius plus the body's or 0) loses
    /// about 16 u |q|^2 to rounding (u = 2^-24) when the origin is far (|q| = D), so the centre at
    /// a touch t they return lies within R + 4 sqrt(u) (D + R) < R + 1e-3 (D + R) of the body.
    /// As the box holds the body's bounding sphere, D + R <= sqrt(3) origin's size + 2 sqrt(3)
    /// box's size + the cast radius, so 1e-3 (D + R) < 3.5e-3 (origin's size + box's size + cast
    /// radius), which kCastPad covers.
    static constexpr double kCastPad = 4e-3;

    /// The root (meaningless when empty()) and its box.
    Ref root() const { return root_; }
    const Aabb& rootBox() const { return rootBox_; }
    bool empty() const { return bodyCount_ == 0; }
    std::span<const Node> nodes() const { return nodes_; }
    /// The bodies the tree holds: the world's body count.
    std::size_t bodyCount() const { return bodyCount_; }
    /// The sum of the inner nodes' box areas over the root box's (a ray's expected node visits,
    /// up to a constant: the surface area heuristic) at the last change, and the same right
    /// after the last build.
    float cost() const { return cost_; }
    float builtCost() const { return builtCost_; }
    /// The heap bytes a copy holds.
    std::size_t memoryBytes() const;

    // The looseness (docs/physics.md: chosen by BM_Pick and BM_Step under callgrind). Looser
    // leaves make fewer bodies leave their ball in a step, and picking slower.
    /// How far ahead along its velocity a leaf's box reaches, in seconds.
    static constexpr float kLookAhead = 0.2f;
    /// The longest path ahead a leaf's box covers, in radii (a fast body's box stays its size).
    static constexpr float kMaxLead = 4.0f;
    /// How far a leaf's box reaches beyond the body's swept sphere, in radii.
    static constexpr float kPad = 0.05f;
    /// Rebuild once the cost exceeds this multiple of the built cost.
    static constexpr float kRebuildRatio = 2.0f;

private:
    /// Where a subtree hangs: parent * 2 + slot, or -1 for the root.
    using Up = int;
    /// The ball body i's centre may move in while its leaf's box holds it: centre and squared
    /// radius.
    struct Ball {
        glm::vec3 centre;
        float radius2;
    };
    /// Gives body i a new ball; returns its leaf's box.
    Aabb placeLeaf(const Body& body, std::size_t i);
    /// Sets the box of the subtree at `up` (counting its area if it is an inner node).
    void setBox(Up up, const Aabb& box);
    /// Grows every box above the subtree at `up` to hold `box`, up to the first that does.
    void growAbove(Up up, const Aabb& box);
    void updateCost();

    std::vector<Node> nodes_;
    std::vector<Up> nodeUp_;  ///< Per inner node: where it hangs.
    std::vector<Up> leafUp_;  ///< Per body: where its leaf hangs.
    std::vector<Ball> balls_; ///< Per body: where its centre may be while its leaf's box holds it.
    Ref root_ = 0;
    Aabb rootBox_{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    std::size_t bodyCount_ = 0;
    std::size_t builtCount_ = 0; ///< Bodies at the last build.
    double areaSum_ = 0.0;       ///< The inner nodes' box areas.
    float cost_ = 0.0f;
    float builtCost_ = 0.0f;
};

} // namespace kz
