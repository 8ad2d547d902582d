// The SIMD path: the CPU check, KOLIZE_SIMD, and the table of MeshBvh kernels the queries call
// through (mesh_bvh_dispatch.hpp).
#include "simd_path.hpp"

#include "mesh_bvh_dispatch.hpp"

#include <array>
#include <atomic>
#include <cstdlib>

namespace kz {
namespace {

constexpr std::array<SimdPath, 3> kPaths{SimdPath::Sse2, SimdPath::Avx2, SimdPath::Avx512};

/// The kernels of `path`, or null when this binary was built without them.
const detail::MeshKernels* kernelsOf(SimdPath path) {
    switch (path) {
    case SimdPath::Sse2:
        return &detail::kSse2MeshKernels;
#if KZ_SIMD_X86
    case SimdPath::Avx2:
        return &detail::kAvx2MeshKernels;
    case SimdPath::Avx512:
        return &detail::kAvx512MeshKernels;
#else
    case SimdPath::Avx2:
    case SimdPath::Avx512:
        return nullptr;
#endif
    }
    return nullptr;
}

bool cpuHas(SimdPath path) {
#if KZ_SIMD_X86
    switch (path) {
    case SimdPath::Sse2:
        return true;
    case SimdPath::Avx2:
        return __builtin_cpu_supports("avx2");
    case SimdPath::Avx512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    }
    return false;
#else
    return path == SimdPath::Sse2;
#endif
}

/// KOLIZE_SIMD's value, or empty.
std::string_view environmentValue() {
    const char* value = std::getenv("KOLIZE_SIMD");
    return value != nullptr ? std::string_view(value) : std::string_view();
}

SimdPath initialPath() {
    if (const auto forced = parseSimdPath(environmentValue()); forced && simdPathSupported(*forced))
        return *forced;
    SimdPath best = SimdPath::Sse2;
    for (SimdPath p : kPaths)
        if (simdPathSupported(p)) best = p;
    return best;
}

std::atomic<SimdPath>& active() {
    static std::atomic<SimdPath> path{initialPath()};
    return path;
}

} // namespace

std::string_view simdPathName(SimdPath path) {
    switch (path) {
    case SimdPath::Sse2:
        return "sse2";
    case SimdPath::Avx2:
        return "avx2";
    case SimdPath::Avx512:
        return "avx512";
    }
    return "?";
}

std::optional<SimdPath> parseSimdPath(std::string_view name) {
    for (SimdPath p : kPaths)
        if (simdPathName(p) == name) return p;
    return std::nullopt;
}

bool simdPathSupported(SimdPath path) {
    return kernelsOf(path) != nullptr && cpuHas(path);
}

std::vector<SimdPath> supportedSimdPaths() {
    std::vector<SimdPath> out;
    for (SimdPath p : kPaths)
        if (simdPathSupported(p)) out.push_back(p);
    return out;
}

SimdPath activeSimdPath() {
    return active().load(std::memory_order_relaxed);
}

bool useSimdPath(SimdPath path) {
    if (!simdPathSupported(path)) return false;
    active().store(path, std::memory_order_relaxed);
    return true;
}

std::string simdPathEnvironmentError() {
    const std::string_view value = environmentValue();
    if (value.empty()) return {};
    std::string supported;
    for (SimdPath p : supportedSimdPaths())
        supported += (supported.empty() ? "" : ", ") + std::string(simdPathName(p));
    // The value as given, but on one line: at most 40 characters, control and non-ASCII bytes
    // as \xNN.
    std::string shown = "KOLIZE_SIMD=";
    for (const char c : value.substr(0, 40)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            shown += c;
        } else {
            constexpr char kHex[] = "0123456789abcdef";
            shown += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
        }
    }
    if (value.size() > 40) shown += "...";
    const auto path = parseSimdPath(value);
    if (!path) return shown + " is not a SIMD path (use sse2, avx2 or avx512)";
    if (!simdPathSupported(*path))
        return shown + ": this CPU or build cannot run it (supported here: " + supported + ")";
    return {};
}

namespace detail {

const MeshKernels& activeMeshKernels() {
    return *kernelsOf(activeSimdPath());
}

} // namespace detail
} // namespace kz
