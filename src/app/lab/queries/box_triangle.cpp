// box-triangle, boxes on meshes: the triangle's normal, the box's 3 faces and the 9 edge products
// as separating axes (Akenine-Moller), then the features tried for the contact.
#include "app/lab/queries/parts.hpp"
#include "app/lab/queries/trace_json.hpp"
#include "geom/contact.hpp"
#include "geom/explain_contact.hpp"
#include "geom/overlap.hpp"

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace box_triangle_unit {

void placeQuery(LabScene& scene) {
    scene.shapes = {box("A", {-0.45f, 0.25f, 0.35f}, {0.5f, 0.4f, 0.45f}, eulerDeg(25, 20, 15), kColorA),
                    meshShape(LabShapeKind::Triangle, "B", {0.7f, 0.0f, 0.0f}, eulerDeg(0, -40, 0), kColorB)};
}

LabResult runQuery(const LabScene& scene) {
    const Obb a = labObb(shapeA(scene));
    const Triangle b = labTriangle(shapeB(scene));
    return separatedResult(contactObbTriangle(a, b), separationObbTriangle(a, b));
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty())
        out.boxTriangle = explainObbTriangle(labObb(shapeA(scene)), labTriangle(shapeB(scene)));
}

/// The chosen of the 13 axes, the box's and the triangle's projected intervals on it.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.boxTriangle || !view.show(LabLayer::SatAxis) || scene.shapes.empty()) return;
    const ObbTriangleTrace& trace = *result.trace.boxTriangle;
    if (!trace.valid) return;
    const ObbTriangleAxis& axis = trace.axes[std::size_t(labBoxTriangleAxis(trace, view))];
    if (axis.skipped || glm::dot(axis.axis, axis.axis) == 0.0f) return;
    // From the box centre along the axis: the box is [-r, r], the triangle [min, max] behind it.
    intervalsOnAxis(canvas, scene.shapes[0].position, axis.axis, {-axis.boxRadius, axis.boxRadius},
                    {axis.triangleMin, axis.triangleMax}, axis.separation > 0.0f);
}

const char* triangleAxisKind(ObbTriangleAxisKind kind) {
    return kind == ObbTriangleAxisKind::TriangleNormal ? "tri normal"
           : kind == ObbTriangleAxisKind::BoxFace      ? "box face"
                                                       : "edge";
}

/// The 13 axes: kind, the box's radius, the triangle's interval, the separation; a click draws one.
void axisTable(LabView& view, const ObbTriangleTrace& trace, int drawn) {
    if (!beginAxisTable("sat13", {"axis", "r box", "triangle", "separation"})) return;
    for (int i = 0; i < 13; ++i) {
        const ObbTriangleAxis& axis = trace.axes[std::size_t(i)];
        axisRow(view, i, triangleAxisKind(axis.kind), drawn, trace.largestAxis);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", double(axis.boxRadius));
        ImGui::TableNextColumn();
        ImGui::Text("[%.2f, %.2f]", double(axis.triangleMin), double(axis.triangleMax));
        ImGui::TableNextColumn();
        if (axis.skipped) {
            ImGui::TextDisabled("skipped (||)");
        } else {
            verdictText(axis.separation <= 0.0f, "%+.3f", double(axis.separation));
        }
    }
    ImGui::EndTable();
}

/// The axis table, the drawn axis's equation, the verdict and the features tried.
void panelSteps(LabView& view, const LabResult& result) {
    if (!result.trace.boxTriangle || !result.trace.boxTriangle->valid) return;
    const ObbTriangleTrace& trace = *result.trace.boxTriangle;
    const int drawn = labBoxTriangleAxis(trace, view);
    axisTable(view, trace, drawn);
    const ObbTriangleAxis& axis = trace.axes[std::size_t(drawn)];
    if (!axis.skipped) {
        verdictText(axis.separation <= 0.0f, "axis %d: separation = -max - r\n  = %.3f - %.3f = %+.3f", drawn,
                    double(-axis.triangleMax), double(axis.boxRadius), double(axis.separation));
    }
    if (!trace.overlap) {
        verdictText(false, "axis %d separates them", trace.largestAxis);
        return;
    }
    verdictText(true, "no axis separates: least penetration on axis %d", trace.largestAxis);
    static constexpr const char* kFeatures[] = {"triangle face", "box face", "edge pair"};
    for (int slot = 0; slot < 3; ++slot) {
        const int points = trace.pointCount[std::size_t(slot)];
        if (points < 0) break;
        ImGui::Text("%d. %s: %d point%s", slot + 1,
                    kFeatures[static_cast<int>(trace.order[std::size_t(slot)])], points,
                    points == 1 ? "" : "s");
    }
}

Json explainResult(const ExplainInput& in) {
    // The separating-axis verdict, as box-box's and the trace's (explainObbTriangle) are: the
    // contact can still be null when no feature clips to a point (rare: a touch within rounding).
    const float separation = separationObbTriangle(in.a->box, in.b.triangle);
    return Json{{"overlap", separation <= 0.0f},
                {"separation", number(separation)},
                {"contact", manifold(contactObbTriangle(in.a->box, in.b.triangle))}};
}

void explainSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainObbTriangle(input.a->box, input.b.triangle)), out);
}

} // namespace box_triangle_unit
} // namespace

extern const LabQueryUnit kBoxTriangleQuery{
    .name = "box-triangle",
    .idea = "Boxes on meshes: the triangle's normal, the box's 3 faces and the 9 edge products are the "
            "separating axes (Akenine-Moller).",
    .controls = kPairControls,
    .place = box_triangle_unit::placeQuery,
    .run = box_triangle_unit::runQuery,
    .trace = box_triangle_unit::traceQuery,
    .layers = labLayerBit(LabLayer::SatAxis),
    .drawAnswer = drawPair,
    .drawSteps = box_triangle_unit::drawSteps,
    .panelSteps = box_triangle_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Box, ExplainShapeKind::Triangle),
    .explainResult = box_triangle_unit::explainResult,
    .explainSteps = box_triangle_unit::explainSteps,
};

} // namespace kz
