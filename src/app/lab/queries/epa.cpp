// epa: the penetration depth, normal and deepest points of two overlapping convex shapes, found by
// EPA (van den Bergen 2001) growing a polytope inside their Minkowski difference from GJK's simplex.
#include "geom/epa.hpp"

#include "app/lab/queries/convex_json.hpp"
#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/queries/parts.hpp"
#include "geom/explain_epa.hpp"

#include <string>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace epa_unit {

void placeQuery(LabScene& scene) {
    scene.shapes = {
        box("A", {-0.75f, 0.15f, 0.0f}, {0.6f, 0.45f, 0.5f}, eulerDeg(0.0f, 25.0f, 15.0f), kColorA),
        cylinder("B", {0.6f, -0.1f, 0.0f}, 0.55f, 0.8f, eulerDeg(0.0f, 0.0f, 70.0f), kColorB)};
}

LabResult runQuery(const LabScene& scene) {
    LabResult result;
    const EpaResult r = penetrationConvexConvex(labConvex(shapeA(scene)), labConvex(shapeB(scene)));
    if (r.status == EpaStatus::InvalidInput) return result;
    result.positive = r.overlap;
    if (r.overlap) {
        result.closest = std::pair{r.pointA, r.pointB};
        result.numbers = {{"depth", r.depth},
                          {"normal x", r.normal.x},
                          {"normal y", r.normal.y},
                          {"normal z", r.normal.z},
                          {"iterations", static_cast<float>(r.iterations)}};
    }
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    out.epa = explainEpa(labConvex(shapeA(scene)), labConvex(shapeB(scene)));
}

/// B's deepest point into A and A's into B, and the arrow from A's to B's: the normal times the
/// depth, the shortest move of B that separates them.
void drawAnswer(const LabScene&, const LabResult& result, LabCanvas& canvas) {
    if (!result.closest) return;
    canvas.cross(result.closest->first, kLabPositive);
    canvas.cross(result.closest->second, kLabPositive);
    canvas.arrow(result.closest->first, result.closest->second, kLabPositive, true);
}

/// The cores' difference with the chosen iteration's polytope (its faces' edges), its face nearest
/// the origin (yellow; its normal times its distance from the origin, cyan) and the support point
/// along that normal.
void drawSteps(const LabScene&, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.epa || !view.show(LabLayer::Polytope)) return;
    const EpaTrace& trace = *result.trace.epa;
    if (trace.iterations.empty()) return;
    const glm::vec3 origin = differenceOrigin(trace.gjk.coreA, trace.gjk.coreB);
    drawDifference(trace.gjk.coreA, trace.gjk.coreB, origin, canvas);
    const EpaIteration& it = trace.iterations[std::size_t(convexStep(view, int(trace.iterations.size())))];
    const auto at = [&](int vertex) {
        return differencePoint(origin, trace.vertices[std::size_t(vertex)].w);
    };
    for (std::size_t f = 0; f < it.faces.size(); ++f) {
        const auto& v = it.faces[f].vertices;
        const bool nearest = int(f) == it.nearest;
        for (std::size_t k = 0; k < 3; ++k)
            canvas.line(at(v[k]), at(v[(k + 1) % 3]), nearest ? kSimplexColor : kPolytopeColor, nearest);
        if (nearest)
            canvas.arrow(origin, differencePoint(origin, it.faces[f].distance * it.faces[f].normal),
                         kNormalColor, true);
    }
    canvas.cross(differencePoint(origin, it.support.w), kSupportColor);
}

void panelSteps(LabView& view, const LabResult& result) {
    ImGui::TextWrapped("When GJK finds the origin inside A - B, EPA grows a polytope inside it from GJK's "
                       "simplex, each time pushing out the face nearest the origin by the support point "
                       "along its normal, until that face is the difference's surface: its distance is the "
                       "depth, its normal the direction of least penetration.");
    if (!result.positive) ImGui::TextDisabled("apart: drag A into B");
    if (!result.trace.epa) return;
    const EpaTrace& trace = *result.trace.epa;
    if (trace.iterations.empty()) {
        if (result.positive)
            ImGui::Text("no polytope needed: %s", std::string(epaStatusName(trace.status)).c_str());
        return;
    }
    const int count = int(trace.iterations.size());
    convexStepSlider(view, count);
    const EpaIteration& it = trace.iterations[std::size_t(convexStep(view, count))];
    ImGui::Text("%zu faces; the nearest at %.5f", it.faces.size(), it.lowerBound);
    ImGui::Text("the support point reaches %.5f: gap %.2e", it.reach, it.gap);
    ImGui::Text("stopped: %s after %d", std::string(epaStatusName(trace.status)).c_str(), count);
}

Json explainResult(const ExplainInput& in) {
    const EpaResult r = penetrationConvexConvex(explainConvex(*in.a), explainConvex(in.b));
    if (!r.overlap)
        return Json{{"overlap", false},
                    {"depth", nullptr},
                    {"normal", nullptr},
                    {"point_a", nullptr},
                    {"point_b", nullptr}};
    return Json{{"overlap", true},
                {"depth", number(r.depth)},
                {"normal", vec(r.normal)},
                {"point_a", vec(r.pointA)},
                {"point_b", vec(r.pointB)}};
}

void explainSteps(const ExplainInput& in, Json& out) {
    addKeys(epaTraceJson(explainEpa(explainConvex(*in.a), explainConvex(in.b))), out, "result");
}

} // namespace epa_unit
} // namespace

extern const LabQueryUnit kEpaQuery{
    .name = "epa",
    .idea =
        "How deep two convex shapes overlap, and along which normal: the expanding polytope (EPA) on their "
        "Minkowski difference.",
    .controls = kPairControls,
    .place = epa_unit::placeQuery,
    .run = epa_unit::runQuery,
    .trace = epa_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Polytope),
    .drawAnswer = epa_unit::drawAnswer,
    .drawSteps = epa_unit::drawSteps,
    .panelSteps = epa_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Convex, ExplainShapeKind::Convex),
    .explainResult = epa_unit::explainResult,
    .explainSteps = epa_unit::explainSteps,
    .anyConvexShape = true,
};

} // namespace kz
