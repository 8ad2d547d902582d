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
/// How a hull's support finds its vertex, decided once per hull and query (see support(PosedHull)):
/// the climb over its edges, the float scan of its vertexLanes four or eight at a time (AVX2, on
/// the avx2 and avx512 SIMD paths), or the scan in double (a hull made by hand).
enum class HullSearch : std::uint8_t { Climb, Lanes, LanesWide, Exact };
/// The hull's HullSearch; `reach` is hullReach(hull).
HullSearch hullSearch(const ConvexHull& hull, double reach);
/// The index of the hull's vertex farthest along the local direction (the first of equal ones
/// on a scan) by `search` (hullSearch(hull, reach)): the climb starts from `start` (kColdClimb:
/// from the octantVertex). The scans, four or eight at a time or in double, give the same vertex.
std::uint32_t hullVertexIndex(const ConvexHull& hull, const glm::dvec3& local, std::uint32_t start,
                              double reach, HullSearch search);
/// A bound on every vertex's distance from the local origin (|vertex 0| + sqrt(reachSq)) for a
/// built hull, which lets the scan run in float and check only the near-best vertices in
/// double; 0 for a hull made by hand (the scan then runs in double alone).
double hullReach(const ConvexHull& hull);

/// A shape's core read once into double for the many support calls of one query (GJK, EPA, the
/// ray cast): no float-to-double conversion, no variant dispatch and no size or matrix work per
/// call. supportCore(shape, d) itself runs on coreOf(shape).
struct CoreShape {
    enum class Kind : std::uint8_t { Point, Box, Segment, Cylinder, Hull };
    // Only the fields of the shape's kind are set (no default values: preparing one is cheap).
    Kind kind;
    glm::dvec3 origin;      ///< Point: it; box: the centre; segment, cylinder: end a; hull: position.
    glm::dvec3 end;         ///< Segment, cylinder: end b.
    glm::dvec3 axis[3];     ///< Box: its axes; segment, cylinder: axis[0] = b - a.
    glm::dvec3 half[3];     ///< Box: half_i times axis_i.
    double radius;          ///< Cylinder: its radius.
    double axisSq;          ///< Cylinder: |b - a|^2.
    const ConvexHull* hull; ///< Hull: its vertices.
    glm::dmat3 rotation;    ///< Hull: the orientation.
    glm::dmat3 rotationT;   ///< Hull: its transpose (world direction to local).
    double reach;           ///< Hull: hullReach.
    HullSearch search;      ///< Hull: hullSearch.
    double margin;          ///< prepareCore only: margin(shape).
    double size;            ///< prepareCore only: shapeSize(shape).
    glm::dvec3 centre;      ///< prepareCore only: where searches start: corePoint(shape), but a
                            ///< hull's centroid (when finite) rather than its vertex 0.
};

/// The shape's CoreShape (a valid shape: isValid).
CoreShape prepareCore(const ConvexShape& shape);
/// prepareCore's support fields alone (margin, size and centre not set): for a single support.
CoreShape coreOf(const ConvexShape& shape);

/// supportCore(shape, d) on the prepared core, the same point, for a search whose directions
/// change little from call to call (GJK's, EPA's, the ray cast's): a hull's climb starts at
/// vertex `start` (kColdClimb at first, then the vertex found last time for the same shape in the
/// same query) and sets it to the vertex found, a warm start as in Bullet and Jolt that turns the
/// O(sqrt n) climb into a few steps. Other shapes ignore it.
[[gnu::always_inline]] inline glm::dvec3 supportCore(const CoreShape& s, const glm::dvec3& d,
                                                     std::uint32_t& start) {
    switch (s.kind) {
    case CoreShape::Kind::Point:
        return s.origin;
    case CoreShape::Kind::Box: {
        glm::dvec3 p = s.origin;
        for (int i = 0; i < 3; ++i) {
            // +1 or -1 without a branch: the signs are random from call to call (mispredicted).
            const double sign = 2.0 * double(glm::dot(d, s.axis[i]) >= 0.0) - 1.0;
            p += sign * s.half[i];
        }
        return p;
    }
    case CoreShape::Kind::Segment:
        return glm::dot(d, s.axis[0]) > 0.0 ? s.end : s.origin;
    case CoreShape::Kind::Cylinder: {
        // The part of d across the axis, times |axis|^2, as (axis x d) x axis: a cross product
        // with the axis is perpendicular to it to its own rounding, where d - (d.u)u, for d nearly
        // along the axis, keeps an axial error of eps |d| that puts the rim point off the cap.
        // Below 1e-12 of |d| |axis|^2 the direction is along the axis (the whole cap is farthest:
        // its centre will do).
        const glm::dvec3& axis = s.axis[0];
        const glm::dvec3 end = glm::dot(d, axis) > 0.0 ? s.end : s.origin;
        const glm::dvec3 across = glm::cross(glm::cross(axis, d), axis);
        const double acrossLength = glm::length(across);
        if (!(acrossLength > 1e-12 * glm::length(d) * s.axisSq)) return end;
        return end + (s.radius / acrossLength) * across;
    }
    case CoreShape::Kind::Hull:
        break;
    }
    start = hullVertexIndex(*s.hull, s.rotationT * d, start, s.reach, s.search);
    return s.origin + s.rotation * glm::dvec3(s.hull->vertices[start]);
}

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
