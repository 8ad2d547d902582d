// OBJ reading: the strict pass (obj_scan.cpp), then tinyobjloader on the cleaned text, then a
// check of what tinyobjloader returned against what the lines say.
#include "meshio/obj.hpp"
#include "obj_scan.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <system_error>
#include <tiny_obj_loader.h>
#include <vector>

namespace kz {

namespace {

using obj_detail::FaceRecord;
using obj_detail::oneLine;
using obj_detail::plural;
using obj_detail::trim;

constexpr double kTriangulationAreaSlack = 0.01; // a split may exceed the polygon's area by 1%

bool sameFloat(float read, float expected) {
    const float scale = std::max(std::fabs(read), std::fabs(expected));
    return std::fabs(read - expected) <= 1e-6f * scale + 1e-37f;
}

/// tinyobjloader's triangles of one face are acceptable: n - 2 of them, all on the face's own
/// vertices, none degenerate or facing against the face, together no larger than the face.
bool splitMatchesFace(const std::vector<glm::vec3>& positions, const FaceRecord& face,
                      const std::uint32_t* faceVertices, const std::uint32_t* triangles) {
    double areaSum = 0.0;
    for (std::size_t t = 0; t + 2 < face.count; ++t) {
        const std::uint32_t* tri = triangles + 3 * t;
        for (int k = 0; k < 3; ++k) {
            if (std::find(faceVertices, faceVertices + face.count, tri[k]) == faceVertices + face.count) {
                return false;
            }
        }
        const glm::dvec3 a(positions[tri[0]]);
        const glm::dvec3 n = glm::cross(glm::dvec3(positions[tri[1]]) - a, glm::dvec3(positions[tri[2]]) - a);
        if (!(glm::dot(n, face.normal) > 0.0)) return false;
        areaSum += glm::length(n);
    }
    return areaSum <= glm::length(face.normal) * (1.0 + kTriangulationAreaSlack);
}

std::string tooLargeMessage() {
    return "is larger than " + std::to_string(kMaxObjBytes >> 20) + " MiB (" + std::to_string(kMaxObjBytes) +
           " bytes), the limit for OBJ files";
}

/// tinyobjloader's vertices into mesh.vertices, each checked against its line; the error, or
/// empty.
std::string takeVertices(const tinyobj::attrib_t& attrib, const obj_detail::ObjScan& scan,
                         const std::string& name, TriangleMesh& mesh) {
    const std::vector<glm::vec3>& positions = scan.positions;
    if (attrib.vertices.size() != 3 * positions.size()) {
        return name + ": tinyobjloader read " + std::to_string(attrib.vertices.size() / 3) +
               " vertices, the file has " + std::to_string(positions.size());
    }
    mesh.vertices.reserve(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const glm::vec3 read(attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]);
        if (!sameFloat(read.x, positions[i].x) || !sameFloat(read.y, positions[i].y) ||
            !sameFloat(read.z, positions[i].z)) {
            return name + ": tinyobjloader read vertex " + std::to_string(i + 1) +
                   " differently from its line";
        }
        mesh.vertices.push_back(read);
    }
    return {};
}

/// tinyobjloader's triangles into mesh.indices, each face's split checked against the face
/// (splitMatchesFace); the error, or empty.
std::string takeTriangles(const std::vector<tinyobj::shape_t>& shapes, const obj_detail::ObjScan& scan,
                          const std::string& name, TriangleMesh& mesh) {
    const std::vector<glm::vec3>& positions = scan.positions;
    // tinyobjloader keeps the faces in file order, each split into n - 2 triangles.
    std::vector<std::uint32_t> triangles;
    for (const tinyobj::shape_t& shape : shapes) {
        for (const tinyobj::index_t& index : shape.mesh.indices) {
            if (index.vertex_index < 0 || static_cast<std::size_t>(index.vertex_index) >= positions.size()) {
                return name + ": tinyobjloader returned vertex index " + std::to_string(index.vertex_index) +
                       " (" + plural(positions.size(), "vertex", "vertices") + ")";
            }
            triangles.push_back(static_cast<std::uint32_t>(index.vertex_index));
        }
    }
    std::size_t next = 0; // first index of the current face's triangles in `triangles`
    for (const FaceRecord& face : scan.faces) {
        const std::size_t needed = 3 * (face.count - 2);
        if (triangles.size() - next < needed ||
            !splitMatchesFace(mesh.vertices, face, scan.faceVertices.data() + face.first,
                              triangles.data() + next)) {
            return name + ":" + std::to_string(face.line) + ": face with " + std::to_string(face.count) +
                   " vertices cannot be triangulated (tinyobjloader's split folds over or overlaps; is it "
                   "flat and simple?)";
        }
        next += needed;
    }
    if (next != triangles.size()) {
        return name + ": tinyobjloader returned " + std::to_string(triangles.size() / 3) +
               " triangles, the faces make " + std::to_string(next / 3);
    }
    mesh.indices = std::move(triangles);
    return {};
}

} // namespace

