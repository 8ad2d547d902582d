// Traces of the ray queries: each explain... function returns the intermediate steps of its fast
// query (raycast.hpp, MeshBvh::raycast) as plain structs, for the query lab and `kolize explain`.
//
// A trace's result is always the fast query's result, bit for bit (tested on random cases): the
// ray-sphere, ray-box and ray-plane traces repeat their query's arithmetic expression by
// expression; the triangle and mesh traces run the very code of the fast path (WatertightRay's
// step-recording instantiation, MeshBvh's traversal with an observer), so they cannot drift.
// The fast queries are unchanged: they never pay for a trace.
//
// Fields a query never reached (its input was invalid, or it stopped earlier) are 0, except
// where a field says otherwise. No function here allocates, except MeshBvh::explainRaycast (its
// event list). Nothing throws.
#pragma once

#include "mesh_bvh.hpp"
#include "raycast.hpp"
#include "types.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace kz {

// ------------------------------------------------------------------------------- ray-sphere

/// Which root of the sphere's quadratic the ray takes, and why; in the order the fast path decides.
enum class RaySphereReason {
    NearRoot,             ///< Hit at the near root tNear, the ray's entry.
    InsideStart,          ///< c <= 0: the origin is inside or on the surface, hit at t = 0 (the
                          ///< contract for solids); tFar, the exit root, is where the ray leaves.
    BehindOrigin,         ///< Outside and b >= 0: the ray moves away, both roots are <= 0.
    NegativeDiscriminant, ///< The line passes farther than r from the centre: no real root.
    BeyondTMax,           ///< The near root lies beyond tMax.
    NonFiniteResult,      ///< The hit point or normal overflowed: no hit (the contract's last guard).
    InvalidInput,         ///< An invalid ray, sphere or tMax: nothing computed.
};

/// The steps of raycast(Ray, Sphere): |m + s u|^2 = r^2 with m = origin - centre, u = dir / |dir|
/// and s = t |dir| (metres along the ray), i.e. a s^2 + 2 b s + c = 0.
struct RaySphereTrace {
    RaySphereReason reason; ///< Which root is taken and why.
    glm::vec3 m;            ///< origin - centre.
    float dirLength;        ///< |dir|; t = s / |dir|.
    glm::vec3 unitDir;      ///< u = dir / |dir|: a unit direction keeps huge and tiny dirs exact.
    float a;                ///< 1, the coefficient of s^2 (u is unit): 0 only for invalid input.
    float b;                ///< dot(m, u), half the coefficient of s (the "half-b" form).
    float c;                ///< |m|^2 - r^2: < 0 inside, 0 on the surface, > 0 outside.
    /// b^2 - c, computed as r^2 - |m - b u|^2 (the centre's perpendicular distance to the line),
    /// which keeps its precision when |m| >> r (Haines et al., Ray Tracing Gems ch. 7).
    float discriminant;
    bool realRoots; ///< discriminant >= 0; the roots below are 0 when false.
    float sNear;    ///< Near root in metres: c / (-b + sqrt(discriminant)) for b <= 0 (no cancellation).
    float sFar;     ///< Far root in metres: -b + sqrt(discriminant) for b <= 0, else c / sNear.
    float tNear;    ///< sNear / |dir|, in units of dir (the fast path's t when it takes it).
    float tFar;     ///< sFar / |dir|, in units of dir; the exit for an inside start.
    float tMax;     ///< The query's limit.
    std::optional<RayHit> result; ///< Exactly raycast(ray, sphere, tMax).
};

/// raycast(ray, sphere, tMax) with its steps. Every field is computed even where the fast path
/// stops early (an inside start still shows both roots), except for invalid input.
RaySphereTrace explainRaycast(const Ray& ray, const Sphere& sphere, float tMax = INFINITY);

// ------------------------------------------------------------------------------- ray-box

/// How the ray meets one slab (the space between two parallel faces of the box).
enum class SlabKind {
    Crossing, ///< dir has a component along the axis: the ray is between the faces for t in [tEnter, tExit].
    ParallelInside,  ///< dir has no component along it and the origin is between the faces: always inside.
    ParallelOutside, ///< dir has no component along it and the origin is outside the faces: never inside.
};

/// One slab of the slab test (Kay-Kajiya; Ericson 5.3.3), in the box's frame.
struct SlabInterval {
    glm::vec3 axis; ///< The slab's axis in the world frame: e_i for an Aabb, column i of Obb::axes.
    float lo;       ///< The face at the low end, box frame: Aabb min[i], Obb -half[i].
    float hi;       ///< The face at the high end: Aabb max[i], Obb +half[i].
    float origin;   ///< The ray origin's coordinate along the axis, box frame.
    float dir;      ///< dir's component along the axis, box frame; exactly 0 means parallel.
    SlabKind kind;  ///< Crossing, or parallel inside / outside.
    /// Crossing: min of (lo - origin) / dir and (hi - origin) / dir, negative when the slab starts
    /// behind the origin, +-infinity when the division overflows; parallel: -infinity inside,
    /// +infinity outside (an empty interval).
    float tEnter;
    float tExit; ///< Crossing: the max of the two; parallel: +infinity inside, -infinity outside.
};

