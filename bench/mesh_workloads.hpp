// The workloads of bench_mesh: a few triangle meshes and, for each workload, one mesh and one set
// of rays (origin, unit direction, tMax) to cast at it. Pure data, generated once on first use
// from fixed seeds, so every engine (and any peer measured outside this repository) sees the same
// triangles and the same rays in the same order.
//
// Meshes (vertices and 3 indices a triangle):
//   torus500k    a bumpy torus in the xy plane: major radius 1, minor radius 0.35 modulated by a
//                few sinusoids and a small radial jitter; a watertight grid of 1000 x 250 quads
//                with shared, wrapped vertices (250,000 vertices, 500,000 triangles).
//   sphere1.5M   a closed, displaced sphere of radius 1: a cube's six faces, each a grid of
//                354 x 354 quads, pushed out onto the sphere (the tangent warp that evens the cells
//                out), radius modulated by a few sinusoids and a small hashed jitter; 1,503,792
//                triangles. Seam vertices are repeated per face with bit-identical coordinates
//                (each is a function of its integer point on the cube's lattice), so the surface
//                is watertight.
//   needles480k  a slightly twisted tube of long thin triangles: radius 1, height 4, 13 rings of
//                20,000 vertices (12 rows of quads), each ring turned by 0.02 radians (64 columns)
//                from the one below, so every triangle is a sliver about 0.33 long and 0.0003
//                wide (1,000:1) leaning by 3.4 degrees, its box about 65 times as wide as the
//                sliver; open at both ends, 480,000 triangles.
//
// Workloads (rays have unit directions, so t is a distance; tMax is infinite unless said):
//   torus       torus500k, 1,000,000 "random" rays: from a uniformly random point on a sphere of
//               radius 2 |half extent| around the mesh's bounds toward a uniformly random point
//               of those bounds scaled by 1.1.
//   sphere1.5M  sphere1.5M, 500,000 random rays made the same way.
//   segments    torus500k, the torus workload's rays as finite segments: each ends 85% of the way
//               to its random target point (tMax = 0.85 x the distance to it), so that about half
//               of those whose ray meets the surface end before it.
//   inside      sphere1.5M, 500,000 rays from uniformly random points inside a ball of radius
//               0.8 (inside the closed surface, whose radius is at least 0.9) in uniformly random
//               directions: every ray hits the far wall from inside.
//   camera      torus500k, a pinhole camera 3.2 from the torus's centre, 40 degrees above its
//               plane, looking at the centre with a 50 degree vertical field of view: one ray per
//               pixel centre of 1024 x 768 pixels (786,432), in 8 x 8 tiles, tiles and the pixels
//               in a tile in scanline order, so neighbouring rays are coherent.
//   needles     needles480k, 200,000 random rays made as for torus.
//   misses      torus500k, the torus workload's 1,000,000 rays turned around (from the same
//               origins, away from their targets): none meets the mesh's bounds, so a query
//               costs its set-up and the root node's test: the fixed cost of a query, as when a
//               scene casts each ray at every mesh it holds.
#pragma once

#include "geom/types.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace kz::bench {

struct Mesh {
    std::vector<glm::vec3> vertices;
    std::vector<std::uint32_t> indices; ///< 3 a triangle.
    std::size_t triangles() const { return indices.size() / 3; }
};

enum class MeshId { Torus, Sphere, Needles };
inline constexpr MeshId kMeshes[] = {MeshId::Torus, MeshId::Sphere, MeshId::Needles};

enum class WorkloadId { Torus, Sphere, Segments, Inside, Camera, Needles, Misses };
inline constexpr WorkloadId kWorkloads[] = {WorkloadId::Torus,  WorkloadId::Sphere,  WorkloadId::Segments,
                                            WorkloadId::Inside, WorkloadId::Camera,  WorkloadId::Needles,
                                            WorkloadId::Misses};

/// The rays of one workload, in the order they are cast.
struct RaySet {
    std::vector<Ray> rays;    ///< Unit directions.
    std::vector<float> tMaxs; ///< One per ray, or empty: every tMax is infinite.
    float tMax(std::size_t i) const { return tMaxs.empty() ? INFINITY : tMaxs[i]; }
    std::size_t size() const { return rays.size(); }
};

/// The name used in benchmark names, e.g. "torus500k".
const char* meshName(MeshId id);
/// The mesh, generated on first use (not thread-safe on that first call).
const Mesh& mesh(MeshId id);
/// mesh(id).triangles(), known without generating the mesh.
std::size_t triangleCount(MeshId id);

/// The name used in benchmark names, e.g. "segments".
const char* workloadName(WorkloadId id);
MeshId workloadMesh(WorkloadId id);
/// The workload's rays, generated on first use (not thread-safe on that first call).
const RaySet& raySet(WorkloadId id);
/// raySet(id).size(), known without generating the rays.
std::size_t rayCount(WorkloadId id);

/// The bounds of all the mesh's vertices.
Aabb meshBounds(const Mesh& m);

} // namespace kz::bench
