// OBJ reading, pass 1: a strict line-by-line check (ours) before tinyobjloader sees the text.
#include "obj_scan.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <system_error>

namespace kz::obj_detail {

namespace {

constexpr std::size_t kMaxFaceVertices = 256;        // bounds tinyobjloader's ear clipping (cubic)
constexpr std::size_t kMaxQuoted = 60;               // characters of a line quoted in an error
constexpr std::size_t kMaxElements = (1u << 31) - 2; // tinyobjloader indexes with int

/// The OBJ statements that are accepted and ignored (grouping, materials, free-form geometry).
constexpr std::array<std::string_view, 33> kIgnoredKeywords = {
    "o",        "g",        "s",    "mg",         "usemtl",    "mtllib", "usemap", "maplib", "bevel",
    "c_interp", "d_interp", "lod",  "shadow_obj", "trace_obj", "ctech",  "stech",  "vp",     "cstype",
    "deg",      "bmat",     "step", "curv",       "curv2",     "surf",   "parm",   "trim",   "hole",
    "scrv",     "sp",       "end",  "con",        "call",      "csh"};

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

bool isBlank(char c) {
    return c == ' ' || c == '\t';
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
    std::string takeCleanedText() { return std::move(cleaned_); }
    std::vector<glm::vec3> takePositions() { return std::move(positions_); }
    std::vector<FaceRecord> takeFaces() { return std::move(faces_); }
    std::vector<std::uint32_t> takeFaceVertices() { return std::move(faceVertices_); }

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

} // namespace

ObjScan scanObj(std::string_view text, const std::string& name) {
    Scanner scanner(text, name);
    ObjScan scan;
    if (!scanner.run()) {
        scan.error = scanner.error();
        return scan;
    }
    scan.cleanedText = scanner.takeCleanedText();
    scan.positions = scanner.takePositions();
    scan.faces = scanner.takeFaces();
    scan.faceVertices = scanner.takeFaceVertices();
    return scan;
}

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

std::string plural(std::size_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

} // namespace kz::obj_detail
