// ray-triangle, line against polygon (seed 2): the watertight test's shear and edge functions.
#include "app/lab/queries/parts.hpp"
#include "geom/explain_ray.hpp"
#include "geom/raycast.hpp"

#include <cmath>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace ray_triangle_unit {

void placeQuery(LabScene& scene) {
    scene.shapes.push_back(
        meshShape(LabShapeKind::Triangle, "triangle", {0.2f, 0.0f, 0.0f}, eulerDeg(10, 35, 0), kColorB));
    addRay(scene);
}

LabResult runQuery(const LabScene& scene) {
    const Ray ray = labRay(scene);
    const auto hit = raycastBarycentric(ray, labTriangle(shapeA(scene)), 1.0f);
    if (!hit) return rayResult(std::nullopt);
    LabResult result = rayResult(RayHit{hit->t, ray.origin + hit->t * ray.dir, hit->normal});
    result.numbers.push_back({"u", hit->u});
    result.numbers.push_back({"v", hit->v});
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (!scene.shapes.empty())
        out.rayTriangle = explainRaycastTriangle(labRay(scene), labTriangle(shapeA(scene)), 1.0f);
}

/// Each edge coloured by the sign of its edge function, the point where the ray's line crosses
/// the triangle's plane, and the fan from it to the vertices (the barycentric areas).
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.rayTriangle || !view.show(LabLayer::EdgeFunctions) || scene.shapes.empty()) return;
    const RayTriangleTrace& trace = *result.trace.rayTriangle;
    if (trace.reason == RayTriangleReason::InvalidInput ||
        trace.reason == RayTriangleReason::NonFiniteTriangle)
        return;
    const Triangle tri = labTriangle(scene.shapes[0]);
    const glm::vec3 v[3] = {tri.a, tri.b, tri.c};
    // u, v, w are the edge functions of the edges opposite a, b, c: b-c, c-a, a-b. The line passes
    // inside an edge when its function has det's sign (or is zero).
    const double weights[3] = {trace.u, trace.v, trace.w};
    const double sign = trace.det < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; ++i) {
        const bool inside = weights[i] * sign >= 0.0;
        canvas.line(v[(i + 1) % 3], v[(i + 2) % 3], inside ? kLabEdgeInsideColor : kLabEdgeOutsideColor,
                    true);
    }
    if (!(std::abs(trace.det) > trace.detError)) return; // no area seen along the ray: no crossing
    // Where the ray's line crosses the plane: the vertices weighted by u, v, w over det.
    const glm::dvec3 p =
        (trace.u * glm::dvec3(tri.a) + trace.v * glm::dvec3(tri.b) + trace.w * glm::dvec3(tri.c)) / trace.det;
    const glm::vec3 crossing(p);
    canvas.cross(crossing, kLabNumeratorColor);
    for (const glm::vec3& corner : v)
        canvas.line(crossing, corner, kLabNumeratorColor * 0.6f, true);
}

void panelSteps(LabView&, const LabResult& result) {
    if (!result.trace.rayTriangle) return;
    const RayTriangleTrace& trace = *result.trace.rayTriangle;
    static constexpr const char* kReasons[] = {"hit: inside every edge, t in [0, 1]",
                                               "U, V, W of mixed signs: outside an edge (red)",
                                               "|det| within its rounding bound: no area seen",
                                               "a vertex is not finite",
                                               "zero area",
                                               "parallel to the plane",
                                               "behind the origin: t < 0",
                                               "beyond the ray's end: t > 1",
                                               "non-finite result",
                                               "invalid input"};
    if (trace.reason == RayTriangleReason::InvalidInput) {
        verdictText(false, "%s", kReasons[static_cast<int>(trace.reason)]);
        return;
    }
    ImGui::TextDisabled("watertight: the ray's main axis (%c) is z,", "xyz"[trace.iz]);
    ImGui::TextDisabled("vertices sheared so the ray is +z,");
    ImGui::TextDisabled("then the 2D edge functions");
    ImGui::Text("frame (x, y, z) = (%c, %c, %c)", "xyz"[trace.ix], "xyz"[trace.iy], "xyz"[trace.iz]);
    ImGui::Text("shear %.3f %.3f %.3f", trace.shear.x, trace.shear.y, trace.shear.z);
    const double sign = trace.det < 0.0 ? -1.0 : 1.0;
    const double weights[3] = {trace.u, trace.v, trace.w};
    static constexpr const char* kNames[3] = {"U (edge bc)", "V (edge ca)", "W (edge ab)"};
    for (int i = 0; i < 3; ++i) {
        const bool inside = weights[i] * sign >= 0.0;
        ImGui::TextColored(imColor(inside ? kLabEdgeInsideColor : kLabEdgeOutsideColor), "%s = %+.5f %s",
                           kNames[i], weights[i], inside ? "inside" : "outside");
    }
    ImGui::Text("det = U + V + W = %+.5f", trace.det);
    ImGui::Text("  (its rounding bound %.2g)", trace.detError);
    if (std::abs(trace.det) > trace.detError) {
        ImGui::Text("barycentric (U, V, W) / det = %.3f %.3f %.3f", trace.u / trace.det, trace.v / trace.det,
                    trace.w / trace.det);
    }
    const bool timed = trace.reason == RayTriangleReason::Hit ||
                       trace.reason == RayTriangleReason::BehindOrigin ||
                       trace.reason == RayTriangleReason::BeyondTMax;
    if (timed) ImGui::Text("t = (U az + V bz + W cz) sz / det = %.4f", trace.t);
    verdictText(trace.result.has_value(), "%s", kReasons[static_cast<int>(trace.reason)]);
}

