// OBJ reading: a strict line-by-line check (ours), then tinyobjloader on a cleaned copy of the text
// (only the "v" and "f" statements, one output line per input line so line numbers agree), then a
// check of what tinyobjloader returned against what the lines say.
#include "meshio/obj.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <span>
#include <sstream>
#include <system_error>
#include <tiny_obj_loader.h>
#include <vector>

namespace kz {
namespace {

constexpr std::size_t kMaxFaceVertices = 256;        // bounds tinyobjloader's ear clipping (cubic)
constexpr std::size_t kMaxQuoted = 60;               // characters of a line quoted in an error
constexpr std::size_t kMaxElements = (1u << 31) - 2; // tinyobjloader indexes with int
constexpr double kTriangulationAreaSlack = 0.01;     // a split may exceed the polygon's area by 1%

/// The OBJ statements that are accepted and ignored (grouping, materials, free-form geometry).
constexpr std::array<std::string_view, 33> kIgnoredKeywords = {
    "o",        "g",        "s",    "mg",         "usemtl",    "mtllib", "usemap", "maplib", "bevel",
    "c_interp", "d_interp", "lod",  "shadow_obj", "trace_obj", "ctech",  "stech",  "vp",     "cstype",
    "deg",      "bmat",     "step", "curv",       "curv2",     "surf",   "parm",   "trim",   "hole",
    "scrv",     "sp",       "end",  "con",        "call",      "csh"};

/// Control characters (which would break the line) become '?', tabs spaces.
std::string oneLine(std::string text) {
    for (char& c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\t') {
            c = ' ';
        } else if (byte < 0x20 || byte == 0x7f) {
            c = '?';
        }
    }
    return text;
}

/// 'text', shortened to kMaxQuoted characters.
std::string quoted(std::string_view text) {
    std::string result = "'";
    if (text.size() > kMaxQuoted) {
        result.append(text.substr(0, kMaxQuoted - 3));
        result += "...";
    } else {
        result.append(text);
    }
    return result + "'";
}

std::string plural(std::size_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

bool isBlank(char c) {
    return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

/// Splits on spaces and tabs, dropping empty pieces.
std::vector<std::string_view> tokens(std::string_view text) {
    std::vector<std::string_view> result;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isBlank(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !isBlank(text[i]))
            ++i;
        if (i > start) result.push_back(text.substr(start, i - start));
    }
    return result;
}

enum class NumberStatus { Ok, NotANumber, NonFinite, OutOfRange };

/// The whole token as a decimal number (an optional sign, digits with an optional '.', an
/// optional exponent), rounded to float. "nan" and "inf" are read but reported as NonFinite.
NumberStatus parseNumber(std::string_view token, float& out) {
    if (token.size() > 1 && token[0] == '+' && token[1] != '-' && token[1] != '+') token.remove_prefix(1);
    double value = 0.0;
    const char* end = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), end, value, std::chars_format::general);
    if (token.empty() || ptr != end) return NumberStatus::NotANumber;
    if (ec == std::errc::result_out_of_range) return NumberStatus::OutOfRange;
    if (ec != std::errc()) return NumberStatus::NotANumber;
    if (!std::isfinite(value)) return NumberStatus::NonFinite;
    if (std::fabs(value) > static_cast<double>(std::numeric_limits<float>::max()))
        return NumberStatus::OutOfRange;
    out = static_cast<float>(value);
    return NumberStatus::Ok;
}

/// Whether a statement `keyword` appears at the start of a line of `rest` (a cheap look-ahead
/// used only to word an error).
bool laterLinesStartWith(std::string_view rest, std::string_view keyword) {
    std::size_t pos = 0;
    while (pos < rest.size()) {
        std::size_t end = rest.find_first_of("\r\n", pos);
        if (end == std::string_view::npos) end = rest.size();
        const auto words = tokens(rest.substr(pos, end - pos));
        if (!words.empty() && words[0] == keyword) return true;
        pos = end + 1;
    }
    return false;
}

/// One face as read: its line and its vertices (0-based), in faceVertices[first, first + count).
struct FaceRecord {
    std::size_t line;
    std::size_t first;
    std::size_t count;
    glm::dvec3 normal; ///< Newell's vector: twice the area times the unit normal (non-zero).
};

