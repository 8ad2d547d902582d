#include "app/ui/lab_panel.hpp"

#include "app/lab/queries/convex_parts.hpp"
#include "app/ui/lab_steps.hpp"
#include "app/ui/widgets.hpp"

#include <imgui.h>
#include <string>

namespace kz {
namespace {

constexpr const char* kScenarios = "(off: the scenarios)";
const ImVec4 kPositiveText{1.0f, 0.35f, 0.3f, 1.0f};
const ImVec4 kNegativeText{0.4f, 0.95f, 0.45f, 1.0f};

/// HIT / MISS or OVERLAP / APART, in the verdict's colour.
void verdictLine(const LabResult& result) {
    const char* verdict =
        result.isHit ? (result.positive ? "HIT" : "MISS") : (result.positive ? "OVERLAP" : "APART");
    ImGui::TextColored(result.positive ? kPositiveText : kNegativeText, "%s", verdict);
    for (const LabNumber& number : result.numbers) {
        if (number.key == "iterations") {
            ImGui::Text("%-10s %d", number.key.c_str(), static_cast<int>(number.value));
        } else if (number.key == "triangle") {
            ImGui::Text("%-10s #%d", number.key.c_str(), static_cast<int>(number.value));
        } else {
            ImGui::Text("%-10s %.4f", number.key.c_str(), double(number.value));
        }
    }
}

void queryList(std::optional<LabQuery> open, UiRequests& requests) {
    const char* current = open ? labQueryName(*open) : kScenarios;
    if (!ImGui::BeginCombo("query", current, ImGuiComboFlags_HeightLargest)) return;
    if (ImGui::Selectable(kScenarios, !open)) requests.closeLab = true;
    for (int i = 0; i < kLabQueryCount; ++i) {
        const auto query = static_cast<LabQuery>(i);
        if (ImGui::Selectable(labQueryName(query), open == query)) requests.openLab = query;
    }
    ImGui::EndCombo();
}

/// A list of the convex kinds for each shape: choosing one asks for Lab::setShapeKind.
void shapeKindLists(const LabScene& scene, UiRequests& requests) {
    for (std::size_t i = 0; i < scene.shapes.size(); ++i) {
        const LabShape& shape = scene.shapes[i];
        const std::string label = "shape " + shape.name;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9.0f);
        if (!ImGui::BeginCombo(label.c_str(), lab_parts::labShapeKindName(shape.kind))) continue;
        for (const LabShapeKind kind : lab_parts::kConvexKinds) {
            if (ImGui::Selectable(lab_parts::labShapeKindName(kind), kind == shape.kind))
                requests.labShapeKind = std::pair(static_cast<int>(i), kind);
        }
        ImGui::EndCombo();
    }
}

const char* bodyOrObstacleName(const World& world, const PickHit& hit, std::string& storage) {
    storage = probeName(world, hit);
    return storage.c_str();
}

} // namespace

void labHeader(Lab& lab, UiRequests& requests) {
    // Open when the window starts in the lab; one closed line above the scenarios' sections else.
    ImGui::SetNextItemOpen(lab.isOpen(), ImGuiCond_FirstUseEver);
    if (!ImGui::CollapsingHeader("Lab")) return;
    queryList(lab.query(), requests);
    if (!lab.isOpen()) {
        ImGui::TextDisabled("a query to drag its shapes and watch its answer");
        return;
    }
    if (ImGui::Button("Back to the scenarios")) requests.closeLab = true;
    const LabQueryUnit& query = labQueryInfo(*lab.query());
    if (query.anyConvexShape) shapeKindLists(lab.scene(), requests);
    verdictLine(lab.result());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(query.idea);
    ImGui::TextDisabled("%s", query.controls);
    if (const std::string hover = lab.hoverText(); hover.empty()) {
        ImGui::TextDisabled("under the cursor: -");
    } else {
        ImGui::Text("under the cursor: %s", hover.c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    labStepsSection(lab.view(), *lab.query(), lab.result());
}

void probeSection(MouseProbe& probeState, const World* world) {
    int mode = static_cast<int>(probeState.mode);
    const char* names[kProbeModeCount];
    for (int i = 0; i < kProbeModeCount; ++i)
        names[i] = probeModeName(static_cast<ProbeMode>(i));
    if (ImGui::Combo("probe", &mode, names, kProbeModeCount)) probeState.mode = static_cast<ProbeMode>(mode);
    if (probeState.mode == ProbeMode::SphereCast)
        ImGui::SliderFloat("radius", &probeState.radius, kProbeMinRadius, kProbeMaxRadius, "%.2f m",
                           ImGuiSliderFlags_AlwaysClamp);
    const ProbeResult& probe = probeState.result;
    if (probeState.mode == ProbeMode::Off || world == nullptr) return;
    if (!probe.ray) {
        ImGui::TextDisabled("move the cursor over the scene");
        return;
    }
    std::string name;
    if (probe.nearest) {
        ImGui::Text("%s", bodyOrObstacleName(*world, *probe.nearest, name));
        ImGui::Text("t         %.4f", double(probe.nearest->hit.t));
        textVec3("point", probe.nearest->hit.point);
        textVec3("normal", probe.nearest->hit.normal);
    } else if (probe.cast) {
        ImGui::Text("%s", probeName(*world, *probe.cast).c_str());
        ImGui::Text("t         %.4f", double(probe.cast->t));
        textVec3("centre", probe.cast->center);
        textVec3("touches", probe.cast->point);
        textVec3("normal", probe.cast->normal);
    } else if (!probe.all.empty()) {
        for (std::size_t i = 0; i < probe.all.size() && i < 12; ++i) {
            ImGui::Text("%2zu. t %8.4f  %s", i + 1, double(probe.all[i].hit.t),
                        bodyOrObstacleName(*world, probe.all[i], name));
        }
        if (probe.all.size() > 12) ImGui::TextDisabled("... %zu hits in all", probe.all.size());
    } else {
        ImGui::TextDisabled("nothing under the cursor");
    }
}

void drawLabLabels(const LabScene& scene, const glm::mat4& view, const glm::mat4& proj, float nearPlane) {
    for (const LabShape& shape : scene.shapes)
        drawLabelAt(shape.position, shape.name.c_str(), view, proj, nearPlane);
    for (const LabHandle& handle : scene.handles)
        drawLabelAt(handle.position + glm::vec3(0.0f, 0.22f, 0.0f), handle.name.c_str(), view, proj,
                    nearPlane);
}

} // namespace kz
