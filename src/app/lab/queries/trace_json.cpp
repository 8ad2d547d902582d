// The traces as JSON (formats in trace_json.hpp): plain copies of the trace structs'
// fields, with every float through shortestDouble and every non-finite number as null.
#include "app/lab/queries/trace_json.hpp"

#include "app/cli/report_numbers.hpp"

#include <cmath>
#include <cstddef>
#include <string>

namespace kz {
namespace {

using Json = nlohmann::ordered_json;

Json number(float v) {
    return std::isfinite(v) ? Json(shortestDouble(v)) : Json(nullptr);
}
Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}
/// [x, y, z], or null when a coordinate is not finite.
Json vecOrNull(const glm::vec3& v) {
    return isFinite(v) ? Json{shortestDouble(v.x), shortestDouble(v.y), shortestDouble(v.z)} : Json(nullptr);
}
/// The index, or null when it is negative (none).
Json index(int i) {
    return i >= 0 ? Json(i) : Json(nullptr);
}
Json points(const ContactPoint* p, int count) {
    Json out = Json::array();
    for (int i = 0; i < count; ++i)
        out.push_back({{"position", vecOrNull(p[i].position)}, {"depth", number(p[i].depth)}});
    return out;
}
Json manifold(const std::optional<Manifold>& m) {
    if (!m) return nullptr;
    return {{"normal", vecOrNull(m->normal)},
            {"depth", number(m->depth)},
            {"points", points(m->points.data(), m->count)}};
}
Json polygon(const glm::vec3* corners, int count) {
    Json out = Json::array();
    for (int i = 0; i < count; ++i)
        out.push_back(vecOrNull(corners[i]));
    return out;
}
const char* boxName(int box) {
    return box == 0 ? "a" : "b";
}

Json satAxis(const SatAxis& x) {
    static const char* const kinds[] = {"face_a", "face_b", "edge"};
    const bool d = x.degenerate; // its numbers are unnormalised: no length to show
    return {{"kind", kinds[static_cast<int>(x.kind)]},
            {"axis", vecOrNull(x.axis)},
            {"radius_a", d ? Json(nullptr) : number(x.radiusA)},
            {"radius_b", d ? Json(nullptr) : number(x.radiusB)},
            {"distance", d ? Json(nullptr) : number(x.distance)},
            {"separation", d ? Json(nullptr) : number(x.separation)},
            {"degenerate", d}};
}

Json obbContact(const ObbObbTrace& t) {
    const ObbManifoldTrace& m = t.manifold;
    Json out = manifold(t.contact);
    if (out.is_null()) out = {{"normal", nullptr}, {"depth", nullptr}, {"points", nullptr}};
    out["feature"] = m.usedEdge ? "edge" : "face";
    if (m.usedEdge) {
        out["edge_a"] = polygon(m.segmentA.data(), 2);
        out["edge_b"] = polygon(m.segmentB.data(), 2);
        out["closest_on_a"] = vecOrNull(m.edgeClosest->p1);
        out["closest_on_b"] = vecOrNull(m.edgeClosest->p2);
        return out;
    }
    out["reference_face"] = {{"box", boxName(m.referenceBox)},
                             {"axis", m.referenceAxis},
                             {"normal", vecOrNull(m.referenceNormal)}};
    out["incident_face"] = {{"box", boxName(1 - m.referenceBox)},
                            {"axis", m.incidentAxis},
                            {"normal", vecOrNull(m.incidentNormal)},
                            {"polygon", polygon(m.incidentFace.data(), 4)}};
    out["clipped_polygon"] = polygon(m.clipped.data(), m.clippedCount);
    out["kept_points"] = points(m.kept.data(), m.keptCount);
    out["deepest_corner"] = m.deepestCorner;
    return out;
}

/// A vertex name ("a", "b", "c") of a triangle vertex index.
std::string vertexName(int k) {
    return std::string(1, static_cast<char>('a' + k));
}

Json clampStep(float unclamped, float clamped, bool wasClamped) {
    return {{"unclamped", number(unclamped)}, {"clamped", number(clamped)}, {"was_clamped", wasClamped}};
}

Json candidate(const SweepCandidate& c) {
    static const char* const statuses[] = {"not_tried",    "best_so_far", "not_earlier",
                                           "out_of_range", "moving_away", "already_within",
                                           "parallel",     "misses",      "off_feature"};
    using enum SweepCandidateStatus;
    const bool timed =
        c.status == BestSoFar || c.status == NotEarlier || c.status == OutOfRange || c.status == OffFeature;
    return {{"status", statuses[static_cast<int>(c.status)]}, {"t", timed ? number(c.t) : Json(nullptr)}};
}

} // namespace

