#include "app/cli/headless.hpp"

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

Json toJson(const glm::vec3& v) {
    return Json::array({shortestDouble(v.x), shortestDouble(v.y), shortestDouble(v.z)});
}
Json toJson(const glm::dvec3& v) {
    return Json::array({v.x, v.y, v.z});
}
Json toJson(const glm::quat& q) {
    return Json::array({shortestDouble(q.w), shortestDouble(q.x), shortestDouble(q.y), shortestDouble(q.z)});
}

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

/// The report of a run: `stepOnce` takes one step (timed) and returns false when there is none
/// left (that call is not timed), `current` is the world now (a replay's load replaces it).
Json reportOfRun(const std::function<bool()>& stepOnce, const std::function<const World&()>& current,
                 const HeadlessOptions& options) {
    using Clock = std::chrono::steady_clock;

    const double energyStart = current().kineticEnergy();
    const glm::dvec3 momentumStart = current().linearMomentum();
    float maxPenetration = current().maxPenetration();
    int maxEscaped = current().escapedCount();
    std::uint64_t capped = 0; // steps cut short at the event cap (World::eventCap)

    std::vector<std::int64_t> stepNs;
    stepNs.reserve(options.steps);
    while (true) {
        const auto start = Clock::now();
        if (!stepOnce()) break;
        const auto end = Clock::now();
        stepNs.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count());
        // std::max would drop a NaN that follows a number; a NaN depth must reach the report.
        const float penetration = current().maxPenetration();
        if (!(penetration <= maxPenetration)) maxPenetration = penetration;
        maxEscaped = std::max(maxEscaped, current().escapedCount());
        capped += current().lastStepCapped() ? 1 : 0;
    }

    const World& world = current();
    const std::uint64_t steps = stepNs.size();
    Json report;
    report["scenario"] = options.scenarioName;
    report["seed"] = options.seed;
    report["steps"] = steps;
    report["sim_seconds"] = simulatedSeconds(steps, world.settings().timeStep);
    // From whole nanoseconds, so that the value reads 0.1045215, not 0.10452149999999999.
    report["ms_per_step_median"] = median(std::move(stepNs)) / 1e6;
    report["kinetic_energy_start"] = energyStart;
    report["kinetic_energy_end"] = world.kineticEnergy();
    report["momentum_start"] = toJson(momentumStart);
    report["momentum_end"] = toJson(world.linearMomentum());
    report["max_penetration"] = shortestDouble(maxPenetration);
    report["escaped"] = maxEscaped;
    report["event_cap"] = world.eventCap();
    report["advance_cap"] = world.advanceCap();
    report["capped_steps"] = capped;
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
    return reportOfRun(
        [&] {
            if (taken == options.steps) return false;
            world.step();
            ++taken;
            return true;
        },
        [&]() -> const World& { return world; }, options);
}

HeadlessReplay runHeadlessReplay(Recording recording, std::shared_ptr<JobSystem> jobs) {
    HeadlessReplay out;
    RecordingPlayer player(std::move(recording));
    std::optional<Session> session = player.start(out.error);
    if (!session) return out;
    session->setJobs(std::move(jobs));
    // The inputs of tick 0 come before the first step: the start values include them.
    if (out.error = player.applyDue(*session); !out.error.empty()) return out;
    HeadlessOptions options;
    options.steps = player.recording().endTick;
    Json report = reportOfRun(
        [&] {
            if (out.error = player.applyDue(*session); !out.error.empty()) return false;
            if (player.atEnd(*session)) return false;
            session->step();
            return true;
        },
        [&]() -> const World& { return session->world(); }, options);
    if (!out.error.empty()) return out;
    // The scenario and seed the replay ended on.
    report["scenario"] = session->scenario().scenario.name;
    report["seed"] = session->seed();
    out.report = std::move(report);
    out.verdict = player.verify(*session);
    return out;
}

std::optional<std::string> firstNonFinite(const Json& json) {
    return firstNonFiniteAt(json, "");
}

} // namespace kz
