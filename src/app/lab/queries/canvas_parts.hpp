// The parts the lab queries' units draw with (LabQueryUnit::drawAnswer, drawSteps): the
// construction's colours, the shared answers (a ray's hit, a pair's contacts or closest points),
// and the steps' pieces (a box's or a triangle's feature lit, a mesh box placed, the separating-
// axis picture of two projected intervals).
#pragma once

#include "app/lab/draw.hpp"
#include "physics/obstacle.hpp"

namespace kz::lab_parts {

inline constexpr glm::vec3 kRayColor{1.0f, 0.88f, 0.25f};
inline constexpr glm::vec3 kRayBeyondColor{0.55f, 0.5f, 0.32f}; ///< The part after the hit, or a missing ray.
inline constexpr glm::vec3 kNormalColor{0.25f, 0.95f, 1.0f};
inline constexpr glm::vec3 kContactColor{1.0f, 0.35f, 0.9f};
inline constexpr glm::vec3 kClosestColor{0.95f, 0.95f, 0.95f};
inline constexpr float kNormalLength = 0.6f;

inline constexpr glm::vec3 kRootColor{1.0f, 0.88f, 0.25f};
inline constexpr glm::vec3 kIntervalColor{0.95f, 0.95f, 0.95f};
inline constexpr glm::vec3 kFeatureColor{1.0f, 0.95f, 0.3f};
inline constexpr glm::vec3 kCandidateColor{0.6f, 0.5f, 0.35f};
inline constexpr float kFarT = 3.0f; ///< Slab intervals and lines are drawn within t in [-kFarT, kFarT].

/// The ray from its origin to its end handle (t = 1): bright to the hit, dim beyond; the hit
/// point and the surface normal there. The ray queries' answer.
void drawRay(const LabScene& scene, const LabResult& result, LabCanvas& canvas);
/// The contact points, the normal (from B toward A) at their centre, and each point's depth as a
/// stroke along the normal; else the closest points and the gap between them. The pairs' answer.
void drawPair(const LabScene& scene, const LabResult& result, LabCanvas& canvas);

/// A unit vector across `dir` as the eye sees it (perpendicular to dir and to the view line).
glm::vec3 acrossView(const glm::vec3& dir, const glm::vec3& at, const glm::vec3& eye);
/// A closed polygon through `points`.
void loop(LabCanvas& canvas, const glm::vec3* points, int count, const glm::vec3& color, bool onTop);
/// The part of an oriented box where the axes in `fixed` sit at `sign` * half and the others
/// run free: a face (one fixed), an edge (two), a corner (three, drawn as a ring).
void boxFeature(LabCanvas& canvas, const Obb& box, const glm::bvec3& fixed, const glm::vec3& sign);
/// A triangle's vertex (0-2), edge (0 ab, 1 bc, 2 ca) or face lit.
void triangleFeature(LabCanvas& canvas, const Triangle& tri, int vertex, int edge, bool face);
/// A mesh box (mesh frame) placed in the world: its 12 edges.
void placedBox(LabCanvas& canvas, const Obstacle& placement, const Aabb& box, const glm::vec3& color,
               bool onTop);
/// The separating-axis picture: the axis through `origin` along unit `n`, A's interval [a.x, a.y]
/// and B's [b.x, b.y] (measured along n from origin) as bars on either side of it, and the gap
/// (`apart`, green) or the overlap (red) between their facing ends as a band across both bars, so
/// a thin gap still shows.
void intervalsOnAxis(LabCanvas& canvas, const glm::vec3& origin, const glm::vec3& n, const glm::vec2& a,
                     const glm::vec2& b, bool apart);

} // namespace kz::lab_parts
