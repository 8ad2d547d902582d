// sweep-sphere-triangle, no tunnelling (seed 2 warns fast movers pass through): the first time the
// moving sphere touches the triangle's face, an edge or a corner.
#include "app/lab/queries/parts.hpp"
#include "app/lab/queries/trace_json.hpp"
#include "geom/closest.hpp"
#include "geom/explain_sweep.hpp"
#include "geom/sweep.hpp"

#include <cstdio>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace sweep_sphere_triangle_unit {

constexpr glm::vec3 kImpactColor{1.0f, 0.6f, 0.2f};

void placeQuery(LabScene& scene) {
    // The sphere flies (to its end handle, t = 1) through the triangle's face.
    scene.shapes = {
        sphere("sphere", {-1.9f, 0.5f, 0.3f}, 0.45f, kColorA),
        meshShape(LabShapeKind::Triangle, "triangle", {0.2f, 0.0f, 0.0f}, eulerDeg(0, 70, 0), kColorB)};
    scene.handles.push_back({"end", {2.0f, -0.2f, 0.0f}, 0, kRayEnd});
}

/// The sphere flies from its centre to the end handle (t = 1); where it first touches the triangle.
LabResult runQuery(const LabScene& scene) {
    const Sphere a = labSphere(shapeA(scene));
    const Triangle b = labTriangle(shapeB(scene));
    const glm::vec3 motion = scene.handles.empty() ? glm::vec3(0.0f) : scene.handles[0].position - a.center;
    LabResult result;
    result.isHit = true;
    const auto t = sweepSphereTriangle(a, motion, b, 1.0f);
    if (!t) return result;
    result.positive = true;
    const glm::vec3 centre = a.center + *t * motion;
    const glm::vec3 touch = closestPtPointTriangle(centre, b);
    const glm::vec3 out = centre - touch;
    const float length = glm::length(out);
    result.impactCentre = centre;
    result.rayHit = RayHit{*t, touch, length > 0.0f ? out / length : glm::vec3(0.0f, 1.0f, 0.0f)};
    result.numbers.push_back({"t", *t});
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (scene.shapes.empty() || scene.handles.empty()) return;
    const Sphere s = labSphere(shapeA(scene));
    out.sweep =
        explainSweepSphereTriangle(s, scene.handles[0].position - s.center, labTriangle(shapeB(scene)), 1.0f);
}

/// The sphere's path to its end handle, the sphere where it first touches (wire) with the touched
/// point and normal, or the sphere at the end when it touches nothing.
void drawAnswer(const LabScene& scene, const LabResult& result, LabCanvas& canvas) {
    if (scene.shapes.empty() || scene.handles.empty()) return;
    const Sphere start = labSphere(scene.shapes[0]);
    const glm::vec3 end = scene.handles[0].position;
    if (result.impactCentre && result.rayHit) {
        canvas.line(start.center, *result.impactCentre, kImpactColor);
        canvas.line(*result.impactCentre, end, kRayBeyondColor);
        canvas.sphere(*result.impactCentre, start.radius, kImpactColor);
        canvas.cross(result.rayHit->point, kContactColor);
        canvas.arrow(result.rayHit->point, result.rayHit->point + kNormalLength * result.rayHit->normal,
                     kNormalColor, true);
    } else {
        canvas.line(start.center, end, kRayBeyondColor);
        canvas.sphere(end, start.radius, kRayBeyondColor);
    }
}

/// The winning feature lit, the sphere's outline at each other candidate time.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.sweep || scene.shapes.size() < 2 || scene.handles.empty()) return;
    const SphereTriangleSweepTrace& trace = *result.trace.sweep;
    const Sphere start = labSphere(scene.shapes[0]);
    const glm::vec3 motion = scene.handles[0].position - start.center;
    if (view.show(LabLayer::Feature)) {
        triangleFeature(canvas, labTriangle(scene.shapes[1]),
                        trace.winner == SweepFeature::Corner ? trace.winnerIndex : -1,
                        trace.winner == SweepFeature::Edge ? trace.winnerIndex : -1,
                        trace.winner == SweepFeature::Face);
    }
    if (!view.show(LabLayer::Candidates)) return;
    const auto outline = [&](const SweepCandidate& c) {
        if (c.status != SweepCandidateStatus::NotEarlier && c.status != SweepCandidateStatus::BestSoFar)
            return;
        const glm::vec3 centre = start.center + c.t * motion;
        canvas.circle(centre, canvas.eye - centre, start.radius, kCandidateColor);
    };
    outline(trace.face);
    for (const SweepCandidate& c : trace.edges)
        outline(c);
    for (const SweepCandidate& c : trace.corners)
        outline(c);
}

