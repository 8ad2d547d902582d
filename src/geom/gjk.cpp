// GJK distance, overlap test and ray cast (gjk.hpp); the iteration is gjk_steps.hpp's.
#include "gjk.hpp"

#include "detail.hpp"
#include "gjk_steps.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

using glm::dvec3;
using namespace detail;

GjkResult invalidResult() {
    const glm::vec3 zero(0.0f);
    return {false, INFINITY, zero, zero, zero, INFINITY, 0, GjkStatus::InvalidInput};
}

/// The answer for the whole shapes from GJK's answer on their cores: apart by more than the radii,
/// the cores' closest points moved out by the radii along the normal; else a point both contain.
GjkResult fromCores(const GjkCore& g, double radiusA, double radiusB) {
    GjkResult out{};
    out.iterations = g.iterations;
    out.status = g.status;
    out.normal = glm::vec3(0.0f);
    const double coreDistance = g.status == GjkStatus::Overlapping ? 0.0 : g.upper;
    const double radii = radiusA + radiusB;
    const dvec3 n = coreDistance > 0.0 ? g.v / coreDistance : dvec3(0.0); // from B's core toward A's
    out.lowerBound = float(std::max(0.0, g.lower - radii));
    if (coreDistance - radii > g.touching) {
        out.overlap = false;
        out.distance = float(coreDistance - radii);
        out.pointA = glm::vec3(g.pointA - radiusA * n);
        out.pointB = glm::vec3(g.pointB + radiusB * n);
        out.normal = glm::vec3(n);
        return out;
    }
    // Overlapping (or touching within the tolerance): pointB + s n is in B for s in [0, radiusB]
    // and in A for s >= coreDistance - radiusA; the middle of that range is in both.
    out.overlap = true;
    out.distance = 0.0f;
    out.lowerBound = 0.0f;
    dvec3 common = 0.5 * (g.pointA + g.pointB);
    if (coreDistance > 0.0) {
        const double lo = std::max(0.0, coreDistance - radiusA);
        const double hi = std::max(lo, std::min(radiusB, coreDistance));
        common = g.pointB + 0.5 * (lo + hi) * n;
        out.normal = glm::vec3(n);
    }
    out.pointA = out.pointB = glm::vec3(common);
    return out;
}

} // namespace

GjkResult closestPtConvexConvex(const ConvexShape& a, const ConvexShape& b, int maxIterations) {
    if (!isValid(a) || !isValid(b)) return invalidResult();
    GjkNoTrace none;
    const GjkCore g = gjkSteps(a, b, GjkMode::Distance, maxIterations, none);
    return fromCores(g, margin(a), margin(b));
}

bool testConvexConvex(const ConvexShape& a, const ConvexShape& b) {
    if (!isValid(a) || !isValid(b)) return false;
    GjkNoTrace none;
    const GjkCore g = gjkSteps(a, b, GjkMode::Overlap, kGjkMaxIterations, none);
    switch (g.status) {
    case GjkStatus::SeparatingAxis:
        return false;
    case GjkStatus::WithinRadii:
    case GjkStatus::Overlapping:
        return true;
    default:
        return g.upper - (margin(a) + margin(b)) <= g.touching;
    }
}

