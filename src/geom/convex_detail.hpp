// Internal to kz_geom: the double-precision support functions GJK, EPA and the ray cast run on.
// Every shape splits into a core and a margin (a radius around it), as in Jolt and Bullet: a
// sphere is its centre plus its radius, a capsule its segment plus its radius, the others are
// their own core with margin 0. GJK runs on the cores (points, segments, polytopes: it converges
// in a few exact steps) and adds the margins at the end, so round shapes are exact rather than
// approached by ever finer polytopes.
#pragma once

#include "convex.hpp"

#include <cstdint>
#include <glm/glm.hpp>

namespace kz::detail {

/// The farthest point of the shape's core along d (d need not be unit; zero picks some point).
glm::dvec3 supportCore(const ConvexShape& shape, const glm::dvec3& d);
/// A climb's start meaning "no earlier vertex": start from the hull's octantVertex.
inline constexpr std::uint32_t kColdClimb = 0xffffffffu;
/// supportCore for a search whose directions change little from call to call (GJK's, EPA's, the
/// ray cast's): a hull's climb starts at vertex `start` (kColdClimb at first, then the vertex
/// found last time for the same shape in the same query) and sets it to the vertex found, a warm
/// start as in Bullet and Jolt that turns the O(sqrt n) climb into a few steps. Other shapes
/// ignore it.
glm::dvec3 supportCore(const ConvexShape& shape, const glm::dvec3& d, std::uint32_t& start);
/// The radius around the core: a sphere's or capsule's radius, else 0.
double margin(const ConvexShape& shape);
/// The farthest point of the whole shape along d: the core's plus margin * d / |d|.
glm::dvec3 supportFull(const ConvexShape& shape, const glm::dvec3& d);
/// A point of the core (its centre, or a hull's vertex 0): where searches start.
glm::dvec3 corePoint(const ConvexShape& shape);
/// The shape's size: an upper bound on its distance from corePoint to any of its points, used
/// to scale tolerances (a tolerance relative to the size is the same for a shape anywhere).
double shapeSize(const ConvexShape& shape);

/// The unit vector along d, or zero for a zero (or non-finite length) d.
inline glm::dvec3 unitOrZero(const glm::dvec3& d) {
    const double length = glm::length(d);
    return length > 0.0 && length < INFINITY ? d / length : glm::dvec3(0.0);
}

} // namespace kz::detail
