#include "app/lab/queries/panel_parts.hpp"

#include <cstdio>

namespace kz::lab_parts {

bool beginAxisTable(const char* id, std::initializer_list<const char*> headers) {
    ImGui::TextDisabled("click an axis to draw it (* decides)");
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable(id, int(headers.size()), flags)) return false;
    for (const char* header : headers)
        ImGui::TableSetupColumn(header);
    ImGui::TableHeadersRow();
    return true;
}

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

} // namespace kz::lab_parts
