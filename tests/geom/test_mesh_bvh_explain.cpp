// MeshBvh::explainRaycast: the traversal's events in scenarios (culled, skipped, entered, leaves,
// new best hits), then on 100,000+ random rays over the project's meshes: totals consistent with
// the events, and the hit exactly MeshBvh::raycast's.
#include "geom/geom.hpp"
#include "meshio/shapes.hpp"
#include "support/ray_test_support.hpp"

#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace kz;
using namespace kz::raytest;

/// Two n x n grids of unit squares in the planes z = 0 and z = 10, centred on the z axis.
MeshBvh twoGrids(int n) {
    std::vector<glm::vec3> vertices;
    std::vector<std::uint32_t> indices;
    for (const float z : {0.0f, 10.0f}) {
        const auto base = static_cast<std::uint32_t>(vertices.size());
        const auto side = static_cast<std::uint32_t>(n + 1);
        for (int j = 0; j <= n; ++j)
            for (int i = 0; i <= n; ++i)
                vertices.emplace_back(static_cast<float>(i) - 0.5f * static_cast<float>(n),
                                      static_cast<float>(j) - 0.5f * static_cast<float>(n), z);
        for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(n); ++j) {
            for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(n); ++i) {
                const std::uint32_t v = base + j * side + i;
                indices.insert(indices.end(), {v, v + 1, v + side + 1, v, v + side + 1, v + side});
            }
        }
    }
    return MeshBvh::build(vertices, indices);
}

int countOf(const MeshRayTrace& trace, BvhEventKind kind) {
    int n = 0;
    for (const BvhEvent& e : trace.events)
        n += e.kind == kind ? 1 : 0;
    return n;
}

bool identical(const std::optional<MeshHit>& a, const std::optional<MeshHit>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || (a->t == b->t && a->point == b->point && a->normal == b->normal &&
                  a->triangle == b->triangle && a->u == b->u && a->v == b->v);
}

/// What every trace must satisfy: totals that count its events, every considered child accounted
/// for, each leaf tested right after it is entered, best hits improving, and the hit exactly
/// MeshBvh::raycast's. Empty when all hold, else what failed.
std::string checkTrace(const MeshBvh& bvh, const MeshRayTrace& trace, const Ray& ray, float tMax) {
    const auto fast = bvh.raycast(ray, tMax);
    if (!identical(trace.hit, fast)) return "the trace's hit differs from raycast";
    if (!trace.validInput) return trace.events.empty() && !fast ? "" : "invalid input with events or a hit";
    const BvhTotals& n = trace.totals;
    if (n.entered + n.culled + n.skipped != n.childrenConsidered)
        return "entered " + std::to_string(n.entered) + " + culled " + std::to_string(n.culled) +
               " + skipped " + std::to_string(n.skipped) + " != considered " +
               std::to_string(n.childrenConsidered);
    if (countOf(trace, BvhEventKind::Entered) != n.entered ||
        countOf(trace, BvhEventKind::Culled) != n.culled ||
        countOf(trace, BvhEventKind::Skipped) != n.skipped ||
        countOf(trace, BvhEventKind::LeafTested) != n.leavesTested ||
        countOf(trace, BvhEventKind::NewBestHit) != n.newBestHits)
        return "the totals do not count the events";
    int triangles = 0;
    float best = INFINITY;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const BvhEvent& e = trace.events[i];
        if (e.kind == BvhEventKind::LeafTested) {
            triangles += static_cast<int>(e.triangleCount);
            if (i == 0 || trace.events[i - 1].kind != BvhEventKind::Entered || !trace.events[i - 1].leaf ||
                trace.events[i - 1].index != e.index)
                return "a leaf tested without being entered just before";
        }
        if (e.kind == BvhEventKind::Entered && !(e.t <= e.bestT)) return "entered a box beyond the best hit";
        if (e.kind == BvhEventKind::Skipped && !(e.t > e.bestT)) return "skipped a box before the best hit";
        if (e.kind == BvhEventKind::NewBestHit) {
            if (!(e.t <= best) || e.bestT != best) return "a new best hit that does not improve";
            best = e.t;
        }
    }
    if (triangles != n.trianglesTested) return "trianglesTested does not count the leaves' triangles";
    if (fast && (trace.events.empty() || n.newBestHits == 0 || best != fast->t))
        return "the last best hit is not the hit";
    if (!fast && n.newBestHits != 0) return "a best hit without a hit";
    return {};
}

TEST(ExplainMeshBvh, RayMissingTheMeshCullsEveryChildOfTheRoot) {
    const MeshBvh bvh = twoGrids(8);
    const MeshRayTrace trace = bvh.explainRaycast(Ray{{100.0f, 100.0f, -5.0f}, {0.0f, 0.0f, 1.0f}});
    EXPECT_TRUE(trace.validInput);
    EXPECT_FALSE(trace.hit);
    EXPECT_GT(trace.totals.childrenConsidered, 1);
    EXPECT_EQ(trace.totals.culled, trace.totals.childrenConsidered);
    EXPECT_EQ(trace.totals.entered, 0);
    for (const BvhEvent& e : trace.events) {
        EXPECT_EQ(e.kind, BvhEventKind::Culled);
        EXPECT_EQ(e.depth, 1);
    }
}

