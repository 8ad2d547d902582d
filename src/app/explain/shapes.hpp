// The shapes file of `kolize explain` (docs/command-line.md, "The shapes file"): "a" and "b", or
// "ray" and "b", each a body in the scenario format or a triangle, plane or segment, read with the
// scenario loader's own readers (src/scenario), so every value is checked as it is in a scenario
// file. The types it fills are the lab queries' (app/lab/queries/explain_input.hpp).
#pragma once

#include "app/lab/queries/explain_input.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace kz {

/// The name a shapes file uses for a kind ("sphere", "box", ...).
const char* explainShapeName(ExplainShapeKind kind);

/// Reads the shapes file's text for a query with `needs`. Empty, with `error` set to one line
/// "<sourceName>: <JSON pointer>: <what>", for text that is not one JSON object (syntax errors
/// give the line and column), a missing, unknown or duplicate key, a wrong type, a number that is
/// not finite, a value out of its scenario range, a zero-length ray direction, a zero-area
/// triangle, a mesh file that does not load, or a shape of the wrong kind for the query. Mesh
/// files are looked up beside `sourceName` (the current folder for stdin), then in the asset
/// root. Never throws.
std::optional<ExplainInput> readExplainInput(std::string_view text, const std::string& sourceName,
                                             const ExplainNeeds& needs, std::string& error);

} // namespace kz
