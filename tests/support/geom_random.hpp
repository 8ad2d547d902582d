// Test support: random points, directions, rotations and boxes for the geometry property tests,
// every one drawn from the caller's std::mt19937 (fixed seed per test), in a fixed order.
#pragma once

#include "geom/types.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <random>

namespace kz::test {

/// Uniform in [lo, hi).
inline float uniform(std::mt19937& rng, float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
}

/// Uniform in the cube [-extent, extent)^3.
inline glm::vec3 randomPoint(std::mt19937& rng, float extent) {
    return {uniform(rng, -extent, extent), uniform(rng, -extent, extent), uniform(rng, -extent, extent)};
}

/// A uniformly random unit vector (a normalised Gaussian triple).
inline glm::dvec3 randomUnit(std::mt19937& rng) {
    std::normal_distribution<double> n(0.0, 1.0);
    for (;;) {
        const glm::dvec3 v(n(rng), n(rng), n(rng));
        const double len = glm::length(v);
        if (len > 1e-3) return v / len;
    }
}

/// A uniformly random rotation (a normalised Gaussian quaternion).
inline glm::dmat3 randomRotation(std::mt19937& rng) {
    std::normal_distribution<double> n(0.0, 1.0);
    return glm::mat3_cast(glm::normalize(glm::dquat(n(rng), n(rng), n(rng), n(rng))));
}

/// The rotation by `angle` radians about `axis` (any length).
inline glm::dmat3 rotationAbout(const glm::dvec3& axis, double angle) {
    return glm::mat3_cast(glm::angleAxis(angle, glm::normalize(axis)));
}

/// The rotation taking unit vector u onto unit vector v.
inline glm::dmat3 rotationBetween(const glm::dvec3& u, const glm::dvec3& v) {
    return rotationAbout(glm::cross(u, v), std::acos(std::clamp(glm::dot(u, v), -1.0, 1.0)));
}

/// A box centred in [-centreExtent, centreExtent)^3, half extents in [minHalf, maxHalf), turned
/// at random (drawn in that order).
inline Obb randomObb(std::mt19937& rng, float centreExtent, float minHalf, float maxHalf) {
    return Obb{
        randomPoint(rng, centreExtent),
        {uniform(rng, minHalf, maxHalf), uniform(rng, minHalf, maxHalf), uniform(rng, minHalf, maxHalf)},
        glm::mat3(randomRotation(rng))};
}

/// A triangle with corners in [-extent, extent)^3, the index choosing its kind (i % 16): 1 long
/// and thin, 2 a sliver (nearly collinear), 3 zero area (collinear), 4 two equal corners, 5 a
/// point, 6 a NaN corner, the others general.
inline Triangle randomTriangleOfKind(std::mt19937& rng, int i, float extent) {
    Triangle t{randomPoint(rng, extent), randomPoint(rng, extent), randomPoint(rng, extent)};
    switch (i % 16) {
    case 1:
        t.c = t.a + 0.002f * (t.c - t.a) + 40.0f * (t.b - t.a);
        break;
    case 2:
        t.c = t.a + 2.0f * (t.b - t.a) + glm::vec3(1e-6f, 0, 0);
        break;
    case 3:
        t.c = t.a + 0.5f * (t.b - t.a);
        break;
    case 4:
        t.c = t.b;
        break;
    case 5:
        t.b = t.c = t.a;
        break;
    case 6:
        t.b.z = std::numeric_limits<float>::quiet_NaN();
        break;
    default:
        break;
    }
    return t;
}

} // namespace kz::test
