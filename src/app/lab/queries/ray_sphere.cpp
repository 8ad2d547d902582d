// ray-sphere, aiming from the camera (seed 1): the ray against a sphere, its quadratic and roots.
#include "app/lab/queries/parts.hpp"
#include "geom/explain_ray.hpp"
#include "geom/raycast.hpp"

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace ray_sphere_unit {

void placeQuery(LabScene& scene) {
    scene.shapes.push_back(sphere("sphere", {0.2f, 0.1f, 0.0f}, 0.9f, kColorB));
    addRay(scene);
}

LabResult runQuery(const LabScene& scene) {
    return rayResult(raycast(labRay(scene), labSphere(shapeA(scene)), 1.0f));
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty()) out.raySphere = explainRaycast(labRay(scene), labSphere(shapeA(scene)), 1.0f);
}

/// Both roots on the ray, the taken one ringed; the centre's perpendicular to the line.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.raySphere || !view.show(LabLayer::Roots) || scene.shapes.empty()) return;
    const RaySphereTrace& trace = *result.trace.raySphere;
    if (trace.reason == RaySphereReason::InvalidInput) return;
    const Ray ray = labRay(scene);
    const glm::vec3 centre = scene.shapes[0].position;
    // The line's point nearest the centre, at s = -b: the discriminant is r^2 minus its distance^2.
    const glm::vec3 foot = ray.origin - trace.b * trace.unitDir;
    canvas.line(centre, foot, kIntervalColor, true);
    if (!trace.realRoots) return;
    const glm::vec3 roots[2] = {ray.origin + trace.tNear * ray.dir, ray.origin + trace.tFar * ray.dir};
    for (const glm::vec3& p : roots)
        canvas.cross(p, kRootColor);
    const bool inside = trace.reason == RaySphereReason::InsideStart;
    if (trace.reason == RaySphereReason::NearRoot || inside) {
        const glm::vec3 taken = inside ? ray.origin : roots[0];
        canvas.circle(taken, canvas.eye - taken, 2.5f * canvas.markerSize(taken), kRootColor, true);
    }
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.raySphere) return;
    const RaySphereTrace& trace = *result.trace.raySphere;
    static constexpr const char* kReasons[] = {"the near root: the ray's entry",
                                               "c <= 0: starts inside, hit at t = 0",
                                               "b >= 0 outside: moving away",
                                               "discriminant < 0: no root",
                                               "the near root is beyond the ray's end",
                                               "non-finite result",
                                               "invalid input"};
    ImGui::TextDisabled("|m + s u|^2 = r^2:  a s^2 + 2 b s + c = 0 (s in metres)");
    ImGui::Text("a = %.3f  b = m.u = %.3f  c = |m|^2 - r^2 = %.3f", double(trace.a), double(trace.b),
                double(trace.c));
    verdictText(trace.discriminant >= 0.0f, "discriminant = b^2 - c = %.4f", double(trace.discriminant));
    if (trace.realRoots) {
        ImGui::Text("s = -b -+ sqrt(disc) = %.3f, %.3f", double(trace.sNear), double(trace.sFar));
        ImGui::Text("t = s / |D| = %.3f, %.3f (|D| = %.3f)", double(trace.tNear), double(trace.tFar),
                    double(trace.dirLength));
    }
    verdictText(trace.result.has_value(), "%s", kReasons[static_cast<int>(trace.reason)]);
}

// In the order of RaySphereReason (explain_ray.hpp).
constexpr std::array<const char*, 7> kReasonKeys{
    "near_root",    "inside_start",      "behind_origin", "negative_discriminant",
    "beyond_t_max", "non_finite_result", "invalid_input"};

Json explainResult(const ExplainInput& input) {
    return rayHit(raycast(*input.ray, input.b.sphere, input.rayTMax));
}

void explainSteps(const ExplainInput& input, Json& out) {
    const RaySphereTrace trace = explainRaycast(*input.ray, input.b.sphere, input.rayTMax);
    out["reason"] = nameOf(trace.reason, kReasonKeys);
    out["m"] = vec(trace.m);
    out["dir_length"] = number(trace.dirLength);
    out["unit_dir"] = vec(trace.unitDir);
    out["quadratic"] = Json{{"a", number(trace.a)},
                            {"b", number(trace.b)},
                            {"c", number(trace.c)},
                            {"discriminant", number(trace.discriminant)}};
    out["roots"] = trace.realRoots ? Json{{"s_near", number(trace.sNear)},
                                          {"s_far", number(trace.sFar)},
                                          {"t_near", number(trace.tNear)},
                                          {"t_far", number(trace.tFar)}}
                                   : Json(nullptr);
    out["taken"] = trace.reason == RaySphereReason::NearRoot      ? Json("near")
                   : trace.reason == RaySphereReason::InsideStart ? Json("zero")
                                                                  : Json(nullptr);
    out["t_max"] = number(trace.tMax);
}

} // namespace ray_sphere_unit
} // namespace

extern const LabQueryUnit kRaySphereQuery{
    .name = "ray-sphere",
    .idea = "Aiming from the camera (seed 1): R(t) = P + t D, t >= 0, D not unit; the ray hits when the "
            "centre's squared distance to it is at most r^2.",
    .controls = kRayControls,
    .place = ray_sphere_unit::placeQuery,
    .run = ray_sphere_unit::runQuery,
    .trace = ray_sphere_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Roots),
    .drawAnswer = drawRay,
    .drawSteps = ray_sphere_unit::drawSteps,
    .panelSteps = ray_sphere_unit::panelSteps,
    .explainNeeds = explainRayNeeds(ExplainShapeKind::Sphere),
    .explainResult = ray_sphere_unit::explainResult,
    .explainSteps = ray_sphere_unit::explainSteps,
};

} // namespace kz
