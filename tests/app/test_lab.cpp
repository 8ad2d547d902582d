// The query lab without a window (src/app/lab: scene.hpp, query.hpp, draw.hpp): the query
// names, every query's start scene (interesting: rays hit, pairs are close but apart), the verdict
// following the shapes, the numbers, the drawn world's tints and each query's construction lines
// and surfaces.
#include "app/lab/draw.hpp"
#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/query.hpp"
#include "app/lab/scene.hpp"
#include "geom/gjk.hpp"
#include "geom/overlap.hpp"
#include "geom/shape_cast.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

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
           q == LabQuery::RayTriangle || q == LabQuery::RayMesh || q == LabQuery::RayConvex;
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
        if (isRay(q) || q == LabQuery::SweepSphereTriangle || q == LabQuery::ShapeCast) {
            EXPECT_TRUE(result.isHit) << name;
            EXPECT_TRUE(result.positive)
                << name << ": the ray (or the sphere) should meet its shape at the start";
            ASSERT_TRUE(result.number("t")) << name;
            EXPECT_GT(*result.number("t"), 0.1f) << name;
            EXPECT_LT(*result.number("t"), 0.9f) << name;
            EXPECT_TRUE(result.rayHit) << name;
        } else if (q == LabQuery::Epa || q == LabQuery::ConvexConvex) {
            // EPA and the manifold answer for overlapping shapes: their pairs start a little into
            // each other.
            EXPECT_TRUE(result.positive) << name << ": the pair should start overlapping";
            ASSERT_TRUE(result.number("depth")) << name;
            EXPECT_GT(*result.number("depth"), 0.02f) << name;
            EXPECT_LT(*result.number("depth"), 0.6f) << name << ": a short drag pulls them apart";
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
        // Every query draws something: pairs apart without closest points (boxes, a box and a
        // triangle) draw their separating axis (LabConstruction.BoxBox... below).
        EXPECT_FALSE(canvas.lines.empty() && canvas.topLines.empty()) << name;
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
            // The path ends (its part before the impact) at the centre at the time of impact.
            EXPECT_TRUE(drawsNear(canvas.lines, *result.impactCentre, 1e-4f)) << name;
        }
        if (result.impactCentre && q == LabQuery::SweepSphereTriangle) {
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

/// The segments of `color` in lines and topLines.
std::vector<std::pair<glm::vec3, glm::vec3>> segmentsOf(const kz::LabCanvas& canvas, const glm::vec3& color) {
    std::vector<std::pair<glm::vec3, glm::vec3>> out;
    for (const auto* list : {&canvas.lines, &canvas.topLines}) {
        for (std::size_t i = 0; i + 1 < list->size(); i += 2) {
            if ((*list)[i].color == color) out.emplace_back((*list)[i].position, (*list)[i + 1].position);
        }
    }
    return out;
}

bool parallel(const glm::vec3& a, const glm::vec3& b) {
    return glm::length(glm::cross(glm::normalize(a), glm::normalize(b))) < 1e-3f;
}

/// Whether some segment of `color` runs along `axis` with length `length`.
bool barAlong(const kz::LabCanvas& canvas, const glm::vec3& color, const glm::vec3& axis, float length) {
    for (const auto& [a, b] : segmentsOf(canvas, color)) {
        if (parallel(b - a, axis) && std::abs(glm::distance(a, b) - length) < 1e-4f) return true;
    }
    return false;
}

TEST(LabConstruction, BoxBoxDrawsTheChosenAxisWithBothProjectedIntervalsAsBarsOfTheirLength) {
    const LabScene scene = kz::makeLabScene(LabQuery::BoxBox);
    const LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.boxBox && result.trace.boxBox->valid);
    const kz::ObbObbTrace& trace = *result.trace.boxBox;
    ASSERT_GE(trace.separatingAxis, 0) << "the start scene is apart";
    EXPECT_EQ(kz::labSatAxis(trace, {}), trace.separatingAxis);
    kz::LabCanvas canvas;
    canvas.eye = kz::kLabEye;
    kz::drawLabConstruction(scene, result, canvas);
    const kz::SatAxis& separating = trace.axes[std::size_t(trace.separatingAxis)];
    ASSERT_FALSE(segmentsOf(canvas, kz::kLabSatAxisColor).empty());
    EXPECT_TRUE(parallel(segmentsOf(canvas, kz::kLabSatAxisColor)[0].second -
                             segmentsOf(canvas, kz::kLabSatAxisColor)[0].first,
                         separating.axis));
    EXPECT_TRUE(barAlong(canvas, kz::kLabIntervalAColor, separating.axis, 2.0f * separating.radiusA));
    EXPECT_TRUE(barAlong(canvas, kz::kLabIntervalBColor, separating.axis, 2.0f * separating.radiusB));
    EXPECT_FALSE(segmentsOf(canvas, kz::kLabGapColor).empty()) << "apart: the gap is drawn";
    EXPECT_TRUE(segmentsOf(canvas, kz::kLabOverlapColor).empty());

    // Choosing another axis (one not parallel to the separating one) draws that axis instead.
    kz::LabView view;
    for (int i = 0; i < 15; ++i) {
        const kz::SatAxis& axis = trace.axes[std::size_t(i)];
        if (!axis.degenerate && !parallel(axis.axis, separating.axis)) view.satAxis = i;
    }
    ASSERT_GE(view.satAxis, 0);
    const kz::SatAxis& chosen = trace.axes[std::size_t(view.satAxis)];
    canvas.clear();
    kz::drawLabConstruction(scene, result, canvas, view);
    const auto axisLines = segmentsOf(canvas, kz::kLabSatAxisColor);
    ASSERT_EQ(axisLines.size(), 1u);
    EXPECT_TRUE(parallel(axisLines[0].second - axisLines[0].first, chosen.axis));
    EXPECT_FALSE(parallel(axisLines[0].second - axisLines[0].first, separating.axis));
    EXPECT_TRUE(barAlong(canvas, kz::kLabIntervalAColor, chosen.axis, 2.0f * chosen.radiusA));
    EXPECT_TRUE(barAlong(canvas, kz::kLabIntervalBColor, chosen.axis, 2.0f * chosen.radiusB));

    // The layer switched off: no axis.
    view.shown[std::size_t(kz::LabLayer::SatAxis)] = false;
    canvas.clear();
    kz::drawLabConstruction(scene, result, canvas, view);
    EXPECT_TRUE(segmentsOf(canvas, kz::kLabSatAxisColor).empty());
}