/// Newell's method in double precision, relative to the first vertex.
glm::dvec3 newellNormal(const std::vector<glm::vec3>& positions, const std::uint32_t* face,
                        std::size_t count) {
    const glm::dvec3 origin(positions[face[0]]);
    glm::dvec3 sum(0.0);
    for (std::size_t i = 1; i + 1 < count; ++i) {
        const glm::dvec3 a = glm::dvec3(positions[face[i]]) - origin;
        const glm::dvec3 b = glm::dvec3(positions[face[i + 1]]) - origin;
        sum += glm::cross(a, b);
    }
    return sum;
}

/// The strict pass: checks every line, records positions and faces, and writes the text that
/// tinyobjloader reads ("v x y z" and "f a b c ..." only, every other line blank).
class Scanner {
public:
    Scanner(std::string_view text, const std::string& name) : text_(text), name_(name) {}

    /// False with error() set at the first problem.
    bool run() {
        std::string_view rest = text_;
        if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3); // UTF-8 byte order mark
        while (!rest.empty()) {
            std::size_t end = rest.find_first_of("\r\n");
            if (end == std::string_view::npos) end = rest.size();
            ++line_;
            const std::string_view current = rest.substr(0, end);
            std::size_t next = end;
            if (next < rest.size())
                next += (rest[next] == '\r' && next + 1 < rest.size() && rest[next + 1] == '\n') ? 2 : 1;
            rest.remove_prefix(next);
            rest_ = rest;
            if (!checkLine(current)) return false;
            cleaned_ += '\n';
        }
        return true;
    }

    const std::string& error() const { return error_; }
    const std::string& cleanedText() const { return cleaned_; }
    const std::vector<glm::vec3>& positions() const { return positions_; }
    const std::vector<FaceRecord>& faces() const { return faces_; }
    const std::vector<std::uint32_t>& faceVertices() const { return faceVertices_; }

