// segment-segment, two rays (seed 3): in 3-D the closest points of two segments, their distance
// and parameters s, t, before and after clamping to [0, 1] (Ericson 5.1.9).
#include "app/lab/queries/parts.hpp"
#include "app/lab/queries/trace_json.hpp"
#include "geom/closest.hpp"
#include "geom/explain_closest.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace segment_segment_unit {

constexpr glm::vec3 kSegmentAColor{0.35f, 0.82f, 1.0f};
constexpr glm::vec3 kSegmentBColor{1.0f, 0.42f, 0.82f};

void placeQuery(LabScene& scene) {
    scene.handles = {{"A0", {-1.6f, -0.4f, 0.5f}, -1, kSegmentA},
                     {"A1", {1.4f, 0.7f, -0.3f}, -1, kSegmentA},
                     {"B0", {-0.9f, 1.1f, -0.9f}, -1, kSegmentB},
                     {"B1", {1.0f, -1.0f, 0.2f}, -1, kSegmentB}};
}

LabResult runQuery(const LabScene& scene) {
    LabResult result;
    if (scene.handles.size() < 4) return result;
    const auto& h = scene.handles;
    const auto closest =
        closestPtLinePieces(asSegment(h[0].position, h[1].position), asSegment(h[2].position, h[3].position));
    if (!closest) return result;
    const float distance = std::sqrt(closest->sqDist);
    result.positive = distance <= kLabSegmentTouch;
    result.closest = std::pair{closest->p1, closest->p2};
    result.numbers = {{"distance", distance}, {"s", closest->s}, {"t", closest->t}};
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (scene.handles.size() < 4) return;
    const auto& h = scene.handles;
    out.segments = explainClosestPtLinePieces(asSegment(h[0].position, h[1].position),
                                              asSegment(h[2].position, h[3].position));
}

/// The two segments, their closest points and the segment between them in the verdict's colour.
void drawAnswer(const LabScene& scene, const LabResult& result, LabCanvas& canvas) {
    if (scene.handles.size() < 4) return;
    canvas.line(scene.handles[0].position, scene.handles[1].position, kSegmentAColor);
    canvas.line(scene.handles[2].position, scene.handles[3].position, kSegmentBColor);
    if (!result.closest) return;
    const glm::vec3 verdict = result.positive ? kLabPositive : kLabNegative;
    canvas.cross(result.closest->first, verdict);
    canvas.cross(result.closest->second, verdict);
    canvas.line(result.closest->first, result.closest->second, verdict, true);
}

/// Both infinite lines, the lines' closest points (s, t before clamping) and an arrow from each to
/// where clamping moved it.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.segments || !view.show(LabLayer::Clamping) || scene.handles.size() < 4) return;
    const LinePiecesTrace& trace = *result.trace.segments;
    if (!trace.valid) return;
    const glm::vec3 p1 = scene.handles[0].position, d1 = scene.handles[1].position - p1;
    const glm::vec3 p2 = scene.handles[2].position, d2 = scene.handles[3].position - p2;
    // The infinite lines, far enough to show the unclamped points.
    const auto line = [&](const glm::vec3& p, const glm::vec3& d, float unclamped) {
        const float lo = std::max(std::min(0.0f, unclamped), -kFarT) - 0.3f;
        const float hi = std::min(std::max(1.0f, unclamped), kFarT) + 0.3f;
        canvas.line(p + lo * d, p + hi * d, kCandidateColor);
    };
    line(p1, d1, trace.sUnclamped);
    line(p2, d2, trace.tUnclamped);
    // Each parameter before and after its clamp: a cross where it was, an arrow to where it went.
    const auto step = [&](const glm::vec3& p, const glm::vec3& d, float before, float after, bool clamped) {
        if (!std::isfinite(before) || std::abs(before) > kFarT) return;
        canvas.cross(p + before * d, kRootColor);
        if (clamped) canvas.arrow(p + before * d, p + after * d, kRootColor, true);
    };
    step(p1, d1, trace.sUnclamped, trace.sFirst, trace.sClamped);
    step(p2, d2, trace.tUnclamped, trace.tFinal, trace.tClamped);
    if (trace.tClamped && (trace.kind == LinePiecesCase::Parallel || trace.kind == LinePiecesCase::Skew))
        step(p1, d1, trace.sFirst, trace.sAgain, trace.sAgain != trace.sFirst);
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.segments || !result.trace.segments->valid) return;
    const LinePiecesTrace& t = *result.trace.segments;
    static constexpr const char* kCases[] = {"two points", "first is a point", "second is a point",
                                             "parallel", "skew"};
    ImGui::Text("case: %s; denom = ae - b^2 = %.4f", kCases[static_cast<int>(t.kind)], double(t.denom));
    ImGui::Text("s = (bf - ce) / denom = %.3f -> %.3f%s", double(t.sUnclamped), double(t.sFirst),
                t.sClamped ? " (clamped)" : "");
    ImGui::Text("t = (b s + f) / e = %.3f -> %.3f%s", double(t.tUnclamped), double(t.tFinal),
                t.tClamped ? " (clamped)" : "");
    if (t.tClamped)
        ImGui::Text("s again = (b t - c) / a = %.3f -> %.3f", double(t.sAgainUnclamped), double(t.sAgain));
}

Json explainResult(const ExplainInput& in) {
    const auto& a = in.a->segment;
    const auto& b = in.b.segment;
    const auto c = closestPtLinePieces(asSegment(a[0], a[1]), asSegment(b[0], b[1]));
    if (!c) return Json{{"closest", nullptr}}; // non-finite input, which the reader refuses
    return Json{{"s", number(c->s)},
                {"t", number(c->t)},
                {"point_a", vec(c->p1)},
                {"point_b", vec(c->p2)},
                {"distance", number(std::sqrt(c->sqDist))},
                {"parallel", c->parallel}};
}

void explainSteps(const ExplainInput& input, Json& out) {
    const auto& a = input.a->segment;
    const auto& b = input.b.segment;
    // The trace's own "result" is closestPtLinePieces's, bit for bit: the output's "result".
    addKeys(traceToJson(explainClosestPtLinePieces(asSegment(a[0], a[1]), asSegment(b[0], b[1]))), out,
            "result");
}

} // namespace segment_segment_unit
} // namespace

extern const LabQueryUnit kSegmentSegmentQuery{
    .name = "segment-segment",
    .idea =
        "Two rays (seed 3): coplanar, not parallel, and where; in 3-D the closest points of two segments, "
        "their distance and parameters s, t in [0, 1].",
    .controls = "drag the four ends of the two segments",
    .place = segment_segment_unit::placeQuery,
    .run = segment_segment_unit::runQuery,
    .trace = segment_segment_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Clamping),
    .drawAnswer = segment_segment_unit::drawAnswer,
    .drawSteps = segment_segment_unit::drawSteps,
    .panelSteps = segment_segment_unit::panelSteps,
    .explainNeeds = explainPairNeeds(ExplainShapeKind::Segment, ExplainShapeKind::Segment),
    .explainResult = segment_segment_unit::explainResult,
    .explainSteps = segment_segment_unit::explainSteps,
};

} // namespace kz
