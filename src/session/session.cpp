#include "session/session.hpp"

#include "session/history.hpp"
#include "session/session_detail.hpp"

#include <chrono>
#include <cmath>
#include <type_traits>

namespace kz {
namespace {

bool finite(const glm::vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

using session_detail::Overloaded;
using session_detail::shortest;

std::string applyLoad(SessionState& state, const LoadScenario& load) {
    std::string error;
    std::optional<SessionState> loaded = startState(load, error);
    if (!loaded) return error;
    loaded->world.setPaused(state.world.paused());
    loaded->world.setTimeScale(state.world.settings().timeScale);
    loaded->world.setJobs(state.world.jobs());
    state.world = std::move(loaded->world);
    state.scenario = std::move(loaded->scenario);
    state.seed = loaded->seed;
    return {};
}

} // namespace

const char* inputKind(const SessionInput& input) {
    return std::visit(Overloaded{
                          [](const SetBodyVelocity&) { return "velocity"; },
                          [](const LoadScenario&) { return "load"; },
                          [](const SetMaterial&) { return "material"; },
                          [](const SetGravity&) { return "gravity"; },
                          [](const SetTimeScale&) { return "time_scale"; },
                          [](const SetPaused& p) { return p.paused ? "pause" : "resume"; },
                          [](const SingleStep&) { return "step"; },
                      },
                      input);
}

std::shared_ptr<const SessionScenario> readSessionScenario(const std::string& key, std::string& error) {
    ScenarioTextResult read = readScenarioText(key);
    if (!read.text || !read.scenario) {
        error = read.error;
        return nullptr;
    }
    return std::make_shared<const SessionScenario>(
        SessionScenario{key, std::move(*read.text), std::move(*read.scenario)});
}

LoadScenario loadWithSeed(std::shared_ptr<const SessionScenario> scenario,
                          std::optional<std::uint64_t> seed) {
    std::uint64_t chosen = seed.value_or(0);
    if (!seed && scenario && scenario->scenario.random) chosen = scenario->scenario.random->seed;
    return LoadScenario{std::move(scenario), chosen};
}

std::optional<SessionState> startState(const LoadScenario& load, std::string& error) {
    if (!load.scenario) {
        error = "load: no scenario";
        return std::nullopt;
    }
    InstantiateResult made = instantiate(load.scenario->scenario, load.seed);
    if (!made.world) {
        error = made.error;
        return std::nullopt;
    }
    return SessionState{std::move(*made.world), load.scenario, made.seed, 0, 0};
}

std::string applyInput(SessionState& state, const SessionInput& input) {
    World& world = state.world;
    return std::visit(
        Overloaded{
            [&](const SetBodyVelocity& v) -> std::string {
                const std::size_t count = world.bodies().size();
                if (v.body < 0 || static_cast<std::size_t>(v.body) >= count)
                    return "velocity: body " + std::to_string(v.body) + " is out of range (the world has " +
                           std::to_string(count) + " bodies)";
                if (!finite(v.velocity) || !finite(v.angularVelocity)) return "velocity: not a finite vector";
                // The scenario files' limits: within them a step's impacts stay few (limits.hpp).
                if (!(glm::length(v.velocity) <= limits::kMaxSpeed))
                    return "velocity: " + shortest(glm::length(v.velocity)) + " m/s is over the limit of " +
                           shortest(limits::kMaxSpeed) + " m/s";
                if (!(glm::length(v.angularVelocity) <= limits::kMaxAngularSpeed))
                    return "velocity: an angular speed of " + shortest(glm::length(v.angularVelocity)) +
                           " rad/s is over the limit of " + shortest(limits::kMaxAngularSpeed) + " rad/s";
                world.setBodyVelocity(v.body, v.velocity, v.angularVelocity);
                return {};
            },
            [&](const LoadScenario& load) { return applyLoad(state, load); },
            [&](const SetMaterial& m) -> std::string {
                if (!std::isfinite(m.restitution) || !std::isfinite(m.friction) ||
                    !std::isfinite(m.rollingResistance))
                    return "material: not a finite number";
                world.setMaterial(m.restitution, m.friction, m.rollingResistance);
                return {};
            },
            [&](const SetGravity& g) -> std::string {
                if (!finite(g.gravity)) return "gravity: not a finite vector";
                world.setGravity(g.gravity);
                return {};
            },
            [&](const SetTimeScale& t) -> std::string {
                if (!std::isfinite(t.timeScale)) return "time_scale: not a finite number";
                world.setTimeScale(t.timeScale);
                return {};
            },
            [&](const SetPaused& p) -> std::string {
                world.setPaused(p.paused);
                return {};
            },
            [&](const SingleStep&) -> std::string {
                world.requestSingleStep();
                return {};
            },
        },
        input);
}

RunResult runInputs(SessionState& state, std::span<const TimedInput> inputs, std::uint64_t toTick) {
    if (toTick < state.tick) return {};
    while (true) {
        for (; state.inputsApplied < inputs.size(); ++state.inputsApplied) {
            const TimedInput& next = inputs[state.inputsApplied];
            if (next.tick > state.tick) break;
            if (next.tick < state.tick)
                return {"input " + std::to_string(state.inputsApplied) + " (" + inputKind(next.input) +
                            ") is at tick " + std::to_string(next.tick) + ", behind the state's tick " +
                            std::to_string(state.tick),
                        state.inputsApplied};
            if (std::string error = applyInput(state, next.input); !error.empty())
                return {std::move(error), state.inputsApplied};
        }
        if (state.tick >= toTick) return {};
        state.world.step();
        ++state.tick;
    }
}

std::optional<Session> Session::start(const LoadScenario& load, std::string& error) {
    std::optional<SessionState> state = startState(load, error);
    if (!state) return std::nullopt;
    state->inputsApplied = 1;
    return Session(std::move(*state), {TimedInput{0, load}});
}

std::string Session::apply(const SessionInput& input) {
    std::string error = applyInput(state_, input);
    if (!error.empty()) return error;
    log_.push_back({state_.tick, input});
    state_.inputsApplied = log_.size();
    return {};
}

void Session::step() {
    const auto start = std::chrono::steady_clock::now();
    state_.world.step();
    ++state_.tick;
    if (history_) {
        const std::chrono::duration<float, std::milli> took = std::chrono::steady_clock::now() - start;
        history_->push(state_, took.count());
    }
    if (stepObserver_) stepObserver_();
}

void Session::attachHistory(History* history) {
    history_ = history;
    if (history_) history_->restart(state_);
}

void Session::rewindTo(SessionState state) {
    if (state.tick > state_.tick || state.inputsApplied > log_.size()) return; // not of this session
    log_.resize(state.inputsApplied);
    state.world.setJobs(state_.world.jobs());
    state_ = std::move(state);
    if (history_) history_->truncateAfter(state_.tick);
}

int Session::advance(float frameSeconds, double budgetSeconds) {
    const int due = state_.world.dueSteps(frameSeconds);
    const auto start = std::chrono::steady_clock::now();
    int taken = 0;
    while (taken < due) {
        step();
        ++taken;
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= budgetSeconds)
            break;
    }
    return taken;
}

} // namespace kz