TEST(ExplainMeshBvh, TheFarGridIsSkippedOnceTheNearGridIsHit) {
    const MeshBvh bvh = twoGrids(8);
    const Ray ray{{0.3f, 0.2f, -5.0f}, {0.0f, 0.0f, 1.0f}};
    const MeshRayTrace trace = bvh.explainRaycast(ray);
    ASSERT_TRUE(trace.hit);
    EXPECT_EQ(trace.hit->t, 5.0f);
    EXPECT_TRUE(identical(trace.hit, bvh.raycast(ray)));
    EXPECT_GE(trace.totals.skipped, 1);
    bool skippedFarBox = false;
    for (const BvhEvent& e : trace.events) {
        if (e.kind == BvhEventKind::Skipped && e.box.min.z == 10.0f) {
            skippedFarBox = true;
            EXPECT_EQ(e.bestT, 5.0f);
            EXPECT_GT(e.t, 14.9f); // the far grid starts at t = 15
        }
        if (e.kind == BvhEventKind::LeafTested || e.kind == BvhEventKind::NewBestHit) {
            EXPECT_EQ(e.box.max.z, 0.0f) << "only the near grid's leaves are tested";
        }
    }
    EXPECT_TRUE(skippedFarBox);
    EXPECT_EQ(checkTrace(bvh, trace, ray, kInf), "");
}

TEST(ExplainMeshBvh, EachEnteredLeafListsItsTrianglesAndTheLastBestHitIsTheHit) {
    const MeshBvh bvh = twoGrids(8);
    const Ray ray{{0.3f, 0.2f, 20.0f}, {0.0f, 0.0f, -2.0f}}; // from behind the far grid
    const MeshRayTrace trace = bvh.explainRaycast(ray);
    ASSERT_TRUE(trace.hit);
    EXPECT_EQ(trace.hit->t, 5.0f);
    const BvhEvent* lastBest = nullptr;
    for (const BvhEvent& e : trace.events) {
        if (e.kind == BvhEventKind::LeafTested) {
            EXPECT_GE(e.triangleCount, 1u);
            EXPECT_LE(e.triangleCount, MeshBvh::kMaxLeafTriangles);
            EXPECT_GE(e.depth, 1);
        }
        if (e.kind == BvhEventKind::NewBestHit) lastBest = &e;
    }
    ASSERT_NE(lastBest, nullptr);
    EXPECT_EQ(lastBest->triangles[0], trace.hit->triangle);
    EXPECT_EQ(lastBest->t, trace.hit->t);
    EXPECT_EQ(checkTrace(bvh, trace, ray, kInf), "");
}

/// Eight clusters of 8 triangles in the plane y = 0, 1 x 1, at x = 0, 10, ..., 70 (z in [0, 1]): the
/// root's eight leaves (the SAH keeps a cluster of two blocks of 4 whole, and splits two clusters).
MeshBvh clustersAlongX() {
    std::vector<glm::vec3> vertices;
    std::vector<std::uint32_t> indices;
    for (int c = 0; c < 8; ++c) {
        const float x = 10.0f * static_cast<float>(c);
        const auto v = static_cast<std::uint32_t>(vertices.size());
        for (const float dx : {0.0f, 0.25f, 0.5f, 0.75f, 1.0f})
            for (const float z : {0.0f, 1.0f})
                vertices.emplace_back(x + dx, 0.0f, z);
        // Columns of two vertices (z = 0, 1): four squares of two triangles.
        for (std::uint32_t q = 0; q < 4; ++q) {
            const std::uint32_t a = v + 2 * q;
            indices.insert(indices.end(), {a, a + 2, a + 3, a, a + 3, a + 1});
        }
    }
    return MeshBvh::build(vertices, indices);
}

/// The boxes' min x of the leaves entered, in order.
std::vector<float> enteredLeavesX(const MeshRayTrace& trace) {
    std::vector<float> xs;
    for (const BvhEvent& e : trace.events)
        if (e.kind == BvhEventKind::Entered && e.leaf) xs.push_back(e.box.min.x);
    return xs;
}

