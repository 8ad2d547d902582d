// Convex shapes and their support functions (convex.hpp); the double-precision cores GJK and EPA
// run on (convex_detail.hpp).
#include "convex.hpp"

#include "convex_detail.hpp"
#include "convex_hull_detail.hpp"
#include "simd_path.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#if KZ_SIMD_X86
#include <immintrin.h>
#endif
#define KZ_HULL_SCAN_SSE2 1
#else
#define KZ_HULL_SCAN_SSE2 0
#endif

namespace kz {
namespace {

using glm::dvec3;

/// The index of the vertex farthest along the local direction, by a linear scan in double (the
/// first of equal ones).
std::uint32_t scanHullExact(const ConvexHull& hull, const dvec3& local) {
    std::uint32_t best = 0;
    double bestDot = -INFINITY;
    for (std::uint32_t i = 0; i < hull.vertices.size(); ++i) {
        const double along = glm::dot(local, dvec3(hull.vertices[i]));
        if (along > bestDot) {
            bestDot = along;
            best = i;
        }
    }
    return best;
}

#if KZ_HULL_SCAN_SSE2
static_assert(kHullLaneScanMax <= 64, "the scan's candidates are one 64-bit mask");

/// The dot products of one vertexLanes block's four vertices with l (x, y, z broadcast).
inline __m128 dotsOfBlock(const float* lanes, __m128 lx, __m128 ly, __m128 lz) {
    const __m128 x = _mm_loadu_ps(lanes), y = _mm_loadu_ps(lanes + 4), z = _mm_loadu_ps(lanes + 8);
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, lx), _mm_mul_ps(y, ly)), _mm_mul_ps(z, lz));
}

/// The largest of the four lanes of `top`, broadcast, minus slack3: below it, not a candidate.
inline __m128 thresholdBelow(__m128 top, float slack3) {
    top = _mm_max_ps(top, _mm_shuffle_ps(top, top, _MM_SHUFFLE(2, 3, 0, 1)));
    top = _mm_max_ps(top, _mm_shuffle_ps(top, top, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_sub_ps(top, _mm_set1_ps(slack3));
}

/// The hull's vertices (n <= kHullLaneScanMax, vertexLanes four at a time) whose float dot product
/// with l is within `slack3` of the largest, as bits: four at a time (SSE2).
std::uint64_t nearTopSse2(const float* lanes, std::size_t n, const glm::vec3& l, float slack3) {
    const std::size_t blocks = (n + 3) / 4;
    const __m128 lx = _mm_set1_ps(l.x), ly = _mm_set1_ps(l.y), lz = _mm_set1_ps(l.z);
    alignas(16) float along[kHullLaneScanMax];
    __m128 top = _mm_set1_ps(-INFINITY);
    for (std::size_t k = 0; k < blocks; ++k, lanes += 12) {
        const __m128 dots = dotsOfBlock(lanes, lx, ly, lz);
        _mm_store_ps(along + 4 * k, dots);
        top = _mm_max_ps(top, dots);
    }
    const __m128 threshold = thresholdBelow(top, slack3);
    std::uint64_t near = 0;
    for (std::size_t k = 0; k < blocks; ++k) {
        const __m128 dots = _mm_load_ps(along + 4 * k);
        near |= std::uint64_t(_mm_movemask_ps(_mm_cmpge_ps(dots, threshold))) << (4 * k);
    }
    return n < 64 ? near & ((std::uint64_t(1) << n) - 1) : near; // the padding's lanes cleared
}

#if KZ_SIMD_X86
/// The dot products of the vertices of vertexLanes blocks k and k + 1 with l (x, y, z broadcast).
[[gnu::target("avx2")]] inline __m256 dotsOfTwoBlocks(const float* lanes, __m256 lx, __m256 ly, __m256 lz) {
    const __m256 x = _mm256_loadu2_m128(lanes + 12, lanes);
    const __m256 y = _mm256_loadu2_m128(lanes + 16, lanes + 4);
    const __m256 z = _mm256_loadu2_m128(lanes + 20, lanes + 8);
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, lx), _mm256_mul_ps(y, ly)), _mm256_mul_ps(z, lz));
}

