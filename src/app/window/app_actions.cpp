#include "app/cli/errors.hpp"
#include "app/window/app_internal.hpp"

#include <algorithm>
#include <cstdio>
#include <imgui.h>

namespace kz {
namespace {

const char* const kRandomScenario = "random";
const char* const kFixedScenario = "deterministic";

} // namespace

// ------------------------------------------------------------------ scenarios

bool App::load(const std::string& key, std::optional<std::uint64_t> seed, std::string& error) {
    std::shared_ptr<const SessionScenario> scenario = readSessionScenario(key, error);
    if (!scenario) return false;
    const LoadScenario load = loadWithSeed(std::move(scenario), seed);
    if (!session_) {
        session_ = Session::start(load, error);
        if (!session_) return false;
        session_->setJobs(jobs_);
    } else {
        interaction_.forget(world(), frame_); // a drag under way ends on the world it began in
        error = session_->apply(load);
        if (!error.empty()) return false;
    }
    showNewInputs();
    return true;
}

/// The panel shows the new scenario's title, seed, gravity and material; a new scenario brings its
/// own view (a reset of the same one keeps the camera where it is).
void App::applyScenario(const Scenario& scenario) {
    std::snprintf(ui_.seedText, sizeof ui_.seedText, "%llu",
                  static_cast<unsigned long long>(session_->seed()));
    ui_.scenarioError.clear();
    const glm::vec3 gravity = scenario.settings.gravity;
    ui_.gravityOn = gravity != glm::vec3(0.0f);
    if (ui_.gravityOn) ui_.gravity = gravity;
    ui_.restitution = scenario.restitution;
    ui_.friction = scenario.friction;
    ui_.rollingResistance = scenario.rollingResistance;

    const std::string& key = session_->scenario().key;
    if (key != viewScenario_) {
        const bool first = viewScenario_.empty();
        const bool spinning = camera_.spinning();
        const float speed = camera_.spinSpeed();
        camera_ = OrbitCamera::forRoom(world().room().bounds, scenario.camera);
        camera_.setSpinSpeed(speed);
        camera_.setSpinning(spinning && !camera_.hasScenarioView());
        if (!first && spinning != camera_.spinning()) events_.cameraSpin(frame_, camera_.spinning());
        viewScenario_ = key;
    }
    ui_.debug.bvhDepth = std::clamp(ui_.debug.bvhDepth, 0, bvhDepthLimit());
}

void App::reset(const std::string& key, std::optional<std::uint64_t> seed) {
    if (replaying()) return; // the replay's loads are the recording's
    closeLab();              // a scenario chosen or reset: back to the scenarios
    std::string error;
    if (!load(key, seed, error)) {
        ui_.scenarioError = error;
        cli::printError("kolize", error);
        return;
    }
    events_.reset(frame_, session_->scenario().key, session_->seed());
}

void App::resetRandom() {
    std::optional<std::uint64_t> seed = parseSeed(ui_.seedText);
    if (ui_.newSeedEachReset || !seed) seed = seedSource_();
    reset(kRandomScenario, seed);
}

void App::resetFixed() {
    reset(kFixedScenario, std::nullopt);
}

// ------------------------------------------------------------------ input

/// What each key in the key table (keys.cpp) does.
void App::runKeyAction(KeyAction action) {
    switch (action) {
    case KeyAction::Quit:
        quit_ = true;
        break;
    case KeyAction::Pause:
        pause();
        break;
    case KeyAction::Resume:
        resume();
        break;
    case KeyAction::TogglePause:
        if (replaying() ? playback_->paused() : world().paused()) {
            resume();
        } else {
            pause();
        }
        break;
    case KeyAction::SingleStep:
        singleStep();
        break;
    case KeyAction::StopSpin:
        setSpin(false);
        break;
    case KeyAction::StartSpin:
        setSpin(true);
        break;
    case KeyAction::ResetRandom:
        resetRandom();
        break;
    case KeyAction::ResetFixed:
        resetFixed();
        break;
    case KeyAction::ResetView:
        camera_.reset();
        break;
    case KeyAction::TogglePanel:
        ui_.showPanel = !ui_.showPanel;
        break;
    case KeyAction::Screenshot:
        screenshotRequested_ = true;
        break;
    case KeyAction::ToggleHelp:
        ui_.showHelp = !ui_.showHelp;
        break;
    case KeyAction::ToggleShadows:
        setShadows(!ui_.shadows);
        break;
    case KeyAction::ToggleBvhBoxes:
        ui_.debug.bvhBoxes = !ui_.debug.bvhBoxes;
        break;
    case KeyAction::BvhLevelUp:
        changeBvhDepth(-1);
        break;
    case KeyAction::BvhLevelDown:
        changeBvhDepth(+1);
        break;
    case KeyAction::StepBack:
        stepTimeline(-1);
        break;
    case KeyAction::StepForward:
        stepTimeline(+1);
        break;
    case KeyAction::StepBack10:
        stepTimeline(-10);
        break;
    case KeyAction::StepForward10:
        stepTimeline(+10);
        break;
    }
}

// ------------------------------------------------------------------ the session

bool App::input(const SessionInput& input) {
    if (replaying()) return false;
    leavePast(); // a change made on a past step: the session goes on from there
    if (std::string error = session_->apply(input); !error.empty()) {
        cli::printError("kolize", error);
        return false;
    }
    showNewInputs();
    return true;
}

void App::showNewInputs() {
    const std::vector<TimedInput>& inputs = session_->inputs();
    for (; inputsShown_ < inputs.size(); ++inputsShown_) {
        const SessionInput& shown = inputs[inputsShown_].input;
        if (std::holds_alternative<LoadScenario>(shown)) {
            interaction_.forget(world(), frame_); // the picks were the old world's bodies
            applyScenario(session_->scenario().scenario);
        } else if (const auto* material = std::get_if<SetMaterial>(&shown)) {
            ui_.restitution = material->restitution;
            ui_.friction = material->friction;
            ui_.rollingResistance = material->rollingResistance;
        } else if (const auto* gravity = std::get_if<SetGravity>(&shown)) {
            ui_.gravityOn = gravity->gravity != glm::vec3(0.0f);
            if (ui_.gravityOn) ui_.gravity = gravity->gravity;
        } else if (const auto* scale = std::get_if<SetTimeScale>(&shown)) {
            ui_.timeScale = scale->timeScale;
        }
    }
}

int App::advance(float frameSeconds) {
    if (timeline_.past()) return 0; // a past step stands still until the session goes on from it
    if (playback_) return playReplay(frameSeconds);
    return session_->advance(frameSeconds, kPhysicsBudgetSeconds);
}

bool App::worldRunning() const {
    if (lab_.isOpen() || timeline_.past()) return false;
    if (replaying()) return !playback_->paused();
    return !world().paused() && !world().halted();
}

void App::measurePace(bool running, double physicsSeconds) {
    const double simSeconds = stepsThisFrame_ * static_cast<double>(world().settings().timeStep);
    pace_.add({frameWallSeconds_, simSeconds, physicsSeconds, world().settings().timeScale, running});
    if (pace_.behind()) ++behindFrames_;
    if (pace_.behind() == paceLoggedBehind_) return;
    paceLoggedBehind_ = pace_.behind();
    events_.pace(frame_, pace_.behind(), pace_.effectiveScale(), world().settings().timeScale,
                 pace_.physicsLoad(), options_.threads);
}

// ------------------------------------------------------------------ actions

void App::pause() {
    if (timeline_.past() && !replaying()) return; // the past on screen is paused already
    if (replaying()) {
        playback_->setPaused(true);
    } else if (!input(SetPaused{true})) {
        return;
    }
    events_.simple(frame_, "pause");
}

void App::resume() {
    if (replaying()) {
        leavePast(); // back to where the replay plays
        playback_->setPaused(false);
    } else if (!input(SetPaused{false})) {
        return;
    }
    events_.simple(frame_, "resume");
}

void App::singleStep() {
    if (timeline_.past()) { // along the kept steps
        stepTimeline(+1);
        return;
    }
    if (replaying()) {
        if (!playback_->paused()) pause();
        playback_->requestTick();
    } else {
        if (!world().paused()) pause();
        if (!input(SingleStep{})) return;
    }
    events_.simple(frame_, "step");
}

void App::setSpin(bool on) {
    camera_.setSpinning(on);
    spinWanted_ = on;
    events_.cameraSpin(frame_, on);
}

void App::setShadows(bool on) {
    ui_.shadows = on;
    events_.shadows(frame_, on);
}

void App::applyUi(const UiRequests& requests) {
    if (requests.timeline.pause) pause();
    if (requests.timeline.resume) resume();
    if (requests.timeline.seek) seek(*requests.timeline.seek);
    if (requests.pause) pause();
    if (requests.resume) resume();
    if (requests.singleStep) singleStep();
    if (requests.spin) setSpin(*requests.spin);
    if (requests.shadows) setShadows(*requests.shadows);
    if (requests.resetView) camera_.reset();
    if (requests.timeScaleChanged) input(SetTimeScale{ui_.timeScale});
    if (requests.gravityChanged) input(SetGravity{ui_.gravityOn ? ui_.gravity : glm::vec3(0.0f)});
    if (requests.materialChanged) input(SetMaterial{ui_.restitution, ui_.friction, ui_.rollingResistance});
    if (requests.screenshot) screenshotRequested_ = true;
    if (requests.openLab) openLab(*requests.openLab);
    if (requests.labShapeKind) lab_.setShapeKind(requests.labShapeKind->first, requests.labShapeKind->second);
    if (requests.closeLab) closeLab();
    if (requests.resetRandom) resetRandom();
    if (requests.resetFixed) resetFixed();
    if (requests.loadScenario) reset(*requests.loadScenario, std::nullopt);
    if (requests.reload) {
        ui_.scenarioNames = builtinScenarioNames();
        const std::optional<std::uint64_t> seed = parseSeed(ui_.seedText);
        reset(session_->scenario().key, seed ? seed : std::optional<std::uint64_t>(session_->seed()));
    }
    if (requests.hideImpact) impacts_.hide();
    if (requests.jumpToImpact) jumpToImpact(*requests.jumpToImpact);
}

UiFrameInfo App::frameInfo() {
    const ImGuiIO& io = ImGui::GetIO();
    UiFrameInfo info;
    info.world = &world();
    info.scenarioKey = session_->scenario().key;
    info.scenarioTitle = session_->scenario().scenario.name;
    info.scenarioDescription = session_->scenario().scenario.description;
    info.seed = session_->seed();
    info.timeline = timelineInfo();
    info.paused = replaying() ? playback_->paused() : world().paused();
    if (playback_) info.replay = playback_->status(*session_);
    info.spinning = camera_.spinning();
    info.picks = interaction_.picks();
    info.bvhDepthLimit = bvhDepthLimit();
    info.fps = io.Framerate;
    info.frameMs = io.Framerate > 0.0f ? 1000.0f / io.Framerate : 0.0f;
    info.physicsMsPerStep = physicsMsPerStep_;
    info.stepsThisFrame = stepsThisFrame_;
    info.threads = options_.threads;
    info.pace = &pace_;
    info.lab = &lab_;
    info.probe = &probe_;
    info.impacts = &impacts_;
    info.msaaSamples = renderer_->msaaSamples();
    return info;
}

int App::bvhDepthLimit() const {
    const auto obstacles = world().obstacles();
    const int selected = interaction_.picks().selectedObstacle();
    int depth = 0;
    if (selected >= 0 && selected < static_cast<int>(obstacles.size())) {
        depth = obstacles[static_cast<std::size_t>(selected)].mesh->bvh.depth();
    } else {
        for (const Obstacle& obstacle : obstacles)
            depth = std::max(depth, obstacle.mesh->bvh.depth());
    }
    return std::max(depth - 1, 0);
}

void App::changeBvhDepth(int delta) {
    ui_.debug.bvhDepth = std::clamp(ui_.debug.bvhDepth + delta, 0, bvhDepthLimit());
}

} // namespace kz
