// Shader programs from GLSL files, with one-line errors that name the file and line.
#pragma once

#include "gl_objects.hpp"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kz::render {

/// Compiles and links `vertexFile` and `fragmentFile`. `libraries` are GLSL files of functions the
/// shaders call (GLSL 330 has no #include): each is compiled into both stages right after their
/// `#version` line, its lines numbered from kLibraryLines times its rank (1, 2, ...) by `#line`, so
/// that errors name the right file and line; KZ_VERTEX_SHADER or KZ_FRAGMENT_SHADER is defined to
/// tell a library which stage it is in.
/// On failure returns empty and sets `error` to one line: "<file>:<line>: <first line of the
/// driver's log>" for a compile error (the file and line parsed from the log; "<file>: <log>" when
/// the log names no line), "<file>: cannot read: <reason>" for a missing file, "<vert> + <frag>:
/// link: <log>" for a link error.
std::optional<Program> loadProgram(const std::filesystem::path& vertexFile,
                                   const std::filesystem::path& fragmentFile, std::string& error,
                                   std::span<const std::filesystem::path> libraries = {});

/// Library k's lines are numbered from k * kLibraryLines + 1 in the compiled shader (a longer
/// library is refused).
inline constexpr int kLibraryLines = 100000;

/// The first line of a driver's compile log, split into its source line and message.
struct ShaderLogLine {
    int line = 0;        ///< Source line (1-based) from the log, 0 when the log gives none.
    std::string message; ///< The rest, e.g. "error: `x' undeclared"; never empty.
};

/// Parses a log's first line in Mesa's "0:12(3): error: ..." or NVIDIA's "0(12) : error C0000: ..."
/// form; any other line is kept whole as the message. Pure string work (no GL); exposed for tests.
ShaderLogLine parseShaderLog(std::string_view log);

} // namespace kz::render