private:
    bool fail(const std::string& message) {
        error_ = name_ + ":" + std::to_string(line_) + ": " + message;
        return false;
    }

    bool checkLine(std::string_view line) {
        for (std::size_t i = 0; i < line.size(); ++i) {
            const auto byte = static_cast<unsigned char>(line[i]);
            if ((byte < 0x20 && line[i] != '\t') || byte == 0x7f) {
                char hex[8];
                std::snprintf(hex, sizeof hex, "0x%02x", byte);
                return fail("byte " + std::string(hex) + " at column " + std::to_string(i + 1) +
                            " is not text (not an OBJ file?)");
            }
        }
        const std::size_t hash = line.find('#');
        const std::string_view statement = trim(line.substr(0, hash));
        if (statement.empty()) return true;
        const auto words = tokens(statement);
        const std::string_view keyword = words[0];
        const std::span<const std::string_view> args(words.data() + 1, words.size() - 1);
        if (keyword == "v") return checkVertex(statement, args);
        if (keyword == "vt") return checkNumbers(statement, args, 1, 3, "texture coordinate", texcoords_);
        if (keyword == "vn") return checkNumbers(statement, args, 3, 3, "normal", normals_);
        if (keyword == "f") return checkFace(statement, args);
        if (keyword == "l") return checkReferences(statement, args, "line element", 2).has_value();
        if (keyword == "p") return checkReferences(statement, args, "point element", 1).has_value();
        if (std::find(kIgnoredKeywords.begin(), kIgnoredKeywords.end(), keyword) != kIgnoredKeywords.end()) {
            return true;
        }
        return fail("unknown statement " + quoted(keyword));
    }

    /// Parses args as numbers into out; false (with the error set) on the first bad one.
    bool parseNumbers(std::string_view statement, std::span<const std::string_view> args, const char* what,
                      std::size_t ordinal, float* out) {
        for (std::size_t i = 0; i < args.size(); ++i) {
            switch (parseNumber(args[i], out[i])) {
            case NumberStatus::Ok:
                break;
            case NumberStatus::NotANumber:
                return fail("cannot parse " + quoted(args[i]) + " in " + quoted(statement));
            case NumberStatus::NonFinite:
                return fail(std::string(what) + " " + std::to_string(ordinal) +
                            " has a non-finite coordinate " + quoted(args[i]));
            case NumberStatus::OutOfRange:
                return fail(std::string(what) + " " + std::to_string(ordinal) +
                            " has a coordinate out of float range " + quoted(args[i]));
            }
        }
        return true;
    }

    bool checkVertex(std::string_view statement, std::span<const std::string_view> args) {
        const std::size_t ordinal = positions_.size() + 1;
        if (args.size() != 3 && args.size() != 4 && args.size() != 6) {
            return fail("vertex " + std::to_string(ordinal) + " has " +
                        plural(args.size(), "number", "numbers") + " (need x y z, optionally w or r g b)");
        }
        if (positions_.size() >= kMaxElements) return fail("too many vertices");
        float values[6];
        if (!parseNumbers(statement, args, "vertex", ordinal, values)) return false;
        positions_.emplace_back(values[0], values[1], values[2]);
        cleaned_ += "v";
        for (std::size_t i = 0; i < 3; ++i) {
            cleaned_ += ' ';
            cleaned_.append(args[i]);
        }
        return true;
    }

    bool checkNumbers(std::string_view statement, std::span<const std::string_view> args, std::size_t min,
                      std::size_t max, const char* what, std::size_t& count) {
        const std::size_t ordinal = count + 1;
        if (args.size() < min || args.size() > max) {
            const std::string need =
                min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max);
            return fail(std::string(what) + " " + std::to_string(ordinal) + " has " +
                        plural(args.size(), "number", "numbers") + " (need " + need + ")");
        }
        if (count >= kMaxElements) return fail(std::string("too many ") + what + "s");
        float values[3];
        if (!parseNumbers(statement, args, what, ordinal, values)) return false;
        ++count;
        return true;
    }

    /// Resolves one index of kind `what` (1-based, or negative counting back from the latest of
    /// `count` elements) to 0-based; nullopt with the error set when it is invalid.
    std::optional<std::uint32_t> resolveIndex(std::string_view text, std::string_view reference,
                                              std::string_view statement, const std::string& element,
                                              const char* what, const char* one, const char* many,
                                              std::size_t count, std::string_view keyword) {
        std::int64_t index = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, index);
        if (text.empty() || ptr != end || (ec != std::errc() && ec != std::errc::result_out_of_range)) {
            fail("cannot parse " + quoted(reference) + " in " + quoted(statement));
            return std::nullopt;
        }
        const std::string label = element + " " + what;
        if (ec == std::errc() && index == 0) {
            fail(label + " 0 is invalid (OBJ indices start at 1, or count back from -1)");
            return std::nullopt;
        }
        const auto n = static_cast<std::int64_t>(count);
        if (ec == std::errc() && index > 0 && index <= n) return static_cast<std::uint32_t>(index - 1);
        if (ec == std::errc() && index < 0 && index >= -n) return static_cast<std::uint32_t>(n + index);
        std::string message =
            label + " " + std::string(text) + " is out of range (" + plural(count, one, many);
        if (!text.starts_with('-') && laterLinesStartWith(rest_, keyword)) {
            message += " before this line; references may only point back";
        }
        fail(message + ")");
        return std::nullopt;
    }

    /// Checks the references of an f, l or p statement; their 0-based vertex indices, or nullopt.
    std::optional<std::vector<std::uint32_t>> checkReferences(std::string_view statement,
                                                              std::span<const std::string_view> args,
                                                              const std::string& element,
                                                              std::size_t minCount) {
        if (args.size() < minCount) {
            fail(element + " has " + plural(args.size(), "vertex", "vertices") + " (need at least " +
                 std::to_string(minCount) + ")");
            return std::nullopt;
        }
        std::vector<std::uint32_t> vertices;
        vertices.reserve(args.size());
        for (const std::string_view reference : args) {
            // v, v/vt, v//vn or v/vt/vn.
            std::array<std::string_view, 3> parts{};
            const auto slashes =
                static_cast<std::size_t>(std::count(reference.begin(), reference.end(), '/'));
            bool wellFormed = slashes <= 2;
            if (wellFormed) {
                std::string_view remaining = reference;
                for (std::size_t k = 0; k <= slashes; ++k) {
                    const std::size_t slash = std::min(remaining.find('/'), remaining.size());
                    parts[k] = remaining.substr(0, slash);
                    remaining.remove_prefix(std::min(slash + 1, remaining.size()));
                }
                // Only the texture coordinate of v//vn may be empty.
                wellFormed = !parts[0].empty() && (slashes < 1 || !parts[1].empty() || slashes == 2) &&
                             (slashes < 2 || !parts[2].empty());
            }
            if (!wellFormed) {
                fail("cannot parse " + quoted(reference) + " in " + quoted(statement) +
                     " (a vertex reference is v, v/vt, v//vn or v/vt/vn)");
                return std::nullopt;
            }
            const std::size_t partCount = slashes + 1;
            const auto vertex = resolveIndex(parts[0], reference, statement, element, "index", "vertex",
                                             "vertices", positions_.size(), "v");
            if (!vertex) return std::nullopt;
            if (partCount >= 2 && !parts[1].empty() &&
                !resolveIndex(parts[1], reference, statement, element, "texture coordinate index",
                              "texture coordinate", "texture coordinates", texcoords_, "vt")) {
                return std::nullopt;
            }
            if (partCount == 3 && !resolveIndex(parts[2], reference, statement, element, "normal index",
                                                "normal", "normals", normals_, "vn")) {
                return std::nullopt;
            }
            vertices.push_back(*vertex);
        }
        return vertices;
    }

    bool checkFace(std::string_view statement, std::span<const std::string_view> args) {
        if (args.size() > kMaxFaceVertices) {
            return fail("face has " + std::to_string(args.size()) + " vertices (at most " +
                        std::to_string(kMaxFaceVertices) + ")");
        }
        const auto vertices = checkReferences(statement, args, "face", 3);
        if (!vertices) return false;
        std::vector<std::uint32_t> sorted = *vertices;
        std::sort(sorted.begin(), sorted.end());
        const auto repeated = std::adjacent_find(sorted.begin(), sorted.end());
        if (repeated != sorted.end()) {
            return fail("face uses vertex " + std::to_string(*repeated + 1) + " more than once");
        }
        const glm::dvec3 normal = newellNormal(positions_, vertices->data(), vertices->size());
        if (!(glm::dot(normal, normal) > 0.0)) return fail("face has zero area (its vertices are collinear)");
        faces_.push_back({line_, faceVertices_.size(), vertices->size(), normal});
        faceVertices_.insert(faceVertices_.end(), vertices->begin(), vertices->end());
        cleaned_ += "f";
        for (const std::string_view reference : args) {
            cleaned_ += ' ';
            cleaned_.append(reference.substr(0, reference.find('/')));
        }
        return true;
    }

    std::string_view text_;
    std::string_view rest_; ///< The text after the current line.
    const std::string& name_;
    std::size_t line_ = 0;
    std::string error_;
    std::string cleaned_;
    std::vector<glm::vec3> positions_;
    std::size_t texcoords_ = 0;
    std::size_t normals_ = 0;
    std::vector<FaceRecord> faces_;
    std::vector<std::uint32_t> faceVertices_;
};

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

} // namespace

