#include "app/ui/panel.hpp"

#include "app/timeline/pace_meter.hpp"
#include "app/ui/impacts_panel.hpp"
#include "app/ui/keys.hpp"
#include "app/ui/lab_panel.hpp"
#include "app/ui/widgets.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <imgui.h>

namespace kz {
namespace {

/// A button or checkbox label naming its key: "Pause [P]".
std::string withKey(const char* label, KeyAction action) {
    return std::string(label) + " [" + keyLabel(action) + "]";
}

void drawKeyTableBody() {
    if (!ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) return;
    ImGui::TableSetupColumn("Key", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Action");
    ImGui::TableHeadersRow();
    for (const KeyRow& row : keyTable()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.action);
    }
    ImGui::EndTable();
}

/// While a replay plays: where it is; at its end: whether it ended where the recording did.
void replayStatus(const ReplayStatus& replay) {
    if (!replay.finished) {
        ImGui::TextColored(ImVec4(0.5f, 0.8f, 1.0f, 1.0f), "replaying %s: tick %llu of %llu",
                           replay.file.c_str(), static_cast<unsigned long long>(replay.tick),
                           static_cast<unsigned long long>(replay.endTick));
    } else if (replay.verdict.empty()) {
        ImGui::TextColored(ImVec4(0.5f, 1.0f, 0.5f, 1.0f), "replay ended at tick %llu: the recorded state",
                           static_cast<unsigned long long>(replay.endTick));
    } else {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", replay.verdict.c_str());
        ImGui::PopTextWrapPos();
    }
}

bool replaying(const UiFrameInfo& info) {
    return info.replay && !info.replay->finished;
}

/// The pace against real time under the time scale: the effective scale, the physics' load and
/// threads, and a warning when the physics cannot keep up (PaceMeter::behind).
void paceLines(const UiFrameInfo& info) {
    const char* threads = info.threads == 1 ? "thread" : "threads";
    const double asked = static_cast<double>(info.world->settings().timeScale);
    if (!info.pace || !info.pace->settled()) {
        ImGui::TextDisabled("pace      --  (%d %s)", info.threads, threads);
        return;
    }
    const PaceMeter& pace = *info.pace;
    ImGui::Text("pace      %.2fx of %.2fx  (%d %s)", pace.effectiveScale(), asked, info.threads, threads);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("simulated seconds per wall second, over about the last second");
    ImGui::Text("physics   %.0f%% of real time", 100.0 * pace.physicsLoad());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the wall time the steps take, at the time scale asked for");
    if (pace.behind()) {
        const ImVec4 orange(1.0f, 0.6f, 0.2f, 1.0f);
        ImGui::TextColored(orange, "The physics cannot keep up with real time:");
        ImGui::TextColored(orange, "it runs at %.2fx, not the %.2fx asked for.", pace.effectiveScale(),
                           asked);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("fewer bodies, a lower time scale or more threads (--threads) would help");
    }
}

void simulationSection(UiState& state, const UiFrameInfo& info, UiRequests& requests) {
    const World& world = *info.world;
    if (info.replay) replayStatus(*info.replay);
    if (info.paused) {
        if (ImGui::Button(withKey("Resume", KeyAction::Resume).c_str())) requests.resume = true;
    } else {
        if (ImGui::Button(withKey("Pause", KeyAction::Pause).c_str())) requests.pause = true;
    }
    ImGui::SameLine();
    if (ImGui::Button(withKey("Single step", KeyAction::SingleStep).c_str())) requests.singleStep = true;
    ImGui::SameLine();
    ImGui::TextDisabled(info.paused ? "paused" : "running");
    if (world.halted()) {
        // World stops on a NaN or infinite state (physics/world.hpp): say which body, in red.
        const std::size_t body = static_cast<std::size_t>(world.haltedBody());
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "halted: body %zu (%s) has a non-finite state",
                           body, world.bodies()[body].name.c_str());
    }