/// nearTopAvx2 for up to 32 vertices: the dot products stay in registers between the maximum and
/// the comparisons (the loops have constant trip counts, unrolled).
[[gnu::target("avx2")]] std::uint64_t nearTopAvx2Small(const float* lanes, std::size_t n, __m256 lx,
                                                       __m256 ly, __m256 lz, float slack3) {
    const std::size_t blocks = (n + 3) / 4, pairs = blocks / 2;
    __m256 dots[4];
    __m256 top8 = _mm256_set1_ps(-INFINITY);
#pragma GCC unroll 4
    for (std::size_t k = 0; k < 4; ++k) {
        dots[k] = k < pairs ? dotsOfTwoBlocks(lanes + 24 * k, lx, ly, lz) : top8;
        top8 = _mm256_max_ps(top8, dots[k]);
    }
    __m128 top = _mm_max_ps(_mm256_castps256_ps128(top8), _mm256_extractf128_ps(top8, 1));
    __m128 tail = _mm_set1_ps(-INFINITY);
    if (blocks % 2 != 0) { // an odd block last
        tail = dotsOfBlock(lanes + 24 * pairs, _mm256_castps256_ps128(lx), _mm256_castps256_ps128(ly),
                           _mm256_castps256_ps128(lz));
        top = _mm_max_ps(top, tail);
    }
    const __m128 threshold = thresholdBelow(top, slack3);
    const __m256 threshold8 = _mm256_set_m128(threshold, threshold);
    std::uint64_t near = 0;
#pragma GCC unroll 4
    for (std::size_t k = 0; k < 4; ++k)
        if (k < pairs)
            near |= std::uint64_t(_mm256_movemask_ps(_mm256_cmp_ps(dots[k], threshold8, _CMP_GE_OQ)))
                    << (8 * k);
    near |= std::uint64_t(_mm_movemask_ps(_mm_cmpge_ps(tail, threshold))) << (8 * pairs);
    return near & ((std::uint64_t(1) << n) - 1); // the padding's lanes cleared (n <= 32)
}

/// nearTopSse2's bits, eight at a time (AVX2: two blocks of vertexLanes per operation, the same
/// float operations on each lane, so the same dot products, maximum and bits).
[[gnu::target("avx2")]] std::uint64_t nearTopAvx2(const float* lanes, std::size_t n, const glm::vec3& l,
                                                  float slack3) {
    const std::size_t blocks = (n + 3) / 4;
    const __m256 lx = _mm256_set1_ps(l.x), ly = _mm256_set1_ps(l.y), lz = _mm256_set1_ps(l.z);
    if (blocks <= 8) return nearTopAvx2Small(lanes, n, lx, ly, lz, slack3);
    alignas(32) float along[kHullLaneScanMax];
    __m256 top8 = _mm256_set1_ps(-INFINITY);
    std::size_t k = 0;
    for (; k + 2 <= blocks; k += 2, lanes += 24) {
        const __m256 dots = dotsOfTwoBlocks(lanes, lx, ly, lz);
        _mm256_store_ps(along + 4 * k, dots);
        top8 = _mm256_max_ps(top8, dots);
    }
    __m128 top = _mm_max_ps(_mm256_castps256_ps128(top8), _mm256_extractf128_ps(top8, 1));
    if (k < blocks) { // an odd block last
        const __m128 dots = dotsOfBlock(lanes, _mm256_castps256_ps128(lx), _mm256_castps256_ps128(ly),
                                        _mm256_castps256_ps128(lz));
        _mm_store_ps(along + 4 * k, dots);
        top = _mm_max_ps(top, dots);
    }
    const __m128 threshold = thresholdBelow(top, slack3);
    const __m256 threshold8 = _mm256_set_m128(threshold, threshold);
    std::uint64_t near = 0;
    std::size_t j = 0;
    for (; 8 * j + 8 <= 4 * blocks; ++j) {
        const __m256 dots = _mm256_load_ps(along + 8 * j);
        near |= std::uint64_t(_mm256_movemask_ps(_mm256_cmp_ps(dots, threshold8, _CMP_GE_OQ))) << (8 * j);
    }
    if (8 * j < 4 * blocks)
        near |= std::uint64_t(_mm_movemask_ps(_mm_cmpge_ps(_mm_load_ps(along + 8 * j), threshold)))
                << (8 * j);
    return n < 64 ? near & ((std::uint64_t(1) << n) - 1) : near;
}
#endif

