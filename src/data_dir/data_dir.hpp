// Where Kolize's data folders (shaders/, assets/) are at run time, found the same way for each:
// the one place that knows the install layout (LearnOpenGL's "one configured root path", never
// the working directory).
#pragma once

#include <filesystem>
#include <string_view>

namespace kz {

/// The data folder `name` ("shaders", "assets"): the environment variable `envVariable` when it is
/// set and not empty (taken as given); else the installed copy <prefix>/share/kolize/<name> when
/// the running executable is <prefix>/bin/<program> (after `cmake --install`) and that folder
/// exists; else `sourceTree`, the folder in the source tree the build was configured from.
std::filesystem::path dataDirectory(const char* envVariable, std::string_view name,
                                    const std::filesystem::path& sourceTree);

} // namespace kz
