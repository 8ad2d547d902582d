// gjk, the general algorithm: the distance and closest points of any two convex shapes, found by
// GJK on their support functions (Gilbert, Johnson, Keerthi 1988; signed volumes, Montanari,
// Petrinic, Barbieri 2017).
#include "geom/gjk.hpp"

#include "app/lab/queries/convex_json.hpp"
#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/queries/parts.hpp"
#include "geom/explain_gjk.hpp"

#include <string>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace gjk_unit {

void placeQuery(LabScene& scene) {
    scene.shapes = {capsule("A", {-1.4f, 0.3f, 0.2f}, 0.45f, 0.7f, eulerDeg(0.0f, 0.0f, 35.0f), kColorA),
                    gem("B", {0.85f, -0.2f, 0.0f}, 0.95f, eulerDeg(12.0f, 20.0f, 0.0f), kColorB)};
}

LabResult runQuery(const LabScene& scene) {
    LabResult result;
    const GjkResult r = closestPtConvexConvex(labConvex(shapeA(scene)), labConvex(shapeB(scene)));
    if (r.status == GjkStatus::InvalidInput) return result;
    result.positive = r.overlap;
    result.closest = std::pair{r.pointA, r.pointB};
    result.numbers = {{"distance", r.distance},
                      {"lower bound", r.lowerBound},
                      {"iterations", static_cast<float>(r.iterations)}};
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    out.gjk = explainGjk(labConvex(shapeA(scene)), labConvex(shapeB(scene)));
}

/// The closest points and the segment between them, in the verdict's colour.
void drawAnswer(const LabScene&, const LabResult& result, LabCanvas& canvas) {
    if (!result.closest) return;
    const glm::vec3 verdict = result.positive ? kLabPositive : kLabNegative;
    canvas.cross(result.closest->first, verdict);
    canvas.cross(result.closest->second, verdict);
    canvas.line(result.closest->first, result.closest->second, verdict, true);
}

/// The cores' difference with the chosen iteration's simplex (its points, edges and faces), the
/// search direction from the origin, v (the simplex's point nearest the origin), and the support
/// points on both shapes with the segment between them (w is its vector).
void drawSteps(const LabScene&, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.gjk || !view.show(LabLayer::Simplex)) return;
    const GjkTrace& trace = *result.trace.gjk;
    if (trace.iterations.empty()) return;
    const glm::vec3 origin = differenceOrigin(trace.coreA, trace.coreB);
    drawDifference(trace.coreA, trace.coreB, origin, canvas);
    const GjkIteration& it = trace.iterations[std::size_t(convexStep(view, int(trace.iterations.size())))];
    for (std::size_t i = 0; i < it.simplex.size(); ++i) {
        canvas.cross(differencePoint(origin, it.simplex[i].w), kSimplexColor);
        for (std::size_t j = i + 1; j < it.simplex.size(); ++j)
            canvas.line(differencePoint(origin, it.simplex[i].w), differencePoint(origin, it.simplex[j].w),
                        kSimplexColor, true);
    }
    const double length = glm::length(it.direction);
    if (length > 0.0)
        canvas.arrow(origin, differencePoint(origin, 0.6 * it.direction / length), kNormalColor, true);
    canvas.arrow(origin, differencePoint(origin, it.v), kClosestColor, true);
    canvas.cross(differencePoint(origin, it.w), kSupportColor);
    canvas.cross(glm::vec3(it.supportA), kSupportColor);
    canvas.cross(glm::vec3(it.supportB), kSupportColor);
    canvas.line(glm::vec3(it.supportB), glm::vec3(it.supportA), kSupportColor, true);
}

void panelSteps(LabView& view, const LabResult& result) {
    ImGui::TextWrapped("GJK walks a simplex (1 to 4 points, yellow) of the cores' difference A - B (drawn "
                       "above, the white cross its origin) toward the origin. Each support point w along "
                       "the search direction (cyan) raises the lower bound; the simplex with w, cut to the "
                       "part nearest the origin, gives v (white) and the upper bound |v|. The radii of "
                       "spheres and capsules are added at the end.");
    if (!result.trace.gjk || result.trace.gjk->iterations.empty()) return;
    const GjkTrace& trace = *result.trace.gjk;
    const int count = int(trace.iterations.size());
    convexStepSlider(view, count);
    const GjkIteration& it = trace.iterations[std::size_t(convexStep(view, count))];
    ImGui::Text("w = %.3f %.3f %.3f", it.w.x, it.w.y, it.w.z);
    ImGui::Text("bounds: %.5f <= core distance <= %.5f", it.lowerBound, it.upperBound);
    if (it.updated) {
        ImGui::Text("simplex of %zu: kept %zu of the %zu with w", it.simplex.size(), it.kept.size(),
                    it.tried.size());
    } else {
        ImGui::Text("stopped before solving the simplex with w");
    }
    ImGui::Text("stopped: %s after %d", std::string(gjkStatusName(trace.status)).c_str(), count);
}

Json resultJson(const GjkResult& r) {
    return Json{{"overlap", r.overlap},
                {"distance", number(r.distance)},
                {"point_a", vec(r.pointA)},
                {"point_b", vec(r.pointB)}};
}

Json explainResult(const ExplainInput& in) {
    return resultJson(closestPtConvexConvex(explainConvex(*in.a), explainConvex(in.b)));
}

/// The trace's result is closestPtConvexConvex's, bit for bit: the output's "result".
void explainSteps(const ExplainInput& in, Json& out) {
    addKeys(gjkTraceJson(explainGjk(explainConvex(*in.a), explainConvex(in.b))), out, "result");
}

} // namespace gjk_unit
} // namespace

extern const LabQueryUnit kGjkQuery{
    .name = "gjk",
    .idea = "The general algorithm: any two convex shapes' distance and closest points from their support "
            "functions alone (GJK).",
    .controls = kPairControls,
    .place = gjk_unit::placeQuery,
    .run = gjk_unit::runQuery,
    .trace = gjk_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Simplex),
    .drawAnswer = gjk_unit::drawAnswer,
    .drawSteps = gjk_unit::drawSteps,
    .panelSteps = gjk_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Convex, ExplainShapeKind::Convex),
    .explainResult = gjk_unit::explainResult,
    .explainSteps = gjk_unit::explainSteps,
    .anyConvexShape = true,
};

} // namespace kz
