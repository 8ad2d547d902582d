// Internal to kz_geom: EPA on the shapes' cores, written once as a template on an observer (as
// gjk_steps.hpp): epa.cpp runs it with EpaNoTrace, whose hooks vanish; a recorder can copy the
// polytope, the face expanded, the support point and the bounds of each iteration for the lab.
// The polytope is fixed-size (kEpaMaxVertices, kEpaMaxFaces): no allocation.
#pragma once

#include "epa.hpp"
#include "gjk_steps.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

namespace kz::detail {

/// A triangle of the polytope, its vertices counter-clockwise seen from outside. No default
/// values: the polytope's slots are set by addFace before anything reads them (zeroing 256 of
/// them each query cost more than a small EPA).
struct EpaFace {
    std::array<int, 3> v;
    glm::dvec3 normal; ///< Unit, outward.
    double distance;   ///< dot(normal, vertex): the origin's distance below its plane.
    bool alive;
};

/// An edge of the horizon, from vertex `from` to `to`.
struct EpaEdge {
    int from, to;
};

/// The polytope inside the cores' Minkowski difference that EPA grows. Only the vertices below
/// vertexCount and the faces below faceSlots are set (the arrays are left uninitialised).
struct EpaPolytope {
    std::array<SimplexVertex, kEpaMaxVertices> vertices;
    int vertexCount = 0;
    std::array<EpaFace, kEpaMaxFaces> faces;
    int faceSlots = 0;                 ///< Slots used so far (dead ones are reused).
    int firstFree = 0;                 ///< Every slot below this is alive (where addFace looks first).
    glm::dvec3 interior{0.0};          ///< A point inside (the first polytope's centroid): orients faces.
    double minNormalLength = 0;        ///< |cross| below this: a face without a normal.
    std::uint32_t climbA = kColdClimb; ///< Where a support of hull A starts its climb (see GjkCore).
    std::uint32_t climbB = kColdClimb; ///< The same on B.
};

/// EPA's answer on the cores: the direction u of least depth (outward, from the origin to the
/// difference's boundary; the normal is -u), the depth along it and the witness points, with
/// pointA - pointB = depth * u.
struct EpaCore {
    glm::dvec3 u{0.0, -1.0, 0.0};
    double depth = 0.0;
    glm::dvec3 pointA{0.0}, pointB{0.0};
    int iterations = 0;
    EpaStatus status = EpaStatus::Converged;
};

/// The fast path's observer: every hook does nothing.
struct EpaNoTrace {
    template <class... T>
    void polytope(const T&...) {}
    template <class... T>
    void expand(const T&...) {}
    template <class... T>
    void stop(const T&...) {}
};

/// The support point of the cores' difference along u, with the points on A and B.
inline SimplexVertex supportPair(EpaPolytope& p, const CoreShape& a, const CoreShape& b,
                                 const glm::dvec3& u) {
    const glm::dvec3 pa = supportCore(a, u, p.climbA), pb = supportCore(b, -u, p.climbB);
    return {pa - pb, pa, pb};
}

/// Adds the face (i, j, k), turned to face away from the interior point; false when it has no
/// normal or no slot is left.
inline bool addFace(EpaPolytope& p, int i, int j, int k) {
    const glm::dvec3& a = p.vertices[std::size_t(i)].w;
    glm::dvec3 n = glm::cross(p.vertices[std::size_t(j)].w - a, p.vertices[std::size_t(k)].w - a);
    const double length = glm::length(n);
    if (!(length > p.minNormalLength)) return false;
    n /= length;
    if (glm::dot(n, a - p.interior) < 0.0) {
        n = -n;
        std::swap(j, k);
    }
    int slot = p.firstFree;
    while (slot < p.faceSlots && p.faces[std::size_t(slot)].alive)
        ++slot;
    if (slot == p.faceSlots) {
        if (p.faceSlots == kEpaMaxFaces) return false;
        ++p.faceSlots;
    }
    p.faces[std::size_t(slot)] = {{i, j, k}, n, glm::dot(n, a), true};
    p.firstFree = slot + 1;
    return true;
}

/// The alive face nearest the origin (the first of the smallest distance), or -1.
inline int nearestFace(const EpaPolytope& p) {
    int f = 0;
    while (f < p.faceSlots && !p.faces[std::size_t(f)].alive)
        ++f;
    if (f == p.faceSlots) return -1;
    int best = f;
    double bestDistance = p.faces[std::size_t(f)].distance;
    // The rest without a branch on the distances (which face wins is random), the best distance
    // kept in a register rather than read back through `best`.
    for (++f; f < p.faceSlots; ++f) {
        const EpaFace& face = p.faces[std::size_t(f)];
        const bool nearer = face.alive && face.distance < bestDistance;
        best = nearer ? f : best;
        bestDistance = nearer ? face.distance : bestDistance;
    }
    return best;
}

/// Replaces the faces that vertex `w` sees (more than `eps` above their plane) by a fan from w to
/// their boundary (the horizon: their edges whose reverse is not among them). False when a new face
/// has no normal or no slot: the polytope is then broken and EPA stops.
inline bool expandPolytope(EpaPolytope& p, int w, double eps) {
    std::array<EpaEdge, 3 * kEpaMaxFaces> edges; // only [0, edgeCount) is set
    int edgeCount = 0;
    const glm::dvec3 point = p.vertices[std::size_t(w)].w;
    for (int f = 0; f < p.faceSlots; ++f) {
        EpaFace& face = p.faces[std::size_t(f)];
        if (!face.alive || glm::dot(face.normal, point) - face.distance <= eps) continue;
        face.alive = false;
        p.firstFree = std::min(p.firstFree, f);
        for (int e = 0; e < 3; ++e)
            edges[std::size_t(edgeCount++)] = {face.v[std::size_t(e)], face.v[std::size_t((e + 1) % 3)]};
    }
    // An edge is on the horizon unless its reverse is among them too (the face across it is also
    // seen). The edges are listed by the vertex they start from, so the reverse of (from, to) is
    // looked for among the few edges starting at `to` (every `to` starts an edge as well: each
    // face's edges form a cycle), not among all of them.
    std::array<int, kEpaMaxVertices> head; // set below for every vertex an edge starts from
    std::array<int, 3 * kEpaMaxFaces> next;
    for (int e = 0; e < edgeCount; ++e)
        head[std::size_t(edges[std::size_t(e)].from)] = -1;
    for (int e = 0; e < edgeCount; ++e) {
        int& first = head[std::size_t(edges[std::size_t(e)].from)];
        next[std::size_t(e)] = first;
        first = e;
    }
    for (int e = 0; e < edgeCount; ++e) {
        const auto [from, to] = edges[std::size_t(e)];
        bool shared = false;
        for (int k = head[std::size_t(to)]; k >= 0 && !shared; k = next[std::size_t(k)])
            shared = edges[std::size_t(k)].to == from;
        if (!shared && !addFace(p, from, to, w)) return false;
    }
    return edgeCount > 0;
}

/// The barycentric weights of the origin's projection on the face's plane, unclamped (some are
/// negative when the projection falls outside the triangle).
inline std::array<double, 3> projectionWeights(const EpaPolytope& p, const EpaFace& face) {
    const glm::dvec3 q = face.distance * face.normal;
    const glm::dvec3& w0 = p.vertices[std::size_t(face.v[0])].w;
    const glm::dvec3& w1 = p.vertices[std::size_t(face.v[1])].w;
    const glm::dvec3& w2 = p.vertices[std::size_t(face.v[2])].w;
    const double area = glm::dot(glm::cross(w1 - w0, w2 - w0), face.normal);
    return {glm::dot(glm::cross(w1 - q, w2 - q), face.normal) / area,
            glm::dot(glm::cross(w2 - q, w0 - q), face.normal) / area,
            glm::dot(glm::cross(w0 - q, w1 - q), face.normal) / area};
}

/// The answer read off the nearest face: the origin's projection on it and the matching points on
/// A and B. The polytope's faces are triangles, and a flat face of A - B is several of them: the
/// one holding the projection (among those as near, within `eps`) gives the points; failing that,
/// the nearest face's weights extend past its edges (the plane's points are still affine in them).
inline EpaCore fromFace(const EpaPolytope& p, int nearest, double eps) {
    const EpaFace* chosen = &p.faces[std::size_t(nearest)];
    std::array<double, 3> lambda = projectionWeights(p, *chosen);
    const auto inside = [](const std::array<double, 3>& l) {
        return l[0] >= 0.0 && l[1] >= 0.0 && l[2] >= 0.0;
    };
    for (int f = 0; f < p.faceSlots && !inside(lambda); ++f) {
        const EpaFace& face = p.faces[std::size_t(f)];
        if (!face.alive || face.distance > chosen->distance + eps) continue;
        if (glm::dot(face.normal, chosen->normal) < 1.0 - 1e-9) continue;
        const std::array<double, 3> l = projectionWeights(p, face);
        if (inside(l)) chosen = &face, lambda = l;
    }
    EpaCore out;
    out.u = chosen->normal;
    out.depth = std::max(0.0, chosen->distance);
    for (int i = 0; i < 3; ++i) {
        const SimplexVertex& s = p.vertices[std::size_t(chosen->v[std::size_t(i)])];
        out.pointA += lambda[std::size_t(i)] * s.a;
        out.pointB += lambda[std::size_t(i)] * s.b;
    }
    return out;
}

/// The answer when the cores' difference is flat at the origin (no polytope to grow): depth 0
/// along u, the points from the simplex's point nearest the origin.
inline EpaCore flatAnswer(const EpaPolytope& p, const glm::dvec3& u) {
    glm::dvec3 w[4];
    for (int i = 0; i < p.vertexCount; ++i)
        w[i] = p.vertices[std::size_t(i)].w;
    const SimplexWeights lambda = signedVolumes(w, std::min(p.vertexCount, 3));
    EpaCore out;
    out.u = u;
    out.status = EpaStatus::Flat;
    out.pointA = out.pointB = glm::dvec3(0.0);
    for (int i = 0; i < std::min(p.vertexCount, 3); ++i) {
        out.pointA += lambda[std::size_t(i)] * p.vertices[std::size_t(i)].a;
        out.pointB += lambda[std::size_t(i)] * p.vertices[std::size_t(i)].b;
    }
    return out;
}

/// Of the unit vectors, the one most nearly along `preferred` (from A's centre toward B's, so
/// that the normal -u points from B toward A), or the first when preferred is zero.
inline glm::dvec3 towardB(glm::dvec3 u, const glm::dvec3& preferred) {
    return glm::dot(u, preferred) < 0.0 ? -u : u;
}

/// Grows GJK's simplex (1 to 3 points, the origin on it) to a polytope around the origin: a point
/// far from it, then one far from their line, then the support points on both sides of the
/// triangle's plane. Returns false, with `flat` set, when the difference has no extent that way.
inline bool blowUp(EpaPolytope& p, const CoreShape& a, const CoreShape& b, double tiny,
                   const glm::dvec3& towardBCentre, EpaCore& flat) {
    if (p.vertexCount == 1) {
        // The farthest support point of the six axis directions.
        SimplexVertex best = p.vertices[0];
        double bestDistance = 0.0;
        for (int k = 0; k < 6; ++k) {
            glm::dvec3 u(0.0);
            u[k / 2] = k % 2 ? -1.0 : 1.0;
            const SimplexVertex s = supportPair(p, a, b, u);
            const double distance = glm::length(s.w - p.vertices[0].w);
            if (distance > bestDistance) {
                best = s;
                bestDistance = distance;
            }
        }
        if (!(bestDistance > tiny)) {
            const glm::dvec3 u = glm::dot(towardBCentre, towardBCentre) > 0.0 ? glm::normalize(towardBCentre)
                                                                              : glm::dvec3(0, -1, 0);
            flat = flatAnswer(p, u);
            return false;
        }
        p.vertices[std::size_t(p.vertexCount++)] = best;
    }
    if (p.vertexCount == 2) {
        const glm::dvec3 axis = glm::normalize(p.vertices[1].w - p.vertices[0].w);
        const glm::dvec3 helper = std::abs(axis.x) < 0.6 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
        const glm::dvec3 e1 = glm::normalize(glm::cross(axis, helper));
        const glm::dvec3 e2 = glm::cross(axis, e1);
        SimplexVertex best{};
        double bestDistance = 0.0;
        for (const glm::dvec3& u : {e1, -e1, e2, -e2}) {
            const SimplexVertex s = supportPair(p, a, b, u);
            const glm::dvec3 off = s.w - p.vertices[0].w;
            const double distance = glm::length(off - glm::dot(off, axis) * axis);
            if (distance > bestDistance) {
                best = s;
                bestDistance = distance;
            }
        }
        if (!(bestDistance > tiny)) {
            const glm::dvec3 across = towardBCentre - glm::dot(towardBCentre, axis) * axis;
            flat = flatAnswer(p, glm::length(across) > tiny ? glm::normalize(across) : e1);
            return false;
        }
        p.vertices[std::size_t(p.vertexCount++)] = best;
    }
    return true;
}

/// The first polytope from the blown-up simplex (3 or 4 points, the origin in or on it): a
/// tetrahedron. For a triangle, its apex is the support point on the side of the triangle's plane
/// where the difference reaches farther (the origin then lies on the base, a face at distance 0:
/// two apexes would not make a convex polytope unless their segment crossed the triangle). No
/// apex off the plane: flat. False, with `flat` set, when flat or when a face has no normal.
inline bool initialPolytope(EpaPolytope& p, const CoreShape& a, const CoreShape& b, double tiny,
                            const glm::dvec3& towardBCentre, EpaCore& flat) {
    const glm::dvec3 w0 = p.vertices[0].w, w1 = p.vertices[1].w, w2 = p.vertices[2].w;
    const glm::dvec3 n = glm::normalize(glm::cross(w1 - w0, w2 - w0));
    if (p.vertexCount == 3) {
        const SimplexVertex above = supportPair(p, a, b, n), below = supportPair(p, a, b, -n);
        const double up = glm::dot(n, above.w - w0), down = glm::dot(n, w0 - below.w);
        if (!(std::max(up, down) > tiny)) {
            flat = flatAnswer(p, towardB(n, towardBCentre));
            return false;
        }
        p.vertices[std::size_t(p.vertexCount++)] = up >= down ? above : below;
    }
    glm::dvec3 sum(0.0);
    for (int i = 0; i < 4; ++i)
        sum += p.vertices[std::size_t(i)].w;
    p.interior = 0.25 * sum;
    const bool ok = addFace(p, 0, 1, 2) && addFace(p, 0, 1, 3) && addFace(p, 1, 2, 3) && addFace(p, 2, 0, 3);
    if (!ok) flat = flatAnswer(p, towardB(n, towardBCentre));
    return ok;
}

/// EPA on the cores from GJK's final simplex (the cores overlap or touch).
template <class Observe>
[[gnu::always_inline]] inline EpaCore epaSteps(const CoreShape& a, const CoreShape& b, const GjkCore& g,
                                               int maxIterations, Observe& observe) {
    const double size = std::max(a.size, b.size);
    const double tiny = kGjkTolerance * size;
    const double tolerance = kEpaTolerance * size;
    EpaPolytope p;
    p.minNormalLength = 1e-10 * size * size;
    p.vertexCount = g.count;
    p.climbA = g.climbA;
    p.climbB = g.climbB;
    for (int i = 0; i < g.count; ++i)
        p.vertices[std::size_t(i)] = g.simplex[std::size_t(i)];
    const glm::dvec3 towardBCentre = b.centre - a.centre;
    EpaCore flat;
    if (p.vertexCount < 4 && !blowUp(p, a, b, tiny, towardBCentre, flat)) return flat;
    if (!initialPolytope(p, a, b, tiny, towardBCentre, flat)) return flat;

    EpaCore best;
    double upper = INFINITY;
    best.status = EpaStatus::IterationCap;
    for (int iteration = 1; iteration <= std::clamp(maxIterations, 1, kEpaMaxIterations); ++iteration) {
        const int f = nearestFace(p);
        if (f < 0) {
            best.status = EpaStatus::Degenerate;
            break;
        }
        const EpaFace face = p.faces[std::size_t(f)];
        const SimplexVertex s = supportPair(p, a, b, face.normal);
        const double reach = glm::dot(face.normal, s.w); // how far the difference reaches this way
        upper = std::min(upper, reach);
        best = fromFace(p, f, tolerance);
        best.iterations = iteration;
        observe.polytope(p, f, s, face.distance, upper);
        // Converged on this face's own gap (not the best reach of all directions), so that its
        // normal is itself a direction of least depth within the tolerance.
        if (reach - face.distance <= tolerance) {
            best.status = EpaStatus::Converged;
            break;
        }
        if (p.vertexCount == kEpaMaxVertices) {
            best.status = EpaStatus::PolytopeCap;
            break;
        }
        p.vertices[std::size_t(p.vertexCount)] = s;
        const bool expanded = expandPolytope(p, p.vertexCount++, tiny);
        observe.expand(p, expanded);
        if (!expanded) {
            // Out of face slots, or a sliver face: the polytope is broken; keep the last face.
            best.status = p.faceSlots == kEpaMaxFaces ? EpaStatus::PolytopeCap : EpaStatus::Degenerate;
            break;
        }
        best.status = EpaStatus::IterationCap;
    }
    observe.stop(best);
    return best;
}

} // namespace kz::detail
