// The AVX-512 path of MeshBvh's ray queries: mesh_bvh_kernel.hpp's templates with the AVX2 path's
// 8-wide box test comparing straight into mask registers (AVX-512VL), a 16-wide leaf filter (512-bit
// registers: a leaf of up to 16 triangles in one pass, VPERMT2PS picking their coordinates), and
// three or more entered children's distances, node indices and counts put in the octant's order
// with permutes and packed with compress instructions, stored eight lanes at once. The same
// operations on the same boxes as the other paths, so the same boxes are entered at the same t,
// and the same children pushed in the same order. Only the code between KZ_TARGET_BEGIN and
// KZ_TARGET_END is compiled for AVX-512; the dispatch (simd_path.cpp) calls it only on a CPU with
// AVX-512F and VL.
#include "mesh_bvh_target.hpp" // first: the shared code stays baseline

KZ_TARGET_BEGIN("avx2,avx512f,avx512vl")

#include "mesh_bvh_avx.hpp"

namespace kz::detail {
namespace {

/// The leaf filter's vector (the API of Sse2LeafVec, mesh_bvh_traverse.hpp): 16 floats, 16
/// triangles of a leaf at once. A row of up to 32 vertices is two registers, and VPERMT2PS picks
/// each triangle's coordinate from them in one instruction. Here and below, the zero-masking forms
/// with every lane selected where a plain form exists: GCC 12's plain 512-bit forms pass an
/// undefined vector to their builtins, and -Wmaybe-uninitialized then warns where they are
/// inlined. Same instructions.
struct Avx512LeafVec {
    using T = __m512;
    static constexpr std::uint32_t kLanes = 16;
    static constexpr __mmask16 kAll = 0xFFFF;
    struct Row {
        __m512 lo, hi;
    };
    using Corners = __m512i;
    /// Masked loads: nothing past the row's `stride` floats is read.
    static Row row(const float* p, std::uint32_t stride) {
        const std::uint32_t hi = stride > 16 ? stride - 16 : 0;
        return {_mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << std::min(stride, 16u)) - 1), p),
                _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << hi) - 1), p + 16)};
    }
    static Corners corners(const std::uint8_t* p) {
        return _mm512_maskz_cvtepu8_epi32(kAll, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    static T gather(const Row& r, Corners c) { return _mm512_permutex2var_ps(r.lo, c, r.hi); }
    static T splat(float x) { return _mm512_set1_ps(x); }
    static T abs(T a) { return _mm512_abs_ps(a); }
    static T max(T a, T b) { return _mm512_maskz_max_ps(kAll, a, b); }
    static T min(T a, T b) { return _mm512_maskz_min_ps(kAll, a, b); }
    static int less(T a, T b) { return static_cast<int>(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)); }
};

struct Avx512 {
    using BoxVec = AvxVec<true>;
    using LeafVec = Avx512LeafVec;

    /// pushFarToNearScalar's result (mesh_bvh_traverse.hpp) with vectors: the children's
    /// references, counts and distances permuted into the octant's far-to-near order, then the
    /// entered ones compressed into the low lanes and stored, eight lanes each.
    template <class Node>
    [[gnu::always_inline]] static void pushFarToNear(const Node& node, int mask, const float (&tEnter)[8],
                                                     int octant, std::uint32_t* index, std::uint32_t* count,
                                                     float* t) {
        bool reversed = false;
        const std::uint32_t row = farToNearRow(node, octant, reversed);
        const __m256i shifts = reversed ? _mm256_setr_epi32(21, 18, 15, 12, 9, 6, 3, 0)
                                        : _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
        const __m256i order = _mm256_and_si256(
            _mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(row)), shifts), _mm256_set1_epi32(7));
        const __m256i entered = _mm256_maskz_set1_epi32(static_cast<__mmask8>(mask), -1);
        const __mmask8 inOrder = _mm256_cmp_epi32_mask(_mm256_permutexvar_epi32(order, entered),
                                                       _mm256_setzero_si256(), _MM_CMPINT_NE);
        _mm256_storeu_si256(
            reinterpret_cast<__m256i*>(index),
            _mm256_maskz_compress_epi32(
                inOrder, _mm256_permutexvar_epi32(
                             order, _mm256_load_si256(reinterpret_cast<const __m256i*>(node.child)))));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(count),
                            _mm256_maskz_compress_epi32(
                                inOrder, _mm256_permutexvar_epi32(
                                             order, _mm256_cvtepu8_epi32(_mm_loadl_epi64(
                                                        reinterpret_cast<const __m128i*>(node.count))))));
        _mm256_storeu_ps(
            t, _mm256_maskz_compress_ps(inOrder, _mm256_permutexvar_ps(order, _mm256_loadu_ps(tEnter))));
    }
};

} // namespace
} // namespace kz::detail

#include "mesh_bvh_kernel.hpp"

namespace kz::detail {
const MeshKernels kAvx512MeshKernels = MeshBvhKernels::table<Avx512>();
} // namespace kz::detail

KZ_TARGET_END