TEST(LabConstruction, OverlappingBoxesDrawTheOverlapAndTheClippedPolygonThroughTheKeptPoints) {
    LabScene scene = kz::makeLabScene(LabQuery::BoxBox);
    kz::moveLabItem(scene, {false, 0}, scene.shapes[1].position + glm::vec3(-0.7f, 0.1f, 0.0f));
    const LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.boxBox && result.trace.boxBox->overlap);
    const kz::ObbObbTrace& trace = *result.trace.boxBox;
    EXPECT_EQ(kz::labSatAxis(trace, {}), trace.leastPenetrationAxis);
    kz::LabCanvas canvas;
    canvas.eye = kz::kLabEye;
    kz::drawLabConstruction(scene, result, canvas);
    EXPECT_FALSE(segmentsOf(canvas, kz::kLabOverlapColor).empty()) << "overlapping: the overlap is drawn";
    EXPECT_TRUE(segmentsOf(canvas, kz::kLabGapColor).empty());
    const kz::ObbManifoldTrace& m = trace.manifold;
    for (int i = 0; i < m.clippedCount; ++i)
        EXPECT_TRUE(drawsNear(canvas.topLines, m.clipped[std::size_t(i)])) << "clipped point " << i;
}

TEST(LabConstruction, RayBoxDrawsEachSlabOnTheRayBetweenItsEntryAndExit) {
    const LabScene scene = kz::makeLabScene(LabQuery::RayBox);
    const LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.rayBox);
    const kz::RayBoxTrace& trace = *result.trace.rayBox;
    kz::LabCanvas canvas;
    canvas.eye = kz::kLabEye;
    kz::drawLabConstruction(scene, result, canvas);
    const kz::Ray ray = kz::labRay(scene);
    const auto tOf = [&](const glm::vec3& p) {
        return glm::dot(p - ray.origin, ray.dir) / glm::dot(ray.dir, ray.dir);
    };
    const auto onRay = [&](const glm::vec3& p) {
        return glm::distance(ray.origin + tOf(p) * ray.dir, p) < 1e-4f;
    };
    for (int i = 0; i < 3; ++i) {
        const kz::SlabInterval& slab = trace.slabs[std::size_t(i)];
        ASSERT_EQ(slab.kind, kz::SlabKind::Crossing) << "slab " << i;
        int alongTheRay = 0;
        for (const auto& [a, b] : segmentsOf(canvas, kz::kLabSlabColors[i])) {
            if (!onRay(a) || !onRay(b)) continue;
            ++alongTheRay;
            EXPECT_NEAR(std::min(tOf(a), tOf(b)), slab.tEnter, 1e-4f) << "slab " << i;
            EXPECT_NEAR(std::max(tOf(a), tOf(b)), slab.tExit, 1e-4f) << "slab " << i;
        }
        EXPECT_EQ(alongTheRay, 1) << "slab " << i;
    }
}

