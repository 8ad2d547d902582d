// shape-cast, no tunnelling for any convex shape: when a moving, turning shape first touches
// another, by conservative advancement on GJK's distance (Mirtich 1996; Bullet's
// btContinuousConvexCollision).
#include "geom/shape_cast.hpp"

#include "app/lab/queries/convex_json.hpp"
#include "app/lab/queries/convex_parts.hpp"
#include "app/lab/queries/parts.hpp"
#include "geom/explain_shape_cast.hpp"

#include <string>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace shape_cast_unit {

constexpr glm::vec3 kImpactColor{1.0f, 0.6f, 0.2f};
constexpr glm::vec3 kStepColor{0.75f, 0.55f, 1.0f};
constexpr std::uint32_t kSpinHandle = 0xb070ff; // violet

void placeQuery(LabScene& scene) {
    // A flies (to its end handle, t = 1) past B's corner while it turns (about the line to its
    // violet spin handle, |spin - centre| radians by t = 1).
    const glm::vec3 a{-2.1f, 0.45f, 0.2f};
    scene.shapes = {capsule("A", a, 0.3f, 0.65f, eulerDeg(0.0f, 0.0f, 60.0f), kColorA),
                    box("B", {0.7f, -0.2f, 0.0f}, {0.6f, 0.5f, 0.45f}, eulerDeg(0.0f, 30.0f, 0.0f), kColorB)};
    scene.handles.push_back({"end", {2.3f, 0.3f, -0.1f}, 0, kRayEnd});
    scene.handles.push_back({"spin", a + glm::vec3(0.0f, 0.8f, 0.9f), 0, kSpinHandle});
}

/// A's motion: its centre to the end handle by t = 1, turning about the line to the spin handle.
ConvexMotion motionOfA(const LabScene& scene) {
    const glm::vec3 centre = scene.shapes[0].position;
    ConvexMotion m{glm::vec3(0.0f), glm::vec3(0.0f), centre};
    if (!scene.handles.empty()) m.velocity = scene.handles[0].position - centre;
    if (scene.handles.size() > 1) m.angularVelocity = scene.handles[1].position - centre;
    return m;
}

bool hasShapes(const LabScene& scene) {
    return scene.shapes.size() >= 2;
}

LabResult runQuery(const LabScene& scene) {
    LabResult result;
    result.isHit = true;
    if (!hasShapes(scene)) return result;
    const ConvexShape a = labConvex(shapeA(scene));
    const ShapeCast r = castConvexConvex(a, motionOfA(scene), labConvex(shapeB(scene)), ConvexMotion{});
    if (!r.hit) return result;
    result.positive = true;
    result.impactCentre = shapeCenter(shapeAtTime(a, motionOfA(scene), r.t));
    result.rayHit = RayHit{r.t, r.pointB, r.normal};
    result.numbers = {{"t", r.t}, {"distance", r.distance}, {"steps", static_cast<float>(r.iterations)}};
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!hasShapes(scene)) return;
    out.shapeCast = explainCastConvexConvex(labConvex(shapeA(scene)), motionOfA(scene),
                                            labConvex(shapeB(scene)), ConvexMotion{});
}

/// A's path to its end handle and its spin axis; A where it first touches B (orange outline) with
/// the touched point and the normal, or A at the end (t = 1) when it touches nothing.
void drawAnswer(const LabScene& scene, const LabResult& result, LabCanvas& canvas) {
    if (!hasShapes(scene) || scene.handles.size() < 2) return;
    const glm::vec3 start = scene.shapes[0].position, end = scene.handles[0].position;
    canvas.line(start, scene.handles[1].position, kStepColor);
    const ConvexShape a = labConvex(shapeA(scene));
    if (result.impactCentre && result.rayHit) {
        canvas.line(start, *result.impactCentre, kImpactColor);
        canvas.line(*result.impactCentre, end, kRayBeyondColor);
        drawConvexOutline(shapeAtTime(a, motionOfA(scene), result.rayHit->t), canvas.eye, kImpactColor,
                          canvas, true);
        canvas.cross(result.rayHit->point, kContactColor);
        canvas.arrow(result.rayHit->point, result.rayHit->point + kNormalLength * result.rayHit->normal,
                     kNormalColor, true);
    } else {
        canvas.line(start, end, kRayBeyondColor);
        drawConvexOutline(shapeAtTime(a, motionOfA(scene), 1.0f), canvas.eye, kRayBeyondColor, canvas);
    }
}

