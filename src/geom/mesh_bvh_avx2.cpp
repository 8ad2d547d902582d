// The AVX2 path of MeshBvh's ray queries: mesh_bvh_kernel.hpp's templates with a node's eight
// boxes tested in one 8-wide group (the SSE2 path's very operations, so the same boxes are entered
// at the same t) and a leaf's triangles filtered two blocks of four at a time in one 8-wide
// vector of floats (mesh_bvh_avx.hpp; the same operations, so the same triangles kept). Only the
// code between
// KZ_TARGET_BEGIN and KZ_TARGET_END is compiled for AVX2; the dispatch (simd_path.cpp) calls it
// only on a CPU that has AVX2.
#include "mesh_bvh_target.hpp" // first: the shared code stays baseline

KZ_TARGET_BEGIN("avx2")

#include "mesh_bvh_avx.hpp"

namespace kz::detail {
namespace {

/// The entered children pushed in order one by one, as on the SSE2 path (a vector push with a
/// table of compress indices measured no faster).
struct Avx2 : ScalarPush {
    using BoxVec = AvxVec<false>;
    using LeafVec = AvxLeafVec;
};

} // namespace
} // namespace kz::detail

#include "mesh_bvh_kernel.hpp"

namespace kz::detail {
const MeshKernels kAvx2MeshKernels = MeshBvhKernels::table<Avx2>();
} // namespace kz::detail

KZ_TARGET_END
