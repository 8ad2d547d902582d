// convex-convex: the contact manifold of any two convex shapes, as Jolt builds it: EPA's normal and
// depth, then each shape's supporting face along the normal, the incident face clipped by the
// reference face's sides, and the points behind the reference plane kept (at most 4).
#include "app/lab/queries/convex_json.hpp"
#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/queries/parts.hpp"
#include "geom/contact_convex.hpp"
#include "geom/explain_contact_convex.hpp"
#include "geom/gjk.hpp"

#include <string>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace convex_convex_unit {

void placeQuery(LabScene& scene) {
    scene.shapes = {box("A", {-0.15f, 0.4f, 0.0f}, {0.6f, 0.3f, 0.45f}, eulerDeg(0.0f, 25.0f, 6.0f), kColorA),
                    cylinder("B", {0.0f, -0.3f, 0.0f}, 0.8f, 0.45f, eulerDeg(0.0f, 0.0f, 0.0f), kColorB)};
}

LabResult runQuery(const LabScene& scene) {
    const ConvexShape a = labConvex(shapeA(scene)), b = labConvex(shapeB(scene));
    LabResult result = pairResult(contactConvexConvex(a, b));
    if (!result.positive) {
        const GjkResult gap = closestPtConvexConvex(a, b);
        if (gap.status != GjkStatus::InvalidInput) addGap(result, gap.pointA, gap.pointB);
    }
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    out.convexContact = explainContactConvexConvex(labConvex(shapeA(scene)), labConvex(shapeB(scene)));
}

/// The two supporting faces (A's cyan, B's orange), the reference face's side planes' cuts as the
/// clipped polygon (yellow), and the points kept (the answer draws them with their depths).
void drawSteps(const LabScene&, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.convexContact || !view.show(LabLayer::Manifold)) return;
    const ContactConvexTrace& trace = *result.trace.convexContact;
    const auto loop = [&](const std::vector<glm::dvec3>& face, const glm::vec3& color, bool onTop) {
        for (std::size_t i = 0; i < face.size(); ++i) {
            if (face.size() == 2 && i == 1) break;
            canvas.line(glm::vec3(face[i]), glm::vec3(face[(i + 1) % face.size()]), color, onTop);
        }
        if (face.size() == 1) canvas.cross(glm::vec3(face[0]), color);
    };
    loop(trace.faceA, kLabIntervalAColor, true);
    loop(trace.faceB, kLabIntervalBColor, true);
    if (!trace.clips.empty()) loop(trace.clips.back().polygon, kSimplexColor, true);
}

void panelSteps(LabView&, const LabResult& result) {
    ImGui::TextWrapped("EPA gives the normal and the depth; each shape's face most facing the other along "
                       "it (A's cyan, B's orange) becomes the reference or the incident face; the incident "
                       "face, clipped by the reference face's sides (yellow), keeps its points behind the "
                       "reference plane: at most 4, the deepest and those spanning the largest area.");
    if (!result.trace.convexContact) return;
    const ContactConvexTrace& trace = *result.trace.convexContact;
    ImGui::Text("faces: A %zu corners, B %zu", trace.faceA.size(), trace.faceB.size());
    if (trace.hasReference)
        ImGui::Text("reference: %s's face; %zu clips; %zu points kept", trace.referenceIsB ? "B" : "A",
                    trace.clips.size(), trace.kept.size());
    else if (trace.result)
        ImGui::Text("no faces to clip: EPA's witness point");
}

Json explainResult(const ExplainInput& in) {
    const std::optional<Manifold> contact = contactConvexConvex(explainConvex(*in.a), explainConvex(in.b));
    return Json{{"overlap", contact.has_value()}, {"contact", manifold(contact)}};
}

void explainSteps(const ExplainInput& in, Json& out) {
    const ContactConvexTrace trace = explainContactConvexConvex(explainConvex(*in.a), explainConvex(in.b));
    const auto polygon = [](const std::vector<glm::dvec3>& points) {
        Json list = Json::array();
        for (const glm::dvec3& p : points)
            list.push_back(vec(p));
        return list;
    };
    out["epa"] = epaTraceJson(trace.epa);
    out["face_a"] = polygon(trace.faceA);
    out["face_b"] = polygon(trace.faceB);
    out["reference"] = trace.hasReference ? Json(trace.referenceIsB ? "b" : "a") : Json(nullptr);
    Json clips = Json::array();
    for (const ContactClipStep& clip : trace.clips)
        clips.push_back(Json{{"plane_normal", vec(clip.planeNormal)},
                             {"offset", number(clip.offset)},
                             {"polygon", polygon(clip.polygon)}});
    out["clips"] = std::move(clips);
    out["witness_added"] = trace.witnessAdded;
    out["witness_only"] = trace.witnessOnly;
}

} // namespace convex_convex_unit
} // namespace

extern const LabQueryUnit kConvexConvexQuery{
    .name = "convex-convex",
    .idea = "The contact manifold of any two convex shapes: EPA's normal, then the supporting faces clipped "
            "against each other.",
    .controls = kPairControls,
    .place = convex_convex_unit::placeQuery,
    .run = convex_convex_unit::runQuery,
    .trace = convex_convex_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Manifold),
    .drawAnswer = drawPair,
    .drawSteps = convex_convex_unit::drawSteps,
    .panelSteps = convex_convex_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Convex, ExplainShapeKind::Convex),
    .explainResult = convex_convex_unit::explainResult,
    .explainSteps = convex_convex_unit::explainSteps,
    .anyConvexShape = true,
};

} // namespace kz