Json traceToJson(const ObbObbTrace& t) {
    Json axes = Json::array();
    for (const SatAxis& x : t.axes) {
        if (t.valid) axes.push_back(satAxis(x));
    }
    Json out = {{"overlap", t.overlap},
                {"axes", axes},
                {"separating_axis", index(t.separatingAxis)},
                {"least_penetration_axis", index(t.leastPenetrationAxis)}};
    if (t.overlap) out["contact"] = obbContact(t);
    return out;
}

Json traceToJson(const ObbPlaneTrace& t) {
    Json corners = Json::array();
    for (std::size_t k = 0; k < 8 && t.valid; ++k) {
        corners.push_back({{"position", vecOrNull(t.corners[k])},
                           {"distance", number(t.distance[k])},
                           {"touching", t.distance[k] <= 0.0f}});
    }
    return {{"valid", t.valid},   {"normal", vecOrNull(t.normal)},     {"d", number(t.d)},
            {"corners", corners}, {"touching_count", t.touchingCount}, {"contact", manifold(t.contact)}};
}

Json traceToJson(const SphereObbTrace& t) {
    static const char* const regions[] = {"inside", "face", "edge", "vertex"};
    return {{"valid", t.valid},
            {"overlap", t.overlap},
            {"centre_in_box", vecOrNull(t.centreInBox)},
            {"excess", vecOrNull(t.excess)},
            {"region", regions[static_cast<int>(t.region)]},
            {"closest", vecOrNull(t.closest)},
            {"distance", number(t.distance)},
            {"exit_axis", index(t.exitAxis)},
            {"contact", manifold(t.contact)}};
}

Json traceToJson(const PointTriangleTrace& t) {
    static const char* const features[] = {"vertex_a", "vertex_b", "vertex_c", "edge_ab",
                                           "edge_bc",  "edge_ca",  "face"};
    Json order = Json::array(), d = Json::array();
    for (const int k : t.order)
        order.push_back(vertexName(k));
    for (int k = 0; k < t.dComputed; ++k)
        d.push_back(number(t.d[static_cast<std::size_t>(k)]));
    const bool onEdge = t.feature >= TriangleFeature::EdgeAB && t.feature <= TriangleFeature::EdgeCA;
    return {{"feature", features[static_cast<int>(t.feature)]},
            {"canonical_order", order},
            {"d", d},
            {"sliver", t.sliver},
            {"edge_fraction", onEdge ? number(t.edgeFraction) : Json(nullptr)},
            {"face_scale", t.feature == TriangleFeature::Face ? number(t.faceScale) : Json(nullptr)},
            {"closest", vecOrNull(t.closest)}};
}

Json traceToJson(const SphereTriangleTrace& t) {
    return {{"valid", t.valid},
            {"overlap", t.overlap},
            {"closest_point", t.valid ? traceToJson(t.closestPoint) : Json(nullptr)},
            {"distance", number(t.distance)},
            {"face_normal", t.faceNormal},
            {"contact", manifold(t.contact)}};
}

Json traceToJson(const ObbTriangleTrace& t) {
    static const char* const kinds[] = {"triangle_normal", "box_face", "edge"};
    static const char* const features[] = {"triangle_face", "box_face", "edge"};
    Json axes = Json::array(), tried = Json::array();
    for (const ObbTriangleAxis& x : t.axes) {
        if (!t.valid) break;
        const bool s = x.skipped;
        axes.push_back({{"kind", kinds[static_cast<int>(x.kind)]},
                        {"axis", vecOrNull(x.axis)},
                        {"box_radius", s ? Json(nullptr) : number(x.boxRadius)},
                        {"triangle_min", s ? Json(nullptr) : number(x.triangleMin)},
                        {"triangle_max", s ? Json(nullptr) : number(x.triangleMax)},
                        {"separation", s ? Json(nullptr) : number(x.separation)},
                        {"skipped", s}});
    }
    for (std::size_t k = 0; k < 3 && t.overlap; ++k) {
        if (t.pointCount[k] < 0) break;
        tried.push_back({{"feature", features[static_cast<int>(t.order[k])]}, {"points", t.pointCount[k]}});
    }
    return {{"valid", t.valid},
            {"overlap", t.overlap},
            {"separation", number(t.separation)},
            {"axes", axes},
            {"largest_axis", index(t.largestAxis)},
            {"features_tried", tried},
            {"contact", manifold(t.contact)}};
}