/// scanHullExact's vertex, from the hull's vertexLanes in float (`wide`: eight at a time, when the
/// CPU has AVX2 and the SIMD path allows it, simd_path.hpp): each float dot product is within
/// `slack` of the exact one (scaled), so a vertex whose float dot is more than 3 slack below the
/// float maximum cannot be farthest. One such vertex is the answer; several (a near tie) are
/// compared in double, in index order, as the exact scan does. The same vertex, without a branch
/// per vertex. For hulls hullSearch sends here: vertexLanes filled, `reach` (a bound on every
/// vertex's length) in range.
std::uint32_t scanHull(const ConvexHull& hull, const dvec3& local, double reach, bool wide) {
    const std::size_t n = hull.vertices.size();
    const double largest = std::max(std::abs(local.x), std::max(std::abs(local.y), std::abs(local.z)));
    if (!(largest > 0.0 && largest < INFINITY)) return scanHullExact(hull, local);
    // Rescaled (by a power of two, exactly) only when far from 1: float's products must neither
    // overflow nor lose more than their relative rounding to underflow. Float's products and sums
    // then err by at most 4 units of 2^-24 of sum |l_i| |v_i| <= |l|_1 reach (the direction's
    // rounding to float included); the slack is twice that.
    const double scale =
        largest > 0x1p-60 && largest * reach < 0x1p100 ? 1.0 : std::exp2(-std::ilogb(largest));
    const glm::vec3 l(local * scale);
    const double slack =
        8.0 * 0x1p-24 * (double(std::abs(l.x)) + double(std::abs(l.y)) + double(std::abs(l.z))) * reach;
#if KZ_SIMD_X86
    std::uint64_t near = wide ? nearTopAvx2(hull.vertexLanes.data(), n, l, float(3.0 * slack))
                              : nearTopSse2(hull.vertexLanes.data(), n, l, float(3.0 * slack));
#else
    (void)wide;
    std::uint64_t near = nearTopSse2(hull.vertexLanes.data(), n, l, float(3.0 * slack));
#endif
    if (near != 0 && (near & (near - 1)) == 0) return std::uint32_t(__builtin_ctzll(near));
    std::uint32_t best = 0;
    double bestDot = -INFINITY;
    for (; near != 0; near &= near - 1) {
        const auto i = std::uint32_t(__builtin_ctzll(near));
        const double exact = glm::dot(local, dvec3(hull.vertices[i]));
        if (exact > bestDot) {
            bestDot = exact;
            best = i;
        }
    }
    return best;
}
#else
std::uint32_t scanHull(const ConvexHull& hull, const dvec3& local, double, bool) {
    return scanHullExact(hull, local);
}
#endif

/// Whether the half-edges look usable for a climb: sized for the vertices, indices in range.
/// (Checked per call: cheap next to the climb, and a hull with broken links still gets answers.)
bool climbable(const ConvexHull& hull) {
    return hull.vertices.size() > kHullClimbMinVertices && hull.vertexEdge.size() == hull.vertices.size() &&
           hull.edges.size() >= 2 * (hull.vertices.size() - 1);
}

/// climbHull over the built hull's neighbour arrays: the same neighbours in the same order as the
/// half-edge walk (so the same vertex), each address known without a chain of loads. Any index
/// out of range abandons the climb for the scan.
std::uint32_t climbNeighbours(const ConvexHull& hull, const dvec3& local, std::uint32_t current) {
    const std::size_t vertexCount = hull.vertices.size();
    double currentDot = glm::dot(local, dvec3(hull.vertices[current]));
    for (std::size_t step = 0; step < vertexCount; ++step) {
        const std::uint32_t begin = hull.neighbourStart[current], end = hull.neighbourStart[current + 1];
        if (!(begin <= end && end <= hull.neighbours.size())) return scanHullExact(hull, local);
        std::uint32_t best = current;
        double bestDot = currentDot;
        for (std::uint32_t k = begin; k < end; ++k) {
            const std::uint32_t next = hull.neighbours[k];
            if (next >= vertexCount) return scanHullExact(hull, local);
            const double along = glm::dot(local, dvec3(hull.vertices[next]));
            best = along > bestDot ? next : best; // without a branch: the winner is random
            bestDot = std::max(along, bestDot);
        }
        if (best == current) return current;
        current = best;
        currentDot = bestDot;
    }
    return current;
}

