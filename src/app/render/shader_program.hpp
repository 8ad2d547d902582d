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
/// `#version` line, as its own source string with `#line`, so that errors name the right file and
/// line; KZ_VERTEX_SHADER or KZ_FRAGMENT_SHADER is defined to tell a library which stage it is in.
/// On failure returns empty and sets `error` to one line: "<file>:<line>: <first line of the
/// driver's log>" for a compile error (the file and line parsed from the log; "<file>: <log>" when
/// the log names no line), "<file>: cannot read: <reason>" for a missing file, "<vert> + <frag>:
/// link: <log>" for a link error.
std::optional<Program> loadProgram(const std::filesystem::path& vertexFile,
                                   const std::filesystem::path& fragmentFile, std::string& error,
                                   std::span<const std::filesystem::path> libraries = {});

/// The first line of a driver's compile log, split into its source string, line and message.
struct ShaderLogLine {
    int line = 0;        ///< Source line (1-based) from the log, 0 when the log gives none.
    std::string message; ///< The rest, e.g. "error: `x' undeclared"; never empty.
    int source = 0;      ///< The source string the log names: 0 the shader's own file, k its k-th library.
};

/// Parses a log's first line in Mesa's "0:12(3): error: ..." or NVIDIA's "0(12) : error C0000: ..."
/// form (the first number is the source string); any other line is kept whole as the message. Pure
/// string work (no GL); exposed for tests.
ShaderLogLine parseShaderLog(std::string_view log);

} // namespace kz::render
