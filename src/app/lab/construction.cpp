#include "app/lab/construction.hpp"

#include <algorithm>
#include <cmath>

namespace kz {
namespace {

constexpr glm::vec3 kClippedColor{1.0f, 0.35f, 0.9f};
constexpr glm::vec3 kIncidentColor{0.6f, 0.4f, 0.6f};
constexpr glm::vec3 kRootColor{1.0f, 0.88f, 0.25f};
constexpr glm::vec3 kIntervalColor{0.95f, 0.95f, 0.95f};
constexpr glm::vec3 kFeatureColor{1.0f, 0.95f, 0.3f};
constexpr glm::vec3 kCandidateColor{0.6f, 0.5f, 0.35f};
constexpr float kFarT = 3.0f; ///< Slab intervals are drawn within t in [-kFarT, kFarT].

/// A unit vector across `dir` as the eye sees it (perpendicular to dir and to the view line).
glm::vec3 acrossView(const glm::vec3& dir, const glm::vec3& at, const glm::vec3& eye) {
    glm::vec3 side = glm::cross(dir, eye - at);
    if (glm::dot(side, side) < 1e-12f) side = glm::cross(dir, glm::vec3(0, 1, 0));
    if (glm::dot(side, side) < 1e-12f) side = glm::cross(dir, glm::vec3(1, 0, 0));
    return glm::normalize(side);
}

/// A closed polygon through `points`.
void loop(LabCanvas& canvas, const glm::vec3* points, int count, const glm::vec3& color, bool onTop) {
    for (int i = 0; i < count; ++i)
        canvas.line(points[i], points[(i + 1) % count], color, onTop);
}

/// The part of an oriented box where the axes in `fixed` sit at `sign` * half and the others
/// run free: a face (one fixed), an edge (two), a corner (three, drawn as a ring).
void boxFeature(LabCanvas& canvas, const Obb& box, const glm::bvec3& fixed, const glm::vec3& sign) {
    const auto corner = [&](int bits) {
        glm::vec3 p = box.center;
        for (int k = 0; k < 3; ++k) {
            const float s = fixed[k] ? sign[k] : ((bits >> k) & 1 ? 1.0f : -1.0f);
            p += s * box.half[k] * box.axes[k];
        }
        return p;
    };
    if (fixed.x && fixed.y && fixed.z) {
        const glm::vec3 p = corner(0);
        canvas.circle(p, canvas.eye - p, 2.0f * canvas.markerSize(p), kFeatureColor, true);
        return;
    }
    // Each edge once: from a corner whose fixed axes' bits are clear, along a free axis k.
    int fixedBits = 0;
    for (int k = 0; k < 3; ++k)
        fixedBits |= fixed[k] ? 1 << k : 0;
    for (int bits = 0; bits < 8; ++bits) {
        for (int k = 0; k < 3; ++k) {
            if (!(bits & fixedBits) && !fixed[k] && !((bits >> k) & 1))
                canvas.line(corner(bits), corner(bits | 1 << k), kFeatureColor, true);
        }
    }
}

/// A triangle's vertex (0-2), edge (0 ab, 1 bc, 2 ca) or face lit.
void triangleFeature(LabCanvas& canvas, const Triangle& tri, int vertex, int edge, bool face) {
    const glm::vec3 v[3] = {tri.a, tri.b, tri.c};
    if (vertex >= 0) {
        const glm::vec3& p = v[vertex];
        canvas.circle(p, canvas.eye - p, 2.0f * canvas.markerSize(p), kFeatureColor, true);
    }
    if (edge >= 0) canvas.line(v[edge], v[(edge + 1) % 3], kFeatureColor, true);
    if (face) loop(canvas, v, 3, kFeatureColor, true);
}

/// A mesh box (mesh frame) placed in the world: its 12 edges.
void placedBox(LabCanvas& canvas, const Obstacle& placement, const Aabb& box, const glm::vec3& color,
               bool onTop) {
    const auto corner = [&](int bits) {
        return placement.toWorld(glm::vec3(bits & 1 ? box.max.x : box.min.x, bits & 2 ? box.max.y : box.min.y,
                                           bits & 4 ? box.max.z : box.min.z));
    };
    for (int bits = 0; bits < 8; ++bits) {
        for (int k = 0; k < 3; ++k) {
            if (!((bits >> k) & 1)) canvas.line(corner(bits), corner(bits | 1 << k), color, onTop);
        }
    }
}

/// An interval [lo, hi] along `dir` from `origin`, shifted by `offset`, with end ticks.
void bar(LabCanvas& canvas, const glm::vec3& origin, const glm::vec3& dir, float lo, float hi,
         const glm::vec3& offset, const glm::vec3& color) {
    const glm::vec3 a = origin + lo * dir + offset, b = origin + hi * dir + offset;
    canvas.line(a, b, color, true);
    canvas.line(a - offset, a, color, true);
    canvas.line(b - offset, b, color, true);
}

/// The separating-axis picture: the axis through `origin` along unit `n`, A's interval [a.x, a.y]
/// and B's [b.x, b.y] (measured along n from origin) as bars on either side of it, and the gap
/// (`apart`, green) or the overlap (red) between their facing ends as a band across both bars, so
/// a thin gap still shows.
void intervalsOnAxis(LabCanvas& canvas, const glm::vec3& origin, const glm::vec3& n, const glm::vec2& a,
                     const glm::vec2& b, bool apart) {
    const float lo = std::min(a.x, b.x) - 0.6f, hi = std::max(a.y, b.y) + 0.6f;
    canvas.line(origin + lo * n, origin + hi * n, kLabSatAxisColor, true);
    const glm::vec3 side = acrossView(n, origin, canvas.eye) * (3.0f * canvas.markerSize(origin));
    bar(canvas, origin, n, a.x, a.y, side, kLabIntervalAColor);
    bar(canvas, origin, n, b.x, b.y, -side, kLabIntervalBColor);
    // The facing ends: A's high end and B's low one when B lies further along n, else the reverse.
    const bool bAhead = a.x + a.y <= b.x + b.y;
    const float from = bAhead ? a.y : a.x, to = bAhead ? b.x : b.y;
    const glm::vec3 band = apart ? kLabGapColor : kLabOverlapColor;
    for (const float level : {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f})
        canvas.line(origin + from * n + level * side, origin + to * n + level * side, band, true);
}

/// The manifold's construction: the two edges and their closest points, or the incident face,
/// its clipped polygon, the kept points and the reference face's normal.
void drawManifoldSteps(const ObbManifoldTrace& m, LabCanvas& canvas) {
    if (m.usedEdge && m.edgeClosest) {
        canvas.line(m.segmentA[0], m.segmentA[1], kLabIntervalAColor, true);
        canvas.line(m.segmentB[0], m.segmentB[1], kLabIntervalBColor, true);
        canvas.line(m.edgeClosest->p1, m.edgeClosest->p2, kClippedColor, true);
        return;
    }
    if (m.referenceBox < 0) return;
    loop(canvas, m.incidentFace.data(), 4, kIncidentColor, true);
    loop(canvas, m.clipped.data(), m.clippedCount, kClippedColor, true);
    glm::vec3 mean(0.0f);
    for (int i = 0; i < m.keptCount; ++i) {
        const glm::vec3& p = m.kept[std::size_t(i)].position;
        canvas.circle(p, canvas.eye - p, 1.5f * canvas.markerSize(p), kClippedColor, true);
        mean += p / float(m.keptCount);
    }
    if (m.keptCount > 0) canvas.arrow(mean, mean + 0.4f * m.referenceNormal, kIntervalColor, true);
}

} // namespace

void drawBoxBoxSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.boxBox || scene.shapes.size() < 2) return;
    const ObbObbTrace& trace = *result.trace.boxBox;
    if (!trace.valid) return;
    if (trace.overlap && view.show(LabLayer::Manifold)) drawManifoldSteps(trace.manifold, canvas);
    const SatAxis& axis = trace.axes[std::size_t(labSatAxis(trace, view))];
    if (!view.show(LabLayer::SatAxis) || axis.degenerate || glm::dot(axis.axis, axis.axis) == 0.0f) return;
    // Along the axis from A's centre: A's interval is [-rA, rA], B's is [d - rB, d + rB].
    const glm::vec3 cA = scene.shapes[0].position, n = axis.axis;
    const float d = glm::dot(n, scene.shapes[1].position - cA);
    intervalsOnAxis(canvas, cA, n, {-axis.radiusA, axis.radiusA}, {d - axis.radiusB, d + axis.radiusB},
                    axis.separation > 0.0f);
}

void drawRayBoxSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.rayBox || !view.show(LabLayer::Slabs) || scene.shapes.empty()) return;
    const RayBoxTrace& trace = *result.trace.rayBox;
    if (trace.reason == RayBoxReason::InvalidInput) return;
    const Ray ray = labRay(scene);
    const glm::vec3 dir = glm::normalize(ray.dir);
    const glm::vec3 across = acrossView(dir, ray.origin, canvas.eye);
    for (int i = 0; i < 3; ++i) {
        const SlabInterval& slab = trace.slabs[std::size_t(i)];
        const float t0 = std::clamp(slab.tEnter, -kFarT, kFarT), t1 = std::clamp(slab.tExit, -kFarT, kFarT);
        if (slab.kind != SlabKind::Crossing || !(t0 < t1)) continue;
        const glm::vec3 a = ray.origin + t0 * ray.dir, b = ray.origin + t1 * ray.dir;
        canvas.line(a, b, kLabSlabColors[i], true);
        // Ticks of growing length tell the slabs' ends apart where they meet.
        const glm::vec3 tick = across * (float(i + 1) * 1.5f * canvas.markerSize(a));
        canvas.line(a - tick, a + tick, kLabSlabColors[i], true);
        canvas.line(b - tick, b + tick, kLabSlabColors[i], true);
        // A copy beside the ray, one row per slab, where the three do not hide one another.
        const glm::vec3 row = -across * (float(i + 1) * 2.5f * canvas.markerSize(a));
        canvas.line(a + row, b + row, kLabSlabColors[i], true);
    }
    if (trace.tEnter <= trace.tExit && std::isfinite(trace.tEnter) && std::isfinite(trace.tExit)) {
        const glm::vec3 a = ray.origin + trace.tEnter * ray.dir, b = ray.origin + trace.tExit * ray.dir;
        const glm::vec3 offset = across * (6.0f * canvas.markerSize(a));
        canvas.line(a + offset, b + offset, kIntervalColor, true);
        canvas.line(a, a + offset, kIntervalColor, true);
        canvas.line(b, b + offset, kIntervalColor, true);
    }
    if (trace.enteringAxis >= 0) {
        const Obb box = labObb(scene.shapes[0]);
        glm::bvec3 fixed(false);
        fixed[trace.enteringAxis] = true;
        glm::vec3 sign(1.0f);
        sign[trace.enteringAxis] = trace.enteringFace;
        boxFeature(canvas, box, fixed, sign);
    }
}

void drawRaySphereSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                        LabCanvas& canvas) {
    if (!result.trace.raySphere || !view.show(LabLayer::Roots) || scene.shapes.empty()) return;
    const RaySphereTrace& trace = *result.trace.raySphere;
    if (trace.reason == RaySphereReason::InvalidInput) return;
    const Ray ray = labRay(scene);
    const glm::vec3 centre = scene.shapes[0].position;
    // The line's point nearest the centre, at s = -b: the discriminant is r^2 minus its distance^2.
    const glm::vec3 foot = ray.origin - trace.b * trace.unitDir;
    canvas.line(centre, foot, kIntervalColor, true);
    if (!trace.realRoots) return;
    const glm::vec3 roots[2] = {ray.origin + trace.tNear * ray.dir, ray.origin + trace.tFar * ray.dir};
    for (const glm::vec3& p : roots)
        canvas.cross(p, kRootColor);
    const bool inside = trace.reason == RaySphereReason::InsideStart;
    if (trace.reason == RaySphereReason::NearRoot || inside) {
        const glm::vec3 taken = inside ? ray.origin : roots[0];
        canvas.circle(taken, canvas.eye - taken, 2.5f * canvas.markerSize(taken), kRootColor, true);
    }
}

void drawRayPlaneSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                       LabCanvas& canvas) {
    if (!result.trace.rayPlane || !view.show(LabLayer::Distances) || scene.shapes.empty()) return;
    const RayPlaneTrace& trace = *result.trace.rayPlane;
    if (trace.reason == RayPlaneReason::InvalidInput) return;
    const Ray ray = labRay(scene);
    const Plane plane = labPlane(scene.shapes[0]);
    const glm::vec3 n = glm::normalize(plane.normal);
    const float scale = glm::length(plane.normal);
    // The origin's distance: the numerator is minus its signed distance (times |n|), so the foot
    // lies numerator / |n| along the normal; the approach per unit of t is denominator / |n|.
    const glm::vec3 foot = ray.origin + (trace.numerator / scale) * n;
    const glm::vec3 side = acrossView(n, ray.origin, canvas.eye) * (2.0f * canvas.markerSize(ray.origin));
    canvas.line(ray.origin, foot, kLabNumeratorColor, true);
    canvas.cross(foot, kLabNumeratorColor);
    canvas.arrow(ray.origin + side, ray.origin + side + (trace.denominator / scale) * n, kLabDenominatorColor,
                 true);
    canvas.arrow(foot, foot + 0.5f * n, kLabNumeratorColor, true);
}

void drawRayTriangleSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                          LabCanvas& canvas) {
    if (!result.trace.rayTriangle || !view.show(LabLayer::EdgeFunctions) || scene.shapes.empty()) return;
    const RayTriangleTrace& trace = *result.trace.rayTriangle;
    if (trace.reason == RayTriangleReason::InvalidInput ||
        trace.reason == RayTriangleReason::NonFiniteTriangle)
        return;
    const Triangle tri = labTriangle(scene.shapes[0]);
    const glm::vec3 v[3] = {tri.a, tri.b, tri.c};
    // u, v, w are the edge functions of the edges opposite a, b, c: b-c, c-a, a-b. The line passes
    // inside an edge when its function has det's sign (or is zero).
    const double weights[3] = {trace.u, trace.v, trace.w};
    const double sign = trace.det < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; ++i) {
        const bool inside = weights[i] * sign >= 0.0;
        canvas.line(v[(i + 1) % 3], v[(i + 2) % 3], inside ? kLabEdgeInsideColor : kLabEdgeOutsideColor,
                    true);
    }
    if (!(std::abs(trace.det) > trace.detError)) return; // no area seen along the ray: no crossing
    // Where the ray's line crosses the plane: the vertices weighted by u, v, w over det.
    const glm::dvec3 p =
        (trace.u * glm::dvec3(tri.a) + trace.v * glm::dvec3(tri.b) + trace.w * glm::dvec3(tri.c)) / trace.det;
    const glm::vec3 crossing(p);
    canvas.cross(crossing, kLabNumeratorColor);
    for (const glm::vec3& corner : v)
        canvas.line(crossing, corner, kLabNumeratorColor * 0.6f, true);
}

void drawSphereSphereSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                           LabCanvas& canvas) {
    if (!result.trace.sphereSphere || !view.show(LabLayer::SatAxis) || scene.shapes.size() < 2) return;
    const SphereSphereTrace& trace = *result.trace.sphereSphere;
    if (!trace.valid || !(trace.distance > 0.0f)) return; // concentric: no line
    // Along the centre line from A toward B: A is [-rA, rA] about 0, B [d - rB, d + rB].
    const Sphere a = labSphere(scene.shapes[0]), b = labSphere(scene.shapes[1]);
    const glm::vec3 n = -trace.offset / trace.distance;
    intervalsOnAxis(canvas, a.center, n, {-a.radius, a.radius},
                    {trace.distance - b.radius, trace.distance + b.radius}, !trace.overlap);
}

void drawBoxPlaneSteps(const LabScene&, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.boxPlane || !view.show(LabLayer::Distances)) return;
    const ObbPlaneTrace& trace = *result.trace.boxPlane;
    if (!trace.valid) return;
    for (std::size_t i = 0; i < 8; ++i) {
        const glm::vec3& corner = trace.corners[i];
        const glm::vec3 foot = corner - trace.distance[i] * trace.normal;
        const bool touching = trace.distance[i] <= 0.0f;
        const glm::vec3 color = touching ? kLabCornerTouchingColor : kLabCornerFrontColor;
        canvas.line(corner, foot, color, true);
        canvas.cross(foot, color);
    }
}

void drawBoxTriangleSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                          LabCanvas& canvas) {
    if (!result.trace.boxTriangle || !view.show(LabLayer::SatAxis) || scene.shapes.empty()) return;
    const ObbTriangleTrace& trace = *result.trace.boxTriangle;
    if (!trace.valid) return;
    const ObbTriangleAxis& axis = trace.axes[std::size_t(labBoxTriangleAxis(trace, view))];
    if (axis.skipped || glm::dot(axis.axis, axis.axis) == 0.0f) return;
    // From the box centre along the axis: the box is [-r, r], the triangle [min, max] behind it.
    intervalsOnAxis(canvas, scene.shapes[0].position, axis.axis, {-axis.boxRadius, axis.boxRadius},
                    {axis.triangleMin, axis.triangleMax}, axis.separation > 0.0f);
}

void drawSegmentSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                      LabCanvas& canvas) {
    if (!result.trace.segments || !view.show(LabLayer::Clamping) || scene.handles.size() < 4) return;
    const LinePiecesTrace& trace = *result.trace.segments;
    if (!trace.valid) return;
    const glm::vec3 p1 = scene.handles[0].position, d1 = scene.handles[1].position - p1;
    const glm::vec3 p2 = scene.handles[2].position, d2 = scene.handles[3].position - p2;
    // The infinite lines, far enough to show the unclamped points.
    const auto line = [&](const glm::vec3& p, const glm::vec3& d, float unclamped) {
        const float lo = std::max(std::min(0.0f, unclamped), -kFarT) - 0.3f;
        const float hi = std::min(std::max(1.0f, unclamped), kFarT) + 0.3f;
        canvas.line(p + lo * d, p + hi * d, kCandidateColor);
    };
    line(p1, d1, trace.sUnclamped);
    line(p2, d2, trace.tUnclamped);
    // Each parameter before and after its clamp: a cross where it was, an arrow to where it went.
    const auto step = [&](const glm::vec3& p, const glm::vec3& d, float before, float after, bool clamped) {
        if (!std::isfinite(before) || std::abs(before) > kFarT) return;
        canvas.cross(p + before * d, kRootColor);
        if (clamped) canvas.arrow(p + before * d, p + after * d, kRootColor, true);
    };
    step(p1, d1, trace.sUnclamped, trace.sFirst, trace.sClamped);
    step(p2, d2, trace.tUnclamped, trace.tFinal, trace.tClamped);
    if (trace.tClamped && (trace.kind == LinePiecesCase::Parallel || trace.kind == LinePiecesCase::Skew))
        step(p1, d1, trace.sFirst, trace.sAgain, trace.sAgain != trace.sFirst);
}

void drawRayMeshSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                      LabCanvas& canvas) {
    const LabTrace& trace = result.trace;
    if (!trace.rayMesh || !trace.meshPlacement || !view.show(LabLayer::Bvh)) return;
    const Obstacle& placement = *trace.meshPlacement;
    const Ray ray = labRay(scene);
    const int last = labBvhLastEvent(*trace.rayMesh, view);
    for (int i = 0; i <= last; ++i) {
        const BvhEvent& event = trace.rayMesh->events[std::size_t(i)];
        const bool current = i == last;
        switch (event.kind) {
        case BvhEventKind::Entered:
            placedBox(canvas, placement, event.box, kLabBvhEnteredColor, current);
            break;
        case BvhEventKind::Culled:
            placedBox(canvas, placement, event.box, kLabBvhCulledColor, current);
            break;
        case BvhEventKind::Skipped:
            placedBox(canvas, placement, event.box, kLabBvhSkippedColor, current);
            break;
        case BvhEventKind::LeafTested:
            for (std::uint32_t k = 0; k < event.triangleCount && k < event.triangles.size(); ++k) {
                const Triangle tri = placement.worldTriangle(event.triangles[k]);
                const glm::vec3 v[3] = {tri.a, tri.b, tri.c};
                loop(canvas, v, 3, kLabLeafColor, current);
            }
            break;
        case BvhEventKind::NewBestHit:
            canvas.cross(ray.origin + event.t * ray.dir, kRootColor);
            break;
        }
    }
}

void drawClosestSteps(const LabScene& scene, const LabResult& result, const LabView& view,
                      LabCanvas& canvas) {
    if (!view.show(LabLayer::Feature) || scene.shapes.size() < 2) return;
    if (const auto& trace = result.trace.sphereBox;
        trace && trace->valid && trace->region != BoxRegion::Inside) {
        const glm::bvec3 fixed = glm::greaterThan(trace->excess, glm::vec3(0.0f));
        const glm::vec3 sign = glm::sign(trace->centreInBox);
        boxFeature(canvas, labObb(scene.shapes[1]), fixed, sign);
    }
    if (const auto& trace = result.trace.sphereTriangle; trace && trace->valid) {
        const auto feature = static_cast<int>(trace->closestPoint.feature);
        triangleFeature(canvas, labTriangle(scene.shapes[1]), feature <= 2 ? feature : -1,
                        feature >= 3 && feature <= 5 ? feature - 3 : -1,
                        trace->closestPoint.feature == TriangleFeature::Face);
    }
}

void drawSweepSteps(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas) {
    if (!result.trace.sweep || scene.shapes.size() < 2 || scene.handles.empty()) return;
    const SphereTriangleSweepTrace& trace = *result.trace.sweep;
    const Sphere start = labSphere(scene.shapes[0]);
    const glm::vec3 motion = scene.handles[0].position - start.center;
    if (view.show(LabLayer::Feature)) {
        triangleFeature(canvas, labTriangle(scene.shapes[1]),
                        trace.winner == SweepFeature::Corner ? trace.winnerIndex : -1,
                        trace.winner == SweepFeature::Edge ? trace.winnerIndex : -1,
                        trace.winner == SweepFeature::Face);
    }
    if (!view.show(LabLayer::Candidates)) return;
    const auto outline = [&](const SweepCandidate& c) {
        if (c.status != SweepCandidateStatus::NotEarlier && c.status != SweepCandidateStatus::BestSoFar)
            return;
        const glm::vec3 centre = start.center + c.t * motion;
        canvas.circle(centre, canvas.eye - centre, start.radius, kCandidateColor);
    };
    outline(trace.face);
    for (const SweepCandidate& c : trace.edges)
        outline(c);
    for (const SweepCandidate& c : trace.corners)
        outline(c);
}

} // namespace kz
