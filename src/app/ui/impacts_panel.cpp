#include "app/ui/impacts_panel.hpp"

#include "app/timeline/impacts.hpp"

#include <cstdio>
#include <imgui.h>
#include <string>
#include <vector>

namespace kz {
namespace {

constexpr int kVisibleRows = 6; ///< The list's height in rows (two lines each); it scrolls beyond.

ImU32 bodyColour(const World& world, int body) {
    const auto bodies = world.bodies();
    if (body < 0 || body >= static_cast<int>(bodies.size())) return IM_COL32(128, 128, 128, 255);
    const std::uint32_t c = bodies[static_cast<std::size_t>(body)].color;
    return IM_COL32((c >> 16) & 0xffu, (c >> 8) & 0xffu, c & 0xffu, 255);
}

/// An impulse in at most 6 characters: 3 significant digits, or the whole number from 1000 N s.
std::string impulseText(float impulse) {
    char text[32];
    std::snprintf(text, sizeof text, impulse >= 1000.0f ? "%.0f" : "%.3g", double(impulse));
    return text;
}

/// One record's row, two lines on a selectable the width of the list: a square of the body's
/// colour, the step, the time in the step, body -> partner; then the normal speed before -> after
/// and the impulse. True when it was clicked.
bool impactRow(const World& world, const ImpactRecord& r, bool shown) {
    const float line = ImGui::GetTextLineHeight();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    // The record's own ID (its place in the list moves as impacts come in): a click that spans
    // frames stays on it.
    char id[96];
    std::snprintf(id, sizeof id, "##%llu/%a/%d/%d/%d", static_cast<unsigned long long>(r.step), r.time,
                  r.body, static_cast<int>(r.partner.kind), r.partner.index);
    const bool clicked = ImGui::Selectable(id, shown, 0, ImVec2(0.0f, 2.0f * line));
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip(
            "%s -> %s\npoint  %.3f %.3f %.3f\nnormal %.3f %.3f %.3f\nclick: pause, select, draw",
            impactBodyName(world, r).c_str(), impactPartnerName(world, r).c_str(), double(r.point.x),
            double(r.point.y), double(r.point.z), double(r.normal.x), double(r.normal.y), double(r.normal.z));
    }
    ImDrawList* list = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    list->AddRectFilled(ImVec2(at.x + 1.0f, at.y + 1.0f), ImVec2(at.x + line - 1.0f, at.y + line - 1.0f),
                        bodyColour(world, r.body), 2.0f);
    char first[160], second[96];
    std::snprintf(first, sizeof first, "%llu  %.3f ms  %s -> %s", static_cast<unsigned long long>(r.step),
                  1000.0 * r.time, impactBodyName(world, r).c_str(), impactPartnerName(world, r).c_str());
    std::snprintf(second, sizeof second, "vn %.2f -> %.2f m/s   J %s N s", double(r.speedBefore),
                  double(r.speedAfter), impulseText(r.impulse).c_str());
    const float indent = line + ImGui::GetStyle().ItemInnerSpacing.x;
    list->AddText(ImVec2(at.x + indent, at.y), text, first);
    list->AddText(ImVec2(at.x + indent, at.y + line), dim, second);
    return clicked;
}

void shownImpact(const UiFrameInfo& info, UiRequests& requests) {
    const ShownImpact& shown = *info.impacts->shown();
    const World& world = *info.world;
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("shown: step %llu, %s -> %s", static_cast<unsigned long long>(shown.record.step),
                impactBodyName(world, shown.record).c_str(), impactPartnerName(world, shown.record).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("hide")) requests.hideImpact = true;
    ImGui::TextDisabled(
        "the point (white), the normal (cyan), the velocity before (orange) and after (green), "
        "the partner (magenta)");
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (ImGui::TreeNode("Why here?")) {
        for (const std::string& line : whyHereLines(shown))
            ImGui::TextWrapped("%s", line.c_str());
        ImGui::TreePop();
    }
    ImGui::PopTextWrapPos();
}

} // namespace

void impactsSection(const UiFrameInfo& info, UiRequests& requests) {
    if (info.impacts == nullptr) return;
    const World& world = *info.world;
    const ImpactLog& log = info.impacts->log();
    Impacts::Filter& filter = info.impacts->filter();
    const int selected = info.picks.selectedBody();
    ImGui::Checkbox("selected body only", &filter.selectedOnly);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("0.000 m/s").x + 2.0f * ImGui::GetStyle().FramePadding.x);
    ImGui::SliderFloat("min speed", &filter.minSpeed, 0.0f, 2.0f, "%.3f m/s", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("hide the impacts closing slower than this (settling bodies)");
    std::vector<std::size_t> rows;
    rows.reserve(log.size());
    for (std::size_t i = 0; i < log.size(); ++i) {
        const ImpactRecord& r = log.newest(i);
        if ((!filter.selectedOnly || involvesBody(r, selected)) && -r.speedBefore >= filter.minSpeed)
            rows.push_back(i);
    }
    ImGui::TextDisabled("%zu of %zu%s", rows.size(), log.size(), log.dropped() > 0 ? " (the last 2000)" : "");
    if (rows.empty()) {
        ImGui::TextDisabled(filter.selectedOnly && selected < 0 ? "(pick a body)"
                            : log.empty()                       ? "(no impacts yet)"
                                                                : "(none passes the filters)");
    } else {
        const ImGuiStyle& style = ImGui::GetStyle();
        const float rowHeight = 2.0f * ImGui::GetTextLineHeight() + style.ItemSpacing.y;
        ImGui::BeginChild("impacts", ImVec2(0.0f, rowHeight * kVisibleRows + 2.0f * style.WindowPadding.y),
                          true);
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(rows.size()), rowHeight);
        while (clipper.Step()) {
            for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
                const std::size_t i = rows[static_cast<std::size_t>(k)];
                const ImpactRecord& r = log.newest(i);
                const ShownImpact* shown = info.impacts->shown();
                const bool isShown = shown && shown->record.step == r.step && shown->record.time == r.time &&
                                     shown->record.body == r.body && shown->record.partner == r.partner;
                if (impactRow(world, r, isShown)) requests.jumpToImpact = r;
            }
        }
        ImGui::EndChild();
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(
        "a row: the step, the time into it, body -> partner; the normal speed before -> after, "
        "the impulse. A click pauses, selects the body and draws the impact.");
    ImGui::PopTextWrapPos();
    if (info.impacts->shown()) shownImpact(info, requests);
}

} // namespace kz