    ImGui::BeginDisabled(replaying(info)); // a replay's parameters are the recording's
    if (ImGui::SliderFloat("time scale", &state.timeScale, 0.05f, 2.0f, "%.2fx",
                           ImGuiSliderFlags_Logarithmic)) {
        state.timeScale = std::clamp(state.timeScale, 0.05f, 2.0f);
        requests.timeScaleChanged = true;
    }
    ImGui::EndDisabled();
    paceLines(info);
    ImGui::BeginDisabled(replaying(info));
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
    ImGui::EndDisabled();
    ImGui::TextDisabled("(the material applies to every body)");
}

void cameraSection(UiState& state, const UiFrameInfo& info, UiRequests& requests) {
    bool spinning = info.spinning;
    if (ImGui::Checkbox(
            (withKey("spin", KeyAction::StartSpin) + "/[" + keyLabel(KeyAction::StopSpin) + "]").c_str(),
            &spinning))
        requests.spin = spinning;
    ImGui::SliderFloat("speed", &state.spinSpeedDegPerSecond, -45.0f, 45.0f, "%.1f deg/s");
    if (ImGui::Button(withKey("Reset view", KeyAction::ResetView).c_str())) requests.resetView = true;
    ImGui::SameLine();
    bool shadows = state.shadows;
    if (ImGui::Checkbox(withKey("shadows", KeyAction::ToggleShadows).c_str(), &shadows))
        requests.shadows = shadows;
    ImGui::TextDisabled("right-drag orbit, wheel zoom, middle-drag pan");
}

void scenarioSection(UiState& state, const UiFrameInfo& info, UiRequests& requests) {
    ImGui::Text("%s (%s), seed %llu", info.scenarioTitle.c_str(), info.scenarioKey.c_str(),
                static_cast<unsigned long long>(info.seed));
    ImGui::BeginDisabled(replaying(info)); // a replay's loads are the recording's
    const float rows = static_cast<float>(std::min<std::size_t>(state.scenarioNames.size(), 6));
    if (ImGui::BeginListBox("##scenarios",
                            ImVec2(-1.0f, (rows + 0.25f) * ImGui::GetTextLineHeightWithSpacing()))) {
        for (const std::string& name : state.scenarioNames) {
            if (ImGui::Selectable(name.c_str(), name == info.scenarioKey)) requests.loadScenario = name;
        }
        ImGui::EndListBox();
    }
    ImGui::EndDisabled();
    // What to watch in the scenario on screen (its "description"), never greyed out.
    if (!info.scenarioDescription.empty())
        ImGui::TextWrapped("%.*s", static_cast<int>(info.scenarioDescription.size()),
                           info.scenarioDescription.data());
    ImGui::BeginDisabled(replaying(info));
    if (ImGui::Button(withKey("Reset random", KeyAction::ResetRandom).c_str())) requests.resetRandom = true;
    ImGui::SameLine();
    if (ImGui::Button(withKey("Reset fixed", KeyAction::ResetFixed).c_str())) requests.resetFixed = true;
    ImGui::SameLine();
    if (ImGui::Button("Reload")) requests.reload = true;
    ImGui::EndDisabled();

    ImGui::SetNextItemWidth(ImGui::CalcTextSize("18446744073709551615").x +
                            2.0f * ImGui::GetStyle().FramePadding.x);
    ImGui::InputText("seed", state.seedText, sizeof state.seedText, ImGuiInputTextFlags_CharsDecimal);
    ImGui::SameLine();
    ImGui::Checkbox(withKey("new on", KeyAction::ResetRandom).c_str(), &state.newSeedEachReset);
    if (!parseSeed(state.seedText)) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "seed: 0 to 2^64-1");
    ImGui::TextDisabled("Reload rebuilds the scenario with this seed");
    if (!state.scenarioError.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", state.scenarioError.c_str());
        ImGui::PopTextWrapPos();
    }
}

