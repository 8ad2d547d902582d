#include "app/cli/headless.hpp"

#include "app/cli/json_text.hpp"
#include "app/cli/report_numbers.hpp"
#include "physics/state_hash.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

namespace kz {
namespace {

using Json = nlohmann::ordered_json;

/// Seconds simulated by `steps` steps of `dt`. The step is a float, so 1/120 s is stored as
/// 0.0083333337 and World::simTime() after 1200 steps reads 10.000000521540642: a step that is the
/// float nearest 1/n s counts as exactly 1/n (1200 steps of 1/120 s read 10), any other step as
/// its shortest decimal (0.01f counts as 0.01).
double simulatedSeconds(std::uint64_t steps, float dt) {
    const double count = static_cast<double>(steps);
    const double stepsPerSecond = std::round(1.0 / static_cast<double>(dt));
    if (stepsPerSecond >= 1.0 && static_cast<float>(1.0 / stepsPerSecond) == dt)
        return count / stepsPerSecond;
    return count * shortestDouble(dt);
}

std::optional<std::string> firstNonFiniteAt(const Json& json, const std::string& path) {
    if (json.is_number_float()) {
        if (!std::isfinite(json.get<double>())) return path.empty() ? std::string("(the report)") : path;
    } else if (json.is_object()) {
        for (const auto& [key, value] : json.items()) {
            if (auto where = firstNonFiniteAt(value, path.empty() ? key : path + "." + key)) return where;
        }
    } else if (json.is_array()) {
        for (std::size_t i = 0; i < json.size(); ++i) {
            if (auto where = firstNonFiniteAt(json[i], path + "[" + std::to_string(i) + "]")) return where;
        }
    }
    return std::nullopt;
}

/// What the loop of a run measures, besides the world it leaves.
struct RunTally {
    double energyStart = 0.0;
    glm::dvec3 momentumStart{0.0};
    float maxPenetration = 0.0f;
    int maxEscaped = 0;
    std::uint64_t capped = 0;         ///< Steps cut short at the event cap (World::eventCap).
    std::vector<std::int64_t> stepNs; ///< Each step's wall time.
    bool interrupted = false;         ///< The control's stop ended the run before its last step.
};

/// Where a run is, for its progress callback.
HeadlessProgress progressOf(const RunTally& tally, const World& world, std::uint64_t totalSteps,
                            std::chrono::steady_clock::duration elapsed) {
    HeadlessProgress progress;
    progress.steps = tally.stepNs.size();
    progress.totalSteps = totalSteps;
    progress.simSeconds = simulatedSeconds(progress.steps, world.settings().timeStep);
    progress.wallSeconds = std::chrono::duration<double>(elapsed).count();
    return progress;
}

bool stopRequested(const HeadlessControl& control) {
    return control.stop != nullptr && control.stop->load(std::memory_order_relaxed);
}

/// Runs the steps: `stepOnce` takes one step (timed) and returns false when there is none left
/// (that call is not timed), `current` is the world now (a replay's load replaces it). The stop
/// flag is read before each step, and counts only while steps are left (options.steps).
RunTally runSteps(const std::function<bool()>& stepOnce, const std::function<const World&()>& current,
                  const HeadlessOptions& options) {
    using Clock = std::chrono::steady_clock;
    const HeadlessControl& control = options.control;

    RunTally tally;
    tally.energyStart = current().kineticEnergy();
    tally.momentumStart = current().linearMomentum();
    tally.maxPenetration = current().maxPenetration();
    tally.maxEscaped = current().escapedCount();
    tally.stepNs.reserve(options.steps);

    const auto runStart = Clock::now();
    auto nextProgress = runStart + control.progressInterval;
    while (true) {
        if (stopRequested(control) && tally.stepNs.size() < options.steps) {
            tally.interrupted = true;
            break;
        }
        const auto start = Clock::now();
        if (!stepOnce()) break;
        const auto end = Clock::now();
        tally.stepNs.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
        // std::max would drop a NaN that follows a number; a NaN depth must reach the report.
        const float penetration = current().maxPenetration();
        if (!(penetration <= tally.maxPenetration)) tally.maxPenetration = penetration;
        tally.maxEscaped = std::max(tally.maxEscaped, current().escapedCount());
        tally.capped += current().lastStepCapped() ? 1 : 0;
        // The clock the step's timing read anyway: a progress line costs nothing between its calls.
        if (control.progress && end >= nextProgress) {
            control.progress(progressOf(tally, current(), options.steps, end - runStart));
            nextProgress = end + control.progressInterval;
        }
    }
    if (control.progress) {
        HeadlessProgress last = progressOf(tally, current(), options.steps, Clock::now() - runStart);
        last.finished = true;
        last.interrupted = tally.interrupted;
        control.progress(last);
    }
    return tally;
}

/// The report of a run that left `world` and measured `tally`.
Json reportOf(const World& world, RunTally tally, const HeadlessOptions& options) {
    const std::uint64_t steps = tally.stepNs.size();
    Json report;
    report["scenario"] = options.scenarioName;
    report["seed"] = options.seed;
    report["steps"] = steps;
    // Only when stopped: a complete run's report keeps its keys (and the golden reports their text).
    if (tally.interrupted) report["interrupted"] = true;
    report["sim_seconds"] = simulatedSeconds(steps, world.settings().timeStep);
    // From whole nanoseconds, so that the value reads 0.1045215, not 0.10452149999999999.
    report["ms_per_step_median"] = median(std::move(tally.stepNs)) / 1e6;
    report["kinetic_energy_start"] = tally.energyStart;
    report["kinetic_energy_end"] = world.kineticEnergy();
    report["momentum_start"] = toJson(tally.momentumStart);
    report["momentum_end"] = toJson(world.linearMomentum());
    report["max_penetration"] = shortestDouble(tally.maxPenetration);
    report["escaped"] = tally.maxEscaped;
    report["event_cap"] = world.eventCap();
    report["advance_cap"] = world.advanceCap();
    report["capped_steps"] = tally.capped;
    report["state_hash"] = stateHashText(stateHash(world));

    Json bodies = Json::array();
    for (const Body& body : world.bodies()) {
        Json entry;
        entry["name"] = body.name;
        entry["shape"] = shapeName(body.shape);
        entry["position"] = toJson(body.position);
        entry["orientation"] = toJson(body.orientation);
        entry["velocity"] = toJson(body.velocity);
        entry["angular_velocity"] = toJson(body.angularVelocity);
        bodies.push_back(std::move(entry));
    }
    report["bodies"] = std::move(bodies);

    Json obstacles = Json::array();
    for (const Obstacle& obstacle : world.obstacles()) {
        Json entry;
        entry["name"] = obstacle.name;
        entry["mesh"] = obstacle.mesh ? obstacle.mesh->source : std::string();
        entry["triangles"] = obstacle.mesh ? obstacle.mesh->triangleCount() : 0;
        obstacles.push_back(std::move(entry));
    }
    report["obstacles"] = std::move(obstacles);
    return report;
}

} // namespace

Json runHeadless(World& world, const HeadlessOptions& options) {
    std::uint64_t taken = 0;
    RunTally tally = runSteps(
        [&] {
            if (taken == options.steps) return false;
            world.step();
            ++taken;
            return true;
        },
        [&]() -> const World& { return world; }, options);
    return reportOf(world, std::move(tally), options);
}

HeadlessReplay runHeadlessReplay(Recording recording, std::shared_ptr<JobSystem> jobs,
                                 HeadlessControl control) {
    HeadlessReplay out;
    RecordingPlayer player(std::move(recording));
    std::optional<Session> session = player.start(out.error);
    if (!session) return out;
    session->setJobs(std::move(jobs));
    // The inputs of tick 0 come before the first step: the start values include them.
    if (out.error = player.applyDue(*session); !out.error.empty()) return out;
    HeadlessOptions options;
    options.steps = player.recording().endTick;
    options.control = std::move(control);
    RunTally tally = runSteps(
        [&] {
            if (out.error = player.applyDue(*session); !out.error.empty()) return false;
            if (player.atEnd(*session)) return false;
            session->step();
            return true;
        },
        [&]() -> const World& { return session->world(); }, options);
    if (!out.error.empty()) return out;
    out.interrupted = tally.interrupted;
    Json report = reportOf(session->world(), std::move(tally), options);
    // The scenario and seed the replay ended on.
    report["scenario"] = session->scenario().scenario.name;
    report["seed"] = session->seed();
    out.report = std::move(report);
    // An interrupted replay did not reach the recorded end: there is nothing to compare yet.
    if (!out.interrupted) out.verdict = player.verify(*session);
    return out;
}

std::optional<std::string> firstNonFinite(const Json& json) {
    return firstNonFiniteAt(json, "");
}

} // namespace kz
