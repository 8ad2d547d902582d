// The project's own meshes, generated: a lamp-like arch, a torus and a block of steps. Written to
// assets/meshes/*.obj by kz_meshgen (src/tools/mesh_gen.cpp); a test checks the committed files
// are exactly what these functions give now.
//
// Every mesh here is closed (each edge is shared by exactly two triangles, in opposite
// directions), wound counter-clockwise seen from outside (outward normals, positive volume) and
// has no degenerate triangle. A mesh may be several closed parts that overlap (the arch). Curved
// surfaces are polygons inscribed in the smooth ones, so the mesh lies inside the smooth shape.
// Units are metres. The generators do no I/O and throw std::invalid_argument for bad parameters.
#pragma once

#include "meshio/triangle_mesh.hpp"

#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace kz {

/// A torus around the +y axis, centred at the origin: the circle of radius `minorRadius` in a
/// plane through the y axis, swept around it at distance `majorRadius`. Inside
/// |x|, |z| <= majorRadius + minorRadius, |y| <= minorRadius; volume 2 pi^2 R r^2 for the smooth
/// torus (the polygon one is a little smaller). 2 * majorSegments * minorSegments triangles.
/// Needs 0 < minorRadius < majorRadius and at least 3 segments each way.
TriangleMesh makeTorus(float majorRadius = 0.7f, float minorRadius = 0.25f, int majorSegments = 48,
                       int minorSegments = 24);

/// A block of steps standing on y = 0: `stepCount` steps rising toward +x, each `stepRun` deep
/// (along x) and `stepRise` high, extruded `depth` along z; the top of the highest step is cut
/// into `teeth` saw-teeth `toothHeight` high. Centred on x = 0 and z = 0: inside
/// |x| <= stepCount * stepRun / 2, 0 <= y <= stepCount * stepRise + toothHeight, |z| <= depth / 2.
/// Needs stepCount >= 1, positive sizes, teeth >= 0 (toothHeight is ignored for 0).
TriangleMesh makeSteps(int stepCount = 5, float stepRun = 0.4f, float stepRise = 0.2f, float depth = 1.0f,
                       int teeth = 4, float toothHeight = 0.15f);

/// A lamp-like arch in the plane z = 0, standing on y = 0: a flat disc (the base) on the floor,
/// a neck and a head. The neck is a tube of circular cross-section swept along a smooth
/// (tangent-continuous) centre line: straight up the y axis from inside the base to `postTop`,
/// a quarter circle of radius `bendRadius` over to +x, a straight run of `run` along +x, a quarter
/// circle of radius `dropRadius` turning down, and a straight drop of `drop` into the head. The
/// head, a lamp shade, is a truncated cone around the neck's last piece, narrow at the top and
/// wide at the bottom, hanging down. Base, neck and head are three closed parts that overlap.
struct ArchParams {
    float baseRadius = 0.45f;       ///< The disc on the floor, around the y axis.
    float baseHeight = 0.1f;        ///< Its thickness: it covers 0 <= y <= baseHeight.
    float tubeRadius = 0.13f;       ///< The neck tube's radius.
    float postTop = 1.55f;          ///< Height where the straight post ends and the first bend starts.
    float bendRadius = 0.5f;        ///< Radius of the first bend's centre line (up, then along +x).
    float run = 0.45f;              ///< Length of the straight, level piece after the first bend.
    float dropRadius = 0.35f;       ///< Radius of the second bend's centre line (along +x, then down).
    float drop = 0.2f;              ///< Length of the straight piece going down into the head.
    float headTopRadius = 0.17f;    ///< The shade's radius at its top.
    float headBottomRadius = 0.32f; ///< The shade's radius at its bottom rim.
    float headHeight = 0.4f;        ///< The shade's height; its top is 0.12 above the neck's end.
    int tubeSides = 32;             ///< Polygon sides of the neck's cross-section.
    int discSides = 48;             ///< Polygon sides of the base and the head.
    float maxBendStepDeg = 6.0f;    ///< Largest angle between two rings of a bend.
    float maxStraightStep = 0.2f;   ///< Longest distance between two rings of a straight piece.
};

/// The neck's centre line ends at (archNeckEndX(p), archNeckEndY(p), 0), where the head hangs.
constexpr float archNeckEndX(const ArchParams& p) {
    return p.bendRadius + p.run + p.dropRadius;
}
constexpr float archNeckEndY(const ArchParams& p) {
    return p.postTop + p.bendRadius - p.dropRadius - p.drop;
}
/// How far above the neck's end the shade's top is.
inline constexpr float kArchHeadAboveNeckEnd = 0.12f;

/// Builds the arch (3,200 triangles with the defaults). Needs positive sizes, a bend
/// radius above the tube radius for both bends (the tube does not fold into itself), a base
/// thicker than 0 and a head wider than the tube at its top. With ArchParams{}:
/// height 2.18 (postTop + bendRadius + tubeRadius), reach 1.62 (neck end x 1.30 + head bottom
/// radius), the base's disc radius 0.45; the neck's centre line ends at (1.30, 1.50), the shade
/// covers 1.22 <= y <= 1.62.
TriangleMesh makeArch(const ArchParams& params = {});

/// With ArchParams{}: the mesh lies inside this box.
inline constexpr glm::vec3 kArchBoundsMin{-0.45f, 0.0f, -0.45f};
inline constexpr glm::vec3 kArchBoundsMax{1.62f, 2.18f, 0.45f};

/// With ArchParams{}: the opening under the neck, between the post (its surface at x = 0.13) and
/// the head (its rim nearest the post at (0.98, 1.22)). A ball of radius <= kArchOpeningRadius
/// whose centre moves along z through kArchOpening, from z = -infinity to +infinity, touches
/// nothing: the nearest surfaces are the post and the head's rim, 0.42 and 0.48 from that line.
inline constexpr glm::vec3 kArchOpening{0.55f, 1.0f, 0.0f};
inline constexpr float kArchOpeningRadius = 0.35f;

/// With ArchParams{}: a point of the neck's centre line, the top of the first bend, where the
/// neck runs along x. A ball of any radius whose centre moves along z through this point hits
/// the neck (the tube's radius there is 0.13).
inline constexpr glm::vec3 kArchNeckTarget{0.5f, 2.05f, 0.0f};

/// One of the project's meshes as kz_meshgen writes it.
struct ProjectMesh {
    std::string fileName; ///< "arch.obj", "torus.obj" or "steps.obj".
    std::string header;   ///< The file's header comment: the tool, the generator and its parameters.
    TriangleMesh mesh;    ///< The generator's output with its default parameters.
};

/// The project's meshes (assets/meshes), in a fixed order: arch, torus, steps.
std::vector<ProjectMesh> projectMeshes();

} // namespace kz
