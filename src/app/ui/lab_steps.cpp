#include "app/ui/lab_steps.hpp"

#include "app/lab/draw.hpp"

#include <cmath>
#include <cstdio>
#include <imgui.h>
#include <initializer_list>

namespace kz {
namespace {

const ImVec4 kPositiveText{1.0f, 0.35f, 0.3f, 1.0f};
const ImVec4 kNegativeText{0.4f, 0.95f, 0.45f, 1.0f};
const ImVec4 kChosenText{0.85f, 0.55f, 1.0f, 1.0f};

ImVec4 imColor(const glm::vec3& c) {
    return ImVec4(c.r, c.g, c.b, 1.0f);
}

/// A line in the verdict's colour: red when `positive` (hit, overlap), green otherwise.
template <class... Args>
void verdictText(bool positive, const char* format, Args... args) {
    ImGui::TextColored(positive ? kPositiveText : kNegativeText, format, args...);
}

const char* satKind(SatAxisKind kind) {
    return kind == SatAxisKind::FaceA ? "face A" : kind == SatAxisKind::FaceB ? "face B" : "edge";
}

/// An axis table: its header row; each row then starts with axisRow.
bool beginAxisTable(const char* id, std::initializer_list<const char*> headers) {
    ImGui::TextDisabled("click an axis to draw it (* decides)");
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable(id, int(headers.size()), flags)) return false;
    for (const char* header : headers)
        ImGui::TableSetupColumn(header);
    ImGui::TableHeadersRow();
    return true;
}

/// An axis table's row i: its index and kind, starred and coloured when it decides the verdict,
/// selected when drawn; a click draws it (a second click goes back to the deciding one).
void axisRow(LabView& view, int i, const char* kind, int drawn, int decides) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    char label[32];
    std::snprintf(label, sizeof label, "%2d %s%s", i, kind, i == decides ? " *" : "");
    if (i == decides) ImGui::PushStyleColor(ImGuiCol_Text, kChosenText);
    if (ImGui::Selectable(label, i == drawn, ImGuiSelectableFlags_SpanAllColumns))
        view.satAxis = i == drawn && view.satAxis == i ? -1 : i;
    if (i == decides) ImGui::PopStyleColor();
}

/// The 15 axes: kind, distance, radii, separation; a click draws that axis.
void boxBoxSteps(LabView& view, const ObbObbTrace& trace) {
    const int drawn = labSatAxis(trace, view);
    const int verdictAxis = trace.overlap ? trace.leastPenetrationAxis : trace.separatingAxis;
    if (beginAxisTable("sat", {"axis", "distance", "rA", "rB", "separation"})) {
        for (int i = 0; i < 15; ++i) {
            const SatAxis& axis = trace.axes[std::size_t(i)];
            axisRow(view, i, satKind(axis.kind), drawn, verdictAxis);
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", double(axis.distance));
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", double(axis.radiusA));
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", double(axis.radiusB));
            ImGui::TableNextColumn();
            verdictText(axis.separation <= 0.0f, "%+.3f%s", double(axis.separation),
                        axis.degenerate ? " (||)" : "");
        }
        ImGui::EndTable();
    }
    const SatAxis& axis = trace.axes[std::size_t(drawn)];
    ImGui::Text("axis %d (%s):", drawn, satKind(axis.kind));
    verdictText(axis.separation <= 0.0f, "separation = distance - rA - rB\n  = %.3f - %.3f - %.3f = %+.3f",
                double(axis.distance), double(axis.radiusA), double(axis.radiusB), double(axis.separation));
    if (!trace.overlap) {
        verdictText(false, "axis %d separates them (gap, green on the axis)", trace.separatingAxis);
        return;
    }
    verdictText(true, "no axis separates: least penetration on axis %d", trace.leastPenetrationAxis);
    const ObbManifoldTrace& m = trace.manifold;
    if (m.usedEdge) {
        ImGui::Text("manifold: the closest points of two edges");
    } else if (m.referenceBox >= 0) {
        ImGui::Text("reference face: box %c axis %d; incident: axis %d", m.referenceBox == 0 ? 'A' : 'B',
                    m.referenceAxis, m.incidentAxis);
        ImGui::Text("clipped polygon: %d points, kept %d (at or below the face)", m.clippedCount,
                    m.keptCount);
    }
}

