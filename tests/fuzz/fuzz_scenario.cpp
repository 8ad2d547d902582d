// Fuzz target: scenario files (src/scenario), the JSON a user hands to `kolize --scenario FILE`.
// An input is parsed; a rejected one must give a one-line error; an accepted one is instantiated
// and its world stepped a few steps (every world: the step's work is bounded by the world's event
// and advance caps), after which every body must still be finite.
// Mesh files the scenario names are looked up in the asset root (assets/meshes/...).
#include "fuzz_check.hpp"
#include "scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

/// Steps after instantiation: bodies start up to their speed × 20/120 s from where they were
/// placed, which is enough to meet walls, each other and meshes in the seeds. A world of more than
/// kStepBodies / kSteps bodies takes fewer (at least kMinSteps): a step's work grows with its
/// bodies (its caps are per body), and an execution must stay within milliseconds.
constexpr int kSteps = 20;
constexpr int kMinSteps = 2;
constexpr std::size_t kStepBodies = 2000;
/// Random bodies instantiated at most. The format allows 20,000, whose placement alone (each
/// attempt checked against every body placed before it) takes seconds under the sanitizers:
/// longer than a fuzz execution should, and no different code from a few hundred.
constexpr int kMaxRandomBodies = 400;
bool isFinite(const glm::quat& q) {
    return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

void checkBodiesFinite(const kz::World& world, int step) {
    for (std::size_t i = 0; i < world.bodies().size(); ++i) {
        const kz::Body& b = world.bodies()[i];
        kz::fuzz::check(kz::isFinite(b.position) && isFinite(b.orientation) && kz::isFinite(b.velocity) &&
                            kz::isFinite(b.angularVelocity) && kz::isFinite(b.angularMomentum),
                        "body " + std::to_string(i) + " (" + b.name + ") is not finite after step " +
                            std::to_string(step));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string name = "fuzz.json";
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    kz::ScenarioResult loaded = kz::parseScenario(text, name);
    if (!loaded.scenario) {
        kz::fuzz::checkErrorLine(loaded.error, name);
        return 0;
    }
    kz::Scenario& scenario = *loaded.scenario;
    if (scenario.random) scenario.random->count = std::min(scenario.random->count, kMaxRandomBodies);

    kz::InstantiateResult made = kz::instantiate(scenario);
    if (!made.world) {
        kz::fuzz::checkErrorLine(made.error, name);
        return 0;
    }
    kz::World& world = *made.world;
    checkBodiesFinite(world, 0);
    const std::size_t bodies = std::max<std::size_t>(world.bodies().size(), 1);
    const int steps = static_cast<int>(std::clamp<std::size_t>(kStepBodies / bodies, kMinSteps, kSteps));
    for (int step = 1; step <= steps; ++step) {
        world.step();
        checkBodiesFinite(world, step);
    }
    return 0;
}
