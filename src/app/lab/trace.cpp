#include "app/lab/trace.hpp"

#include "app/lab/queries/unit.hpp"

#include <algorithm>

namespace kz {

LabTrace traceLabQuery(const LabScene& scene) {
    LabTrace trace;
    labQueryInfo(scene.query).trace(scene, trace);
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
    case LabLayer::Simplex:
        return "A - B, GJK's simplex and support points";
    case LabLayer::Polytope:
        return "A - B, EPA's polytope and nearest face";
    case LabLayer::RaySteps:
        return "the ray cast's points and support points";
    case LabLayer::CastSteps:
        return "A at each step's time, the step's distance";
    }
    return "";
}

bool labQueryHasLayer(LabQuery query, LabLayer layer) {
    return layer == LabLayer::Answer || (labQueryInfo(query).layers & labLayerBit(layer)) != 0;
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