void rayBoxSteps(const RayBoxTrace& trace) {
    static constexpr const char* kReasons[] = {
        "hit: entered through a face", "inside start: hit at t = 0", "missed: the slab intervals do not meet",
        "beyond the ray's end",        "non-finite result",          "invalid input"};
    ImGui::TextDisabled("slab i: t = (face - origin) / dir, in box frame");
    for (int i = 0; i < 3; ++i) {
        const SlabInterval& slab = trace.slabs[std::size_t(i)];
        ImGui::TextColored(imColor(kLabSlabColors[i]), "%c: [%.3f, %.3f]%s", "xyz"[i], double(slab.tEnter),
                           double(slab.tExit), slab.kind == SlabKind::Crossing ? "" : " (parallel)");
    }
    ImGui::Text("t_enter = max(0, enters) = %.3f", double(trace.tEnter));
    ImGui::Text("t_exit  = min(1, exits)  = %.3f", double(trace.tExit));
    const bool hit = trace.result.has_value();
    verdictText(hit, "t_enter %s t_exit: %s", trace.tEnter <= trace.tExit ? "<=" : ">",
                kReasons[static_cast<int>(trace.reason)]);
    if (trace.enteringAxis >= 0)
        ImGui::Text("entering face: %c%c", trace.enteringFace < 0 ? '-' : '+', "xyz"[trace.enteringAxis]);
}

void raySphereSteps(const RaySphereTrace& trace) {
    static constexpr const char* kReasons[] = {"the near root: the ray's entry",
                                               "c <= 0: starts inside, hit at t = 0",
                                               "b >= 0 outside: moving away",
                                               "discriminant < 0: no root",
                                               "the near root is beyond the ray's end",
                                               "non-finite result",
                                               "invalid input"};
    ImGui::TextDisabled("|m + s u|^2 = r^2:  a s^2 + 2 b s + c = 0 (s in metres)");
    ImGui::Text("a = %.3f  b = m.u = %.3f  c = |m|^2 - r^2 = %.3f", double(trace.a), double(trace.b),
                double(trace.c));
    verdictText(trace.discriminant >= 0.0f, "discriminant = b^2 - c = %.4f", double(trace.discriminant));
    if (trace.realRoots) {
        ImGui::Text("s = -b -+ sqrt(disc) = %.3f, %.3f", double(trace.sNear), double(trace.sFar));
        ImGui::Text("t = s / |D| = %.3f, %.3f (|D| = %.3f)", double(trace.tNear), double(trace.tFar),
                    double(trace.dirLength));
    }
    verdictText(trace.result.has_value(), "%s", kReasons[static_cast<int>(trace.reason)]);
}

void rayMeshSteps(LabView& view, const MeshRayTrace& trace) {
    const int count = static_cast<int>(trace.events.size());
    if (count == 0) {
        ImGui::TextDisabled("no traversal (invalid ray)");
        return;
    }
    int step = labBvhLastEvent(trace, view);
    if (ImGui::SliderInt("step", &step, 0, count - 1)) view.bvhStep = step >= count - 1 ? -1 : step;
    int kinds[5] = {}, triangles = 0;
    for (int i = 0; i <= step; ++i) {
        const BvhEvent& e = trace.events[std::size_t(i)];
        ++kinds[static_cast<int>(e.kind)];
        if (e.kind == BvhEventKind::LeafTested) triangles += static_cast<int>(e.triangleCount);
    }
    static constexpr const char* kKinds[] = {"entered", "culled (slab miss)", "skipped (beyond best)",
                                             "leaf tested", "new best hit"};
    const BvhEvent& e = trace.events[std::size_t(step)];
    ImGui::Text("event %d of %d: %s, depth %d, t %.3f", step, count - 1, kKinds[static_cast<int>(e.kind)],
                e.depth, double(e.t));
    ImGui::TextColored(imColor(kLabBvhEnteredColor), "entered %d", kinds[0]);
    ImGui::SameLine();
    ImGui::TextColored(imColor(kLabBvhCulledColor), " culled %d", kinds[1]);
    ImGui::SameLine();
    ImGui::TextColored(imColor(kLabBvhSkippedColor), " skipped %d", kinds[2]);
    ImGui::TextColored(imColor(kLabLeafColor), "leaves %d, triangles %d", kinds[3], triangles);
    if (std::isfinite(e.bestT)) {
        verdictText(true, "best hit so far: t = %.4f",
                    double(e.kind == BvhEventKind::NewBestHit ? e.t : e.bestT));
    } else {
        verdictText(e.kind == BvhEventKind::NewBestHit, "best hit so far: %s",
                    e.kind == BvhEventKind::NewBestHit ? "this one" : "none");
    }
}

const char* regionName(BoxRegion region) {
    static constexpr const char* kNames[] = {"inside the box", "a face", "an edge", "a corner"};
    return kNames[static_cast<int>(region)];
}

