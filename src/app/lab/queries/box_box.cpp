// box-box (seed 3, 5): the 15 separating axes; overlapping, the manifold's construction (the
// reference and incident faces, the clipped polygon, the kept points).
#include "app/lab/queries/parts.hpp"
#include "app/lab/queries/trace_json.hpp"
#include "geom/contact.hpp"
#include "geom/explain_contact.hpp"
#include "geom/overlap.hpp"

#include <cstdio>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace box_box_unit {

constexpr glm::vec3 kClippedColor{1.0f, 0.35f, 0.9f};
constexpr glm::vec3 kIncidentColor{0.6f, 0.4f, 0.6f};

void placeQuery(LabScene& scene) {
    scene.shapes = {box("A", {-1.0f, 0.2f, 0.1f}, {0.65f, 0.45f, 0.5f}, eulerDeg(15, 25, 30), kColorA),
                    box("B", {0.85f, -0.15f, -0.1f}, {0.55f, 0.55f, 0.55f}, eulerDeg(-20, 40, -15), kColorB)};
}

LabResult runQuery(const LabScene& scene) {
    const Obb a = labObb(shapeA(scene)), b = labObb(shapeB(scene));
    return separatedResult(contactObbObb(a, b), separationObbObb(a, b));
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty()) out.boxBox = explainObbObb(labObb(shapeA(scene)), labObb(shapeB(scene)));
}

/// The manifold's construction: the two edges and their closest points, or the incident face,
/// its clipped polygon, the kept points and the reference face's normal.
void drawManifoldSteps(const ObbManifoldTrace& m, LabCanvas& canvas) {
    if (m.usedEdge && m.edgeClosest) {
        canvas.line(m.segmentA[0], m.segmentA[1], kLabIntervalAColor, true);
        canvas.line(m.segmentB[0], m.segmentB[1], kLabIntervalBColor, true);
        canvas.line(m.edgeClosest->p1, m.edgeClosest->p2, kClippedColor, true);
        return;
    }
    if (m.referenceBox < 0) return;
    loop(canvas, m.incidentFace.data(), 4, kIncidentColor, true);
    loop(canvas, m.clipped.data(), m.clippedCount, kClippedColor, true);
    glm::vec3 mean(0.0f);
    for (int i = 0; i < m.keptCount; ++i) {
        const glm::vec3& p = m.kept[std::size_t(i)].position;
        canvas.circle(p, canvas.eye - p, 1.5f * canvas.markerSize(p), kClippedColor, true);
        mean += p / float(m.keptCount);
    }
    if (m.keptCount > 0) canvas.arrow(mean, mean + 0.4f * m.referenceNormal, kIntervalColor, true);
}

/// The chosen axis through A's centre, A's and B's projected intervals as bars beside it, the gap
/// (apart) or the overlap on it; overlapping, the manifold's construction.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.boxBox || scene.shapes.size() < 2) return;
    const ObbObbTrace& trace = *result.trace.boxBox;
    if (!trace.valid) return;
    if (trace.overlap && view.show(LabLayer::Manifold)) drawManifoldSteps(trace.manifold, canvas);
    const SatAxis& axis = trace.axes[std::size_t(labSatAxis(trace, view))];
    if (!view.show(LabLayer::SatAxis) || axis.degenerate || glm::dot(axis.axis, axis.axis) == 0.0f) return;
    // Along the axis from A's centre: A's interval is [-rA, rA], B's is [d - rB, d + rB].
    const glm::vec3 cA = scene.shapes[0].position, n = axis.axis;
    const float d = glm::dot(n, scene.shapes[1].position - cA);
    intervalsOnAxis(canvas, cA, n, {-axis.radiusA, axis.radiusA}, {d - axis.radiusB, d + axis.radiusB},
                    axis.separation > 0.0f);
}

const char* satKind(SatAxisKind kind) {
    return kind == SatAxisKind::FaceA ? "face A" : kind == SatAxisKind::FaceB ? "face B" : "edge";
}

/// The 15 axes: kind, distance, radii, separation; a click draws that axis.
void axisTable(LabView& view, const ObbObbTrace& trace, int drawn) {
    const int verdictAxis = trace.overlap ? trace.leastPenetrationAxis : trace.separatingAxis;
    if (!beginAxisTable("sat", {"axis", "distance", "rA", "rB", "separation"})) return;
    for (int i = 0; i < 15; ++i) {
        const SatAxis& axis = trace.axes[std::size_t(i)];
        axisRow(view, i, satKind(axis.kind), drawn, verdictAxis);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", double(axis.distance));
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", double(axis.radiusA));
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", double(axis.radiusB));
        ImGui::TableNextColumn();
        verdictText(axis.separation <= 0.0f, "%+.3f%s", double(axis.separation),
                    axis.degenerate ? " (||)" : "");
    }
    ImGui::EndTable();
}

/// The axis table, the drawn axis's equation, the verdict and the manifold's construction.
void panelSteps(LabView& view, const LabResult& result) {
    if (!result.trace.boxBox || !result.trace.boxBox->valid) return;
    const ObbObbTrace& trace = *result.trace.boxBox;
    const int drawn = labSatAxis(trace, view);
    axisTable(view, trace, drawn);
    const SatAxis& axis = trace.axes[std::size_t(drawn)];
    ImGui::Text("axis %d (%s):", drawn, satKind(axis.kind));
    verdictText(axis.separation <= 0.0f, "separation = distance - rA - rB\n  = %.3f - %.3f - %.3f = %+.3f",
                double(axis.distance), double(axis.radiusA), double(axis.radiusB), double(axis.separation));
    if (!trace.overlap) {
        verdictText(false, "axis %d separates them (gap, green on the axis)", trace.separatingAxis);
        return;
    }
    verdictText(true, "no axis separates: least penetration on axis %d", trace.leastPenetrationAxis);
    const ObbManifoldTrace& m = trace.manifold;
    if (m.usedEdge) {
        ImGui::Text("manifold: the closest points of two edges");
    } else if (m.referenceBox >= 0) {
        ImGui::Text("reference face: box %c axis %d; incident: axis %d", m.referenceBox == 0 ? 'A' : 'B',
                    m.referenceAxis, m.incidentAxis);
        ImGui::Text("clipped polygon: %d points, kept %d (at or below the face)", m.clippedCount,
                    m.keptCount);
    }
}

Json explainResult(const ExplainInput& in) {
    return Json{{"overlap", testObbObb(in.a->box, in.b.box)},
                {"separation", number(separationObbObb(in.a->box, in.b.box))},
                {"contact", manifold(contactObbObb(in.a->box, in.b.box))}};
}

void explainSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainObbObb(input.a->box, input.b.box)), out);
}

} // namespace box_box_unit
} // namespace

extern const LabQueryUnit kBoxBoxQuery{
    .name = "box-box",
    .idea = "Boxes (seed 3, 5): two oriented boxes are apart when one of 15 axes separates them; else the "
            "axis of least penetration gives the contact.",
    .controls = kPairControls,
    .place = box_box_unit::placeQuery,
    .run = box_box_unit::runQuery,
    .trace = box_box_unit::traceQuery,
    .layers = labLayerBit(LabLayer::SatAxis) | labLayerBit(LabLayer::Manifold),
    .drawAnswer = drawPair,
    .drawSteps = box_box_unit::drawSteps,
    .panelSteps = box_box_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Box, ExplainShapeKind::Box),
    .explainResult = box_box_unit::explainResult,
    .explainSteps = box_box_unit::explainSteps,
};

} // namespace kz
