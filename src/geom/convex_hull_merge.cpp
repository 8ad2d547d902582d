// buildConvexHull's second half: quickhull's triangles merged into convex polygon faces
// (Gregorius, "Implementing Quickhull", GDC 2014: coplanar and non-convex merges), corners on
// only two faces dropped, and the ConvexHull's half-edges, planes and centroid filled.
#include "convex_hull_detail.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <glm/geometric.hpp>
#include <numeric>
#include <unordered_map>

namespace kz::hull_detail {
namespace {

/// Grows each face from its largest unmerged triangle, one neighbouring triangle at a time, while
/// the face stays a disk whose corners are all within tol.merge of the first triangle's plane
/// (coplanar triangles merge). A first pass lets the loop turn right at a corner that the face
/// may still swallow (every triangle round it is in the plane), as a point inside a face is before
/// its last triangle joins; if the finished loop is not convex (within tol.merge), the face is
/// grown again allowing no right turn at all, so no non-convex face survives.
class FaceMerger {
public:
    FaceMerger(std::span<const glm::dvec3> points, const std::vector<HullTriangle>& triangles, double merge);

    /// Assigns every triangle a face; returns the number of faces.
    std::uint32_t run();
    std::uint32_t faceOf(std::uint32_t triangle) const { return faceOf_[triangle]; }
    const glm::dvec3& normal(std::uint32_t face) const { return normals_[face]; }

private:
    glm::dvec3 triangleCross(std::uint32_t t) const {
        const HullTriangle& tri = t_[t];
        return glm::cross(p_[tri.v[1]] - p_[tri.v[0]], p_[tri.v[2]] - p_[tri.v[0]]);
    }
    /// Facing the growing face's way, every corner within tol.merge of its plane.
    bool inPlane(std::uint32_t t) const;
    /// The loop u -> v -> w turns left about the face normal, or right by at most tol.merge;
    /// in the first pass, also when v may still end inside the face.
    bool convexAt(std::uint32_t u, std::uint32_t v, std::uint32_t w) const;
    /// Every triangle round point v is inPlane.
    bool swallowable(std::uint32_t v) const;
    /// Grows face `face` from `seed`; false if its loop is not convex (strict pass: never).
    bool grow(std::uint32_t seed, std::uint32_t face);
    bool tryAdd(std::uint32_t t, std::uint32_t face);
    bool loopConvex() const;

