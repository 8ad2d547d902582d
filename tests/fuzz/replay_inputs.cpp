// The fuzz targets' kept inputs, replayed in the ordinary test suite (every build, GCC too):
// each file of the folders in KZ_FUZZ_INPUT_DIRS ('|'-separated: the target's crash regressions
// and its seeds) goes through the target's harness, LLVMFuzzerTestOneInput from fuzz_<name>.cpp,
// which aborts on a failed check. So a crash the fuzzer once found stays fixed. The suite is
// named after the target (KZ_FUZZ_SUITE, e.g. FuzzScenario).
#include "support/temp_dir.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

/// The regular files in `dir` (none if it does not exist: git keeps no empty folder), sorted.
std::vector<fs::path> inputsIn(const fs::path& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file() && !entry.path().filename().string().starts_with("."))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST(KZ_FUZZ_SUITE, EveryKeptInputRunsThroughTheHarness) {
    std::size_t count = 0;
    std::string_view dirs = KZ_FUZZ_INPUT_DIRS;
    while (!dirs.empty()) {
        const std::size_t bar = dirs.find('|');
        const fs::path dir(dirs.substr(0, bar));
        dirs = bar == std::string_view::npos ? std::string_view() : dirs.substr(bar + 1);
        for (const fs::path& file : inputsIn(dir)) {
            // Named before it runs: a harness check aborts the whole binary.
            std::printf("input %s\n", file.c_str());
            std::fflush(stdout);
            const std::string bytes = kz::test::readBytes(file);
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++count;
        }
    }
    EXPECT_GT(count, 0u) << "no inputs in " << KZ_FUZZ_INPUT_DIRS;
}

} // namespace