/// Hill climb over the hull's edges (Gilbert and Ong's "hill climbing", as in SOLID and
/// Bullet's btConvexHullShape with adjacency) from the vertex `start`: move to the best
/// neighbour (the first of equal ones) while it is strictly better. Steepest ascent takes fewer
/// steps than moving to the first better one, and its loop over the neighbours has no branch on
/// their dots. Every loop is bounded by the edge count, so broken links cannot loop forever; any
/// index out of range abandons the climb for the scan.
std::uint32_t climbHull(const ConvexHull& hull, const dvec3& local, std::uint32_t start) {
    const std::size_t edgeCount = hull.edges.size();
    std::uint32_t current = start;
    if (current >= hull.vertices.size()) {
        // A cold start: the vertex farthest along the diagonal of local's octant.
        const std::size_t octant =
            std::size_t(local.x > 0.0) | std::size_t(local.y > 0.0) << 1 | std::size_t(local.z > 0.0) << 2;
        current = hull.octantVertex[octant] < hull.vertices.size() ? hull.octantVertex[octant] : 0;
    }
    if (hull.neighbourStart.size() == hull.vertices.size() + 1) return climbNeighbours(hull, local, current);
    double currentDot = glm::dot(local, dvec3(hull.vertices[current]));
    for (std::size_t step = 0; step < hull.vertices.size(); ++step) {
        std::uint32_t best = current;
        double bestDot = currentDot;
        const std::uint32_t first = hull.vertexEdge[current];
        std::uint32_t e = first;
        for (std::size_t k = 0; k < edgeCount; ++k) {
            if (e >= edgeCount || hull.edges[e].twin >= edgeCount) return scanHullExact(hull, local);
            const ConvexHull::HalfEdge& twin = hull.edges[hull.edges[e].twin];
            if (twin.origin >= hull.vertices.size()) return scanHullExact(hull, local);
            const double along = glm::dot(local, dvec3(hull.vertices[twin.origin]));
            if (along > bestDot) {
                bestDot = along;
                best = twin.origin;
            }
            e = twin.next; // the next half-edge leaving `current`
            if (e == first) break;
        }
        if (best == current) return current;
        current = best;
        currentDot = bestDot;
    }
    return current;
}

/// shapeSize of a hull in the given orientation: the largest vertex distance from vertex 0 bounds
/// every point's distance from it; in the local frame, times the orientation's Frobenius norm
/// (>= its largest stretch). A built hull holds it (reachSq); one made by hand costs a pass over
/// its vertices.
double hullSize(const ConvexHull& hull, const glm::dmat3& orientation) {
    const double largestSq = hull.reachSq > 0.0 ? hull.reachSq : hull_detail::reachSq(hull.vertices);
    const double stretchSq = glm::dot(orientation[0], orientation[0]) +
                             glm::dot(orientation[1], orientation[1]) +
                             glm::dot(orientation[2], orientation[2]);
    return std::sqrt(largestSq * stretchSq);
}

glm::vec3 rounded(const dvec3& p) {
    return glm::vec3(p);
}

} // namespace

Capsule capsuleFromPose(const glm::vec3& center, const glm::mat3& axes, float halfHeight, float radius) {
    const glm::vec3 offset = halfHeight * axes[1];
    return {center - offset, center + offset, radius};
}

Cylinder cylinderFromPose(const glm::vec3& center, const glm::mat3& axes, float halfHeight, float radius) {
    const glm::vec3 offset = halfHeight * axes[1];
    return {center - offset, center + offset, radius};
}

bool isValid(const Capsule& capsule) {
    return isFinite(capsule.a) && isFinite(capsule.b) && std::isfinite(capsule.radius) &&
           capsule.radius >= 0.0f;
}

bool isValid(const Cylinder& cylinder) {
    if (!isFinite(cylinder.a) || !isFinite(cylinder.b)) return false;
    if (!std::isfinite(cylinder.radius) || cylinder.radius < 0.0f) return false;
    const glm::dvec3 axis = glm::dvec3(cylinder.b) - glm::dvec3(cylinder.a);
    const double lengthSq = glm::dot(axis, axis);
    return lengthSq >= double(FLT_MIN) && lengthSq <= double(FLT_MAX);
}

bool isValid(const PosedHull& posed) {
    if (posed.hull == nullptr || posed.hull->vertices.empty()) return false;
    if (!isFinite(posed.position) || !isFinite(posed.orientation)) return false;
    if (posed.hull->reachSq > 0.0) return true; // built: buildConvexHull refused non-finite points
    return std::all_of(posed.hull->vertices.begin(), posed.hull->vertices.end(),
                       [](const glm::vec3& v) { return isFinite(v); });
}

