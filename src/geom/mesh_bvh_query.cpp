// MeshBvh's ray queries: raycast (nearest hit) and raycastAll (every hit) call the active SIMD
// path's kernels (mesh_bvh_dispatch.hpp, simd_path.hpp); this file also instantiates the SSE2
// path's (mesh_bvh_kernel.hpp with detail::Sse2). The box-overlap query,
// forEachTriangleOverlapping, is a template in mesh_bvh.hpp. A new ray query goes into
// mesh_bvh_kernel.hpp (a template over the path, calling traverse() with a leaf visitor built on
// detail::WatertightRay and leafCandidates, as allHits does) and into the dispatch table.
#include "mesh_bvh_kernel.hpp"

#include <algorithm>

namespace kz {

namespace detail {
const MeshKernels kSse2MeshKernels = MeshBvhKernels::table<Sse2>();
} // namespace detail

std::optional<MeshHit> MeshBvh::raycast(const Ray& ray, float tMax) const {
    return detail::activeMeshKernels().raycast(*this, ray, tMax);
}

std::vector<MeshHit> MeshBvh::raycastAll(const Ray& ray, float tMax) const {
    std::vector<MeshHit> hits;
    detail::activeMeshKernels().raycastAll(*this, ray, tMax, hits);
    std::sort(hits.begin(), hits.end(), [](const MeshHit& a, const MeshHit& b) {
        return a.t < b.t || (a.t == b.t && a.triangle < b.triangle);
    });
    return hits;
}

} // namespace kz
