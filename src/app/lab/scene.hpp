// The query lab's scene (kolize --lab, the panel's Lab): one collision query's two shapes (or a
// ray and a shape, two segments), placed so the query is interesting at the start, and the
// draggable handles (the ray's ends, the sweep's end, the segments' ends). Plain data and pure
// functions: no SDL, GL or ImGui, tested without a display (tests/app/test_lab.cpp).
#pragma once

#include "geom/convex.hpp"
#include "geom/types.hpp"
#include "physics/obstacle.hpp"

#include <array>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kz {

/// The queries the lab shows, by their position in the panel's list: the registry's order
/// (lab/queries/registry.cpp, one unit a query, lab/queries/unit.hpp).
enum class LabQuery {
    RaySphere,
    RayBox,
    RayPlane,
    RayTriangle,
    RayMesh,
    SphereSphere,
    SphereBox,
    BoxBox,
    BoxPlane,
    SphereTriangle,
    BoxTriangle,
    SweepSphereTriangle,
    SegmentSegment,
    Gjk,
    Epa,
    RayConvex,
    ConvexConvex,
    ShapeCast,
};
/// How many queries the registry holds.
extern const int kLabQueryCount;

/// "ray-sphere", "box-box", ...: the name on the command line, in the panel and in the lab event.
const char* labQueryName(LabQuery query);
/// The query named `name`; empty for an unknown name.
std::optional<LabQuery> parseLabQuery(std::string_view name);
/// Every name, comma separated, for messages.
std::string labQueryNames();

enum class LabShapeKind { Sphere, Box, Triangle, Plane, Mesh, Capsule, Cylinder, Hull };

/// A shape of the lab, in its pose. A triangle, a plane and a mesh keep their triangles in `mesh`
/// (drawn and picked as a placed obstacle); spheres and boxes are drawn as bodies. A capsule, a
/// cylinder and a hull are drawn as their tessellation in `mesh` (a placed obstacle) and picked
/// exactly (the GJK ray cast on labConvex).
struct LabShape {
    LabShapeKind kind = LabShapeKind::Sphere;
    std::string name;         ///< "A", "B", or what it is ("ring").
    glm::vec3 position{0.0f}; ///< Centre (sphere, box), centroid (triangle), the
                              ///< plane's point under its patch's centre, mesh origin.
    glm::quat orientation{1.0f, 0.0f, 0.0f,
                          0.0f};            ///< Unit; turns the box, the triangle, the plane, the mesh.
    float radius = 0.5f;                    ///< Sphere, capsule, cylinder, > 0.
    float halfHeight = 0.5f;                ///< Capsule, cylinder: half the axis (local y), > 0.
    std::shared_ptr<const ConvexHull> hull; ///< Hull: its geometry in the local frame; else null.
    glm::vec3 halfExtents{0.5f};            ///< Box only, each > 0.
    std::shared_ptr<const MeshShape> mesh;  ///< Triangle (one, around the local origin), plane (its
                                            ///< patch in the local x-z plane, normal +y), mesh; else null.
    std::uint32_t color = 0x4a90d9;         ///< 0xRRGGBB before the verdict's tint.
};

/// A draggable point: an end of the ray or of a segment, the sweep's end.
struct LabHandle {
    std::string name;    ///< "origin", "end", "A0", ...
    glm::vec3 position;  ///< World point.
    int attachedTo = -1; ///< A shape it moves with when that shape is dragged (the sweep's end), or -1.
    std::uint32_t color; ///< 0xRRGGBB.
};

struct LabScene {
    LabQuery query = LabQuery::BoxBox;
    std::vector<LabShape> shapes;   ///< A then B (one for the ray queries, none for segment-segment).
    std::vector<LabHandle> handles; ///< Ray: origin, end; sweep: end; segments: A0, A1, B0, B1.
};

/// The query's scene as it starts (its unit's place): its shapes near each other (apart for the
/// pairs, so a drag makes them meet), the ray through its shape.
LabScene makeLabScene(LabQuery query);

/// The lab's room: what the lab's world is drawn in (a box around the origin).
inline constexpr glm::vec3 kLabRoomSize{14.0f, 9.0f, 14.0f};
/// The lab's camera: where it looks from and at, its vertical field of view.
/// The target sits left of the shapes, so they show right of the panel.
inline constexpr glm::vec3 kLabEye{0.4f, 2.2f, 7.5f};
inline constexpr glm::vec3 kLabTarget{-0.4f, 0.0f, 0.0f};
inline constexpr float kLabFovDeg = 45.0f;
/// A handle's drawn radius; it is picked within kLabHandlePickRadius.
inline constexpr float kLabHandleRadius = 0.07f;
inline constexpr float kLabHandlePickRadius = 0.15f;

// The shapes' geometry in their pose.
Sphere labSphere(const LabShape& shape);
Obb labObb(const LabShape& shape);
Triangle labTriangle(const LabShape& shape);                ///< The mesh's first triangle, placed.
Plane labPlane(const LabShape& shape);                      ///< Through position, normal = orientation * +y.
std::optional<Obstacle> labObstacle(const LabShape& shape); ///< A shape with a `mesh`; else empty.
/// Whether the shape is one of the five convex shapes of geom/convex.hpp.
bool isLabConvex(LabShapeKind kind);
/// A sphere, box, capsule, cylinder or hull as GJK's ConvexShape, in its pose (a hull's refers
/// to shape.hull, which must outlive it); any other kind gives a zero-radius sphere at its position.
ConvexShape labConvex(const LabShape& shape);

/// The ray of the ray queries: origin at handle 0, dir = handle 1 - handle 0, so t = 1 at the
/// end handle (the queries run with tMax = 1).
Ray labRay(const LabScene& scene);

/// What the mouse can grab: a shape or a handle, by index.
struct LabItem {
    bool handle = false; ///< A handle, else a shape.
    int index = -1;      ///< Into scene.handles or scene.shapes.
    bool operator==(const LabItem&) const = default;
};

/// Where a ray meets a grabbable item.
struct LabItemHit {
    LabItem item;
    glm::vec3 point; ///< On the item (a handle's pick sphere, a shape's surface).
};

/// The item under `ray`: the nearest handle if it meets one (they are small and may sit inside a
/// shape), else the nearest shape. Empty when it meets none.
std::optional<LabItemHit> pickLabItem(const LabScene& scene, const Ray& ray);

/// Moves an item so that its position becomes `position` (a shape drags its attached handles
/// along); turns a shape by `turn` about its position (handles do not turn).
void moveLabItem(LabScene& scene, const LabItem& item, const glm::vec3& position);
void turnLabShape(LabScene& scene, int shape, const glm::quat& turn);
/// The item's position (a shape's, a handle's).
glm::vec3 labItemPosition(const LabScene& scene, const LabItem& item);

} // namespace kz
