// The widgets the lab queries' units show their steps with in the panel (LabQueryUnit::panelSteps;
// Dear ImGui, called inside the panel's Lab header only): text in the verdict's colour or a
// construction colour, and the table of separating axes whose rows draw an axis when clicked.
#pragma once

#include "app/lab/trace.hpp"

#include <glm/vec3.hpp>
#include <imgui.h>
#include <initializer_list>

namespace kz::lab_parts {

inline const ImVec4 kPositiveText{1.0f, 0.35f, 0.3f, 1.0f};
inline const ImVec4 kNegativeText{0.4f, 0.95f, 0.45f, 1.0f};
inline const ImVec4 kChosenText{0.85f, 0.55f, 1.0f, 1.0f};

/// A construction colour (draw.hpp) as text colour.
inline ImVec4 imColor(const glm::vec3& c) {
    return ImVec4(c.r, c.g, c.b, 1.0f);
}

/// A line in the verdict's colour: red when `positive` (hit, overlap), green otherwise.
template <class... Args>
void verdictText(bool positive, const char* format, Args... args) {
    const ImVec4 colour = positive ? kPositiveText : kNegativeText;
    if constexpr (sizeof...(Args) == 0) {
        ImGui::TextColored(colour, "%s", format); // a plain text: never read as a format
    } else {
        ImGui::TextColored(colour, format, args...);
    }
}

/// An axis table: its header row; each row then starts with axisRow. False when the table is
/// not shown (then no ImGui::EndTable).
bool beginAxisTable(const char* id, std::initializer_list<const char*> headers);

/// An axis table's row i: its index and kind, starred and coloured when it decides the verdict,
/// selected when drawn; a click draws it (a second click goes back to the deciding one).
void axisRow(LabView& view, int i, const char* kind, int drawn, int decides);

} // namespace kz::lab_parts