std::string tinyObjMessageToError(const std::string& name, std::string_view message) {
    while (!message.empty() && (message.front() == '\n' || message.front() == '\r'))
        message.remove_prefix(1);
    const std::string_view first = trim(message.substr(0, message.find_first_of("\r\n")));
    std::string place = name;
    for (std::size_t pos = first.find("line "); pos != std::string_view::npos;
         pos = first.find("line ", pos + 1)) {
        std::size_t digits = pos + 5;
        while (digits < first.size() && first[digits] >= '0' && first[digits] <= '9')
            ++digits;
        if (digits > pos + 5) {
            place += ":" + std::string(first.substr(pos + 5, digits - pos - 5));
            break;
        }
    }
    return oneLine(place +
                   ": tinyobjloader: " + std::string(first.empty() ? "failed without a message" : first));
}

std::optional<TriangleMesh> parseObj(std::string_view text, const std::string& name, std::string& error) {
    error.clear();
    const auto failWith = [&](const std::string& message) {
        error = oneLine(message);
        return std::nullopt;
    };
    if (text.empty()) return failWith(name + ": the file is empty");
    if (text.size() > kMaxObjBytes) return failWith(name + ": " + tooLargeMessage());

    const obj_detail::ObjScan scan = obj_detail::scanObj(text, name);
    if (!scan.error.empty()) return failWith(scan.error);
    if (scan.faces.empty()) {
        return failWith(name + ": no triangles (" +
                        (scan.positions.empty() ? std::string("no vertices")
                                                : plural(scan.positions.size(), "vertex", "vertices")) +
                        ", no faces)");
    }

    tinyobj::ObjReaderConfig config;
    config.triangulate = true;
    config.vertex_color = false;
    tinyobj::ObjReader reader;
    const bool parsed = reader.ParseFromString(scan.cleanedText, "", config);
    if (!parsed || !reader.Error().empty()) {
        return failWith(tinyObjMessageToError(name, reader.Error().empty() ? "failed" : reader.Error()));
    }
    if (!reader.Warning().empty()) return failWith(tinyObjMessageToError(name, reader.Warning()));

    TriangleMesh mesh;
    if (std::string problem = takeVertices(reader.GetAttrib(), scan, name, mesh); !problem.empty())
        return failWith(problem);
    if (std::string problem = takeTriangles(reader.GetShapes(), scan, name, mesh); !problem.empty())
        return failWith(problem);
    return mesh;
}

std::optional<std::string> readObjText(const std::filesystem::path& path, std::string& error) {
    error.clear();
    const std::string name = path.string();
    const auto failWith = [&](const std::string& message) {
        error = oneLine(name + ": " + message);
        return std::nullopt;
    };
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) return failWith("no such file");
    if (ec) return failWith("cannot read (" + ec.message() + ")");
    if (status.type() == std::filesystem::file_type::directory) return failWith("is a directory, not a file");
    if (status.type() != std::filesystem::file_type::regular) return failWith("is not a regular file");
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return failWith("cannot read (" + ec.message() + ")");
    if (size > kMaxObjBytes) return failWith(tooLargeMessage());

    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return failWith(std::string("cannot read (") + (errno != 0 ? std::strerror(errno) : "cannot open") +
                        ")");
    std::string text;
    text.resize(static_cast<std::size_t>(size));
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (in.gcount() != static_cast<std::streamsize>(size) || in.bad())
        return failWith("cannot read (read error)");
    if (in.peek() != std::char_traits<char>::eof())
        return failWith("cannot read (the file changed while reading)");
    return text;
}

std::optional<TriangleMesh> loadObj(const std::filesystem::path& path, std::string& error) {
    const std::optional<std::string> text = readObjText(path, error);
    if (!text) return std::nullopt;
    auto mesh = parseObj(*text, path.string(), error);
    error = oneLine(error);
    return mesh;
}

} // namespace kz
