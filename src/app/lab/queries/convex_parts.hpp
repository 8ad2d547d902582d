// The convex shapes' parts of the lab's units (gjk, epa, ray-convex): a capsule, a cylinder and a
// hull as lab shapes, each with its tessellation for the picture (the lab draws it as a placed
// mesh and picks it exactly, by the GJK ray cast on labConvex); and a shapes file's convex shape
// as GJK's ConvexShape.
#pragma once

#include "app/lab/draw.hpp"
#include "app/lab/queries/explain_input.hpp"
#include "app/lab/scene.hpp"
#include "app/lab/trace.hpp"
#include "geom/convex.hpp"

#include <array>
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

/// The convex kinds the lab offers for a shape of gjk, epa and ray-convex, in the panel's order.
inline constexpr std::array<LabShapeKind, 5> kConvexKinds{LabShapeKind::Sphere, LabShapeKind::Box,
                                                          LabShapeKind::Capsule, LabShapeKind::Cylinder,
                                                          LabShapeKind::Hull};
/// "sphere", "box", "capsule", "cylinder", "hull" (and "mesh" and so on for the others).
const char* labShapeKindName(LabShapeKind kind);
/// A shape of `kind` (one of kConvexKinds) of the lab's usual size, in the given pose.
LabShape convexOfKind(LabShapeKind kind, std::string name, glm::vec3 position, glm::quat orientation,
                      std::uint32_t color);

/// Where the lab draws the cores' difference A - B: above and behind the shapes, the midpoint
/// between the difference's centre and its origin sits here (so both stay in view as the shapes
/// move apart).
inline constexpr glm::vec3 kDifferenceAnchor{0.4f, 1.7f, -3.2f};
inline constexpr glm::vec3 kDifferenceColor{0.5f, 0.55f, 0.75f}; ///< The difference's hull and edges.
/// The opacity of the difference's hull: low enough that the origin, GJK's simplex and EPA's
/// polytope inside it stay in view.
inline constexpr float kDifferenceOpacity = 0.3f;
inline constexpr glm::vec3 kSimplexColor{1.0f, 0.85f, 0.2f};  ///< GJK's simplex, EPA's nearest face.
inline constexpr glm::vec3 kPolytopeColor{0.85f, 0.6f, 1.0f}; ///< EPA's polytope.
inline constexpr glm::vec3 kSupportColor{1.0f, 0.35f, 0.9f};  ///< Support points, on the shapes and in A - B.

/// Where the lab draws the origin of the cores' difference A - B: kDifferenceAnchor less half the
/// centre of the difference's bounds.
glm::vec3 differenceOrigin(const ConvexShape& coreA, const ConvexShape& coreB);
/// A point w of the difference where the lab draws it, `origin` being differenceOrigin's.
inline glm::vec3 differencePoint(const glm::vec3& origin, const glm::dvec3& w) {
    return origin + glm::vec3(w);
}
/// The cores' difference A - B (the hull of its support points in 162 directions) around `origin`
/// as a translucent hull with its edges, and the origin's cross: what GJK walks and EPA grows
/// inside. A difference too flat for a hull (two segments) is its points only.
void drawDifference(const ConvexShape& coreA, const ConvexShape& coreB, const glm::vec3& origin,
                    LabCanvas& canvas);
/// The shape's outline as seen from `eye`: the loop of its support points in 48 directions across
/// the line of sight (its silhouette, exact for a far eye): a convex shape drawn in another pose
/// (the shape cast's A at each step's time).
void drawConvexOutline(const ConvexShape& shape, const glm::vec3& eye, const glm::vec3& color,
                       LabCanvas& canvas, bool onTop = false);
/// The iteration the picture and the panel show: view.convexStep within [0, count), else the last.
int convexStep(const LabView& view, int count);
/// The panel's iteration slider over `count` iterations (nothing for fewer than 2).
void convexStepSlider(LabView& view, int count);

} // namespace kz::lab_parts

namespace kz {
/// The shapes file's sphere, box, capsule, cylinder or hull as GJK's ConvexShape (a hull's refers
/// to shape.hull, which must outlive it).
ConvexShape explainConvex(const ExplainShape& shape);
} // namespace kz
