// Tests for geom/explain_convex_hull.hpp: the trace's hull is buildConvexHull's bit for bit, and
// replaying the trace (start from the tetrahedron, remove each iteration's seen faces, add its
// cone) gives exactly the triangles it says quickhull ended with.
#include "geom/explain_convex_hull.hpp"
#include "support/hull_points.hpp"

#include <algorithm>
#include <array>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using kz::ConvexHullTrace;
using kz::HullTraceTriangle;
using namespace kz::test;

/// The triangle turned to start at its smallest index (same triangle, same orientation).
HullTraceTriangle canonical(HullTraceTriangle t) {
    std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    return t;
}

/// The point sets of the hull tests, small enough to trace.
std::vector<std::vector<glm::vec3>> pointSets() {
    std::vector<std::vector<glm::vec3>> sets{boxCorners({1.0f, 2.0f, 3.0f})};
    for (unsigned seed = 1; seed <= 5; ++seed) {
        sets.push_back(cubeCloud(seed, 200, 1.0f));
        sets.push_back(sphereCloud(seed, 300, 2.0));
        sets.push_back(boxWithClutter(seed, {1.0f, 0.5f, 2.0f}));
    }
    for (unsigned seed = 1; seed <= 200; ++seed)
        sets.push_back(randomSet(seed));
    return sets;
}

/// Replays the trace; fails at the first iteration that does not fit the triangles so far.
::testing::AssertionResult replays(const ConvexHullTrace& trace) {
    const auto& t = trace.tetrahedron;
    if (t.size() != 4) return ::testing::AssertionFailure() << "no tetrahedron";
    // Triangles compared by their corner sets (the trace does not say how the tetrahedron's
    // faces were turned outward; the hull's own checks test orientation).
    const auto sortedCorners = [](HullTraceTriangle x) {
        std::sort(x.begin(), x.end());
        return x;
    };
    std::vector<HullTraceTriangle> faces{
        {t[0], t[1], t[2]}, {t[0], t[1], t[3]}, {t[0], t[2], t[3]}, {t[1], t[2], t[3]}};
    std::vector<HullTraceTriangle> unoriented;
    for (const auto& f : faces)
        unoriented.push_back(sortedCorners(f));
    for (std::size_t k = 0; k < trace.iterations.size(); ++k) {
        const auto& it = trace.iterations[k];
        if (it.dropped) continue;
        if (it.horizon.size() < 3 || it.added.size() != it.horizon.size() || it.visible.empty())
            return ::testing::AssertionFailure() << "iteration " << k << ": sizes";
        for (std::size_t e = 0; e < it.horizon.size(); ++e) {
            const auto& edge = it.horizon[e];
            if (edge[1] != it.horizon[(e + 1) % it.horizon.size()][0])
                return ::testing::AssertionFailure() << "iteration " << k << ": horizon not a loop";
            if (it.added[e] != HullTraceTriangle{edge[0], edge[1], it.eye})
                return ::testing::AssertionFailure() << "iteration " << k << ": cone face " << e;
        }
        if (canonical(it.visible[0]) != canonical(it.from))
            return ::testing::AssertionFailure() << "iteration " << k << ": first seen face is not `from`";
        for (const HullTraceTriangle& seen : it.visible) {
            const auto at = std::find(unoriented.begin(), unoriented.end(), sortedCorners(seen));
            if (at == unoriented.end())
                return ::testing::AssertionFailure() << "iteration " << k << ": seen face not on the hull";
            unoriented.erase(at);
        }
        for (const HullTraceTriangle& a : it.added)
            unoriented.push_back(sortedCorners(a));
    }
    std::vector<HullTraceTriangle> final;
    for (const auto& f : trace.triangles)
        final.push_back(sortedCorners(f));
    std::sort(unoriented.begin(), unoriented.end());
    std::sort(final.begin(), final.end());
    if (unoriented != final) return ::testing::AssertionFailure() << "replay ends on other triangles";
    return ::testing::AssertionSuccess();
}

