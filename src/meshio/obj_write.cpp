// OBJ writing: plain, deterministic text, written beside the target and renamed into place.
#include "meshio/obj.hpp"
#include "obj_scan.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace kz {

namespace {

using obj_detail::oneLine;

void appendNumber(std::string& out, float value) {
    if (value == 0.0f) value = 0.0f; // -0 prints as 0
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 6);
    out.append(buffer, result.ptr);
}

/// Why `mesh` cannot be written (no triangles, a bad index count or index, a non-finite vertex),
/// or empty.
std::string meshProblem(const TriangleMesh& mesh) {
    if (mesh.indices.empty()) return "the mesh has no triangles";
    if (mesh.indices.size() % 3 != 0) {
        return "indices count " + std::to_string(mesh.indices.size()) + " is not a multiple of 3";
    }
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
        const glm::vec3& v = mesh.vertices[i];
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
            return "vertex " + std::to_string(i) + " is not finite";
        }
    }
    for (std::size_t i = 0; i < mesh.indices.size(); ++i) {
        if (mesh.indices[i] >= mesh.vertices.size()) {
            return "index " + std::to_string(i) + " of triangle " + std::to_string(i / 3) + " is " +
                   std::to_string(mesh.indices[i]) + ", but there are " +
                   std::to_string(mesh.vertices.size()) + " vertices";
        }
    }
    return {};
}

/// The OBJ text: the header comment's lines as "# " lines, then "v" lines, then "f" lines.
std::string objText(const TriangleMesh& mesh, std::string_view headerComment) {
    std::string text;
    text.reserve(32 * mesh.vertices.size() + 24 * mesh.indices.size() / 3 + headerComment.size() + 64);
    while (!headerComment.empty()) {
        const std::size_t end = std::min(headerComment.find('\n'), headerComment.size());
        const std::string_view line = headerComment.substr(0, end);
        text += line.empty() ? "#" : "# ";
        text.append(line);
        text += '\n';
        headerComment.remove_prefix(std::min(end + 1, headerComment.size()));
    }
    for (const glm::vec3& v : mesh.vertices) {
        text += "v ";
        appendNumber(text, v.x);
        text += ' ';
        appendNumber(text, v.y);
        text += ' ';
        appendNumber(text, v.z);
        text += '\n';
    }
    for (std::size_t i = 0; i < mesh.indices.size(); i += 3) {
        text += "f " + std::to_string(mesh.indices[i] + 1) + " " + std::to_string(mesh.indices[i + 1] + 1) +
                " " + std::to_string(mesh.indices[i + 2] + 1) + "\n";
    }
    return text;
}

/// Writes `text` to "<path>.tmp", then renames it to `path`, so `path` never holds half a file;
/// the error (strerror's or the filesystem's), or empty.
std::string writeReplacing(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::path temporary = path;
    temporary += ".tmp";
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (file == nullptr) return std::strerror(errno);
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    const int writeErrno = errno;
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
        const int code = written ? errno : writeErrno;
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return std::strerror(code);
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return ec.message();
    }
    return {};
}

} // namespace

bool writeObj(const std::filesystem::path& path, const TriangleMesh& mesh, std::string_view headerComment,
              std::string& error) {
    error.clear();
    const std::string name = path.string();
    const auto failWith = [&](const std::string& message) {
        error = oneLine(name + ": cannot write: " + message);
        return false;
    };
    if (std::string problem = meshProblem(mesh); !problem.empty()) return failWith(problem);
    if (std::string problem = writeReplacing(path, objText(mesh, headerComment)); !problem.empty())
        return failWith(problem);
    return true;
}

} // namespace kz
