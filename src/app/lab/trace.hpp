// The query lab's steps: each query's trace (src/geom's explain functions run on the lab's scene)
// and what of it the picture draws (the layers the panel's checkboxes switch, the SAT axis chosen
// in the panel's table, the BVH step on its slider). No SDL, GL or ImGui: tested without a
// display (tests/app/test_lab.cpp).
#pragma once

#include "app/lab/scene.hpp"
#include "geom/explain_contact.hpp"
#include "geom/explain_contact_convex.hpp"
#include "geom/explain_epa.hpp"
#include "geom/explain_gjk.hpp"
#include "geom/explain_ray.hpp"
#include "geom/explain_shape_cast.hpp"
#include "physics/obstacle.hpp"

#include <array>
#include <optional>

namespace kz {

/// The intermediate steps of the scene's query; only the one of its query is set (by its unit's
/// trace). A query whose trace is of a type none of these holds adds its optional here.
struct LabTrace {
    std::optional<ObbObbTrace> boxBox;       ///< box-box: the 15 axes, the manifold's construction.
    std::optional<RayBoxTrace> rayBox;       ///< ray-box: the three slabs (box frame), the interval.
    std::optional<RaySphereTrace> raySphere; ///< ray-sphere: the quadratic and its roots.
    /// ray-mesh: the BVH traversal in the mesh's own frame (the ray moved into it; t is the world t).
    std::optional<MeshRayTrace> rayMesh;
    std::optional<Obstacle> meshPlacement;   ///< ray-mesh: the ring placed, to draw its boxes.
    std::optional<SphereObbTrace> sphereBox; ///< sphere-box: the region of the box, the closest point.
    std::optional<SphereTriangleTrace> sphereTriangle; ///< sphere-triangle: the triangle's region.
    std::optional<LinePiecesTrace> segments;         ///< segment-segment: s and t, before and after clamping.
    std::optional<SphereTriangleSweepTrace> sweep;   ///< sweep: each feature's candidate time.
    std::optional<RayPlaneTrace> rayPlane;           ///< ray-plane: numerator, denominator, t.
    std::optional<RayTriangleTrace> rayTriangle;     ///< ray-triangle: the shear, the edge functions.
    std::optional<SphereSphereTrace> sphereSphere;   ///< sphere-sphere: the centre line, the radii.
    std::optional<ObbPlaneTrace> boxPlane;           ///< box-plane: each corner's signed distance.
    std::optional<ObbTriangleTrace> boxTriangle;     ///< box-triangle: the 13 axes, the features tried.
    std::optional<GjkTrace> gjk;                     ///< gjk: each iteration's simplex and bounds.
    std::optional<EpaTrace> epa;                     ///< epa: GJK, then each iteration's polytope.
    std::optional<RayCastTrace> rayConvex;           ///< ray-convex: each iteration's point and plane.
    std::optional<ContactConvexTrace> convexContact; ///< convex-convex: the faces, the clipping.
    std::optional<ShapeCastTrace> shapeCast;         ///< shape-cast: each step's time, poses, bound.
};

/// The scene's query run again with its trace (its unit's trace; the ray queries with tMax = 1, as
/// runLabQuery).
LabTrace traceLabQuery(const LabScene& scene);

/// A part of a construction the panel can hide.
enum class LabLayer {
    Answer,        ///< The answer: the ray, hit point and normal, contacts, closest points, impact sphere.
    SatAxis,       ///< box-box: the chosen axis, both projected intervals, the gap or overlap.
    Manifold,      ///< box-box overlapping: the incident face, its clipped polygon and the kept points.
    Slabs,         ///< ray-box: the slab intervals along the ray, the overall interval, the entering face.
    Roots,         ///< ray-sphere: the two roots on the ray, the taken one ringed.
    Bvh,           ///< ray-mesh: the traversal's boxes up to the slider's step, the leaves' triangles.
    Feature,       ///< closest points and the sweep: the feature (face, edge, corner) the point lies on.
    Candidates,    ///< the sweep: the sphere at each candidate time of the features.
    Distances,     ///< ray-plane, box-plane: the signed distances to the plane along its normal.
    EdgeFunctions, ///< ray-triangle: each edge by the sign of its edge function, the barycentric fans.
    Clamping,      ///< segment-segment: the infinite lines, s and t before and after clamping.
    Simplex,       ///< gjk: the cores' difference A - B, the simplex, v and the support points.
    Polytope,      ///< epa: the cores' difference, the polytope, its nearest face, the support point.
    RaySteps,      ///< ray-convex: the point x at each step, the support points, the planes.
    CastSteps,     ///< shape-cast: A at each step's time, the chosen step's closest points and normal.
};
inline constexpr int kLabLayerCount = 15;

/// The checkbox's label: "SAT axis and intervals", ...
const char* labLayerName(LabLayer layer);
/// Whether the query draws the layer (its unit's layers; the panel shows a checkbox for each).
bool labQueryHasLayer(LabQuery query, LabLayer layer);

/// What the panel chose to draw.
struct LabView {
    std::array<bool, kLabLayerCount> shown{true, true, true, true, true, true, true, true,
                                           true, true, true, true, true, true, true}; ///< By LabLayer.
    /// box-box: the axis drawn (0-14, as ObbObbTrace::axes); box-triangle: likewise (0-12, as
    /// ObbTriangleTrace::axes); -1: the separating axis when apart, the axis of least penetration
    /// when overlapping.
    int satAxis = -1;
    /// ray-mesh: the traversal drawn up to and including this event; -1 (or past the end): all.
    int bvhStep = -1;
    /// gjk, epa, ray-convex: the iteration drawn (0 the first); -1 (or past the end): the last.
    int convexStep = -1;

    bool show(LabLayer layer) const { return shown[static_cast<std::size_t>(layer)]; }
};

/// The box-box axis the picture draws: view.satAxis when set, else the separating axis, else the
/// axis of least penetration (0 when neither is known).
int labSatAxis(const ObbObbTrace& trace, const LabView& view);
/// The box-triangle axis the picture draws: view.satAxis when it is one of the 13, else the
/// axis of largest separation (the separating one when apart, the least penetrated when not).
int labBoxTriangleAxis(const ObbTriangleTrace& trace, const LabView& view);
/// The last ray-mesh event drawn (-1 when there are none).
int labBvhLastEvent(const MeshRayTrace& trace, const LabView& view);

} // namespace kz
