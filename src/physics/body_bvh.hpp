// The bodies' bounding volume hierarchy: a binary tree of axis-aligned boxes over the bodies'
// bounding spheres, which picking walks front to back (pick.cpp). The world keeps it up to date:
// built, then refitted at the end of every step and rebuilt when the refits have let it grow
// loose, one leaf inserted per added body, one path refitted per moved body. It is a cache: it
// never changes a body, and a query's answer does not depend on its shape.
#pragma once

#include "body.hpp"

#include <cstddef>
#include <span>
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

    /// The box a body's leaf holds: its bounding sphere's (the sphere, or a box's circumscribed
    /// sphere: boundingRadius). Empty (min > max: no ray meets it) for a body whose position or
    /// size is not finite or whose radius is negative, as picking skips such a body.
    static Aabb leafBox(const Body& body);
    /// The bounding sphere leafBox is the box of, or radius -1 (an empty box) for such a body.
    static Sphere leafSphere(const Body& body);

    /// Replaces the tree with one over `bodies`, built top down by the surface area heuristic
    /// (16 bins on the axis of largest spread of the centres).
    void build(std::span<const Body> bodies);
    /// Body `bodies.size() - 1`, just added, joins the tree: a full build when the bodies have
    /// doubled since the last one (so adding n bodies one by one costs O(n log n) in all), else
    /// a leaf inserted beside the subtree that grows least (Box2D's dynamic tree's descent).
    void insertLast(std::span<const Body> bodies);
    /// Body i changed: its leaf box and the boxes on its path to the root are refitted.
    void update(std::span<const Body> bodies, int i);
    /// Every body may have moved (the end of a step): every box is refitted from its children
    /// (the bodies' spheres copied in body order first, so that the one pass over the nodes,
    /// children first, reads them from a small array); then, when the tree's surface area cost has grown past
    /// kRebuildRatio times its cost at the last build (bodies that moved apart leave wide, overlapping
    /// boxes), it is rebuilt. Returns whether it rebuilt.
    bool refit(std::span<const Body> bodies);

    /// The root (meaningless when empty()) and its box.
    Ref root() const { return root_; }
    const Aabb& rootBox() const { return rootBox_; }
    bool empty() const { return bodyCount_ == 0; }
    std::span<const Node> nodes() const { return nodes_; }
    /// The bodies the tree holds: the world's body count.
    std::size_t bodyCount() const { return bodyCount_; }
    /// The sum of the inner nodes' box areas over the root box's (a ray's expected node visits,
    /// up to a constant: the surface area heuristic) at the last build or refit, and the same
    /// right after the last build.
    float cost() const { return cost_; }
    float builtCost() const { return builtCost_; }
    /// The heap bytes a copy holds.
    std::size_t memoryBytes() const;

    /// Rebuild once the refitted cost exceeds this multiple of the built cost.
    static constexpr float kRebuildRatio = 1.5f;

private:
    /// Where a subtree hangs: parent * 2 + slot, or -1 for the root.
    using Up = int;
    void setBox(Up up, const Aabb& box);
    /// Refits the boxes from `up` to the root, after the box below it changed to `box`.
    void refitPath(Up up, Aabb box);

    std::vector<Node> nodes_;     ///< After a build, every child after its parent (refit's order).
    std::vector<Up> nodeUp_;      ///< Per inner node: where it hangs.
    std::vector<Up> leafUp_;      ///< Per body: where its leaf hangs.
    std::vector<Sphere> spheres_; ///< Per body: leafSphere at the last build, insertion or refit.
    Ref root_ = 0;
    Aabb rootBox_{glm::vec3(INFINITY), glm::vec3(-INFINITY)};
    std::size_t bodyCount_ = 0;
    std::size_t builtCount_ = 0; ///< Bodies at the last build.
    bool ordered_ = true;        ///< No insertion since the last build: children after parents.
    float cost_ = 0.0f;
    float builtCost_ = 0.0f;
};

} // namespace kz
