#include "data_dir/data_dir.hpp"

#include <cstdlib>

namespace kz {

std::filesystem::path dataDirectory(const char* envVariable, std::string_view name,
                                    const std::filesystem::path& sourceTree) {
    if (const char* env = std::getenv(envVariable); env != nullptr && *env != '\0') return env;
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "kolize" / name;
        if (std::filesystem::is_directory(installed, ec)) return installed;
    }
    return sourceTree;
}

} // namespace kz
