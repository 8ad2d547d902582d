// Four floats at once for MeshBvh's build and its SSE2 box test and leaf filter (private to
// src/geom): SSE2 (the x86-64 baseline) or plain loops with the same semantics lane by
// lane, so that results never depend on the backend.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#define KZ_MESH_BVH_SSE2 1
#else
#define KZ_MESH_BVH_SSE2 0
#endif

namespace kz::detail {

#if KZ_MESH_BVH_SSE2
struct F4 {
    __m128 v;
};
inline F4 load4(const float* p) {
    return {_mm_load_ps(p)};
} // 16-byte aligned
inline F4 set4(float a, float b, float c, float d) {
    return {_mm_setr_ps(a, b, c, d)};
}
inline F4 splat4(float x) {
    return {_mm_set1_ps(x)};
}
inline void store4(float* p, F4 a) {
    _mm_storeu_ps(p, a.v);
}
inline F4 operator+(F4 a, F4 b) {
    return {_mm_add_ps(a.v, b.v)};
}
inline F4 operator-(F4 a, F4 b) {
    return {_mm_sub_ps(a.v, b.v)};
}
inline F4 operator*(F4 a, F4 b) {
    return {_mm_mul_ps(a.v, b.v)};
}
/// a < b ? a : b per lane (b when either is NaN), as MINPS.
inline F4 min4(F4 a, F4 b) {
    return {_mm_min_ps(a.v, b.v)};
}
/// a > b ? a : b per lane (b when either is NaN), as MAXPS.
inline F4 max4(F4 a, F4 b) {
    return {_mm_max_ps(a.v, b.v)};
}
/// Bit i set when a[i] <= b[i] (false for NaN).
inline int lessEqualMask(F4 a, F4 b) {
    return _mm_movemask_ps(_mm_cmple_ps(a.v, b.v));
}
/// Bit i set when a[i] < b[i] (false for NaN).
inline int lessMask(F4 a, F4 b) {
    return _mm_movemask_ps(_mm_cmplt_ps(a.v, b.v));
}
/// |a| per lane (the sign bit cleared).
inline F4 abs4(F4 a) {
    return {_mm_and_ps(a.v, _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF)))};
}
/// Lanes 0-2 of a, lane 3 zero.
inline F4 xyz4(F4 a) {
    return {_mm_and_ps(a.v, _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1)))};
}
/// Truncates lanes 0-2 (already clamped to [0, kBins - 1]) to ints.
inline void truncate3(F4 a, int (&out)[4]) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_cvttps_epi32(a.v));
}
/// Lanes 0-2 of a, b, c, d as three vectors: x = (a0, b0, c0, d0), y = (a1, ...), z = (a2, ...).
inline void transpose3(F4 a, F4 b, F4 c, F4 d, F4& x, F4& y, F4& z) {
    const __m128 ab01 = _mm_unpacklo_ps(a.v, b.v); // a0 b0 a1 b1
    const __m128 cd01 = _mm_unpacklo_ps(c.v, d.v);
    const __m128 ab23 = _mm_unpackhi_ps(a.v, b.v); // a2 b2 a3 b3
    const __m128 cd23 = _mm_unpackhi_ps(c.v, d.v);
    x.v = _mm_movelh_ps(ab01, cd01);
    y.v = _mm_movehl_ps(cd01, ab01);
    z.v = _mm_movelh_ps(ab23, cd23);
}
#else
struct F4 {
    float v[4];
};
template <class Op>
inline F4 lanes(Op op) {
    F4 r;
    for (int i = 0; i < 4; ++i)
        r.v[i] = op(i);
    return r;
}
inline F4 load4(const float* p) {
    return lanes([&](int i) { return p[i]; });
}
inline F4 set4(float a, float b, float c, float d) {
    return {{a, b, c, d}};
}
inline F4 splat4(float x) {
    return lanes([&](int) { return x; });
}
inline void store4(float* p, F4 a) {
    std::memcpy(p, a.v, sizeof a.v);
}
inline F4 operator+(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] + b.v[i]; });
}
inline F4 operator-(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] - b.v[i]; });
}
inline F4 operator*(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] * b.v[i]; });
}
inline F4 min4(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] < b.v[i] ? a.v[i] : b.v[i]; });
}
inline F4 max4(F4 a, F4 b) {
    return lanes([&](int i) { return a.v[i] > b.v[i] ? a.v[i] : b.v[i]; });
}
inline int lessEqualMask(F4 a, F4 b) {
    int mask = 0;
    for (int i = 0; i < 4; ++i)
        mask |= a.v[i] <= b.v[i] ? 1 << i : 0;
    return mask;
}
inline int lessMask(F4 a, F4 b) {
    int mask = 0;
    for (int i = 0; i < 4; ++i)
        mask |= a.v[i] < b.v[i] ? 1 << i : 0;
    return mask;
}
inline F4 abs4(F4 a) {
    return lanes([&](int i) { return std::fabs(a.v[i]); });
}
inline F4 xyz4(F4 a) {
    a.v[3] = 0.0f;
    return a;
}
inline void truncate3(F4 a, int (&out)[4]) {
    for (int i = 0; i < 3; ++i)
        out[i] = static_cast<int>(a.v[i]);
    out[3] = 0;
}
inline void transpose3(F4 a, F4 b, F4 c, F4 d, F4& x, F4& y, F4& z) {
    x = set4(a.v[0], b.v[0], c.v[0], d.v[0]);
    y = set4(a.v[1], b.v[1], c.v[1], d.v[1]);
    z = set4(a.v[2], b.v[2], c.v[2], d.v[2]);
}
#endif

/// Starts loading the cache line at `address` + kOffset (no fault, whatever it is). An asm
/// statement on x86-64 with GCC or Clang: GCC 12 treats _mm_prefetch and __builtin_prefetch as
/// removable, and dropped them from branches whose bodies it merged (every prefetch of the
/// traversal, in one version). An address, not a pointer: a line past the end of an array may be
/// prefetched.
template <std::size_t kOffset = 0>
inline void prefetchAddress(std::uintptr_t address) {
#if defined(__x86_64__) && defined(__GNUC__)
    asm volatile("prefetcht0 %c1(%0)" : : "r"(address), "i"(kOffset));
#elif KZ_MESH_BVH_SSE2
    _mm_prefetch(reinterpret_cast<const char*>(address + kOffset), _MM_HINT_T0);
#elif defined(__GNUC__)
    __builtin_prefetch(reinterpret_cast<const void*>(address + kOffset));
#endif
}

/// Starts loading the cache line holding p.
inline void prefetchLine(const char* p) {
    prefetchAddress(reinterpret_cast<std::uintptr_t>(p));
}

/// Starts loading the cache lines of [p, p + kBytes): a ray that enters several children needs
/// them soon, and the loads then overlap. One prefetch for each line, unrolled. (A size known at
/// compile time: GCC 12 dropped every prefetch of a loop over a size chosen between two constants,
/// as in prefetch(p, leaf ? 256 : 512).)
template <std::size_t kBytes>
inline void prefetch(const void* p) {
    static_assert(kBytes > 0 && kBytes % 64 == 0, "whole cache lines");
    const auto base = reinterpret_cast<std::uintptr_t>(p);
    [base]<std::size_t... kLine>(std::index_sequence<kLine...>) {
        (prefetchAddress<64 * kLine>(base), ...);
    }
    (std::make_index_sequence<kBytes / 64>{});
}

inline float lane(F4 a, int i) {
    alignas(16) float f[4];
    store4(f, a);
    return f[i];
}

} // namespace kz::detail
