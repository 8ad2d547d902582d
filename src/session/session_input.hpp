// The inputs that change a session's world: everything the user does that a replay must do again
// (drags and throws, scenario loads and resets, the panel's parameters, pause, single steps),
// each a plain value. A TimedInput is one of them with the tick (the session's step count) it
// applies at. applyInput (session.hpp) is the one function that carries an input out, live and in
// replay alike.
#pragma once

#include "scenario/scenario.hpp"

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <variant>

namespace kz {

/// A scenario as a session loads it: the key the app knows it by, its texts (the JSON and its
/// mesh files, which a recording embeds so that it stands alone) and the scenario parsed from them.
struct SessionScenario {
    std::string key;   ///< The built-in name or the file the user gave ("random", "my.json").
    ScenarioText text; ///< What the scenario was parsed from.
    Scenario scenario; ///< Parsed from `text`.
};

/// Body `body`'s linear and angular velocity set (World::setBodyVelocity): a drag sets it every
/// frame while the body follows the cursor; the last one before the release is the throw.
struct SetBodyVelocity {
    int body = 0;
    glm::vec3 velocity{0.0f};        ///< m/s.
    glm::vec3 angularVelocity{0.0f}; ///< rad/s, world frame.
};

/// The world replaced by `scenario` instantiated with `seed` (F and D resets, the scenario list,
/// Reload); the pause and the time scale carry over from the world it replaces.
struct LoadScenario {
    std::shared_ptr<const SessionScenario> scenario; ///< Never null.
    std::uint64_t seed = 0;                          ///< The seed the world is built with (instantiate).
};

/// World::setMaterial: every body's restitution, friction and rolling resistance.
struct SetMaterial {
    float restitution = 1.0f;
    float friction = 0.0f;
    float rollingResistance = 0.0f;
};

/// World::setGravity.
struct SetGravity {
    glm::vec3 gravity{0.0f};
};

/// World::setTimeScale (real time to simulated time; it changes how many steps a frame takes, not
/// what a step does).
struct SetTimeScale {
    float timeScale = 1.0f;
};

/// World::setPaused: pause (true) or resume (false).
struct SetPaused {
    bool paused = true;
};

/// World::requestSingleStep: while paused, the next frame takes one step.
struct SingleStep {};

using SessionInput =
    std::variant<SetBodyVelocity, LoadScenario, SetMaterial, SetGravity, SetTimeScale, SetPaused, SingleStep>;

/// An input and the tick it applies at: the number of world steps the session had taken when it was
/// applied (a count that runs on across scenario loads). Inputs of one tick apply in log order,
/// after that many steps and before the next.
struct TimedInput {
    std::uint64_t tick = 0;
    SessionInput input;
};

/// The input's name as a recording writes it: "velocity", "load", "material", "gravity",
/// "time_scale", "pause", "resume" or "step".
const char* inputKind(const SessionInput& input);

} // namespace kz
