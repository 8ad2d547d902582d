// Internal to the lab's drawing (draw.cpp's table): each query's steps drawn from its trace
// (LabResult::trace), as LabView's layers show them. Defined in construction.cpp.
#pragma once

#include "app/lab/draw.hpp"

namespace kz {

using DrawSteps = void (*)(const LabScene&, const LabResult&, const LabView&, LabCanvas&);

/// box-box: the chosen axis through A's centre, A's and B's projected intervals as bars beside it,
/// the gap (apart) or the overlap on it; overlapping, the incident face, its clipped polygon and
/// the kept points (or the two edges and their closest points).
void drawBoxBoxSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);
/// ray-box: each crossing slab's [tEnter, tExit] on the ray in its colour, the overall interval
/// beside the ray, the entering face outlined.
void drawRayBoxSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);
/// ray-sphere: both roots on the ray, the taken one ringed; the centre's perpendicular to the line.
void drawRaySphereSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                        LabCanvas& canvas);
/// ray-plane: along the normal from the origin, its distance to the plane (numerator) beside
/// the ray's approach per unit of t (denominator): t is their ratio; the foot on the plane.
void drawRayPlaneSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                       LabCanvas& canvas);
/// ray-triangle: each edge coloured by the sign of its edge function, the point where the ray's
/// line crosses the triangle's plane, and the fan from it to the vertices (the barycentric areas).
void drawRayTriangleSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                          LabCanvas& canvas);
/// sphere-sphere: the centre line (the one axis that can separate spheres), both radii as bars on
/// it, the gap or overlap.
void drawSphereSphereSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                           LabCanvas& canvas);
/// box-plane: each corner's signed distance as a stroke to the plane, by its sign.
void drawBoxPlaneSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                       LabCanvas& canvas);
/// box-triangle: the chosen of the 13 axes, the box's and the triangle's projected intervals on it.
void drawBoxTriangleSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                          LabCanvas& canvas);
/// segment-segment: both infinite lines, the lines' closest points (s, t before clamping) and
/// an arrow from each to where clamping moved it.
void drawSegmentSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);
/// ray-mesh: the traversal's events 0..labBvhLastEvent: boxes by kind, the tested leaves'
/// triangles, each new best hit; the last event over everything.
void drawRayMeshSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);
/// sphere-box, sphere-triangle: the feature (face, edge, corner) the closest point lies on.
void drawClosestSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);
/// The sweep: the winning feature lit, the sphere's outline at each other candidate time.
void drawSweepSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);

} // namespace kz
