// Fuzz target: scenario files (src/scenario), the JSON a user hands to `kolize --scenario FILE`.
// An input is parsed; a rejected one must give a one-line error; an accepted one is instantiated
// and, when it holds a world, stepped a few steps, after which every body must still be finite.
// Mesh files the scenario names are looked up in the asset root (assets/meshes/...).
#include "fuzz_check.hpp"
#include "fuzz_world.hpp"
#include "scenario/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

/// Steps after instantiation: bodies start up to their speed × 20/120 s from where they were
/// placed, which is enough to meet walls, each other and meshes in the seeds.
constexpr int kSteps = 20;
/// Random bodies instantiated at most. The format allows 20,000, whose placement alone (each
/// attempt checked against every body placed before it) takes seconds under the sanitizers:
/// longer than a fuzz execution should, and no different code from a few hundred.
constexpr int kMaxRandomBodies = 400;
/// Worlds with more bodies are instantiated and checked but not stepped, for the same reason:
/// a legitimate step of hundreds of touching bodies is slow under the sanitizers. Nor are those
/// whose bodies cross the room too often a step (fuzz_world.hpp).
constexpr std::size_t kMaxSteppedBodies = 200;
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
    if (world.bodies().size() > kMaxSteppedBodies ||
        !(kz::fuzz::roomCrossingsPerStep(world, kSteps) <= kz::fuzz::kMaxRoomCrossingsPerStep))
        return 0;
    for (int step = 1; step <= kSteps; ++step) {
        world.step();
        checkBodiesFinite(world, step);
    }
    return 0;
}
