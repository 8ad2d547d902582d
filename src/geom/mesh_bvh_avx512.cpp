// The AVX-512 path of MeshBvh's ray queries: mesh_bvh_kernel.hpp's templates with the AVX2 path's
// 8-wide box test comparing straight into mask registers (AVX-512VL), a 16-wide leaf filter (512-bit
// registers: a leaf of up to 16 triangles in one pass, VPERMT2PS picking their coordinates), and
// the entered children's distances, node indices and counts packed with compress instructions
// instead of a loop over the mask's bits. The same operations on the same boxes as the other
// paths, so the same boxes are entered at the same t. Only the code between KZ_TARGET_BEGIN and
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

    /// The entered children packed in slot order: their distances, node or leaf indices and
    /// counts compressed into the low lanes (in registers: a compress straight to memory is
    /// slow on some CPUs).
    template <class Node, class Entry>
    [[gnu::always_inline]] static int gather(const Node& node, int mask, const float (&tEnter)[8],
                                             Entry (&out)[8]) {
        const auto m = static_cast<__mmask8>(mask);
        alignas(32) float t[8];
        alignas(32) std::uint32_t child[8];
        alignas(32) std::uint32_t count[8];
        _mm256_store_ps(t, _mm256_maskz_compress_ps(m, _mm256_loadu_ps(tEnter)));
        _mm256_store_si256(
            reinterpret_cast<__m256i*>(child),
            _mm256_maskz_compress_epi32(m, _mm256_load_si256(reinterpret_cast<const __m256i*>(node.child))));
        _mm256_store_si256(
            reinterpret_cast<__m256i*>(count),
            _mm256_maskz_compress_epi32(
                m, _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(node.count)))));
        const int k = std::popcount(static_cast<unsigned>(mask));
        for (int i = 0; i < k; ++i)
            out[i] = Entry{child[i], count[i], t[i]};
        return k;
    }
};

} // namespace
} // namespace kz::detail

#include "mesh_bvh_kernel.hpp"

namespace kz::detail {
const MeshKernels kAvx512MeshKernels = MeshBvhKernels::table<Avx512>();
} // namespace kz::detail

KZ_TARGET_END