TEST(LabConstruction, TheRayMeshStepSliderAtEventKDrawsExactlyTheBoxesOfEventsZeroToK) {
    const LabScene scene = kz::makeLabScene(LabQuery::RayMesh);
    const LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.rayMesh && result.trace.meshPlacement);
    const auto& events = result.trace.rayMesh->events;
    ASSERT_GT(events.size(), 4u);
    const auto boxEvent = [](const kz::BvhEvent& e) {
        return e.kind == kz::BvhEventKind::Entered || e.kind == kz::BvhEventKind::Culled ||
               e.kind == kz::BvhEventKind::Skipped;
    };
    kz::LabCanvas canvas;
    canvas.eye = kz::kLabEye;
    for (int k : {0, 1, int(events.size()) / 2, int(events.size()) - 1}) {
        kz::LabView view;
        view.bvhStep = k;
        canvas.clear();
        kz::drawLabConstruction(scene, result, canvas, view);
        std::size_t expected = 0;
        for (int i = 0; i <= k; ++i)
            expected += boxEvent(events[std::size_t(i)]) ? 12 : 0;
        const std::size_t drawn = segmentsOf(canvas, kz::kLabBvhEnteredColor).size() +
                                  segmentsOf(canvas, kz::kLabBvhCulledColor).size() +
                                  segmentsOf(canvas, kz::kLabBvhSkippedColor).size();
        EXPECT_EQ(drawn, expected) << "step " << k;
        std::vector<kz::LabVertex> all = canvas.lines;
        all.insert(all.end(), canvas.topLines.begin(), canvas.topLines.end());
        for (int i = 0; i <= k; ++i) {
            if (!boxEvent(events[std::size_t(i)])) continue;
            EXPECT_TRUE(
                drawsNear(all, result.trace.meshPlacement->toWorld(events[std::size_t(i)].box.min), 1e-3f))
                << "step " << k << ", event " << i;
        }
    }
}

/// The construction of `scene` with every layer shown (or `view`).
kz::LabCanvas drawn(const LabScene& scene, const LabResult& result, const kz::LabView& view = {}) {
    kz::LabCanvas canvas;
    canvas.eye = kz::kLabEye;
    kz::drawLabConstruction(scene, result, canvas, view);
    return canvas;
}

/// The view with one layer hidden.
kz::LabView without(kz::LabLayer layer) {
    kz::LabView view;
    view.shown[std::size_t(layer)] = false;
    return view;
}

