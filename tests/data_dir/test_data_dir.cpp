// dataDirectory: the environment variable first, then the installed copy next to the running
// executable (this test binary), then the source tree.
#include "data_dir/data_dir.hpp"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

constexpr const char* kVariable = "KOLIZE_TEST_DATA_DIR";

/// A data folder name no one else uses, so tests run in parallel do not see each other's folders.
std::string uniqueName() {
    return "test-data-" + std::to_string(::getpid());
}

/// <prefix>/share/kolize/<name> for this test binary, at <prefix>/<folder>/test_data_dir.
fs::path installedCopy(const std::string& name) {
    return fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "share" / "kolize" / name;
}

TEST(DataDirectory, TheEnvironmentVariableWinsAndIsTakenAsGiven) {
    ::setenv(kVariable, "/some/where/", 1);
    EXPECT_EQ(kz::dataDirectory(kVariable, "shaders", "/source/shaders"), fs::path("/some/where/"));
    ::unsetenv(kVariable);
}

TEST(DataDirectory, WithoutTheVariableOrAnInstalledCopyItIsTheSourceTree) {
    ::unsetenv(kVariable);
    EXPECT_EQ(kz::dataDirectory(kVariable, uniqueName(), "/source/x"), fs::path("/source/x"));
}

TEST(DataDirectory, AnEmptyVariableCountsAsUnset) {
    ::setenv(kVariable, "", 1);
    EXPECT_EQ(kz::dataDirectory(kVariable, uniqueName(), "/source/x"), fs::path("/source/x"));
    ::unsetenv(kVariable);
}

TEST(DataDirectory, AnInstalledCopyBesideTheExecutableComesBeforeTheSourceTree) {
    ::unsetenv(kVariable);
    const std::string name = uniqueName();
    const fs::path installed = installedCopy(name);
    fs::create_directories(installed);
    EXPECT_EQ(kz::dataDirectory(kVariable, name, "/source/x"), installed);
    ::setenv(kVariable, "/from/env", 1);
    EXPECT_EQ(kz::dataDirectory(kVariable, name, "/source/x"), fs::path("/from/env"));
    ::unsetenv(kVariable);
    std::error_code ignored;
    fs::remove_all(installed, ignored);
    fs::remove(installed.parent_path(), ignored);               // share/kolize, when empty
    fs::remove(installed.parent_path().parent_path(), ignored); // share, when empty
    EXPECT_EQ(kz::dataDirectory(kVariable, name, "/source/x"), fs::path("/source/x"));
}

} // namespace