bool isValid(const ConvexShape& shape) {
    return std::visit([](const auto& s) { return isValid(s); }, shape);
}

glm::vec3 support(const Sphere& sphere, const glm::vec3& d) {
    return rounded(detail::supportFull(sphere, dvec3(d)));
}
glm::vec3 support(const Obb& box, const glm::vec3& d) {
    return rounded(detail::supportCore(box, dvec3(d)));
}
glm::vec3 support(const Capsule& capsule, const glm::vec3& d) {
    return rounded(detail::supportFull(capsule, dvec3(d)));
}
glm::vec3 support(const Cylinder& cylinder, const glm::vec3& d) {
    return rounded(detail::supportCore(cylinder, dvec3(d)));
}
glm::vec3 support(const PosedHull& hull, const glm::vec3& d) {
    return rounded(detail::supportCore(hull, dvec3(d)));
}
glm::vec3 support(const ConvexShape& shape, const glm::vec3& d) {
    return rounded(detail::supportFull(shape, dvec3(d)));
}

SupportPoint supportDifference(const ConvexShape& a, const ConvexShape& b, const glm::vec3& d) {
    const dvec3 pa = detail::supportFull(a, dvec3(d));
    const dvec3 pb = detail::supportFull(b, -dvec3(d));
    return {rounded(pa), rounded(pb), rounded(pa - pb)};
}

