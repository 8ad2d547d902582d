// Test support for the golden tests: FNV-1a over bytes, a 64-bit hash as 16 hex digits, and the
// check of one scenario's hash against its recorded value (printing the table entry to paste when
// it is new).
#pragma once

#include "geom/fnv1a.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <string>

namespace kz::test {

/// FNV-1a over bytes (kFnvOffset, fnv1a): geom/fnv1a.hpp's.
using kz::fnv1a;
using kz::kFnvOffset;

inline std::string hex16(std::uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

/// EXPECT that `golden` records `actual` for `name`; the failure shows the entry to record.
inline void expectGolden(const std::map<std::string, std::string>& golden, const std::string& name,
                         const std::string& actual) {
    const auto entry = golden.find(name);
    if (entry == golden.end()) {
        ADD_FAILURE() << "no golden hash for " << name << ": got {\"" << name << "\", \"" << actual << "\"}";
        return;
    }
    EXPECT_EQ(actual, entry->second) << "{\"" << name << "\", \"" << actual << "\"}";
}

} // namespace kz::test
