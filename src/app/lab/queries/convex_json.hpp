// `kolize explain`'s steps of the convex queries (gjk, epa, ray-convex): their traces
// (geom/explain_gjk.hpp, geom/explain_epa.hpp) as JSON, every iteration with its numbers. The
// traces' numbers are the cores' (a sphere's centre, a capsule's segment), in double.
#pragma once

#include "app/lab/queries/json.hpp"
#include "geom/explain_epa.hpp"
#include "geom/explain_gjk.hpp"
#include "geom/explain_shape_cast.hpp"

namespace kz::explain_json {

/// {"status", "radius_a", "radius_b", "tolerance", "iterations": [{"direction", "support_a",
/// "support_b", "w", "gap", "lower_bound", "updated", "weights", "kept", "simplex": [{"w", "a",
/// "b"}], "v", "point_a", "point_b", "upper_bound"}]}.
Json gjkTraceJson(const GjkTrace& trace);
/// {"gjk": gjkTraceJson, "status", "tolerance", "vertices": [{"w", "a", "b"}], "iterations":
/// [{"faces": [{"vertices", "normal", "distance"}], "nearest", "support", "lower_bound", "reach",
/// "upper_bound", "gap", "expanded"}]}.
Json epaTraceJson(const EpaTrace& trace);
/// {"status", "radius", "tolerance", "iterations": [{"direction", "support", "plane_height",
/// "moved", "t", "x", "updated", "added", "simplex", "v", "distance"}]}.
Json rayCastTraceJson(const RayCastTrace& trace);
/// {"hit", "status", "time_of_impact", "distance", "point_a", "point_b", "normal"}: the time and
/// GJK's answer there (null for a miss).
Json shapeCastJson(const ShapeCast& cast);
/// {"result": shapeCastJson, "status", "t_max", "gap", "reach_a", "reach_b", "tolerance",
/// "steps": [{"t", "center_a", "center_b", "distance", "lower_bound", "normal", "point_a",
/// "point_b", "gjk_iterations", "linear_rate", "angular_rate", "rate", "next_t"}]}.
Json shapeCastTraceJson(const ShapeCastTrace& trace);

} // namespace kz::explain_json
