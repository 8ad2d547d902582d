// The traces of the single-shape ray queries (explain_ray.hpp). The sphere, box and plane traces
// repeat the arithmetic of ray_sphere.cpp, ray_box.cpp and ray_plane.cpp expression by expression,
// so that every t, point and normal is the same float; test_explain_ray.cpp checks that on random
// cases. The triangle trace runs WatertightRay's own step-recording instantiation.
#include "explain_ray.hpp"

#include "detail.hpp"
#include "plane.hpp"
#include "watertight_ray.hpp"

#include <algorithm>
#include <utility>

namespace kz {

namespace {

/// A trace that has computed nothing yet: InvalidInput until the input is checked.
template <class Trace>
Trace emptyTrace(float tMax, decltype(Trace::reason) invalidInput) {
    Trace trace{};
    trace.tMax = tMax;
    trace.reason = invalidInput;
    return trace;
}

/// `trace` with `reason`, for the early returns: `return stopped(trace, Reason::X);`.
template <class Trace, class Reason>
Trace stopped(Trace& trace, Reason reason) {
    trace.reason = reason;
    return trace;
}

/// `trace` with its result, the hit passed through the contract's last guard (no non-finite field).
template <class Trace, class Reason>
Trace finished(Trace& trace, const RayHit& hit, Reason hitReason, Reason nonFinite) {
    trace.result = detail::finiteOrNone(hit);
    trace.reason = trace.result ? hitReason : nonFinite;
    return trace;
}

/// `trace` for an origin inside or on a solid: the contract's hit at t = 0 (not guarded, as the fast
/// queries return it).
template <class Trace, class Reason>
Trace startedInside(Trace& trace, const Ray& ray, Reason reason) {
    trace.result = detail::insideHit(ray);
    trace.reason = reason;
    return trace;
}

} // namespace

// ------------------------------------------------------------------------------- ray-sphere

namespace {

/// Both roots of s^2 + 2 b s + c = 0 in the cancellation-free form: the root whose terms share a
/// sign is computed directly, the other as c divided by it (the roots multiply to c).
void sphereRoots(RaySphereTrace& trace) {
    trace.realRoots = trace.discriminant >= 0.0f;
    if (!trace.realRoots) return;
    const float root = std::sqrt(trace.discriminant);
    if (trace.b <= 0.0f) {
        trace.sFar = -trace.b + root;
        trace.sNear = trace.sFar != 0.0f ? trace.c / trace.sFar : -trace.b - root;
    } else {
        trace.sNear = -trace.b - root;
        trace.sFar = trace.sNear != 0.0f ? trace.c / trace.sNear : -trace.b + root;
    }
    const float invLength = 1.0f / trace.dirLength;
    trace.tNear = trace.sNear * invLength;
    trace.tFar = trace.sFar * invLength;
}

} // namespace

RaySphereTrace explainRaycast(const Ray& ray, const Sphere& sphere, float tMax) {
    // Solve |m + s u|^2 = r^2, m = o - c, u = dir / |dir|, as raycast(Ray, Sphere) does.
    RaySphereTrace trace = emptyTrace<RaySphereTrace>(tMax, RaySphereReason::InvalidInput);
    if (!isValid(ray) || !isValid(sphere) || !detail::validTMax(tMax)) return trace;

    trace.m = ray.origin - sphere.center;
    const float r2 = sphere.radius * sphere.radius;
    trace.c = glm::dot(trace.m, trace.m) - r2;
    trace.dirLength = glm::length(ray.dir);
    const float invLength = 1.0f / glm::length(ray.dir);
    trace.unitDir = ray.dir * invLength;
    trace.a = 1.0f;
    trace.b = glm::dot(trace.m, trace.unitDir);
    const glm::vec3 perpendicular = trace.m - trace.b * trace.unitDir;
    trace.discriminant = r2 - glm::dot(perpendicular, perpendicular);
    sphereRoots(trace);

    if (trace.c <= 0.0f) return startedInside(trace, ray, RaySphereReason::InsideStart);
    if (trace.b >= 0.0f) return stopped(trace, RaySphereReason::BehindOrigin);
    if (trace.discriminant < 0.0f) return stopped(trace, RaySphereReason::NegativeDiscriminant);
    // b < 0 here, so sNear is c / (-b + sqrt(q)), the fast path's expression.
    const float t = trace.sNear * invLength;
    if (t > tMax) return stopped(trace, RaySphereReason::BeyondTMax);
    const glm::vec3 point = ray.origin + t * ray.dir;
    const glm::vec3 outward = point - sphere.center;
    const float outwardLength = glm::length(outward);
    const glm::vec3 normal = outwardLength > 0.0f ? outward / outwardLength : -trace.unitDir;
    return finished(trace, {t, point, normal}, RaySphereReason::NearRoot, RaySphereReason::NonFiniteResult);
}

// ------------------------------------------------------------------------------- ray-box

namespace {

/// Fills the three slabs of the box [lo, hi] for the ray (origin, dir) in the box's frame, as
/// ray_box.cpp's slabs() computes them, without its early exits.
void fillSlabs(RayBoxTrace& trace, const glm::vec3& lo, const glm::vec3& hi) {
    for (int i = 0; i < 3; ++i) {
        SlabInterval& slab = trace.slabs[static_cast<std::size_t>(i)];
        slab.lo = lo[i];
        slab.hi = hi[i];
        slab.origin = trace.localOrigin[i];
        slab.dir = trace.localDir[i];
        if (slab.dir == 0.0f) {
            const bool outside = slab.origin < slab.lo || slab.origin > slab.hi;
            slab.kind = outside ? SlabKind::ParallelOutside : SlabKind::ParallelInside;
            slab.tEnter = outside ? INFINITY : -INFINITY;
            slab.tExit = outside ? -INFINITY : INFINITY;
            continue;
        }
        slab.kind = SlabKind::Crossing;
        slab.tEnter = (slab.lo - slab.origin) / slab.dir;
        slab.tExit = (slab.hi - slab.origin) / slab.dir;
        if (slab.tEnter > slab.tExit) std::swap(slab.tEnter, slab.tExit);
    }
}

/// The overall interval and its entering slab over all three slabs; then the fast path's running
/// interval, slab by slab, which names the slab that empties it (missSlab).
void intersectSlabs(RayBoxTrace& trace) {
    trace.tEnter = 0.0f;
    trace.tExit = trace.tMax;
    trace.enteringAxis = -1;
    trace.missSlab = -1;
    for (int i = 0; i < 3; ++i) {
        const SlabInterval& slab = trace.slabs[static_cast<std::size_t>(i)];
        if (slab.kind == SlabKind::ParallelOutside) {
            trace.tEnter = INFINITY;
            trace.tExit = -INFINITY;
            if (trace.missSlab < 0) trace.missSlab = i;
            continue;
        }
        if (slab.kind == SlabKind::ParallelInside) continue;
        if (slab.tEnter > trace.tEnter) {
            trace.tEnter = slab.tEnter;
            trace.enteringAxis = i;
        }
        trace.tExit = std::min(trace.tExit, slab.tExit);
        if (trace.tEnter > trace.tExit && trace.missSlab < 0) trace.missSlab = i;
    }
    if (trace.missSlab >= 0) trace.enteringAxis = -1;
    if (trace.enteringAxis >= 0)
        trace.enteringFace =
            trace.slabs[static_cast<std::size_t>(trace.enteringAxis)].dir > 0.0f ? -1.0f : 1.0f;
}

bool contains(const glm::vec3& p, const glm::vec3& lo, const glm::vec3& hi) {
    return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z;
}

/// The reason of a miss: beyond tMax when the slabs without tMax still share a t >= 0.
RayBoxReason missReason(const RayBoxTrace& trace) {
    float enter = 0.0f;
    float exit = INFINITY;
    for (const SlabInterval& slab : trace.slabs) {
        enter = std::max(enter, slab.tEnter);
        exit = std::min(exit, slab.tExit);
    }
    return enter <= exit ? RayBoxReason::BeyondTMax : RayBoxReason::MissedBySlab;
}

/// The slab test's outcome in the box frame (after the inside test): the reason, and for a hit the
/// entry t and the face's outward normal in the box frame.
bool slabHit(RayBoxTrace& trace, glm::vec3& localNormal) {
    if (trace.missSlab >= 0) {
        trace.reason = missReason(trace);
        return false;
    }
    localNormal = glm::vec3(0.0f);
    if (trace.enteringAxis >= 0) localNormal[trace.enteringAxis] = trace.enteringFace;
    return true;
}

} // namespace

RayBoxTrace explainRaycast(const Ray& ray, const Aabb& box, float tMax) {
    RayBoxTrace trace = emptyTrace<RayBoxTrace>(tMax, RayBoxReason::InvalidInput);
    trace.enteringAxis = trace.missSlab = -1;
    if (!isValid(ray) || !isValid(box) || !detail::validTMax(tMax)) return trace;
    trace.localOrigin = ray.origin;
    trace.localDir = ray.dir;
    for (int i = 0; i < 3; ++i)
        trace.slabs[static_cast<std::size_t>(i)].axis[i] = 1.0f;
    fillSlabs(trace, box.min, box.max);
    intersectSlabs(trace);
    if (contains(ray.origin, box.min, box.max)) return startedInside(trace, ray, RayBoxReason::InsideStart);
    glm::vec3 localNormal;
    if (!slabHit(trace, localNormal)) return trace;
    RayHit hit{trace.tEnter, ray.origin + trace.tEnter * ray.dir, localNormal};
    if (trace.enteringAxis < 0) {
        hit.normal = -glm::normalize(ray.dir); // outside by less than the ray resolves
    } else {
        const int axis = trace.enteringAxis;
        hit.point[axis] = trace.enteringFace < 0.0f ? box.min[axis] : box.max[axis]; // exactly on the face
    }
    return finished(trace, hit, trace.enteringAxis < 0 ? RayBoxReason::InsideStart : RayBoxReason::Hit,
                    RayBoxReason::NonFiniteResult);
}

RayBoxTrace explainRaycast(const Ray& ray, const Obb& box, float tMax) {
    RayBoxTrace trace = emptyTrace<RayBoxTrace>(tMax, RayBoxReason::InvalidInput);
    trace.enteringAxis = trace.missSlab = -1;
    if (!isValid(ray) || !isValid(box) || !detail::validTMax(tMax)) return trace;
    // Into the box frame: o' = A^T (o - c), d' = A^T d, as raycast(Ray, Obb) does.
    const glm::mat3 toLocal = glm::transpose(box.axes);
    trace.localOrigin = toLocal * (ray.origin - box.center);
    trace.localDir = toLocal * ray.dir;
    for (int i = 0; i < 3; ++i)
        trace.slabs[static_cast<std::size_t>(i)].axis = box.axes[i];
    fillSlabs(trace, -box.half, box.half);
    intersectSlabs(trace);
    if (contains(trace.localOrigin, -box.half, box.half) || (trace.missSlab < 0 && trace.tEnter == 0.0f))
        return startedInside(trace, ray, RayBoxReason::InsideStart);
    glm::vec3 localNormal;
    if (!slabHit(trace, localNormal)) return trace;
    const glm::vec3 normal = glm::normalize(box.axes * localNormal);
    return finished(trace, {trace.tEnter, ray.origin + trace.tEnter * ray.dir, normal}, RayBoxReason::Hit,
                    RayBoxReason::NonFiniteResult);
}

// ------------------------------------------------------------------------------- ray-plane

RayPlaneTrace explainRaycast(const Ray& ray, const Plane& plane, float tMax) {
    // dot(n, o + t d) + d0 = 0  =>  t = -(dot(n, o) + d0) / dot(n, d), as raycast(Ray, Plane).
    RayPlaneTrace trace = emptyTrace<RayPlaneTrace>(tMax, RayPlaneReason::InvalidInput);
    if (!isValid(ray) || !isValid(plane) || !detail::validTMax(tMax)) return trace;

    const float nLength = glm::length(plane.normal);
    const float dLength = glm::length(ray.dir);
    trace.denominator = glm::dot(plane.normal, ray.dir);
    trace.parallelLimit = kParallelCosine * nLength * dLength;
    trace.facing = trace.denominator < 0.0f;
    trace.numerator = -signedDistance(plane, ray.origin);
    if (std::abs(trace.denominator) <= trace.parallelLimit) return stopped(trace, RayPlaneReason::Parallel);
    trace.t = trace.numerator / trace.denominator + 0.0f; // + 0 turns -0 into +0
    if (!(trace.t >= 0.0f)) return stopped(trace, RayPlaneReason::BehindOrigin);
    if (trace.t > tMax) return stopped(trace, RayPlaneReason::BeyondTMax);
    const glm::vec3 unitNormal = plane.normal / nLength;
    const glm::vec3 normal = trace.denominator > 0.0f ? -unitNormal : unitNormal; // face the ray origin
    return finished(trace, {trace.t, ray.origin + trace.t * ray.dir, normal}, RayPlaneReason::Hit,
                    RayPlaneReason::NonFiniteResult);
}

// ------------------------------------------------------------------------------- ray-triangle

RayTriangleTrace explainRaycastTriangle(const Ray& ray, const Triangle& tri, float tMax) {
    RayTriangleTrace trace = emptyTrace<RayTriangleTrace>(tMax, RayTriangleReason::InvalidInput);
    if (!isValid(ray) || !detail::validTMax(tMax)) return trace;
    // raycastBarycentric, then raycast(Ray, Triangle)'s conversion (ray_triangle.cpp).
    TriangleHit hit;
    if (!detail::WatertightRay(ray, tMax).intersectExplained(tri, hit, trace)) return trace;
    trace.hit = hit;
    trace.result = detail::finiteOrNone({hit.t, ray.origin + hit.t * ray.dir, hit.normal});
    if (!trace.result) trace.reason = RayTriangleReason::NonFiniteResult;
    return trace;
}

} // namespace kz