void obstacleSelection(const Obstacle& obstacle, int index, const PickHit& pick) {
    ImGui::Text("obstacle  %s (#%d)", obstacle.name.c_str(), index);
    ImGui::Text("mesh      %s", obstacle.mesh->source.c_str());
    ImGui::Text("triangles %zu", obstacle.mesh->triangleCount());
    ImGui::Text("BVH depth %d", obstacle.mesh->bvh.depth());
    ImGui::Text("triangle  #%u", static_cast<unsigned>(pick.triangle));
    ImGui::Text("bary      %.3f %.3f %.3f", static_cast<double>(1.0f - pick.u - pick.v),
                static_cast<double>(pick.u), static_cast<double>(pick.v));
    textVec3("hit", pick.hit.point);
    textVec3("normal", pick.hit.normal);
    ImGui::Text("t         %.4f", static_cast<double>(pick.hit.t));
    textVec3("position", obstacle.position);
    ImGui::TextDisabled("static: it cannot be dragged");
}

void bodySelection(const Body& body, int index, const PickHit& pick) {
    ImGui::Text("body      %s (#%d)", body.name.c_str(), index);
    ImGui::Text("shape     %s", shapeName(body.shape));
    switch (body.shape) {
    case ShapeType::Sphere:
        ImGui::Text("radius    %.3f m", static_cast<double>(body.radius));
        break;
    case ShapeType::Box:
        textVec3("half ext.", body.halfExtents);
        break;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
        ImGui::Text("radius    %.3f m, half height %.3f m", static_cast<double>(roundRadius(body)),
                    static_cast<double>(body.halfHeight));
        break;
    case ShapeType::Hull:
        ImGui::Text("hull      %zu vertices, %zu faces",
                    body.hull ? body.hull->vertices.size() : std::size_t{0},
                    body.hull ? body.hull->faces.size() : std::size_t{0});
        break;
    }
    ImGui::Text("t         %.4f", static_cast<double>(pick.hit.t));
    textVec3("hit", pick.hit.point);
    textVec3("normal", pick.hit.normal);
    textVec3("position", body.position);
    textVec3("velocity", body.velocity);
    ImGui::Text("speed     %.3f m/s", static_cast<double>(glm::length(body.velocity)));
    ImGui::TextDisabled("left-drag to move it, release to throw");
}

void pickingSection(const UiFrameInfo& info) {
    const World& world = *info.world;
    const auto bodies = world.bodies();
    const auto obstacles = world.obstacles();
    const PickState& picks = info.picks;
    const int selectedBody = picks.selectedBody();
    const int selectedObstacle = picks.selectedObstacle();
    if (selectedObstacle >= 0 && selectedObstacle < static_cast<int>(obstacles.size())) {
        obstacleSelection(obstacles[static_cast<std::size_t>(selectedObstacle)], selectedObstacle,
                          *picks.selection);
    } else if (selectedBody >= 0 && selectedBody < static_cast<int>(bodies.size())) {
        bodySelection(bodies[static_cast<std::size_t>(selectedBody)], selectedBody, *picks.selection);
    } else {
        ImGui::TextUnformatted(obstacles.empty() ? "Click a body to pick it."
                                                 : "Click a body or a mesh to pick it.");
    }
    const int hoveredBody = picks.hoveredBody();
    const int hoveredObstacle = picks.hoveredObstacle();
    if (hoveredBody >= 0 && hoveredBody < static_cast<int>(bodies.size())) {
        ImGui::Text("under the cursor: %s", bodies[static_cast<std::size_t>(hoveredBody)].name.c_str());
    } else if (hoveredObstacle >= 0 && hoveredObstacle < static_cast<int>(obstacles.size())) {
        ImGui::Text("under the cursor: %s, triangle #%u",
                    obstacles[static_cast<std::size_t>(hoveredObstacle)].name.c_str(),
                    static_cast<unsigned>(picks.hover->triangle));
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
    ImGui::Checkbox(withKey("BVH boxes", KeyAction::ToggleBvhBoxes).c_str(), &state.debug.bvhBoxes);
    ImGui::BeginDisabled(!state.debug.bvhBoxes);
    state.debug.bvhDepth = std::clamp(state.debug.bvhDepth, 0, info.bvhDepthLimit);
    ImGui::SliderInt("depth [ ]", &state.debug.bvhDepth, 0, info.bvhDepthLimit, "%d",
                     ImGuiSliderFlags_AlwaysClamp);
    ImGui::EndDisabled();
    ImGui::TextDisabled(info.picks.selectedObstacle() >= 0 ? "(the selected mesh's tree)"
                                                           : "(every mesh's tree)");
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
    ImGui::Text("impacts        %d last step (cap %d)", world.lastStepImpacts(), world.eventCap());
    ImGui::Text("advances       %lld last step (cap %lld)", static_cast<long long>(world.lastStepAdvances()),
                static_cast<long long>(world.advanceCap()));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("conservative advancements: the steps the searches for times of impact took");
    if (world.cappedSteps() > 0) {
        // Steps that reached a cap stop every body at their last impact (physics/world.hpp).
        ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "cut short      %llu steps at a cap",
                           static_cast<unsigned long long>(world.cappedSteps()));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "these steps had more impacts or advancements than their caps: every body stopped\n"
                "at the last impact taken (the last such step lost %.2f ms of flight); nothing\n"
                "passed a wall or a body",
                world.lastStepCapped() ? 1000.0 * world.lastStepLost() : 0.0);
    }
    ImGui::Text("kinetic energy %.4f J", world.kineticEnergy());
    ImGui::Text("sim time       %.2f s (%llu steps)", world.simTime(),
                static_cast<unsigned long long>(world.stepCount()));
    if (info.msaaSamples > 1) {
        ImGui::Text("MSAA           %dx", info.msaaSamples);
    } else {
        ImGui::TextUnformatted("MSAA           off");
    }
    if (ImGui::Button(withKey("Screenshot", KeyAction::Screenshot).c_str())) requests.screenshot = true;
}

