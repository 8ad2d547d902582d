// What MeshBvh's AVX2 and AVX-512 paths share (private to src/geom): their float vectors, 8 lanes
// for a node's boxes and 4 (VEX-encoded) for a leaf's triangles, with the API of Sse2Vec
// (mesh_bvh_traverse.hpp) that mesh_bvh_kernel.hpp's NodeRay and leafCandidates use. Included only
// by mesh_bvh_avx2.cpp and mesh_bvh_avx512.cpp, inside their target switch; everything here has
// internal linkage, so each file gets its own copy for its own target. kMaskRegisters
// (AVX-512VL): comparisons give a mask register instead of a vector to move to a mask.
#pragma once

namespace kz::detail {
namespace {

/// The vector type of kWidth floats (a trait, not std::conditional_t, which would drop the
/// types' alignment attributes).
template <int kWidth>
struct AvxFloats;
template <>
struct AvxFloats<8> {
    using T = __m256;
};
template <>
struct AvxFloats<4> {
    using T = __m128;
};

template <int kWidth, bool kMaskRegisters>
struct AvxVec {
    using T = typename AvxFloats<kWidth>::T;
    static constexpr std::uint32_t kLanes = kWidth;

    static T load(const float* p) {
        if constexpr (kWidth == 8) {
            return _mm256_load_ps(p);
        } else {
            return _mm_load_ps(p);
        }
    }
    static void store(float* p, T a) {
        if constexpr (kWidth == 8) {
            _mm256_storeu_ps(p, a);
        } else {
            _mm_storeu_ps(p, a);
        }
    }
    static T splat(float x) {
        if constexpr (kWidth == 8) {
            return _mm256_set1_ps(x);
        } else {
            return _mm_set1_ps(x);
        }
    }
    static T abs(T a) {
        if constexpr (kWidth == 8) {
            return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
        } else {
            return _mm_andnot_ps(_mm_set1_ps(-0.0f), a);
        }
    }
    /// a > b ? a : b (b when either is NaN), as MAXPS.
    static T max(T a, T b) {
        if constexpr (kWidth == 8) {
            return _mm256_max_ps(a, b);
        } else {
            return _mm_max_ps(a, b);
        }
    }
    /// a < b ? a : b (b when either is NaN), as MINPS.
    static T min(T a, T b) {
        if constexpr (kWidth == 8) {
            return _mm256_min_ps(a, b);
        } else {
            return _mm_min_ps(a, b);
        }
    }
    /// Bit i set when a[i] < b[i] (false for NaN).
    static int less(T a, T b) { return compare<_CMP_LT_OQ>(a, b); }
    /// Bit i set when a[i] <= b[i] (false for NaN).
    static int lessEqual(T a, T b) { return compare<_CMP_LE_OQ>(a, b); }

    template <int kPredicate>
    static int compare(T a, T b) {
        if constexpr (kWidth == 8 && kMaskRegisters) {
            return static_cast<int>(_mm256_cmp_ps_mask(a, b, kPredicate));
        } else if constexpr (kWidth == 8) {
            return _mm256_movemask_ps(_mm256_cmp_ps(a, b, kPredicate));
        } else if constexpr (kMaskRegisters) {
            return static_cast<int>(_mm_cmp_ps_mask(a, b, kPredicate));
        } else {
            return _mm_movemask_ps(_mm_cmp_ps(a, b, kPredicate));
        }
    }
};

} // namespace
} // namespace kz::detail
