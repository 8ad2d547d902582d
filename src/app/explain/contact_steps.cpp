// The steps of the contact, sweep and closest-point queries: each trace's JSON object
// (traceToJson) copied key by key into the output, so its keys sit at the top level as the ray
// queries' do.
#include "app/explain/contact_steps.hpp"

#include "app/explain/contact_json.hpp"
#include "app/explain/json.hpp"
#include "geom/closest.hpp"
#include "geom/explain_closest.hpp"
#include "geom/explain_contact.hpp"
#include "geom/explain_sweep.hpp"
#include "geom/overlap.hpp"

#include <string_view>

namespace kz::explain_steps {

using namespace explain_json;

namespace {

/// Copies the trace object's keys into `out`, but for `skipped` (a key the output already has).
void addKeys(const Json& trace, Json& out, std::string_view skipped = {}) {
    for (const auto& item : trace.items()) {
        if (item.key() != skipped) out[item.key()] = item.value();
    }
}

} // namespace

void sphereSphereSteps(const ExplainInput& input, Json& out) {
    // The centre line is the axis: |ca - cb| <= ra + rb, which the query compares squared.
    const SphereSphereTrace t = explainSphereSphere(input.a->sphere, input.b.sphere);
    out["centre_offset"] = vec(t.offset);
    out["centre_distance"] = number(t.distance);
    out["radius_a"] = number(input.a->sphere.radius);
    out["radius_b"] = number(input.b.sphere.radius);
    out["radius_sum"] = number(t.radiusSum);
    out["separation"] = number(t.separation);
    out["overlap"] = t.overlap;
}

void sphereBoxSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainSphereObb(input.a->sphere, input.b.box)), out);
}

void boxBoxSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainObbObb(input.a->box, input.b.box)), out);
}

void boxPlaneSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainObbPlane(input.a->box, input.b.plane)), out);
}

void sphereTriangleSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainSphereTriangle(input.a->sphere, input.b.triangle)), out);
}

void boxTriangleSteps(const ExplainInput& input, Json& out) {
    addKeys(traceToJson(explainObbTriangle(input.a->box, input.b.triangle)), out);
}

void sweepSphereTriangleSteps(const ExplainInput& input, Json& out) {
    const ExplainShape& a = *input.a;
    addKeys(traceToJson(explainSweepSphereTriangle(a.sphere, a.velocity, input.b.triangle, input.sweepTMax)),
            out);
}

void segmentSegmentSteps(const ExplainInput& input, Json& out) {
    const auto& a = input.a->segment;
    const auto& b = input.b.segment;
    // The trace's own "result" is closestPtLinePieces's, bit for bit: the output's "result".
    addKeys(traceToJson(explainClosestPtLinePieces(asSegment(a[0], a[1]), asSegment(b[0], b[1]))), out,
            "result");
}

} // namespace kz::explain_steps