/// The sections of the scenarios' window.
/// Open at first: what runs, what it is, what was clicked and what hit what; the rest a click away,
/// so that the scene (and on a first run the card) reads first.
void scenarioSections(UiState& state, const UiFrameInfo& info, UiRequests& requests) {
    ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
    if (ImGui::CollapsingHeader("Simulation")) simulationSection(state, info, requests);
    if (ImGui::CollapsingHeader("Timeline")) requests.timeline = timelineSection(info.timeline);
    if (ImGui::CollapsingHeader("Camera")) cameraSection(state, info, requests);
    ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
    if (ImGui::CollapsingHeader("Scenario")) scenarioSection(state, info, requests);
    ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
    if (ImGui::CollapsingHeader("Picking")) pickingSection(info);
    ImGui::SetNextItemOpen(true, ImGuiCond_FirstUseEver);
    if (ImGui::CollapsingHeader("Impacts")) impactsSection(info, requests);
    if (ImGui::CollapsingHeader("Probe") && info.probe) probeSection(*info.probe, info.world);
    if (ImGui::CollapsingHeader("Debug draw")) debugSection(state, info);
    if (ImGui::CollapsingHeader("Stats")) statsSection(info, requests);
}

} // namespace

bool showCardButton(FirstRunCard& card) {
    ImGui::BeginDisabled(card.open);
    const bool pressed = ImGui::Button("Show the \"Try this\" card");
    ImGui::EndDisabled();
    if (pressed) card.open = true;
    return pressed;
}

std::optional<std::uint64_t> parseSeed(const char* text) {
    const std::size_t length = std::strlen(text);
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text, text + length, value);
    if (length == 0 || ec != std::errc() || ptr != text + length) return std::nullopt;
    return value;
}

