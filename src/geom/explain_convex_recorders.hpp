// Internal to kz_geom: the recorders of the convex queries' traces (explain_gjk.hpp,
// explain_epa.hpp). Each fills its trace from the hooks of the query's template
// (gjk_steps.hpp, gjk_raycast_steps.hpp, epa_steps.hpp), copying what the query computed; the
// few numbers a recorder derives for the trace (a bound recomputed by the same expression, a
// height over |v|) never feed back into the query.
#pragma once

#include "epa_steps.hpp"
#include "explain_epa.hpp"
#include "explain_gjk.hpp"
#include "gjk_boolean_steps.hpp"
#include "gjk_raycast_steps.hpp"
#include "gjk_steps.hpp"

#include <cmath>
#include <vector>

namespace kz::detail {

/// The shape GJK runs on: a sphere or capsule without its radius, the other shapes as they are
/// (explain_gjk.cpp).
ConvexShape coreShape(const ConvexShape& shape);
/// A GJK trace before GJK runs: the cores and radii, and invalid input's answer (status
/// InvalidInput) until the recorder's stop hook fills the real one (explain_gjk.cpp).
GjkTrace gjkTraceStart(const ConvexShape& a, const ConvexShape& b, int maxIterations, GjkQuery query);

inline GjkTracePoint tracePoint(const SimplexVertex& s) {
    return {s.w, s.a, s.b};
}

/// GJK's simplex as the trace holds it.
inline std::vector<GjkTracePoint> simplexOf(const GjkCore& g) {
    std::vector<GjkTracePoint> points;
    for (int i = 0; i < g.count; ++i)
        points.push_back(tracePoint(g.simplex[std::size_t(i)]));
    return points;
}

/// gjkSteps: each support point, each solved simplex, the final state and answer.
struct GjkRecorder {
    GjkTrace& out;
    GjkMode mode;
    std::vector<GjkTracePoint> previous; ///< The simplex kept by the last update.

    void support(int, const glm::dvec3& v, const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& w,
                 double lower) {
        GjkIteration it{};
        it.direction = -v;
        it.supportA = a;
        it.supportB = b;
        it.w = w;
        it.gap = glm::dot(v, w) / std::sqrt(glm::dot(v, v)); // gjkSteps' gapAlongV
        it.lowerBound = lower;
        it.simplex = previous;
        it.v = out.iterations.empty() ? v : out.iterations.back().v;
        it.pointA = out.iterations.empty() ? glm::dvec3(0.0) : out.iterations.back().pointA;
        it.pointB = out.iterations.empty() ? glm::dvec3(0.0) : out.iterations.back().pointB;
        it.upperBound = out.iterations.empty() ? INFINITY : out.iterations.back().upperBound;
        out.iterations.push_back(std::move(it));
    }
    void simplex(const GjkCore& core, const SimplexWeights& lambda) {
        GjkCore g = core; // the witness points gjkSteps sets only when it stops, as it would
        setWitnessPoints(g);
        GjkIteration& it = out.iterations.back();
        it.updated = true;
        it.tried = previous;
        it.tried.push_back({it.w, it.supportA, it.supportB});
        for (std::size_t i = 0; i < it.tried.size(); ++i) {
            it.weights.push_back(lambda[i]);
            if (lambda[i] > 0.0) it.kept.push_back(int(i));
        }
        it.simplex = simplexOf(g);
        it.v = g.v;
        it.pointA = g.pointA;
        it.pointB = g.pointB;
        it.upperBound = std::sqrt(glm::dot(g.v, g.v)); // gjkSteps' upper, from the same sum
        previous = it.simplex;
    }
    /// The boolean GJK's update (gjk_boolean_steps.hpp): the points kept by the regions, no weights.
    void booleanSimplex(const SimplexVertex* points, int count, const glm::dvec3& v,
                        const BooleanUpdate& update) {
        GjkIteration& it = out.iterations.back();
        it.updated = true;
        it.tried = previous;
        it.tried.push_back({it.w, it.supportA, it.supportB});
        it.simplex.clear();
        for (int i = 0; i < count; ++i) {
            it.kept.push_back(update.kept[std::size_t(i)]);
            it.simplex.push_back(tracePoint(points[i]));
        }
        it.v = v;
        it.pointA = it.pointB = glm::dvec3(0.0);
        it.upperBound = INFINITY;
        previous = it.simplex;
    }
    /// The boolean GJK hands over to gjkSteps: the trace is that run's alone.
    void restart() {
        out.boolean = false;
        out.iterations.clear();
        previous.clear();
    }
    void stop(const GjkCore& g) {
        out.status = g.status;
        if (!out.iterations.empty()) {
            GjkIteration& last = out.iterations.back();
            if (last.updated) {
                // The enclosing simplex's v and upper bound are set to zero after the hook.
                last.v = g.v;
                last.upperBound = g.upper;
            } else if (g.status == GjkStatus::NoProgress) {
                last.tried = previous;
                last.tried.push_back({last.w, last.supportA, last.supportB});
            }
        }
        out.simplex = simplexOf(g);
        out.v = g.v;
        out.pointA = g.pointA;
        out.pointB = g.pointB;
        out.upperBound = g.upper;
        out.lowerBound = g.lower;
        out.tolerance = g.tolerance;
        out.touching = g.touching;
        out.result = gjkResultFromCores(g, out.radiusA, out.radiusB);
        out.overlap =
            mode == GjkMode::Overlap ? gjkOverlapVerdict(g, out.radiusA + out.radiusB) : out.result.overlap;
    }
};

/// epaSteps: the polytope and its nearest face each iteration, the growth, the final status.
struct EpaRecorder {
    EpaTrace& out;

