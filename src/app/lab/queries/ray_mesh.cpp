// ray-mesh, precise mesh picking (seed 4): the BVH's boxes first, then the triangles; a ray
// through the ring's hole misses, though the ring's box would stop it.
#include "app/lab/queries/parts.hpp"
#include "geom/explain_ray.hpp"
#include "geom/raycast.hpp"

#include <cmath>

namespace kz {
namespace {

using namespace lab_parts;
using namespace explain_json;

// The unit's own names, so that no two units' helpers meet (in a unity build too).
namespace ray_mesh_unit {

void placeQuery(LabScene& scene) {
    // The ray through the ring's tube, beside its hole.
    scene.shapes.push_back(
        meshShape(LabShapeKind::Mesh, "ring", {0.2f, -0.1f, 0.0f}, eulerDeg(75, 0, 0), kColorB));
    addRay(scene);
}

LabResult runQuery(const LabScene& scene) {
    const auto obstacle = labObstacle(shapeA(scene));
    const auto hit = obstacle ? raycast(labRay(scene), *obstacle, 1.0f) : std::nullopt;
    if (!hit) return rayResult(std::nullopt);
    LabResult result = rayResult(RayHit{hit->t, hit->point, hit->normal});
    result.meshTriangle = hit->triangle;
    result.numbers.push_back({"triangle", static_cast<float>(hit->triangle)});
    return result;
}

void traceQuery(const LabScene& scene, LabTrace& out) {
    if (scene.shapes.empty()) return;
    if (auto obstacle = labObstacle(shapeA(scene))) {
        // The world ray moved into the mesh's frame: the same t (obstacle.hpp).
        const Ray ray = labRay(scene);
        const Ray local{obstacle->toLocal(ray.origin), obstacle->inverseLinear * ray.dir};
        out.rayMesh = obstacle->mesh->bvh.explainRaycast(local, 1.0f);
        out.meshPlacement = std::move(obstacle);
    }
}

/// The traversal's events 0..labBvhLastEvent: boxes by kind, the tested leaves' triangles, each
/// new best hit; the last event over everything.
void drawSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    const LabTrace& trace = result.trace;
    if (!trace.rayMesh || !trace.meshPlacement || !view.show(LabLayer::Bvh)) return;
    const Obstacle& placement = *trace.meshPlacement;
    const Ray ray = labRay(scene);
    const int last = labBvhLastEvent(*trace.rayMesh, view);
    for (int i = 0; i <= last; ++i) {
        const BvhEvent& event = trace.rayMesh->events[std::size_t(i)];
        const bool current = i == last;
        switch (event.kind) {
        case BvhEventKind::Entered:
            placedBox(canvas, placement, event.box, kLabBvhEnteredColor, current);
            break;
        case BvhEventKind::Culled:
            placedBox(canvas, placement, event.box, kLabBvhCulledColor, current);
            break;
        case BvhEventKind::Skipped:
            placedBox(canvas, placement, event.box, kLabBvhSkippedColor, current);
            break;
        case BvhEventKind::LeafTested:
            for (std::uint32_t k = 0; k < event.triangleCount && k < event.triangles.size(); ++k) {
                const Triangle tri = placement.worldTriangle(event.triangles[k]);
                const glm::vec3 v[3] = {tri.a, tri.b, tri.c};
                loop(canvas, v, 3, kLabLeafColor, current);
            }
            break;
        case BvhEventKind::NewBestHit:
            canvas.cross(ray.origin + event.t * ray.dir, kRootColor);
            break;
        }
    }
}

/// The step slider, the counts of each kind of event up to it, the best hit so far.
void panelSteps(LabView& view, const LabResult& result) {
    if (!result.trace.rayMesh) return;
    const MeshRayTrace& trace = *result.trace.rayMesh;
    const int count = static_cast<int>(trace.events.size());
    if (count == 0) {
        ImGui::TextDisabled("no traversal (invalid ray)");
        return;
    }
    int step = labBvhLastEvent(trace, view);
    if (ImGui::SliderInt("step", &step, 0, count - 1)) view.bvhStep = step >= count - 1 ? -1 : step;
    int kinds[5] = {}, triangles = 0;
    for (int i = 0; i <= step; ++i) {
        const BvhEvent& e = trace.events[std::size_t(i)];
        ++kinds[static_cast<int>(e.kind)];
        if (e.kind == BvhEventKind::LeafTested) triangles += static_cast<int>(e.triangleCount);
    }
    static constexpr const char* kKinds[] = {"entered", "culled (slab miss)", "skipped (beyond best)",
                                             "leaf tested", "new best hit"};
    const BvhEvent& e = trace.events[std::size_t(step)];
    ImGui::Text("event %d of %d: %s, depth %d, t %.3f", step, count - 1, kKinds[static_cast<int>(e.kind)],
                e.depth, double(e.t));
    ImGui::TextColored(imColor(kLabBvhEnteredColor), "entered %d", kinds[0]);
    ImGui::SameLine();
    ImGui::TextColored(imColor(kLabBvhCulledColor), " culled %d", kinds[1]);
    ImGui::SameLine();
    ImGui::TextColored(imColor(kLabBvhSkippedColor), " skipped %d", kinds[2]);
    ImGui::TextColored(imColor(kLabLeafColor), "leaves %d, triangles %d", kinds[3], triangles);
    if (std::isfinite(e.bestT)) {
        verdictText(true, "best hit so far: t = %.4f",
                    double(e.kind == BvhEventKind::NewBestHit ? e.t : e.bestT));
    } else {
        verdictText(e.kind == BvhEventKind::NewBestHit, "best hit so far: %s",
                    e.kind == BvhEventKind::NewBestHit ? "this one" : "none");
    }
}

// In the order of BvhEventKind (mesh_bvh.hpp).
constexpr std::array<const char*, 5> kEventNames{"entered", "culled", "skipped", "leaf_tested",
                                                 "new_best_hit"};

Json aabbJson(const Aabb& b) {
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
    j["box"] = aabbJson(e.box);
    return j;
}

Json explainResult(const ExplainInput& input) {
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

void explainSteps(const ExplainInput& input, Json& out) {
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

} // namespace ray_mesh_unit
} // namespace

extern const LabQueryUnit kRayMeshQuery{
    .name = "ray-mesh",
    .idea = "Precise mesh picking (seed 4): boxes first, then the triangles, to the triangle: a ray through "
            "the ring's hole misses, though the ring's box would stop it.",
    .controls = kRayControls,
    .place = ray_mesh_unit::placeQuery,
    .run = ray_mesh_unit::runQuery,
    .trace = ray_mesh_unit::traceQuery,
    .layers = labLayerBit(LabLayer::Bvh),
    .drawAnswer = drawRay,
    .drawSteps = ray_mesh_unit::drawSteps,
    .panelSteps = ray_mesh_unit::panelSteps,
    .explainNeeds = explainRayNeeds(ExplainShapeKind::Mesh),
    .explainResult = ray_mesh_unit::explainResult,
    .explainSteps = ray_mesh_unit::explainSteps,
};

} // namespace kz
