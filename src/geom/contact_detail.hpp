// Internal to kz_geom: the pieces every contact query shares (building a manifold, the last
// finiteness guard, polygon clipping). Inline: they sit in the hot path of the box manifolds.
#pragma once

#include "contact.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace kz::detail {

inline Manifold singlePoint(const glm::vec3& normal, const glm::vec3& position, float depth) {
    Manifold m{normal, 1, {}, depth};
    m.points[0] = {position, depth};
    return m;
}

/// No NaN or infinity may leave a contact query.
inline std::optional<Manifold> finiteOrNone(const Manifold& m) {
    if (!isFinite(m.normal) || !std::isfinite(m.depth) || m.count < 1 || m.count > 4) return std::nullopt;
    for (int i = 0; i < m.count; ++i) {
        if (!isFinite(m.points[i].position) || !std::isfinite(m.points[i].depth)) return std::nullopt;
    }
    return m;
}

/// Picks 4 of n > 4 points that keep the deepest point and span the largest area
/// (the usual manifold reduction: deepest, farthest from it, largest triangle, farthest outside it).
inline int reduceToFour(const ContactPoint* in, int n, const glm::vec3& normal, ContactPoint out[4]) {
    int chosen[4] = {0, -1, -1, -1};
    for (int i = 1; i < n; ++i) {
        if (in[i].depth > in[chosen[0]].depth) chosen[0] = i;
    }
    float best = -1.0f;
    for (int i = 0; i < n; ++i) {
        const glm::vec3 d = in[i].position - in[chosen[0]].position;
        if (glm::dot(d, d) > best) best = glm::dot(d, d), chosen[1] = i;
    }
    const auto signedArea = [&](int p, int q, int r) {
        return glm::dot(glm::cross(in[q].position - in[p].position, in[r].position - in[p].position), normal);
    };
    best = -1.0f;
    for (int i = 0; i < n; ++i) {
        const float area = std::abs(signedArea(chosen[0], chosen[1], i));
        if (i != chosen[0] && i != chosen[1] && area > best) best = area, chosen[2] = i;
    }
    // Orient the triangle counter-clockwise about the normal, then take the point farthest outside it.
    if (signedArea(chosen[0], chosen[1], chosen[2]) < 0.0f) std::swap(chosen[1], chosen[2]);
    best = -INFINITY;
    for (int i = 0; i < n; ++i) {
        if (i == chosen[0] || i == chosen[1] || i == chosen[2]) continue;
        const float outside =
            -std::min({signedArea(chosen[0], chosen[1], i), signedArea(chosen[1], chosen[2], i),
                       signedArea(chosen[2], chosen[0], i)});
        if (outside > best) best = outside, chosen[3] = i;
    }
    for (int k = 0; k < 4; ++k)
        out[k] = in[chosen[k]];
    return 4;
}

inline Manifold fromPoints(const glm::vec3& normal, const ContactPoint* points, int n) {
    Manifold m{normal, 0, {}, 0.0f};
    if (n > 4) {
        m.count = reduceToFour(points, n, normal, m.points.data());
    } else {
        m.count = n;
        for (int i = 0; i < n; ++i) // a loop, not std::copy: GCC 12 then sees no negative n
            m.points[i] = points[i];
    }
    for (int i = 0; i < m.count; ++i)
        m.depth = std::max(m.depth, m.points[i].depth);
    return m;
}

inline float sign(float x) {
    return x < 0.0f ? -1.0f : 1.0f;
}

/// Sutherland-Hodgman: keeps the part of `in` with dot(p, n) <= offset.
inline int clipPolygon(const glm::vec3* in, int n, const glm::vec3& planeNormal, float offset,
                       glm::vec3* out) {
    int count = 0;
    for (int i = 0; i < n; ++i) {
        const glm::vec3& p = in[i];
        const glm::vec3& q = in[(i + 1) % n];
        const float dp = glm::dot(p, planeNormal) - offset;
        const float dq = glm::dot(q, planeNormal) - offset;
        if (dp <= 0.0f) out[count++] = p;
        if ((dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f))
            out[count++] = p + (dp / (dp - dq)) * (q - p);
    }
    return count;
}

} // namespace kz::detail
