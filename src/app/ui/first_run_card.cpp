#include "app/ui/first_run_card.hpp"

#include <imgui.h>

namespace kz {
namespace {

constexpr float kCardWidth = 340.0f; ///< Points, times the UI scale.

/// One tip: a bullet and its wrapped text.
void tip(const char* text) {
    ImGui::Bullet();
    ImGui::TextWrapped("%s", text);
}

} // namespace

CardRequests drawFirstRunCard(FirstRunCard& card, float uiScale) {
    CardRequests requests;
    card.rect.reset();
    if (!card.open) return requests;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float margin = 8.0f * uiScale;
    ImGui::SetNextWindowPos(
        ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - margin, viewport->WorkPos.y + margin),
        ImGuiCond_Always, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(kCardWidth * uiScale, 0.0f), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.92f);
    bool open = true;
    const ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
    if (ImGui::Begin("Try this", &open, flags)) {
        tip("Click a ball to pick it; drag it and let go to throw it.");
        tip("Space pauses and resumes; , and . step back and forward through time.");
        tip("Right-drag turns the camera, the wheel zooms; Tab hides the panel, H lists every key.");
        tip("The lab shows each collision query step by step, from rays to GJK and EPA.");
        ImGui::Spacing();
        if (ImGui::Button("Open the lab")) requests.openLab = true;
        ImGui::SameLine();
        if (ImGui::Button("Got it")) open = false;
        ImGui::TextDisabled("Help in the panel brings this card back.");
        const ImVec2 pos = ImGui::GetWindowPos();
        const ImVec2 size = ImGui::GetWindowSize();
        card.rect = ScreenRect{{pos.x, pos.y}, {pos.x + size.x, pos.y + size.y}};
    }
    ImGui::End();
    if (!open || requests.openLab) {
        card.open = false;
        card.dismissed = true;
        card.rect.reset();
    }
    return requests;
}

} // namespace kz
