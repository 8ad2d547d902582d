// Tests for geom/explain_epa.hpp: the EPA trace gives penetrationConvexConvex's answer (and its
// GJK part closestPtConvexConvex's) to the bit on thousands of random pairs of every kind pair,
// deep, touching, far from the origin, of size ratio 1e-4 and coincident included, at every
// iteration cap; its iterations are consistent (the expanded face is the nearest, its distance a
// lower bound below the best reach, the polytope grows by the support point, a first
// tetrahedron). Pairs EPA does not run on (apart, within the radii, flat, invalid) have none.
#include "geom/convex_trace_support.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace {

using namespace kz;
using namespace kz::test;

constexpr unsigned kSeed = 3435u;

/// One iteration's polytope: faces on existing vertices, unit normals, the nearest the smallest.
std::string checkPolytope(const EpaTrace& t, const EpaIteration& it) {
    std::ostringstream why;
    if (it.faces.size() < 4 || it.vertexCount > int(t.vertices.size())) why << "polytope size; ";
    if (it.nearest < 0 || it.nearest >= int(it.faces.size())) return why.str() + "nearest out of range; ";
    for (const EpaTraceFace& f : it.faces) {
        for (const int v : f.vertices)
            if (v < 0 || v >= it.vertexCount) why << "face vertex " << v << "; ";
        if (std::abs(glm::length(f.normal) - 1.0) > 1e-9) why << "normal not unit; ";
        if (f.distance < it.faces[std::size_t(it.nearest)].distance)
            why << "a face nearer than the nearest; ";
    }
    return why.str();
}

/// The trace's own consistency; returns "" or what is wrong.
std::string checkEpaTrace(const EpaTrace& t) {
    std::ostringstream why;
    const bool ran = t.status != EpaStatus::Separated && t.status != EpaStatus::WithinRadii &&
                     t.status != EpaStatus::Flat && t.status != EpaStatus::InvalidInput;
    if (!ran) {
        if (!t.iterations.empty() || !t.vertices.empty()) why << "iterations without EPA; ";
        return why.str();
    }
    if (t.iterations.empty() || int(t.iterations.size()) != t.result.iterations) why << "iteration count; ";
    if (!t.iterations.empty() && (t.iterations[0].vertexCount != 4 || t.iterations[0].faces.size() != 4))
        why << "the first polytope is not a tetrahedron; ";
    double upper = INFINITY, lower = -INFINITY;
    for (std::size_t k = 0; k < t.iterations.size() && why.str().empty(); ++k) {
        const EpaIteration& it = t.iterations[k];
        why << checkPolytope(t, it);
        if (!why.str().empty()) break;
        const EpaTraceFace& nearest = it.faces[std::size_t(it.nearest)];
        if (!sameBits(it.lowerBound, nearest.distance)) why << "lower bound is not the nearest face's; ";
        if (!sameBits(it.reach, glm::dot(nearest.normal, it.support.w))) why << "reach; ";
        if (!sameBits(it.support.w, it.support.a - it.support.b)) why << "support w != a - b; ";
        if (!sameBits(it.upperBound, std::min(upper, it.reach))) why << "upper bound is not the best reach; ";
        if (!sameBits(it.gap, it.reach - it.lowerBound)) why << "gap; ";
        // The polytope only grows: the nearest face recedes (up to rounding within the tolerance),
        // and stays below the difference's boundary.
        if (it.lowerBound < lower - t.tolerance) why << "lower bound fell; ";
        if (it.lowerBound > it.upperBound + t.tolerance) why << "lower > upper; ";
        const bool last = k + 1 == t.iterations.size();
        // Every iteration grows the polytope but the one EPA stops on (an iteration cap stops
        // after growing it).
        if (it.expanded != (!last || t.status == EpaStatus::IterationCap))
            why << "expanded " << it.expanded << "; ";
        if (!last) {
            const EpaIteration& next = t.iterations[k + 1];
            if (next.vertexCount != it.vertexCount + 1 ||
                !sameBits(t.vertices[std::size_t(it.vertexCount)].w, it.support.w))
                why << "the support point did not join the polytope; ";
        }
        if (!why.str().empty()) why << "at iteration " << k + 1;
        upper = it.upperBound;
        lower = it.lowerBound;
    }
    if (t.status == EpaStatus::Converged && !(t.iterations.back().gap <= t.tolerance))
        why << "converged with a gap; ";
    if (t.status == EpaStatus::IterationCap && int(t.iterations.size()) != t.maxIterations) why << "cap; ";
    return why.str();
}

TEST(ExplainEpa, AgreesWithPenetrationConvexConvexToTheBitOnEveryPair) {
    const int perPair = convexPairCount(240);
    std::map<EpaStatus, int> statuses;
    int iterations = 0, maxIterations = 0;
    forRandomPairs(perPair, kSeed, [&](const ConvexShape& a, const ConvexShape& b, const std::string& what) {
        const EpaTrace t = explainEpa(a, b);
        EXPECT_TRUE(sameBits(t.result, penetrationConvexConvex(a, b))) << what;
        EXPECT_TRUE(sameBits(t.gjk.result, closestPtConvexConvex(a, b))) << what;
        EXPECT_EQ(t.status, t.result.status) << what;
        EXPECT_EQ(checkEpaTrace(t), "") << what << "\n status " << epaStatusName(t.status);
        ++statuses[t.status];
        iterations += int(t.iterations.size());
        maxIterations = std::max(maxIterations, int(t.iterations.size()));
    });
    for (const auto& [status, count] : statuses)
        std::printf("%-14s %d\n", std::string(epaStatusName(status)).c_str(), count);
    std::printf("%d EPA iterations in all, at most %d in one pair\n", iterations, maxIterations);
    EXPECT_GT(statuses[EpaStatus::Separated], 0);
    EXPECT_GT(statuses[EpaStatus::WithinRadii], 0);
    EXPECT_GT(statuses[EpaStatus::Converged], 0);
}

