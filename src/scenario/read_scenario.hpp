// Pass 2 of loading a scenario: the JSON document read key by key into a Scenario (the room,
// settings, camera, listed bodies and mesh obstacles, random bodies), every value checked, and
// the time step checked against the fastest body. Internal to kz_scenario.
#pragma once

#include "json_values.hpp"
#include "scenario.hpp"

#include <string>

namespace kz::scenario_detail {

/// The scenario `doc` describes; throws LoadError at the first invalid value. Mesh files are
/// looked up relative to `source` (the scenario file), then in the asset root. Listed bodies are
/// not yet checked against the room and each other (checkListedBodies does that).
Scenario readScenario(const json& doc, const std::string& source);

} // namespace kz::scenario_detail
