// Tests for geom/explain_contact_convex.hpp: the trace's manifold is contactConvexConvex's to the
// bit on random pairs of every kind (resting and tumbling), and its steps tell the story of known
// scenes: a box on a box (two quads, four side planes, four points), a sphere (no face: EPA's
// witness alone), a tilted cylinder whose cap polygon gives no point as deep as EPA's.
#include "geom/geom.hpp"
#include "support/geom_random.hpp"
#include "support/same_bits.hpp"

#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <vector>

namespace {

using namespace kz;
using namespace kz::test;

const glm::mat3 kIdentity(1.0f);
const Obb kFloor{{0.0f, -1.0f, 0.0f}, {5.0f, 1.0f, 5.0f}, kIdentity};

TEST(ExplainContactConvexConvex, BoxOnABoxClipsTwoQuadsToFourPoints) {
    const Obb box{{0.5f, 0.49f, -0.25f}, {0.5f, 0.5f, 0.5f}, kIdentity};
    const ContactConvexTrace t = explainContactConvexConvex(box, kFloor);
    EXPECT_TRUE(sameBits(t.result, contactConvexConvex(box, kFloor)));
    EXPECT_EQ(t.epa.result.status, EpaStatus::Converged);
    EXPECT_EQ(t.faceA.size(), 4u);
    EXPECT_EQ(t.faceB.size(), 4u);
    ASSERT_TRUE(t.hasReference);
    EXPECT_FALSE(t.referenceIsB); // both faces square to the normal: A's, as contactObbObb
    EXPECT_EQ(t.referenceNormal, glm::dvec3(0.0, -1.0, 0.0));
    EXPECT_EQ(t.normal, glm::dvec3(0.0, 1.0, 0.0));
    ASSERT_EQ(t.clips.size(), 4u);
    for (const ContactClipStep& step : t.clips)
        EXPECT_EQ(step.polygon.size(), 4u); // the floor's face cut to the box's, side by side
    EXPECT_EQ(t.kept.size(), 4u);
    EXPECT_FALSE(t.witnessAdded || t.witnessOnly);
}

TEST(ExplainContactConvexConvex, SphereOffersNoFaceSoTheWitnessStands) {
    const Sphere ball{{0.0f, 0.9f, 0.0f}, 1.0f};
    const ContactConvexTrace t = explainContactConvexConvex(ball, kFloor);
    EXPECT_TRUE(sameBits(t.result, contactConvexConvex(ball, kFloor)));
    EXPECT_TRUE(t.faceA.empty());
    EXPECT_EQ(t.faceB.size(), 4u);
    EXPECT_FALSE(t.hasReference);
    EXPECT_TRUE(t.witnessOnly);
    ASSERT_TRUE(t.result);
    EXPECT_EQ(t.result->count, 1);
}

TEST(ExplainContactConvexConvex, ApartOrInvalidGivesNoManifoldAndNoSteps) {
    const Sphere ball{{0.0f, 3.0f, 0.0f}, 1.0f};
    const ContactConvexTrace t = explainContactConvexConvex(ball, kFloor);
    EXPECT_FALSE(t.result);
    EXPECT_EQ(t.epa.result.status, EpaStatus::Separated);
    EXPECT_TRUE(t.faceA.empty() && t.faceB.empty() && t.clips.empty() && t.kept.empty());
    EXPECT_FALSE(explainContactConvexConvex(Sphere{{0.0f, 0.0f, 0.0f}, -1.0f}, kFloor).result);
}

ConvexShape shapeOfKind(std::mt19937& rng, int kind, const glm::mat3& axes, const glm::vec3& at,
                        std::vector<std::shared_ptr<ConvexHull>>& hulls) {
    const float r = uniform(rng, 0.1f, 1.5f), h = uniform(rng, 0.05f, 1.5f);
    switch (kind) {
    case 0:
        return Sphere{at, r};
    case 1:
        return Obb{at, {r, h, uniform(rng, 0.1f, 1.5f)}, axes};
    case 2:
        return capsuleFromPose(at, axes, h, r);
    case 3:
        return cylinderFromPose(at, axes, h, r);
    default: {
        std::vector<glm::vec3> points;
        for (int i = 0; i < 12; ++i)
            points.push_back(glm::vec3(randomUnit(rng)) * uniform(rng, 0.3f, 1.5f));
        auto built = buildConvexHull(points);
        EXPECT_TRUE(built.hull) << built.error;
        hulls.push_back(std::make_shared<ConvexHull>(std::move(*built.hull)));
        return PosedHull{hulls.back().get(), at, axes};
    }
    }
}

TEST(ExplainContactConvexConvex, AgreesBitForBitWithTheFastQuery) {
    std::mt19937 rng(3436u);
    std::vector<std::shared_ptr<ConvexHull>> hulls;
    int overlapping = 0;
    for (int i = 0; i < 3000; ++i) {
        // Half turned alike (faces meet faces), half at random.
        const glm::mat3 turn(randomRotation(rng));
        const glm::mat3 turnA = i % 2 == 0 ? turn : glm::mat3(randomRotation(rng));
        const ConvexShape b = shapeOfKind(rng, (i / 5) % 5, turn, {}, hulls);
        const glm::vec3 at = turn[1] * uniform(rng, 0.5f, 2.5f) + randomPoint(rng, 0.3f);
        const ConvexShape a = shapeOfKind(rng, i % 5, turnA, at, hulls);
        const ContactConvexTrace t = explainContactConvexConvex(a, b);
        const auto fast = contactConvexConvex(a, b);
        ASSERT_TRUE(sameBits(t.result, fast)) << "pair " << i;
        overlapping += fast.has_value();
        if (t.hasReference) {
            EXPECT_EQ(t.kept.empty(), t.witnessOnly) << "pair " << i;
        }
    }
    EXPECT_GT(overlapping, 1000);
}

} // namespace
