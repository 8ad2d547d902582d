// A convex hull made ready to be a body's shape: moved into the body's frame, whose origin is the
// hull's centre of mass and whose axes are its principal axes of inertia, so that the world's
// free flight (which keeps a diagonal inertia tensor) turns it right.
#pragma once

#include "geom/convex_hull.hpp"

#include <glm/gtc/quaternion.hpp>
#include <memory>
#include <span>
#include <string>

namespace kz {

/// The hull of some points in the body's frame, and where that frame sits in the points' frame:
/// a point x of the body's frame is centre + rotation * x in the points' frame. A body given the
/// pose (p, q) in the points' frame is at p + q * centre, turned q * rotation.
struct HullBody {
    std::shared_ptr<const ConvexHull> hull; ///< Null when the points make no hull (see error).
    glm::vec3 centre{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
    std::string error; ///< buildConvexHull's one line; empty when `hull` is set.
};

/// The hull of `points` (buildConvexHull), its mass properties (massPropertiesOfHull), its
/// principal axes (principalAxes), then the hull built again from its vertices in that frame.
HullBody makeHullBody(std::span<const glm::vec3> points);

/// Whether `hull` is in a body's frame as makeHullBody puts it: its centre of mass within 1e-4 of
/// its size of the origin, its products of inertia within 1e-4 of its largest moment.
bool isInBodyFrame(const ConvexHull& hull);

} // namespace kz
