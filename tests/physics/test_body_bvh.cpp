// The bodies' bounding volume hierarchy (src/physics/body_bvh.hpp): every box holds the bounding
// spheres below it and every body has one leaf, after a build, one insertion at a time, a moved
// body and a refit; a leaf's loose box reaches ahead along the velocity; a refit moves no leaf of
// a body at rest and rebuilds once the bodies have scattered. (Picking's answers over it are
// tested against the scan in test_pick.cpp.)
#include "physics/body_bvh.hpp"
#include "physics/room.hpp"
#include "physics/world.hpp"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using kz::Aabb;
using kz::Body;
using kz::BodyBvh;

bool holds(const Aabb& outer, const Aabb& inner) {
    return glm::all(glm::lessThanEqual(outer.min, inner.min)) &&
           glm::all(glm::greaterThanEqual(outer.max, inner.max));
}

bool isEmpty(const Aabb& box) {
    return !(box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z);
}

/// Checks the subtree at `ref` under `box`: each box holds its children's, a leaf's holds its
/// body's leafBox; counts each body's leaves in `seen`.
void checkSubtree(const BodyBvh& tree, std::span<const Body> bodies, BodyBvh::Ref ref, const Aabb& box,
                  std::vector<int>& seen, const std::string& label) {
    if (BodyBvh::isLeaf(ref)) {
        const int body = BodyBvh::bodyOf(ref);
        ASSERT_GE(body, 0) << label;
        ASSERT_LT(body, static_cast<int>(bodies.size())) << label;
        ++seen[static_cast<std::size_t>(body)];
        const Aabb leaf = BodyBvh::leafBox(bodies[static_cast<std::size_t>(body)]);
        EXPECT_TRUE(isEmpty(leaf) || holds(box, leaf)) << label << ", body " << body;
        return;
    }
    ASSERT_GE(ref, 0) << label;
    ASSERT_LT(ref, static_cast<int>(tree.nodes().size())) << label;
    const BodyBvh::Node& node = tree.nodes()[static_cast<std::size_t>(ref)];
    for (int s = 0; s < 2; ++s) {
        EXPECT_TRUE(isEmpty(node.box[s]) || holds(box, node.box[s])) << label << ", node " << ref;
        checkSubtree(tree, bodies, node.child[s], node.box[s], seen, label);
    }
}

/// The tree covers exactly these bodies, each once, every box holding what is below it.
void expectCovers(const BodyBvh& tree, std::span<const Body> bodies, const std::string& label) {
    ASSERT_EQ(tree.bodyCount(), bodies.size()) << label;
    ASSERT_EQ(tree.empty(), bodies.empty()) << label;
    if (bodies.empty()) return;
    EXPECT_EQ(tree.nodes().size(), bodies.size() - 1) << label << ": a binary tree with one body a leaf";
    std::vector<int> seen(bodies.size(), 0);
    checkSubtree(tree, bodies, tree.root(), tree.rootBox(), seen, label);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        EXPECT_EQ(seen[i], 1) << label << ", body " << i;
}

Body body(const glm::vec3& position, float radius, bool box = false) {
    Body b{};
    b.shape = box ? kz::ShapeType::Box : kz::ShapeType::Sphere;
    b.radius = radius;
    b.halfExtents = glm::vec3(box ? radius / 2.0f : radius);
    b.position = position;
    b.orientation = glm::quat(1, 0, 0, 0);
    return b;
}

std::vector<Body> randomBodies(std::mt19937& rng, int n) {
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), u01(0.0f, 1.0f);
    std::vector<Body> bodies;
    for (int i = 0; i < n; ++i) {
        const float size = u01(rng) < 0.05f ? 20.0f * u01(rng) : 0.01f + u01(rng);
        bodies.push_back(body(glm::vec3(unit(rng), unit(rng), unit(rng)) * 30.0f, size, i % 2 == 1));
    }
    return bodies;
}

TEST(BodyBvh, ABuildHoldsEveryBodyOnceWhateverTheirNumber) {
    std::mt19937 rng(11u);
    for (int n : {0, 1, 2, 3, 7, 100, 1000}) {
        const std::vector<Body> bodies = randomBodies(rng, n);
        BodyBvh tree;
        tree.build(bodies);
        expectCovers(tree, bodies, std::to_string(n) + " bodies");
    }
}

TEST(BodyBvh, BodiesAddedOneByOneAreEachHeldAndARefitKeepsTheTreeWithinTheRebuildRatio) {
    std::mt19937 rng(12u);
    const std::vector<Body> bodies = randomBodies(rng, 700);
    BodyBvh tree;
    for (std::size_t n = 1; n <= bodies.size(); ++n) {
        tree.insertLast(std::span<const Body>(bodies).first(n));
        expectCovers(tree, std::span<const Body>(bodies).first(n), std::to_string(n) + " added");
        if (HasFailure()) return;
    }
    tree.refit(bodies);
    EXPECT_LE(tree.cost(), BodyBvh::kRebuildRatio * tree.builtCost());
    expectCovers(tree, bodies, "refitted");
}

