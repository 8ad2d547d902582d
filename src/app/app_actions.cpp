#include "app/app_internal.hpp"
#include "app/cli_errors.hpp"

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
    ScenarioResult resolved = resolveScenario(key);
    if (!resolved.scenario) {
        error = resolved.error;
        return false;
    }
    InstantiateResult made = instantiate(*resolved.scenario, seed);
    if (!made.world) {
        error = made.error;
        return false;
    }
    const bool wasPaused = world_ && world_->paused();
    const bool sameScenario = world_.has_value() && key == scenarioKey_;
    if (world_) interaction_.forget(*world_, frame_);
    world_.emplace(std::move(*made.world));
    world_->setPaused(wasPaused);
    world_->setTimeScale(ui_.timeScale);

    scenarioKey_ = key;
    seed_ = made.seed;
    applyScenario(*resolved.scenario);

    // A new scenario brings its own view; a reset of the same one keeps the camera where it is.
    if (!sameScenario) {
        const bool spinning = camera_.spinning();
        const float speed = camera_.spinSpeed();
        camera_ = OrbitCamera::forRoom(world_->room().bounds, resolved.scenario->camera);
        camera_.setSpinSpeed(speed);
        camera_.setSpinning(spinning && !camera_.hasScenarioView());
        if (spinning != camera_.spinning()) events_.cameraSpin(frame_, camera_.spinning());
    }
    ui_.debug.bvhDepth = std::clamp(ui_.debug.bvhDepth, 0, bvhDepthLimit());
    return true;
}

/// The panel shows the new scenario's title, seed, gravity and material.
void App::applyScenario(const Scenario& scenario) {
    scenarioTitle_ = scenario.name;
    std::snprintf(ui_.seedText, sizeof ui_.seedText, "%llu", static_cast<unsigned long long>(seed_));
    ui_.scenarioError.clear();
    const glm::vec3 gravity = scenario.settings.gravity;
    ui_.gravityOn = gravity != glm::vec3(0.0f);
    if (ui_.gravityOn) ui_.gravity = gravity;
    ui_.restitution = scenario.restitution;
    ui_.friction = scenario.friction;
    ui_.rollingResistance = scenario.rollingResistance;
}

void App::reset(const std::string& key, std::optional<std::uint64_t> seed) {
    if (lab_) closeLab(); // a scenario chosen or reset: back to the scenarios
    std::string error;
    if (!load(key, seed, error)) {
        ui_.scenarioError = error;
        cli::printError("kolize", error);
        return;
    }
    events_.reset(frame_, scenarioKey_, seed_);
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
        if (world_->paused()) {
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
    }
}

// ------------------------------------------------------------------ actions

void App::pause() {
    world_->setPaused(true);
    events_.simple(frame_, "pause");
}

void App::resume() {
    world_->setPaused(false);
    events_.simple(frame_, "resume");
}

void App::singleStep() {
    if (!world_->paused()) pause();
    world_->requestSingleStep();
    events_.simple(frame_, "step");
}

void App::setSpin(bool on) {
    camera_.setSpinning(on);
    events_.cameraSpin(frame_, on);
}

void App::setShadows(bool on) {
    ui_.shadows = on;
    events_.shadows(frame_, on);
}

void App::applyUi(const UiRequests& requests) {
    if (requests.pause) pause();
    if (requests.resume) resume();
    if (requests.singleStep) singleStep();
    if (requests.spin) setSpin(*requests.spin);
    if (requests.shadows) setShadows(*requests.shadows);
    if (requests.resetView) camera_.reset();
    if (requests.timeScaleChanged) world_->setTimeScale(ui_.timeScale);
    if (requests.gravityChanged) world_->setGravity(ui_.gravityOn ? ui_.gravity : glm::vec3(0.0f));
    if (requests.materialChanged) world_->setMaterial(ui_.restitution, ui_.friction, ui_.rollingResistance);
    if (requests.screenshot) screenshotRequested_ = true;
    if (requests.openLab) openLab(*requests.openLab);
    if (requests.closeLab) closeLab();
    if (requests.resetRandom) resetRandom();
    if (requests.resetFixed) resetFixed();
    if (requests.loadScenario) reset(*requests.loadScenario, std::nullopt);
    if (requests.reload) {
        ui_.scenarioNames = builtinScenarioNames();
        const std::optional<std::uint64_t> seed = parseSeed(ui_.seedText);
        reset(scenarioKey_, seed ? seed : std::optional<std::uint64_t>(seed_));
    }
}

UiFrameInfo App::frameInfo() const {
    const ImGuiIO& io = ImGui::GetIO();
    UiFrameInfo info;
    info.world = &*world_;
    info.scenarioKey = scenarioKey_;
    info.scenarioTitle = scenarioTitle_;
    info.seed = seed_;
    info.spinning = camera_.spinning();
    info.picks = interaction_.picks();
    info.bvhDepthLimit = bvhDepthLimit();
    info.fps = io.Framerate;
    info.frameMs = io.Framerate > 0.0f ? 1000.0f / io.Framerate : 0.0f;
    info.physicsMsPerStep = physicsMsPerStep_;
    info.stepsThisFrame = stepsThisFrame_;
    info.probe = probe_;
    labFrameInfo(info);
    info.msaaSamples = renderer_->msaaSamples();
    return info;
}

int App::bvhDepthLimit() const {
    const auto obstacles = world_->obstacles();
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
