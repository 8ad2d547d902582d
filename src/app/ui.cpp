#include "app/ui.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

namespace kz {
namespace {

const char* shapeName(ShapeType shape) {
    return shape == ShapeType::Box ? "box" : "sphere";
}

void textVec3(const char* label, const glm::vec3& v) {
    ImGui::Text("%-9s %8.3f %8.3f %8.3f", label, static_cast<double>(v.x), static_cast<double>(v.y),
                static_cast<double>(v.z));
}

void drawKeyTableBody() {
    if (!ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) return;
    ImGui::TableSetupColumn("Key", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Action");
    ImGui::TableHeadersRow();
    for (const KeyHelp& row : keyTable()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.action);
    }
    ImGui::EndTable();
}

void simulationSection(UiState& state, const UiFrameInfo& info, UiRequests& requests) {
    const World& world = *info.world;
    if (world.paused()) {
        if (ImGui::Button("Resume [O]")) requests.resume = true;
    } else {
        if (ImGui::Button("Pause [P]")) requests.pause = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Single step [N]")) requests.singleStep = true;
    ImGui::SameLine();
    ImGui::TextDisabled(world.paused() ? "paused" : "running");
    if (world.halted()) {
        // World stops on a NaN or infinite state (physics/world.hpp): say which body, in red.
        const std::size_t body = static_cast<std::size_t>(world.haltedBody());
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "halted: body %zu (%s) has a non-finite state",
                           body, world.bodies()[body].name.c_str());
    }

    if (ImGui::SliderFloat("time scale", &state.timeScale, 0.05f, 2.0f, "%.2fx",
                           ImGuiSliderFlags_Logarithmic)) {
        state.timeScale = std::clamp(state.timeScale, 0.05f, 2.0f);
        requests.timeScaleChanged = true;
    }
    if (ImGui::Checkbox("gravity", &state.gravityOn)) requests.gravityChanged = true;
    ImGui::SameLine();
    ImGui::BeginDisabled(!state.gravityOn);
    ImGui::SetNextItemWidth(-1.0f);
    // AlwaysClamp: a value typed in (Ctrl+click) stays in the range too; World clamps again to
    // the documented limits (physics/limits.hpp), which these ranges lie within.
    if (ImGui::DragFloat3("##gravity", glm::value_ptr(state.gravity), 0.05f, -50.0f, 50.0f, "%.2f",
                          ImGuiSliderFlags_AlwaysClamp))
        requests.gravityChanged = true;
    ImGui::EndDisabled();
    if (ImGui::SliderFloat("restitution", &state.restitution, 0.0f, 1.0f, "%.2f",
                           ImGuiSliderFlags_AlwaysClamp))
        requests.materialChanged = true;
    if (ImGui::SliderFloat("friction", &state.friction, 0.0f, 2.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp))
        requests.materialChanged = true;
    if (ImGui::SliderFloat("rolling res.", &state.rollingResistance, 0.0f, 0.2f, "%.3f",
                           ImGuiSliderFlags_AlwaysClamp))
        requests.materialChanged = true;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("rolling resistance of balls: stops rolling and spinning");
    ImGui::TextDisabled("(the material applies to every body)");
}

void cameraSection(UiState& state, const UiFrameInfo& info, UiRequests& requests) {
    bool spinning = info.spinning;
    if (ImGui::Checkbox("spin [R]/[S]", &spinning)) requests.spin = spinning;
    ImGui::SliderFloat("speed", &state.spinSpeedDegPerSecond, -45.0f, 45.0f, "%.1f deg/s");
    if (ImGui::Button("Reset view [Home]")) requests.resetView = true;
    ImGui::TextDisabled("right-drag orbit, wheel zoom, middle-drag pan");
}

void scenarioSection(UiState& state, const UiFrameInfo& info, UiRequests& requests) {
    ImGui::Text("%s (%s), seed %llu", info.scenarioTitle.c_str(), info.scenarioKey.c_str(),
                static_cast<unsigned long long>(info.seed));
    const float rows = static_cast<float>(std::min<std::size_t>(state.scenarioNames.size(), 6));
    if (ImGui::BeginListBox("##scenarios",
                            ImVec2(-1.0f, (rows + 0.25f) * ImGui::GetTextLineHeightWithSpacing()))) {
        for (const std::string& name : state.scenarioNames) {
            if (ImGui::Selectable(name.c_str(), name == info.scenarioKey)) requests.loadScenario = name;
        }
        ImGui::EndListBox();
    }
    if (ImGui::Button("Reset random [F]")) requests.resetRandom = true;
    ImGui::SameLine();
    if (ImGui::Button("Reset fixed [D]")) requests.resetFixed = true;
    ImGui::SameLine();
    if (ImGui::Button("Reload")) requests.reload = true;

    ImGui::SetNextItemWidth(ImGui::CalcTextSize("18446744073709551615").x +
                            2.0f * ImGui::GetStyle().FramePadding.x);
    ImGui::InputText("seed", state.seedText, sizeof state.seedText, ImGuiInputTextFlags_CharsDecimal);
    ImGui::SameLine();
    ImGui::Checkbox("new on [F]", &state.newSeedEachReset);
    if (!parseSeed(state.seedText)) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "seed: 0 to 2^64-1");
    ImGui::TextDisabled("Reload rebuilds the scenario with this seed");
    if (!state.scenarioError.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", state.scenarioError.c_str());
        ImGui::PopTextWrapPos();
    }
}

void obstacleSelection(const Obstacle& obstacle, int index, const UiFrameInfo& info) {
    ImGui::Text("obstacle  %s (#%d)", obstacle.name.c_str(), index);
    ImGui::Text("mesh      %s", obstacle.mesh->source.c_str());
    ImGui::Text("triangles %zu", obstacle.mesh->triangleCount());
    ImGui::Text("BVH depth %d", obstacle.mesh->bvh.depth());
    if (info.pick && info.pick->obstacle == index) {
        const PickHit& pick = *info.pick;
        ImGui::Text("triangle  #%u", static_cast<unsigned>(pick.triangle));
        ImGui::Text("bary      %.3f %.3f %.3f", static_cast<double>(1.0f - pick.u - pick.v),
                    static_cast<double>(pick.u), static_cast<double>(pick.v));
        textVec3("hit", pick.hit.point);
        textVec3("normal", pick.hit.normal);
        ImGui::Text("t         %.4f", static_cast<double>(pick.hit.t));
    }
    textVec3("position", obstacle.position);
    ImGui::TextDisabled("static: it cannot be dragged");
}

void pickingSection(const UiFrameInfo& info) {
    const World& world = *info.world;
    const auto bodies = world.bodies();
    const auto obstacles = world.obstacles();
    if (info.selectedObstacle >= 0 && info.selectedObstacle < static_cast<int>(obstacles.size())) {
        obstacleSelection(obstacles[static_cast<std::size_t>(info.selectedObstacle)], info.selectedObstacle,
                          info);
    } else if (info.selected >= 0 && info.selected < static_cast<int>(bodies.size())) {
        const Body& body = bodies[static_cast<std::size_t>(info.selected)];
        ImGui::Text("body      %s (#%d)", body.name.c_str(), info.selected);
        ImGui::Text("shape     %s", shapeName(body.shape));
        if (info.pick && info.pick->body == info.selected) {
            ImGui::Text("t         %.4f", static_cast<double>(info.pick->hit.t));
            textVec3("hit", info.pick->hit.point);
            textVec3("normal", info.pick->hit.normal);
        }
        textVec3("position", body.position);
        textVec3("velocity", body.velocity);
        ImGui::Text("speed     %.3f m/s", static_cast<double>(glm::length(body.velocity)));
        ImGui::TextDisabled("left-drag to move it, release to throw");
    } else {
        ImGui::TextUnformatted(obstacles.empty() ? "Click a body to pick it."
                                                 : "Click a body or a mesh to pick it.");
    }
    if (info.hovered >= 0 && info.hovered < static_cast<int>(bodies.size())) {
        ImGui::Text("under the cursor: %s", bodies[static_cast<std::size_t>(info.hovered)].name.c_str());
    } else if (info.hoveredObstacle >= 0 && info.hoveredObstacle < static_cast<int>(obstacles.size())) {
        ImGui::Text("under the cursor: %s, triangle #%u",
                    obstacles[static_cast<std::size_t>(info.hoveredObstacle)].name.c_str(),
                    static_cast<unsigned>(info.hoveredTriangle));
    } else {
        ImGui::TextDisabled("under the cursor: -");
    }
}

void debugSection(UiState& state, const UiFrameInfo& info) {
    ImGui::Checkbox("pick ray, hit and normal", &state.debug.pickRay);
    ImGui::Checkbox("impact preview", &state.debug.impactPreview);
    ImGui::Checkbox("bounding boxes", &state.debug.bounds);
    ImGui::Checkbox("contacts", &state.debug.contacts);
    ImGui::Checkbox("velocities", &state.debug.velocities);
    ImGui::Checkbox("hit triangle", &state.debug.hitTriangle);
    ImGui::Checkbox("BVH boxes [V]", &state.debug.bvhBoxes);
    ImGui::BeginDisabled(!state.debug.bvhBoxes);
    state.debug.bvhDepth = std::clamp(state.debug.bvhDepth, 0, info.bvhDepthLimit);
    ImGui::SliderInt("depth [ ]", &state.debug.bvhDepth, 0, info.bvhDepthLimit, "%d",
                     ImGuiSliderFlags_AlwaysClamp);
    ImGui::EndDisabled();
    ImGui::TextDisabled(info.selectedObstacle >= 0 ? "(the selected mesh's tree)" : "(every mesh's tree)");
}

void statsSection(const UiFrameInfo& info, UiRequests& requests) {
    const World& world = *info.world;
    ImGui::Text("FPS            %.1f", static_cast<double>(info.fps));
    ImGui::Text("frame          %.2f ms", static_cast<double>(info.frameMs));
    ImGui::Text("physics step   %.3f ms (%d this frame)", static_cast<double>(info.physicsMsPerStep),
                info.stepsThisFrame);
    ImGui::Text("bodies         %zu", world.bodies().size());
    if (!world.obstacles().empty()) {
        std::size_t triangles = 0;
        for (const Obstacle& obstacle : world.obstacles())
            triangles += obstacle.mesh->triangleCount();
        ImGui::Text("meshes         %zu (%zu triangles)", world.obstacles().size(), triangles);
    }
    ImGui::Text("contacts       %zu", world.contacts().size());
    ImGui::Text("kinetic energy %.4f J", world.kineticEnergy());
    ImGui::Text("sim time       %.2f s (%llu steps)", world.simTime(),
                static_cast<unsigned long long>(world.stepCount()));
    if (ImGui::Button("Screenshot [F12]")) requests.screenshot = true;
}

} // namespace