TEST(BodyBvh, ALeafsBoxReachesAlongTheVelocityForTheLookAheadButAtMostMaxLeadRadii) {
    const float r = 0.5f, pad = BodyBvh::kPad * r;
    for (const float speed : {0.0f, 1.0f, 100.0f}) {
        Body b = body({0, 0, 0}, r);
        b.velocity = {speed, 0, 0};
        BodyBvh tree;
        tree.build(std::span<const Body>(&b, 1));
        const float path = std::min(speed * BodyBvh::kLookAhead, BodyBvh::kMaxLead * r);
        const Aabb box = tree.rootBox(); // one body: the root is its leaf
        EXPECT_NEAR(box.min.x, -r - pad, 1e-5f) << speed;
        EXPECT_NEAR(box.max.x, path + r + pad, 1e-5f) << speed;
        EXPECT_NEAR(box.max.y - box.min.y, path + 2.0f * (r + pad), 1e-5f)
            << "a cube round the ball, " << speed;
        // Moving within the ball keeps the leaf; beyond it, the leaf follows.
        b.position.x = path;
        EXPECT_FALSE(tree.refit(std::span<const Body>(&b, 1)));
        EXPECT_EQ(tree.rootBox().min, box.min);
        b.position.x = path + 2.0f * pad;
        tree.refit(std::span<const Body>(&b, 1));
        EXPECT_NEAR(tree.rootBox().min.x, path + 2.0f * pad - r - pad, 1e-5f) << speed;
    }
}

TEST(BodyBvh, AMovedBodyIsHeldWhereItIsNowAndTheBodiesNearItStayHeld) {
    std::mt19937 rng(13u);
    std::vector<Body> bodies = randomBodies(rng, 300);
    BodyBvh tree;
    tree.build(bodies);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (int k = 0; k < 200; ++k) {
        const int i = static_cast<int>(rng() % bodies.size());
        bodies[static_cast<std::size_t>(i)].position = glm::vec3(unit(rng), unit(rng), unit(rng)) * 50.0f;
        bodies[static_cast<std::size_t>(i)].radius *= 1.5f;
        tree.update(bodies, i);
        expectCovers(tree, bodies, "move " + std::to_string(k));
        if (HasFailure()) return;
    }
}

TEST(BodyBvh, ABodyWithANonFinitePositionHasAnEmptyLeafThatNoBoxGrowsFor) {
    std::vector<Body> bodies{body({0, 0, 0}, 1.0f), body({5, 0, 0}, 1.0f), body({0, 5, 0}, 1.0f, true)};
    bodies[1].position.x = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(isEmpty(BodyBvh::leafBox(bodies[1])));
    bodies[2].position.y = std::numeric_limits<float>::infinity();
    EXPECT_TRUE(isEmpty(BodyBvh::leafBox(bodies[2])));
    Body negative = body({0, 0, 0}, -1.0f);
    EXPECT_TRUE(isEmpty(BodyBvh::leafBox(negative)));
    BodyBvh tree;
    tree.build(bodies);
    expectCovers(tree, bodies, "NaN and infinity");
    for (int a = 0; a < 3; ++a) { // only body 0's loose box (at rest: padded by kPad radii)
        EXPECT_NEAR(tree.rootBox().min[a], -1.0f - BodyBvh::kPad, 1e-5f);
        EXPECT_NEAR(tree.rootBox().max[a], 1.0f + BodyBvh::kPad, 1e-5f);
    }
}

TEST(BodyBvh, ARefitFollowsSmallMovesAndRebuildsOnlyOnceTheBodiesHaveScattered) {
    std::mt19937 rng(14u);
    std::vector<Body> bodies = randomBodies(rng, 500);
    BodyBvh tree;
    tree.build(bodies);
    const float built = tree.builtCost();
    const std::vector<BodyBvh::Node> before(tree.nodes().begin(), tree.nodes().end());
    EXPECT_FALSE(tree.refit(bodies)) << "bodies at rest";
    EXPECT_EQ(tree.cost(), built);
    EXPECT_EQ(std::memcmp(before.data(), tree.nodes().data(), before.size() * sizeof(BodyBvh::Node)), 0)
        << "no box moved";
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (Body& b : bodies)
        b.position += glm::vec3(unit(rng), unit(rng), unit(rng)) * 0.01f;
    EXPECT_FALSE(tree.refit(bodies)) << "small moves";
    expectCovers(tree, bodies, "small moves");
    EXPECT_LT(tree.cost(), BodyBvh::kRebuildRatio * built);
    // Every body somewhere else in the room: the refitted boxes span it.
    std::shuffle(bodies.begin(), bodies.end(), rng);
    EXPECT_TRUE(tree.refit(bodies));
    expectCovers(tree, bodies, "scattered");
    EXPECT_EQ(tree.cost(), tree.builtCost());
}

TEST(BodyBvh, TheWorldKeepsItOverItsBodiesThroughStepsAndCopies) {
    kz::World world(kz::boxRoom(glm::vec3(20.0f)));
    std::mt19937 rng(15u);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (int i = 0; i < 200; ++i) {
        kz::BodyDesc d;
        d.position = glm::vec3(i % 10 - 5, (i / 10) % 10 - 5, i / 100 - 1) * 1.5f;
        d.radius = 0.3f;
        d.velocity = glm::vec3(unit(rng), unit(rng), unit(rng)) * 8.0f;
        world.addBody(d);
        expectCovers(world.bodyBvh(), world.bodies(), "added " + std::to_string(i));
    }
    for (int i = 0; i < 240; ++i) {
        world.step();
        expectCovers(world.bodyBvh(), world.bodies(), "step " + std::to_string(i));
        if (HasFailure()) return;
    }
    EXPECT_LT(world.bodyBvh().cost(), BodyBvh::kRebuildRatio * world.bodyBvh().builtCost());
    const kz::World copy = world;
    expectCovers(copy.bodyBvh(), copy.bodies(), "copy");
    EXPECT_EQ(copy.bodyBvh().memoryBytes(), world.bodyBvh().memoryBytes());
}

} // namespace
