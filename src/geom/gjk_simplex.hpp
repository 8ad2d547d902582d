// Internal to kz_geom: GJK's distance subalgorithm, the point of a simplex (1 to 4 points) nearest
// the origin, by the signed volumes of Montanari, Petrinic and Barbieri, "Improving the GJK
// algorithm for faster and more reliable distance queries between convex objects" (ACM TOG 36(3),
// 2017; their openGJK). Instead of Johnson's determinants over every sub-simplex, it compares the
// signs of the signed volumes (areas, lengths) of the simplex and of the sub-simplices with the
// origin's projection as a vertex: all signs agreeing means the projection is inside; otherwise
// only the facets it lies beyond are searched, recursively. Each sub-problem is projected on the
// coordinate plane (axis) where the simplex's area (length) is largest, which keeps the
// arithmetic well conditioned; a degenerate simplex (flat tetrahedron, collinear triangle, two
// equal points) has a zero volume and falls to its facets, so no division by zero happens.
// Double precision throughout.
#pragma once

#include <array>
#include <cmath>
#include <glm/glm.hpp>

namespace kz::detail {

/// Barycentric weights of the nearest point, one per simplex point; 0 drops the point.
using SimplexWeights = std::array<double, 4>;

/// True when a and b are both > 0 or both < 0 (a zero agrees with nothing).
inline bool sameSign(double a, double b) {
    return (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
}

/// The index of the largest |component|.
inline int largestAxis(const glm::dvec3& v) {
    const glm::dvec3 m = glm::abs(v);
    return m.x >= m.y && m.x >= m.z ? 0 : (m.y >= m.z ? 1 : 2);
}

/// |sum_i lambda_i s_i|^2 over the first n points.
inline double sqNormOfCombination(const glm::dvec3* s, const double* lambda, int n) {
    glm::dvec3 p(0.0);
    for (int i = 0; i < n; ++i)
        p += lambda[i] * s[i];
    return glm::dot(p, p);
}

/// S1D: the segment [s1, s2]. The origin's projection on the line, compared with both ends
/// along the axis where the segment is longest.
inline void nearestOnSegment(const glm::dvec3& s1, const glm::dvec3& s2, double lambda[2]) {
    const glm::dvec3 t = s2 - s1;
    const double lengthSq = glm::dot(t, t);
    lambda[0] = 1.0;
    lambda[1] = 0.0;
    if (!(lengthSq > 0.0)) return; // one point
    const int i = largestAxis(t);
    const double mu = s1[i] - s2[i];
    const double projected = s1[i] - (glm::dot(s1, t) / lengthSq) * t[i];
    const double c1 = projected - s2[i]; // signed length of [p, s2]: s1's weight times mu
    const double c2 = s1[i] - projected; // signed length of [s1, p]: s2's weight times mu
    if (sameSign(mu, c1) && sameSign(mu, c2)) {
        lambda[0] = c1 / mu;
        lambda[1] = c2 / mu;
    } else if (!sameSign(mu, c1)) {
        lambda[0] = 0.0; // the projection is beyond s2
        lambda[1] = 1.0;
    }
}

/// S2D: the triangle (s1, s2, s3). The origin projected on its plane; the signed areas of the
/// three sub-triangles with that projection as a vertex, on the coordinate plane where the
/// triangle's projected area (the largest component of its normal) is largest.
inline void nearestOnTriangle(const glm::dvec3& s1, const glm::dvec3& s2, const glm::dvec3& s3,
                              double lambda[3]) {
    const glm::dvec3 n = glm::cross(s2 - s1, s3 - s1);
    const int k = largestAxis(n);
    const double mu = n[k]; // the projected area (times 2) of the whole triangle
    double c[3] = {0.0, 0.0, 0.0};
    if (mu != 0.0) {
        const glm::dvec3 p = n * (glm::dot(n, s1) / glm::dot(n, n));
        const int i = (k + 1) % 3, j = (k + 2) % 3; // cyclic, so (s2 - s1) x (s3 - s1) here is mu
        const auto area = [&](const glm::dvec3& x, const glm::dvec3& y) {
            return (x[i] - p[i]) * (y[j] - p[j]) - (x[j] - p[j]) * (y[i] - p[i]);
        };
        c[0] = area(s2, s3);
        c[1] = area(s3, s1);
        c[2] = area(s1, s2);
        if (sameSign(mu, c[0]) && sameSign(mu, c[1]) && sameSign(mu, c[2])) {
            for (int m = 0; m < 3; ++m)
                lambda[m] = c[m] / mu;
            return;
        }
    }
    // Beyond some edges (or degenerate: every edge): the nearest of those edges' nearest points.
    const glm::dvec3 s[3] = {s1, s2, s3};
    double best = INFINITY;
    for (int m = 0; m < 3; ++m) {
        if (mu != 0.0 && sameSign(mu, c[m])) continue; // on the inner side of the edge opposite m
        const int u = (m + 1) % 3, v = (m + 2) % 3;
        double edge[2];
        nearestOnSegment(s[u], s[v], edge);
        const glm::dvec3 pair[2] = {s[u], s[v]};
        const double d = sqNormOfCombination(pair, edge, 2);
        if (d < best) {
            best = d;
            lambda[m] = 0.0;
            lambda[u] = edge[0];
            lambda[v] = edge[1];
        }
    }
}

/// det[a b c] = a . (b x c).
inline double det3(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
    return glm::dot(a, glm::cross(b, c));
}

/// S3D: the tetrahedron (s1, s2, s3, s4). The cofactors of the 4x4 matrix [s_i; 1] are the
/// signed volumes of the tetrahedra with the origin in place of each vertex; they sum to the
/// whole volume. All of the same sign: the origin is inside (weights = cofactor / volume).
inline void nearestOnTetrahedron(const glm::dvec3 s[4], double lambda[4]) {
    const double c[4] = {-det3(s[1], s[2], s[3]), det3(s[0], s[2], s[3]), -det3(s[0], s[1], s[3]),
                         det3(s[0], s[1], s[2])};
    const double volume = c[0] + c[1] + c[2] + c[3];
    if (sameSign(volume, c[0]) && sameSign(volume, c[1]) && sameSign(volume, c[2]) &&
        sameSign(volume, c[3])) {
        for (int m = 0; m < 4; ++m)
            lambda[m] = c[m] / volume;
        return;
    }
    double best = INFINITY;
    for (int m = 0; m < 4; ++m) {
        if (sameSign(volume, c[m])) continue; // on the inner side of the face opposite m
        int idx[3], count = 0;
        for (int q = 0; q < 4; ++q)
            if (q != m) idx[count++] = q;
        double face[3];
        nearestOnTriangle(s[idx[0]], s[idx[1]], s[idx[2]], face);
        const glm::dvec3 tri[3] = {s[idx[0]], s[idx[1]], s[idx[2]]};
        const double d = sqNormOfCombination(tri, face, 3);
        if (d < best) {
            best = d;
            lambda[m] = 0.0;
            for (int q = 0; q < 3; ++q)
                lambda[idx[q]] = face[q];
        }
    }
}

/// The weights of the point of conv(s[0..n)) nearest the origin, n in 1..4; unused entries 0.
inline SimplexWeights signedVolumes(const glm::dvec3 s[4], int n) {
    SimplexWeights lambda{0.0, 0.0, 0.0, 0.0};
    switch (n) {
    case 4:
        nearestOnTetrahedron(s, lambda.data());
        break;
    case 3:
        nearestOnTriangle(s[0], s[1], s[2], lambda.data());
        break;
    case 2:
        nearestOnSegment(s[0], s[1], lambda.data());
        break;
    default:
        lambda[0] = 1.0;
        break;
    }
    return lambda;
}

} // namespace kz::detail
