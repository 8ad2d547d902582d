// The steps hooks of `kolize explain`'s eight contact, sweep and closest-point queries: each runs
// its trace (src/geom/explain_contact.hpp, explain_closest.hpp, explain_sweep.hpp) on the same
// shapes as the query's result and writes the trace's keys (contact_json.hpp) beside
// "query" and "result". Internal to kz_explain; the keys are listed in docs/command-line.md.
#pragma once

#include "app/explain/shapes.hpp"

#include <nlohmann/json.hpp>

namespace kz::explain_steps {

/// Centre distance, radius sum and separation (no geom trace: the test is one comparison).
void sphereSphereSteps(const ExplainInput& input, nlohmann::ordered_json& out);
/// explainSphereObb.
void sphereBoxSteps(const ExplainInput& input, nlohmann::ordered_json& out);
/// explainObbObb: the 15 separating axes and, when they overlap, the manifold's construction.
void boxBoxSteps(const ExplainInput& input, nlohmann::ordered_json& out);
/// explainObbPlane.
void boxPlaneSteps(const ExplainInput& input, nlohmann::ordered_json& out);
/// explainSphereTriangle.
void sphereTriangleSteps(const ExplainInput& input, nlohmann::ordered_json& out);
/// explainObbTriangle.
void boxTriangleSteps(const ExplainInput& input, nlohmann::ordered_json& out);
/// explainSweepSphereTriangle: every feature's candidate time and the winner.
void sweepSphereTriangleSteps(const ExplainInput& input, nlohmann::ordered_json& out);
/// explainClosestPtLinePieces on the two segments: s and t before and after clamping.
void segmentSegmentSteps(const ExplainInput& input, nlohmann::ordered_json& out);

} // namespace kz::explain_steps
