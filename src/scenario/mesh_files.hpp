// The mesh files a scenario's obstacles name: looked up beside the scenario file, then in the
// asset root (or, for a scenario parsed from a ScenarioText, taken from the texts it carries),
// each loaded once, all within one byte budget. Internal to kz_scenario.
#pragma once

#include "physics/obstacle.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kz::scenario_detail {

/// Loads the mesh files of a scenario, each once.
class MeshFiles {
public:
    /// Files looked up beside the scenario file `scenarioSource`, then in the asset root. With
    /// `collected`, the text of every file loaded is kept there under the name the scenario gives it.
    explicit MeshFiles(const std::string& scenarioSource,
                       std::map<std::string, std::string>* collected = nullptr);
    /// Texts in memory, by the name the scenario gives them (a recording's embedded meshes): a name
    /// that is not among them is an error, and no file is read. `texts` must outlive this.
    explicit MeshFiles(const std::map<std::string, std::string>& texts);

    /// The mesh of file `given` (as written in the scenario, at JSON pointer `p`); fails with a
    /// LoadError when it is not found, does not load, or exceeds kMaxScenarioMeshBytes in total.
    std::shared_ptr<const MeshShape> load(const std::string& given, const std::string& p);

private:
    /// The file `given` names (beside the scenario, then in the asset root); fails when there is none.
    std::filesystem::path find(const std::string& given, const std::string& p) const;
    /// Counts `bytes` toward the budget; fails beyond it.
    void spend(std::uintmax_t bytes, const std::string& given, const std::string& p);

    std::vector<std::filesystem::path> places_;
    const std::map<std::string, std::string>* texts_ = nullptr;
    std::map<std::string, std::string>* collected_ = nullptr;
    std::map<std::string, std::shared_ptr<const MeshShape>> cache_; ///< By canonical path (or given name).
    std::map<std::string, std::string> firstName_;                  ///< The name a file was first loaded by.
    std::uintmax_t totalBytes_ = 0;
};

} // namespace kz::scenario_detail
