// Test support: point sets for the convex hull tests (random clouds in a cube and on a sphere,
// boxes with points on their faces and edges, a mix of degenerate sets per seed), each drawn from
// a fixed seed, and bit-for-bit equality of two hulls.
#pragma once

#include "geom/convex_hull.hpp"
#include "support/geom_random.hpp"
#include "support/same_bits.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace kz::test {

/// n points uniform in the cube [-extent, extent)^3 around offset.
inline std::vector<glm::vec3> cubeCloud(unsigned seed, std::size_t n, float extent,
                                        glm::vec3 offset = glm::vec3(0.0f)) {
    std::mt19937 rng(seed);
    std::vector<glm::vec3> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(offset + randomPoint(rng, extent));
    return out;
}

/// n points uniform on the sphere of the radius around offset (rounded to float).
inline std::vector<glm::vec3> sphereCloud(unsigned seed, std::size_t n, double radius,
                                          glm::vec3 offset = glm::vec3(0.0f)) {
    std::mt19937 rng(seed);
    std::vector<glm::vec3> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(offset + glm::vec3(radius * randomUnit(rng)));
    return out;
}

/// The 8 corners of the box [-half, half]; bit 0, 1, 2 of the index pick +half on x, y, z.
inline std::vector<glm::vec3> boxCorners(glm::vec3 half) {
    std::vector<glm::vec3> out;
    for (int i = 0; i < 8; ++i) {
        out.emplace_back(i & 1 ? half.x : -half.x, i & 2 ? half.y : -half.y, i & 4 ? half.z : -half.z);
    }
    return out;
}

/// A box's corners, then points on its faces, on its edges and inside, shuffled.
inline std::vector<glm::vec3> boxWithClutter(unsigned seed, glm::vec3 half) {
    std::mt19937 rng(seed);
    std::vector<glm::vec3> out = boxCorners(half);
    for (int i = 0; i < 300; ++i) {
        glm::vec3 p{uniform(rng, -half.x, half.x), uniform(rng, -half.y, half.y),
                    uniform(rng, -half.z, half.z)}; // braces: drawn left to right
        const int axis = i % 3;
        p[axis] = (i / 3) % 2 ? half[axis] : -half[axis];         // on a face
        if (i % 4 == 0) p[(axis + 1) % 3] = half[(axis + 1) % 3]; // on an edge
        out.push_back(p);
        out.push_back(0.5f * p); // inside
    }
    std::shuffle(out.begin(), out.end(), rng);
    return out;
}

/// A slab a few tolerances thin (thickness 1e-4 to 3e-4 of its width, points on its two faces),
/// turned and moved far from the origin at a random scale: its hull has very sharp edges, where a
/// point just above one face can be far above the next.
inline std::vector<glm::vec3> thinSlab(unsigned seed) {
    std::mt19937 rng(seed);
    const glm::dmat3 r = randomRotation(rng);
    const float scale = std::pow(10.0f, uniform(rng, -3.0f, 4.0f));
    const glm::dvec3 offset(randomPoint(rng, scale * 10.0f));
    std::vector<glm::vec3> out;
    const int n = 8 + int(rng() % 400);
    for (int i = 0; i < n; ++i) {
        glm::dvec3 p{uniform(rng, -1.0f, 1.0f), uniform(rng, -1.0f, 1.0f), 0.0};
        const double side = double(rng() % 2);
        p.z = side * 1e-4 * double(1 + rng() % 3);
        out.emplace_back(offset + double(scale) * (r * p));
    }
    return out;
}

/// A random point set of one of several kinds, some degenerate.
inline std::vector<glm::vec3> randomSet(unsigned seed) {
    std::mt19937 rng(seed);
    const std::size_t n = 4 + rng() % 120;
    const float scale = std::pow(10.0f, uniform(rng, -2.0f, 3.0f));
    const glm::vec3 offset = randomPoint(rng, scale * (rng() % 3 == 0 ? 100.0f : 1.0f));
    switch (seed % 5) {
    case 0:
        return cubeCloud(seed, n, scale, offset);
    case 1:
        return sphereCloud(seed, n, scale, offset);
    case 2: {
        auto points = boxWithClutter(seed, glm::vec3(scale, 0.5f * scale, 2.0f * scale));
        points.resize(std::min(points.size(), n + 8));
        for (glm::vec3& p : points)
            p += offset;
        return points;
    }
    case 3: { // on a grid: many coplanar and collinear points
        std::vector<glm::vec3> points;
        for (std::size_t i = 0; i < n; ++i) {
            points.push_back(glm::vec3{float(rng() % 4), float(rng() % 3), float(rng() % 5)});
            points.back() = scale * points.back() + offset;
        }
        return points;
    }
    default: { // flattish, with duplicates
        auto points = cubeCloud(seed, n, scale, offset);
        for (glm::vec3& p : points)
            p.z = offset.z + 1e-2f * (p.z - offset.z);
        for (std::size_t i = 0; i + 1 < points.size(); i += 3)
            points[i + 1] = points[i];
        return points;
    }
    }
}

/// The same vertices, half-edges, faces, centroid and tolerance, to the bit.
inline ::testing::AssertionResult sameHull(const kz::ConvexHull& a, const kz::ConvexHull& b) {
    if (a.vertices.size() != b.vertices.size() || a.edges.size() != b.edges.size() ||
        a.faces.size() != b.faces.size() || a.vertexEdge != b.vertexEdge)
        return ::testing::AssertionFailure() << "sizes differ";
    for (std::size_t i = 0; i < a.vertices.size(); ++i) {
        if (!sameBits(a.vertices[i], b.vertices[i])) return ::testing::AssertionFailure() << "vertex " << i;
    }
    for (std::size_t i = 0; i < a.edges.size(); ++i) {
        const auto &x = a.edges[i], &y = b.edges[i];
        if (x.origin != y.origin || x.twin != y.twin || x.next != y.next || x.face != y.face)
            return ::testing::AssertionFailure() << "edge " << i;
    }
    for (std::size_t i = 0; i < a.faces.size(); ++i) {
        const auto &x = a.faces[i], &y = b.faces[i];
        if (!sameBits(x.normal, y.normal) || !sameBits(x.offset, y.offset) || x.edge != y.edge)
            return ::testing::AssertionFailure() << "face " << i;
    }
    if (!sameBits(a.centroid, b.centroid) || !sameBits(a.tolerance, b.tolerance))
        return ::testing::AssertionFailure() << "centroid or tolerance";
    return ::testing::AssertionSuccess();
}

} // namespace kz::test
