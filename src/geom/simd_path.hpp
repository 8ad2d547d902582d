// Which SIMD code path MeshBvh's ray queries run: SSE2 (every x86-64 CPU), AVX2 or AVX-512,
// chosen once at run time from the CPU's features, or forced with the environment variable
// KOLIZE_SIMD=sse2|avx2|avx512. Every path gives bit-identical results (the same triangles, t,
// barycentrics and normals, tie-breaks included): they differ only in how many boxes and
// triangles one instruction tests.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kz {

enum class SimdPath {
    Sse2,   ///< 4-wide (the x86-64 baseline; plain loops with the same results on other CPUs).
    Avx2,   ///< 8-wide boxes, VEX-encoded leaves.
    Avx512, ///< AVX-512 (F, VL): mask registers and compress-stores in the traversal.
};

/// "sse2", "avx2" or "avx512".
std::string_view simdPathName(SimdPath path);

/// The path named `name` (as simdPathName spells it), or nullopt.
std::optional<SimdPath> parseSimdPath(std::string_view name);

/// Whether this binary has the path and this CPU can run it.
bool simdPathSupported(SimdPath path);

/// The supported paths, slowest first: always Sse2 first.
std::vector<SimdPath> supportedSimdPaths();

/// The path the queries run now: KOLIZE_SIMD's when it names a supported path, else the widest
/// supported one. Read once, at the first call (or the first query).
SimdPath activeSimdPath();

/// Makes `path` the active one for every later query in this process (tests and benchmarks
/// compare paths in one run). False, and nothing changes, when it is not supported.
bool useSimdPath(SimdPath path);

/// The one-line error for a KOLIZE_SIMD that names no path, or a path this CPU or binary cannot
/// run, e.g. "KOLIZE_SIMD=avx9 is not a SIMD path (use sse2, avx2 or avx512)"; empty when the
/// variable is unset, empty or valid. Programs check it at start and stop with it, so that a
/// forced path is never silently replaced by another.
std::string simdPathEnvironmentError();

} // namespace kz
