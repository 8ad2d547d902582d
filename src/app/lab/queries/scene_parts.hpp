// The parts the lab queries' units build their scenes from (LabQueryUnit::place): the lab's
// colours, turns in degrees, the shapes (spheres, boxes, the triangle, the plane's patch, the
// ring) and the ray's handles; and the shapes a query reads back (A, B).
#pragma once

#include "app/lab/scene.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kz::lab_parts {

inline constexpr std::uint32_t kColorA = 0x4a90d9;   // blue
inline constexpr std::uint32_t kColorB = 0xe0a040;   // amber
inline constexpr std::uint32_t kRayStart = 0xffd23c; // yellow
inline constexpr std::uint32_t kRayEnd = 0xff8c28;   // orange
inline constexpr std::uint32_t kSegmentA = 0x5ad2ff; // sky
inline constexpr std::uint32_t kSegmentB = 0xff6ad2; // pink

/// Where most ray queries' ray starts and ends (t = 1), through a shape near the origin.
inline constexpr glm::vec3 kRayOrigin{-2.1f, 1.0f, 0.4f};
inline constexpr glm::vec3 kRayEndPoint{2.3f, -0.5f, -0.3f};

/// The lab's own mesh (a bad one is a bug, not input: std::logic_error).
std::shared_ptr<const MeshShape> makeMesh(std::string source, std::vector<glm::vec3> vertices,
                                          std::vector<std::uint32_t> indices);
/// A shape of `kind` in the pose, its size and mesh left to the caller.
LabShape shapeOf(LabShapeKind kind, std::string name, glm::vec3 position, glm::quat orientation,
                 std::uint32_t color);

/// Rotations about the world x, then y, then z axis: q = qz qy qx (as scenarios' euler_deg).
glm::quat eulerDeg(float x, float y, float z);

LabShape sphere(std::string name, glm::vec3 position, float radius, std::uint32_t color);
LabShape box(std::string name, glm::vec3 position, glm::vec3 half, glm::quat orientation,
             std::uint32_t color);
/// A triangle (around its centroid, normal +z), a plane (its 5 m patch in the local x-z plane,
/// normal +y) or the ring (a torus: a ray through its hole misses, which its box would not).
LabShape meshShape(LabShapeKind kind, std::string name, glm::vec3 position, glm::quat orientation,
                   std::uint32_t color);

/// The ray's two handles: "origin" (handle 0) and "end" (handle 1, t = 1).
void addRay(LabScene& scene, glm::vec3 origin = kRayOrigin, glm::vec3 end = kRayEndPoint);

/// The query's first shape, A (or the ray's shape); the second, B (A when there is one only).
/// Throw std::out_of_range on a scene without shapes.
const LabShape& shapeA(const LabScene& scene);
const LabShape& shapeB(const LabScene& scene);

} // namespace kz::lab_parts
