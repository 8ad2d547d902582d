// ray-convex: a ray against any convex shape from its support function alone: the GJK ray cast
// (van den Bergen 2004) advances a point along the ray to the support plane facing it until the
// point touches the shape.
#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/queries/parts.hpp"
#include "geom/gjk.hpp"

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

void placeQuery(LabScene& scene) {
    scene.shapes.push_back(
        cylinder("cylinder", {0.2f, 0.0f, 0.0f}, 0.7f, 0.8f, eulerDeg(20.0f, 0.0f, 55.0f), kColorB));
    addRay(scene);
}

LabResult runQuery(const LabScene& scene) {
    LabResult result = rayResult(raycast(labRay(scene), labConvex(shapeA(scene)), 1.0f));
    const ConvexRayCast cast = raycastConvex(labRay(scene), labConvex(shapeA(scene)), 1.0f);
    result.numbers.push_back({"iterations", static_cast<float>(cast.iterations)});
    return result;
}

void traceQuery(const LabScene&, LabTrace&) {}

void drawSteps(const LabScene&, const LabResult&, const LabView&, LabCanvas&) {}

void panelSteps(LabView&, const LabResult&) {
    ImGui::TextWrapped("The ray cast moves a point x from the ray's origin: each support point of the shape "
                       "along x - v (v: the shape's point nearest x) gives a plane the ray may not cross "
                       "before touching the shape, and x jumps to where the ray meets it. It stops when x "
                       "is on the shape (a hit) or the plane faces away (a miss).");
}

Json explainResult(const ExplainInput& in) {
    return rayHit(raycast(*in.ray, explainConvex(in.b), in.rayTMax));
}

void explainSteps(const ExplainInput& in, Json& out) {
    const ConvexRayCast cast = raycastConvex(*in.ray, explainConvex(in.b), in.rayTMax);
    out["iteration_count"] = cast.iterations;
    out["t_max"] = number(in.rayTMax);
}

} // namespace

extern const LabQueryUnit kRayConvexQuery{
    .name = "ray-convex",
    .idea = "A ray against any convex shape through its support function: the GJK ray cast.",
    .controls = kRayControls,
    .place = placeQuery,
    .run = runQuery,
    .trace = traceQuery,
    .layers = 0,
    .drawAnswer = drawRay,
    .drawSteps = drawSteps,
    .panelSteps = panelSteps,
    .explainNeeds = explainRayNeeds(ExplainShapeKind::Convex),
    .explainResult = explainResult,
    .explainSteps = explainSteps,
};

} // namespace kz
