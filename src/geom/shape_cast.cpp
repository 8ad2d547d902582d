// Shape cast of two moving convex shapes (shape_cast.hpp); the iteration is shape_cast_steps.hpp's.
#include "shape_cast.hpp"

#include "shape_cast_steps.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <glm/gtc/quaternion.hpp>

namespace kz {
namespace {

using glm::dmat3;
using glm::dvec3;

/// R(w): the rotation by |w| radians about w, in double.
dmat3 rotationOf(const dvec3& w) {
    const double angle = glm::length(w);
    if (!(angle > 0.0)) return dmat3(1.0);
    return glm::mat3_cast(glm::angleAxis(angle, w / angle));
}

/// The map x -> pivot + velocity t + R (x - pivot) of a motion at time t.
struct MotionAt {
    dmat3 rotation;
    dvec3 pivot, moved; ///< moved = pivot + velocity t.
    glm::vec3 point(const glm::vec3& x) const { return glm::vec3(moved + rotation * (dvec3(x) - pivot)); }
    glm::mat3 turn(const glm::mat3& m) const { return glm::mat3(rotation * dmat3(m)); }
};

bool isFiniteMotion(const ConvexMotion& m) {
    return isFinite(m.velocity) && isFinite(m.angularVelocity) && isFinite(m.pivot);
}

/// The largest |coordinate| (not named maxAbs: detail::maxAbs is the float vector's).
double largestAbs(const dvec3& v) {
    return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)});
}

} // namespace

glm::vec3 shapeCenter(const ConvexShape& shape) {
    if (const auto* hull = std::get_if<PosedHull>(&shape)) return hull->position;
    return glm::vec3(detail::corePoint(shape));
}

ConvexMotion motionAboutCenter(const ConvexShape& shape, const glm::vec3& velocity,
                               const glm::vec3& angularVelocity) {
    return {velocity, angularVelocity, shapeCenter(shape)};
}

ConvexShape shapeAtTime(const ConvexShape& shape, const ConvexMotion& motion, float t) {
    const double time = t;
    const MotionAt m{rotationOf(dvec3(motion.angularVelocity) * time), dvec3(motion.pivot),
                     dvec3(motion.pivot) + dvec3(motion.velocity) * time};
    switch (shape.index()) {
    case 0: {
        const Sphere& s = std::get<Sphere>(shape);
        return Sphere{m.point(s.center), s.radius};
    }
    case 1: {
        const Obb& box = std::get<Obb>(shape);
        return Obb{m.point(box.center), box.half, m.turn(box.axes)};
    }
    case 2: {
        const Capsule& c = std::get<Capsule>(shape);
        return Capsule{m.point(c.a), m.point(c.b), c.radius};
    }
    case 3: {
        const Cylinder& c = std::get<Cylinder>(shape);
        return Cylinder{m.point(c.a), m.point(c.b), c.radius};
    }
    default: {
        const PosedHull& h = std::get<PosedHull>(shape);
        return PosedHull{h.hull, m.point(h.position), m.turn(h.orientation)};
    }
    }
}

namespace detail {

double reachFrom(const ConvexShape& shape, const dvec3& pivot, const dvec3& axis) {
    // The distance of x from the line through the pivot along the (unit or zero) axis.
    const auto away = [&](const dvec3& x) {
        const dvec3 d = x - pivot;
        return glm::length(d - glm::dot(d, axis) * axis);
    };
    switch (shape.index()) {
    case 0: // the ball round the centre is the same turned: only the centre moves
        return away(dvec3(std::get<Sphere>(shape).center));
    case 1: {
        const Obb& box = std::get<Obb>(shape);
        const dmat3 axes(box.axes);
        double farthest = 0.0;
        for (int corner = 0; corner < 8; ++corner) {
            const dvec3 sign((corner & 1) ? 1.0 : -1.0, (corner & 2) ? 1.0 : -1.0, (corner & 4) ? 1.0 : -1.0);
            farthest = std::max(farthest, away(dvec3(box.center) + axes * (sign * dvec3(box.half))));
        }
        return farthest;
    }
    case 2: { // as the sphere: the segment's ends
        const Capsule& c = std::get<Capsule>(shape);
        return std::max(away(dvec3(c.a)), away(dvec3(c.b)));
    }
    case 3: { // a rim point is within the radius of its cap's centre
        const Cylinder& c = std::get<Cylinder>(shape);
        return std::max(away(dvec3(c.a)), away(dvec3(c.b))) + c.radius;
    }
    default: {
        const PosedHull& h = std::get<PosedHull>(shape);
        const dmat3 orientation(h.orientation);
        double farthest = 0.0;
        for (const glm::vec3& v : h.hull->vertices)
            farthest = std::max(farthest, away(dvec3(h.position) + orientation * dvec3(v)));
        return farthest;
    }
    }
}

bool castSetup(const ConvexShape& a, const ConvexMotion& motionA, const ConvexShape& b,
               const ConvexMotion& motionB, float tMax, float gap, CastSetup& setup) {
    if (!isValid(a) || !isValid(b) || !isFiniteMotion(motionA) || !isFiniteMotion(motionB)) return false;
    if (!(tMax >= 0.0f && tMax < INFINITY) || !(gap >= 0.0f && gap < INFINITY)) return false;
    setup.reachA = reachFrom(a, dvec3(motionA.pivot), unitOrZero(dvec3(motionA.angularVelocity)));
    setup.reachB = reachFrom(b, dvec3(motionB.pivot), unitOrZero(dvec3(motionB.angularVelocity)));
    // Each shape's extent round its centre (reachFrom with no axis, plus a round shape's radius):
    // the size the tolerance is relative to.
    const auto extent = [](const ConvexShape& s) {
        return reachFrom(s, dvec3(shapeCenter(s)), dvec3(0.0)) + margin(s);
    };
    const double extentA = extent(a), extentB = extent(b);
    // Float's rounding of the poses: coordinates up to the pivot's, plus the way travelled, plus
    // the shape's extent round the pivot; a distance of such coordinates is good to a few ulps.
    const auto scale = [&](const ConvexShape& s, const ConvexMotion& m, double ext) {
        return largestAbs(dvec3(m.pivot)) + glm::length(dvec3(m.velocity)) * double(tMax) +
               glm::length(dvec3(shapeCenter(s)) - dvec3(m.pivot)) + ext;
    };
    const double coordinates = std::max(scale(a, motionA, extentA), scale(b, motionB, extentB));
    setup.tolerance = kCastTolerance * std::max(extentA, extentB) + 4.0 * FLT_EPSILON * coordinates;
    return std::isfinite(setup.tolerance);
}

ApproachBound approachBound(const ConvexMotion& motionA, const ConvexMotion& motionB, const CastSetup& setup,
                            const dvec3& n) {
    ApproachBound bound{};
    bound.linear = glm::dot(dvec3(motionB.velocity) - dvec3(motionA.velocity), n);
    bound.angular = glm::length(glm::cross(dvec3(motionA.angularVelocity), n)) * setup.reachA +
                    glm::length(glm::cross(dvec3(motionB.angularVelocity), n)) * setup.reachB;
    bound.rate = bound.linear + bound.angular;
    return bound;
}

} // namespace detail

ShapeCast castConvexConvex(const ConvexShape& a, const ConvexMotion& motionA, const ConvexShape& b,
                           const ConvexMotion& motionB, float tMax, float gap) {
    detail::CastNoTrace none;
    return detail::castSteps(a, motionA, b, motionB, tMax, gap, none);
}

} // namespace kz
