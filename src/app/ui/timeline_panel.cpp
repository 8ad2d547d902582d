#include "app/ui/timeline_panel.hpp"

#include "app/timeline/timeline.hpp"
#include "app/ui/keys.hpp"

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <imgui.h>
#include <string>

namespace kz {
namespace {

constexpr int kPlotPoints = 320;
constexpr float kPlotHeight = 38.0f;
const ImU32 kImpactMark = IM_COL32(255, 170, 60, 255);
const ImU32 kScrubMark = IM_COL32(255, 80, 80, 255);

/// The x of `tick` across the last item's width (the span mapped onto it).
float xOf(std::uint64_t tick, const TimelinePlots& plots, std::size_t points) {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    const float span = static_cast<float>(points * plots.stepsPerPoint);
    const float f = span > 0.0f ? static_cast<float>(tick - plots.first) / span : 0.0f;
    return lo.x + std::clamp(f, 0.0f, 1.0f) * (hi.x - lo.x);
}

/// A plot of one series with the scrub position as a red line.
void plot(const char* label, const std::vector<float>& values, const TimelinePlots& plots, std::uint64_t tick,
          float now, const char* unit) {
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%s %.3g %s", label, static_cast<double>(now), unit);
    const std::string id = std::string("##") + label;
    ImGui::PlotLines(id.c_str(), values.data(), static_cast<int>(values.size()), 0, overlay, 0.0f, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, kPlotHeight));
    const float x = xOf(tick, plots, values.size());
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, ImGui::GetItemRectMin().y),
                                        ImVec2(x, ImGui::GetItemRectMax().y), kScrubMark, 2.0f);
}

} // namespace

TimelineRequests timelineSection(const TimelineInfo& info) {
    TimelineRequests requests;
    if (!info.history || info.history->empty()) {
        ImGui::TextDisabled("no steps kept yet");
        return requests;
    }
    const History& history = *info.history;
    const std::uint64_t first = history.first(), last = history.last();
    const std::uint64_t tick = std::clamp(info.tick, first, last);
    const auto seek = [&](int delta) { requests.seek = timelineStep(history, tick, delta); };

    if (info.paused) {
        if (ImGui::Button("Play")) requests.resume = true;
    } else {
        if (ImGui::Button("Pause")) requests.pause = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("<<")) seek(-10);
    ImGui::SameLine();
    if (ImGui::Button("<")) seek(-1);
    ImGui::SameLine();
    if (ImGui::Button(">")) seek(+1);
    ImGui::SameLine();
    if (ImGui::Button(">>")) seek(+10);
    ImGui::SameLine();
    ImGui::TextDisabled("keys %s (Shift: 10)", keyLabel(KeyAction::StepBack));

    // The scrubber, with the impact marks over it.
    const TimelinePlots plots = timelinePlots(history, kPlotPoints);
    std::uint64_t scrub = tick;
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::SliderScalar("##scrub", ImGuiDataType_U64, &scrub, &first, &last, "step %llu"))
        requests.seek = scrub;
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const float top = ImGui::GetItemRectMin().y;
    for (std::size_t i = 0; i < plots.impacts.size(); ++i) {
        if (plots.impacts[i] == 0) continue;
        const float x = xOf(plots.first + i * plots.stepsPerPoint, plots, plots.impacts.size());
        draw.AddLine(ImVec2(x, top), ImVec2(x, top + 4.0f), kImpactMark);
    }
    const double kept = timelineSeconds(history, info.timeStep);
    ImGui::Text("steps %llu-%llu kept: %.1f s, %zu keyframes", static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(last), kept, history.keyframeCount());
    ImGui::Text("memory %.1f of %.0f MB", static_cast<double>(history.bytes()) / (1 << 20),
                static_cast<double>(history.settings().maxBytes) / (1 << 20));
    if (tick < last) {
        ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "back %llu steps: Play drops the later ones",
                           static_cast<unsigned long long>(last - tick));
    }

    const StepSample& now = history.sample(tick);
    plot("energy", plots.kineticEnergy, plots, tick, static_cast<float>(now.kineticEnergy), "J");
    plot("momentum", plots.momentum, plots, tick, static_cast<float>(now.momentum), "kg m/s");
    plot("contacts", plots.contacts, plots, tick, static_cast<float>(now.contacts), "");
    plot("ms/step", plots.msPerStep, plots, tick, now.msPerStep, "ms");
    return requests;
}

} // namespace kz