TEST(LabConstruction, RayPlaneDrawsTheOriginsDistanceAndTheApproachPerUnitTWhoseRatioIsT) {
    const LabScene scene = kz::makeLabScene(LabQuery::RayPlane);
    const LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.rayPlane && result.rayHit);
    const kz::Ray ray = kz::labRay(scene);
    const kz::Plane plane = kz::labPlane(scene.shapes[0]);
    const kz::LabCanvas canvas = drawn(scene, result);
    // The numerator: from the origin straight to its foot on the plane.
    std::optional<float> distance, approach;
    for (const auto& [a, b] : segmentsOf(canvas, kz::kLabNumeratorColor)) {
        if (glm::distance(a, ray.origin) > 1e-5f) continue;
        EXPECT_TRUE(parallel(b - a, plane.normal));
        EXPECT_NEAR(glm::dot(plane.normal, b) + plane.d, 0.0f, 1e-4f) << "the foot lies on the plane";
        distance = glm::distance(a, b);
    }
    // The denominator: an arrow along the normal beside the origin, as long as dir's normal part.
    for (const auto& [a, b] : segmentsOf(canvas, kz::kLabDenominatorColor)) {
        if (parallel(b - a, plane.normal) && glm::distance(a, b) > 0.5f) approach = glm::distance(a, b);
    }
    ASSERT_TRUE(distance && approach);
    EXPECT_NEAR(*approach, std::abs(glm::dot(plane.normal, ray.dir)), 1e-4f);
    EXPECT_NEAR(*distance / *approach, result.rayHit->t, 1e-4f) << "t is the ratio of the two";
    EXPECT_TRUE(
        segmentsOf(drawn(scene, result, without(kz::LabLayer::Distances)), kz::kLabDenominatorColor).empty());
}

TEST(LabConstruction, RayTriangleColoursEachEdgeByItsEdgeFunctionAndFansFromTheCrossing) {
    LabScene scene = kz::makeLabScene(LabQuery::RayTriangle);
    LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.rayTriangle && result.rayHit);
    const kz::Triangle tri = kz::labTriangle(scene.shapes[0]);
    kz::LabCanvas canvas = drawn(scene, result);
    EXPECT_EQ(segmentsOf(canvas, kz::kLabEdgeInsideColor).size(), 3u) << "a hit: inside every edge";
    EXPECT_TRUE(segmentsOf(canvas, kz::kLabEdgeOutsideColor).empty());
    EXPECT_TRUE(drawsNear(canvas.topLines, result.rayHit->point, 1e-3f)) << "the crossing is the hit";

    // The end moved so the ray's line passes beyond vertex a: the edges drawn outside are exactly
    // those whose edge function has the other sign than det.
    const kz::Ray ray = kz::labRay(scene);
    const glm::vec3 beside = tri.a + 1.5f * (tri.a - (tri.b + tri.c) * 0.5f);
    kz::moveLabItem(scene, {true, 1}, ray.origin + 2.0f * (beside - ray.origin));
    result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.rayTriangle);
    ASSERT_FALSE(result.positive);
    const kz::RayTriangleTrace& t = *result.trace.rayTriangle;
    ASSERT_EQ(t.reason, kz::RayTriangleReason::OutsideAnEdge);
    canvas = drawn(scene, result);
    const glm::vec3 v[3] = {tri.a, tri.b, tri.c};
    const double weights[3] = {t.u, t.v, t.w};
    const auto outside = segmentsOf(canvas, kz::kLabEdgeOutsideColor);
    ASSERT_FALSE(outside.empty());
    for (int i = 0; i < 3; ++i) {
        const bool isOutside = weights[i] * t.det < 0.0;
        const bool drawnOutside = std::any_of(outside.begin(), outside.end(), [&](const auto& seg) {
            return glm::distance(seg.first, v[(i + 1) % 3]) < 1e-5f &&
                   glm::distance(seg.second, v[(i + 2) % 3]) < 1e-5f;
        });
        EXPECT_EQ(drawnOutside, isOutside) << "edge opposite vertex " << i;
    }
}