TEST(ExplainMeshBvh, ThreeOrMoreChildrenAreTakenInTheOrderOfTheRaysOctant) {
    // A ray in the triangles' plane enters all eight leaves' (flat) boxes and hits none of them
    // (parallel to them): every leaf is taken, in the order the root keeps for the ray's octant,
    // which for these clusters is along x. The directions' zero components are +0 or -0, which
    // counts as negative: octants 0 and 1 read their own row of Node::order reversed, 4 and 7 the
    // row of their opposite.
    const MeshBvh bvh = clustersAlongX();
    const std::vector<float> ascending = {0.0f, 10.0f, 20.0f, 30.0f, 40.0f, 50.0f, 60.0f, 70.0f};
    const std::vector<float> descending(ascending.rbegin(), ascending.rend());
    const struct {
        glm::vec3 origin, dir;
        const std::vector<float>& expected;
    } cases[] = {
        {{-5.0f, 0.0f, 0.5f}, {1.0f, 0.0f, 0.0f}, ascending},     // octant 0
        {{-5.0f, 0.0f, 0.5f}, {1.0f, 0.0f, -0.0f}, ascending},    // octant 4
        {{80.0f, 0.0f, 0.5f}, {-1.0f, 0.0f, 0.0f}, descending},   // octant 1
        {{80.0f, 0.0f, 0.5f}, {-1.0f, -0.0f, -0.0f}, descending}, // octant 7
    };
    for (const auto& c : cases) {
        const Ray ray{c.origin, c.dir};
        const MeshRayTrace trace = bvh.explainRaycast(ray);
        EXPECT_FALSE(trace.hit.has_value());
        EXPECT_FALSE(bvh.raycast(ray).has_value());
        EXPECT_EQ(enteredLeavesX(trace), c.expected) << "dir " << c.dir.x << " " << c.dir.y << " " << c.dir.z;
        EXPECT_EQ(checkTrace(bvh, trace, ray, kInf), "");
    }
}

TEST(ExplainMeshBvh, AnInvalidRayOrAnEmptyMeshHasNoEvents) {
    const MeshBvh bvh = twoGrids(2);
    const MeshRayTrace zeroDir = bvh.explainRaycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 0.0f}});
    EXPECT_FALSE(zeroDir.validInput);
    EXPECT_TRUE(zeroDir.events.empty());
    const MeshBvh empty = MeshBvh::build({}, {});
    EXPECT_FALSE(empty.explainRaycast(Ray{{0.0f, 0.0f, -5.0f}, {0.0f, 0.0f, 1.0f}}).validInput);
}

/// The project's meshes with their BVHs, built once.
const std::vector<std::pair<std::string, MeshBvh>>& projectBvhs() {
    static const auto bvhs = [] {
        std::vector<std::pair<std::string, MeshBvh>> out;
        for (const ProjectMesh& m : projectMeshes())
            out.emplace_back(m.fileName, MeshBvh::build(m.mesh.vertices, m.mesh.indices));
        return out;
    }();
    return bvhs;
}

TEST(ExplainMeshBvhProperty, TracesOfRandomRaysOverTheProjectMeshesMatchRaycast) {
    const std::uint32_t seed = kSeed + 950u;
    Random rng(seed);
    CaseStats stats(seed);
    long skipped = 0;
    long culled = 0;
    const auto& bvhs = projectBvhs();
    ASSERT_GE(bvhs.size(), 3u);
    for (int i = 0; i < kCases && stats.failures < CaseStats::kMaxReported; ++i) {
        const auto& [name, bvh] = bvhs[static_cast<std::size_t>(i) % bvhs.size()];
        const Aabb box = bvh.bounds();
        const glm::dvec3 centre = 0.5 * (glm::dvec3(box.min) + glm::dvec3(box.max));
        const double size = 0.5 * glm::length(glm::dvec3(box.max) - glm::dvec3(box.min));
        Ray ray{};
        if (rng.chance(0.15)) { // zero direction components
            glm::vec3 dir(rng.unitVector());
            dir[rng.integer(0, 2)] = 0.0f;
            ray = {glm::vec3(centre + rng.inBox(size)), dir};
        } else {
            const glm::dvec3 origin =
                centre + (rng.chance(0.2) ? rng.inBall(0.8 * size) : rng.unitVector() * 2.0 * size);
            ray = {glm::vec3(origin), rng.scaledDir(glm::normalize(centre + rng.inBall(size) - origin))};
        }
        const float tMax = rng.chance(0.7) ? kInf : rng.uniformF(0.0, 3.0 * size / glm::length(toD(ray.dir)));
        ++stats.compared;
        const MeshRayTrace trace = bvh.explainRaycast(ray, tMax);
        stats.hits += trace.hit ? 1 : 0;
        skipped += trace.totals.skipped;
        culled += trace.totals.culled;
        if (const std::string failure = checkTrace(bvh, trace, ray, tMax); !failure.empty())
            stats.fail(i, name + ": " + str(ray) + " tMax " + str(tMax) + ": " + failure);
    }
    stats.expectMostlyCompared(kCases, true);
    EXPECT_GT(skipped, kCases / 10) << "the rays should skip boxes beyond their hits";
    EXPECT_GT(culled, kCases);
}

} // namespace
