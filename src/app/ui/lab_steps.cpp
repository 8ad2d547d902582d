#include "app/ui/lab_steps.hpp"

#include <imgui.h>

namespace kz {

void labStepsSection(LabView& view, LabQuery query, const LabResult& result) {
    for (int i = 0; i < kLabLayerCount; ++i) {
        const auto layer = static_cast<LabLayer>(i);
        if (labQueryHasLayer(query, layer)) ImGui::Checkbox(labLayerName(layer), &view.shown[std::size_t(i)]);
    }
    labQueryInfo(query).panelSteps(view, result);
}

} // namespace kz
