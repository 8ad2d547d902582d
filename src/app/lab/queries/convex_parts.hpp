// The convex shapes' parts of the lab's units (gjk, epa, ray-convex): a capsule, a cylinder and a
// hull as lab shapes, each with its tessellation for the picture (the lab draws it as a placed
// mesh and picks it exactly, by the GJK ray cast on labConvex); and a shapes file's convex shape
// as GJK's ConvexShape.
#pragma once

#include "app/lab/queries/explain_input.hpp"
#include "app/lab/scene.hpp"
#include "geom/convex.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace kz::lab_parts {

/// A capsule: the segment of half length `halfHeight` along its local y, and `radius`.
LabShape capsule(std::string name, glm::vec3 position, float radius, float halfHeight, glm::quat orientation,
                 std::uint32_t color);
/// A cylinder: its axis of half length `halfHeight` along its local y, and `radius`.
LabShape cylinder(std::string name, glm::vec3 position, float radius, float halfHeight, glm::quat orientation,
                  std::uint32_t color);
/// The hull of `points` (local frame, at least 4 not on one plane: the lab's own points).
LabShape hull(std::string name, glm::vec3 position, std::span<const glm::vec3> points, glm::quat orientation,
              std::uint32_t color);
/// The lab's gem: the hull of 14 points, a cut stone with faces of 3 to 5 sides.
LabShape gem(std::string name, glm::vec3 position, float size, glm::quat orientation, std::uint32_t color);

} // namespace kz::lab_parts

namespace kz {
/// The shapes file's sphere, box, capsule, cylinder or hull as GJK's ConvexShape (a hull's refers
/// to shape.hull, which must outlive it).
ConvexShape explainConvex(const ExplainShape& shape);
} // namespace kz