namespace detail {

HullSearch hullSearch(const ConvexHull& hull, double reach) {
    if (climbable(hull)) return HullSearch::Climb;
    const std::size_t n = hull.vertices.size();
    if (!KZ_HULL_SCAN_SSE2 || n > kHullLaneScanMax || hull.vertexLanes.size() != 12 * ((n + 3) / 4) ||
        !(reach > 0.0 && reach < 1e30))
        return HullSearch::Exact;
    return activeSimdPath() != SimdPath::Sse2 ? HullSearch::LanesWide : HullSearch::Lanes;
}

std::uint32_t hullVertexIndex(const ConvexHull& hull, const glm::dvec3& local, std::uint32_t start,
                              double reach, HullSearch search) {
    switch (search) {
    case HullSearch::Climb:
        return climbHull(hull, local, start);
    case HullSearch::Lanes:
    case HullSearch::LanesWide:
        return scanHull(hull, local, reach, search == HullSearch::LanesWide);
    case HullSearch::Exact:
        break;
    }
    return scanHullExact(hull, local);
}

double hullReach(const ConvexHull& hull) {
    if (!(hull.reachSq > 0.0)) return 0.0;
    return glm::length(dvec3(hull.vertices[0])) + std::sqrt(hull.reachSq);
}

CoreShape coreOf(const ConvexShape& shape) {
    CoreShape s; // each kind sets its own fields
    switch (shape.index()) {
    case 0:
        s.kind = CoreShape::Kind::Point;
        s.origin = dvec3(std::get<Sphere>(shape).center);
        break;
    case 1: {
        const Obb& box = std::get<Obb>(shape);
        s.kind = CoreShape::Kind::Box;
        s.origin = dvec3(box.center);
        for (int i = 0; i < 3; ++i) {
            s.axis[i] = dvec3(box.axes[i]);
            s.half[i] = double(box.half[i]) * s.axis[i];
        }
        break;
    }
    case 2: {
        const Capsule& capsule = std::get<Capsule>(shape);
        s.kind = CoreShape::Kind::Segment;
        s.origin = dvec3(capsule.a);
        s.end = dvec3(capsule.b);
        s.axis[0] = s.end - s.origin;
        break;
    }
    case 3: {
        const Cylinder& cylinder = std::get<Cylinder>(shape);
        s.kind = CoreShape::Kind::Cylinder;
        s.origin = dvec3(cylinder.a);
        s.end = dvec3(cylinder.b);
        s.axis[0] = s.end - s.origin;
        s.axisSq = glm::dot(s.axis[0], s.axis[0]);
        s.radius = double(cylinder.radius);
        break;
    }
    default: {
        const PosedHull& posed = std::get<PosedHull>(shape);
        s.kind = CoreShape::Kind::Hull;
        s.hull = posed.hull;
        s.origin = dvec3(posed.position);
        s.rotation = glm::dmat3(posed.orientation);
        s.rotationT = glm::transpose(s.rotation);
        s.reach = hullReach(*posed.hull);
        s.search = hullSearch(*posed.hull, s.reach);
        break;
    }
    }
    return s;
}

CoreShape prepareCore(const ConvexShape& shape) {
    CoreShape s = coreOf(shape);
    // margin, shapeSize and corePoint from the fields just read (the same expressions).
    s.margin = 0.0;
    switch (s.kind) {
    case CoreShape::Kind::Point:
        s.margin = std::get<Sphere>(shape).radius;
        s.size = s.margin;
        s.centre = s.origin;
        break;
    case CoreShape::Kind::Box: {
        const Obb& box = std::get<Obb>(shape);
        s.size = glm::length(s.axis[0]) * box.half.x + glm::length(s.axis[1]) * box.half.y +
                 glm::length(s.axis[2]) * box.half.z;
        s.centre = s.origin;
        break;
    }
    case CoreShape::Kind::Segment:
    case CoreShape::Kind::Cylinder: {
        const double radius = s.kind == CoreShape::Kind::Segment ? std::get<Capsule>(shape).radius
                                                                 : std::get<Cylinder>(shape).radius;
        if (s.kind == CoreShape::Kind::Segment) s.margin = radius;
        s.size = 0.5 * glm::length(s.axis[0]) + radius;
        s.centre = 0.5 * (s.origin + s.end);
        break;
    }
    case CoreShape::Kind::Hull:
        s.size = hullSize(*s.hull, s.rotation);
        // The centroid (inside a built hull: a first direction toward the other shape's centre
        // that is nearly the final one); any finite point would do for a hull made by hand.
        s.centre = s.origin +
                   s.rotation * dvec3(isFinite(s.hull->centroid) ? s.hull->centroid : s.hull->vertices[0]);
        break;
    }
    return s;
}

glm::dvec3 supportCore(const ConvexShape& shape, const glm::dvec3& d) {
    std::uint32_t start = kColdClimb;
    return supportCore(coreOf(shape), d, start);
}

double margin(const ConvexShape& shape) {
    if (const auto* sphere = std::get_if<Sphere>(&shape)) return sphere->radius;
    if (const auto* capsule = std::get_if<Capsule>(&shape)) return capsule->radius;
    return 0.0;
}

glm::dvec3 supportFull(const ConvexShape& shape, const glm::dvec3& d) {
    const double r = margin(shape);
    const dvec3 core = supportCore(shape, d);
    return r > 0.0 ? core + r * unitOrZero(d) : core;
}

glm::dvec3 corePoint(const ConvexShape& shape) {
    switch (shape.index()) {
    case 0:
        return dvec3(std::get<Sphere>(shape).center);
    case 1:
        return dvec3(std::get<Obb>(shape).center);
    case 2: {
        const Capsule& capsule = std::get<Capsule>(shape);
        return 0.5 * (dvec3(capsule.a) + dvec3(capsule.b));
    }
    case 3: {
        const Cylinder& cylinder = std::get<Cylinder>(shape);
        return 0.5 * (dvec3(cylinder.a) + dvec3(cylinder.b));
    }
    default: {
        const PosedHull& posed = std::get<PosedHull>(shape);
        return dvec3(posed.position) + glm::dmat3(posed.orientation) * dvec3(posed.hull->vertices[0]);
    }
    }
}

double shapeSize(const ConvexShape& shape) {
    switch (shape.index()) {
    case 0:
        return std::get<Sphere>(shape).radius;
    case 1: {
        const Obb& box = std::get<Obb>(shape);
        const glm::dmat3 axes(box.axes);
        return glm::length(axes[0]) * box.half.x + glm::length(axes[1]) * box.half.y +
               glm::length(axes[2]) * box.half.z;
    }
    case 2: {
        const Capsule& capsule = std::get<Capsule>(shape);
        return 0.5 * glm::length(dvec3(capsule.b) - dvec3(capsule.a)) + capsule.radius;
    }
    case 3: {
        const Cylinder& cylinder = std::get<Cylinder>(shape);
        return 0.5 * glm::length(dvec3(cylinder.b) - dvec3(cylinder.a)) + cylinder.radius;
    }
    default: {
        const PosedHull& posed = std::get<PosedHull>(shape);
        return hullSize(*posed.hull, glm::dmat3(posed.orientation));
    }
    }
}

} // namespace detail
} // namespace kz
