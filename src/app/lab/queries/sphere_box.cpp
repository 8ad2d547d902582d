// sphere-box (seed 3): the box's point closest to the centre, clamped in the box's frame, and the
// region of the box it lies on.
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
namespace sphere_box_unit {

void placeQuery(LabScene& scene) {
    scene.shapes = {sphere("A", {-1.3f, 0.25f, 0.0f}, 0.7f, kColorA),
                    box("B", {0.6f, -0.1f, 0.0f}, {0.6f, 0.5f, 0.55f}, eulerDeg(10, 35, 20), kColorB)};
}

LabResult runQuery(const LabScene& scene) {
    const Sphere a = labSphere(shapeA(scene));
    const Obb b = labObb(shapeB(scene));
    return sphereResult(a, contactSphereObb(a, b), closestPtPointObb(a.center, b));
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty())
        out.sphereBox = explainSphereObb(labSphere(shapeA(scene)), labObb(shapeB(scene)));
}

/// The feature (face, edge, corner) the closest point lies on.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!view.show(LabLayer::Feature) || scene.shapes.size() < 2) return;
    if (const auto& trace = result.trace.sphereBox;
        trace && trace->valid && trace->region != BoxRegion::Inside) {
        const glm::bvec3 fixed = glm::greaterThan(trace->excess, glm::vec3(0.0f));
        const glm::vec3 sign = glm::sign(trace->centreInBox);
        boxFeature(canvas, labObb(scene.shapes[1]), fixed, sign);
    }
}

const char* regionName(BoxRegion region) {
    static constexpr const char* kNames[] = {"inside the box", "a face", "an edge", "a corner"};
    return kNames[static_cast<int>(region)];
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.sphereBox || !result.trace.sphereBox->valid) return;
    const SphereObbTrace& t = *result.trace.sphereBox;
    ImGui::Text("centre in box frame %.3f %.3f %.3f", double(t.centreInBox.x), double(t.centreInBox.y),
                double(t.centreInBox.z));
    ImGui::Text("excess |c| - half: %.3f %.3f %.3f", double(t.excess.x), double(t.excess.y),
                double(t.excess.z));
    ImGui::Text("closest point on %s (outside %d slabs)", regionName(t.region), static_cast<int>(t.region));
    verdictText(t.overlap, "distance |c - q| = %.3f %s r", double(t.distance), t.overlap ? "<=" : ">");
}

Json explainResult(const ExplainInput& in) {
    // "overlap" is whether the contact exists, as the trace's (explainSphereObb) is.
    const Sphere& a = in.a->sphere;
    return sphereGap(a, closestPtPointObb(a.center, in.b.box), contactSphereObb(a, in.b.box));
}

void explainSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainSphereObb(input.a->sphere, input.b.box)), out);
}

} // namespace sphere_box_unit
} // namespace

extern const LabQueryUnit kSphereBoxQuery{
    .name = "sphere-box",
    .idea = "Sphere against box (seed 3): the box's point closest to the centre (clamped in the box's frame) "
            "lies within r.",
    .controls = kPairControls,
    .place = sphere_box_unit::placeQuery,
    .run = sphere_box_unit::runQuery,
    .trace = sphere_box_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Feature),
    .drawAnswer = drawPair,
    .drawSteps = sphere_box_unit::drawSteps,
    .panelSteps = sphere_box_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Sphere, ExplainShapeKind::Box),
    .explainResult = sphere_box_unit::explainResult,
    .explainSteps = sphere_box_unit::explainSteps,
};

} // namespace kz
