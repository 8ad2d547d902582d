// The mesh files a scenario's obstacles name: looked up beside the scenario file, then in the
// asset root, each loaded once, all within one byte budget. Internal to kz_scenario.
#pragma once

#include "physics/obstacle.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kz::scenario_detail {

/// Loads the mesh files of a scenario, each once, looked up beside the scenario file and then in
/// the asset root.
class MeshFiles {
public:
    explicit MeshFiles(const std::string& scenarioSource);

    /// The mesh of file `given` (as written in the scenario, at JSON pointer `p`); fails with a
    /// LoadError when it is not found, does not load, or exceeds kMaxScenarioMeshBytes in total.
    std::shared_ptr<const MeshShape> load(const std::string& given, const std::string& p);

private:
    std::vector<std::filesystem::path> places_;
    std::map<std::string, std::shared_ptr<const MeshShape>> cache_;
    std::uintmax_t totalBytes_ = 0;
};

} // namespace kz::scenario_detail