    void polytope(const EpaPolytope& p, int nearest, const SimplexVertex& s, double lower, double upper) {
        syncVertices(p);
        EpaIteration it{};
        it.vertexCount = p.vertexCount;
        it.nearest = -1;
        for (int f = 0; f < p.faceSlots; ++f) {
            const EpaFace& face = p.faces[std::size_t(f)];
            if (!face.alive) continue;
            if (f == nearest) it.nearest = int(it.faces.size());
            it.faces.push_back({face.v, face.normal, face.distance});
        }
        it.support = tracePoint(s);
        it.lowerBound = lower;
        const EpaFace& face = p.faces[std::size_t(nearest)];
        it.reach = glm::dot(face.normal, s.w); // epaSteps' reach
        it.upperBound = upper;
        it.gap = it.reach - lower;
        it.expanded = false;
        out.iterations.push_back(std::move(it));
    }
    void expand(const EpaPolytope& p, bool expanded) {
        syncVertices(p);
        out.iterations.back().expanded = expanded;
    }
    void stop(const EpaCore&) {}

    /// Appends the polytope's vertices the trace does not have yet (vertices are only appended).
    void syncVertices(const EpaPolytope& p) {
        for (int i = int(out.vertices.size()); i < p.vertexCount; ++i)
            out.vertices.push_back(tracePoint(p.vertices[std::size_t(i)]));
    }
};

/// raycastConvexSteps: each support point and move of x, each solved simplex.
struct RayCastRecorder {
    RayCastTrace& out;

    void start(const RayState&, double radius, double tolerance) {
        out.radius = radius;
        out.tolerance = tolerance;
    }
    void support(const RayState& s, const glm::dvec3& p, double gap, bool moves) {
        RayCastIteration it{};
        it.direction = s.v;
        it.support = p;
        it.planeHeight = gap / glm::length(s.v);
        it.moved = moves;
        it.t = s.t; // the move, if any, is read at the simplex hook (or is the Miss's)
        it.x = s.x;
        it.v = s.v;
        it.distance = glm::length(s.v);
        it.simplex.assign(s.points, s.points + s.count);
        out.iterations.push_back(std::move(it));
    }
    void advance(double t) { out.iterations.back().t = t; }
    void simplex(const RayState& s, bool added) {
        RayCastIteration& it = out.iterations.back();
        it.updated = true;
        it.added = added;
        it.t = s.t;
        it.x = s.x;
        it.simplex.assign(s.points, s.points + s.count);
        it.v = s.v;
        it.distance = glm::length(s.v);
    }
};

} // namespace kz::detail
