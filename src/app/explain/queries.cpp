// The table of `kolize explain`'s queries, and the fast results of the contact, sweep and
// closest-point queries (their steps are in contact_steps.cpp, the ray queries' results
// and steps in ray_steps.cpp).
#include "app/explain/queries.hpp"

#include "app/explain/contact_steps.hpp"
#include "app/explain/json.hpp"
#include "app/explain/ray_steps.hpp"
#include "geom/closest.hpp"
#include "geom/contact.hpp"
#include "geom/overlap.hpp"
#include "geom/sweep.hpp"

#include <array>
#include <cmath>

namespace kz {

namespace {

using namespace explain_json;
using Kind = ExplainShapeKind;

/// The surface gap of sphere `s` from the point `closest` of another shape nearest its centre:
/// negative when they overlap, -radius for a centre inside a solid (closest is the centre then).
float surfaceGap(const Sphere& s, const glm::vec3& closest) {
    return glm::length(s.center - closest) - s.radius;
}

Json sphereSphereResult(const ExplainInput& in) {
    const Sphere& a = in.a->sphere;
    const Sphere& b = in.b.sphere;
    return Json{{"overlap", testSphereSphere(a, b)},
                {"distance", number(glm::length(a.center - b.center) - a.radius - b.radius)},
                {"contact", manifold(contactSphereSphere(a, b))}};
}

Json sphereBoxResult(const ExplainInput& in) {
    const Sphere& a = in.a->sphere;
    const glm::vec3 closest = closestPtPointObb(a.center, in.b.box);
    const auto contact = contactSphereObb(a, in.b.box);
    // "overlap" is whether the contact exists, as the trace's (explainSphereObb) is.
    return Json{{"overlap", contact.has_value()},
                {"closest_point", vec(closest)},
                {"distance", number(surfaceGap(a, closest))},
                {"contact", manifold(contact)}};
}

Json boxBoxResult(const ExplainInput& in) {
    return Json{{"overlap", testObbObb(in.a->box, in.b.box)},
                {"separation", number(separationObbObb(in.a->box, in.b.box))},
                {"contact", manifold(contactObbObb(in.a->box, in.b.box))}};
}

Json boxPlaneResult(const ExplainInput& in) {
    return Json{{"overlap", testObbPlane(in.a->box, in.b.plane)},
                {"contact", manifold(contactObbPlane(in.a->box, in.b.plane))}};
}

Json sphereTriangleResult(const ExplainInput& in) {
    const Sphere& a = in.a->sphere;
    const glm::vec3 closest = closestPtPointTriangle(a.center, in.b.triangle);
    const auto contact = contactSphereTriangle(a, in.b.triangle);
    return Json{{"overlap", contact.has_value()},
                {"closest_point", vec(closest)},
                {"distance", number(surfaceGap(a, closest))},
                {"contact", manifold(contact)}};
}

Json boxTriangleResult(const ExplainInput& in) {
    // The separating-axis verdict, as box-box's and the trace's (explainObbTriangle) are: the
    // contact can still be null when no feature clips to a point (rare: a touch within rounding).
    const float separation = separationObbTriangle(in.a->box, in.b.triangle);
    return Json{{"overlap", separation <= 0.0f},
                {"separation", number(separation)},
                {"contact", manifold(contactObbTriangle(in.a->box, in.b.triangle))}};
}

Json sweepSphereTriangleResult(const ExplainInput& in) {
    const Sphere& a = in.a->sphere;
    const auto t = sweepSphereTriangle(a, in.a->velocity, in.b.triangle, in.sweepTMax);
    if (!t) return Json{{"hit", false}, {"t_max", number(in.sweepTMax)}};
    return Json{{"hit", true},
                {"time_of_impact", number(*t)},
                {"center_at_impact", vec(a.center + *t * in.a->velocity)},
                {"t_max", number(in.sweepTMax)}};
}

Json segmentSegmentResult(const ExplainInput& in) {
    const auto& a = in.a->segment;
    const auto& b = in.b.segment;
    const auto c = closestPtLinePieces(asSegment(a[0], a[1]), asSegment(b[0], b[1]));
    if (!c) return Json{{"closest", nullptr}}; // non-finite input, which the reader refuses
    return Json{{"s", number(c->s)},
                {"t", number(c->t)},
                {"point_a", vec(c->p1)},
                {"point_b", vec(c->p2)},
                {"distance", number(std::sqrt(c->sqDist))},
                {"parallel", c->parallel}};
}

constexpr ExplainNeeds ray(Kind b) {
    return {true, Kind::Sphere, b, false};
}
constexpr ExplainNeeds pair(Kind a, Kind b) {
    return {false, a, b, false};
}

using namespace explain_steps;

const std::array<ExplainQuery, 13> kQueries{{
    {"ray-sphere", ray(Kind::Sphere), raySphereResult, raySphereSteps},
    {"ray-box", ray(Kind::Box), rayBoxResult, rayBoxSteps},
    {"ray-plane", ray(Kind::Plane), rayPlaneResult, rayPlaneSteps},
    {"ray-triangle", ray(Kind::Triangle), rayTriangleResult, rayTriangleSteps},
    {"ray-mesh", ray(Kind::Mesh), rayMeshResult, rayMeshSteps},
    {"sphere-sphere", pair(Kind::Sphere, Kind::Sphere), sphereSphereResult, sphereSphereSteps},
    {"sphere-box", pair(Kind::Sphere, Kind::Box), sphereBoxResult, sphereBoxSteps},
    {"box-box", pair(Kind::Box, Kind::Box), boxBoxResult, boxBoxSteps},
    {"box-plane", pair(Kind::Box, Kind::Plane), boxPlaneResult, boxPlaneSteps},
    {"sphere-triangle", pair(Kind::Sphere, Kind::Triangle), sphereTriangleResult, sphereTriangleSteps},
    {"box-triangle", pair(Kind::Box, Kind::Triangle), boxTriangleResult, boxTriangleSteps},
    {"sweep-sphere-triangle",
     {false, Kind::Sphere, Kind::Triangle, true},
     sweepSphereTriangleResult,
     sweepSphereTriangleSteps},
    {"segment-segment", pair(Kind::Segment, Kind::Segment), segmentSegmentResult, segmentSegmentSteps},
}};

} // namespace

std::span<const ExplainQuery> explainQueries() {
    return kQueries;
}

const ExplainQuery* findExplainQuery(std::string_view name) {
    for (const ExplainQuery& q : kQueries)
        if (name == q.name) return &q;
    return nullptr;
}

} // namespace kz
