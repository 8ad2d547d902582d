// ray-convex: a ray against any convex shape from its support function alone: the GJK ray cast
// (van den Bergen 2004) advances a point along the ray to the support plane facing it until the
// point touches the shape.
#include "app/lab/queries/convex_json.hpp"
#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/queries/parts.hpp"
#include "geom/explain_gjk.hpp"
#include "geom/gjk.hpp"

#include <string>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace ray_convex_unit {

void placeQuery(LabScene& scene) {
    scene.shapes.push_back(
        cylinder("B", {0.2f, 0.0f, 0.0f}, 0.7f, 0.8f, eulerDeg(20.0f, 0.0f, 55.0f), kColorB));
    addRay(scene);
}

LabResult runQuery(const LabScene& scene) {
    LabResult result = rayResult(raycast(labRay(scene), labConvex(shapeA(scene)), 1.0f));
    const ConvexRayCast cast = raycastConvex(labRay(scene), labConvex(shapeA(scene)), 1.0f);
    result.numbers.push_back({"iterations", static_cast<float>(cast.iterations)});
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    out.rayConvex = explainRaycastConvex(labRay(scene), labConvex(shapeA(scene)), 1.0f);
}

/// The point x after each iteration up to the chosen one (crosses along the ray), and the chosen
/// iteration's support point with the segment from x to it.
void drawSteps(const LabScene&, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.rayConvex || !view.show(LabLayer::RaySteps)) return;
    const RayCastTrace& trace = *result.trace.rayConvex;
    if (trace.iterations.empty()) return;
    const int chosen = convexStep(view, int(trace.iterations.size()));
    for (int i = 0; i <= chosen; ++i)
        canvas.cross(glm::vec3(trace.iterations[std::size_t(i)].x),
                     i == chosen ? kSimplexColor : kCandidateColor);
    const RayCastIteration& it = trace.iterations[std::size_t(chosen)];
    canvas.cross(glm::vec3(it.support), kSupportColor);
    canvas.line(glm::vec3(it.x), glm::vec3(it.support), kSupportColor, true);
}

void panelSteps(LabView& view, const LabResult& result) {
    ImGui::TextWrapped("The ray cast moves a point x from the ray's origin: each support point of the shape "
                       "along x - v (v: the shape's point nearest x) gives a plane the ray may not cross "
                       "before touching the shape, and x jumps to where the ray meets it. It stops when x "
                       "is on the shape (a hit) or the plane faces away (a miss).");
    if (!result.trace.rayConvex || result.trace.rayConvex->iterations.empty()) return;
    const RayCastTrace& trace = *result.trace.rayConvex;
    const int count = int(trace.iterations.size());
    convexStepSlider(view, count);
    const RayCastIteration& it = trace.iterations[std::size_t(convexStep(view, count))];
    ImGui::Text("t = %.5f; x above the support plane by %.5f", it.t, it.planeHeight);
    ImGui::Text("x's distance to the core: %.5f", it.distance);
    ImGui::Text("stopped: %s after %d", std::string(rayCastStatusName(trace.result.status)).c_str(), count);
}

Json explainResult(const ExplainInput& in) {
    return rayHit(raycast(*in.ray, explainConvex(in.b), in.rayTMax));
}

void explainSteps(const ExplainInput& in, Json& out) {
    addKeys(rayCastTraceJson(explainRaycastConvex(*in.ray, explainConvex(in.b), in.rayTMax)), out, "result");
    out["t_max"] = number(in.rayTMax);
}

} // namespace ray_convex_unit
} // namespace

extern const LabQueryUnit kRayConvexQuery{
    .name = "ray-convex",
    .idea = "A ray against any convex shape through its support function: the GJK ray cast.",
    .controls = kRayControls,
    .place = ray_convex_unit::placeQuery,
    .run = ray_convex_unit::runQuery,
    .trace = ray_convex_unit::traceQuery,
    .layers = labLayerBit(LabLayer::RaySteps),
    .drawAnswer = drawRay,
    .drawSteps = ray_convex_unit::drawSteps,
    .panelSteps = ray_convex_unit::panelSteps,
    .explainNeeds = explainRayNeeds(ExplainShapeKind::Convex),
    .explainResult = ray_convex_unit::explainResult,
    .explainSteps = ray_convex_unit::explainSteps,
    .anyConvexShape = true,
};

} // namespace kz