TEST(ExplainConvexHull, TraceHullIsBuildConvexHullsBitForBit) {
    for (const auto& points : pointSets()) {
        const ConvexHullTrace trace = kz::explainConvexHull(points);
        const kz::HullBuild build = kz::buildConvexHull(points);
        ASSERT_EQ(trace.result.hull.has_value(), build.hull.has_value());
        EXPECT_EQ(trace.result.error, build.error);
        if (build.hull) {
            EXPECT_TRUE(sameHull(*trace.result.hull, *build.hull));
        }
    }
}

TEST(ExplainConvexHull, ReplayingTheIterationsGivesTheFinalTriangles) {
    for (const auto& points : pointSets()) {
        const ConvexHullTrace trace = kz::explainConvexHull(points);
        if (!trace.result.hull) continue;
        EXPECT_TRUE(replays(trace));
        ASSERT_EQ(trace.triangleFace.size(), trace.triangles.size());
        std::vector<int> perFace(trace.result.hull->faces.size(), 0);
        for (const std::uint32_t f : trace.triangleFace) {
            ASSERT_LT(f, perFace.size());
            ++perFace[f];
        }
        EXPECT_EQ(std::count(perFace.begin(), perFace.end(), 0), 0) << "a face merged from no triangle";
        for (const auto& it : trace.iterations) {
            EXPECT_GT(it.eyeDistance, trace.result.hull->tolerance / 4.0f);
            EXPECT_EQ(it.eyePoint, points[it.eye]);
        }
    }
}

TEST(ExplainConvexHull, ThinSlabsNeedTheFinalCheckOfTheNearPoints) {
    // Points filed just above one face of a sharp edge, found far above a later face only by the
    // final check: some more than the tolerance out, which the hull would otherwise leave outside.
    int checked = 0, beyondTolerance = 0;
    for (unsigned seed = 1; seed <= 1000; ++seed) {
        const ConvexHullTrace trace = kz::explainConvexHull(thinSlab(seed));
        ASSERT_TRUE(trace.result.hull) << "seed " << seed;
        EXPECT_TRUE(replays(trace)) << "seed " << seed;
        for (const auto& it : trace.iterations) {
            if (it.checkRound == 0) continue;
            ++checked;
            if (it.eyeDistance > trace.result.hull->tolerance) ++beyondTolerance;
        }
    }
    EXPECT_GE(checked, 2);
    EXPECT_GE(beyondTolerance, 1);
}

TEST(ExplainConvexHull, BoxCornersTakeFourIterationsAndMergeTwelveTrianglesIntoSixFaces) {
    const ConvexHullTrace trace = kz::explainConvexHull(boxCorners({1.0f, 2.0f, 3.0f}));
    ASSERT_TRUE(trace.result.hull);
    EXPECT_EQ(trace.iterations.size(), 4u);
    EXPECT_EQ(trace.triangles.size(), 12u);
    std::vector<int> perFace(6, 0);
    for (const std::uint32_t f : trace.triangleFace)
        ++perFace.at(f);
    EXPECT_EQ(perFace, std::vector<int>(6, 2));
}

TEST(ExplainConvexHull, ATetrahedronNeedsNoIteration) {
    const ConvexHullTrace trace =
        kz::explainConvexHull(std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    ASSERT_TRUE(trace.result.hull);
    EXPECT_EQ(trace.tetrahedron.size(), 4u);
    EXPECT_TRUE(trace.iterations.empty());
    EXPECT_EQ(trace.triangles.size(), 4u);
}

TEST(ExplainConvexHull, RefusedInputHasTheBuildersErrorAndNoSteps) {
    const std::vector<glm::vec3> flat{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    const ConvexHullTrace trace = kz::explainConvexHull(flat);
    EXPECT_FALSE(trace.result.hull);
    EXPECT_EQ(trace.result.error, kz::buildConvexHull(flat).error);
    EXPECT_TRUE(trace.tetrahedron.empty());
    EXPECT_TRUE(trace.iterations.empty());
    EXPECT_TRUE(trace.triangles.empty());
}

} // namespace
