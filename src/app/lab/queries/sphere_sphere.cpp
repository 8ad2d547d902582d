// sphere-sphere, the bouncing balls (seed 3): the centre line, the one axis that can separate them.
#include "app/lab/queries/parts.hpp"
#include "geom/contact.hpp"
#include "geom/explain_contact.hpp"
#include "geom/overlap.hpp"

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace sphere_sphere_unit {

void placeQuery(LabScene& scene) {
    scene.shapes = {sphere("A", {-1.1f, 0.2f, 0.1f}, 0.75f, kColorA),
                    sphere("B", {0.8f, -0.1f, -0.1f}, 0.9f, kColorB)};
}

LabResult runQuery(const LabScene& scene) {
    const Sphere a = labSphere(shapeA(scene)), b = labSphere(shapeB(scene));
    return sphereResult(a, contactSphereSphere(a, b), towardOf(b, a.center));
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty())
        out.sphereSphere = explainSphereSphere(labSphere(shapeA(scene)), labSphere(shapeB(scene)));
}

/// The centre line, both radii as bars on it, the gap or overlap.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.sphereSphere || !view.show(LabLayer::SatAxis) || scene.shapes.size() < 2) return;
    const SphereSphereTrace& trace = *result.trace.sphereSphere;
    if (!trace.valid || !(trace.distance > 0.0f)) return; // concentric: no line
    // Along the centre line from A toward B: A is [-rA, rA] about 0, B [d - rB, d + rB].
    const Sphere a = labSphere(scene.shapes[0]), b = labSphere(scene.shapes[1]);
    const glm::vec3 n = -trace.offset / trace.distance;
    intervalsOnAxis(canvas, a.center, n, {-a.radius, a.radius},
                    {trace.distance - b.radius, trace.distance + b.radius}, !trace.overlap);
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.sphereSphere || !result.trace.sphereSphere->valid) return;
    const SphereSphereTrace& t = *result.trace.sphereSphere;
    ImGui::TextDisabled("the centre line: the one axis that can");
    ImGui::TextDisabled("separate two spheres");
    verdictText(t.overlap, "|cA - cB|^2 = %.4f %s (rA + rB)^2 = %.4f", double(t.distanceSq),
                t.overlap ? "<=" : ">", double(t.radiusSum * t.radiusSum));
    verdictText(t.overlap, "separation = distance - (rA + rB)\n  = %.3f - %.3f = %+.3f", double(t.distance),
                double(t.radiusSum), double(t.separation));
}

Json explainResult(const ExplainInput& in) {
    const Sphere& a = in.a->sphere;
    const Sphere& b = in.b.sphere;
    return Json{{"overlap", testSphereSphere(a, b)},
                {"distance", number(glm::length(a.center - b.center) - a.radius - b.radius)},
                {"contact", manifold(contactSphereSphere(a, b))}};
}

/// Centre distance, radius sum and separation: |ca - cb| <= ra + rb, which the query compares
/// squared.
void explainSteps(const ExplainInput& input, Json& out) {
    const SphereSphereTrace t = explainSphereSphere(input.a->sphere, input.b.sphere);
    out["centre_offset"] = vec(t.offset);
    out["centre_distance"] = number(t.distance);
    out["radius_a"] = number(input.a->sphere.radius);
    out["radius_b"] = number(input.b.sphere.radius);
    out["radius_sum"] = number(t.radiusSum);
    out["separation"] = number(t.separation);
    out["overlap"] = t.overlap;
}

} // namespace sphere_sphere_unit
} // namespace

extern const LabQueryUnit kSphereSphereQuery{
    .name = "sphere-sphere",
    .idea = "Bouncing balls (seed 3): two spheres meet when the distance between their centres is at most "
            "r1 + r2; the depth is what is left.",
    .controls = kPairControls,
    .place = sphere_sphere_unit::placeQuery,
    .run = sphere_sphere_unit::runQuery,
    .trace = sphere_sphere_unit::traceQuery,
    .layers = labLayerBit(LabLayer::SatAxis),
    .drawAnswer = drawPair,
    .drawSteps = sphere_sphere_unit::drawSteps,
    .panelSteps = sphere_sphere_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Sphere, ExplainShapeKind::Sphere),
    .explainResult = sphere_sphere_unit::explainResult,
    .explainSteps = sphere_sphere_unit::explainSteps,
};

} // namespace kz
