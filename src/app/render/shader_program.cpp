#include "shader_program.hpp"

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

std::optional<Shader> compile(GLenum type, const std::filesystem::path& file, std::string& error) {
    const auto source = readText(file, error);
    if (!source) return std::nullopt;
    Shader shader(glCreateShader(type));
    const char* text = source->c_str();
    const auto length = static_cast<GLint>(source->size());
    glShaderSource(shader.id(), 1, &text, &length);
    glCompileShader(shader.id());
    GLint ok = GL_FALSE;
    glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        const ShaderLogLine log = parseShaderLog(shaderLog(shader.id()));
        error = file.string() + (log.line > 0 ? ":" + std::to_string(log.line) : std::string()) + ": " +
                log.message;
        return std::nullopt;
    }
    return shader;
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
                                   const std::filesystem::path& fragmentFile, std::string& error) {
    auto vertex = compile(GL_VERTEX_SHADER, vertexFile, error);
    if (!vertex) return std::nullopt;
    auto fragment = compile(GL_FRAGMENT_SHADER, fragmentFile, error);
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
