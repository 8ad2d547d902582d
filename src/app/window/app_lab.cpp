// The App's query lab (kolize --lab, the panel's Lab) and mouse probe: opening and closing the
// lab, its mouse, its query each frame and the event when the verdict changes, and what the
// renderer draws for either (app_internal.hpp).
#include "app/window/app_internal.hpp"
#include "physics/room.hpp"

#include <chrono>
#include <imgui.h>

namespace kz {
namespace {

/// The lab's and the probe's lines, in the renderer's debug-line form.
void toDebugLines(const LabCanvas& canvas, render::DebugLines& out) {
    out.clear();
    for (const LabVertex& v : canvas.lines)
        out.lines.push_back({v.position, v.color});
    for (const LabVertex& v : canvas.topLines)
        out.topLines.push_back({v.position, v.color});
}

float msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

void App::openLab(LabQuery query) {
    OrbitCamera scenarioCamera = lab_ ? lab_->scenarioCamera : camera_;
    lab_.emplace();
    lab_->scene = makeLabScene(query);
    lab_->result = runLabQuery(lab_->scene);
    lab_->scenarioCamera = std::move(scenarioCamera);
    ui_.labView.satAxis = ui_.labView.bvhStep = -1; // a new query starts on its own answer
    orbiting_ = false;
    camera_ = OrbitCamera::forRoom(boxRoom(kLabRoomSize).bounds, CameraDesc{kLabEye, kLabTarget, kLabFovDeg});
}

void App::closeLab() {
    if (!lab_) return;
    camera_ = lab_->scenarioCamera;
    orbiting_ = false;
    lab_.reset();
}

bool App::labMouseButton(const SDL_MouseButtonEvent& button, bool down) {
    if (!lab_ || (button.button != SDL_BUTTON_LEFT && button.button != SDL_BUTTON_RIGHT)) return false;
    const bool right = button.button == SDL_BUTTON_RIGHT;
    if (right && !down) orbiting_ = false;
    clicks_.push_back({down,
                       {static_cast<float>(button.x), static_cast<float>(button.y)},
                       right,
                       (SDL_GetModState() & KMOD_SHIFT) != 0});
    return true;
}

float App::handleLabInput() {
    const auto start = std::chrono::steady_clock::now();
    const ScreenCamera screen = screenCamera();
    const bool panelWantsMouse = ImGui::GetIO().WantCaptureMouse;
    LabInteraction& mouse = lab_->mouse;
    for (const MouseClick& click : clicks_) {
        const LabButton button = click.right ? LabButton::Right : LabButton::Left;
        if (!click.press) {
            mouse.release(button);
            continue;
        }
        const bool grabbed =
            mouse.press(lab_->scene, screen, click.pos, button, click.shift, panelWantsMouse);
        // A right press on empty space orbits the camera, as in the scenarios.
        if (click.right && !grabbed && !panelWantsMouse) orbiting_ = true;
    }
    clicks_.clear();
    const Pointer pointer = platform_.pointer();
    mouse.drag(lab_->scene, screen, pointer);
    mouse.hover(lab_->scene, screen, pointer);

    lab_->result = runLabQuery(lab_->scene);
    if (lab_->loggedVerdict != lab_->result.positive) {
        logLabResult(events_, frame_, labQueryName(lab_->scene.query), lab_->result);
        lab_->loggedVerdict = lab_->result.positive;
    }
    return msSince(start);
}

void App::updateProbe(const ScreenCamera& screen, const Pointer& pointer) {
    probe_ = ProbeResult{};
    if (ui_.probeMode == ProbeMode::Off || !pointer.overScene) return;
    probe_ = runProbe(world(), screen.rayAt(pointer.pos), ui_.probeMode, ui_.probeRadius);
}

void App::drawScene(const render::SceneView& view) {
    LabCanvas canvas;
    canvas.eye = view.eye;
    if (!lab_) {
        drawProbe(probe_, canvas);
        drawShownImpact(canvas);
        toDebugLines(canvas, extraLines_);
        render::Overlay overlay = render::overlayOf(world(), interaction_.picks(), view.farPlane);
        overlay.extra = &extraLines_;
        renderer_->draw(world(), view, interaction_.picks().selectedBody(), ui_.debug, overlay);
        return;
    }
    drawLabConstruction(lab_->scene, lab_->result, canvas, ui_.labView);
    toDebugLines(canvas, extraLines_);
    std::vector<int> bodyOfShape, bodyOfHandle, obstacleOfShape;
    const World world = labWorld(lab_->scene, lab_->result, &bodyOfShape, &bodyOfHandle, &obstacleOfShape);
    // What the mouse holds, else what it is over, gets the selection's yellow rim.
    int outlined = -1;
    render::Overlay overlay;
    if (const auto item = lab_->mouse.grabbed() ? lab_->mouse.grabbed() : lab_->mouse.hovered()) {
        const auto i = std::size_t(item->index);
        outlined = item->handle ? bodyOfHandle[i] : bodyOfShape[i];
        if (!item->handle) overlay.selectedObstacle = obstacleOfShape[i];
    }
    overlay.previewBody = -1;
    overlay.extra = &extraLines_;
    render::DebugDraw nothing;
    nothing.pickRay = nothing.impactPreview = nothing.hitTriangle = false;
    renderer_->draw(world, view, outlined, nothing, overlay);
}

void App::labFrameInfo(UiFrameInfo& info) const {
    if (!lab_) return;
    info.labQuery = lab_->scene.query;
    info.labResult = lab_->result;
    if (const auto item = lab_->mouse.grabbed() ? lab_->mouse.grabbed() : lab_->mouse.hovered()) {
        const std::string& name = item->handle ? lab_->scene.handles[std::size_t(item->index)].name
                                               : lab_->scene.shapes[std::size_t(item->index)].name;
        info.labHover = item->handle ? name + " (an end: drag it)" : name + " (drag: move, right-drag: turn)";
    }
}

} // namespace kz
