// The panel's view of a lab query's steps (ImGui; kolize only): the layers' checkboxes and the
// query's equation with the live numbers from its trace, as its unit shows them
// (lab/queries/unit.hpp, panelSteps).
#pragma once

#include "app/lab/query.hpp"

namespace kz {

/// The checkboxes of the query's layers, then its steps: the 15 SAT axes (a click draws one), the
/// slabs, the quadratic, the BVH step slider with the counts, the closest point's region, the
/// sweep's candidates, each with its equation and the verdict in colour.
void labStepsSection(LabView& view, LabQuery query, const LabResult& result);

} // namespace kz
