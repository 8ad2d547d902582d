// What MeshBvh's AVX2 and AVX-512 paths share (private to src/geom): their vector of 8 floats for
// a node's boxes, with the part of Sse2Vec's API (mesh_bvh_traverse.hpp) that mesh_bvh_kernel.hpp's
// NodeRay uses, and the AVX2 path's vector of 8 floats for eight of a leaf's triangles, with
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

/// Eight floats in one 256-bit register for the AVX2 path's leaf filter: eight triangles of a leaf
/// at once, with the API of Sse2LeafVec (mesh_bvh_traverse.hpp). A row of up to 32 vertices is four
/// registers of 8; a coordinate is picked from each by VPERMPS on the index's low 3 bits, and
/// among them by its bits 3 and 4 (blends on the sign of the index shifted up).
struct AvxLeafVec {
    using T = __m256;
    static constexpr std::uint32_t kLanes = 8;
    struct Row {
        __m256 part[4];
        std::uint32_t parts;
    };
    using Corners = __m256i;
    static Row row(const float* p, std::uint32_t stride) {
        Row r;
        r.parts = (stride + 7) / 8;
        // A last part of 4 lanes reads 4 floats past the row: the next row or the leaf's corners,
        // or MeshBvh's padding (never indexed).
        r.part[0] = _mm256_loadu_ps(p);
        r.part[1] = r.parts > 1 ? _mm256_loadu_ps(p + 8) : r.part[0];
        r.part[2] = r.parts > 2 ? _mm256_loadu_ps(p + 16) : r.part[0];
        r.part[3] = r.parts > 3 ? _mm256_loadu_ps(p + 24) : r.part[0];
        return r;
    }
    static Corners corners(const std::uint8_t* p) {
        return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
    }
    static T gather(const Row& r, Corners c) {
        T v = _mm256_permutevar8x32_ps(r.part[0], c);
        if (r.parts == 1) return v;
        const T bit3 = _mm256_castsi256_ps(_mm256_slli_epi32(c, 28));
        v = _mm256_blendv_ps(v, _mm256_permutevar8x32_ps(r.part[1], c), bit3);
        if (r.parts == 2) return v;
        T w = _mm256_permutevar8x32_ps(r.part[2], c);
        w = _mm256_blendv_ps(w, _mm256_permutevar8x32_ps(r.part[3], c), bit3);
        return _mm256_blendv_ps(v, w, _mm256_castsi256_ps(_mm256_slli_epi32(c, 27)));
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
