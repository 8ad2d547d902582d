// MeshBvh's ray queries: raycast (nearest hit) and raycastAll (every hit), both over the traversal
// of mesh_bvh_traverse.hpp (an iterative stack over the 8-wide nodes, nearest child first), which
// MeshBvh::explainRaycast (mesh_bvh_explain.cpp) shares. The box-overlap query,
// forEachTriangleOverlapping, is a template in mesh_bvh.hpp. A new ray query goes here: it calls
// traverse() with a leaf visitor built on detail::WatertightRay, as raycastAll does.
#include "mesh_bvh_traverse.hpp"

#include <algorithm>

namespace kz {

std::optional<MeshHit> MeshBvh::raycast(const Ray& ray, float tMax) const {
    return nearestHit(ray, tMax, detail::NoTraversalObserver{});
}

std::vector<MeshHit> MeshBvh::raycastAll(const Ray& ray, float tMax) const {
    std::vector<MeshHit> hits;
    if (nodes_.empty() || !detail::validMeshRay(ray, tMax)) return hits;
    const detail::WatertightRay watertight(ray, tMax);
    traverse(
        ray, tMax,
        [&](std::uint32_t first, std::uint32_t count) {
            for (std::uint32_t i = first; i < first + count; ++i) {
                TriangleHit hit;
                if (!watertight.intersect(triangles_[i], hit)) continue;
                const MeshHit meshHit = detail::toMeshHit(ray, hit, triIds_[i]);
                if (isFinite(meshHit.point)) hits.push_back(meshHit);
            }
            return INFINITY;
        },
        detail::NoTraversalObserver{});
    std::sort(hits.begin(), hits.end(), [](const MeshHit& a, const MeshHit& b) {
        return a.t < b.t || (a.t == b.t && a.triangle < b.triangle);
    });
    return hits;
}

} // namespace kz
