// Tests for geom/explain_closest.hpp: the point-triangle and line-piece traces give their fast
// query's answer to the bit on 100,000 random cases rich in corner cases, their steps agree with
// the answer, and hand-made scenarios land in the region or clamp they illustrate.
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/same_bits.hpp"

#include <array>
#include <cfloat>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace {

using namespace kz;
using namespace kz::test;

constexpr int kCases = 100000;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

const glm::vec3& vertex(const Triangle& t, int k) {
    return k == 0 ? t.a : k == 1 ? t.b : t.c;
}

/// The caller's vertices a feature is made of, as a bit set (bit k: vertex k).
int vertexSet(TriangleFeature f) {
    switch (f) {
    case TriangleFeature::VertexA:
        return 1;
    case TriangleFeature::VertexB:
        return 2;
    case TriangleFeature::VertexC:
        return 4;
    case TriangleFeature::EdgeAB:
        return 3;
    case TriangleFeature::EdgeBC:
        return 6;
    case TriangleFeature::EdgeCA:
        return 5;
    case TriangleFeature::Face:
        return 7;
    }
    return 0;
}

TEST(ExplainClosestPtPointTrianglePropertyTest, AgreesWithClosestPtPointTriangleForEveryVertexOrder) {
    constexpr unsigned kSeed = 6060u;
    constexpr int kOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    std::mt19937 rng(kSeed);
    int features[7] = {}, slivers = 0;
    for (int i = 0; i < kCases; ++i) {
        const Triangle tri = randomTriangleOfKind(rng, i, 2.0f);
        const glm::vec3 p = randomPoint(rng, 4.0f);
        const std::string label = caseLabel(kSeed, i) + " p " + str(glm::dvec3(p)) + " " +
                                  str(glm::dvec3(tri.a)) + str(glm::dvec3(tri.b)) + str(glm::dvec3(tri.c));
        const PointTriangleTrace t = explainClosestPtPointTriangle(p, tri);
        ASSERT_TRUE(sameBits(t.closest, closestPtPointTriangle(p, tri))) << label;
        if (!isFinite(tri.b)) continue; // a NaN corner: the same bits, and no feature to check
        ++features[int(t.feature)];
        slivers += t.sliver;
        const int set = vertexSet(t.feature);
        if (set == 1 || set == 2 || set == 4) {
            ASSERT_TRUE(sameBits(t.closest, vertex(tri, set == 1 ? 0 : set == 2 ? 1 : 2))) << label;
        } else if (set != 7) {
            // An edge: its closest point is that far along the edge, named from its first vertex.
            const int from = set == 3 ? 0 : set == 6 ? 1 : 2, to = (from + 1) % 3;
            ASSERT_GE(t.edgeFraction, 0.0) << label;
            ASSERT_LE(t.edgeFraction, 1.0) << label;
            const glm::dvec3 a(vertex(tri, from)), b(vertex(tri, to));
            ASSERT_LE(glm::distance(a + t.edgeFraction * (b - a), glm::dvec3(t.closest)),
                      1e-6 * (1.0 + glm::length(b - a)))
                << label;
        } else {
            ASSERT_FALSE(t.sliver) << label;
        }
        // Every vertex order computes the same thing: the same d's, the same vertices, the same feature.
        for (const auto& order : kOrders) {
            const Triangle turned{vertex(tri, order[0]), vertex(tri, order[1]), vertex(tri, order[2])};
            const PointTriangleTrace u = explainClosestPtPointTriangle(p, turned);
            ASSERT_TRUE(sameBits(u.closest, t.closest)) << label;
            ASSERT_EQ(u.dComputed, t.dComputed) << label;
            for (int k = 0; k < 6; ++k)
                ASSERT_EQ(u.d[std::size_t(k)], t.d[std::size_t(k)]) << label;
            int turnedSet = 0;
            for (int k = 0; k < 3; ++k) {
                ASSERT_TRUE(
                    sameBits(vertex(turned, u.order[std::size_t(k)]), vertex(tri, t.order[std::size_t(k)])))
                    << label;
                if (vertexSet(u.feature) & (1 << k)) turnedSet |= 1 << order[k];
            }
            if (tri.a != tri.b && tri.b != tri.c && tri.a != tri.c) {
                ASSERT_EQ(turnedSet, set) << label;
            }
        }
    }
    for (int k = 0; k < 7; ++k)
        EXPECT_GT(features[k], kCases / 100) << "feature " << k;
    EXPECT_GT(slivers, kCases / 20);
}

const Triangle kTriangle{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};

TEST(ExplainClosestPtPointTriangle, PointNearVertexBLandsInVertexBRegion) {
    // Given as (c, b, a): b keeps its name though the query calls it C (the vertices sorted by
    // x, then y), so it tests A's and B's regions first.
    const Triangle given{kTriangle.c, kTriangle.b, kTriangle.a};
    const PointTriangleTrace t = explainClosestPtPointTriangle({5, -1, 0.5f}, given);
    EXPECT_EQ(t.feature, TriangleFeature::VertexB);
    EXPECT_EQ(t.closest, kTriangle.b);
    EXPECT_EQ(t.order, (std::array<int, 3>{2, 0, 1}));
    EXPECT_EQ(t.dComputed, 6);
}

