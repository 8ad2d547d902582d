// Test support for test_gjk.cpp and test_epa.cpp: hand-built hulls (buildConvexHull is another
// module's), random convex shapes of every kind, and double-precision references written apart
// from the library's support code: each shape's support function and its projection (nearest
// point), from which a separating plane's gap bounds the true distance from below and a pair of
// contained points bounds it from above.
#pragma once

#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/geom_reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace kz::test {

/// A hull for the tests: vertices (all the library reads) and its triangles, outward, for the
/// reference projection and separating-axis test.
struct TestHull {
    ConvexHull hull;
    std::vector<std::array<int, 3>> triangles;
};

/// Orients each triangle outward (away from the vertices' mean).
inline void orientOutward(TestHull& t) {
    glm::dvec3 mean(0.0);
    for (const glm::vec3& v : t.hull.vertices)
        mean += glm::dvec3(v);
    mean /= double(t.hull.vertices.size());
    for (auto& tri : t.triangles) {
        const glm::dvec3 a(t.hull.vertices[std::size_t(tri[0])]), b(t.hull.vertices[std::size_t(tri[1])]),
            c(t.hull.vertices[std::size_t(tri[2])]);
        if (glm::dot(glm::cross(b - a, c - a), a - mean) < 0.0) std::swap(tri[1], tri[2]);
    }
}

/// The tetrahedron with these corners.
inline std::shared_ptr<TestHull> tetraHull(const std::array<glm::vec3, 4>& p) {
    auto t = std::make_shared<TestHull>();
    t->hull.vertices.assign(p.begin(), p.end());
    t->triangles = {{{0, 1, 2}}, {{0, 1, 3}}, {{0, 2, 3}}, {{1, 2, 3}}};
    orientOutward(*t);
    return t;
}