Json traceToJson(const LinePiecesTrace& t) {
    static const char* const cases[] = {"two_points", "first_is_point", "second_is_point", "parallel",
                                        "skew"};
    const bool general = t.kind == LinePiecesCase::Parallel || t.kind == LinePiecesCase::Skew;
    Json result = nullptr;
    if (t.result) {
        result = {{"s", number(t.result->s)},
                  {"t", number(t.result->t)},
                  {"p1", vecOrNull(t.result->p1)},
                  {"p2", vecOrNull(t.result->p2)},
                  {"distance", number(std::sqrt(t.result->sqDist))},
                  {"parallel", t.result->parallel}};
    }
    return {{"valid", t.valid},
            {"case", cases[static_cast<int>(t.kind)]},
            {"a", number(t.a)},
            {"b", number(t.b)},
            {"c", number(t.c)},
            {"e", number(t.e)},
            {"f", number(t.f)},
            {"denom", number(t.denom)},
            {"s", clampStep(t.sUnclamped, t.sFirst, t.sClamped)},
            {"t", clampStep(t.tUnclamped, t.tFinal, t.tClamped)},
            {"s_again",
             general && t.tClamped ? clampStep(t.sAgainUnclamped, t.sAgain, t.sAgainClamped) : Json(nullptr)},
            {"result", result}};
}

const char* rootEndName(SweepRootEnd end) {
    static const char* const names[] = {"not_approaching", "already_within", "misses", "beyond_t_max",
                                        "root"};
    return names[static_cast<int>(end)];
}

Json traceToJson(const SphereTriangleSweepTrace& t) {
    static const char* const winners[] = {"none", "initial_overlap", "face", "edge", "corner"};
    Json edges = Json::array(), corners = Json::array();
    for (std::size_t k = 0; k < 3; ++k) {
        edges.push_back(candidate(t.edges[k]));
        corners.push_back(candidate(t.corners[k]));
    }
    return {{"valid", t.valid},
            {"hit", t.time.has_value()},
            {"time", t.time ? number(*t.time) : Json(nullptr)},
            {"start_distance", number(t.startDistance)},
            {"initial_overlap", t.initialOverlap},
            {"face_normal", vecOrNull(t.faceNormal)},
            {"height", number(t.height)},
            {"candidates", {{"face", candidate(t.face)}, {"edges", edges}, {"corners", corners}}},
            {"winner", {{"feature", winners[static_cast<int>(t.winner)]}, {"index", index(t.winnerIndex)}}}};
}

Json traceToJson(const SpherePlaneSweepTrace& t) {
    return {{"approach", number(t.approach)}, {"distance", number(t.distance)},
            {"gap", number(t.gap)},           {"root", number(t.root)},
            {"end", rootEndName(t.end)},      {"time", t.time ? number(*t.time) : Json(nullptr)}};
}

Json traceToJson(const SphereSphereSweepTrace& t) {
    return {{"offset", vecOrNull(t.offset)},
            {"relative_velocity", vecOrNull(t.relativeVelocity)},
            {"reach", number(t.reach)},
            {"gap", number(t.gap)},
            {"a", number(t.a)},
            {"b", number(t.b)},
            {"c", number(t.c)},
            {"discriminant", number(t.discriminant)},
            {"root", number(t.root)},
            {"end", rootEndName(t.end)},
            {"time", t.time ? number(*t.time) : Json(nullptr)}};
}

Json traceToJson(const AdvancementTrace& t) {
    static const char* const methods[] = {"bounding_spheres_apart", "sphere_plane_root", "sphere_sphere_root",
                                          "sphere_triangle_sweep",  "not_approaching",   "conservative",
                                          "touching_at_step_start"};
    static const char* const ends[] = {"converged", "beyond_remaining", "iteration_limit"};
    const bool conservative = t.method == ImpactMethod::Conservative;
    Json iterations = Json::array();
    for (int k = 0; k < t.stepCount; ++k) {
        const AdvancementStep& s = t.steps[static_cast<std::size_t>(k)];
        iterations.push_back({{"time", number(s.time)},
                              {"distance", number(s.distance)},
                              {"bound", number(s.bound)},
                              {"advance", number(s.advance)}});
    }
    const bool swept = t.method == ImpactMethod::SphereTriangleSweep && t.triangle >= 0;
    return {{"valid", t.valid},
            {"method", methods[static_cast<int>(t.method)]},
            {"initial_distance", number(t.initialDistance)},
            {"target", number(t.target)},
            {"tolerance", number(t.tolerance)},
            {"bound", number(t.bound)},
            {"iterations", iterations},
            {"end", conservative ? Json(ends[static_cast<int>(t.end)]) : Json(nullptr)},
            {"root", t.method == ImpactMethod::SpherePlaneRoot    ? traceToJson(t.plane)
                     : t.method == ImpactMethod::SphereSphereRoot ? traceToJson(t.spheres)
                                                                  : Json(nullptr)},
            {"near_triangles", t.nearTriangles},
            {"triangle", swept ? Json(t.triangle) : Json(nullptr)},
            {"sweep", swept ? traceToJson(t.sweep) : Json(nullptr)},
            {"time", number(t.time)}};
}

} // namespace kz
