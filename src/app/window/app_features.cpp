// The App's part in its features. Each feature is an object with its own state and entry points
// (app/lab/lab.hpp, app/lab/probe.hpp, app/timeline/timeline.hpp, impacts.hpp, playback.hpp);
// here the App passes each what it needs (the session, the camera, the event log, this frame)
// and carries its effects to the others: a seek pauses the world, a change made on a past step
// rewinds the session and its impacts, a jump to an impact moves the timeline and the selection.
#include "app/cli/errors.hpp"
#include "app/window/app_internal.hpp"
#include "physics/state_hash.hpp"

#include <chrono>
#include <imgui.h>

namespace kz {
namespace {

/// The lab's and the probe's lines and surfaces, in the renderer's debug-line form.
void toDebugLines(const LabCanvas& canvas, render::DebugLines& out) {
    out.clear();
    for (const LabVertex& v : canvas.lines)
        out.lines.push_back({v.position, v.color});
    for (const LabVertex& v : canvas.topLines)
        out.topLines.push_back({v.position, v.color});
    for (const LabSurface& s : canvas.surfaces)
        out.surfaces.push_back({s.positions, s.indices, s.color});
}

float msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

// ------------------------------------------------------------------ --replay

AppResult App::startReplay() {
    std::string error;
    playback_ = Playback::load(options_.replay, error);
    if (!playback_ || !playback_->start(session_, jobs_, error)) return {cli::kExitUsage, error};
    showNewInputs();
    return {};
}

int App::playReplay(float frameSeconds) {
    if (!replaying()) return session_->advance(frameSeconds, kPhysicsBudgetSeconds);
    std::string error;
    const int steps = playback_->play(*session_, frameSeconds, kPhysicsBudgetSeconds, error);
    showNewInputs();
    if (!error.empty()) {
        // An input that cannot apply (a body out of range): the recording is broken here.
        failure_ = {cli::kExitUsage, error};
        quit_ = true;
    } else if (playback_->atEnd(*session_)) {
        playback_->finish(*session_, events_, frame_);
        // Paused at the end: the user looks, then takes over.
        if (!world().paused()) input(SetPaused{true});
    }
    return steps;
}

// ------------------------------------------------------------------ the timeline

void App::seek(std::uint64_t tick) {
    if (!world().paused()) pause();
    if (replaying()) playback_->setPaused(true);
    const std::size_t bodies = world().bodies().size();
    std::string error;
    if (!timeline_.show(tick, *session_, error)) {
        if (!error.empty()) cli::printError("kolize", "timeline: " + error);
        return;
    }
    const bool present = timeline_.past() == nullptr;
    if (!present && world().bodies().size() != bodies) interaction_.forget(world(), frame_);
    events_.timeline(frame_, "seek", tick, stateHash(world()), present);
}

void App::stepTimeline(int delta) {
    if (lab_.isOpen() || timeline_.history().empty()) return;
    if (!timeline_.past() && delta > 0 && !replaying()) {
        // At the session's own step: forward is a new step (one N per step).
        for (int i = 0; i < delta; ++i) {
            singleStep();
            advance(0.0f);
        }
        return;
    }
    seek(timelineStep(timeline_.history(), timeline_.shownTick(*session_), delta));
}

void App::leavePast() {
    if (!timeline_.past()) return;
    if (replaying()) { // a replay's future is the recording's: back to where it plays
        timeline_.showPresent();
        return;
    }
    timeline_.goOnFromPast(*session_);
    inputsShown_ = std::min(inputsShown_, session_->inputs().size());
    impacts_.keepTo(session_->tick());
    events_.timeline(frame_, "rewind", session_->tick(), stateHash(world()), true);
}

TimelineInfo App::timelineInfo() const {
    TimelineInfo info;
    info.history = &timeline_.history();
    info.tick = timeline_.shownTick(*session_);
    info.paused = replaying() ? playback_->paused() : world().paused();
    info.timeStep = world().settings().timeStep;
    return info;
}

// ------------------------------------------------------------------ the impact log

void App::jumpToImpact(const ImpactRecord& record) {
    if (lab_.isOpen() || record.body < 0) return;
    // The state right after the impact's step, from the timeline (paused there); a step the
    // history no longer keeps is shown where the session is.
    if (timeline_.history().covers(record.step)) {
        seek(record.step);
    } else if (!world().paused()) {
        pause();
    }
    if (record.body >= static_cast<int>(world().bodies().size())) return;
    // The impact's body, or its partner body when that is the one selected (the list filtered by
    // it keeps showing the same body's impacts); the normal then points toward it.
    const int selected = interaction_.picks().selectedBody();
    const bool partner = selected != record.body && involvesBody(record, selected);
    PickHit hit{partner ? selected : record.body,
                RayHit{0.0f, record.point, partner ? -record.normal : record.normal}};
    interaction_.select(world(), hit, frame_);
    impacts_.show(world(), record);
    events_.jumpToImpact(frame_, world(), record);
}

// ------------------------------------------------------------------ the lab and the probe

void App::openLab(LabQuery query) {
    lab_.open(query, camera_);
    ui_.card.labQuery = query; // the card's "Open the lab" and the settings follow the last one
    labOpened_ = true;
    orbiting_ = false;
}

void App::closeLab() {
    if (!lab_.isOpen()) return;
    lab_.close(camera_);
    orbiting_ = false;
}

float App::handleLabInput() {
    const auto start = std::chrono::steady_clock::now();
    const ScreenCamera screen = screenCamera();
    const bool panelWantsMouse = ImGui::GetIO().WantCaptureMouse;
    for (const MouseClick& click : clicks_) {
        const LabButton button = click.right ? LabButton::Right : LabButton::Left;
        if (!click.press) {
            lab_.release(button);
            continue;
        }
        const bool grabbed = lab_.press(screen, click.pos, button, click.shift, panelWantsMouse);
        // A right press on empty space orbits the camera, as in the scenarios.
        if (click.right && !grabbed && !panelWantsMouse) orbiting_ = true;
    }
    clicks_.clear();
    lab_.update(screen, platform_.pointer(), events_, frame_);
    return msSince(start);
}

void App::drawScene(const render::SceneView& view) {
    LabCanvas canvas;
    canvas.eye = view.eye;
    if (!lab_.isOpen()) {
        drawProbe(probe_.result, canvas);
        impacts_.draw(world(), canvas);
        toDebugLines(canvas, extraLines_);
        render::Overlay overlay = render::overlayOf(world(), interaction_.picks(), view.farPlane);
        overlay.extra = &extraLines_;
        renderer_->draw(world(), view, interaction_.picks().selectedBody(), ui_.debug, overlay);
        return;
    }
    lab_.drawConstruction(canvas);
    toDebugLines(canvas, extraLines_);
    const Lab::Picture picture = lab_.picture();
    render::Overlay overlay;
    overlay.selectedObstacle = picture.selectedObstacle;
    overlay.previewBody = -1;
    overlay.extra = &extraLines_;
    render::DebugDraw nothing;
    nothing.pickRay = nothing.impactPreview = nothing.hitTriangle = false;
    renderer_->draw(picture.world, view, picture.outlinedBody, nothing, overlay);
}

} // namespace kz