/// The box [-half, half] as a hull of its 8 corners (bit i of the index: + on axis i).
inline std::shared_ptr<TestHull> boxHull(const glm::vec3& half) {
    auto t = std::make_shared<TestHull>();
    for (int i = 0; i < 8; ++i)
        t->hull.vertices.push_back(
            {(i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y, (i & 4) ? half.z : -half.z});
    // Two triangles per face: the face of axis k at side s holds the corners with bit k == s.
    for (int k = 0; k < 3; ++k) {
        for (int s = 0; s < 2; ++s) {
            std::vector<int> face;
            for (int i = 0; i < 8; ++i)
                if (((i >> k) & 1) == s) face.push_back(i);
            // face holds 4 corners; order them round the face: 0, 1, 3, 2 of the sorted list.
            t->triangles.push_back({{face[0], face[1], face[3]}});
            t->triangles.push_back({{face[0], face[3], face[2]}});
        }
    }
    orientOutward(*t);
    return t;
}

/// A shape with the hull it references (kept alive with it).
struct TestShape {
    ConvexShape shape;
    std::shared_ptr<TestHull> hull; ///< Set for PosedHull shapes.
};

inline std::string str(const ConvexShape& s) {
    std::ostringstream os;
    os.precision(9);
    if (const auto* p = std::get_if<Sphere>(&s))
        os << "Sphere{" << str(glm::dvec3(p->center)) << " r " << p->radius << "}";
    if (const auto* p = std::get_if<Obb>(&s)) os << str(*p);
    if (const auto* p = std::get_if<Capsule>(&s))
        os << "Capsule{" << str(glm::dvec3(p->a)) << " " << str(glm::dvec3(p->b)) << " r " << p->radius
           << "}";
    if (const auto* p = std::get_if<Cylinder>(&s))
        os << "Cylinder{" << str(glm::dvec3(p->a)) << " " << str(glm::dvec3(p->b)) << " r " << p->radius
           << "}";
    if (const auto* p = std::get_if<PosedHull>(&s)) {
        os << "Hull{at " << str(glm::dvec3(p->position)) << " axes " << str(glm::dvec3(p->orientation[0]))
           << " " << str(glm::dvec3(p->orientation[1])) << " " << str(glm::dvec3(p->orientation[2]))
           << " vertices";
        for (const glm::vec3& v : p->hull->vertices)
            os << " " << str(glm::dvec3(v));
        os << "}";
    }
    return os.str();
}

// ------------------------------------------------------------------ double references

/// The farthest point of the shape along u (u need not be unit), in double.
inline glm::dvec3 refSupport(const ConvexShape& s, const glm::dvec3& u) {
    const glm::dvec3 unit = glm::length(u) > 0.0 ? glm::normalize(u) : glm::dvec3(0.0);
    if (const auto* p = std::get_if<Sphere>(&s)) return glm::dvec3(p->center) + double(p->radius) * unit;
    if (const auto* p = std::get_if<Obb>(&s)) {
        glm::dvec3 best(0.0);
        double bestDot = -INFINITY;
        for (const glm::dvec3& c : refCorners(*p, 0.0))
            if (glm::dot(c, u) > bestDot) bestDot = glm::dot(c, u), best = c;
        return best;
    }
    if (const auto* p = std::get_if<Capsule>(&s)) {
        const glm::dvec3 a(p->a), b(p->b);
        return (glm::dot(a, u) >= glm::dot(b, u) ? a : b) + double(p->radius) * unit;
    }
    if (const auto* p = std::get_if<Cylinder>(&s)) {
        const glm::dvec3 a(p->a), b(p->b);
        const glm::dvec3 axis = glm::normalize(b - a);
        const glm::dvec3 across = u - glm::dot(u, axis) * axis;
        const glm::dvec3 rim =
            glm::length(across) > 1e-300 ? glm::normalize(across) * double(p->radius) : glm::dvec3(0.0);
        return (glm::dot(a, u) >= glm::dot(b, u) ? a : b) + rim;
    }
    const auto& h = std::get<PosedHull>(s);
    glm::dvec3 best(0.0);
    double bestDot = -INFINITY;
    for (const glm::vec3& v : h.hull->vertices) {
        const glm::dvec3 w = glm::dvec3(h.position) + glm::dmat3(h.orientation) * glm::dvec3(v);
        if (glm::dot(w, u) > bestDot) bestDot = glm::dot(w, u), best = w;
    }
    return best;
}

/// The point of the (solid) shape nearest p, in double. Hulls need their TestHull's triangles.
inline glm::dvec3 refProject(const TestShape& t, const glm::dvec3& p) {
    const ConvexShape& s = t.shape;
    if (const auto* q = std::get_if<Sphere>(&s)) {
        const glm::dvec3 c(q->center), d = p - c;
        const double len = glm::length(d);
        return len <= q->radius ? p : c + d * (double(q->radius) / len);
    }
    if (const auto* q = std::get_if<Obb>(&s)) {
        const glm::dvec3 local = refLocal(p, *q);
        return glm::dvec3(q->center) +
               glm::dmat3(q->axes) * glm::clamp(local, -glm::dvec3(q->half), glm::dvec3(q->half));
    }
    if (const auto* q = std::get_if<Capsule>(&s)) {
        const glm::dvec3 c = refClosestSegment(p, glm::dvec3(q->a), glm::dvec3(q->b));
        const glm::dvec3 d = p - c;
        const double len = glm::length(d);
        return len <= q->radius ? p : c + d * (double(q->radius) / len);
    }
    if (const auto* q = std::get_if<Cylinder>(&s)) {
        // A cylinder is an interval times a disc in its own frame: clamp each.
        const glm::dvec3 a(q->a), b(q->b);
        const double length = glm::length(b - a);
        const glm::dvec3 axis = (b - a) / length;
        const double along = glm::clamp(glm::dot(p - a, axis), 0.0, length);
        glm::dvec3 across = (p - a) - glm::dot(p - a, axis) * axis;
        const double acrossLength = glm::length(across);
        if (acrossLength > q->radius) across *= double(q->radius) / acrossLength;
        return a + along * axis + across;
    }
    const auto& h = std::get<PosedHull>(s);
    const glm::dmat3 r(h.orientation);
    // In units of the hull's size (refClosestTriangle's degenerate-area threshold is absolute).
    double unit = 0.0;
    for (const glm::vec3& v : h.hull->vertices)
        unit = std::max(unit, glm::length(glm::dvec3(v)));
    const glm::dvec3 local = glm::inverse(r) * (p - glm::dvec3(h.position)) / unit;
    bool inside = true;
    glm::dvec3 best(0.0);
    double bestSq = INFINITY;
    for (const auto& tri : t.hull->triangles) {
        const glm::dvec3 a = glm::dvec3(h.hull->vertices[std::size_t(tri[0])]) / unit,
                         b = glm::dvec3(h.hull->vertices[std::size_t(tri[1])]) / unit,
                         c = glm::dvec3(h.hull->vertices[std::size_t(tri[2])]) / unit;
        if (glm::dot(glm::cross(b - a, c - a), local - a) > 0.0) inside = false;
        const glm::dvec3 q = refClosestTriangle(local, a, b, c);
        if (glm::dot(q - local, q - local) < bestSq) bestSq = glm::dot(q - local, q - local), best = q;
    }
    return glm::dvec3(h.position) + r * ((inside ? local : best) * unit);
}

/// Distance from p to the solid shape.
inline double refDistance(const TestShape& t, const glm::dvec3& p) {
    return glm::length(p - refProject(t, p));
}

/// How far apart the shapes are along unit n (n from B toward A): min over A of n.a minus max
/// over B of n.b. A lower bound on their distance for every n (negative when they overlap on n).
inline double refGapAlong(const ConvexShape& a, const ConvexShape& b, const glm::dvec3& n) {
    return -glm::dot(refSupport(a, -n), -n) - glm::dot(refSupport(b, n), n);
}

/// Where a convex function of one variable is least on [lo, hi] (ternary search).
template <typename F>
double refArgMin(const F& f, double lo, double hi) {
    for (int k = 0; k < 200; ++k) {
        const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (f(m1) < f(m2)) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    return lo;
}

/// The larger of the two shapes' sizes (the radius of a ball round its centre holding it).
inline double refSize(const ConvexShape& s) {
    const glm::dvec3 c = 0.5 * (refSupport(s, {1, 0, 0}) + refSupport(s, {-1, 0, 0}));
    double size = 0.0;
    for (const glm::dvec3& u : {glm::dvec3(1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1)}) {
        size = std::max(size, glm::length(refSupport(s, u) - c));
        size = std::max(size, glm::length(refSupport(s, -u) - c));
    }
    return size;
}

/// How many random pairs the every-pair tests draw per pair of kinds: `unitCount` in the unit
/// suite, or KOLIZE_CONVEX_PAIRS when set (the full check is 100000:
/// `KOLIZE_CONVEX_PAIRS=100000 ctest --preset release -R 'EveryPair'`).
inline int convexPairCount(int unitCount) {
    const char* env = std::getenv("KOLIZE_CONVEX_PAIRS");
    const int n = env != nullptr ? std::atoi(env) : 0;
    return n > 0 ? n : unitCount;
}

// ------------------------------------------------------------------ random shapes

/// The kinds of shape, in ConvexShape's order.
enum class Kind { Sphere, Box, Capsule, Cylinder, Hull };
inline constexpr std::array<const char*, 5> kKindNames = {"sphere", "box", "capsule", "cylinder", "hull"};

/// A random shape of the kind, of size about `size`, centred at `center`, turned at random.
/// `variant` (0..7) picks a special form: 1 needle (a capsule or cylinder 1e-3 as thick as long,
/// a box with one tiny side), 2 flat (a hull 1e-3 as thick as wide, a zero-radius capsule or
/// sphere), the others general.
inline TestShape randomShape(std::mt19937& rng, Kind kind, float size, const glm::vec3& center, int variant) {
    const glm::mat3 axes(randomRotation(rng));
    const float s1 = size * uniform(rng, 0.3f, 1.0f), s2 = size * uniform(rng, 0.3f, 1.0f),
                s3 = size * uniform(rng, 0.3f, 1.0f);
    switch (kind) {
    case Kind::Sphere:
        return {Sphere{center, variant == 2 ? 0.0f : s1}, nullptr};
    case Kind::Box:
        return {Obb{center, {s1, variant == 1 ? 1e-3f * s2 : s2, s3}, axes}, nullptr};
    case Kind::Capsule: {
        const float r = variant == 1 ? 1e-3f * s2 : variant == 2 ? 0.0f : 0.5f * s2;
        return {capsuleFromPose(center, axes, variant == 3 ? 0.0f : s1, r), nullptr};
    }
    case Kind::Cylinder:
        return {cylinderFromPose(center, axes, s1, variant == 1 ? 1e-3f * s2 : 0.6f * s2), nullptr};
    case Kind::Hull: {
        std::shared_ptr<TestHull> hull;
        if (variant % 2 == 0) {
            hull = boxHull({s1, s2, s3});
        } else {
            std::array<glm::vec3, 4> p{};
            for (;;) {
                for (auto& q : p)
                    q = randomPoint(rng, size);
                if (variant == 1) p[3] = 0.5f * (p[0] + p[1]) + 1e-3f * size * glm::vec3(randomUnit(rng));
                const float volume = std::abs(glm::dot(p[1] - p[0], glm::cross(p[2] - p[0], p[3] - p[0])));
                if (volume > (variant == 1 ? 1e-7f : 0.05f) * size * size * size) break;
            }
            hull = tetraHull(p);
        }
        return {PosedHull{&hull->hull, center, axes}, hull};
    }
    }
    return {};
}

/// The shape moved by `offset`.
inline ConvexShape translated(ConvexShape s, const glm::vec3& offset) {
    std::visit(
        [&](auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, Sphere> || std::is_same_v<T, Obb>) {
                x.center += offset;
            } else if constexpr (std::is_same_v<T, Capsule> || std::is_same_v<T, Cylinder>) {
                x.a += offset;
                x.b += offset;
            } else {
                x.position += offset;
            }
        },
        s);
    return s;
}

} // namespace kz::test