/// Why the ray hits or misses the box; in the order the fast path decides.
enum class RayBoxReason {
    Hit,          ///< Entered at tEnter through the face enteringFace * axis of slab enteringAxis.
    InsideStart,  ///< The origin is inside or on the box (or outside by less than the ray resolves:
                  ///< no slab is entered after t = 0): hit at t = 0, normal -normalize(dir).
    MissedBySlab, ///< The intervals have no common t >= 0: slab missSlab emptied it first.
    BeyondTMax,   ///< The ray meets the box, but only beyond tMax (missSlab is where the fast path saw it).
    NonFiniteResult, ///< The hit overflowed: no hit (the contract's last guard).
    InvalidInput,    ///< An invalid ray, box or tMax: nothing computed.
};

/// The steps of raycast(Ray, Aabb) and raycast(Ray, Obb).
struct RayBoxTrace {
    RayBoxReason reason;               ///< Hit, or why not.
    glm::vec3 localOrigin;             ///< The origin in the box frame (Aabb: the origin itself).
    glm::vec3 localDir;                ///< dir in the box frame (Aabb: dir itself).
    std::array<SlabInterval, 3> slabs; ///< The three slabs, x, y, z of the box frame, all computed.
    /// The overall interval's start: max(0, every slab's tEnter); +infinity when a parallel slab
    /// is outside.
    float tEnter;
    /// The overall interval's end: min(tMax, every slab's tExit); the ray is in the box for t in
    /// [tEnter, tExit] when tEnter <= tExit.
    float tExit;
    int enteringAxis;   ///< The slab whose entry is tEnter (the first on a tie), or -1 (inside, or a miss).
    float enteringFace; ///< -1: entered through the face at lo (dir > 0), +1: at hi; 0 with no axis.
    int missSlab;       ///< The slab at which the fast path's running interval became empty, or -1.
    float tMax;         ///< The query's limit.
    std::optional<RayHit> result; ///< Exactly raycast(ray, box, tMax).
};

/// raycast(ray, box, tMax) with its steps.
RayBoxTrace explainRaycast(const Ray& ray, const Aabb& box, float tMax = INFINITY);
/// raycast(ray, box, tMax) with its steps, the slabs in the box's frame.
RayBoxTrace explainRaycast(const Ray& ray, const Obb& box, float tMax = INFINITY);

// ------------------------------------------------------------------------------- ray-plane

/// Why the ray hits or misses the plane; in the order the fast path decides.
enum class RayPlaneReason {
    Hit,             ///< t = numerator / denominator in [0, tMax].
    Parallel,        ///< |denominator| <= parallelLimit: the ray runs along the plane (even in it).
    BehindOrigin,    ///< t < 0: the plane lies behind the origin.
    BeyondTMax,      ///< t > tMax.
    NonFiniteResult, ///< The hit overflowed: no hit.
    InvalidInput,    ///< An invalid ray, plane or tMax: nothing computed.
};

/// The steps of raycast(Ray, Plane): dot(n, o + t d) + d0 = 0, t = -(dot(n, o) + d0) / dot(n, d).
struct RayPlaneTrace {
    RayPlaneReason reason; ///< Hit, or why not.
    float denominator;     ///< dot(n, dir): < 0 the ray runs against the normal (meets the front side).
    float parallelLimit;   ///< kParallelCosine |n| |dir|: a |denominator| at or below it is parallel.
    bool facing;           ///< denominator < 0: the ray meets the plane's front side (the normal's side).
    float numerator;       ///< -(dot(n, origin) + d): minus the origin's signed distance (times |n|).
    float t;               ///< numerator / denominator; 0 when parallel.
    float tMax;            ///< The query's limit.
    std::optional<RayHit> result; ///< Exactly raycast(ray, plane, tMax).
};

/// raycast(ray, plane, tMax) with its steps.
RayPlaneTrace explainRaycast(const Ray& ray, const Plane& plane, float tMax = INFINITY);

// ------------------------------------------------------------------------------- ray-triangle

/// Why the watertight test accepts or rejects the triangle; in the order it decides.
enum class RayTriangleReason {
    Hit,               ///< Inside every edge, in front of the origin, within tMax.
    OutsideAnEdge,     ///< U, V, W have mixed signs: the ray passes outside an edge.
    BelowRounding,     ///< |det| is not above its rounding bound: no area, as seen along the ray.
    NonFiniteTriangle, ///< A vertex is NaN or infinite.
    ZeroArea,          ///< The face normal has no length (or overflows).
    Parallel,          ///< |dot(face normal, dir)| <= kParallelCosine |normal| |dir|.
    BehindOrigin,      ///< t < 0.
    BeyondTMax,        ///< t > tMax (also after rounding t to float).
    NonFiniteResult,   ///< A result field is not finite.
    InvalidInput,      ///< An invalid ray or tMax: nothing computed.
};