TEST(LabConstruction, SphereSphereDrawsTheCentreLineWithBothRadiiAsBarsAndTheGapOrOverlap) {
    LabScene scene = kz::makeLabScene(LabQuery::SphereSphere);
    LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.sphereSphere && !result.positive);
    const glm::vec3 line = scene.shapes[1].position - scene.shapes[0].position;
    kz::LabCanvas canvas = drawn(scene, result);
    ASSERT_EQ(segmentsOf(canvas, kz::kLabSatAxisColor).size(), 1u);
    EXPECT_TRUE(parallel(segmentsOf(canvas, kz::kLabSatAxisColor)[0].second -
                             segmentsOf(canvas, kz::kLabSatAxisColor)[0].first,
                         line));
    EXPECT_TRUE(barAlong(canvas, kz::kLabIntervalAColor, line, 2.0f * scene.shapes[0].radius));
    EXPECT_TRUE(barAlong(canvas, kz::kLabIntervalBColor, line, 2.0f * scene.shapes[1].radius));
    const auto gap = segmentsOf(canvas, kz::kLabGapColor);
    ASSERT_FALSE(gap.empty());
    EXPECT_NEAR(glm::distance(gap[0].first, gap[0].second), result.trace.sphereSphere->separation, 1e-4f);
    EXPECT_TRUE(segmentsOf(canvas, kz::kLabOverlapColor).empty());

    kz::moveLabItem(scene, {false, 0}, scene.shapes[0].position + 0.5f * line);
    result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.positive);
    canvas = drawn(scene, result);
    const auto overlap = segmentsOf(canvas, kz::kLabOverlapColor);
    ASSERT_FALSE(overlap.empty());
    EXPECT_NEAR(glm::distance(overlap[0].first, overlap[0].second), result.manifold->depth, 1e-4f);
    EXPECT_TRUE(segmentsOf(canvas, kz::kLabGapColor).empty());
    EXPECT_TRUE(
        segmentsOf(drawn(scene, result, without(kz::LabLayer::SatAxis)), kz::kLabSatAxisColor).empty());
}

TEST(LabConstruction, BoxPlaneDropsEachCornerToThePlaneColouredByTheSignOfItsDistance) {
    LabScene scene = kz::makeLabScene(LabQuery::BoxPlane);
    for (const float sink : {0.0f, 0.6f}) {
        kz::moveLabItem(scene, {false, 0}, scene.shapes[0].position - glm::vec3(0.0f, sink, 0.0f));
        const LabResult result = kz::runLabQuery(scene);
        ASSERT_TRUE(result.trace.boxPlane && result.trace.boxPlane->valid);
        const kz::ObbPlaneTrace& t = *result.trace.boxPlane;
        const kz::Plane plane = kz::labPlane(scene.shapes[1]);
        const kz::LabCanvas canvas = drawn(scene, result);
        int touching = 0;
        for (std::size_t i = 0; i < 8; ++i) {
            const auto strokeFrom = [&](const glm::vec3& color) {
                for (const auto& [a, b] : segmentsOf(canvas, color)) {
                    if (glm::distance(a, t.corners[i]) < 1e-5f &&
                        std::abs(glm::dot(plane.normal, b) + plane.d) < 1e-4f)
                        return true;
                }
                return false;
            };
            const bool isFront = strokeFrom(kz::kLabCornerFrontColor);
            const bool isTouching = strokeFrom(kz::kLabCornerTouchingColor);
            EXPECT_NE(isFront, isTouching) << "corner " << i;
            EXPECT_EQ(isTouching, t.distance[i] <= 0.0f) << "corner " << i;
            touching += isTouching;
        }
        EXPECT_EQ(touching, t.touchingCount);
        EXPECT_EQ(touching > 0, result.positive);
        if (sink > 0.0f) {
            EXPECT_GT(touching, 0) << "sunk into the plane";
        }
    }
}