namespace {

/// The ray cast's running state: x = origin + t dir and GJK's simplex of core points.
struct RayState {
    dvec3 origin{0.0}, dir{0.0}, x{0.0};
    double t = 0.0;
    dvec3 points[4]{}; ///< Points of the shape's core; the simplex is x - points.
    int count = 0;
    dvec3 v{0.0};           ///< x minus the simplex's nearest point (x's nearest on the core so far).
    dvec3 planeNormal{0.0}; ///< The last support plane that moved x (its normal, not unit).
};

/// Adds p to the simplex (unless it is already there: then false) and replaces the simplex by its
/// sub-simplex nearest x, setting v.
bool addPoint(RayState& s, const dvec3& p) {
    const bool repeated = std::find(s.points, s.points + s.count, p) != s.points + s.count;
    if (!repeated) s.points[s.count++] = p;
    dvec3 y[4];
    for (int i = 0; i < s.count; ++i)
        y[i] = s.x - s.points[i];
    const SimplexWeights lambda = signedVolumes(y, s.count);
    int kept = 0;
    dvec3 v(0.0);
    for (int i = 0; i < s.count; ++i) {
        if (!(lambda[std::size_t(i)] > 0.0)) continue;
        v += lambda[std::size_t(i)] * y[i];
        s.points[kept++] = s.points[i];
    }
    s.count = kept;
    s.v = v;
    return !repeated;
}

/// The hit at s.t: on the shape's surface, with the outward normal (see raycastConvex).
std::optional<RayHit> hitAt(const RayState& s, const Ray& ray, double radius) {
    if (s.t == 0.0) return detail::insideHit(ray);
    const dvec3 toward = radius > 0.0 && glm::dot(s.v, s.v) > 0.0 ? s.v : s.planeNormal;
    const glm::vec3 normal(unitOrZero(toward));
    return detail::finiteOrNone({float(s.t), ray.origin + float(s.t) * ray.dir, normal});
}

} // namespace

ConvexRayCast raycastConvex(const Ray& ray, const ConvexShape& shape, float tMax) {
    if (!isValid(ray) || !isValid(shape) || !detail::validTMax(tMax)) {
        return {std::nullopt, 0, RayCastStatus::InvalidInput};
    }
    const double radius = margin(shape);
    RayState s;
    s.origin = s.x = dvec3(ray.origin);
    s.dir = dvec3(ray.dir);
    s.v = s.x - corePoint(shape);
    // The tolerance on x's distance to the surface: kGjkTolerance of the shape's size, or of the
    // origin's distance from it when that is larger (a point-like shape far away). Small, as a
    // grazing ray's t errs by this over the sine of its angle with the surface.
    const double tolerance = kGjkTolerance * std::max(shapeSize(shape), glm::length(s.v));
    if (glm::dot(s.v, s.v) == 0.0) s.v = -s.dir; // the origin is the core's point: any direction
    int iterations = 0;
    double previousSq = INFINITY;
    while (iterations < kGjkMaxIterations) {
        ++iterations;
        const dvec3 p = supportCore(shape, s.v);
        const double vLength = glm::length(s.v);
        // x's height above the support plane of the core grown by the radius, times |v|.
        const double gap = glm::dot(s.v, s.x - p) - radius * vLength;
        const bool moves = gap > tolerance * vLength;
        if (moves) {
            const double approach = glm::dot(s.v, s.dir);
            if (approach >= 0.0) return {std::nullopt, iterations, RayCastStatus::Miss};
            s.t -= gap / approach;
            if (!(s.t <= double(tMax))) return {std::nullopt, iterations, RayCastStatus::Miss};
            s.x = s.origin + s.t * s.dir;
            s.planeNormal = s.v;
            previousSq = INFINITY; // x moved: the simplex's distances start again
        }
        const bool added = addPoint(s, p);
        const double vSq = glm::dot(s.v, s.v);
        // Inside the core, within the radius plus tolerance of it, or no nearer point to be found
        // (a repeated support point, or rounding): x is on the surface.
        const bool done = s.count == 4 || std::sqrt(vSq) <= radius + tolerance ||
                          (!moves && (!added || !(vSq < previousSq)));
        if (done) {
            const auto hit = hitAt(s, ray, radius);
            return {hit, iterations, s.t == 0.0 ? RayCastStatus::StartsInside : RayCastStatus::Hit};
        }
        previousSq = vSq;
    }
    return {hitAt(s, ray, radius), iterations, RayCastStatus::IterationCap};
}

std::optional<RayHit> raycast(const Ray& ray, const ConvexShape& shape, float tMax) {
    return raycastConvex(ray, shape, tMax).hit;
}

} // namespace kz
