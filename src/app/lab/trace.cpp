#include "app/lab/trace.hpp"

#include <algorithm>

namespace kz {

LabTrace traceLabQuery(const LabScene& scene) {
    LabTrace trace;
    if (scene.shapes.empty() && scene.query != LabQuery::SegmentSegment) return trace;
    const auto shape = [&](std::size_t i) -> const LabShape& {
        return scene.shapes[std::min(i, scene.shapes.size() - 1)];
    };
    switch (scene.query) {
    case LabQuery::BoxBox:
        trace.boxBox = explainObbObb(labObb(shape(0)), labObb(shape(1)));
        break;
    case LabQuery::RayBox:
        trace.rayBox = explainRaycast(labRay(scene), labObb(shape(0)), 1.0f);
        break;
    case LabQuery::RaySphere:
        trace.raySphere = explainRaycast(labRay(scene), labSphere(shape(0)), 1.0f);
        break;
    case LabQuery::RayMesh:
        if (auto obstacle = labObstacle(shape(0))) {
            // The world ray moved into the mesh's frame: the same t (obstacle.hpp).
            const Ray ray = labRay(scene);
            const Ray local{obstacle->toLocal(ray.origin), obstacle->inverseLinear * ray.dir};
            trace.rayMesh = obstacle->mesh->bvh.explainRaycast(local, 1.0f);
            trace.meshPlacement = std::move(obstacle);
        }
        break;
    case LabQuery::SphereBox:
        trace.sphereBox = explainSphereObb(labSphere(shape(0)), labObb(shape(1)));
        break;
    case LabQuery::SphereTriangle:
        trace.sphereTriangle = explainSphereTriangle(labSphere(shape(0)), labTriangle(shape(1)));
        break;
    case LabQuery::SegmentSegment:
        if (scene.handles.size() >= 4) {
            const auto& h = scene.handles;
            trace.segments = explainClosestPtLinePieces(asSegment(h[0].position, h[1].position),
                                                        asSegment(h[2].position, h[3].position));
        }
        break;
    case LabQuery::SweepSphereTriangle:
        if (!scene.handles.empty()) {
            const Sphere s = labSphere(shape(0));
            trace.sweep = explainSweepSphereTriangle(s, scene.handles[0].position - s.center,
                                                     labTriangle(shape(1)), 1.0f);
        }
        break;
    case LabQuery::RayPlane:
        trace.rayPlane = explainRaycast(labRay(scene), labPlane(shape(0)), 1.0f);
        break;
    case LabQuery::RayTriangle:
        trace.rayTriangle = explainRaycastTriangle(labRay(scene), labTriangle(shape(0)), 1.0f);
        break;
    case LabQuery::SphereSphere:
        trace.sphereSphere = explainSphereSphere(labSphere(shape(0)), labSphere(shape(1)));
        break;
    case LabQuery::BoxPlane:
        trace.boxPlane = explainObbPlane(labObb(shape(0)), labPlane(shape(1)));
        break;
    case LabQuery::BoxTriangle:
        trace.boxTriangle = explainObbTriangle(labObb(shape(0)), labTriangle(shape(1)));
        break;
    }
    return trace;
}

const char* labLayerName(LabLayer layer) {
    switch (layer) {
    case LabLayer::Answer:
        return "answer (hit, contacts, closest points)";
    case LabLayer::SatAxis:
        return "SAT axis and projected intervals";
    case LabLayer::Manifold:
        return "manifold: incident face, clipped polygon";
    case LabLayer::Slabs:
        return "slab intervals and entering face";
    case LabLayer::Roots:
        return "the quadratic's roots";
    case LabLayer::Bvh:
        return "BVH traversal (boxes, leaves)";
    case LabLayer::Feature:
        return "the feature touched";
    case LabLayer::Candidates:
        return "the candidates' spheres";
    case LabLayer::Distances:
        return "signed distances to the plane";
    case LabLayer::EdgeFunctions:
        return "edge functions and barycentrics";
    case LabLayer::Clamping:
        return "the lines, s and t before clamping";
    }
    return "";
}

bool labQueryHasLayer(LabQuery query, LabLayer layer) {
    switch (layer) {
    case LabLayer::Answer:
        return true;
    case LabLayer::SatAxis:
        return query == LabQuery::BoxBox || query == LabQuery::SphereSphere || query == LabQuery::BoxTriangle;
    case LabLayer::Manifold:
        return query == LabQuery::BoxBox;
    case LabLayer::Slabs:
        return query == LabQuery::RayBox;
    case LabLayer::Roots:
        return query == LabQuery::RaySphere;
    case LabLayer::Bvh:
        return query == LabQuery::RayMesh;
    case LabLayer::Feature:
        return query == LabQuery::SphereBox || query == LabQuery::SphereTriangle ||
               query == LabQuery::SweepSphereTriangle;
    case LabLayer::Candidates:
        return query == LabQuery::SweepSphereTriangle;
    case LabLayer::Distances:
        return query == LabQuery::RayPlane || query == LabQuery::BoxPlane;
    case LabLayer::EdgeFunctions:
        return query == LabQuery::RayTriangle;
    case LabLayer::Clamping:
        return query == LabQuery::SegmentSegment;
    }
    return false;
}

int labSatAxis(const ObbObbTrace& trace, const LabView& view) {
    if (view.satAxis >= 0 && view.satAxis < 15) return view.satAxis;
    if (trace.separatingAxis >= 0) return trace.separatingAxis;
    return std::max(trace.leastPenetrationAxis, 0);
}

int labBoxTriangleAxis(const ObbTriangleTrace& trace, const LabView& view) {
    if (view.satAxis >= 0 && view.satAxis < 13) return view.satAxis;
    return std::max(trace.largestAxis, 0);
}

int labBvhLastEvent(const MeshRayTrace& trace, const LabView& view) {
    const int last = static_cast<int>(trace.events.size()) - 1;
    return view.bvhStep < 0 ? last : std::min(view.bvhStep, last);
}

} // namespace kz
