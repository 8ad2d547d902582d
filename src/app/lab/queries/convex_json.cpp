#include "app/lab/queries/convex_json.hpp"

#include <string>

namespace kz::explain_json {
namespace {

Json point(const GjkTracePoint& p) {
    return Json{{"w", vec(p.w)}, {"a", vec(p.a)}, {"b", vec(p.b)}};
}

Json points(const std::vector<GjkTracePoint>& list) {
    Json out = Json::array();
    for (const GjkTracePoint& p : list)
        out.push_back(point(p));
    return out;
}

Json gjkIteration(const GjkIteration& it) {
    Json weights = Json::array();
    for (double w : it.weights)
        weights.push_back(number(w));
    return Json{{"direction", vec(it.direction)},
                {"support_a", vec(it.supportA)},
                {"support_b", vec(it.supportB)},
                {"w", vec(it.w)},
                {"gap", number(it.gap)},
                {"lower_bound", number(it.lowerBound)},
                {"updated", it.updated},
                {"weights", std::move(weights)},
                {"kept", it.kept},
                {"simplex", points(it.simplex)},
                {"v", vec(it.v)},
                {"point_a", vec(it.pointA)},
                {"point_b", vec(it.pointB)},
                {"upper_bound", number(it.upperBound)}};
}

Json epaIteration(const EpaIteration& it) {
    Json faces = Json::array();
    for (const EpaTraceFace& f : it.faces)
        faces.push_back(
            Json{{"vertices", f.vertices}, {"normal", vec(f.normal)}, {"distance", number(f.distance)}});
    return Json{{"faces", std::move(faces)},    {"nearest", it.nearest},
                {"support", point(it.support)}, {"lower_bound", number(it.lowerBound)},
                {"reach", number(it.reach)},    {"upper_bound", number(it.upperBound)},
                {"gap", number(it.gap)},        {"expanded", it.expanded}};
}

} // namespace

Json gjkTraceJson(const GjkTrace& trace) {
    Json iterations = Json::array();
    for (const GjkIteration& it : trace.iterations)
        iterations.push_back(gjkIteration(it));
    return Json{{"status", std::string(gjkStatusName(trace.status))},
                {"radius_a", number(trace.radiusA)},
                {"radius_b", number(trace.radiusB)},
                {"tolerance", number(trace.tolerance)},
                {"iterations", std::move(iterations)}};
}

Json epaTraceJson(const EpaTrace& trace) {
    Json iterations = Json::array();
    for (const EpaIteration& it : trace.iterations)
        iterations.push_back(epaIteration(it));
    return Json{{"gjk", gjkTraceJson(trace.gjk)},
                {"status", std::string(epaStatusName(trace.status))},
                {"tolerance", number(trace.tolerance)},
                {"vertices", points(trace.vertices)},
                {"iterations", std::move(iterations)}};
}

Json rayCastTraceJson(const RayCastTrace& trace) {
    Json iterations = Json::array();
    for (const RayCastIteration& it : trace.iterations) {
        Json simplex = Json::array();
        for (const glm::dvec3& p : it.simplex)
            simplex.push_back(vec(p));
        iterations.push_back(Json{{"direction", vec(it.direction)},
                                  {"support", vec(it.support)},
                                  {"plane_height", number(it.planeHeight)},
                                  {"moved", it.moved},
                                  {"t", number(it.t)},
                                  {"x", vec(it.x)},
                                  {"updated", it.updated},
                                  {"added", it.added},
                                  {"simplex", std::move(simplex)},
                                  {"v", vec(it.v)},
                                  {"distance", number(it.distance)}});
    }
    return Json{{"status", std::string(rayCastStatusName(trace.result.status))},
                {"radius", number(trace.radius)},
                {"tolerance", number(trace.tolerance)},
                {"iterations", std::move(iterations)}};
}

Json shapeCastJson(const ShapeCast& cast) {
    const bool answer = cast.status != ShapeCastStatus::Miss && cast.status != ShapeCastStatus::InvalidInput;
    const auto orNull = [&](Json value) { return answer ? std::move(value) : Json(nullptr); };
    return Json{{"hit", cast.hit},
                {"status", std::string(shapeCastStatusName(cast.status))},
                {"time_of_impact", orNull(number(cast.t))},
                {"distance", orNull(number(cast.distance))},
                {"point_a", orNull(vec(cast.pointA))},
                {"point_b", orNull(vec(cast.pointB))},
                {"normal", orNull(vec(cast.normal))}};
}

Json shapeCastTraceJson(const ShapeCastTrace& trace) {
    Json steps = Json::array();
    for (const ShapeCastStep& s : trace.steps) {
        steps.push_back(Json{{"t", number(s.t)},
                             {"center_a", vec(shapeCenter(s.shapeA))},
                             {"center_b", vec(shapeCenter(s.shapeB))},
                             {"distance", number(s.gjk.distance)},
                             {"lower_bound", number(s.gjk.lowerBound)},
                             {"normal", vec(s.gjk.normal)},
                             {"point_a", vec(s.gjk.pointA)},
                             {"point_b", vec(s.gjk.pointB)},
                             {"gjk_iterations", s.gjk.iterations},
                             {"linear_rate", number(s.linearRate)},
                             {"angular_rate", number(s.angularRate)},
                             {"rate", number(s.rate)},
                             {"next_t", number(s.nextT)}});
    }
    return Json{{"result", shapeCastJson(trace.result)},
                {"status", std::string(shapeCastStatusName(trace.result.status))},
                {"t_max", number(trace.tMax)},
                {"gap", number(trace.gap)},
                {"reach_a", number(trace.reachA)},
                {"reach_b", number(trace.reachB)},
                {"tolerance", number(trace.tolerance)},
                {"steps", std::move(steps)}};
}

} // namespace kz::explain_json
