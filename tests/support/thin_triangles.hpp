// Long thin triangles for the closest-point and contact tests (test_closest.cpp, test_contact.cpp):
// random slivers and needles placed away from the origin, a query point near each, every vertex
// order of a triangle, and the float resolution their errors are measured in.
#pragma once

#include "geom/geom.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <random>

namespace kz::thintest {

enum class ThinKind {
    Sliver, ///< Three long edges and one small height: an obtuse angle close to 180 degrees.
    Needle, ///< One short edge and two long ones: a sharp tip far from a short base.
};

/// A triangle and a query point near it (within a few of its widths, on any side).
struct ThinCase {
    Triangle tri;
    glm::vec3 p;
};

/// Length 20..400 and width 0.05..2 (so never below closestPtPointTriangle's sliver threshold),
/// turned at random and moved up to 100 from the origin.
inline ThinCase randomThinCase(std::mt19937& rng, ThinKind kind) {
    const auto uniform = [&rng](double lo, double hi) {
        return std::uniform_real_distribution<double>(lo, hi)(rng);
    };
    const double length = uniform(20.0, 400.0), width = uniform(0.05, 2.0);
    std::array<glm::dvec3, 3> local{};
    if (kind == ThinKind::Sliver) {
        local = {glm::dvec3(-0.5 * length, 0.0, 0.0), glm::dvec3(0.5 * length, 0.0, 0.0),
                 glm::dvec3(uniform(-0.4, 0.4) * length, width, 0.0)};
    } else {
        local = {glm::dvec3(-0.5 * length, 0.0, 0.0), glm::dvec3(0.5 * length, 0.0, 0.0),
                 glm::dvec3(0.5 * length + uniform(-1.0, 1.0) * width, width, 0.0)};
    }
    const glm::dvec3 near(uniform(-0.6, 0.6) * length, uniform(-2.0, 3.0) * width,
                          uniform(-2.0, 2.0) * width);

    std::normal_distribution<double> normal(0.0, 1.0);
    const glm::dmat3 turn =
        glm::mat3_cast(glm::normalize(glm::dquat(normal(rng), normal(rng), normal(rng), normal(rng))));
    const glm::dvec3 offset(uniform(-100.0, 100.0), uniform(-100.0, 100.0), uniform(-100.0, 100.0));
    const auto place = [&](const glm::dvec3& v) { return glm::vec3(offset + turn * v); };
    return {{place(local[0]), place(local[1]), place(local[2])}, place(near)};
}

/// The triangle with its vertices in each of the six orders (both windings).
inline std::array<Triangle, 6> allVertexOrders(const Triangle& t) {
    return {Triangle{t.a, t.b, t.c}, Triangle{t.b, t.c, t.a}, Triangle{t.c, t.a, t.b},
            Triangle{t.a, t.c, t.b}, Triangle{t.c, t.b, t.a}, Triangle{t.b, t.a, t.c}};
}

/// Float resolution at the size of the case: FLT_EPSILON times its largest |coordinate|
/// (between one and two ulps of that coordinate).
inline double floatResolution(const ThinCase& c) {
    float largest = 0.0f;
    for (const glm::vec3& v : {c.tri.a, c.tri.b, c.tri.c, c.p})
        largest = std::max({largest, std::abs(v.x), std::abs(v.y), std::abs(v.z)});
    return double(largest) * double(FLT_EPSILON);
}

} // namespace kz::thintest
