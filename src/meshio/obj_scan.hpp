// The strict pass of OBJ reading (private to kz_meshio): every line checked by Kolize's own
// rules (obj.hpp lists them), the positions and faces recorded, and the cleaned text written that
// tinyobjloader then reads ("v x y z" and "f a b c ..." only, every other line blank, so line
// numbers agree). Also the small text helpers that reading and writing share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kz::obj_detail {

/// One face as read: its line and its vertices (0-based), in faceVertices[first, first + count).
struct FaceRecord {
    std::size_t line;
    std::size_t first;
    std::size_t count;
    glm::dvec3 normal; ///< Newell's vector: twice the area times the unit normal (non-zero).
};

/// What the strict pass found in a text.
struct ObjScan {
    std::string error;                       ///< "<name>:<line>: <what>" at the first problem; empty if none.
    std::string cleanedText;                 ///< The text for tinyobjloader.
    std::vector<glm::vec3> positions;        ///< Every "v", in file order.
    std::vector<FaceRecord> faces;           ///< Every "f", in file order.
    std::vector<std::uint32_t> faceVertices; ///< The faces' vertices (0-based), face after face.
};

/// Checks every line of `text` (`name` starts the error), stopping at the first problem.
ObjScan scanObj(std::string_view text, const std::string& name);

/// Control characters (which would break the line) become '?', tabs spaces.
std::string oneLine(std::string text);

/// "1 vertex", "2 vertices".
std::string plural(std::size_t count, const char* one, const char* many);

/// `text` without leading and trailing spaces and tabs.
std::string_view trim(std::string_view text);

} // namespace kz::obj_detail
