// MeshBvh's ray queries compiled once per SIMD path (private to src/geom): each path's translation
// unit instantiates the templates of mesh_bvh_kernel.hpp with its own Isa and exports them here;
// MeshBvh::raycast and raycastAll call the active path's (simd_path.hpp).
#pragma once

#include "mesh_bvh.hpp"

#include <optional>
#include <vector>

namespace kz::detail {

struct MeshKernels {
    std::optional<MeshHit> (*raycast)(const MeshBvh& bvh, const Ray& ray, float tMax);
    /// Appends every hit, unsorted.
    void (*raycastAll)(const MeshBvh& bvh, const Ray& ray, float tMax, std::vector<MeshHit>& hits);
};

extern const MeshKernels kSse2MeshKernels; ///< mesh_bvh_query.cpp
#if KZ_SIMD_X86
extern const MeshKernels kAvx2MeshKernels;   ///< mesh_bvh_avx2.cpp
extern const MeshKernels kAvx512MeshKernels; ///< mesh_bvh_avx512.cpp
#endif

/// The kernels of activeSimdPath() (simd_path.cpp).
const MeshKernels& activeMeshKernels();

} // namespace kz::detail