TEST(LabConstruction, BoxTriangleDrawsTheChosenOfItsThirteenAxesWithTheBoxAndTriangleIntervals) {
    const LabScene scene = kz::makeLabScene(LabQuery::BoxTriangle);
    const LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.boxTriangle && result.trace.boxTriangle->valid);
    const kz::ObbTriangleTrace& trace = *result.trace.boxTriangle;
    ASSERT_FALSE(trace.overlap) << "the start scene is apart";
    EXPECT_EQ(kz::labBoxTriangleAxis(trace, {}), trace.largestAxis);
    for (int i = -1; i < 13; ++i) {
        kz::LabView view;
        view.satAxis = i;
        const kz::ObbTriangleAxis& axis = trace.axes[std::size_t(i < 0 ? trace.largestAxis : i)];
        const kz::LabCanvas canvas = drawn(scene, result, view);
        const auto lines = segmentsOf(canvas, kz::kLabSatAxisColor);
        if (axis.skipped) {
            EXPECT_TRUE(lines.empty()) << "axis " << i;
            continue;
        }
        ASSERT_EQ(lines.size(), 1u) << "axis " << i;
        EXPECT_TRUE(parallel(lines[0].second - lines[0].first, axis.axis)) << "axis " << i;
        EXPECT_TRUE(barAlong(canvas, kz::kLabIntervalAColor, axis.axis, 2.0f * axis.boxRadius))
            << "axis " << i;
        if (axis.triangleMax - axis.triangleMin > 1e-3f) {
            EXPECT_TRUE(
                barAlong(canvas, kz::kLabIntervalBColor, axis.axis, axis.triangleMax - axis.triangleMin))
                << "axis " << i;
        }
        EXPECT_EQ(segmentsOf(canvas, kz::kLabGapColor).empty(), !(axis.separation > 0.0f)) << "axis " << i;
    }
}

TEST(LabConstruction, SegmentsDrawTheLinesAndAnArrowFromEachClampedParameterToItsClamp) {
    LabScene scene = kz::makeLabScene(LabQuery::SegmentSegment);
    // Segment B slid along its line past A's end: s and t both clamp.
    const glm::vec3 a1 = scene.handles[1].position, along = a1 - scene.handles[0].position;
    for (int i : {2, 3})
        kz::moveLabItem(scene, {true, i}, scene.handles[std::size_t(i)].position + along);
    const LabResult result = kz::runLabQuery(scene);
    ASSERT_TRUE(result.trace.segments && result.trace.segments->valid);
    const kz::LinePiecesTrace& t = *result.trace.segments;
    ASSERT_TRUE(t.sClamped || t.tClamped);
    const kz::LabCanvas canvas = drawn(scene, result);
    const glm::vec3 p1 = scene.handles[0].position, d1 = along;
    const glm::vec3 p2 = scene.handles[2].position, d2 = scene.handles[3].position - p2;
    if (t.sClamped) {
        EXPECT_TRUE(drawsNear(canvas.topLines, p1 + t.sUnclamped * d1, 1e-4f)) << "s before its clamp";
        EXPECT_TRUE(drawsNear(canvas.topLines, p1 + t.sFirst * d1, 1e-4f)) << "s after it";
    }
    if (t.tClamped) {
        EXPECT_TRUE(drawsNear(canvas.topLines, p2 + t.tUnclamped * d2, 1e-4f)) << "t before its clamp";
        EXPECT_TRUE(drawsNear(canvas.topLines, p2 + t.tFinal * d2, 1e-4f)) << "t after it";
    }
    const kz::LabCanvas hidden = drawn(scene, result, without(kz::LabLayer::Clamping));
    EXPECT_LT(hidden.topLines.size() + hidden.lines.size(), canvas.topLines.size() + canvas.lines.size());
}

} // namespace

namespace {

TEST(LabConvex, CapsulesCylindersAndHullsAreDrawnFacingOutAndPickedExactly) {
    for (LabQuery q :
         {LabQuery::Gjk, LabQuery::Epa, LabQuery::RayConvex, LabQuery::ConvexConvex, LabQuery::ShapeCast}) {
        const LabScene scene = kz::makeLabScene(q);
        for (const kz::LabShape& shape : scene.shapes) {
            if (shape.kind == kz::LabShapeKind::Box || shape.kind == kz::LabShapeKind::Sphere) continue;
            ASSERT_TRUE(shape.mesh) << kz::labQueryName(q) << " " << shape.name;
            const kz::MeshShape& mesh = *shape.mesh;
            for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
                const glm::vec3 a = mesh.vertices[mesh.indices[3 * t]],
                                b = mesh.vertices[mesh.indices[3 * t + 1]],
                                c = mesh.vertices[mesh.indices[3 * t + 2]];
                const glm::vec3 normal = glm::cross(b - a, c - a);
                // Every tessellation is around its local origin (inside the shape): outward faces.
                EXPECT_GT(glm::dot(normal, (a + b + c) / 3.0f), 0.0f) << shape.name << " triangle " << t;
            }
            // A ray at the shape's centre picks it, at the point the GJK ray cast finds.
            const kz::Ray ray{shape.position + glm::vec3(0.0f, 0.0f, 6.0f), {0.0f, 0.0f, -1.0f}};
            const auto picked = kz::pickLabItem(scene, ray);
            const auto exact = kz::raycast(ray, kz::labConvex(shape));
            ASSERT_TRUE(picked && exact) << shape.name;
            EXPECT_FALSE(picked->item.handle);
            EXPECT_EQ(picked->point, exact->point) << shape.name;
        }
    }
}

