// buildConvexHull: input checks, the initial tetrahedron and the triangle quickhull, in double
// precision on the float points (Barber, Dobkin, Huhdanpaa 1996; Gregorius, GDC 2014). The face
// merging and the ConvexHull's assembly are in convex_hull_merge.cpp.
#include "convex_hull.hpp"

#include "convex_hull_detail.hpp"
#include "explain_convex_hull.hpp"
#include "types.hpp"

#include <algorithm>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>

namespace kz {
namespace {
using namespace hull_detail;

HullBuild failure(std::string message) {
    return {std::nullopt, std::move(message)};
}

/// A length for an error message: the shortest text that reads back as the same float (as the
/// same double beyond float's range).
std::string number(double x) {
    char buffer[32];
    const auto single = static_cast<float>(x);
    const auto end = std::isfinite(single) ? std::to_chars(buffer, buffer + sizeof buffer, single).ptr
                                           : std::to_chars(buffer, buffer + sizeof buffer, x).ptr;
    return std::string(buffer, end);
}

/// A quickhull face: a triangle with its neighbours, its plane, the points outside it and the
/// points just above it (qhull's "coplanar" points).
struct QFace {
    std::array<std::uint32_t, 3> v{};
    std::array<std::uint32_t, 3> adj{}; ///< adj[i]: the face across v[i] -> v[i + 1].
    glm::dvec3 normal{0.0};             ///< Unit, outward.
    std::vector<std::uint32_t> outside; ///< Points farther than tol.merge in front of it.
    /// Points in front of it by tol.merge or less: not worth a vertex now, but they move with the
    /// face when it goes, and the final check climbs from it to the face they are farthest above.
    std::vector<std::uint32_t> near;
    std::uint32_t furthest = kNone; ///< The point of `outside` farthest out (first on ties).
    double furthestDistance = 0.0;
    std::uint32_t visibleStamp = 0; ///< == the iteration's stamp while the eye sees it.
    bool alive = false;
};

/// One horizon edge: from -> to along a visible face, with the hidden face across it.
struct HorizonEdge {
    std::uint32_t from, to, hidden, hiddenEdge;
};

class Quickhull {
public:
    /// `trace`: explainConvexHull's recorder, or null (it only copies what the build computes).
    Quickhull(std::span<const glm::dvec3> points, const HullTolerances& tol, ConvexHullTrace* trace)
        : p_(points), tol_(tol), horizonStamp_(points.size(), 0), horizonAt_(points.size(), 0),
          trace_(trace) {}

    /// The tetrahedron a, b, c, d (not flat) and its outside sets.
    void start(const std::array<std::uint32_t, 4>& corners);
    /// Adds the farthest outside point of a face while any face has one; then again while the
    /// final check finds a near point more than tol.merge out (each round adds a vertex).
    void run();
    /// The live faces, renumbered in index order.
    std::vector<HullTriangle> triangles() const;

private:
    double distance(const QFace& face, const glm::dvec3& x) const {
        return glm::dot(face.normal, x - p_[face.v[0]]);
    }
    /// Unit normal of a, b, c counter-clockwise, or zero if c is within tol.plane of line ab.
    glm::dvec3 normalOf(std::uint32_t a, std::uint32_t b, std::uint32_t c) const;
    std::uint32_t allocateFace();
    void file(std::uint32_t point, std::span<const std::uint32_t> candidates);
    /// Climbs from each face's near points to the neighbouring faces they are farther in front
    /// of; moves those found more than tol.merge out to outside sets. True if any moved.
    bool refileNearPoints();
    bool findHorizon(std::uint32_t eye, std::uint32_t seed);
    bool addEye(std::uint32_t face);
    /// Records the iteration taking face f's farthest point (before f and the seen faces go).
    void record(std::uint32_t f, bool dropped);
    void addOutsidePoints();

