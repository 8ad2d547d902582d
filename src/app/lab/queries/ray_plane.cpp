// ray-plane, where the bullet hits the wall (seed 3): t = -(n.P + d) / (n.D).
#include "app/lab/queries/parts.hpp"
#include "geom/explain_ray.hpp"
#include "geom/raycast.hpp"

#include <cmath>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace ray_plane_unit {

void placeQuery(LabScene& scene) {
    scene.shapes.push_back(
        meshShape(LabShapeKind::Plane, "plane", {0.0f, -0.8f, 0.0f}, eulerDeg(0, 0, 15), kColorB));
    addRay(scene, {-2.0f, 1.4f, 0.3f}, {1.8f, -1.6f, -0.2f});
}

LabResult runQuery(const LabScene& scene) {
    return rayResult(raycast(labRay(scene), labPlane(shapeA(scene)), 1.0f));
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty()) out.rayPlane = explainRaycast(labRay(scene), labPlane(shapeA(scene)), 1.0f);
}

/// Along the normal from the origin, its distance to the plane (numerator) beside the ray's
/// approach per unit of t (denominator): t is their ratio; the foot on the plane.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.rayPlane || !view.show(LabLayer::Distances) || scene.shapes.empty()) return;
    const RayPlaneTrace& trace = *result.trace.rayPlane;
    if (trace.reason == RayPlaneReason::InvalidInput) return;
    const Ray ray = labRay(scene);
    const Plane plane = labPlane(scene.shapes[0]);
    const glm::vec3 n = glm::normalize(plane.normal);
    const float scale = glm::length(plane.normal);
    // The origin's distance: the numerator is minus its signed distance (times |n|), so the foot
    // lies numerator / |n| along the normal; the approach per unit of t is denominator / |n|.
    const glm::vec3 foot = ray.origin + (trace.numerator / scale) * n;
    const glm::vec3 side = acrossView(n, ray.origin, canvas.eye) * (2.0f * canvas.markerSize(ray.origin));
    canvas.line(ray.origin, foot, kLabNumeratorColor, true);
    canvas.cross(foot, kLabNumeratorColor);
    canvas.arrow(ray.origin + side, ray.origin + side + (trace.denominator / scale) * n, kLabDenominatorColor,
                 true);
    canvas.arrow(foot, foot + 0.5f * n, kLabNumeratorColor, true);
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.rayPlane) return;
    const RayPlaneTrace& trace = *result.trace.rayPlane;
    static constexpr const char* kReasons[] = {
        "hit: t in [0, 1]",         "parallel: |n.D| at or below the limit",
        "behind the origin: t < 0", "beyond the ray's end: t > 1",
        "non-finite result",        "invalid input"};
    ImGui::TextDisabled("n.(O + t D) + d = 0  =>  t = -(n.O + d) / (n.D)");
    ImGui::TextColored(imColor(kLabNumeratorColor), "numerator -(n.O + d) = %.4f (white)",
                       double(trace.numerator));
    ImGui::TextColored(imColor(kLabDenominatorColor), "denominator n.D = %.4f (orange)",
                       double(trace.denominator));
    ImGui::Text("|n.D| %s limit %.2g: %s",
                std::abs(trace.denominator) > trace.parallelLimit ? ">" : "<=", double(trace.parallelLimit),
                std::abs(trace.denominator) <= trace.parallelLimit ? "parallel"
                : trace.facing                                     ? "meets the front (n.D < 0)"
                                                                   : "meets the back (n.D > 0)");
    if (trace.reason != RayPlaneReason::Parallel && trace.reason != RayPlaneReason::InvalidInput)
        ImGui::Text("t = %.4f / %.4f = %.4f", double(trace.numerator), double(trace.denominator),
                    double(trace.t));
    verdictText(trace.result.has_value(), "%s", kReasons[static_cast<int>(trace.reason)]);
}

// In the order of RayPlaneReason (explain_ray.hpp).
constexpr std::array<const char*, 6> kReasonKeys{"hit",          "parallel",          "behind_origin",
                                                 "beyond_t_max", "non_finite_result", "invalid_input"};

Json explainResult(const ExplainInput& input) {
    return rayHit(raycast(*input.ray, input.b.plane, input.rayTMax));
}

void explainSteps(const ExplainInput& input, Json& out) {
    const RayPlaneTrace trace = explainRaycast(*input.ray, input.b.plane, input.rayTMax);
    out["reason"] = nameOf(trace.reason, kReasonKeys);
    out["denominator"] = number(trace.denominator);
    out["parallel_limit"] = number(trace.parallelLimit);
    out["facing"] = trace.facing;
    out["numerator"] = number(trace.numerator);
    out["t"] = trace.reason == RayPlaneReason::Parallel ? Json(nullptr) : number(trace.t);
    out["t_max"] = number(trace.tMax);
}

} // namespace ray_plane_unit
} // namespace

extern const LabQueryUnit kRayPlaneQuery{
    .name = "ray-plane",
    .idea = "Where the bullet hits the wall (seed 3): the plane ax + by + cz + d = 0 meets P + t D at "
            "t = -(n.P + d) / (n.D); parallel rays miss.",
    .controls = kRayControls,
    .place = ray_plane_unit::placeQuery,
    .run = ray_plane_unit::runQuery,
    .trace = ray_plane_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Distances),
    .drawAnswer = drawRay,
    .drawSteps = ray_plane_unit::drawSteps,
    .panelSteps = ray_plane_unit::panelSteps,
    .explainNeeds = explainRayNeeds(ExplainShapeKind::Plane),
    .explainResult = ray_plane_unit::explainResult,
    .explainSteps = ray_plane_unit::explainSteps,
};

} // namespace kz