TEST(LabConvex, TheStepsAreTheTracesWhoseAnswersAreTheQueries) {
    const LabResult gjk = kz::runLabQuery(kz::makeLabScene(LabQuery::Gjk));
    ASSERT_TRUE(gjk.trace.gjk);
    EXPECT_EQ(gjk.trace.gjk->result.distance, *gjk.number("distance"));
    EXPECT_FALSE(gjk.trace.gjk->iterations.empty());
    const LabResult epa = kz::runLabQuery(kz::makeLabScene(LabQuery::Epa));
    ASSERT_TRUE(epa.trace.epa);
    EXPECT_EQ(epa.trace.epa->result.depth, *epa.number("depth"));
    EXPECT_FALSE(epa.trace.epa->iterations.empty()) << "the start pair overlaps its cores: EPA runs";
    const LabResult ray = kz::runLabQuery(kz::makeLabScene(LabQuery::RayConvex));
    ASSERT_TRUE(ray.trace.rayConvex && ray.trace.rayConvex->result.hit);
    EXPECT_EQ(ray.trace.rayConvex->result.hit->t, *ray.number("t"));
    // Each draws its steps, and nothing once its layer is off.
    for (LabQuery q :
         {LabQuery::Gjk, LabQuery::Epa, LabQuery::RayConvex, LabQuery::ConvexConvex, LabQuery::ShapeCast}) {
        const LabScene scene = kz::makeLabScene(q);
        const LabResult result = kz::runLabQuery(scene);
        kz::LabView view;
        kz::LabCanvas all, answerOnly;
        kz::drawLabConstruction(scene, result, all, view);
        for (std::size_t i = 1; i < view.shown.size(); ++i)
            view.shown[i] = false;
        kz::drawLabConstruction(scene, result, answerOnly, view);
        EXPECT_GT(all.lines.size() + all.topLines.size(),
                  answerOnly.lines.size() + answerOnly.topLines.size())
            << kz::labQueryName(q);
    }
}

TEST(LabShapeCast, AFliesToItsEndTurningAboutTheSpinHandleAndStopsAtTheFirstTouch) {
    LabScene scene = kz::makeLabScene(LabQuery::ShapeCast);
    ASSERT_EQ(scene.handles.size(), 2u);
    const LabResult turning = kz::runLabQuery(scene);
    ASSERT_TRUE(turning.positive && turning.trace.shapeCast);
    const kz::ShapeCastTrace& trace = *turning.trace.shapeCast;
    EXPECT_EQ(trace.result.t, *turning.number("t"));
    EXPECT_GT(trace.steps.front().angularRate, 0.0) << "the spin handle turns A";
    // At the time of impact A (posed by the trace's motion) is within the tolerance of B.
    const kz::ConvexShape atImpact =
        kz::shapeAtTime(kz::labConvex(scene.shapes[0]), trace.motionA, trace.result.t);
    const kz::GjkResult touch = kz::closestPtConvexConvex(atImpact, kz::labConvex(scene.shapes[1]));
    EXPECT_LE(touch.distance, trace.tolerance);
    // The spin handle on A's centre: A only moves; the end handle there too: A stays, no touch.
    scene.handles[1].position = scene.shapes[0].position;
    const LabResult moving = kz::runLabQuery(scene);
    ASSERT_TRUE(moving.trace.shapeCast);
    EXPECT_EQ(moving.trace.shapeCast->steps.front().angularRate, 0.0);
    EXPECT_NE(*moving.number("t"), *turning.number("t"));
    scene.handles[0].position = scene.shapes[0].position;
    EXPECT_FALSE(kz::runLabQuery(scene).positive);
    // Dragging A drags both handles with it.
    const glm::vec3 before = scene.handles[1].position;
    kz::moveLabItem(scene, {false, 0}, scene.shapes[0].position + glm::vec3(0.0f, 1.0f, 0.0f));
    EXPECT_EQ(scene.handles[1].position, before + glm::vec3(0.0f, 1.0f, 0.0f));
}

