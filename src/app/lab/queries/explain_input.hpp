// What a lab query gets from `kolize explain`'s shapes file (README, "The explain command"): the
// ray or shape "a", the shape "b", and what the query needs of them. Plain types: the file is read
// in kz_explain (app/explain/shapes.hpp, with the scenario loader's readers); each query's unit
// (lab/queries/unit.hpp) says what it needs and writes its JSON from them.
#pragma once

#include "geom/convex.hpp"
#include "geom/types.hpp"
#include "physics/obstacle.hpp"

#include <array>
#include <cmath>
#include <memory>
#include <optional>

namespace kz {

/// The kinds of shape a shapes file can hold. Convex is what a query needs when it takes any of
/// sphere, box, capsule, cylinder and hull (the shape read has its own kind).
enum class ExplainShapeKind { Sphere, Box, Mesh, Triangle, Plane, Segment, Capsule, Cylinder, Hull, Convex };

/// One shape of a shapes file; only the member of its kind is set.
struct ExplainShape {
    ExplainShapeKind kind = ExplainShapeKind::Sphere; ///< Which member holds it.
    Sphere sphere{};                                  ///< "sphere": position and radius.
    Obb box{};                          ///< "box": position, half_extents, orientation (unit axes).
    std::optional<Obstacle> mesh;       ///< "mesh": the placed mesh (its file loaded, its BVH built).
    Triangle triangle{};                ///< "triangle": its three vertices, world frame, non-zero area.
    Plane plane{};                      ///< "plane": unit normal and d (normalised as a scenario's planes).
    std::array<glm::vec3, 2> segment{}; ///< "segment": its two end points.
    Capsule capsule{};                  ///< "capsule": radius, half_height along its local y, posed.
    Cylinder cylinder{};                ///< "cylinder": likewise.
    std::shared_ptr<const ConvexHull> hull; ///< "hull": the hull of its points (local frame).
    glm::vec3 hullPosition{0.0f};           ///< The hull's "position".
    glm::mat3 hullAxes{1.0f};               ///< Its orientation's axes.
    glm::vec3 velocity{0.0f};               ///< "velocity" (m/s; sweeps and shape-cast); 0 when not given.
    glm::vec3 angularVelocity{0.0f};        ///< "angular_velocity" (rad/s, about "position"; shape-cast).
};

/// The query's inputs as the shapes file gives them.
struct ExplainInput {
    std::optional<Ray> ray;        ///< "ray" (ray queries): origin and a non-zero dir.
    float rayTMax = INFINITY;      ///< The ray's "t_max" (>= 0), +infinity when not given.
    std::optional<ExplainShape> a; ///< "a" (the other queries).
    ExplainShape b;                ///< "b": always given.
    float sweepTMax =
        INFINITY; ///< "t_max" (sweep-sphere-triangle): the time limit in s, +infinity when not given.
    float castTMax = 1.0f; ///< "t_max" (shape-cast): the time limit in s, 1 when not given.
    float castGap = 0.0f;  ///< "gap" (shape-cast): the distance that counts as touching, 0 when not given.
};

/// What a query needs from the shapes file.
struct ExplainNeeds {
    bool ray;           ///< "ray" instead of "a".
    ExplainShapeKind a; ///< The kind of "a" (unused with a ray).
    ExplainShapeKind b; ///< The kind of "b".
    bool sweep;         ///< "a" moves: its "velocity" and the top-level "t_max" are read.
    /// "a" and "b" may move and turn (shape-cast): their optional "velocity" and
    /// "angular_velocity", and the top-level "t_max" and "gap", are read.
    bool cast = false;
};

/// A ray query's needs: "ray" and a "b" of kind `b`.
constexpr ExplainNeeds explainRayNeeds(ExplainShapeKind b) {
    return {true, ExplainShapeKind::Sphere, b, false};
}
/// A pair's needs: "a" of kind `a`, "b" of kind `b`.
constexpr ExplainNeeds explainPairNeeds(ExplainShapeKind a, ExplainShapeKind b) {
    return {false, a, b, false};
}

} // namespace kz
