// Where a scenario named on the command line or in the panel is: internal to kz_scenario
// (scenario_files.cpp), shared by resolveScenario and readScenarioText.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace kz::scenario_detail {

/// `nameOrFile` as a path when such a file exists, else the built-in scenario of that name; empty
/// with `error` set (one line naming the built-in scenarios) when there is neither.
std::optional<std::filesystem::path> findScenarioFile(const std::string& nameOrFile, std::string& error);

} // namespace kz::scenario_detail
