// Tests for geom/explain_contact.hpp: every trace gives its fast query's answer to the bit on
// 100,000 random cases rich in corner cases (touching, parallel edges, identical boxes, deep
// overlap, far apart, flat and invalid input), its steps agree with an independent double
// computation, and hand-made scenarios land in the step they illustrate.
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/geom_reference.hpp"
#include "support/same_bits.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>
#include <random>
#include <utility>

namespace {

using namespace kz;
using namespace kz::test;

constexpr int kCases = 100000;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
const double kPi = std::numbers::pi;

Obb box(const glm::vec3& centre, const glm::vec3& half, const glm::dmat3& axes = glm::dmat3(1.0)) {
    return {centre, half, glm::mat3(axes)};
}

/// Box pairs, the case index picking the kind: general, identical, all edges parallel, one shared
/// axis, coincident centres, deep overlap, far apart, touching on a face axis, flat, invalid.
std::pair<Obb, Obb> boxPair(std::mt19937& rng, int i) {
    Obb a = randomObb(rng, 1.0f, 0.05f, 1.5f), b = randomObb(rng, 2.5f, 0.05f, 1.5f);
    const int k = (i / 10) % 3;
    switch (i % 10) {
    case 1:
        b = a;
        break;
    case 2:
        a.axes = b.axes = glm::mat3(1.0f);
        break;
    case 3:
        b.axes = a.axes * glm::mat3(rotationAbout({0, 0, 1}, uniform(rng, 0.0f, 3.2f)));
        break;
    case 4:
        b.center = a.center;
        break;
    case 5:
        b.center = a.center + 0.1f * randomPoint(rng, 1.0f);
        break;
    case 6:
        b.center = a.center + randomPoint(rng, 50.0f);
        break;
    case 7:
        b.axes = a.axes, b.center = a.center + a.axes[k] * (a.half[k] + b.half[k]);
        break;
    case 8:
        a.half[k] = 0.0f;
        break;
    case 9:
        if (i % 20 == 9)
            b.half.x = -0.5f;
        else
            a.center.y = kNaN;
        break;
    default:
        break;
    }
    return {a, b};
}

/// The numbers of one non-degenerate axis against a double computation from the unit axis.
void expectAxisNumbers(const SatAxis& x, const Obb& a, const Obb& b, const std::string& label) {
    const glm::dvec3 n(x.axis), toB = glm::dvec3(b.center) - glm::dvec3(a.center);
    ASSERT_NEAR(glm::length(n), 1.0, 1e-5) << label;
    double ra = 0.0, rb = 0.0, halves = 0.0;
    for (int k = 0; k < 3; ++k) {
        ra += a.half[k] * std::abs(glm::dot(glm::dvec3(a.axes[k]), n));
        rb += b.half[k] * std::abs(glm::dot(glm::dvec3(b.axes[k]), n));
        halves += a.half[k] + b.half[k];
    }
    // testObbObb pads every |R_ij| by 1e-6; an edge axis divides that by its length (>= 1e-3).
    const double padding = (x.kind == SatAxisKind::Edge ? 1e-3 : 1e-6) * halves;
    const double tol = padding + 2e-5 * (1.0 + glm::length(toB) + halves);
    EXPECT_NEAR(x.radiusA, ra, tol) << label;
    EXPECT_NEAR(x.radiusB, rb, tol) << label;
    EXPECT_NEAR(x.distance, std::abs(glm::dot(n, toB)), tol) << label;
    EXPECT_NEAR(x.separation, double(x.distance) - x.radiusA - x.radiusB, tol) << label;
    if (std::abs(glm::dot(n, toB)) > tol) {
        EXPECT_GT(glm::dot(n, toB), 0.0) << "axis not toward B, " << label;
    }
}

TEST(ExplainObbObbPropertyTest, AgreesWithTestObbObbAndContactObbObbToTheBit) {
    constexpr unsigned kSeed = 1010u;
    std::mt19937 rng(kSeed);
    int overlaps = 0, edges = 0, degenerate = 0;
    for (int i = 0; i < kCases; ++i) {
        const auto [a, b] = boxPair(rng, i);
        const std::string label = caseLabel(kSeed, i) + " " + str(a) + " " + str(b);
        const ObbObbTrace t = explainObbObb(a, b);
        ASSERT_EQ(t.overlap, testObbObb(a, b)) << label;
        ASSERT_TRUE(sameBits(t.contact, contactObbObb(a, b))) << label;
        ASSERT_EQ(t.valid, isValid(a) && isValid(b)) << label;
        if (!t.valid) continue;
        for (int k = 0; k < 15; ++k) { // the first positive separation is the separating axis
            const SatAxis& x = t.axes[std::size_t(k)];
            if (t.separatingAxis < 0 || k < t.separatingAxis) {
                ASSERT_LE(x.separation, 0.0f) << k << " " << label;
            }
            if (k == t.separatingAxis) {
                ASSERT_GT(x.separation, 0.0f) << label;
            }
            ASSERT_EQ(x.degenerate, x.axis == glm::vec3(0.0f)) << label;
            degenerate += x.degenerate;
            if (!x.degenerate) expectAxisNumbers(x, a, b, label + " axis " + std::to_string(k));
        }
        ASSERT_EQ(t.overlap, t.separatingAxis < 0) << label;
        if (!t.contact) continue;
        ++overlaps;
        // The normal (from B toward A) is the chosen axis (toward B) turned round.
        const SatAxis& chosen = t.axes[std::size_t(t.leastPenetrationAxis)];
        ASSERT_GT(std::abs(glm::dot(chosen.axis, t.contact->normal)), 0.999f) << label;
        const ObbManifoldTrace& m = t.manifold;
        if (m.usedEdge) {
            ++edges;
            ASSERT_EQ(chosen.kind, SatAxisKind::Edge) << label;
            ASSERT_TRUE(sameBits(t.contact->points[0].position, m.edgeClosest->p2)) << label;
        } else if (m.deepestCorner) {
            ASSERT_EQ(m.keptCount, 0) << label;
            ASSERT_EQ(t.contact->count, 1) << label;
        } else {
            ASSERT_EQ(t.contact->count, std::min(m.keptCount, 4)) << label;
            ASSERT_EQ(t.leastPenetrationAxis, 3 * m.referenceBox + m.referenceAxis) << label;
        }
    }
    // The mix must reach every branch it is meant to test.
    EXPECT_GT(overlaps, kCases / 4);
    EXPECT_GT(edges, 100);
    EXPECT_GT(degenerate, kCases / 4);
}

TEST(ExplainObbObb, BoxesApartAlongAFaceAxisOfAAreSeparatedByThatAxis) {
    const ObbObbTrace t = explainObbObb(box({0, 0, 0}, {1, 1, 1}), box({3, 0.5f, 0}, {1, 1, 1}));
    EXPECT_FALSE(t.overlap);
    EXPECT_EQ(t.separatingAxis, 0);
    EXPECT_EQ(t.axes[0].kind, SatAxisKind::FaceA);
    EXPECT_EQ(t.axes[0].axis, glm::vec3(1, 0, 0));
    EXPECT_NEAR(t.axes[0].distance, 3.0f, 1e-6f);
    EXPECT_NEAR(t.axes[0].separation, 1.0f, 1e-5f);
    EXPECT_FALSE(t.contact);
}

TEST(ExplainObbObb, BoxesApartAlongAFaceAxisOfBOnlyAreSeparatedByThatAxis) {
    // A turned 45 degrees about z: on its own diagonal axes the boxes overlap, on B's x they do not.
    const Obb a = box({0, 0, 0}, {1, 1, 1}, rotationAbout({0, 0, 1}, kPi / 4));
    const ObbObbTrace t = explainObbObb(a, box({3, 0, 0}, {1, 1, 1}));
    EXPECT_LT(t.axes[0].separation, 0.0f);
    EXPECT_LT(t.axes[1].separation, 0.0f);
    EXPECT_EQ(t.separatingAxis, 3);
    EXPECT_NEAR(t.axes[3].separation, 3.0f - 1.0f - std::sqrt(2.0f), 1e-5f);
}

/// A turned 45 degrees about z (its edge along z leads toward +x), B turned 45 degrees about y
/// (its edge along y leads toward -x), `gap` apart along x between those edges.
std::pair<Obb, Obb> crossedEdges(float gap) {
    const float reach = std::sqrt(2.0f);
    return {box({0, 0, 0}, {1, 1, 1}, rotationAbout({0, 0, 1}, kPi / 4)),
            box({2 * reach + gap, 0, 0}, {1, 1, 1}, rotationAbout({0, 1, 0}, kPi / 4))};
}

TEST(ExplainObbObb, CrossedEdgesAreSeparatedOnlyByTheirEdgeAxis) {
    const auto [a, b] = crossedEdges(0.1f);
    const ObbObbTrace t = explainObbObb(a, b);
    const int edgeZY = 6 + 3 * 2 + 1; // a_z x b_y
    EXPECT_EQ(t.separatingAxis, edgeZY);
    for (int k = 0; k < 15; ++k)
        if (k != edgeZY) {
            EXPECT_LE(t.axes[std::size_t(k)].separation, 0.0f) << k;
        }
    EXPECT_NEAR(t.axes[edgeZY].separation, 0.1f, 1e-5f);
    EXPECT_NEAR(std::abs(t.axes[edgeZY].axis.x), 1.0f, 1e-6f);
}

TEST(ExplainObbObb, CrossedEdgesPressedTogetherTouchAtTheClosestPointsOfTheEdges) {
    const auto [a, b] = crossedEdges(-0.05f);
    const ObbObbTrace t = explainObbObb(a, b);
    ASSERT_TRUE(t.overlap);
    ASSERT_TRUE(t.contact);
    EXPECT_EQ(t.leastPenetrationAxis, 6 + 3 * 2 + 1);
    EXPECT_TRUE(t.manifold.usedEdge);
    EXPECT_EQ(t.manifold.referenceBox, -1);
    expectVecNear(t.manifold.edgeClosest->p2, {std::sqrt(2.0f) - 0.05f, 0, 0}, 1e-5f);
    expectVecNear(t.contact->normal, {-1, 0, 0}, 1e-5f);
    EXPECT_NEAR(t.contact->depth, 0.05f, 1e-5f);
}

TEST(ExplainObbObb, IdenticalBoxesOverlapOnEveryAxisAndTheirParallelEdgesHaveNoAxis) {
    const Obb a = box({1, 2, 3}, {1, 2, 3});
    const ObbObbTrace t = explainObbObb(a, a);
    EXPECT_TRUE(t.overlap);
    EXPECT_EQ(t.separatingAxis, -1);
    for (int i = 0; i < 3; ++i) {
        EXPECT_TRUE(t.axes[std::size_t(6 + 4 * i)].degenerate) << i; // a_i x b_i
        EXPECT_EQ(t.axes[std::size_t(6 + 4 * i)].axis, glm::vec3(0.0f));
        EXPECT_FALSE(t.axes[std::size_t(6 + 3 * i + (i + 1) % 3)].degenerate); // a_i x b_(i+1): a face axis
    }
    EXPECT_EQ(t.leastPenetrationAxis, 0); // faces of A first on a tie
    ASSERT_TRUE(t.contact);
    EXPECT_NEAR(t.contact->depth, 2.0f, 1e-5f);
}

TEST(ExplainObbObb, TouchingBoxesOverlapWithASeparationOfAlmostZero) {
    const ObbObbTrace t = explainObbObb(box({0, 0, 0}, {1, 1, 1}), box({2, 0, 0}, {1, 1, 1}));
    EXPECT_TRUE(t.overlap);
    EXPECT_LE(t.axes[0].separation, 0.0f);
    EXPECT_GT(t.axes[0].separation, -1e-5f);
    ASSERT_TRUE(t.contact);
    EXPECT_EQ(t.contact->count, 4);
}

TEST(ExplainObbObb, DeepOverlapTakesTheLeastPenetratedFace) {
    const ObbObbTrace t = explainObbObb(box({0, 0, 0}, {2, 1, 1}), box({0, 0.5f, 0}, {1, 1, 1}));
    EXPECT_EQ(t.leastFaceA, 1);
    EXPECT_NEAR(t.axes[1].separation, -1.5f, 1e-5f);
    EXPECT_EQ(t.leastPenetrationAxis, 1);
    EXPECT_EQ(t.manifold.referenceBox, 0);
    expectVecNear(t.manifold.referenceNormal, {0, 1, 0}, 0.0f);
}

TEST(ExplainObbObb, ATurnedBoxOnAFaceIsClippedToAnOctagonAndReducedToFourPoints) {
    const Obb ground = box({0, 0, 0}, {1, 0.5f, 1});
    const Obb top = box({0, 0.9f, 0}, {0.8f, 0.5f, 0.8f}, rotationAbout({0, 1, 0}, kPi / 4));
    const ObbObbTrace t = explainObbObb(ground, top);
    ASSERT_TRUE(t.contact);
    const ObbManifoldTrace& m = t.manifold;
    EXPECT_FALSE(m.triedEdge);
    EXPECT_EQ(t.leastPenetrationAxis, 1); // the ground's top face (A's faces first on a tie)
    EXPECT_EQ(m.referenceBox, 0);
    EXPECT_EQ(m.referenceAxis, 1);
    EXPECT_EQ(m.incidentAxis, 1);
    expectVecNear(m.incidentNormal, {0, -1, 0}, 1e-6f);
    EXPECT_EQ(m.clippedCount, 8); // the turned square cut by the ground's sides
    EXPECT_EQ(m.keptCount, 8);
    for (int i = 0; i < m.keptCount; ++i) {
        EXPECT_NEAR(m.kept[std::size_t(i)].position.y, 0.4f, 1e-6f) << i; // on B's bottom face
        EXPECT_NEAR(m.kept[std::size_t(i)].depth, 0.1f, 1e-6f) << i;
    }
    EXPECT_EQ(t.contact->count, 4);
}

TEST(ExplainObbObb, InvalidBoxesAreNotTracedAndDoNotOverlap) {
    const ObbObbTrace t = explainObbObb(box({0, 0, 0}, {-1, 1, 1}), box({0, 0, 0}, {1, 1, 1}));
    EXPECT_FALSE(t.valid);
    EXPECT_FALSE(t.overlap);
    EXPECT_EQ(t.separatingAxis, -1);
    EXPECT_FALSE(t.contact);
}

TEST(ExplainSphereSpherePropertyTest, AgreesWithContactSphereSphereAndTestSphereSphereToTheBit) {
    constexpr unsigned kSeed = 2727u;
    std::mt19937 rng(kSeed);
    int overlaps = 0, apart = 0;
    for (int i = 0; i < kCases; ++i) {
        const Sphere b{randomPoint(rng, 3.0f), uniform(rng, 0.0f, 1.5f)};
        // Every 50th case shares B's centre (no axis: the fallback normal), every 40th is invalid.
        const glm::vec3 centre = i % 50 == 0 ? b.center : b.center + randomPoint(rng, 2.5f);
        const Sphere a{centre, i % 40 == 0 ? -0.5f : uniform(rng, 0.0f, 1.5f)};
        const std::string label =
            caseLabel(kSeed, i) + " " + str(glm::dvec3(a.center)) + " " + str(glm::dvec3(b.center));
        const SphereSphereTrace t = explainSphereSphere(a, b);
        ASSERT_TRUE(sameBits(t.contact, contactSphereSphere(a, b))) << label;
        ASSERT_EQ(t.valid, isValid(a) && isValid(b)) << label;
        if (!t.valid) continue;
        ASSERT_EQ(t.overlap, testSphereSphere(a, b)) << label;
        ASSERT_EQ(t.overlap, t.contact.has_value()) << label;
        ASSERT_TRUE(sameBits(t.offset, a.center - b.center)) << label;
        ASSERT_NEAR(t.separation, glm::distance(a.center, b.center) - a.radius - b.radius, 1e-5f) << label;
        if (t.contact) {
            ASSERT_NEAR(t.contact->depth, -t.separation, 1e-5f) << label;
        }
        (t.overlap ? overlaps : apart) += 1;
    }
    EXPECT_GT(overlaps, kCases / 10);
    EXPECT_GT(apart, kCases / 10);
}

TEST(ExplainSphereSphere, TheSeparationIsTheCentreDistanceLessBothRadii) {
    const SphereSphereTrace apart = explainSphereSphere({{3, 0, 0}, 1}, {{0, 0, 0}, 0.5f});
    EXPECT_FLOAT_EQ(apart.distance, 3.0f);
    EXPECT_FLOAT_EQ(apart.radiusSum, 1.5f);
    EXPECT_FLOAT_EQ(apart.separation, 1.5f);
    EXPECT_FALSE(apart.overlap);
    const SphereSphereTrace touching = explainSphereSphere({{0, 1.5f, 0}, 1}, {{0, 0, 0}, 0.5f});
    EXPECT_TRUE(touching.overlap) << "touching counts as overlap, as testSphereSphere";
    EXPECT_FLOAT_EQ(touching.separation, 0.0f);
    EXPECT_FALSE(explainSphereSphere({{0, 0, 0}, NAN}, {{0, 0, 0}, 1}).valid);
}

TEST(ExplainObbPlanePropertyTest, AgreesWithContactObbPlaneToTheBit) {
    constexpr unsigned kSeed = 2020u;
    std::mt19937 rng(kSeed);
    for (int i = 0; i < kCases; ++i) {
        const Obb a = randomObb(rng, 2.0f, i % 7 == 0 ? 0.0f : 0.05f, 1.5f);
        Plane p{glm::vec3(randomUnit(rng)) * (i % 3 == 0 ? 3.0f : 1.0f), uniform(rng, -2.0f, 2.0f)};
        if (i % 50 == 0) p.normal = glm::vec3(0.0f); // invalid
        const std::string label = caseLabel(kSeed, i) + " " + str(a);
        const ObbPlaneTrace t = explainObbPlane(a, p);
        ASSERT_TRUE(sameBits(t.contact, contactObbPlane(a, p))) << label;
        ASSERT_EQ(t.valid, isValid(a) && isValid(p)) << label;
        if (!t.valid) continue;
        int touching = 0;
        for (int k = 0; k < 8; ++k) {
            const double ref = refDistPlane(refCorners(a, 0.0)[std::size_t(k)], p);
            ASSERT_NEAR(t.distance[std::size_t(k)], ref, 1e-5 * (1.0 + std::abs(ref))) << k << " " << label;
            touching += t.distance[std::size_t(k)] <= 0.0f;
        }
        ASSERT_EQ(t.touchingCount, touching) << label;
        ASSERT_EQ(t.contact ? t.contact->count : 0, std::min(touching, 4)) << label;
    }
}

TEST(ExplainObbPlane, ABoxTiltedIntoTheFloorTouchesWithItsTwoLowCorners) {
    const Obb a = box({0, 0.6f, 0}, {0.5f, 0.5f, 0.5f}, rotationAbout({0, 0, 1}, kPi / 4));
    const ObbPlaneTrace t = explainObbPlane(a, Plane{{0, 2, 0}, 0});
    expectVecNear(t.normal, {0, 1, 0}, 0.0f);
    EXPECT_EQ(t.touchingCount, 2); // the bottom edge's two corners
    ASSERT_TRUE(t.contact);
    EXPECT_NEAR(t.contact->depth, 0.5f * std::sqrt(2.0f) - 0.6f, 1e-6f);
}

TEST(ExplainSphereObbPropertyTest, AgreesWithContactSphereObbToTheBit) {
    constexpr unsigned kSeed = 3030u;
    std::mt19937 rng(kSeed);
    int regions[4] = {};
    for (int i = 0; i < kCases; ++i) {
        const Obb b = randomObb(rng, 1.0f, i % 9 == 0 ? 0.0f : 0.1f, 1.5f);
        const Sphere a{b.center + randomPoint(rng, i % 4 == 0 ? 1.0f : 3.0f),
                       i % 40 == 0 ? -1.0f
                                   : uniform(rng, i % 5 == 0 ? 0.0f : 0.0f, 2.0f) * float(i % 5 != 0)};
        const std::string label = caseLabel(kSeed, i) + " " + str(glm::dvec3(a.center)) + " " + str(b);
        const SphereObbTrace t = explainSphereObb(a, b);
        ASSERT_TRUE(sameBits(t.contact, contactSphereObb(a, b))) << label;
        ASSERT_EQ(t.valid, isValid(a) && isValid(b)) << label;
        if (!t.valid) continue;
        ASSERT_EQ(t.overlap, t.contact.has_value()) << label;
        const glm::dvec3 local = refLocal(glm::dvec3(a.center), b);
        int outside = 0;
        for (int k = 0; k < 3; ++k) {
            ASSERT_NEAR(t.centreInBox[k], local[k], 1e-5) << label;
            outside += t.excess[k] > 0.0f;
        }
        ASSERT_EQ(int(t.region), outside) << label;
        ++regions[outside];
        if (t.region == BoxRegion::Inside) {
            ASSERT_TRUE(sameBits(t.closest, a.center)) << label;
            ASSERT_GE(t.exitAxis, 0) << label;
        } else {
            ASSERT_TRUE(sameBits(t.closest, closestPtPointObb(a.center, b))) << label;
        }
        // Outside, the contact point is the clamped point itself.
        ASSERT_TRUE(!t.contact || t.exitAxis >= 0 || sameBits(t.contact->points[0].position, t.closest))
            << label;
    }
    for (int k = 0; k < 4; ++k)
        EXPECT_GT(regions[k], kCases / 50) << "region " << k;
}

TEST(ExplainSphereObb, SpheresAroundABoxLandInTheFaceEdgeAndVertexRegions) {
    const Obb b = box({0, 0, 0}, {1, 2, 3});
    EXPECT_EQ(explainSphereObb({{1.5f, 0, 0}, 1}, b).region, BoxRegion::Face);
    EXPECT_EQ(explainSphereObb({{1.5f, 2.5f, 0}, 1}, b).region, BoxRegion::Edge);
    const SphereObbTrace corner = explainSphereObb({{1.5f, 2.5f, 3.5f}, 1}, b);
    EXPECT_EQ(corner.region, BoxRegion::Vertex);
    expectVecNear(corner.closest, {1, 2, 3}, 0.0f);
    EXPECT_NEAR(corner.distance, std::sqrt(0.75f), 1e-6f);
    EXPECT_TRUE(corner.overlap);
}

TEST(ExplainSphereObb, ACentreInsideTheBoxLeavesThroughTheNearestFace) {
    const SphereObbTrace t = explainSphereObb({{0.5f, 1.9f, 0}, 0.25f}, box({0, 0, 0}, {1, 2, 3}));
    EXPECT_EQ(t.region, BoxRegion::Inside);
    EXPECT_EQ(t.exitAxis, 1);
    ASSERT_TRUE(t.contact);
    expectVecNear(t.contact->normal, {0, 1, 0}, 0.0f);
    EXPECT_NEAR(t.contact->depth, 0.35f, 1e-6f);
}

TEST(ExplainSphereTrianglePropertyTest, AgreesWithContactSphereTriangleToTheBit) {
    constexpr unsigned kSeed = 4040u;
    std::mt19937 rng(kSeed);
    for (int i = 0; i < kCases; ++i) {
        const Triangle tri = randomTriangleOfKind(rng, i, 2.0f);
        const Sphere a{randomPoint(rng, 3.0f), i % 30 == 0 ? -0.5f : uniform(rng, 0.0f, 2.0f)};
        const std::string label = caseLabel(kSeed, i) + " " + str(glm::dvec3(a.center));
        const SphereTriangleTrace t = explainSphereTriangle(a, tri);
        ASSERT_TRUE(sameBits(t.contact, contactSphereTriangle(a, tri))) << label;
        ASSERT_EQ(t.valid, isValid(a) && isValid(tri)) << label;
        if (!t.valid) continue;
        ASSERT_TRUE(sameBits(t.closestPoint.closest, closestPtPointTriangle(a.center, tri))) << label;
        ASSERT_EQ(t.overlap, t.contact.has_value()) << label;
        ASSERT_NEAR(t.distance, glm::distance(glm::dvec3(a.center), glm::dvec3(t.closestPoint.closest)),
                    1e-5 * (1.0 + t.distance))
            << label;
    }
}

TEST(ExplainSphereTriangle, ACentreOnTheTriangleIsPushedAlongTheFaceNormal) {
    const Triangle tri{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
    const SphereTriangleTrace t = explainSphereTriangle({{0.5f, 0.5f, 0}, 0.3f}, tri);
    EXPECT_EQ(t.closestPoint.feature, TriangleFeature::Face);
    EXPECT_EQ(t.distance, 0.0f);
    EXPECT_TRUE(t.faceNormal);
    ASSERT_TRUE(t.contact);
    expectVecNear(t.contact->normal, {0, 0, 1}, 0.0f);
}

TEST(ExplainSphereTriangle, ASphereBeyondAnEdgeIsPushedAwayFromThatEdge) {
    const Triangle tri{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
    const SphereTriangleTrace t = explainSphereTriangle({{1, -0.3f, 0.4f}, 0.6f}, tri);
    EXPECT_EQ(t.closestPoint.feature, TriangleFeature::EdgeAB);
    EXPECT_NEAR(t.distance, 0.5f, 1e-6f);
    EXPECT_FALSE(t.faceNormal);
    ASSERT_TRUE(t.contact);
    expectVecNear(t.contact->normal, {0, -0.6f, 0.8f}, 1e-6f);
}

TEST(ExplainObbTrianglePropertyTest, AgreesWithContactAndSeparationObbTriangleToTheBit) {
    constexpr unsigned kSeed = 5050u;
    std::mt19937 rng(kSeed);
    int overlaps = 0;
    for (int i = 0; i < kCases; ++i) {
        const Triangle tri = randomTriangleOfKind(rng, i, 2.0f);
        Obb a = randomObb(rng, 2.0f, i % 11 == 0 ? 0.0f : 0.05f, 1.5f);
        if (i % 13 == 0)
            a.axes = glm::mat3(1.0f), a.center = tri.a + glm::vec3(0, a.half.y, 0); // an edge along
        const std::string label = caseLabel(kSeed, i) + " " + str(a);
        const ObbTriangleTrace t = explainObbTriangle(a, tri);
        ASSERT_TRUE(sameBits(t.contact, contactObbTriangle(a, tri))) << label;
        ASSERT_TRUE(sameBits(t.separation, separationObbTriangle(a, tri))) << label;
        ASSERT_EQ(t.overlap, t.separation <= 0.0f) << label;
        ASSERT_TRUE(t.overlap || !t.contact) << label;
        if (!t.valid) continue;
        overlaps += t.overlap;
        float largest = -INFINITY;
        for (int k = 0; k < 13; ++k) {
            const ObbTriangleAxis& x = t.axes[std::size_t(k)];
            largest = std::max(largest, x.separation);
            if (x.skipped) continue;
            ASSERT_NEAR(glm::length(x.axis), 1.0f, 1e-5f) << label;
            const float scale =
                1.0f + std::max(x.boxRadius, std::abs(x.triangleMin) + std::abs(x.triangleMax));
            ASSERT_NEAR(x.separation, -x.triangleMax - x.boxRadius, 1e-4f * scale) << k << " " << label;
        }
        if (std::isfinite(t.separation)) {
            ASSERT_EQ(largest, t.separation) << label;
        }
        ASSERT_EQ(t.axes[std::size_t(t.largestAxis)].separation, largest) << label;
    }
    EXPECT_GT(overlaps, kCases / 20);
}

TEST(ExplainObbTriangle, ABoxRestingOnABigTriangleTakesTheTriangleNormalAndItsFourCorners) {
    const Triangle tri{{-5, 0, -5}, {5, 0, -5}, {0, 0, 5}};
    const ObbTriangleTrace t = explainObbTriangle(box({0, 0.45f, 0}, {0.5f, 0.5f, 0.5f}), tri);
    EXPECT_TRUE(t.overlap);
    EXPECT_NEAR(t.separation, -0.05f, 1e-6f);
    EXPECT_EQ(t.order[0], ObbTriangleFeature::TriangleFace);
    EXPECT_EQ(t.pointCount[0], 4);
    EXPECT_EQ(t.pointCount[1], -1);
    expectVecNear(t.axes[0].axis, {0, 1, 0}, 1e-6f);
    ASSERT_TRUE(t.contact);
    EXPECT_EQ(t.contact->count, 4);
}

TEST(ExplainObbTriangle, ABoxEdgeAlongATriangleEdgeSkipsThatEdgeAxis) {
    const Triangle tri{{-1, 0, 0}, {1, 0, 0}, {0, 2, 0}}; // edge 0 along x
    const ObbTriangleTrace t = explainObbTriangle(box({0, -0.6f, 0.2f}, {0.5f, 0.5f, 0.5f}), tri);
    EXPECT_TRUE(t.axes[4 + 3 * 0 + 0].skipped); // box x against edge 0
    EXPECT_EQ(t.axes[4].separation, -INFINITY);
    EXPECT_FALSE(t.axes[4 + 3 * 1 + 0].skipped);
    EXPECT_FALSE(t.overlap);
    EXPECT_NEAR(t.separation, 0.1f, 1e-6f);
    EXPECT_EQ(t.largestAxis, 2); // the box's y face
}

} // namespace
