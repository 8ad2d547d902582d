// One query of the lab, one unit: everything the lab, the panel and `kolize explain` know of a
// query, in one file of this folder (ray_sphere.cpp ... segment_segment.cpp), registered in one
// table (registry.cpp, in the panel's order). The lab's entry points (makeLabScene,
// runLabQuery, traceLabQuery, drawLabConstruction, the panel's steps, `kolize explain`) look the
// query up here and call its functions; none of them lists the queries.
//
// Adding a query (docs/architecture.md, "Where to add things"): a file here defining its
// `const LabQueryUnit k<Name>Query`, one line in registry.cpp's list, one source line in
// lab/CMakeLists.txt.
#pragma once

#include "app/lab/queries/explain_input.hpp"
#include "app/lab/trace.hpp"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string_view>

namespace kz {

struct LabResult;
struct LabCanvas;

/// A lab query's unit: plain data and functions, no state. The functions take the lab's scene
/// (scene.query is this query) or the shapes file's input.
struct LabQueryUnit {
    const char* name;     ///< "ray-sphere": on the command line, in the panel, in the lab event.
    const char* idea;     ///< The seed document's idea it illustrates, one sentence.
    const char* controls; ///< What to drag, one line.

    /// Puts its shapes and handles in the empty scene, so that the query is interesting at the
    /// start (pairs a little apart, so a drag makes them meet; the ray through its shape).
    void (*place)(LabScene& scene);
    /// The fast path (src/geom) on the scene: the verdict, the key numbers, what the answer draws.
    /// The ray queries run with tMax = 1: the ray ends at its end handle.
    LabResult (*run)(const LabScene& scene);
    /// The same query's trace (src/geom's explain functions), set in its field of `trace`.
    void (*trace)(const LabScene& scene, LabTrace& trace);
    /// The layers its steps draw, as bits 1 << LabLayer (the answer's layer is every query's).
    std::uint32_t layers;

    /// Draws the answer (the Answer layer): the ray and its hit, the contacts, the closest points.
    void (*drawAnswer)(const LabScene& scene, const LabResult& result, LabCanvas& canvas);
    /// Draws the steps from result.trace, each layer as `view` shows it.
    void (*drawSteps)(const LabScene& scene, const LabResult& result, const LabView& view, LabCanvas& canvas);
    /// The panel's steps (ImGui, called inside the Lab header only): the equation with the live
    /// numbers from result.trace; may edit `view` (the SAT axis drawn, the BVH step).
    void (*panelSteps)(LabView& view, const LabResult& result);

    /// `kolize explain`: the shapes its file must hold.
    ExplainNeeds explainNeeds;
    /// `kolize explain`: the fast query's answer, the output's "result" object.
    nlohmann::ordered_json (*explainResult)(const ExplainInput& input);
    /// `kolize explain`: adds the trace's keys to the output, after "query" and "result"
    /// (documented in README.md, "The explain command").
    void (*explainSteps)(const ExplainInput& input, nlohmann::ordered_json& out);
    /// Its shapes may be any of sphere, box, capsule, cylinder and hull: the panel lists them for
    /// each shape (Lab::setShapeKind).
    bool anyConvexShape = false;
};

/// Every query's unit, in the panel's order (LabQuery's order, the order of `kolize --help` and
/// of `kolize explain`'s list).
std::span<const LabQueryUnit* const> labQueryUnits();

/// The query's unit (box-box's for a value outside the registry).
const LabQueryUnit& labQueryInfo(LabQuery query);

/// The unit named `name` ("box-box"), or nullptr.
const LabQueryUnit* findLabQueryUnit(std::string_view name);

/// The bit of a layer in LabQueryUnit::layers.
constexpr std::uint32_t labLayerBit(LabLayer layer) {
    return std::uint32_t{1} << static_cast<int>(layer);
}

} // namespace kz