const char* featureName(TriangleFeature feature) {
    static constexpr const char* kNames[] = {"vertex a", "vertex b", "vertex c", "edge ab",
                                             "edge bc",  "edge ca",  "the face"};
    return kNames[static_cast<int>(feature)];
}

void closestSteps(const LabTrace& trace) {
    if (trace.sphereBox && trace.sphereBox->valid) {
        const SphereObbTrace& t = *trace.sphereBox;
        ImGui::Text("centre in box frame %.3f %.3f %.3f", double(t.centreInBox.x), double(t.centreInBox.y),
                    double(t.centreInBox.z));
        ImGui::Text("excess |c| - half: %.3f %.3f %.3f", double(t.excess.x), double(t.excess.y),
                    double(t.excess.z));
        ImGui::Text("closest point on %s (outside %d slabs)", regionName(t.region),
                    static_cast<int>(t.region));
        verdictText(t.overlap, "distance |c - q| = %.3f %s r", double(t.distance), t.overlap ? "<=" : ">");
    }
    if (trace.sphereTriangle && trace.sphereTriangle->valid) {
        const SphereTriangleTrace& t = *trace.sphereTriangle;
        const PointTriangleTrace& p = t.closestPoint;
        ImGui::Text("Voronoi region: %s%s", featureName(p.feature), p.sliver ? " (a sliver)" : "");
        ImGui::Text("d1..d%d:", p.dComputed);
        for (int i = 0; i < p.dComputed; ++i) {
            ImGui::SameLine();
            ImGui::Text("%.2f", p.d[std::size_t(i)]);
        }
        verdictText(t.overlap, "distance |c - q| = %.3f (%s r)", double(t.distance), t.overlap ? "<=" : ">");
    }
    if (trace.segments && trace.segments->valid) {
        const LinePiecesTrace& t = *trace.segments;
        static constexpr const char* kCases[] = {"two points", "first is a point", "second is a point",
                                                 "parallel", "skew"};
        ImGui::Text("case: %s; denom = ae - b^2 = %.4f", kCases[static_cast<int>(t.kind)], double(t.denom));
        ImGui::Text("s = (bf - ce) / denom = %.3f -> %.3f%s", double(t.sUnclamped), double(t.sFirst),
                    t.sClamped ? " (clamped)" : "");
        ImGui::Text("t = (b s + f) / e = %.3f -> %.3f%s", double(t.tUnclamped), double(t.tFinal),
                    t.tClamped ? " (clamped)" : "");
        if (t.tClamped)
            ImGui::Text("s again = (b t - c) / a = %.3f -> %.3f", double(t.sAgainUnclamped),
                        double(t.sAgain));
    }
}

void sweepSteps(const SphereTriangleSweepTrace& t) {
    if (!t.valid) return;
    ImGui::Text("start distance %.3f, height over the plane %.3f", double(t.startDistance), double(t.height));
    if (t.initialOverlap) verdictText(true, "touching already: t = 0");
    static constexpr const char* kStatus[] = {"not tried",     "best so far", "not earlier",
                                              "out of [0, 1]", "moving away", "already within",
                                              "parallel",      "misses",      "off the feature"};
    const auto row = [&](const char* name, const SweepCandidate& c, bool winner) {
        const bool timed =
            c.status == SweepCandidateStatus::BestSoFar || c.status == SweepCandidateStatus::NotEarlier ||
            c.status == SweepCandidateStatus::OutOfRange || c.status == SweepCandidateStatus::OffFeature;
        char time[24] = "";
        if (timed) std::snprintf(time, sizeof time, "t = %.4f", double(c.t));
        if (winner) {
            verdictText(true, "%-9s %-12s %s  <- first touch", name, time,
                        kStatus[static_cast<int>(c.status)]);
        } else {
            ImGui::TextDisabled("%-9s %-12s %s", name, time, kStatus[static_cast<int>(c.status)]);
        }
    };
    row("face", t.face, t.winner == SweepFeature::Face);
    static constexpr const char* kEdges[] = {"edge ab", "edge bc", "edge ca"};
    static constexpr const char* kCorners[] = {"corner a", "corner b", "corner c"};
    for (int i = 0; i < 3; ++i)
        row(kEdges[i], t.edges[std::size_t(i)], t.winner == SweepFeature::Edge && t.winnerIndex == i);
    for (int i = 0; i < 3; ++i)
        row(kCorners[i], t.corners[std::size_t(i)], t.winner == SweepFeature::Corner && t.winnerIndex == i);
    if (!t.time) verdictText(false, "no touch by t = 1");
}

