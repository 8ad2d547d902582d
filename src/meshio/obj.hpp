// Wavefront OBJ files: triangle meshes read with tinyobjloader behind strict checks, and written
// as plain, deterministic text.
//
// Reading keeps the positions ("v") and the faces ("f"), merges every object and group into one
// mesh and ignores normals, texture coordinates, materials, lines, points and free-form geometry
// (their statements are still checked). Polygons are split into triangles by tinyobjloader (the
// shorter diagonal of a quad; ear clipping beyond); the result is checked against the polygon.
//
// tinyobjloader alone is lenient: it reads "abc", "nan" or a missing number as 0, keeps faces
// whose indices are out of range, drops faces with fewer than 3 vertices and polygons it cannot
// split with only a warning, ignores unknown statements and stops a line at a NUL byte. So every
// line is first checked here, strictly, and anything tinyobjloader then reports, even a warning,
// is an error. Every error is ONE line that starts with the file's name, then the line number
// when the problem belongs to a line:
//
//   meshes/x.obj: no such file
//   meshes/x.obj: no triangles (8 vertices, no faces)
//   meshes/x.obj:4: cannot parse 'abc' in 'v 1 abc 2'
//   meshes/x.obj:7: vertex 3 has a non-finite coordinate 'nan'
//   meshes/x.obj:9: face index 40 is out of range (9 vertices)
//   meshes/x.obj:12: face has 2 vertices (need at least 3)
//
// What is accepted: "v x y z" with an optional w or an "r g b" colour (all finite, within float
// range); "vt" (1 to 3 numbers), "vn" (3 numbers); "f" with 3 to 256 references "v", "v/vt",
// "v//vn" or "v/vt/vn", each a non-zero integer, negative ones counting back from the latest
// element (-1 is the last vertex read); references only to elements already defined; faces of
// non-zero area that split into triangles of the polygon's own orientation; the other OBJ
// keywords (o, g, s, usemtl, mtllib, l, p, vp, cstype, curv, surf, ...); "#" comments, also at
// the end of a line; LF, CRLF or CR line ends; a UTF-8 byte order mark.
#pragma once

#include "meshio/triangle_mesh.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace kz {

/// OBJ files (and texts given to parseObj) larger than this are refused before parsing: 8 MiB
/// (about 1 million triangles), which keeps loading one, its BVH included, to about 300 MB.
inline constexpr std::size_t kMaxObjBytes = std::size_t{8} << 20;

/// Reads an OBJ file into one triangle mesh (see above). Keeps every vertex of the file, in file
/// order (unused ones too), so index i is the file's vertex i + 1. Returns nullopt on any problem,
/// with `error` set to one line starting with `path` as given: a missing or unreadable file, a
/// directory or other non-regular file, a file over kMaxObjBytes, or anything parseObj rejects. Nothing
/// is half-loaded. `error` is cleared on success.
std::optional<TriangleMesh> loadObj(const std::filesystem::path& path, std::string& error);

/// The text of an OBJ file, read as loadObj reads it (the same errors for a missing, unreadable,
/// non-regular or too large file), not yet parsed: for callers that keep the text (a recording
/// embeds the mesh files of its scenarios).
std::optional<std::string> readObjText(const std::filesystem::path& path, std::string& error);

/// loadObj on text in memory (refused over kMaxObjBytes); `name` stands for the file name in errors.
std::optional<TriangleMesh> parseObj(std::string_view text, const std::string& name, std::string& error);

/// Writes `mesh` as OBJ text: each line of `headerComment` as a "# " comment line, then one
/// "v x y z" line per vertex (printf's "%.6g", locale-independent, -0 written as 0), then one
/// "f a b c" line per triangle (1-based). The same mesh always gives the same bytes. The file is
/// written to a temporary file beside `path`, then renamed, so `path` never holds half a mesh.
/// Returns false, with `error` one line starting with `path`, for a mesh with no triangles,
/// an index count that is not a multiple of 3, an index out of range, a non-finite vertex, or a
/// failed write. `error` is cleared on success.
bool writeObj(const std::filesystem::path& path, const TriangleMesh& mesh, std::string_view headerComment,
              std::string& error);

/// How a tinyobjloader error or warning reads as a Kolize error: "<name>:<line>: tinyobjloader:
/// <its first line>" when the message names a line ("... line 7.)"), else "<name>: tinyobjloader:
/// ...". parseObj uses it for anything tinyobjloader reports after the checks passed.
std::string tinyObjMessageToError(const std::string& name, std::string_view message);

} // namespace kz