TEST(ExplainClosestPtPointTriangle, PointBesideEdgeCALandsOnEdgeCAMeasuredFromC) {
    const PointTriangleTrace t = explainClosestPtPointTriangle({-1, 1, 0}, kTriangle);
    EXPECT_EQ(t.feature, TriangleFeature::EdgeCA);
    EXPECT_DOUBLE_EQ(t.edgeFraction, 0.75); // from c (0, 4) to a (0, 0)
    EXPECT_EQ(t.closest, glm::vec3(0, 1, 0));
    EXPECT_EQ(t.dComputed, 6);
}

TEST(ExplainClosestPtPointTriangle, PointAboveTheTriangleProjectsOntoTheFace) {
    const PointTriangleTrace t = explainClosestPtPointTriangle({1, 1, 3}, kTriangle);
    EXPECT_EQ(t.feature, TriangleFeature::Face);
    EXPECT_DOUBLE_EQ(t.faceScale, -3.0 / 16.0); // n = (0, 4, 0) x (4, 0, 0) in the canonical order
    EXPECT_EQ(t.closest, glm::vec3(1, 1, 0));
}

TEST(ExplainClosestPtPointTriangle, ASliverTakesTheClosestOfItsEdges) {
    const Triangle sliver{{0, 0, 0}, {2, 0, 0}, {4, 1e-7f, 0}};
    const PointTriangleTrace t = explainClosestPtPointTriangle({1, -1, 0}, sliver);
    EXPECT_TRUE(t.sliver);
    EXPECT_EQ(t.feature, TriangleFeature::EdgeAB);
    EXPECT_NEAR(t.edgeFraction, 0.5, 1e-6);
}

// ------------------------------------------------------------------ line pieces

/// Two pieces, the case index picking the kind: segments, parallel segments, collinear ones, a
/// zero-length first, second or both, a ray and a line, touching ends, invalid ones.
std::pair<LinePiece, LinePiece> randomPieces(std::mt19937& rng, int i) {
    const glm::vec3 p = randomPoint(rng, 2.0f), q = randomPoint(rng, 2.0f);
    const glm::vec3 r = randomPoint(rng, 2.0f), u = randomPoint(rng, 2.0f);
    LinePiece first = asSegment(p, q), second = asSegment(r, u);
    switch (i % 12) {
    case 1:
        second = asSegment(r, r + 0.7f * (q - p));
        break;
    case 2:
        second = asSegment(p + 1.5f * (q - p), p + 0.5f * (q - p));
        break;
    case 3:
        first = asSegment(p, p);
        break;
    case 4:
        second = asSegment(r, r);
        break;
    case 5:
        first = asSegment(p, p), second = asSegment(r, r);
        break;
    case 6:
        first = asRay({p, q - p}), second = asLine(r, u - r);
        break;
    case 7:
        second = asSegment(q, u);
        break;
    case 8:
        if (i % 24 == 8)
            first.hi = -1.0f;
        else
            second.origin.x = kNaN;
        break;
    default:
        break;
    }
    return {first, second};
}

TEST(ExplainClosestPtLinePiecesPropertyTest, AgreesWithClosestPtLinePiecesToTheBit) {
    constexpr unsigned kSeed = 7070u;
    std::mt19937 rng(kSeed);
    int kinds[5] = {}, clampedT = 0;
    for (int i = 0; i < kCases; ++i) {
        const auto [first, second] = randomPieces(rng, i);
        const std::string label = caseLabel(kSeed, i);
        const LinePiecesTrace t = explainClosestPtLinePieces(first, second);
        ASSERT_TRUE(sameBits(t.result, closestPtLinePieces(first, second))) << label;
        if (!t.valid) {
            ASSERT_FALSE(t.result) << label;
            continue;
        }
        ++kinds[int(t.kind)];
        ASSERT_EQ(t.kind == LinePiecesCase::TwoPoints, t.a < FLT_MIN && t.e < FLT_MIN) << label;
        ASSERT_TRUE(sameBits(t.sFirst, std::clamp(t.sUnclamped, first.lo, first.hi))) << label;
        ASSERT_EQ(t.sClamped, t.sUnclamped < first.lo || t.sUnclamped > first.hi) << label;
        if (!t.result) continue;
        const bool general = t.kind == LinePiecesCase::Parallel || t.kind == LinePiecesCase::Skew;
        ASSERT_EQ(t.result->parallel, t.kind != LinePiecesCase::Skew) << label;
        ASSERT_TRUE(sameBits(t.tFinal, std::clamp(t.tUnclamped, second.lo, second.hi))) << label;
        ASSERT_TRUE(sameBits(t.result->t, t.tFinal)) << label;
        if (general && t.tClamped) {
            ++clampedT;
            ASSERT_TRUE(sameBits(t.sAgain, std::clamp(t.sAgainUnclamped, first.lo, first.hi))) << label;
            ASSERT_TRUE(sameBits(t.result->s, t.sAgain)) << label;
        } else {
            ASSERT_TRUE(sameBits(t.result->s, t.sFirst)) << label;
        }
    }
    for (int k = 0; k < 5; ++k)
        EXPECT_GT(kinds[k], kCases / 50) << "case " << k;
    EXPECT_GT(clampedT, kCases / 10);
}

