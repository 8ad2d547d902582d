// What the query lab draws: its scene as a World the renderer draws (the shapes as bodies and
// placed meshes, tinted by the verdict; the handles as small balls) and each query's
// construction as coloured line segments and translucent surfaces (LabCanvas), which the app
// hands to the renderer's debug lines. Each query's answer and steps are drawn by its unit
// (lab/queries/unit.hpp: drawAnswer, drawSteps). Also used by the mouse probe. No SDL, GL or ImGui.
#pragma once

#include "app/lab/query.hpp"
#include "physics/world.hpp"

#include <cstdint>
#include <vector>

namespace kz {

/// A coloured vertex of a line segment (the layout of the renderer's line vertex).
struct LabVertex {
    glm::vec3 position; ///< World space.
    glm::vec3 color;    ///< Linear RGB in [0, 1].
};

/// A translucent surface in world space (the layout of the renderer's TranslucentSurface): lit,
/// blended over the shapes, showing what lies inside it.
struct LabSurface {
    std::vector<glm::vec3> positions;
    std::vector<std::uint32_t> indices; ///< Triangles, counter-clockwise seen from outside.
    glm::vec4 color{1.0f};              ///< Linear RGB, and the opacity in alpha.
};

/// Line segments in world space: drawn faintly through everything and solid where visible, or on
/// top of everything (markers that must never hide inside a shape); and translucent surfaces,
/// drawn before the lines.
struct LabCanvas {
    std::vector<LabVertex> lines;     ///< Pairs of vertices.
    std::vector<LabVertex> topLines;  ///< Pairs, over everything.
    std::vector<LabSurface> surfaces; ///< In drawing order.
    glm::vec3 eye{0.0f};              ///< The camera: markers keep a similar size on screen.

    void clear() {
        lines.clear();
        topLines.clear();
        surfaces.clear();
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

/// The construction's colours (the tests find the drawn steps by them).
inline constexpr glm::vec3 kLabSatAxisColor{0.75f, 0.35f, 1.0f};  ///< The chosen SAT axis (violet).
inline constexpr glm::vec3 kLabIntervalAColor{0.3f, 0.8f, 1.0f};  ///< A's projected interval.
inline constexpr glm::vec3 kLabIntervalBColor{1.0f, 0.55f, 0.2f}; ///< B's projected interval.
inline constexpr glm::vec3 kLabGapColor{0.2f, 1.0f, 0.4f};        ///< The gap between the intervals.
inline constexpr glm::vec3 kLabOverlapColor{1.0f, 0.15f, 0.15f};  ///< Their overlap.
/// ray-box: slab x, y, z of the box's frame (red, green, blue as the box's axes).
inline constexpr glm::vec3 kLabSlabColors[3] = {{1.0f, 0.3f, 0.3f}, {0.3f, 1.0f, 0.3f}, {0.35f, 0.55f, 1.0f}};
inline constexpr glm::vec3 kLabBvhEnteredColor{0.3f, 0.95f, 0.5f}; ///< ray-mesh: a box entered.
inline constexpr glm::vec3 kLabBvhCulledColor{0.45f, 0.45f, 0.5f}; ///< A box the ray misses.
inline constexpr glm::vec3 kLabBvhSkippedColor{1.0f, 0.6f, 0.15f}; ///< A box entered beyond the best hit.
inline constexpr glm::vec3 kLabLeafColor{0.95f, 0.95f, 0.6f};      ///< A leaf's tested triangles.
/// ray-plane: the origin's distance to the plane (the numerator) and the ray's approach per unit
/// of t (the denominator), both along the normal.
inline constexpr glm::vec3 kLabNumeratorColor{0.95f, 0.95f, 0.95f};
inline constexpr glm::vec3 kLabDenominatorColor{1.0f, 0.55f, 0.2f};
/// ray-triangle: an edge whose edge function has det's sign (the line passes inside it), or not.
inline constexpr glm::vec3 kLabEdgeInsideColor{0.2f, 1.0f, 0.4f};
inline constexpr glm::vec3 kLabEdgeOutsideColor{1.0f, 0.15f, 0.15f};
/// box-plane: a corner's distance to the plane, in front (> 0) or touching (<= 0).
inline constexpr glm::vec3 kLabCornerFrontColor{0.3f, 0.8f, 1.0f};
inline constexpr glm::vec3 kLabCornerTouchingColor{1.0f, 0.35f, 0.9f};

/// The lab's scene as a World to draw (never stepped): spheres and boxes as bodies, triangles,
/// planes and meshes as obstacles, each tinted toward the verdict's colour; the handles as small
/// balls in their own colours. `bodyOfShape` gets each shape's body index (-1 for an obstacle),
/// `bodyOfHandle` each handle's, `obstacleOfShape` each shape's obstacle index (-1 for a body), so
/// the app can outline what the mouse holds.
World labWorld(const LabScene& scene, const LabResult& result, std::vector<int>* bodyOfShape = nullptr,
               std::vector<int>* bodyOfHandle = nullptr, std::vector<int>* obstacleOfShape = nullptr);

/// The query's construction: its answer (the ray and its hit point and normal, the contact points with the
/// normal and depth, the closest points and the segment between them, the sphere at its time of
/// impact, the segments) and its steps from result.trace (the SAT axis and intervals, the
/// manifold's clipping, the slabs, the roots, the BVH traversal, the features), each layer as
/// `view` shows it (its unit's drawAnswer and drawSteps); and a ring around each handle over
/// everything, so a handle behind a shape can still be seen and grabbed.
void drawLabConstruction(const LabScene& scene, const LabResult& result, LabCanvas& canvas,
                         const LabView& view = {});

} // namespace kz
