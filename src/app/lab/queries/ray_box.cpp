// ray-box, mouse picking (seed 5): the ray moved into the box's frame, then three slabs.
#include "app/lab/queries/parts.hpp"
#include "geom/explain_ray.hpp"
#include "geom/raycast.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace ray_box_unit {

void placeQuery(LabScene& scene) {
    scene.shapes.push_back(
        box("box", {0.1f, 0.0f, 0.0f}, {0.8f, 0.55f, 0.65f}, eulerDeg(15, 30, 10), kColorB));
    addRay(scene);
}

LabResult runQuery(const LabScene& scene) {
    return rayResult(raycast(labRay(scene), labObb(shapeA(scene)), 1.0f));
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty()) out.rayBox = explainRaycast(labRay(scene), labObb(shapeA(scene)), 1.0f);
}

/// Each crossing slab's [tEnter, tExit] on the ray in its colour, the overall interval beside the
/// ray, the entering face outlined.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.rayBox || !view.show(LabLayer::Slabs) || scene.shapes.empty()) return;
    const RayBoxTrace& trace = *result.trace.rayBox;
    if (trace.reason == RayBoxReason::InvalidInput) return;
    const Ray ray = labRay(scene);
    const glm::vec3 dir = glm::normalize(ray.dir);
    const glm::vec3 across = acrossView(dir, ray.origin, canvas.eye);
    for (int i = 0; i < 3; ++i) {
        const SlabInterval& slab = trace.slabs[std::size_t(i)];
        const float t0 = std::clamp(slab.tEnter, -kFarT, kFarT), t1 = std::clamp(slab.tExit, -kFarT, kFarT);
        if (slab.kind != SlabKind::Crossing || !(t0 < t1)) continue;
        const glm::vec3 a = ray.origin + t0 * ray.dir, b = ray.origin + t1 * ray.dir;
        canvas.line(a, b, kLabSlabColors[i], true);
        // Ticks of growing length tell the slabs' ends apart where they meet.
        const glm::vec3 tick = across * (float(i + 1) * 1.5f * canvas.markerSize(a));
        canvas.line(a - tick, a + tick, kLabSlabColors[i], true);
        canvas.line(b - tick, b + tick, kLabSlabColors[i], true);
        // A copy beside the ray, one row per slab, where the three do not hide one another.
        const glm::vec3 row = -across * (float(i + 1) * 2.5f * canvas.markerSize(a));
        canvas.line(a + row, b + row, kLabSlabColors[i], true);
    }
    if (trace.tEnter <= trace.tExit && std::isfinite(trace.tEnter) && std::isfinite(trace.tExit)) {
        const glm::vec3 a = ray.origin + trace.tEnter * ray.dir, b = ray.origin + trace.tExit * ray.dir;
        const glm::vec3 offset = across * (6.0f * canvas.markerSize(a));
        canvas.line(a + offset, b + offset, kIntervalColor, true);
        canvas.line(a, a + offset, kIntervalColor, true);
        canvas.line(b, b + offset, kIntervalColor, true);
    }
    if (trace.enteringAxis >= 0) {
        const Obb obb = labObb(scene.shapes[0]);
        glm::bvec3 fixed(false);
        fixed[trace.enteringAxis] = true;
        glm::vec3 sign(1.0f);
        sign[trace.enteringAxis] = trace.enteringFace;
        boxFeature(canvas, obb, fixed, sign);
    }
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.rayBox) return;
    const RayBoxTrace& trace = *result.trace.rayBox;
    static constexpr const char* kReasons[] = {
        "hit: entered through a face", "inside start: hit at t = 0", "missed: the slab intervals do not meet",
        "beyond the ray's end",        "non-finite result",          "invalid input"};
    ImGui::TextDisabled("slab i: t = (face - origin) / dir, in box frame");
    for (int i = 0; i < 3; ++i) {
        const SlabInterval& slab = trace.slabs[std::size_t(i)];
        ImGui::TextColored(imColor(kLabSlabColors[i]), "%c: [%.3f, %.3f]%s", "xyz"[i], double(slab.tEnter),
                           double(slab.tExit), slab.kind == SlabKind::Crossing ? "" : " (parallel)");
    }
    ImGui::Text("t_enter = max(0, enters) = %.3f", double(trace.tEnter));
    ImGui::Text("t_exit  = min(1, exits)  = %.3f", double(trace.tExit));
    const bool hit = trace.result.has_value();
    verdictText(hit, "t_enter %s t_exit: %s", trace.tEnter <= trace.tExit ? "<=" : ">",
                kReasons[static_cast<int>(trace.reason)]);
    if (trace.enteringAxis >= 0)
        ImGui::Text("entering face: %c%c", trace.enteringFace < 0 ? '-' : '+', "xyz"[trace.enteringAxis]);
}

// In the order of RayBoxReason and SlabKind (explain_ray.hpp).
constexpr std::array<const char*, 6> kReasonKeys{"hit",          "inside_start",      "missed_by_slab",
                                                 "beyond_t_max", "non_finite_result", "invalid_input"};
constexpr std::array<const char*, 3> kSlabKinds{"crossing", "parallel_inside", "parallel_outside"};

Json explainResult(const ExplainInput& input) {
    return rayHit(raycast(*input.ray, input.b.box, input.rayTMax));
}

void explainSteps(const ExplainInput& input, Json& out) {
    const RayBoxTrace trace = explainRaycast(*input.ray, input.b.box, input.rayTMax);
    out["reason"] = nameOf(trace.reason, kReasonKeys);
    out["local_origin"] = vec(trace.localOrigin);
    out["local_dir"] = vec(trace.localDir);
    Json slabs = Json::array();
    for (const SlabInterval& slab : trace.slabs) {
        slabs.push_back(Json{{"axis", vec(slab.axis)},
                             {"kind", nameOf(slab.kind, kSlabKinds)},
                             {"lo", number(slab.lo)},
                             {"hi", number(slab.hi)},
                             {"t_enter", number(slab.tEnter)},
                             {"t_exit", number(slab.tExit)}});
    }
    out["slabs"] = std::move(slabs);
    out["t_enter"] = number(trace.tEnter);
    out["t_exit"] = number(trace.tExit);
    out["hit"] = trace.result.has_value();
    out["entering_axis"] = indexOrNull(trace.enteringAxis);
    out["entering_face"] =
        trace.enteringAxis < 0
            ? Json(nullptr)
            : Json(std::string(trace.enteringFace < 0.0f ? "-" : "+") + "xyz"[trace.enteringAxis]);
    out["miss_slab"] = indexOrNull(trace.missSlab);
    out["t_max"] = number(trace.tMax);
}

} // namespace ray_box_unit
} // namespace

extern const LabQueryUnit kRayBoxQuery{
    .name = "ray-box",
    .idea = "Mouse picking (seed 5): the ray moved into the box's frame, then three slabs; the latest entry "
            "before the earliest exit is the hit, and the nearest box wins.",
    .controls = kRayControls,
    .place = ray_box_unit::placeQuery,
    .run = ray_box_unit::runQuery,
    .trace = ray_box_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Slabs),
    .drawAnswer = drawRay,
    .drawSteps = ray_box_unit::drawSteps,
    .panelSteps = ray_box_unit::panelSteps,
    .explainNeeds = explainRayNeeds(ExplainShapeKind::Box),
    .explainResult = ray_box_unit::explainResult,
    .explainSteps = ray_box_unit::explainSteps,
};

} // namespace kz
