// Test support for the session tests: loads of the built-in scenarios, and random inputs of every
// kind for a session's world.
#pragma once

#include "session/session.hpp"

#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <string>

namespace kz::test {

/// A load of the built-in scenario `key` (its texts read from the asset folder) with `seed`.
inline LoadScenario loadOf(const std::string& key, std::uint64_t seed = 1) {
    std::string error;
    std::shared_ptr<const SessionScenario> scenario = readSessionScenario(key, error);
    EXPECT_TRUE(scenario) << error;
    return LoadScenario{std::move(scenario), seed};
}

/// A session started on `load` (a test failure when it cannot start).
inline Session startSession(const LoadScenario& load) {
    std::string error;
    std::optional<Session> session = Session::start(load, error);
    EXPECT_TRUE(session.has_value()) << error;
    return std::move(*session);
}

/// A random input of any kind but a load, valid for a world of `bodies` bodies (at least 1).
inline SessionInput randomInput(std::mt19937& rng, std::size_t bodies) {
    std::uniform_real_distribution<float> speed(-8.0f, 8.0f);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const auto vec = [&] { return glm::vec3(speed(rng), speed(rng), speed(rng)); };
    switch (std::uniform_int_distribution<int>(0, 6)(rng)) {
    case 0:
    case 1: // drags are the commonest input
        return SetBodyVelocity{std::uniform_int_distribution<int>(0, static_cast<int>(bodies) - 1)(rng),
                               vec(), vec() * 0.5f};
    case 2:
        return SetMaterial{unit(rng), unit(rng), 0.1f * unit(rng)};
    case 3:
        return SetGravity{glm::vec3(0.0f, -9.81f * unit(rng), 0.0f)};
    case 4:
        return SetTimeScale{0.05f + 1.95f * unit(rng)};
    case 5:
        return SetPaused{unit(rng) < 0.5f};
    default:
        return SingleStep{};
    }
}

} // namespace kz::test
