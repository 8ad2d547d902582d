// The debug overlay as coloured line and triangle vertices: the pick ray and its hit, the impact
// preview, bounding boxes, contacts, velocities, BVH node boxes and the picked triangle; and
// translucent surfaces (the lab's Minkowski difference).
// Pure CPU work (no GL), so it is tested without a display; the renderer uploads the result.
#pragma once

#include "app/render/renderer.hpp"
#include "geom/mesh_bvh.hpp"
#include "geom/types.hpp"
#include "mesh_shape_cache.hpp"
#include "physics/obstacle.hpp"
#include "physics/world.hpp"

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace kz::render {

/// A vertex of the line shader (GL_LINES pairs, or GL_TRIANGLES for the picked triangle's fill).
struct LineVertex {
    glm::vec3 position;
    glm::vec3 color;
};

/// A translucent surface in world space, in one colour: lit and flat shaded, blended over the
/// opaque scene (which hides it where nearer), its back faces first, then its front faces, so a
/// closed convex mesh reads right from any side.
struct TranslucentSurface {
    std::vector<glm::vec3> positions;
    /// Triangles, 3 indices each, counter-clockwise seen from outside (a triangle of zero area or
    /// with an index out of range is left out).
    std::vector<std::uint32_t> indices;
    glm::vec4 color{1.0f}; ///< Linear RGB, and the opacity in alpha (0: invisible, 1: opaque).
};

/// One frame's debug geometry, in world space.
struct DebugLines {
    std::vector<LineVertex> lines;        ///< Segments drawn faintly through everything, then depth tested.
    std::vector<LineVertex> topLines;     ///< Segments drawn over everything (the picked triangle's edges).
    std::vector<LineVertex> topTriangles; ///< Triangles filled faintly over everything (the picked triangle).
    /// Drawn after the opaque scene and the room's edges, before the lines, in this order.
    std::vector<TranslucentSurface> surfaces;

    void clear() {
        lines.clear();
        topLines.clear();
        topTriangles.clear();
        surfaces.clear();
    }
};

/// A BVH node's box in the mesh's own frame, with its level (0: the root).
struct LeveledBox {
    Aabb box;
    int level;
};

/// One mesh's BVH boxes down to `depth`, kept until a frame asks for another depth.
struct BvhLevelBoxes {
    int depth = -1; ///< The nodeBoxes depth `boxes` was made for (-1: none yet).
    std::vector<LeveledBox> boxes;
};
using BvhBoxCache = MeshShapeCache<BvhLevelBoxes>;

/// Clears `out` and fills it with what `debug` switches on, then overlay.extra's lines and surfaces. `eye`
/// sizes the markers (crosses keep a similar size on screen); `bvhBoxes` keeps each mesh's boxes between
/// frames. Indices in `overlay` out of range, and non-finite rays, hits or triangles, draw nothing.
void buildDebugLines(const World& world, const glm::vec3& eye, const DebugDraw& debug, const Overlay& overlay,
                     BvhBoxCache& bvhBoxes, DebugLines& out);

void addLine(std::vector<LineVertex>& lines, const glm::vec3& a, const glm::vec3& b, const glm::vec3& color);

/// Three axis-aligned segments of half length `size` through p.
void addCross(std::vector<LineVertex>& lines, const glm::vec3& p, float size, const glm::vec3& color);

/// The 12 edges of `box`. Without `placement` the box is in world space; with it, the box is in the
/// obstacle's local frame and each corner is placed by its transform (a parallelepiped once rotated
/// and scaled).
void addBox(std::vector<LineVertex>& lines, const Aabb& box, const glm::vec3& color,
            const Obstacle* placement = nullptr);

/// A colour per BVH level: the hue turns from teal at the root through blue, magenta, red and
/// orange, so neighbouring levels differ (and the root is not the selection's yellow).
glm::vec3 levelColor(int level);

/// The boxes of MeshBvh::nodeBoxes(maxDepth), each with its level: nodeBoxes(k) holds the
/// boxes of nodeBoxes(k - 1) plus those of level k, so the boxes of level k are the multiset
/// difference of the two (whatever order nodeBoxes lists them in).
std::vector<LeveledBox> boxesByLevel(const MeshBvh& bvh, int maxDepth);

} // namespace kz::render
