// Internal to the lab's drawing (lab_draw.cpp's table): each query's steps drawn from its trace
// (LabResult::trace), as LabView's layers show them. Defined in lab_construction.cpp.
#pragma once

#include "app/lab_draw.hpp"

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
/// ray-mesh: the traversal's events 0..labBvhLastEvent: boxes by kind, the tested leaves'
/// triangles, each new best hit; the last event over everything.
void drawRayMeshSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);
/// sphere-box, sphere-triangle: the feature (face, edge, corner) the closest point lies on.
void drawClosestSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);
/// The sweep: the winning feature lit, the sphere's outline at each other candidate time.
void drawSweepSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);

} // namespace kz
