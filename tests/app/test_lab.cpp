// The query lab without a window (src/app/lab_scene.hpp, lab_query.hpp, lab_draw.hpp): the query
// names, every query's start scene (interesting: rays hit, pairs are close but apart), the verdict
// following the shapes, the numbers, the drawn world's tints and each query's construction lines.
#include "app/lab_draw.hpp"
#include "app/lab_query.hpp"
#include "app/lab_scene.hpp"
#include "geom/overlap.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

namespace {

using kz::LabQuery;
using kz::LabResult;
using kz::LabScene;

std::vector<LabQuery> allQueries() {
    std::vector<LabQuery> out;
    for (int i = 0; i < kz::kLabQueryCount; ++i)
        out.push_back(static_cast<LabQuery>(i));
    return out;
}

bool isRay(LabQuery q) {
    return q == LabQuery::RaySphere || q == LabQuery::RayBox || q == LabQuery::RayPlane ||
           q == LabQuery::RayTriangle || q == LabQuery::RayMesh;
}

/// The colour a body of the lab's world was drawn with, unpacked.
glm::vec3 colorOf(std::uint32_t rgb) {
    return glm::vec3(float((rgb >> 16) & 0xffu), float((rgb >> 8) & 0xffu), float(rgb & 0xffu)) / 255.0f;
}

TEST(LabQueries, EveryNameReadsBackAndAnUnknownOneDoesNot) {
    for (LabQuery q : allQueries()) {
        const auto parsed = kz::parseLabQuery(kz::labQueryName(q));
        ASSERT_TRUE(parsed) << kz::labQueryName(q);
        EXPECT_EQ(*parsed, q);
        EXPECT_NE(std::string(kz::labQueryInfo(q).idea), "");
        EXPECT_NE(kz::labQueryNames().find(kz::labQueryName(q)), std::string::npos);
    }
    EXPECT_FALSE(kz::parseLabQuery("box-boxx"));
    EXPECT_FALSE(kz::parseLabQuery(""));
    EXPECT_EQ(kz::labQueryNames().substr(0, 22), "ray-sphere, ray-box, r");
}

TEST(LabScenes, EveryQueryStartsInterestingRaysHitPairsAreCloseButApart) {
    for (LabQuery q : allQueries()) {
        const LabScene scene = kz::makeLabScene(q);
        const LabResult result = kz::runLabQuery(scene);
        const std::string name = kz::labQueryName(q);
        if (isRay(q) || q == LabQuery::SweepSphereTriangle) {
            EXPECT_TRUE(result.isHit) << name;
            EXPECT_TRUE(result.positive)
                << name << ": the ray (or the sphere) should meet its shape at the start";
            ASSERT_TRUE(result.number("t")) << name;
            EXPECT_GT(*result.number("t"), 0.1f) << name;
            EXPECT_LT(*result.number("t"), 0.9f) << name;
            EXPECT_TRUE(result.rayHit) << name;
        } else {
            EXPECT_FALSE(result.isHit) << name;
            EXPECT_FALSE(result.positive) << name << ": the pair should start apart";
            const auto gap =
                result.number("distance") ? result.number("distance") : result.number("separation");
            ASSERT_TRUE(gap) << name;
            EXPECT_GT(*gap, 0.02f) << name;
            EXPECT_LT(*gap, 0.6f) << name << ": close enough for a short drag";
        }
    }
}

TEST(LabScenes, TheRayMeshStartsThroughTheTubeAndThroughTheHoleItMisses) {
    LabScene scene = kz::makeLabScene(LabQuery::RayMesh);
    const LabResult tube = kz::runLabQuery(scene);
    ASSERT_TRUE(tube.positive && tube.meshTriangle);
    // Both ends moved to pass through the ring's centre, along its axis: through the hole.
    const glm::vec3 axis = scene.shapes[0].orientation * glm::vec3(0, 1, 0);
    scene.handles[0].position = scene.shapes[0].position - 2.0f * axis;
    scene.handles[1].position = scene.shapes[0].position + 2.0f * axis;
    EXPECT_FALSE(kz::runLabQuery(scene).positive);
}

TEST(LabQueries, BoxADraggedIntoBoxBOverlapsWithAManifoldAndTheFastTestAgrees) {
    LabScene scene = kz::makeLabScene(LabQuery::BoxBox);
    ASSERT_FALSE(kz::runLabQuery(scene).positive);
    kz::moveLabItem(scene, {false, 0}, scene.shapes[1].position + glm::vec3(-0.7f, 0.1f, 0.0f));
    const LabResult result = kz::runLabQuery(scene);
    EXPECT_TRUE(result.positive);
    EXPECT_TRUE(kz::testObbObb(kz::labObb(scene.shapes[0]), kz::labObb(scene.shapes[1])));
    ASSERT_TRUE(result.manifold);
    EXPECT_GT(result.manifold->count, 0);
    ASSERT_TRUE(result.number("depth"));
    EXPECT_GT(*result.number("depth"), 0.0f);
    EXPECT_FALSE(result.number("separation"));
}

TEST(LabQueries, ApartPairsGiveTheirClosestPointsAtTheReportedDistance) {
    for (LabQuery q : {LabQuery::SphereSphere, LabQuery::SphereBox, LabQuery::BoxPlane,
                       LabQuery::SphereTriangle, LabQuery::SegmentSegment}) {
        const LabResult result = kz::runLabQuery(kz::makeLabScene(q));
        ASSERT_TRUE(result.closest) << kz::labQueryName(q);
        ASSERT_TRUE(result.number("distance")) << kz::labQueryName(q);
        EXPECT_NEAR(glm::distance(result.closest->first, result.closest->second), *result.number("distance"),
                    1e-5f)
            << kz::labQueryName(q);
    }
}

TEST(LabQueries, TheRayEndsAtItsEndHandleAndTheSweepAtItsEnd) {
    LabScene ray = kz::makeLabScene(LabQuery::RaySphere);
    // The end pulled back before the sphere: tMax = 1 stops the ray there.
    ray.handles[1].position =
        ray.handles[0].position + 0.1f * (ray.handles[1].position - ray.handles[0].position);
    EXPECT_FALSE(kz::runLabQuery(ray).positive);
    EXPECT_TRUE(kz::runLabQuery(ray).numbers.empty());

    LabScene sweep = kz::makeLabScene(LabQuery::SweepSphereTriangle);
    const glm::vec3 start = sweep.shapes[0].position;
    const LabResult hit = kz::runLabQuery(sweep);
    ASSERT_TRUE(hit.impactCentre);
    // The impact centre lies on the path at t, one radius from the triangle.
    const glm::vec3 path = sweep.handles[0].position - start;
    EXPECT_NEAR(glm::distance(*hit.impactCentre, start + *hit.number("t") * path), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::distance(*hit.impactCentre, hit.rayHit->point), sweep.shapes[0].radius, 1e-4f);
}

TEST(LabQueries, TouchingSegmentsOverlapAndADegenerateSceneGivesNoNumberThatIsNotFinite) {
    LabScene scene = kz::makeLabScene(LabQuery::SegmentSegment);
    const LabResult apart = kz::runLabQuery(scene);
    // B's first end moved onto A's closest point: they touch.
    scene.handles[2].position = apart.closest->first;
    EXPECT_TRUE(kz::runLabQuery(scene).positive);

    LabScene ray = kz::makeLabScene(LabQuery::RayBox);
    ray.handles[1].position = ray.handles[0].position; // a zero-length ray
    const LabResult none = kz::runLabQuery(ray);
    EXPECT_FALSE(none.positive);
    for (const kz::LabNumber& n : none.numbers)
        EXPECT_TRUE(std::isfinite(n.value)) << n.key;
}

TEST(LabWorld, ShapesAreTintedRedWhenTheyOverlapAndGreenWhenApartHandlesAreBalls) {
    LabScene scene = kz::makeLabScene(LabQuery::BoxBox);
    std::vector<int> shapeBodies, handleBodies;
    const kz::World apart = kz::labWorld(scene, kz::runLabQuery(scene), &shapeBodies, &handleBodies);
    ASSERT_EQ(shapeBodies.size(), 2u);
    const glm::vec3 green = colorOf(apart.bodies()[std::size_t(shapeBodies[0])].color);
    EXPECT_GT(green.g, green.r + 0.2f);
    kz::moveLabItem(scene, {false, 0}, scene.shapes[1].position);
    const kz::World overlapping = kz::labWorld(scene, kz::runLabQuery(scene), &shapeBodies);
    for (int body : shapeBodies) {
        const glm::vec3 red = colorOf(overlapping.bodies()[std::size_t(body)].color);
        EXPECT_GT(red.r, red.g + 0.3f);
    }
    EXPECT_TRUE(overlapping.paused());

    const LabScene ray = kz::makeLabScene(LabQuery::RayTriangle);
    std::vector<int> shapeObstacles;
    const kz::World withTriangle =
        kz::labWorld(ray, kz::runLabQuery(ray), &shapeBodies, &handleBodies, &shapeObstacles);
    EXPECT_EQ(withTriangle.obstacles().size(), 1u);
    EXPECT_EQ(shapeBodies, std::vector<int>{-1});
    EXPECT_EQ(shapeObstacles, std::vector<int>{0});
    ASSERT_EQ(handleBodies.size(), 2u);
    EXPECT_FLOAT_EQ(withTriangle.bodies()[std::size_t(handleBodies[1])].radius, kz::kLabHandleRadius);
}

/// Whether a segment of `lines` passes within `tolerance` of p.
bool drawsNear(const std::vector<kz::LabVertex>& lines, const glm::vec3& p, float tolerance = 1e-4f) {
    for (std::size_t i = 0; i + 1 < lines.size(); i += 2) {
        const glm::vec3 a = lines[i].position, b = lines[i + 1].position;
        const float s =
            glm::clamp(glm::dot(p - a, b - a) / std::max(glm::dot(b - a, b - a), 1e-12f), 0.0f, 1.0f);
        if (glm::distance(a + s * (b - a), p) <= tolerance) return true;
    }
    return false;
}

TEST(LabConstruction, EachQueryDrawsItsAnswerTheHitContactsClosestPointsAndTheImpactSphere) {
    kz::LabCanvas canvas;
    canvas.eye = kz::kLabEye;
    for (LabQuery q : allQueries()) {
        const LabScene scene = kz::makeLabScene(q);
        const LabResult result = kz::runLabQuery(scene);
        canvas.clear();
        kz::drawLabConstruction(scene, result, canvas);
        const std::string name = kz::labQueryName(q);
        // Boxes apart have only their separation to show (a number, no point).
        const bool onlyANumber = !result.positive && result.number("separation").has_value();
        EXPECT_EQ(canvas.lines.empty() && canvas.topLines.empty(), onlyANumber) << name;
        if (result.rayHit) {
            EXPECT_TRUE(drawsNear(canvas.topLines, result.rayHit->point)) << name;
        }
        if (result.closest) {
            EXPECT_TRUE(drawsNear(canvas.topLines, result.closest->first)) << name;
        }
        for (const kz::LabHandle& handle : scene.handles) {
            // Each handle's ring over everything: seen and grabbable behind a shape.
            const bool ringed =
                std::any_of(canvas.topLines.begin(), canvas.topLines.end(), [&](const kz::LabVertex& v) {
                    return std::abs(glm::distance(v.position, handle.position) -
                                    1.6f * kz::kLabHandleRadius) < 1e-4f;
                });
            EXPECT_TRUE(ringed) << name << " " << handle.name;
        }
        if (result.impactCentre) {
            // A great circle of the sphere at its time of impact passes one radius from its centre.
            EXPECT_TRUE(drawsNear(canvas.lines,
                                  *result.impactCentre + glm::vec3(scene.shapes[0].radius, 0, 0), 1e-3f))
                << name;
        }
    }
    LabScene boxes = kz::makeLabScene(LabQuery::BoxBox);
    kz::moveLabItem(boxes, {false, 0}, boxes.shapes[1].position + glm::vec3(-0.7f, 0.1f, 0.0f));
    const LabResult overlap = kz::runLabQuery(boxes);
    canvas.clear();
    kz::drawLabConstruction(boxes, overlap, canvas);
    for (int i = 0; i < overlap.manifold->count; ++i)
        EXPECT_TRUE(drawsNear(canvas.topLines, overlap.manifold->points[std::size_t(i)].position));
}

} // namespace
