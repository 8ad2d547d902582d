// The shapes file of `kolize explain` (docs/command-line.md, "The shapes file"): "a" and "b", or
// "ray" and "b", each a body in the scenario format or a triangle, plane or segment, read with the
// scenario loader's own readers (src/scenario), so every value is checked as it is in a scenario
// file.
#pragma once

#include "geom/types.hpp"
#include "physics/obstacle.hpp"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace kz {

/// The kinds of shape a shapes file can hold.
enum class ExplainShapeKind { Sphere, Box, Mesh, Triangle, Plane, Segment };

/// The name a shapes file uses for a kind ("sphere", "box", ...).
const char* explainShapeName(ExplainShapeKind kind);

/// One shape of a shapes file; only the member of its kind is set.
struct ExplainShape {
    ExplainShapeKind kind = ExplainShapeKind::Sphere; ///< Which member holds it.
    Sphere sphere{};                                  ///< "sphere": position and radius.
    Obb box{};                          ///< "box": position, half_extents, orientation (unit axes).
    std::optional<Obstacle> mesh;       ///< "mesh": the placed mesh (its file loaded, its BVH built).
    Triangle triangle{};                ///< "triangle": its three vertices, world frame, non-zero area.
    Plane plane{};                      ///< "plane": unit normal and d (normalised as a scenario's planes).
    std::array<glm::vec3, 2> segment{}; ///< "segment": its two end points.
    glm::vec3 velocity{0.0f};           ///< A sphere or box's "velocity" (m/s); 0 when not given.
};

/// The query's inputs as the shapes file gives them.
struct ExplainInput {
    std::optional<Ray> ray;        ///< "ray" (ray queries): origin and a non-zero dir.
    float rayTMax = INFINITY;      ///< The ray's "t_max" (>= 0), +infinity when not given.
    std::optional<ExplainShape> a; ///< "a" (the other queries).
    ExplainShape b;                ///< "b": always given.
    float sweepTMax =
        INFINITY; ///< "t_max" (sweep-sphere-triangle): the time limit in s, +infinity when not given.
};

/// What a query needs from the shapes file.
struct ExplainNeeds {
    bool ray;           ///< "ray" instead of "a".
    ExplainShapeKind a; ///< The kind of "a" (unused with a ray).
    ExplainShapeKind b; ///< The kind of "b".
    bool sweep;         ///< "a" moves: its "velocity" and the top-level "t_max" are read.
};

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