const std::vector<KeyHelp>& keyTable() {
    static const std::vector<KeyHelp> table = {
        {"Esc", "quit"},
        {"P", "pause"},
        {"O", "resume"},
        {"Space", "pause / resume"},
        {"N", "single step (pauses first)"},
        {"S", "stop the camera"},
        {"R", "rotate the camera"},
        {"F", "reset: random bodies, new seed"},
        {"D", "reset: the fixed set-up"},
        {"Home", "reset the view"},
        {"Tab", "hide / show the panel"},
        {"F12", "screenshot"},
        {"H", "this help"},
        {"V", "BVH boxes on / off"},
        {"[ / ]", "BVH boxes: one level up / down"},
        {"left click", "pick a body or a mesh (empty space clears)"},
        {"left drag", "move the picked body, release throws"},
        {"right drag", "orbit"},
        {"middle drag", "pan"},
        {"wheel", "zoom"},
    };
    return table;
}

std::optional<std::uint64_t> parseSeed(const char* text) {
    const std::size_t length = std::strlen(text);
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text, text + length, value);
    if (length == 0 || ec != std::errc() || ptr != text + length) return std::nullopt;
    return value;
}

UiRequests drawUi(UiState& state, const UiFrameInfo& info) {
    UiRequests requests;
    if (state.showPanel && info.world != nullptr) {
        const ImGuiViewport* viewport = ImGui::GetMainViewport();
        ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + 8.0f, viewport->WorkPos.y + 8.0f),
                                ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(360.0f, std::max(viewport->WorkSize.y - 16.0f, 100.0f)),
                                 ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowBgAlpha(0.85f);
        if (ImGui::Begin("Kolize", &state.showPanel)) {
            ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
            if (ImGui::CollapsingHeader("Simulation")) simulationSection(state, info, requests);
            ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
            if (ImGui::CollapsingHeader("Camera")) cameraSection(state, info, requests);
            ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
            if (ImGui::CollapsingHeader("Scenario")) scenarioSection(state, info, requests);
            ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
            if (ImGui::CollapsingHeader("Picking")) pickingSection(info);
            if (ImGui::CollapsingHeader("Debug draw")) debugSection(state, info);
            ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
            if (ImGui::CollapsingHeader("Stats")) statsSection(info, requests);
            if (ImGui::CollapsingHeader("Help")) drawKeyTableBody();
        }
        ImGui::End();
    }
    if (state.showHelp) {
        const ImGuiViewport* viewport = ImGui::GetMainViewport();
        ImGui::SetNextWindowPos(
            ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 8.0f, viewport->WorkPos.y + 8.0f),
            ImGuiCond_Appearing, ImVec2(1.0f, 0.0f));
        if (ImGui::Begin("Help", &state.showHelp, ImGuiWindowFlags_AlwaysAutoResize)) drawKeyTableBody();
        ImGui::End();
    }
    return requests;
}

} // namespace kz
