// What a lab query's unit file includes: its unit's type (unit.hpp) and the parts the units share
// (scene_parts, results, canvas_parts, panel_parts, json), each in its namespace:
// `using namespace lab_parts; using namespace explain_json;` in the unit's anonymous namespace.
#pragma once

#include "app/lab/queries/canvas_parts.hpp"
#include "app/lab/queries/json.hpp"
#include "app/lab/queries/panel_parts.hpp"
#include "app/lab/queries/results.hpp"
#include "app/lab/queries/scene_parts.hpp"
#include "app/lab/queries/unit.hpp"

#include <nlohmann/json.hpp>

namespace kz::lab_parts {

/// The ray queries' line of controls.
inline constexpr const char* kRayControls =
    "drag the yellow origin or the orange end of the ray; drag the shape, right-drag to turn it";
/// The pairs' line of controls.
inline constexpr const char* kPairControls =
    "drag A into B; right-drag or shift-drag turns a shape; right-drag on empty space orbits";

} // namespace kz::lab_parts
