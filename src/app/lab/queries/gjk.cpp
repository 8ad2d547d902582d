// gjk, the general algorithm: the distance and closest points of any two convex shapes, found by
// GJK on their support functions (Gilbert, Johnson, Keerthi 1988; signed volumes, Montanari,
// Petrinic, Barbieri 2017).
#include "geom/gjk.hpp"

#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/queries/parts.hpp"

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

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

void traceQuery(const LabScene&, LabTrace&) {}

/// The closest points and the segment between them, in the verdict's colour.
void drawAnswer(const LabScene&, const LabResult& result, LabCanvas& canvas) {
    if (!result.closest) return;
    const glm::vec3 verdict = result.positive ? kLabPositive : kLabNegative;
    canvas.cross(result.closest->first, verdict);
    canvas.cross(result.closest->second, verdict);
    canvas.line(result.closest->first, result.closest->second, verdict, true);
}

void drawSteps(const LabScene&, const LabResult&, const LabView&, LabCanvas&) {}

void panelSteps(LabView&, const LabResult& result) {
    ImGui::TextWrapped("GJK walks a simplex (1 to 4 points) of the Minkowski difference A - B toward the "
                       "origin: each support point along -v lowers the upper bound |v| and raises the "
                       "lower bound v.w/|v| until they meet. The distance between the shapes is the "
                       "difference's distance to the origin.");
    if (!result.closest) return;
    ImGui::Text("closest on A %.3f %.3f %.3f", double(result.closest->first.x),
                double(result.closest->first.y), double(result.closest->first.z));
    ImGui::Text("closest on B %.3f %.3f %.3f", double(result.closest->second.x),
                double(result.closest->second.y), double(result.closest->second.z));
}

Json explainResult(const ExplainInput& in) {
    const GjkResult r = closestPtConvexConvex(explainConvex(*in.a), explainConvex(in.b));
    return Json{{"overlap", r.overlap},
                {"distance", number(r.distance)},
                {"point_a", vec(r.pointA)},
                {"point_b", vec(r.pointB)}};
}

void explainSteps(const ExplainInput& in, Json& out) {
    const GjkResult r = closestPtConvexConvex(explainConvex(*in.a), explainConvex(in.b));
    out["lower_bound"] = number(r.lowerBound);
    out["iteration_count"] = r.iterations;
}

} // namespace

extern const LabQueryUnit kGjkQuery{
    .name = "gjk",
    .idea = "The general algorithm: any two convex shapes' distance and closest points from their support "
            "functions alone (GJK).",
    .controls = kPairControls,
    .place = placeQuery,
    .run = runQuery,
    .trace = traceQuery,
    .layers = 0,
    .drawAnswer = drawAnswer,
    .drawSteps = drawSteps,
    .panelSteps = panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Convex, ExplainShapeKind::Convex),
    .explainResult = explainResult,
    .explainSteps = explainSteps,
};

} // namespace kz
