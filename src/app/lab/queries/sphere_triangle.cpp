// sphere-triangle, walking a camera through a level (seed 2): the triangle's point closest to the
// centre (its Voronoi region), within r; pushed out along the normal by r - distance.
#include "app/lab/queries/parts.hpp"
#include "app/lab/queries/trace_json.hpp"
#include "geom/closest.hpp"
#include "geom/contact.hpp"
#include "geom/explain_contact.hpp"

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace sphere_triangle_unit {

void placeQuery(LabScene& scene) {
    scene.shapes = {sphere("A", {-0.35f, 0.2f, 0.3f}, 0.6f, kColorA),
                    meshShape(LabShapeKind::Triangle, "B", {0.7f, 0.0f, 0.0f}, eulerDeg(0, -40, 0), kColorB)};
}

LabResult runQuery(const LabScene& scene) {
    const Sphere a = labSphere(shapeA(scene));
    const Triangle b = labTriangle(shapeB(scene));
    return sphereResult(a, contactSphereTriangle(a, b), closestPtPointTriangle(a.center, b));
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty())
        out.sphereTriangle = explainSphereTriangle(labSphere(shapeA(scene)), labTriangle(shapeB(scene)));
}

/// The feature (vertex, edge, face) the closest point lies on.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!view.show(LabLayer::Feature) || scene.shapes.size() < 2) return;
    if (const auto& trace = result.trace.sphereTriangle; trace && trace->valid) {
        const auto feature = static_cast<int>(trace->closestPoint.feature);
        triangleFeature(canvas, labTriangle(scene.shapes[1]), feature <= 2 ? feature : -1,
                        feature >= 3 && feature <= 5 ? feature - 3 : -1,
                        trace->closestPoint.feature == TriangleFeature::Face);
    }
}

const char* featureName(TriangleFeature feature) {
    static constexpr const char* kNames[] = {"vertex a", "vertex b", "vertex c", "edge ab",
                                             "edge bc",  "edge ca",  "the face"};
    return kNames[static_cast<int>(feature)];
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.sphereTriangle || !result.trace.sphereTriangle->valid) return;
    const SphereTriangleTrace& t = *result.trace.sphereTriangle;
    const PointTriangleTrace& p = t.closestPoint;
    ImGui::Text("Voronoi region: %s%s", featureName(p.feature), p.sliver ? " (a sliver)" : "");
    ImGui::Text("d1..d%d:", p.dComputed);
    for (int i = 0; i < p.dComputed; ++i) {
        ImGui::SameLine();
        ImGui::Text("%.2f", p.d[std::size_t(i)]);
    }
    verdictText(t.overlap, "distance |c - q| = %.3f (%s r)", double(t.distance), t.overlap ? "<=" : ">");
}

Json explainResult(const ExplainInput& in) {
    const Sphere& a = in.a->sphere;
    return sphereGap(a, closestPtPointTriangle(a.center, in.b.triangle),
                     contactSphereTriangle(a, in.b.triangle));
}

void explainSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainSphereTriangle(input.a->sphere, input.b.triangle)), out);
}

} // namespace sphere_triangle_unit
} // namespace

extern const LabQueryUnit kSphereTriangleQuery{
    .name = "sphere-triangle",
    .idea = "Walking a camera through a level (seed 2): the sphere against the polygon's plane, then its "
            "edges; push out along the normal by r - distance.",
    .controls = kPairControls,
    .place = sphere_triangle_unit::placeQuery,
    .run = sphere_triangle_unit::runQuery,
    .trace = sphere_triangle_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Feature),
    .drawAnswer = drawPair,
    .drawSteps = sphere_triangle_unit::drawSteps,
    .panelSteps = sphere_triangle_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Sphere, ExplainShapeKind::Triangle),
    .explainResult = sphere_triangle_unit::explainResult,
    .explainSteps = sphere_triangle_unit::explainSteps,
};

} // namespace kz