TEST(ExplainEpa, EveryIterationCapGivesTheCappedAnswerToTheBit) {
    std::mt19937 rng(kSeed + 7u);
    for (int i = 0; i < 300; ++i) {
        const TestShape a = randomShape(rng, Kind(i % 5), 1.0f, randomPoint(rng, 0.3f), i % 4);
        const TestShape b = randomShape(rng, Kind(i / 5 % 5), 1.0f, randomPoint(rng, 0.6f), i / 25 % 4);
        const int full = penetrationConvexConvex(a.shape, b.shape).iterations;
        for (int cap = 1; cap <= full; ++cap) {
            const EpaTrace t = explainEpa(a.shape, b.shape, cap);
            ASSERT_TRUE(sameBits(t.result, penetrationConvexConvex(a.shape, b.shape, cap)))
                << "i " << i << " cap " << cap;
            ASSERT_EQ(t.maxIterations, cap);
            ASSERT_EQ(checkEpaTrace(t), "") << "i " << i << " cap " << cap;
        }
    }
}

TEST(ExplainEpa, OverlappingBoxesGrowAPolytopeToTheirDepth) {
    const Obb a{{0.3f, 0.2f, 0.1f}, {1.0f, 0.7f, 0.5f}, glm::mat3(rotationAbout({1, 2, 3}, 0.7))};
    const Obb b{{0, 0, 0}, {0.8f, 0.9f, 0.6f}, glm::mat3(rotationAbout({-2, 1, 0.5}, 1.1))};
    const EpaTrace t = explainEpa(a, b);
    ASSERT_EQ(t.status, EpaStatus::Converged);
    ASSERT_GT(t.iterations.size(), 2u);
    EXPECT_EQ(checkEpaTrace(t), "");
    EXPECT_EQ(t.gjk.status, GjkStatus::Overlapping);
    // The first vertices are GJK's final simplex (4 points around the origin here).
    ASSERT_EQ(t.gjk.simplex.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i)
        EXPECT_TRUE(sameBits(t.vertices[i].w, t.gjk.simplex[i].w));
    EXPECT_NEAR(double(t.result.depth), t.iterations.back().lowerBound, 1e-6);
    EXPECT_EQ(t.vertices.size(), std::size_t(t.iterations.back().vertexCount));
}

TEST(ExplainEpa, PairsEpaDoesNotRunOnHaveNoIterations) {
    const float nan = std::nanf("");
    struct Case {
        ConvexShape a, b;
        EpaStatus status;
    };
    const Case cases[] = {
        {Sphere{{0, 0, 0}, 1.0f}, Sphere{{3, 0, 0}, 1.0f}, EpaStatus::Separated},
        {Sphere{{0, 0, 0}, 1.0f}, Capsule{{1.5f, -1, 0}, {1.5f, 1, 0}, 1.0f}, EpaStatus::WithinRadii},
        {Sphere{{1, 2, 3}, 0.0f}, Sphere{{1, 2, 3}, 0.0f}, EpaStatus::Flat},
        {Capsule{{-1, 0, 0}, {1, 0, 0}, 0.2f}, Capsule{{0, 0, -1}, {0, 0, 1}, 0.3f}, EpaStatus::Flat},
        {Sphere{{nan, 0, 0}, 1.0f}, Sphere{{0, 0, 0}, 1.0f}, EpaStatus::InvalidInput},
        {Sphere{{0, 0, 0}, 1.0f}, Cylinder{{0, 0, 0}, {0, 0, 0}, 1.0f}, EpaStatus::InvalidInput}};
    for (const Case& c : cases) {
        const EpaTrace t = explainEpa(c.a, c.b);
        EXPECT_EQ(t.status, c.status) << str(c.a) << " " << str(c.b);
        EXPECT_TRUE(t.iterations.empty());
        EXPECT_TRUE(t.vertices.empty());
        EXPECT_TRUE(sameBits(t.result, penetrationConvexConvex(c.a, c.b)));
        if (c.status == EpaStatus::InvalidInput) {
            EXPECT_EQ(t.gjk.status, GjkStatus::InvalidInput);
            EXPECT_TRUE(t.gjk.iterations.empty());
        } else {
            EXPECT_FALSE(t.gjk.iterations.empty());
        }
    }
}

TEST(ExplainEpa, CoincidentBoxesConvergeOnTheirSmallestExtent) {
    const Obb box{{1, 2, 3}, {0.5f, 2.0f, 1.0f}, glm::mat3(1.0f)};
    const EpaTrace t = explainEpa(box, box);
    EXPECT_EQ(t.status, EpaStatus::Converged);
    EXPECT_EQ(checkEpaTrace(t), "");
    EXPECT_TRUE(sameBits(t.result, penetrationConvexConvex(box, box)));
    EXPECT_NEAR(t.iterations.back().lowerBound, 1.0, 1e-6);
}

TEST(ExplainEpa, StatusesHaveDistinctNames) {
    std::set<std::string_view> names;
    for (int s = 0; s <= int(EpaStatus::InvalidInput); ++s)
        names.insert(epaStatusName(EpaStatus(s)));
    EXPECT_EQ(names.size(), 8u);
    EXPECT_EQ(epaStatusName(EpaStatus::PolytopeCap), "polytope_cap");
}

} // namespace