/// The steps of the watertight ray-triangle test (Woop, Benthin, Wald, JCGT 2013) as
/// detail::WatertightRay runs it: vertices moved to the origin and sheared so that the ray is the
/// +z axis, then three 2D edge functions, in double.
struct RayTriangleTrace {
    RayTriangleReason reason; ///< Hit, or the first rejection.
    int ix;                   ///< Shear frame x: the axis after iz (or before it when dir[iz] < 0).
    int iy;                   ///< Shear frame y: the remaining axis (swapped with ix to keep the winding).
    int iz;                   ///< Shear frame z: dir's largest |component| (the first on a tie).
    glm::dvec3 shear;         ///< (dir[ix] / dir[iz], dir[iy] / dir[iz], 1 / dir[iz]).
    /// a, b, c minus the origin, sheared: x, y the 2D position seen along the ray, z the depth
    /// along axis iz (not yet scaled by shear.z).
    std::array<glm::dvec3, 3> sheared;
    double u;                       ///< Edge function of edge b-c (the weight of a, times det).
    double v;                       ///< Edge function of edge c-a (the weight of b, times det).
    double w;                       ///< Edge function of edge a-b (the weight of c, times det).
    double det;                     ///< u + v + w: twice the signed area of the sheared triangle.
    double detError;                ///< The bound on det's rounding; |det| must exceed it.
    glm::vec3 faceNormal;           ///< cross(b - a, c - a), not normalised.
    float dirDotNormal;             ///< dot(faceNormal, dir); > 0 flips the hit's normal to face the origin.
    float parallelLimit;            ///< kParallelCosine |faceNormal| |dir|.
    double t;                       ///< (u az + v bz + w cz) shear.z / det, before rounding to float.
    glm::dvec3 barycentric;         ///< (u, v, w) / det: the weights of a, b, c.
    float tMax;                     ///< The query's limit.
    std::optional<TriangleHit> hit; ///< Exactly raycastBarycentric(ray, tri, tMax).
    std::optional<RayHit> result;   ///< Exactly raycast(ray, tri, tMax).
};

/// raycastBarycentric and raycast(Ray, Triangle) with their steps.
RayTriangleTrace explainRaycastTriangle(const Ray& ray, const Triangle& tri, float tMax = INFINITY);

// ------------------------------------------------------------------------------- mesh BVH

/// What happened at one step of MeshBvh's ray traversal.
enum class BvhEventKind {
    Entered,    ///< A child (inner node or leaf) is taken: its box is entered within [0, best hit].
    Culled,     ///< A child's box is not entered within [0, tMax] (a slab miss): never visited.
    Skipped,    ///< A child's box is entered, but beyond the best hit so far: never visited.
    LeafTested, ///< A leaf's triangles were tested (after its Entered event).
    NewBestHit, ///< A triangle of the leaf just tested is the nearest hit so far.
};

/// One event of the traversal. The root node has no box of its own (a node holds its children's
/// boxes), so it has no event: the trace starts with the root's children.
struct BvhEvent {
    BvhEventKind kind; ///< What happened.
    bool leaf;         ///< The child is a leaf (LeafTested and NewBestHit: always true).
    /// Where the child (an inner node or a leaf) lies in the tree's memory, in 16-byte units: the
    /// key of a child (a leaf's Entered, LeafTested and NewBestHit events share it).
    std::uint32_t index;
    int depth; ///< Levels below the root in the 8-wide tree: 1 for the root's children.
    /// Entered and Skipped: the entry t of the child's box (enlarged per ray by a tiny slack, so a
    /// hit on its boundary is never missed); NewBestHit: the hit's t; otherwise 0.
    float t;
    float bestT; ///< The best hit's t when the event happened; +infinity before any hit.
    Aabb box;    ///< The child's box as stored (the leaf's for LeafTested and NewBestHit).
    /// LeafTested: the leaf's triangles (1 to MeshBvh::kMaxLeafTriangles); NewBestHit: 1; else 0.
    std::uint32_t triangleCount;
    /// LeafTested: the input indices of the triangles tested, in order; NewBestHit: [0] is the hit
    /// triangle's input index. Unused entries are 0.
    std::array<std::uint32_t, MeshBvh::kMaxLeafTriangles> triangles;
};

/// Counts of a traversal's events. entered + culled + skipped == childrenConsidered.
struct BvhTotals {
    int childrenConsidered; ///< Non-empty child slots of every node visited.
    int entered;            ///< Entered events (inner nodes and leaves).
    int culled;             ///< Culled events.
    int skipped;            ///< Skipped events (at the parent's test or when popped from the stack).
    int leavesTested;       ///< LeafTested events.
    int trianglesTested;    ///< Triangles tested by the watertight test.
    int newBestHits;        ///< NewBestHit events.
};

/// MeshBvh::raycast with its traversal.
struct MeshRayTrace {
    bool validInput;              ///< False for an empty mesh, an invalid ray or tMax: no events.
    std::vector<BvhEvent> events; ///< In the order they happened (allocated: the one trace that does).
    BvhTotals totals;             ///< Counts of the events.
    std::optional<MeshHit> hit;   ///< Exactly MeshBvh::raycast(ray, tMax).
};

} // namespace kz
