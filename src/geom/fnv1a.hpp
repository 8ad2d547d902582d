// FNV-1a, 64 bits (Fowler, Noll, Vo; draft-eastlake-fnv): a hash of exact bytes. The one
// implementation that the world's state hash (physics/state_hash.cpp), the golden tests
// (tests/support/golden.hpp) and the fuzz targets' ray seeds (tests/fuzz/fuzz_obj.cpp) share.
// Header only, no dependency: a fuzz target uses it without GoogleTest.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kz {

/// FNV-1a's 64-bit starting value (the offset basis).
inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;
/// FNV's 64-bit prime, 2^40 + 2^8 + 0xb3.
inline constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

/// Continues `hash` over one byte: xor it in, then multiply by the prime (modulo 2^64).
constexpr void fnv1aByte(std::uint64_t& hash, unsigned char byte) {
    hash ^= byte;
    hash *= kFnvPrime;
}

/// Continues `hash` over `bytes` bytes at `data`, in memory order (start from kFnvOffset).
inline void fnv1a(std::uint64_t& hash, const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i)
        fnv1aByte(hash, p[i]);
}

} // namespace kz
