// GJK distance, overlap test and ray cast (gjk.hpp); the iteration is gjk_steps.hpp's, the ray
// cast's gjk_raycast_steps.hpp's.
#include "gjk.hpp"

#include "detail.hpp"
#include "gjk_boolean_steps.hpp"
#include "gjk_raycast_steps.hpp"
#include "gjk_steps.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

using glm::dvec3;
using namespace detail;

} // namespace

GjkResult detail::invalidGjkResult() {
    const glm::vec3 zero(0.0f);
    return {false, INFINITY, zero, zero, zero, INFINITY, 0, GjkStatus::InvalidInput};
}

/// The answer for the whole shapes from GJK's answer on their cores: apart by more than the radii,
/// the cores' closest points moved out by the radii along the normal; else a point both contain.
GjkResult detail::gjkResultFromCores(const GjkCore& g, double radiusA, double radiusB) {
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

bool detail::gjkOverlapVerdict(const GjkCore& g, double radii) {
    switch (g.status) {
    case GjkStatus::SeparatingAxis:
        return false;
    case GjkStatus::WithinRadii:
    case GjkStatus::Overlapping:
        return true;
    default:
        return g.upper - radii <= g.touching;
    }
}

GjkResult closestPtConvexConvex(const ConvexShape& a, const ConvexShape& b, int maxIterations) {
    if (!isValid(a) || !isValid(b)) return invalidGjkResult();
    GjkNoTrace none;
    const GjkCore g = gjkSteps(a, b, GjkMode::Distance, maxIterations, none);
    return gjkResultFromCores(g, margin(a), margin(b));
}

bool testConvexConvex(const ConvexShape& a, const ConvexShape& b) {
    if (!isValid(a) || !isValid(b)) return false;
    GjkNoTrace none;
    const CoreShape coreA = prepareCore(a), coreB = prepareCore(b);
    const double radii = coreA.margin + coreB.margin;
    if (radii == 0.0) return gjkOverlapVerdict(gjkBooleanSteps(coreA, coreB, none), radii);
    return gjkOverlapVerdict(gjkSteps(coreA, coreB, GjkMode::Overlap, kGjkMaxIterations, none), radii);
}

ConvexRayCast raycastConvex(const Ray& ray, const ConvexShape& shape, float tMax) {
    RayCastNoTrace none;
    return raycastConvexSteps(ray, shape, tMax, none);
}

std::optional<RayHit> raycast(const Ray& ray, const ConvexShape& shape, float tMax) {
    return raycastConvex(ray, shape, tMax).hit;
}

} // namespace kz
