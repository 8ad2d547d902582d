// box-plane, the demo's walls (seed 3): the box's 8 turned corners not all in one half-space.
#include "app/lab/queries/parts.hpp"
#include "app/lab/queries/trace_json.hpp"
#include "geom/contact.hpp"
#include "geom/explain_contact.hpp"
#include "geom/overlap.hpp"
#include "geom/plane.hpp"

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace box_plane_unit {

void placeQuery(LabScene& scene) {
    scene.shapes = {box("A", {0.0f, 0.5f, 0.0f}, {0.6f, 0.4f, 0.5f}, eulerDeg(20, 30, 25), kColorA),
                    meshShape(LabShapeKind::Plane, "B", {0.0f, -0.5f, 0.0f}, eulerDeg(10, 0, 0), kColorB)};
}

/// The seed's test: the box's 8 corners not all on one side (testObbPlane's projected radius);
/// the contact is then its corners behind the plane.
LabResult runQuery(const LabScene& scene) {
    const Obb a = labObb(shapeA(scene));
    const Plane b = labPlane(shapeB(scene));
    LabResult result = pairResult(testObbPlane(a, b) ? contactObbPlane(a, b) : std::nullopt);
    if (result.positive) return result;
    // Apart: the corner nearest the plane, on the centre's side, and its foot on the plane.
    const float side = signedDistance(b, a.center) >= 0.0f ? 1.0f : -1.0f;
    glm::vec3 corner = a.center;
    for (int i = 0; i < 3; ++i) {
        const float along = glm::dot(a.axes[i], b.normal) >= 0.0f ? 1.0f : -1.0f;
        corner -= side * along * a.half[i] * a.axes[i];
    }
    addGap(result, corner, corner - signedDistance(b, corner) * b.normal);
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty()) out.boxPlane = explainObbPlane(labObb(shapeA(scene)), labPlane(shapeB(scene)));
}

/// Each corner's signed distance as a stroke to the plane, by its sign.
void drawSteps(const LabScene&, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.boxPlane || !view.show(LabLayer::Distances)) return;
    const ObbPlaneTrace& trace = *result.trace.boxPlane;
    if (!trace.valid) return;
    for (std::size_t i = 0; i < 8; ++i) {
        const glm::vec3& corner = trace.corners[i];
        const glm::vec3 foot = corner - trace.distance[i] * trace.normal;
        const bool touching = trace.distance[i] <= 0.0f;
        const glm::vec3 color = touching ? kLabCornerTouchingColor : kLabCornerFrontColor;
        canvas.line(corner, foot, color, true);
        canvas.cross(foot, color);
    }
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.boxPlane || !result.trace.boxPlane->valid) return;
    const ObbPlaneTrace& t = *result.trace.boxPlane;
    ImGui::TextDisabled("signed distance n.p + d per corner (unit n)");
    for (int i = 0; i < 8; ++i) {
        const float d = t.distance[std::size_t(i)];
        ImGui::TextColored(imColor(d <= 0.0f ? kLabCornerTouchingColor : kLabCornerFrontColor),
                           "corner %c%c%c %+.3f", i & 1 ? '+' : '-', i & 2 ? '+' : '-', i & 4 ? '+' : '-',
                           double(d));
        if (i % 2 == 0) ImGui::SameLine();
    }
    verdictText(t.touchingCount > 0, "%d corners at or behind the plane%s", t.touchingCount,
                t.touchingCount > 4 ? ": the deepest 4 kept" : "");
}

Json explainResult(const ExplainInput& in) {
    return Json{{"overlap", testObbPlane(in.a->box, in.b.plane)},
                {"contact", manifold(contactObbPlane(in.a->box, in.b.plane))}};
}

void explainSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainObbPlane(input.a->box, input.b.plane)), out);
}

} // namespace box_plane_unit
} // namespace

extern const LabQueryUnit kBoxPlaneQuery{
    .name = "box-plane",
    .idea = "The demo's walls (seed 3): a box meets a plane when its 8 turned corners do not all lie in one "
            "half-space.",
    .controls = kPairControls,
    .place = box_plane_unit::placeQuery,
    .run = box_plane_unit::runQuery,
    .trace = box_plane_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Distances),
    .drawAnswer = drawPair,
    .drawSteps = box_plane_unit::drawSteps,
    .panelSteps = box_plane_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Box, ExplainShapeKind::Plane),
    .explainResult = box_plane_unit::explainResult,
    .explainSteps = box_plane_unit::explainSteps,
};

} // namespace kz