/// Every feature's candidate time and status, the first touch in the verdict's colour.
void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.sweep || !result.trace.sweep->valid) return;
    const SphereTriangleSweepTrace& t = *result.trace.sweep;
    ImGui::Text("start distance %.3f, height over the plane %.3f", double(t.startDistance), double(t.height));
    if (t.initialOverlap) verdictText(true, "touching already: t = 0");
    static constexpr const char* kStatus[] = {"not tried",     "best so far", "not earlier",
                                              "out of [0, 1]", "moving away", "already within",
                                              "parallel",      "misses",      "off the feature"};
    const auto row = [&](const char* name, const SweepCandidate& c, bool winner) {
        const bool timed =
            c.status == SweepCandidateStatus::BestSoFar || c.status == SweepCandidateStatus::NotEarlier ||
            c.status == SweepCandidateStatus::OutOfRange || c.status == SweepCandidateStatus::OffFeature;
        char time[24] = "";
        if (timed) std::snprintf(time, sizeof time, "t = %.4f", double(c.t));
        if (winner) {
            verdictText(true, "%-9s %-12s %s  <- first touch", name, time,
                        kStatus[static_cast<int>(c.status)]);
        } else {
            ImGui::TextDisabled("%-9s %-12s %s", name, time, kStatus[static_cast<int>(c.status)]);
        }
    };
    row("face", t.face, t.winner == SweepFeature::Face);
    static constexpr const char* kEdges[] = {"edge ab", "edge bc", "edge ca"};
    static constexpr const char* kCorners[] = {"corner a", "corner b", "corner c"};
    for (int i = 0; i < 3; ++i)
        row(kEdges[i], t.edges[std::size_t(i)], t.winner == SweepFeature::Edge && t.winnerIndex == i);
    for (int i = 0; i < 3; ++i)
        row(kCorners[i], t.corners[std::size_t(i)], t.winner == SweepFeature::Corner && t.winnerIndex == i);
    if (!t.time) verdictText(false, "no touch by t = 1");
}

Json explainResult(const ExplainInput& in) {
    const Sphere& a = in.a->sphere;
    const auto t = sweepSphereTriangle(a, in.a->velocity, in.b.triangle, in.sweepTMax);
    if (!t) return Json{{"hit", false}, {"t_max", number(in.sweepTMax)}};
    return Json{{"hit", true},
                {"time_of_impact", number(*t)},
                {"center_at_impact", vec(a.center + *t * in.a->velocity)},
                {"t_max", number(in.sweepTMax)}};
}

void explainSteps(const ExplainInput& input, Json& out) {
    const ExplainShape& a = *input.a;
    addKeys(traceToJson(explainSweepSphereTriangle(a.sphere, a.velocity, input.b.triangle, input.sweepTMax)),
            out);
}

} // namespace sweep_sphere_triangle_unit
} // namespace

extern const LabQueryUnit kSweepSphereTriangleQuery{
    .name = "sweep-sphere-triangle",
    .idea = "No tunnelling (seed 2 warns fast movers pass through): the first time the moving sphere touches "
            "the triangle's face, an edge or a corner.",
    .controls = "drag the sphere or its orange end (t = 1); drag or turn the triangle",
    .place = sweep_sphere_triangle_unit::placeQuery,
    .run = sweep_sphere_triangle_unit::runQuery,
    .trace = sweep_sphere_triangle_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Feature) | labLayerBit(LabLayer::Candidates),
    .drawAnswer = sweep_sphere_triangle_unit::drawAnswer,
    .drawSteps = sweep_sphere_triangle_unit::drawSteps,
    .panelSteps = sweep_sphere_triangle_unit::panelSteps,
    .explainNeeds = {false, ExplainShapeKind::Sphere, ExplainShapeKind::Triangle, true},
    .explainResult = sweep_sphere_triangle_unit::explainResult,
    .explainSteps = sweep_sphere_triangle_unit::explainSteps,
};

} // namespace kz