    std::span<const glm::dvec3> p_;
    const std::vector<HullTriangle>& t_;
    double merge_;
    std::vector<std::uint32_t> faceOf_;
    std::vector<std::uint32_t> aroundPoint_; ///< Per point: one triangle holding it.
    std::vector<std::uint32_t> boundaryOf_;  ///< Per point: the growing face whose loop holds it.
    std::vector<std::uint32_t> next_, prev_; ///< Per point: the growing face's loop.
    std::vector<glm::dvec3> normals_;
    std::vector<std::uint32_t> members_; ///< The growing face's triangles.
    glm::dvec3 n_{0.0};                  ///< The growing face's normal (its first triangle's).
    glm::dvec3 anchor_{0.0};             ///< A point on its plane.
    std::uint32_t onLoop_ = kNone;       ///< A point on its loop.
    bool strict_ = false;
};

FaceMerger::FaceMerger(std::span<const glm::dvec3> points, const std::vector<HullTriangle>& triangles,
                       double merge)
    : p_(points), t_(triangles), merge_(merge), faceOf_(triangles.size(), kNone),
      aroundPoint_(points.size(), kNone), boundaryOf_(points.size(), kNone), next_(points.size(), kNone),
      prev_(points.size(), kNone) {
    for (std::uint32_t t = 0; t < triangles.size(); ++t) {
        for (const std::uint32_t v : triangles[t].v)
            aroundPoint_[v] = t;
    }
}

bool FaceMerger::inPlane(std::uint32_t t) const {
    if (!(glm::dot(triangleCross(t), n_) > 0.0)) return false;
    for (const std::uint32_t v : t_[t].v) {
        if (!(std::abs(glm::dot(n_, p_[v] - anchor_)) <= merge_)) return false;
    }
    return true;
}

bool FaceMerger::convexAt(std::uint32_t u, std::uint32_t v, std::uint32_t w) const {
    const double turn = glm::dot(glm::cross(p_[v] - p_[u], p_[w] - p_[v]), n_);
    if (turn >= -merge_ * glm::length(p_[w] - p_[u])) return true;
    return !strict_ && swallowable(v);
}

bool FaceMerger::swallowable(std::uint32_t v) const {
    // Round v: in triangle t with v at index i, the next triangle is across the edge ending at v.
    const std::uint32_t first = aroundPoint_[v];
    std::uint32_t t = first;
    for (std::size_t step = 0; step <= t_.size(); ++step) {
        if (faceOf_[t] == kNone && !inPlane(t)) return false;
        int i = 0;
        while (i < 3 && t_[t].v[i] != v)
            ++i;
        if (i == 3) return false;
        t = t_[t].adj[(i + 2) % 3];
        if (t == first) return true;
    }
    return false;
}

std::uint32_t FaceMerger::run() {
    std::vector<double> area(t_.size());
    for (std::uint32_t t = 0; t < t_.size(); ++t)
        area[t] = glm::length(triangleCross(t));
    std::vector<std::uint32_t> order(t_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return area[a] > area[b]; });
    for (const std::uint32_t seed : order) {
        if (faceOf_[seed] != kNone) continue;
        const auto face = static_cast<std::uint32_t>(normals_.size());
        strict_ = false;
        if (grow(seed, face)) continue;
        // Undo and grow again, convex at every step.
        for (const std::uint32_t t : members_) {
            faceOf_[t] = kNone;
            for (const std::uint32_t v : t_[t].v)
                boundaryOf_[v] = kNone;
        }
        normals_.pop_back();
        strict_ = true;
        grow(seed, face);
    }
    return static_cast<std::uint32_t>(normals_.size());
}

bool FaceMerger::grow(std::uint32_t seed, std::uint32_t face) {
    const glm::dvec3 cross = triangleCross(seed);
    const double length = glm::length(cross);
    n_ = length > 0.0 ? cross / length : glm::dvec3(0.0);
    normals_.push_back(n_);
    const HullTriangle& tri = t_[seed];
    anchor_ = p_[tri.v[0]];
    onLoop_ = tri.v[0];
    faceOf_[seed] = face;
    members_.assign(1, seed);
    for (int i = 0; i < 3; ++i) {
        boundaryOf_[tri.v[i]] = face;
        next_[tri.v[i]] = tri.v[(i + 1) % 3];
        prev_[tri.v[(i + 1) % 3]] = tri.v[i];
    }
    std::vector<std::uint32_t> queue(tri.adj.begin(), tri.adj.end());
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const std::uint32_t t = queue[head];
        if (faceOf_[t] != kNone || !tryAdd(t, face)) continue;
        members_.push_back(t);
        for (const std::uint32_t u : t_[t].adj) {
            if (faceOf_[u] == kNone) queue.push_back(u);
        }
    }
    return strict_ || loopConvex();
}

bool FaceMerger::loopConvex() const {
    std::uint32_t v = onLoop_;
    for (std::size_t step = 0; step <= p_.size(); ++step) {
        const double turn = glm::dot(glm::cross(p_[v] - p_[prev_[v]], p_[next_[v]] - p_[v]), n_);
        if (!(turn >= -merge_ * glm::length(p_[next_[v]] - p_[prev_[v]]))) return false;
        v = next_[v];
        if (v == onLoop_) return true;
    }
    return false; // not a closed loop: grow it again, strictly
}

bool FaceMerger::tryAdd(std::uint32_t t, std::uint32_t face) {
    const HullTriangle& tri = t_[t];
    if (!inPlane(t)) return false;
    int shared = 0, lone = 0;
    for (int i = 0; i < 3; ++i) {
        if (faceOf_[tri.adj[i]] == face) {
            ++shared;
        } else {
            lone = i;
        }
    }
    if (shared == 1) {
        // Edge a -> b shared (the loop runs b -> a); c joins the loop: b -> c -> a.
        int i = 0;
        while (faceOf_[tri.adj[i]] != face)
            ++i;
        const std::uint32_t a = tri.v[i], b = tri.v[(i + 1) % 3], c = tri.v[(i + 2) % 3];
        // c already on the loop would pinch the face into a non-disk.
        if (next_[b] != a || boundaryOf_[c] == face) return false;
        if (!convexAt(prev_[b], b, c) || !convexAt(b, c, a) || !convexAt(c, a, next_[a])) return false;
        next_[b] = c, prev_[c] = b, next_[c] = a, prev_[a] = c;
        boundaryOf_[c] = face;
        onLoop_ = c;
    } else if (shared == 2) {
        // Edges y -> m and m -> x shared (the loop runs x -> m -> y); m leaves the loop: x -> y.
        const std::uint32_t x = tri.v[lone], y = tri.v[(lone + 1) % 3], m = tri.v[(lone + 2) % 3];
        if (next_[x] != m || next_[m] != y || next_[y] == x) return false;
        if (!convexAt(prev_[x], x, y) || !convexAt(x, y, next_[y])) return false;
        next_[x] = y, prev_[y] = x;
        boundaryOf_[m] = kNone;
        onLoop_ = x;
    } else {
        return false;
    }
    faceOf_[t] = face;
    return true;
}

