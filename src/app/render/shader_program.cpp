#include "shader_program.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

namespace kz::render {
namespace {

std::optional<std::string> readText(const std::filesystem::path& file, std::string& error) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        error = file.string() + ": cannot read: " + std::strerror(errno);
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        error = file.string() + ": cannot read: " + std::strerror(errno);
        return std::nullopt;
    }
    return text.str();
}

std::string firstLine(std::string_view log) {
    while (!log.empty() && (log.front() == '\n' || log.front() == '\r' || log.front() == ' ')) {
        log.remove_prefix(1);
    }
    const auto end = log.find_first_of("\r\n");
    std::string line(log.substr(0, end));
    return line.empty() ? "unknown error (empty driver log)" : line;
}

std::string shaderLog(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<std::size_t>(length > 0 ? length : 1), '\0');
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    return log.data();
}

std::string programLog(GLuint program) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<std::size_t>(length > 0 ? length : 1), '\0');
    glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
    return log.data();
}

/// A shader file and its text.
struct SourceFile {
    std::filesystem::path path;
    std::string text;
};

/// The source strings of a `type` shader: `main` alone, or with the stage's define and each
/// library after its `#version` line, numbered by `#line` (library k from k * kLibraryLines + 1;
/// `main` goes on at its line 2).
std::vector<std::string> sourceStrings(GLenum type, const SourceFile& main,
                                       std::span<const SourceFile> libraries) {
    if (libraries.empty()) return {main.text};
    const std::size_t firstLineEnd = main.text.find('\n');
    const std::size_t split = firstLineEnd == std::string::npos ? main.text.size() : firstLineEnd + 1;
    const char* stage =
        type == GL_VERTEX_SHADER ? "#define KZ_VERTEX_SHADER 1\n" : "#define KZ_FRAGMENT_SHADER 1\n";
    std::vector<std::string> sources{main.text.substr(0, split) +
                                     (firstLineEnd == std::string::npos ? "\n" : "") + stage};
    for (std::size_t k = 0; k < libraries.size(); ++k)
        sources.push_back("#line " + std::to_string((k + 1) * kLibraryLines + 1) + "\n" + libraries[k].text +
                          "\n");
    sources.push_back("#line 2\n" + main.text.substr(split));
    return sources;
}

std::optional<Shader> compile(GLenum type, const SourceFile& main, std::span<const SourceFile> libraries,
                              std::string& error) {
    const std::vector<std::string> sources = sourceStrings(type, main, libraries);
    std::vector<const char*> texts;
    std::vector<GLint> lengths;
    for (const std::string& source : sources) {
        texts.push_back(source.c_str());
        lengths.push_back(static_cast<GLint>(source.size()));
    }
    Shader shader(glCreateShader(type));
    glShaderSource(shader.id(), static_cast<GLsizei>(texts.size()), texts.data(), lengths.data());
    glCompileShader(shader.id());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        const ShaderLogLine log = parseShaderLog(shaderLog(shader.id()));
        // A line numbered past kLibraryLines is in a library (see sourceStrings).
        const std::size_t library = static_cast<std::size_t>(log.line / kLibraryLines);
        const bool inLibrary = library >= 1 && library <= libraries.size();
        const std::filesystem::path& file = inLibrary ? libraries[library - 1].path : main.path;
        const int line = inLibrary ? log.line % kLibraryLines : log.line;
        error = file.string() + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + log.message;
        return std::nullopt;
    }
    return shader;
}

std::optional<SourceFile> readSource(const std::filesystem::path& file, std::string& error) {
    std::optional<std::string> text = readText(file, error);
    if (!text) return std::nullopt;
    return SourceFile{file, std::move(*text)};
}

} // namespace

ShaderLogLine parseShaderLog(std::string_view log) {
    const std::string line = firstLine(log);
    // Mesa: "0:12(3): error: ..."; NVIDIA: "0(12) : error C0000: ...".
    static const std::regex mesa(R"(^\s*\d+:(\d{1,9})\(\d+\)\s*:\s*(.*)$)");
    static const std::regex nvidia(R"(^\s*\d+\((\d{1,9})\)\s*:\s*(.*)$)");
    std::smatch match;
    if (std::regex_match(line, match, mesa) || std::regex_match(line, match, nvidia)) {
        const std::string message = match[2].str();
        return {std::stoi(match[1].str()), message.empty() ? line : message};
    }
    return {0, line};
}

std::optional<Program> loadProgram(const std::filesystem::path& vertexFile,
                                   const std::filesystem::path& fragmentFile, std::string& error,
                                   std::span<const std::filesystem::path> libraryFiles) {
    const std::optional<SourceFile> vertexSource = readSource(vertexFile, error);
    if (!vertexSource) return std::nullopt;
    const std::optional<SourceFile> fragmentSource = readSource(fragmentFile, error);
    if (!fragmentSource) return std::nullopt;
    std::vector<SourceFile> libraries;
    for (const std::filesystem::path& library : libraryFiles) {
        std::optional<SourceFile> source = readSource(library, error);
        if (!source) return std::nullopt;
        if (std::count(source->text.begin(), source->text.end(), '\n') >= kLibraryLines - 1) {
            error = library.string() + ": a shader library must have fewer than " +
                    std::to_string(kLibraryLines) + " lines";
            return std::nullopt;
        }
        libraries.push_back(std::move(*source));
    }
    auto vertex = compile(GL_VERTEX_SHADER, *vertexSource, libraries, error);
    if (!vertex) return std::nullopt;
    auto fragment = compile(GL_FRAGMENT_SHADER, *fragmentSource, libraries, error);
    if (!fragment) return std::nullopt;

    Program program(glCreateProgram());
    glAttachShader(program.id(), vertex->id());
    glAttachShader(program.id(), fragment->id());
    glLinkProgram(program.id());
    GLint ok = GL_FALSE;
    glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
    glDetachShader(program.id(), vertex->id());
    glDetachShader(program.id(), fragment->id());
    if (ok != GL_TRUE) {
        error = vertexFile.string() + " + " + fragmentFile.filename().string() +
                ": link: " + firstLine(programLog(program.id()));
        return std::nullopt;
    }
    return program;
}

} // namespace kz::render
