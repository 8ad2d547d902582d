// Linked into the test binaries that ctest runs once per SIMD path (kz_add_test's SIMD option):
// with KOLIZE_SIMD naming a path this machine cannot run, every test is skipped (ctest reports it
// skipped, not passed on another path); with a value that names no path, every test fails.
#include "geom/simd_path.hpp"

#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

namespace {

class SimdPathEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        const char* value = std::getenv("KOLIZE_SIMD");
        const std::string error = kz::simdPathEnvironmentError();
        if (error.empty()) return;
        if (!kz::parseSimdPath(value != nullptr ? value : "")) FAIL() << error;
        GTEST_SKIP() << error;
    }
};

const auto* const kRegistered = ::testing::AddGlobalTestEnvironment(new SimdPathEnvironment);

} // namespace
