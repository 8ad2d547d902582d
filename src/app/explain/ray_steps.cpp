// The ray queries of `kolize explain`: each result is the fast query's (raycast, or the placed
// mesh's raycast for ray-mesh), each steps hook writes its trace (explain_ray.hpp). The keys are
// listed in docs/command-line.md, "The explain command".
#include "app/explain/ray_steps.hpp"

#include "app/explain/json.hpp"
#include "geom/explain_ray.hpp"
#include "geom/raycast.hpp"

#include <array>
#include <cstddef>
#include <string>

namespace kz::explain_steps {

using namespace explain_json;

namespace {

/// The name of an enum value from its table, which lists the names in the enum's order.
template <class Enum, std::size_t N>
const char* nameOf(Enum value, const std::array<const char*, N>& names) {
    const auto i = static_cast<std::size_t>(value);
    return i < N ? names[i] : "?";
}

// Each in the order of its enum in explain_ray.hpp.
constexpr std::array<const char*, 7> kSphereReasons{
    "near_root",    "inside_start",      "behind_origin", "negative_discriminant",
    "beyond_t_max", "non_finite_result", "invalid_input"};
constexpr std::array<const char*, 6> kBoxReasons{"hit",          "inside_start",      "missed_by_slab",
                                                 "beyond_t_max", "non_finite_result", "invalid_input"};
constexpr std::array<const char*, 6> kPlaneReasons{"hit",          "parallel",          "behind_origin",
                                                   "beyond_t_max", "non_finite_result", "invalid_input"};
constexpr std::array<const char*, 10> kTriangleReasons{
    "hit",      "outside_an_edge", "below_rounding", "non_finite_triangle", "zero_area",
    "parallel", "behind_origin",   "beyond_t_max",   "non_finite_result",   "invalid_input"};
/// How far the watertight test got before each reason (the order it decides in): a step is
/// printed for the reasons at or beyond the stage that computes it.
constexpr std::array<int, 10> kTriangleStages{9, 1, 2, 3, 4, 5, 6, 7, 8, 0};
constexpr std::array<const char*, 3> kSlabKinds{"crossing", "parallel_inside", "parallel_outside"};
constexpr std::array<const char*, 5> kEventNames{"entered", "culled", "skipped", "leaf_tested",
                                                 "new_best_hit"};

Json box(const Aabb& b) {
    return Json{{"min", vec(b.min)}, {"max", vec(b.max)}};
}

Json bvhEvent(const BvhEvent& e) {
    Json j{{"event", nameOf(e.kind, kEventNames)}, {e.leaf ? "leaf" : "node", e.index}, {"depth", e.depth}};
    if (e.kind == BvhEventKind::Entered || e.kind == BvhEventKind::Skipped ||
        e.kind == BvhEventKind::NewBestHit)
        j["t"] = number(e.t);
    if (e.kind != BvhEventKind::Culled) j["best_t"] = number(e.bestT);
    if (e.kind == BvhEventKind::LeafTested) {
        Json ids = Json::array();
        for (std::uint32_t i = 0; i < e.triangleCount; ++i)
            ids.push_back(e.triangles[i]);
        j["triangles"] = std::move(ids);
    }
    if (e.kind == BvhEventKind::NewBestHit) j["triangle"] = e.triangles[0];
    j["box"] = box(e.box);
    return j;
}

} // namespace

Json raySphereResult(const ExplainInput& input) {
    return rayHit(raycast(*input.ray, input.b.sphere, input.rayTMax));
}

void raySphereSteps(const ExplainInput& input, Json& out) {
    const RaySphereTrace trace = explainRaycast(*input.ray, input.b.sphere, input.rayTMax);
    out["reason"] = nameOf(trace.reason, kSphereReasons);
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

Json rayBoxResult(const ExplainInput& input) {
    return rayHit(raycast(*input.ray, input.b.box, input.rayTMax));
}

void rayBoxSteps(const ExplainInput& input, Json& out) {
    const RayBoxTrace trace = explainRaycast(*input.ray, input.b.box, input.rayTMax);
    out["reason"] = nameOf(trace.reason, kBoxReasons);
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

Json rayPlaneResult(const ExplainInput& input) {
    return rayHit(raycast(*input.ray, input.b.plane, input.rayTMax));
}

void rayPlaneSteps(const ExplainInput& input, Json& out) {
    const RayPlaneTrace trace = explainRaycast(*input.ray, input.b.plane, input.rayTMax);
    out["reason"] = nameOf(trace.reason, kPlaneReasons);
    out["denominator"] = number(trace.denominator);
    out["parallel_limit"] = number(trace.parallelLimit);
    out["facing"] = trace.facing;
    out["numerator"] = number(trace.numerator);
    out["t"] = trace.reason == RayPlaneReason::Parallel ? Json(nullptr) : number(trace.t);
    out["t_max"] = number(trace.tMax);
}

Json rayTriangleResult(const ExplainInput& input) {
    Json result = rayHit(raycast(*input.ray, input.b.triangle, input.rayTMax));
    if (const auto hit = raycastBarycentric(*input.ray, input.b.triangle, input.rayTMax)) {
        result["u"] = number(hit->u);
        result["v"] = number(hit->v);
    }
    return result;
}

void rayTriangleSteps(const ExplainInput& input, Json& out) {
    const RayTriangleTrace trace = explainRaycastTriangle(*input.ray, input.b.triangle, input.rayTMax);
    const int stage = kTriangleStages[static_cast<std::size_t>(trace.reason)];
    const auto reached = [&](int first, Json value) {
        return stage >= first ? std::move(value) : Json(nullptr);
    };
    out["reason"] = nameOf(trace.reason, kTriangleReasons);
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

Json rayMeshResult(const ExplainInput& input) {
    const auto hit = raycast(*input.ray, *input.b.mesh, input.rayTMax);
    if (!hit) return Json{{"hit", false}};
    return Json{{"hit", true},
                {"t", number(hit->t)},
                {"point", vec(hit->point)},
                {"normal", vec(hit->normal)},
                {"triangle", hit->triangle},
                {"u", number(hit->u)},
                {"v", number(hit->v)}};
}

void rayMeshSteps(const ExplainInput& input, Json& out) {
    // The ray in the mesh's frame, as raycast(Ray, Obstacle) moves it: t is the same in both.
    const Obstacle& mesh = *input.b.mesh;
    const Ray local{mesh.toLocal(input.ray->origin), mesh.inverseLinear * input.ray->dir};
    const MeshRayTrace trace = mesh.mesh->bvh.explainRaycast(local, input.rayTMax);
    out["local_ray"] = Json{{"origin", vec(local.origin)}, {"dir", vec(local.dir)}};
    Json events = Json::array();
    for (const BvhEvent& e : trace.events)
        events.push_back(bvhEvent(e));
    out["events"] = std::move(events);
    const BvhTotals& n = trace.totals;
    out["totals"] = Json{{"children_considered", n.childrenConsidered},
                         {"entered", n.entered},
                         {"culled", n.culled},
                         {"skipped", n.skipped},
                         {"leaves_tested", n.leavesTested},
                         {"triangles_tested", n.trianglesTested},
                         {"new_best_hits", n.newBestHits}};
    out["t_max"] = number(input.rayTMax);
}

} // namespace kz::explain_steps