TEST(ExplainClosestPtLinePieces, CrossingSegmentsNeedNoClamp) {
    const LinePiecesTrace t =
        explainClosestPtLinePieces(asSegment({-1, 0, 0}, {1, 0, 0}), asSegment({0, -1, 1}, {0, 1, 1}));
    EXPECT_EQ(t.kind, LinePiecesCase::Skew);
    EXPECT_FLOAT_EQ(t.sUnclamped, 0.5f);
    EXPECT_FALSE(t.sClamped);
    EXPECT_FLOAT_EQ(t.tUnclamped, 0.5f);
    EXPECT_FALSE(t.tClamped);
    ASSERT_TRUE(t.result);
    EXPECT_FLOAT_EQ(t.result->sqDist, 1.0f);
}

TEST(ExplainClosestPtLinePieces, LinesMeetingBeyondTheSecondEndClampTAndRecomputeS) {
    // The second segment stops at y = -1 short of the first's line: t clamps to 1, s follows it.
    const LinePiecesTrace t =
        explainClosestPtLinePieces(asSegment({-1, 0, 0}, {1, 0, 0}), asSegment({0.5f, -3, 0}, {0.5f, -1, 0}));
    EXPECT_FLOAT_EQ(t.sUnclamped, 0.75f);
    EXPECT_FALSE(t.sClamped);
    EXPECT_FLOAT_EQ(t.tUnclamped, 1.5f);
    EXPECT_TRUE(t.tClamped);
    EXPECT_FLOAT_EQ(t.sAgainUnclamped, 0.75f);
    ASSERT_TRUE(t.result);
    EXPECT_FLOAT_EQ(t.result->t, 1.0f);
}

TEST(ExplainClosestPtLinePieces, LinesMeetingBeyondBothEndsClampSThenT) {
    const LinePiecesTrace t =
        explainClosestPtLinePieces(asSegment({0, 0, 0}, {1, 0, 0}), asSegment({3, -3, 1}, {3, -2, 1}));
    EXPECT_FLOAT_EQ(t.sUnclamped, 3.0f);
    EXPECT_TRUE(t.sClamped);
    EXPECT_FLOAT_EQ(t.sFirst, 1.0f);
    EXPECT_TRUE(t.tClamped); // its line meets at t = 3, beyond the end
    ASSERT_TRUE(t.result);
    EXPECT_FLOAT_EQ(t.result->s, 1.0f);
    EXPECT_FLOAT_EQ(t.result->t, 1.0f);
}

TEST(ExplainClosestPtLinePieces, ParallelSegmentsStartAtSZero) {
    const LinePiecesTrace t =
        explainClosestPtLinePieces(asSegment({0, 0, 0}, {2, 0, 0}), asSegment({1, 1, 0}, {3, 1, 0}));
    EXPECT_EQ(t.kind, LinePiecesCase::Parallel);
    EXPECT_EQ(t.denom, 0.0f);
    EXPECT_EQ(t.sUnclamped, 0.0f);
    EXPECT_FLOAT_EQ(t.tUnclamped, -0.5f);
    EXPECT_TRUE(t.tClamped);
    ASSERT_TRUE(t.result);
    EXPECT_TRUE(t.result->parallel);
    EXPECT_FLOAT_EQ(t.result->s, 0.5f);
}

TEST(ExplainClosestPtLinePieces, AZeroLengthFirstSegmentIsAPoint) {
    const LinePiecesTrace t =
        explainClosestPtLinePieces(asSegment({1, 1, 0}, {1, 1, 0}), asSegment({0, 0, 0}, {4, 0, 0}));
    EXPECT_EQ(t.kind, LinePiecesCase::FirstIsPoint);
    EXPECT_FLOAT_EQ(t.tUnclamped, 0.25f);
    ASSERT_TRUE(t.result);
    EXPECT_EQ(t.result->p2, glm::vec3(1, 0, 0));
}

TEST(ExplainClosestPtLinePieces, AnEmptyRangeIsNotTraced) {
    LinePiece first = asSegment({0, 0, 0}, {1, 0, 0});
    first.lo = 2.0f;
    const LinePiecesTrace t = explainClosestPtLinePieces(first, asSegment({0, 1, 0}, {1, 1, 0}));
    EXPECT_FALSE(t.valid);
    EXPECT_FALSE(t.result);
}

} // namespace