    std::span<const glm::dvec3> p_;
    HullTolerances tol_;
    std::vector<QFace> faces_;
    std::vector<std::uint32_t> freeFaces_;
    std::vector<std::uint32_t> work_; ///< Faces that may have outside points (LIFO).
    std::uint32_t stamp_ = 0;
    std::vector<std::uint32_t> visible_;
    std::vector<HorizonEdge> horizon_;                    ///< In loop order once findHorizon succeeds.
    std::vector<std::uint32_t> horizonStamp_, horizonAt_; ///< Per point: horizon edge from it.
    ConvexHullTrace* trace_;
    std::uint32_t checkRound_ = 0; ///< How many final checks of the near points ran.
};

glm::dvec3 Quickhull::normalOf(std::uint32_t a, std::uint32_t b, std::uint32_t c) const {
    const glm::dvec3 ab = p_[b] - p_[a];
    const glm::dvec3 n = glm::cross(ab, p_[c] - p_[a]);
    const double length = glm::length(n);
    // |n| = |ab| * (distance of c from the line ab).
    if (!(length > tol_.plane * glm::length(ab))) return glm::dvec3(0.0);
    return n / length;
}

std::uint32_t Quickhull::allocateFace() {
    if (!freeFaces_.empty()) {
        const std::uint32_t index = freeFaces_.back();
        freeFaces_.pop_back();
        return index;
    }
    faces_.emplace_back();
    return static_cast<std::uint32_t>(faces_.size() - 1);
}

void Quickhull::file(std::uint32_t point, std::span<const std::uint32_t> candidates) {
    // The first candidate the point is more than tol.merge in front of takes it as an outside
    // point. Otherwise the candidate it is farthest in front of keeps it as a near point. A point
    // behind them all is inside the hull for good: the candidates are all the faces, or the new
    // faces over removed ones the point was in front of (Barber et al.: then it is inside).
    double nearest = 0.0;
    std::uint32_t nearestFace = kNone;
    for (const std::uint32_t f : candidates) {
        QFace& face = faces_[f];
        const double d = distance(face, p_[point]);
        if (d > tol_.merge) {
            face.outside.push_back(point);
            if (d > face.furthestDistance) {
                face.furthestDistance = d;
                face.furthest = point;
            }
            return;
        }
        if (d > nearest) nearest = d, nearestFace = f;
    }
    if (nearestFace != kNone) faces_[nearestFace].near.push_back(point);
}

bool Quickhull::refileNearPoints() {
    // Near a sharp edge a point can be just above one face and far above its neighbour, or fall
    // far above a face made after it was filed: climb to the face it is farthest in front of.
    bool refiled = false;
    for (std::uint32_t f = 0; f < faces_.size(); ++f) {
        if (!faces_[f].alive) continue;
        std::vector<std::uint32_t> points;
        points.swap(faces_[f].near);
        for (const std::uint32_t q : points) {
            std::uint32_t at = f;
            double d = distance(faces_[at], p_[q]);
            for (std::size_t step = 0; step < faces_.size(); ++step) {
                std::uint32_t up = at;
                for (const std::uint32_t g : faces_[at].adj) {
                    const double dg = distance(faces_[g], p_[q]);
                    if (dg > d) d = dg, up = g;
                }
                if (up == at) break;
                at = up;
            }
            const std::uint32_t only[1] = {at};
            file(q, only);
            if (d > tol_.merge) {
                work_.push_back(at);
                refiled = true;
            }
        }
    }
    return refiled;
}

void Quickhull::start(const std::array<std::uint32_t, 4>& corners) {
    static constexpr int kFaceCorners[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    std::array<std::uint32_t, 4> ids{};
    for (int i = 0; i < 4; ++i) {
        ids[i] = allocateFace();
        QFace& face = faces_[ids[i]];
        std::uint32_t a = corners[kFaceCorners[i][0]], b = corners[kFaceCorners[i][1]];
        const std::uint32_t c = corners[kFaceCorners[i][2]], opposite = corners[kFaceCorners[i][3]];
        // Outward: the opposite corner behind the plane.
        if (glm::dot(glm::cross(p_[b] - p_[a], p_[c] - p_[a]), p_[opposite] - p_[a]) > 0.0) std::swap(a, b);
        face.v = {a, b, c};
        face.normal = normalOf(a, b, c);
        face.alive = true;
    }
    // Neighbours: the face holding the reversed edge.
    for (const std::uint32_t f : ids) {
        for (int i = 0; i < 3; ++i) {
            const std::uint32_t from = faces_[f].v[i], to = faces_[f].v[(i + 1) % 3];
            for (const std::uint32_t g : ids) {
                for (int j = 0; j < 3; ++j) {
                    if (faces_[g].v[j] == to && faces_[g].v[(j + 1) % 3] == from) faces_[f].adj[i] = g;
                }
            }
        }
    }
    for (std::uint32_t i = 0; i < p_.size(); ++i)
        file(i, ids);
    for (int i = 3; i >= 0; --i)
        work_.push_back(ids[i]);
}

bool Quickhull::findHorizon(std::uint32_t eye, std::uint32_t seed) {
    // The faces the eye sees, by depth-first search from the seed (a face sees the eye when the
    // eye is more than tol.plane in front of it), then the edges from a seen face to a hidden one.
    ++stamp_;
    visible_.clear();
    horizon_.clear();
    std::vector<std::uint32_t> stack{seed};
    faces_[seed].visibleStamp = stamp_;
    while (!stack.empty()) {
        const std::uint32_t f = stack.back();
        stack.pop_back();
        visible_.push_back(f);
        for (const std::uint32_t g : faces_[f].adj) {
            if (faces_[g].visibleStamp == stamp_ || !(distance(faces_[g], p_[eye]) > tol_.plane)) continue;
            faces_[g].visibleStamp = stamp_;
            stack.push_back(g);
        }
    }
    std::vector<HorizonEdge> edges;
    for (const std::uint32_t f : visible_) {
        for (int i = 0; i < 3; ++i) {
            const std::uint32_t g = faces_[f].adj[i];
            if (faces_[g].visibleStamp == stamp_) continue;
            const std::uint32_t from = faces_[f].v[i], to = faces_[f].v[(i + 1) % 3];
            std::uint32_t j = 0;
            while (j < 3 && !(faces_[g].v[j] == to && faces_[g].v[(j + 1) % 3] == from))
                ++j;
            // A vertex starting two horizon edges: the seen faces are not a disk (rounding).
            if (j == 3 || horizonStamp_[from] == stamp_) return false;
            horizonStamp_[from] = stamp_;
            horizonAt_[from] = static_cast<std::uint32_t>(edges.size());
            edges.push_back({from, to, g, j});
        }
    }
    // Chain the edges into one loop; anything else is a broken horizon.
    std::uint32_t at = 0;
    for (std::size_t k = 0; k < edges.size(); ++k) {
        horizon_.push_back(edges[at]);
        const std::uint32_t to = edges[at].to;
        if (horizonStamp_[to] != stamp_) return false;
        at = horizonAt_[to];
        if ((at == 0) != (k + 1 == edges.size())) return false;
    }
    return horizon_.size() >= 3;
}

bool Quickhull::addEye(std::uint32_t f) {
    const std::uint32_t eye = faces_[f].furthest;
    if (!findHorizon(eye, f)) return false;
    // The cone from the horizon to the eye; every new face must have a usable normal.
    std::vector<glm::dvec3> normals;
    for (const HorizonEdge& e : horizon_) {
        normals.push_back(normalOf(e.from, e.to, eye));
        if (normals.back() == glm::dvec3(0.0)) return false;
    }
    if (trace_) record(f, false);
    std::vector<std::uint32_t> orphans;
    for (const std::uint32_t g : visible_) {
        QFace& face = faces_[g];
        for (const std::uint32_t q : face.outside) {
            if (q != eye) orphans.push_back(q);
        }
        orphans.insert(orphans.end(), face.near.begin(), face.near.end());
        face = QFace{};
        freeFaces_.push_back(g);
    }
    const std::size_t n = horizon_.size();
    std::vector<std::uint32_t> cone(n);
    for (std::size_t k = 0; k < n; ++k)
        cone[k] = allocateFace();
    for (std::size_t k = 0; k < n; ++k) {
        const HorizonEdge& e = horizon_[k];
        QFace& face = faces_[cone[k]];
        face.v = {e.from, e.to, eye};
        face.adj = {e.hidden, cone[(k + 1) % n], cone[(k + n - 1) % n]};
        face.normal = normals[k];
        face.alive = true;
        faces_[e.hidden].adj[e.hiddenEdge] = cone[k];
    }
    for (const std::uint32_t q : orphans)
        file(q, cone);
    for (std::size_t k = n; k-- > 0;) {
        if (!faces_[cone[k]].outside.empty()) work_.push_back(cone[k]);
    }
    return true;
}

void Quickhull::run() {
    do {
        addOutsidePoints();
        ++checkRound_;
    } while (refileNearPoints());
}

void Quickhull::record(std::uint32_t f, bool dropped) {
    const QFace& face = faces_[f];
    HullIteration& it = trace_->iterations.emplace_back();
    it = {face.furthest,
          glm::vec3(p_[face.furthest]),
          static_cast<float>(face.furthestDistance),
          face.v,
          checkRound_,
          dropped,
          {},
          {},
          {}};
    if (dropped) return;
    for (const std::uint32_t g : visible_)
        it.visible.push_back(faces_[g].v);
    for (const HorizonEdge& e : horizon_) {
        it.horizon.push_back({e.from, e.to});
        it.added.push_back({e.from, e.to, face.furthest});
    }
}

void Quickhull::addOutsidePoints() {
    // Each pass makes one point a vertex or drops it, so at most n passes.
    while (!work_.empty()) {
        const std::uint32_t f = work_.back();
        work_.pop_back();
        if (!faces_[f].alive || faces_[f].outside.empty()) continue;
        if (addEye(f)) continue;
        // Rounding made the eye's horizon unusable: drop the eye (it lies within a rounding
        // error of several faces) and go on with the face's other points.
        if (trace_) record(f, true);
        QFace& face = faces_[f];
        const std::uint32_t eye = face.furthest;
        std::erase(face.outside, eye);
        face.furthest = kNone;
        face.furthestDistance = 0.0;
        for (const std::uint32_t q : face.outside) {
            const double d = distance(face, p_[q]);
            if (d > face.furthestDistance) {
                face.furthestDistance = d;
                face.furthest = q;
            }
        }
        work_.push_back(f);
    }
}

std::vector<HullTriangle> Quickhull::triangles() const {
    std::vector<std::uint32_t> renumber(faces_.size(), kNone);
    std::uint32_t count = 0;
    for (std::size_t f = 0; f < faces_.size(); ++f) {
        if (faces_[f].alive) renumber[f] = count++;
    }
    std::vector<HullTriangle> out;
    out.reserve(count);
    for (const QFace& face : faces_) {
        if (!face.alive) continue;
        out.push_back({face.v, {renumber[face.adj[0]], renumber[face.adj[1]], renumber[face.adj[2]]}});
    }
    return out;
}

/// The index of the point farthest from the line through a and b (first on ties), and that distance.
std::pair<std::uint32_t, double> farthestFromLine(std::span<const glm::dvec3> p, std::uint32_t a,
                                                  std::uint32_t b) {
    const glm::dvec3 dir = glm::normalize(p[b] - p[a]);
    std::pair<std::uint32_t, double> best{a, 0.0};
    for (std::uint32_t i = 0; i < p.size(); ++i) {
        const double d = glm::length(glm::cross(p[i] - p[a], dir));
        if (d > best.second) best = {i, d};
    }
    return best;
}

/// The index of the point farthest from the plane through a, b, c (first on ties), and that distance.
std::pair<std::uint32_t, double> farthestFromPlane(std::span<const glm::dvec3> p, std::uint32_t a,
                                                   std::uint32_t b, std::uint32_t c) {
    const glm::dvec3 n = glm::normalize(glm::cross(p[b] - p[a], p[c] - p[a]));
    std::pair<std::uint32_t, double> best{a, 0.0};
    for (std::uint32_t i = 0; i < p.size(); ++i) {
        const double d = std::abs(glm::dot(n, p[i] - p[a]));
        if (d > best.second) best = {i, d};
    }
    return best;
}

} // namespace

HullBuild buildConvexHull(std::span<const glm::vec3> points) {
    return hull_detail::buildConvexHull(points, nullptr);
}

HullBuild hull_detail::buildConvexHull(std::span<const glm::vec3> points, ConvexHullTrace* trace) {
    const std::string n = std::to_string(points.size());
    if (points.size() < 4) return failure("a convex hull needs at least 4 points, got " + n);
    if (points.size() > kMaxHullPoints) {
        return failure("too many points for a convex hull: " + n + " (at most " +
                       std::to_string(kMaxHullPoints) + ")");
    }
    glm::dvec3 maxAbs(0.0), lo(points[0]), hi(points[0]);
    std::array<std::uint32_t, 3> loAt{}, hiAt{};
    for (std::uint32_t i = 0; i < points.size(); ++i) {
        if (!isFinite(points[i]))
            return failure("point " + std::to_string(i) + " has a non-finite coordinate");
        const glm::dvec3 p(points[i]);
        maxAbs = glm::max(maxAbs, glm::abs(p));
        for (int k = 0; k < 3; ++k) {
            if (p[k] < lo[k]) lo[k] = p[k], loAt[k] = i;
            if (p[k] > hi[k]) hi[k] = p[k], hiAt[k] = i;
        }
    }
    // Gregorius' 3 * epsilon * (max|x| + max|y| + max|z|): the rounding of the float input.
    const double sum = maxAbs.x + maxAbs.y + maxAbs.z;
    // |dot(normal, x)| <= |x| <= sum: below FLT_MAX, every plane offset fits a float.
    if (!(sum <= FLT_MAX)) {
        return failure("coordinates too large for a hull in float: max|x| + max|y| + max|z| is " +
                       number(sum) + " (at most " + number(FLT_MAX) + ")");
    }
    const double merge = 3.0 * FLT_EPSILON * sum;
    const HullTolerances tol{merge, 64.0 * DBL_EPSILON * sum, static_cast<float>(4.0 * merge)};
    const double rejectBelow = tol.tolerance;
    const std::string within = ", within the tolerance " + number(rejectBelow);

    const std::vector<glm::dvec3> p(points.begin(), points.end());
    int axis = 0;
    for (int k = 1; k < 3; ++k) {
        if (hi[k] - lo[k] > hi[axis] - lo[axis]) axis = k;
    }
    if (!(hi[axis] - lo[axis] > rejectBelow)) {
        return failure("all " + n + " points are (nearly) the same point: they span " +
                       number(hi[axis] - lo[axis]) + within);
    }
    const std::uint32_t a = loAt[axis], b = hiAt[axis];
    const auto [c, lineDistance] = farthestFromLine(p, a, b);
    if (!(lineDistance > rejectBelow)) {
        return failure("all " + n + " points are (nearly) on one line: at most " + number(lineDistance) +
                       " off it" + within);
    }
    const auto [d, planeDistance] = farthestFromPlane(p, a, b, c);
    if (!(planeDistance > rejectBelow)) {
        return failure("all " + n + " points are (nearly) on one plane: at most " + number(planeDistance) +
                       " off it" + within);
    }
    Quickhull hull(p, tol, trace);
    hull.start({a, b, c, d});
    hull.run();
    const std::vector<HullTriangle> triangles = hull.triangles();
    if (trace) {
        trace->tetrahedron = {a, b, c, d};
        for (const HullTriangle& t : triangles)
            trace->triangles.push_back(t.v);
    }
    return assembleHull(p, triangles, tol, trace ? &trace->triangleFace : nullptr);
}

} // namespace kz
