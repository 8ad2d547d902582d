// The query lab's traces as JSON, for `kolize explain`: one object per trace, keys in the order
// listed. Conventions for every object:
// - a vector is [x, y, z] (world frame); a number is a float written as the shortest decimal that
//   reads back as it (app/report_numbers.hpp); an index is an integer from 0;
// - no NaN or infinity is ever written: a number that is not finite (only on an overflow, or an
//   "infinite" time or separation) is null, and so is a vector with such a component;
// - a manifold is {"normal", "depth", "points": [{"position", "depth"}, ...]} (normal from B
//   toward A, 1 to 4 points on B's surface), or null when the query gave none.
// Traces whose input was invalid (see each trace's `valid`) write "valid": false and their empty
// values; the box-box object has no "valid" key (its format is fixed) and writes an invalid pair
// as "overlap": false with no axes.
#pragma once

#include "geom/explain_contact.hpp"
#include "physics/explain_advancement.hpp"

#include <nlohmann/json.hpp>

namespace kz {

/// Box-box (explainObbObb):
/// {"overlap": bool,
///  "axes": 15 x {"kind": "face_a" | "face_b" | "edge", "axis": unit vector toward B,
///                "radius_a", "radius_b", "distance", "separation" (distance - radius_a -
///                radius_b, > 0: this axis separates), "degenerate": bool}
///          (faces of A 0-2, faces of B 3-5, edges a_i x b_j at 6 + 3 i + j; a degenerate edge
///          axis, edges within about 0.06 degrees of parallel, has axis [0, 0, 0] and null
///          numbers),
///  "separating_axis": the first separating axis's index, or null,
///  "least_penetration_axis": when they overlap, the axis the contact normal comes from, or null,
///  "contact" (only when they overlap): {"normal", "depth", "points" (the manifold's, or all
///      three null when its numbers were not finite), "feature": "face" | "edge", then for a face
///      "reference_face": {"box": "a" | "b", "axis", "normal"}, "incident_face": {"box", "axis",
///      "normal", "polygon": 4 corners}, "clipped_polygon": its corners clipped to the reference
///      face's sides, "kept_points": [{"position", "depth"}] (those at or below the reference
///      face, before the reduction to 4), "deepest_corner": bool (rounding clipped every point:
///      the incident box's deepest corner); for an edge "edge_a", "edge_b": [end, end],
///      "closest_on_a", "closest_on_b"}}.
nlohmann::ordered_json traceToJson(const ObbObbTrace& trace);

/// Box-plane (explainObbPlane): {"valid", "normal" (made unit), "d", "corners": 8 x {"position",
/// "distance" (signed), "touching": distance <= 0}, "touching_count", "contact": manifold}.
nlohmann::ordered_json traceToJson(const ObbPlaneTrace& trace);

/// Sphere-box (explainSphereObb): {"valid", "overlap", "centre_in_box", "excess" (|centre_in_box|
/// - half extents, > 0 where outside), "region": "inside" | "face" | "edge" | "vertex",
/// "closest", "distance", "exit_axis" (the face axis a centre inside leaves through, or null),
/// "contact": manifold}.
nlohmann::ordered_json traceToJson(const SphereObbTrace& trace);

/// Point-triangle (explainClosestPtPointTriangle): {"feature": "vertex_a" | "vertex_b" |
/// "vertex_c" | "edge_ab" | "edge_bc" | "edge_ca" | "face", "canonical_order": the vertex names
/// in the order the query computes with (e.g. ["b", "a", "c"]), "d": Ericson's d1, d2, ...
/// (the 2, 4 or 6 it computed), "sliver": bool, "edge_fraction" (on an edge: 0 at its first named
/// vertex, 1 at the second; else null), "face_scale" (face: the point is p - face_scale n, n the
/// canonical (B - A) x (C - A); else null), "closest"}.
nlohmann::ordered_json traceToJson(const PointTriangleTrace& trace);

/// Sphere-triangle (explainSphereTriangle): {"valid", "overlap", "closest_point": the
/// point-triangle object of the centre, "distance", "face_normal": bool (the centre on the
/// triangle: pushed along the face normal), "contact": manifold}.
nlohmann::ordered_json traceToJson(const SphereTriangleTrace& trace);

/// Box-triangle (explainObbTriangle): {"valid", "overlap", "separation" (the largest over the
/// axes; null when not valid), "axes": 13 x {"kind": "triangle_normal" | "box_face" | "edge",
/// "axis" (unit, from the triangle toward the box), "box_radius", "triangle_min",
/// "triangle_max" (the triangle's interval from the box centre), "separation", "skipped": bool}
/// (triangle normal 0, box faces 1-3, box axis k x triangle edge j at 4 + 3 k + j; a skipped
/// axis, edges within sin 1e-5 of parallel, has axis [0, 0, 0] and null numbers),
/// "largest_axis": index or null, "features_tried": [{"feature": "triangle_face" | "box_face" |
/// "edge", "points": n}] (when they overlap: in the order tried, up to the one that gave points),
/// "contact": manifold}.
nlohmann::ordered_json traceToJson(const ObbTriangleTrace& trace);

/// Segment-segment, or any two line pieces (explainClosestPtLinePieces): {"valid", "case":
/// "two_points" | "first_is_point" | "second_is_point" | "parallel" | "skew", "a", "b", "c", "e",
/// "f", "denom" (Ericson 5.1.9's dot products), "s": {"unclamped", "clamped", "was_clamped"}, "t":
/// {"unclamped", "clamped", "was_clamped"}, "s_again": the same for s recomputed from the clamped
/// t, or null, "result": {"s", "t", "p1", "p2", "distance", "parallel"} or null}.
nlohmann::ordered_json traceToJson(const LinePiecesTrace& trace);

/// Sphere sweep against a triangle (explainSweepSphereTriangle): {"valid", "hit", "time" (null
/// for none), "start_distance", "initial_overlap", "face_normal", "height", "candidates":
/// {"face": candidate, "edges": 3 x candidate (ab, bc, ca), "corners": 3 x candidate (a, b, c)},
/// "winner": {"feature": "none" | "initial_overlap" | "face" | "edge" | "corner", "index": edge
/// or corner index or null}}, a candidate being {"status": "not_tried" | "best_so_far" |
/// "not_earlier" | "out_of_range" | "moving_away" | "already_within" | "parallel" | "misses" |
/// "off_feature", "t": its time where the status has one, else null}.
nlohmann::ordered_json traceToJson(const SphereTriangleSweepTrace& trace);

/// The linear root of a sphere's sweep at a plane: {"approach", "distance", "gap", "root", "end":
/// "not_approaching" | "already_within" | "beyond_t_max" | "root", "time" (null for none)}.
nlohmann::ordered_json traceToJson(const SpherePlaneSweepTrace& trace);

/// The quadratic root of two spheres' sweep: {"offset", "relative_velocity", "reach", "gap", "a",
/// "b", "c", "discriminant", "root", "end": as the plane's, or "misses", "time"}.
nlohmann::ordered_json traceToJson(const SphereSphereSweepTrace& trace);

/// A body's time of impact with a body, wall or obstacle (World::explainTimeOfImpact,
/// World::explainImpact): {"valid", "method": "bounding_spheres_apart" | "sphere_plane_root" |
/// "sphere_sphere_root" | "sphere_triangle_sweep" | "not_approaching" | "conservative" |
/// "touching_at_step_start" (an impact record's only),
/// "initial_distance", "target", "tolerance", "bound", "iterations": [{"time", "distance",
/// "bound", "advance"}], "end": "converged" | "beyond_remaining" | "iteration_limit" (conservative only,
/// else null), "root" (the root's terms above, or null), "near_triangles" (an obstacle's
/// triangles near the path, else 0), "triangle" and "sweep" (the triangle whose sweep gave the
/// time, its mesh index and sweep trace, or null), "time" (seconds from the search's start, null
/// for no impact)}.
nlohmann::ordered_json traceToJson(const AdvancementTrace& trace);

} // namespace kz