/// The corners of every face in counter-clockwise order: walk the triangle edges that border
/// another face, turning around each corner through the face's own triangles.
bool faceLoops(const std::vector<HullTriangle>& t, const FaceMerger& merger, std::uint32_t faceCount,
               std::vector<std::vector<std::uint32_t>>& loops) {
    loops.assign(faceCount, {});
    std::vector<bool> started(faceCount, false);
    const std::size_t limit = 3 * t.size();
    for (std::uint32_t first = 0; first < t.size(); ++first) {
        const std::uint32_t f = merger.faceOf(first);
        int edge = 0;
        while (edge < 3 && merger.faceOf(t[first].adj[edge]) == f)
            ++edge;
        if (started[f] || edge == 3) continue;
        started[f] = true;
        std::uint32_t tri = first;
        int e = edge;
        do {
            loops[f].push_back(t[tri].v[e]);
            const std::uint32_t corner = t[tri].v[(e + 1) % 3];
            e = (e + 1) % 3;
            while (merger.faceOf(t[tri].adj[e]) == f) {
                tri = t[tri].adj[e];
                e = 0;
                while (e < 3 && t[tri].v[e] != corner)
                    ++e;
                if (e == 3 || loops[f].size() > limit) return false;
            }
        } while (!(tri == first && e == edge) && loops[f].size() <= limit);
        if (loops[f].size() > limit || loops[f].size() < 3) return false;
    }
    return std::all_of(started.begin(), started.end(), [](bool s) { return s; });
}

/// Drops the corners that only two faces share (points on an edge between two faces), keeping
/// every face at 3 corners or more.
void dropEdgePoints(std::vector<std::vector<std::uint32_t>>& loops, std::size_t pointCount) {
    std::vector<std::uint32_t> count(pointCount, 0), faceA(pointCount, kNone), faceB(pointCount, kNone);
    for (std::uint32_t f = 0; f < loops.size(); ++f) {
        for (const std::uint32_t v : loops[f]) {
            (count[v]++ == 0 ? faceA : faceB)[v] = f;
        }
    }
    std::vector<std::size_t> size(loops.size());
    for (std::size_t f = 0; f < loops.size(); ++f)
        size[f] = loops[f].size();
    std::vector<bool> dropped(pointCount, false);
    for (std::uint32_t v = 0; v < pointCount; ++v) {
        if (count[v] != 2 || size[faceA[v]] <= 3 || size[faceB[v]] <= 3) continue;
        dropped[v] = true;
        --size[faceA[v]], --size[faceB[v]];
    }
    for (auto& loop : loops)
        std::erase_if(loop, [&](std::uint32_t v) { return dropped[v]; });
}

/// Half-edges from the face loops: an edge's first side seen takes slot 2k, its twin 2k + 1.
bool linkEdges(const std::vector<std::vector<std::uint32_t>>& loops,
               const std::vector<std::uint32_t>& newIndex, ConvexHull& hull) {
    std::unordered_map<std::uint64_t, std::uint32_t> open;
    const auto key = [](std::uint32_t from, std::uint32_t to) { return (std::uint64_t(from) << 32) | to; };
    std::size_t edgeCount = 0;
    for (const auto& loop : loops)
        edgeCount += loop.size();
    hull.edges.assign(edgeCount, {kNone, kNone, kNone, kNone});
    std::uint32_t pairs = 0;
    for (std::uint32_t f = 0; f < loops.size(); ++f) {
        const auto& loop = loops[f];
        std::vector<std::uint32_t> ids(loop.size());
        for (std::size_t i = 0; i < loop.size(); ++i) {
            const std::uint32_t from = loop[i], to = loop[(i + 1) % loop.size()];
            const auto twin = open.find(key(to, from));
            if (twin != open.end()) {
                ids[i] = twin->second ^ 1u;
                open.erase(twin);
            } else {
                if (open.count(key(from, to)) != 0 || 2 * pairs + 1 >= edgeCount) return false;
                ids[i] = 2 * pairs++;
                open.emplace(key(from, to), ids[i]);
            }
            hull.edges[ids[i]] = {newIndex[from], ids[i] ^ 1u, kNone, f};
        }
        for (std::size_t i = 0; i < ids.size(); ++i)
            hull.edges[ids[i]].next = ids[(i + 1) % ids.size()];
        hull.faces[f].edge = ids[0];
    }
    return open.empty() && 2 * pairs == edgeCount;
}