namespace {

std::string tooLargeMessage() {
    return "is larger than " + std::to_string(kMaxObjBytes >> 20) + " MiB (" + std::to_string(kMaxObjBytes) +
           " bytes), the limit for OBJ files";
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

    Scanner scanner(text, name);
    if (!scanner.run()) return failWith(scanner.error());
    const std::vector<glm::vec3>& positions = scanner.positions();
    const std::vector<FaceRecord>& faces = scanner.faces();
    if (faces.empty()) {
        return failWith(name + ": no triangles (" +
                        (positions.empty() ? std::string("no vertices")
                                           : plural(positions.size(), "vertex", "vertices")) +
                        ", no faces)");
    }

    tinyobj::ObjReaderConfig config;
    config.triangulate = true;
    config.vertex_color = false;
    tinyobj::ObjReader reader;
    const bool parsed = reader.ParseFromString(scanner.cleanedText(), "", config);
    if (!parsed || !reader.Error().empty()) {
        return failWith(tinyObjMessageToError(name, reader.Error().empty() ? "failed" : reader.Error()));
    }
    if (!reader.Warning().empty()) return failWith(tinyObjMessageToError(name, reader.Warning()));

    const tinyobj::attrib_t& attrib = reader.GetAttrib();
    if (attrib.vertices.size() != 3 * positions.size()) {
        return failWith(name + ": tinyobjloader read " + std::to_string(attrib.vertices.size() / 3) +
                        " vertices, the file has " + std::to_string(positions.size()));
    }
    TriangleMesh mesh;
    mesh.vertices.reserve(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const glm::vec3 read(attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]);
        if (!sameFloat(read.x, positions[i].x) || !sameFloat(read.y, positions[i].y) ||
            !sameFloat(read.z, positions[i].z)) {
            return failWith(name + ": tinyobjloader read vertex " + std::to_string(i + 1) +
                            " differently from its line");
        }
        mesh.vertices.push_back(read);
    }