TEST(LabConvex, TheDifferenceIsATranslucentClosedHullInsideItsEdgesAndOnlyGjkAndEpaDrawOne) {
    using kz::lab_parts::kDifferenceColor;
    for (LabQuery q : allQueries()) {
        const LabScene scene = kz::makeLabScene(q);
        const LabResult result = kz::runLabQuery(scene);
        kz::LabCanvas canvas;
        kz::drawLabConstruction(scene, result, canvas);
        if (q != LabQuery::Gjk && q != LabQuery::Epa) {
            EXPECT_TRUE(canvas.surfaces.empty()) << kz::labQueryName(q);
            continue;
        }
        ASSERT_EQ(canvas.surfaces.size(), 1u) << kz::labQueryName(q);
        const kz::LabSurface& hull = canvas.surfaces[0];
        EXPECT_EQ(glm::vec3(hull.color), kDifferenceColor);
        EXPECT_GE(hull.color.a, 0.2f);
        EXPECT_LE(hull.color.a, 0.4f);
        ASSERT_GE(hull.positions.size(), 4u);
        ASSERT_EQ(hull.indices.size() % 3, 0u);
        glm::vec3 centre(0.0f);
        for (const glm::vec3& p : hull.positions)
            centre += p / float(hull.positions.size());
        // Closed (each edge run once each way) and facing out: back faces are told from front ones.
        std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
        for (std::size_t t = 0; t < hull.indices.size(); t += 3) {
            const std::uint32_t i[3] = {hull.indices[t], hull.indices[t + 1], hull.indices[t + 2]};
            ASSERT_LT(std::max({i[0], i[1], i[2]}), hull.positions.size());
            const glm::vec3 a = hull.positions[i[0]], b = hull.positions[i[1]], c = hull.positions[i[2]];
            EXPECT_GT(glm::dot(glm::cross(b - a, c - a), (a + b + c) / 3.0f - centre), 0.0f) << t;
            for (int k = 0; k < 3; ++k)
                EXPECT_TRUE(edges.insert({i[k], i[(k + 1) % 3]}).second) << kz::labQueryName(q);
        }
        for (const auto& [from, to] : edges)
            EXPECT_TRUE(edges.count({to, from})) << kz::labQueryName(q) << " edge " << from << "-" << to;
        // Its wire edges are still drawn, between its corners.
        const std::set<std::tuple<float, float, float>> corners = [&] {
            std::set<std::tuple<float, float, float>> out;
            for (const glm::vec3& p : hull.positions)
                out.insert({p.x, p.y, p.z});
            return out;
        }();
        int wires = 0;
        for (const kz::LabVertex& v : canvas.lines) {
            if (v.color != kDifferenceColor) continue;
            ++wires;
            EXPECT_TRUE(corners.count({v.position.x, v.position.y, v.position.z})) << kz::labQueryName(q);
        }
        EXPECT_GE(wires, int(edges.size()) / 2) << "a polygon's edges, fewer than its fan's";
        // With its layer off, no hull.
        kz::LabView view;
        std::fill(view.shown.begin() + 1, view.shown.end(), false);
        kz::LabCanvas answerOnly;
        kz::drawLabConstruction(scene, result, answerOnly, view);
        EXPECT_TRUE(answerOnly.surfaces.empty()) << kz::labQueryName(q);
    }
}

} // namespace