void drawSelectedLabel(const World& world, const PickState& picks, const glm::mat4& view,
                       const glm::mat4& proj, float nearPlane) {
    const int body = picks.selectedBody();
    const int obstacle = picks.selectedObstacle();
    glm::vec3 anchor(0.0f);
    const std::string* name = nullptr;
    if (body >= 0 && body < static_cast<int>(world.bodies().size())) {
        const Body& picked = world.bodies()[static_cast<std::size_t>(body)];
        anchor = picked.position;
        name = &picked.name;
    } else if (obstacle >= 0 && obstacle < static_cast<int>(world.obstacles().size())) {
        const Obstacle& picked = world.obstacles()[static_cast<std::size_t>(obstacle)];
        anchor = 0.5f * (picked.bounds.min + picked.bounds.max);
        name = &picked.name;
    }
    if (name == nullptr) return;
    drawLabelAt(anchor, name->c_str(), view, proj, nearPlane);
}

void drawLabelAt(const glm::vec3& anchor, const char* text, const glm::mat4& view, const glm::mat4& proj,
                 float nearPlane) {
    const glm::vec4 clip = proj * view * glm::vec4(anchor, 1.0f);
    if (!(clip.w > nearPlane)) return; // behind the camera
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const ImVec2 centre{(ndc.x * 0.5f + 0.5f) * display.x, (0.5f - ndc.y * 0.5f) * display.y};
    const ImVec2 size = ImGui::CalcTextSize(text);
    const ImVec2 topLeft{centre.x - 0.5f * size.x, centre.y - 0.5f * size.y};
    ImDrawList* list = ImGui::GetForegroundDrawList();
    list->AddRectFilled(ImVec2(topLeft.x - 4.0f, topLeft.y - 2.0f),
                        ImVec2(topLeft.x + size.x + 4.0f, topLeft.y + size.y + 2.0f), IM_COL32(0, 0, 0, 170),
                        3.0f);
    list->AddText(topLeft, IM_COL32(255, 230, 90, 255), text);
}

ScreenRect panelStartRect(glm::vec2 display, float uiScale) {
    const glm::vec2 corner(8.0f * uiScale);
    return {corner, corner + glm::vec2(360.0f, std::max(display.y / uiScale - 16.0f, 100.0f)) * uiScale};
}

UiRequests drawUi(UiState& state, const UiFrameInfo& info) {
    UiRequests requests;
    state.panel.reset();
    if (state.showPanel && info.world != nullptr) {
        const ImGuiViewport* viewport = ImGui::GetMainViewport();
        const ScreenRect start = panelStartRect({viewport->WorkSize.x, viewport->WorkSize.y}, state.uiScale);
        ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + start.min.x, viewport->WorkPos.y + start.min.y),
                                ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(start.size().x, start.size().y), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowBgAlpha(0.85f);
        if (ImGui::Begin("Kolize", &state.showPanel)) {
            // Open (not collapsed to its title bar): the view is framed beside it.
            const ImVec2 pos = ImGui::GetWindowPos();
            const ImVec2 size = ImGui::GetWindowSize();
            if (state.showPanel) state.panel = ScreenRect{{pos.x, pos.y}, {pos.x + size.x, pos.y + size.y}};
            // The lab (its list of queries; all of it while the window shows it), else the scenarios.
            if (info.lab) labHeader(*info.lab, requests);
            if (info.lab && info.lab->isOpen()) {
                if (ImGui::CollapsingHeader("Camera")) cameraSection(state, info, requests);
            } else {
                scenarioSections(state, info, requests);
            }
            if (ImGui::CollapsingHeader("Help")) {
                showCardButton(state.card);
                drawKeyTableBody();
            }
        }
        ImGui::End();
    }
    if (state.showHelp) {
        const ImGuiViewport* viewport = ImGui::GetMainViewport();
        ImGui::SetNextWindowPos(
            ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 8.0f, viewport->WorkPos.y + 8.0f),
            ImGuiCond_Appearing, ImVec2(1.0f, 0.0f));
        if (ImGui::Begin("Help", &state.showHelp, ImGuiWindowFlags_AlwaysAutoResize)) {
            showCardButton(state.card);
            drawKeyTableBody();
        }
        ImGui::End();
    }
    if (drawFirstRunCard(state.card, state.uiScale).openLab) requests.openLab = state.card.labQuery;
    return requests;
}

} // namespace kz