    // tinyobjloader keeps the faces in file order, each split into n - 2 triangles.
    std::vector<std::uint32_t> triangles;
    for (const tinyobj::shape_t& shape : reader.GetShapes()) {
        for (const tinyobj::index_t& index : shape.mesh.indices) {
            if (index.vertex_index < 0 || static_cast<std::size_t>(index.vertex_index) >= positions.size()) {
                return failWith(name + ": tinyobjloader returned vertex index " +
                                std::to_string(index.vertex_index) + " (" +
                                plural(positions.size(), "vertex", "vertices") + ")");
            }
            triangles.push_back(static_cast<std::uint32_t>(index.vertex_index));
        }
    }
    std::size_t next = 0; // first index of the current face's triangles in `triangles`
    for (const FaceRecord& face : faces) {
        const std::size_t needed = 3 * (face.count - 2);
        if (triangles.size() - next < needed ||
            !splitMatchesFace(mesh.vertices, face, scanner.faceVertices().data() + face.first,
                              triangles.data() + next)) {
            return failWith(
                name + ":" + std::to_string(face.line) + ": face with " + std::to_string(face.count) +
                " vertices cannot be triangulated (tinyobjloader's split folds over or overlaps; is it "
                "flat and simple?)");
        }
        next += needed;
    }
    if (next != triangles.size()) {
        return failWith(name + ": tinyobjloader returned " + std::to_string(triangles.size() / 3) +
                        " triangles, the faces make " + std::to_string(next / 3));
    }
    mesh.indices = std::move(triangles);
    return mesh;
}

std::optional<TriangleMesh> loadObj(const std::filesystem::path& path, std::string& error) {
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
    auto mesh = parseObj(text, name, error);
    error = oneLine(error);
    return mesh;
}

namespace {

void appendNumber(std::string& out, float value) {
    if (value == 0.0f) value = 0.0f; // -0 prints as 0
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 6);
    out.append(buffer, result.ptr);
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
    if (mesh.indices.empty()) return failWith("the mesh has no triangles");
    if (mesh.indices.size() % 3 != 0) {
        return failWith("indices count " + std::to_string(mesh.indices.size()) + " is not a multiple of 3");
    }
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
        const glm::vec3& v = mesh.vertices[i];
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) {
            return failWith("vertex " + std::to_string(i) + " is not finite");
        }
    }
    for (std::size_t i = 0; i < mesh.indices.size(); ++i) {
        if (mesh.indices[i] >= mesh.vertices.size()) {
            return failWith("index " + std::to_string(i) + " of triangle " + std::to_string(i / 3) + " is " +
                            std::to_string(mesh.indices[i]) + ", but there are " +
                            std::to_string(mesh.vertices.size()) + " vertices");
        }
    }

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

    std::filesystem::path temporary = path;
    temporary += ".tmp";
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (file == nullptr) return failWith(std::strerror(errno));
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    const int writeErrno = errno;
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
        const int code = written ? errno : writeErrno;
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return failWith(std::strerror(code));
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        return failWith(ec.message());
    }
    return true;
}

} // namespace kz