/// A at every step's time (faint), and at the chosen step: its outline, the closest points with the
/// distance between them and the normal the step's bound is taken along.
void drawSteps(const LabScene&, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.shapeCast || !view.show(LabLayer::CastSteps)) return;
    const ShapeCastTrace& trace = *result.trace.shapeCast;
    if (trace.steps.empty()) return;
    const int chosen = convexStep(view, int(trace.steps.size()));
    for (int k = 0; k < int(trace.steps.size()); ++k)
        if (k != chosen)
            drawConvexOutline(trace.steps[std::size_t(k)].shapeA, canvas.eye, kCandidateColor, canvas);
    const ShapeCastStep& step = trace.steps[std::size_t(chosen)];
    drawConvexOutline(step.shapeA, canvas.eye, kStepColor, canvas, true);
    canvas.cross(step.gjk.pointA, kSupportColor);
    canvas.cross(step.gjk.pointB, kSupportColor);
    canvas.line(step.gjk.pointB, step.gjk.pointA, kSupportColor, true);
    if (glm::dot(step.gjk.normal, step.gjk.normal) > 0.0f)
        canvas.arrow(step.gjk.pointB, step.gjk.pointB + kNormalLength * step.gjk.normal, kNormalColor, true);
}

void panelSteps(LabView& view, const LabResult& result) {
    ImGui::TextWrapped("Conservative advancement: at each step's time t, GJK gives the distance d and the "
                       "normal n. No point of A comes closer along n faster than the bound mu (A's speed "
                       "along n, plus its turn across n times its reach), so nothing can touch before "
                       "t + d / mu: t advances that far, and again, until d is within the tolerance.");
    if (!result.trace.shapeCast || result.trace.shapeCast->steps.empty()) return;
    const ShapeCastTrace& trace = *result.trace.shapeCast;
    const int count = int(trace.steps.size());
    convexStepSlider(view, count);
    const ShapeCastStep& s = trace.steps[std::size_t(convexStep(view, count))];
    ImGui::Text("t = %.5f: distance %.5f", double(s.t), double(s.gjk.distance));
    if (s.rate > 0.0) {
        ImGui::Text("mu = %.3f (moving) + %.3f (turning) = %.3f", s.linearRate, s.angularRate, s.rate);
        ImGui::Text("next t = t + %.5f = %.5f", s.nextT - double(s.t), s.nextT);
    } else if (s.nextT == double(s.t)) {
        verdictText(true, "within %.1e of touching: the time of impact", trace.tolerance);
    } else {
        verdictText(false, "mu = %.3f: not approaching along n", s.linearRate + s.angularRate);
    }
    ImGui::Text("stopped: %s after %d steps", std::string(shapeCastStatusName(trace.result.status)).c_str(),
                count);
}

ConvexMotion explainMotion(const ExplainShape& shape, const ConvexShape& convex) {
    return motionAboutCenter(convex, shape.velocity, shape.angularVelocity);
}

Json explainResult(const ExplainInput& in) {
    const ConvexShape a = explainConvex(*in.a), b = explainConvex(in.b);
    return shapeCastJson(
        castConvexConvex(a, explainMotion(*in.a, a), b, explainMotion(in.b, b), in.castTMax, in.castGap));
}

/// The trace's result is castConvexConvex's, bit for bit: the output's "result".
void explainSteps(const ExplainInput& in, Json& out) {
    const ConvexShape a = explainConvex(*in.a), b = explainConvex(in.b);
    addKeys(shapeCastTraceJson(explainCastConvexConvex(a, explainMotion(*in.a, a), b, explainMotion(in.b, b),
                                                       in.castTMax, in.castGap)),
            out, "result");
}

} // namespace shape_cast_unit
} // namespace

extern const LabQueryUnit kShapeCastQuery{
    .name = "shape-cast",
    .idea = "No tunnelling for any convex shape: when a moving, turning shape first touches another "
            "(conservative advancement on GJK's distance).",
    .controls = "drag A, its orange end (t = 1) or its violet spin handle; drag or turn B",
    .place = shape_cast_unit::placeQuery,
    .run = shape_cast_unit::runQuery,
    .trace = shape_cast_unit::traceQuery,
    .layers = labLayerBit(LabLayer::CastSteps),
    .drawAnswer = shape_cast_unit::drawAnswer,
    .drawSteps = shape_cast_unit::drawSteps,
    .panelSteps = shape_cast_unit::panelSteps,
    .explainNeeds = {false, ExplainShapeKind::Convex, ExplainShapeKind::Convex, false, true},
    .explainResult = shape_cast_unit::explainResult,
    .explainSteps = shape_cast_unit::explainSteps,
    .anyConvexShape = true,
};

} // namespace kz