/// The centre of volume: tetrahedra from the corners' mean to every face's fan.
glm::dvec3 volumeCentroid(std::span<const glm::dvec3> p,
                          const std::vector<std::vector<std::uint32_t>>& loops) {
    glm::dvec3 mean(0.0);
    std::size_t count = 0;
    for (const auto& loop : loops) {
        for (const std::uint32_t v : loop)
            mean += p[v], ++count;
    }
    mean /= double(count);
    double volume = 0.0;
    glm::dvec3 moment(0.0);
    for (const auto& loop : loops) {
        const glm::dvec3 a = p[loop[0]] - mean;
        for (std::size_t i = 1; i + 1 < loop.size(); ++i) {
            const glm::dvec3 b = p[loop[i]] - mean, c = p[loop[i + 1]] - mean;
            const double v6 = glm::dot(a, glm::cross(b, c));
            volume += v6;
            moment += v6 * (a + b + c) * 0.25;
        }
    }
    return volume > 0.0 ? mean + moment / volume : glm::dvec3(NAN);
}

} // namespace

HullBuild assembleHull(std::span<const glm::dvec3> points, const std::vector<HullTriangle>& triangles,
                       const HullTolerances& tol, std::vector<std::uint32_t>* triangleFace) {
    const HullBuild broken{std::nullopt, "could not build a consistent hull (rounding broke the "
                                         "final check): the points may be too close to flat"};
    FaceMerger merger(points, triangles, tol.merge);
    const std::uint32_t faceCount = merger.run();
    std::vector<std::vector<std::uint32_t>> loops;
    if (triangleFace) {
        for (std::uint32_t t = 0; t < triangles.size(); ++t)
            triangleFace->push_back(merger.faceOf(t));
    }
    if (faceCount < 4 || !faceLoops(triangles, merger, faceCount, loops)) return broken;
    dropEdgePoints(loops, points.size());

    ConvexHull hull;
    hull.tolerance = tol.tolerance;
    std::vector<std::uint32_t> newIndex(points.size(), kNone);
    for (const auto& loop : loops) {
        for (const std::uint32_t v : loop)
            newIndex[v] = 0;
    }
    for (std::uint32_t v = 0; v < points.size(); ++v) {
        if (newIndex[v] == kNone) continue;
        newIndex[v] = static_cast<std::uint32_t>(hull.vertices.size());
        hull.vertices.emplace_back(points[v]);
    }
    // Each plane sits at its face's outermost corner, counting the corners merged inside it.
    std::vector<double> offset(faceCount, -INFINITY);
    for (std::uint32_t t = 0; t < triangles.size(); ++t) {
        const std::uint32_t f = merger.faceOf(t);
        for (const std::uint32_t v : triangles[t].v) {
            offset[f] = std::max(offset[f], glm::dot(merger.normal(f), points[v]));
        }
    }
    hull.faces.resize(faceCount);
    for (std::uint32_t f = 0; f < faceCount; ++f) {
        hull.faces[f] = {glm::vec3(merger.normal(f)), static_cast<float>(offset[f]), kNone};
    }
    if (!linkEdges(loops, newIndex, hull)) return broken;
    hull.vertexEdge.assign(hull.vertices.size(), kNone);
    for (auto e = static_cast<std::uint32_t>(hull.edges.size()); e-- > 0;)
        hull.vertexEdge[hull.edges[e].origin] = e;
    hull.centroid = glm::vec3(volumeCentroid(points, loops));
    hull.reachSq = reachSq(hull.vertices);
    if (!checkStructure(hull) || !checkFaces(hull) || !checkLocallyConvex(hull)) return broken;
    fillNeighbours(hull);
    hull.octantVertex = octantVertices(hull.vertices);
    hull.vertexLanes = vertexLanes(hull.vertices);
    return {std::move(hull), {}};
}

} // namespace kz::hull_detail
