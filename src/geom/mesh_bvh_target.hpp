// The prologue of MeshBvh's AVX translation units (private to src/geom): everything
// mesh_bvh_kernel.hpp and mesh_bvh_avx.hpp use, included here for the baseline target, and the
// two macros that switch a target on and off around the code between them (GCC's target pragma,
// or Clang's attribute pragma, which gives every function declared in between the target).
#pragma once

#include "mesh_bvh_dispatch.hpp"
#include "mesh_bvh_traverse.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <immintrin.h>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#define KZ_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define KZ_TARGET_BEGIN(isa)                                                                                 \
    KZ_PRAGMA(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define KZ_TARGET_END KZ_PRAGMA(clang attribute pop)
#else
#define KZ_TARGET_BEGIN(isa) KZ_PRAGMA(GCC push_options) KZ_PRAGMA(GCC target(isa))
#define KZ_TARGET_END KZ_PRAGMA(GCC pop_options)
#endif