void rayPlaneSteps(const RayPlaneTrace& trace) {
    static constexpr const char* kReasons[] = {
        "hit: t in [0, 1]",         "parallel: |n.D| at or below the limit",
        "behind the origin: t < 0", "beyond the ray's end: t > 1",
        "non-finite result",        "invalid input"};
    ImGui::TextDisabled("n.(O + t D) + d = 0  =>  t = -(n.O + d) / (n.D)");
    ImGui::TextColored(imColor(kLabNumeratorColor), "numerator -(n.O + d) = %.4f (white)",
                       double(trace.numerator));
    ImGui::TextColored(imColor(kLabDenominatorColor), "denominator n.D = %.4f (orange)",
                       double(trace.denominator));
    ImGui::Text("|n.D| %s limit %.2g: %s",
                std::abs(trace.denominator) > trace.parallelLimit ? ">" : "<=", double(trace.parallelLimit),
                std::abs(trace.denominator) <= trace.parallelLimit ? "parallel"
                : trace.facing                                     ? "meets the front (n.D < 0)"
                                                                   : "meets the back (n.D > 0)");
    if (trace.reason != RayPlaneReason::Parallel && trace.reason != RayPlaneReason::InvalidInput)
        ImGui::Text("t = %.4f / %.4f = %.4f", double(trace.numerator), double(trace.denominator),
                    double(trace.t));
    verdictText(trace.result.has_value(), "%s", kReasons[static_cast<int>(trace.reason)]);
}

void rayTriangleSteps(const RayTriangleTrace& trace) {
    static constexpr const char* kReasons[] = {"hit: inside every edge, t in [0, 1]",
                                               "U, V, W of mixed signs: outside an edge (red)",
                                               "|det| within its rounding bound: no area seen",
                                               "a vertex is not finite",
                                               "zero area",
                                               "parallel to the plane",
                                               "behind the origin: t < 0",
                                               "beyond the ray's end: t > 1",
                                               "non-finite result",
                                               "invalid input"};
    if (trace.reason == RayTriangleReason::InvalidInput) {
        verdictText(false, "%s", kReasons[static_cast<int>(trace.reason)]);
        return;
    }
    ImGui::TextDisabled("watertight: the ray's main axis (%c) is z,", "xyz"[trace.iz]);
    ImGui::TextDisabled("vertices sheared so the ray is +z,");
    ImGui::TextDisabled("then the 2D edge functions");
    ImGui::Text("frame (x, y, z) = (%c, %c, %c)", "xyz"[trace.ix], "xyz"[trace.iy], "xyz"[trace.iz]);
    ImGui::Text("shear %.3f %.3f %.3f", trace.shear.x, trace.shear.y, trace.shear.z);
    const double sign = trace.det < 0.0 ? -1.0 : 1.0;
    const double weights[3] = {trace.u, trace.v, trace.w};
    static constexpr const char* kNames[3] = {"U (edge bc)", "V (edge ca)", "W (edge ab)"};
    for (int i = 0; i < 3; ++i) {
        const bool inside = weights[i] * sign >= 0.0;
        ImGui::TextColored(imColor(inside ? kLabEdgeInsideColor : kLabEdgeOutsideColor), "%s = %+.5f %s",
                           kNames[i], weights[i], inside ? "inside" : "outside");
    }
    ImGui::Text("det = U + V + W = %+.5f", trace.det);
    ImGui::Text("  (its rounding bound %.2g)", trace.detError);
    if (std::abs(trace.det) > trace.detError) {
        ImGui::Text("barycentric (U, V, W) / det = %.3f %.3f %.3f", trace.u / trace.det, trace.v / trace.det,
                    trace.w / trace.det);
    }
    const bool timed = trace.reason == RayTriangleReason::Hit ||
                       trace.reason == RayTriangleReason::BehindOrigin ||
                       trace.reason == RayTriangleReason::BeyondTMax;
    if (timed) ImGui::Text("t = (U az + V bz + W cz) sz / det = %.4f", trace.t);
    verdictText(trace.result.has_value(), "%s", kReasons[static_cast<int>(trace.reason)]);
}

void sphereSphereSteps(const SphereSphereTrace& t) {
    if (!t.valid) return;
    ImGui::TextDisabled("the centre line: the one axis that can");
    ImGui::TextDisabled("separate two spheres");
    verdictText(t.overlap, "|cA - cB|^2 = %.4f %s (rA + rB)^2 = %.4f", double(t.distanceSq),
                t.overlap ? "<=" : ">", double(t.radiusSum * t.radiusSum));
    verdictText(t.overlap, "separation = distance - (rA + rB)\n  = %.3f - %.3f = %+.3f", double(t.distance),
                double(t.radiusSum), double(t.separation));
}

