// What the query lab draws: its scene as a World the renderer draws (the shapes as bodies and
// placed meshes, tinted by the verdict; the handles as small balls) and each query's
// construction as coloured line segments (LabCanvas), which the app hands to the renderer's debug
// lines. One construction function per query (drawLabConstruction's table in lab_draw.cpp): the
// place to draw a query's intermediate steps. Also used by the mouse probe. No SDL, GL or ImGui.
#pragma once

#include "app/lab_query.hpp"
#include "physics/world.hpp"

#include <vector>

namespace kz {

/// A coloured vertex of a line segment (the layout of the renderer's line vertex).
struct LabVertex {
    glm::vec3 position; ///< World space.
    glm::vec3 color;    ///< Linear RGB in [0, 1].
};

/// Line segments in world space: drawn faintly through everything and solid where visible, or on
/// top of everything (markers that must never hide inside a shape).
struct LabCanvas {
    std::vector<LabVertex> lines;    ///< Pairs of vertices.
    std::vector<LabVertex> topLines; ///< Pairs, over everything.
    glm::vec3 eye{0.0f};             ///< The camera: markers keep a similar size on screen.

    void clear() {
        lines.clear();
        topLines.clear();
    }
    void line(const glm::vec3& a, const glm::vec3& b, const glm::vec3& color, bool onTop = false);
    /// Three axis-aligned strokes through p, sized for the screen.
    void cross(const glm::vec3& p, const glm::vec3& color, bool onTop = true);
    /// A segment with a small head at `to`.
    void arrow(const glm::vec3& from, const glm::vec3& to, const glm::vec3& color, bool onTop = false);
    /// A circle of `radius` about `centre` in the plane normal to `normal`.
    void circle(const glm::vec3& centre, const glm::vec3& normal, float radius, const glm::vec3& color,
                bool onTop = false);
    /// A wire sphere: three great circles and its outline as the camera sees it.
    void sphere(const glm::vec3& centre, float radius, const glm::vec3& color);
    /// A marker's size at p: a fraction of its distance to the eye.
    float markerSize(const glm::vec3& p) const;
};

/// The verdict's tint: red for a hit or an overlap, green for a miss or apart.
inline constexpr glm::vec3 kLabPositive{0.95f, 0.22f, 0.16f};
inline constexpr glm::vec3 kLabNegative{0.25f, 0.85f, 0.35f};

/// The lab's scene as a World to draw (never stepped): spheres and boxes as bodies, triangles,
/// planes and meshes as obstacles, each tinted toward the verdict's colour; the handles as small
/// balls in their own colours. `bodyOfShape` gets each shape's body index (-1 for an obstacle),
/// `bodyOfHandle` each handle's, `obstacleOfShape` each shape's obstacle index (-1 for a body), so
/// the app can outline what the mouse holds.
World labWorld(const LabScene& scene, const LabResult& result, std::vector<int>* bodyOfShape = nullptr,
               std::vector<int>* bodyOfHandle = nullptr, std::vector<int>* obstacleOfShape = nullptr);

/// The query's construction: the ray and its hit point and normal, the contact points with the
/// normal and depth, the closest points and the segment between them, the sphere at its time of
/// impact, the segments (labQueryInfo's query, one draw function each); and a ring around each
/// handle over everything, so a handle behind a shape can still be seen and grabbed.
void drawLabConstruction(const LabScene& scene, const LabResult& result, LabCanvas& canvas);

} // namespace kz
