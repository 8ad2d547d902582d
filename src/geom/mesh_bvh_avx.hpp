// What MeshBvh's AVX2 and AVX-512 paths share (private to src/geom): their vector of 8 floats for
// a node's boxes, with the part of Sse2Vec's API (mesh_bvh_traverse.hpp) that mesh_bvh_kernel.hpp's
// NodeRay uses, and the AVX2 path's vector of 8 floats for two blocks of a leaf's triangles, with
// Sse2LeafVec's API that leafCandidates uses. Included only by mesh_bvh_avx2.cpp and
// mesh_bvh_avx512.cpp, inside their target switch; everything here has internal linkage, so each
// file gets its own copy for its own target. kMaskRegisters (AVX-512VL): comparisons give a mask
// register instead of a vector to move to a mask.
#pragma once

namespace kz::detail {
namespace {

/// Eight floats in one 256-bit register, for a node's boxes.
template <bool kMaskRegisters>
struct AvxVec {
    using T = __m256;
    static constexpr std::uint32_t kLanes = 8;
    static T load(const float* p) { return _mm256_load_ps(p); }
    static void store(float* p, T a) { _mm256_storeu_ps(p, a); }
    static T splat(float x) { return _mm256_set1_ps(x); }
    /// a > b ? a : b (b when either is NaN), as MAXPS.
    static T max(T a, T b) { return _mm256_max_ps(a, b); }
    /// a < b ? a : b (b when either is NaN), as MINPS.
    static T min(T a, T b) { return _mm256_min_ps(a, b); }
    /// Bit i set when a[i] <= b[i] (false for NaN).
    static int lessEqual(T a, T b) {
        if constexpr (kMaskRegisters) {
            return static_cast<int>(_mm256_cmp_ps_mask(a, b, _CMP_LE_OQ));
        } else {
            return _mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_LE_OQ));
        }
    }
};

/// Eight floats in one 256-bit register for the AVX2 path's leaf filter: two blocks of a leaf at
/// once, with the API of Sse2LeafVec (mesh_bvh_traverse.hpp). The AVX-512 path filters four blocks
/// at once (Avx512LeafVec, mesh_bvh_avx512.cpp).
struct AvxLeafVec {
    using T = __m256;
    static constexpr std::uint32_t kBlocks = 2;
    /// A row of two blocks: blocks[0] in lanes 0-3, blocks[1] in 4-7.
    static T load(const float* const (&blocks)[kBlocks], int offset) {
        return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(blocks[0] + offset)),
                                    _mm_load_ps(blocks[1] + offset), 1);
    }
    static T splat(float x) { return _mm256_set1_ps(x); }
    static T abs(T a) { return _mm256_and_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF))); }
    static T max(T a, T b) { return _mm256_max_ps(a, b); }
    static T min(T a, T b) { return _mm256_min_ps(a, b); }
    /// Bit i set when a[i] < b[i] (false for NaN).
    static int less(T a, T b) { return _mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_LT_OQ)); }
};

} // namespace
} // namespace kz::detail