void boxPlaneSteps(const ObbPlaneTrace& t) {
    if (!t.valid) return;
    ImGui::TextDisabled("signed distance n.p + d per corner (unit n)");
    for (int i = 0; i < 8; ++i) {
        const float d = t.distance[std::size_t(i)];
        ImGui::TextColored(imColor(d <= 0.0f ? kLabCornerTouchingColor : kLabCornerFrontColor),
                           "corner %c%c%c %+.3f", i & 1 ? '+' : '-', i & 2 ? '+' : '-', i & 4 ? '+' : '-',
                           double(d));
        if (i % 2 == 0) ImGui::SameLine();
    }
    verdictText(t.touchingCount > 0, "%d corners at or behind the plane%s", t.touchingCount,
                t.touchingCount > 4 ? ": the deepest 4 kept" : "");
}

const char* triangleAxisKind(ObbTriangleAxisKind kind) {
    return kind == ObbTriangleAxisKind::TriangleNormal ? "tri normal"
           : kind == ObbTriangleAxisKind::BoxFace      ? "box face"
                                                       : "edge";
}

/// The 13 axes: kind, the box's radius, the triangle's interval, the separation; a click draws one.
void boxTriangleSteps(LabView& view, const ObbTriangleTrace& trace) {
    const int drawn = labBoxTriangleAxis(trace, view);
    if (beginAxisTable("sat13", {"axis", "r box", "triangle", "separation"})) {
        for (int i = 0; i < 13; ++i) {
            const ObbTriangleAxis& axis = trace.axes[std::size_t(i)];
            axisRow(view, i, triangleAxisKind(axis.kind), drawn, trace.largestAxis);
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", double(axis.boxRadius));
            ImGui::TableNextColumn();
            ImGui::Text("[%.2f, %.2f]", double(axis.triangleMin), double(axis.triangleMax));
            ImGui::TableNextColumn();
            if (axis.skipped) {
                ImGui::TextDisabled("skipped (||)");
            } else {
                verdictText(axis.separation <= 0.0f, "%+.3f", double(axis.separation));
            }
        }
        ImGui::EndTable();
    }
    const ObbTriangleAxis& axis = trace.axes[std::size_t(drawn)];
    if (!axis.skipped) {
        verdictText(axis.separation <= 0.0f, "axis %d: separation = -max - r\n  = %.3f - %.3f = %+.3f", drawn,
                    double(-axis.triangleMax), double(axis.boxRadius), double(axis.separation));
    }
    if (!trace.overlap) {
        verdictText(false, "axis %d separates them", trace.largestAxis);
        return;
    }
    verdictText(true, "no axis separates: least penetration on axis %d", trace.largestAxis);
    static constexpr const char* kFeatures[] = {"triangle face", "box face", "edge pair"};
    for (int slot = 0; slot < 3; ++slot) {
        const int points = trace.pointCount[std::size_t(slot)];
        if (points < 0) break;
        ImGui::Text("%d. %s: %d point%s", slot + 1,
                    kFeatures[static_cast<int>(trace.order[std::size_t(slot)])], points,
                    points == 1 ? "" : "s");
    }
}

} // namespace

void labStepsSection(LabView& view, LabQuery query, const LabResult& result) {
    for (int i = 0; i < kLabLayerCount; ++i) {
        const auto layer = static_cast<LabLayer>(i);
        if (labQueryHasLayer(query, layer)) ImGui::Checkbox(labLayerName(layer), &view.shown[std::size_t(i)]);
    }
    const LabTrace& trace = result.trace;
    if (trace.boxBox && trace.boxBox->valid) boxBoxSteps(view, *trace.boxBox);
    if (trace.rayBox) rayBoxSteps(*trace.rayBox);
    if (trace.raySphere) raySphereSteps(*trace.raySphere);
    if (trace.rayMesh) rayMeshSteps(view, *trace.rayMesh);
    closestSteps(trace);
    if (trace.sweep) sweepSteps(*trace.sweep);
    if (trace.rayPlane) rayPlaneSteps(*trace.rayPlane);
    if (trace.rayTriangle) rayTriangleSteps(*trace.rayTriangle);
    if (trace.sphereSphere) sphereSphereSteps(*trace.sphereSphere);
    if (trace.boxPlane) boxPlaneSteps(*trace.boxPlane);
    if (trace.boxTriangle && trace.boxTriangle->valid) boxTriangleSteps(view, *trace.boxTriangle);
}

} // namespace kz