// In the order of RayTriangleReason (explain_ray.hpp).
constexpr std::array<const char*, 10> kReasonKeys{
    "hit",      "outside_an_edge", "below_rounding", "non_finite_triangle", "zero_area",
    "parallel", "behind_origin",   "beyond_t_max",   "non_finite_result",   "invalid_input"};
/// How far the watertight test got before each reason (the order it decides in): a step is
/// printed for the reasons at or beyond the stage that computes it.
constexpr std::array<int, 10> kStages{9, 1, 2, 3, 4, 5, 6, 7, 8, 0};

Json explainResult(const ExplainInput& input) {
    Json result = rayHit(raycast(*input.ray, input.b.triangle, input.rayTMax));
    if (const auto hit = raycastBarycentric(*input.ray, input.b.triangle, input.rayTMax)) {
        result["u"] = number(hit->u);
        result["v"] = number(hit->v);
    }
    return result;
}

void explainSteps(const ExplainInput& input, Json& out) {
    const RayTriangleTrace trace = explainRaycastTriangle(*input.ray, input.b.triangle, input.rayTMax);
    const int stage = kStages[static_cast<std::size_t>(trace.reason)];
    const auto reached = [&](int first, Json value) {
        return stage >= first ? std::move(value) : Json(nullptr);
    };
    out["reason"] = nameOf(trace.reason, kReasonKeys);
    out["shear"] =
        Json{{"axes", Json::array({trace.ix, trace.iy, trace.iz})}, {"constants", vec(trace.shear)}};
    out["sheared"] = Json::array({vec(trace.sheared[0]), vec(trace.sheared[1]), vec(trace.sheared[2])});
    out["edge_functions"] = Json{{"u", number(trace.u)}, {"v", number(trace.v)}, {"w", number(trace.w)}};
    out["det"] = number(trace.det);
    out["det_error"] = number(trace.detError);
    out["face_normal"] = reached(4, vec(trace.faceNormal));
    out["dir_dot_normal"] = reached(5, number(trace.dirDotNormal));
    out["parallel_limit"] = reached(5, number(trace.parallelLimit));
    out["t"] = reached(6, number(trace.t));
    out["barycentric"] = reached(6, vec(trace.barycentric));
    out["t_max"] = number(trace.tMax);
}

} // namespace ray_triangle_unit
} // namespace

extern const LabQueryUnit kRayTriangleQuery{
    .name = "ray-triangle",
    .idea = "Line against polygon (seed 2): the line meets the polygon's plane, then the point is tested "
            "inside the edges (watertight: no ray slips between two triangles).",
    .controls = kRayControls,
    .place = ray_triangle_unit::placeQuery,
    .run = ray_triangle_unit::runQuery,
    .trace = ray_triangle_unit::traceQuery,
    .layers = labLayerBit(LabLayer::EdgeFunctions),
    .drawAnswer = drawRay,
    .drawSteps = ray_triangle_unit::drawSteps,
    .panelSteps = ray_triangle_unit::panelSteps,
    .explainNeeds = explainRayNeeds(ExplainShapeKind::Triangle),
    .explainResult = ray_triangle_unit::explainResult,
    .explainSteps = ray_triangle_unit::explainSteps,
};

} // namespace kz
