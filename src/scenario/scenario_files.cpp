// Where scenarios are: the asset root, the built-in scenario list and name-or-file lookup.
#include "scenario_files.hpp"

#include "data_dir/data_dir.hpp"
#include "json_values.hpp"
#include "scenario.hpp"

#include <algorithm>

namespace kz {

namespace fs = std::filesystem;
using scenario_detail::oneLine;

fs::path assetDirectory() {
    // $KOLIZE_ASSET_DIR, else the installed copy (<prefix>/share/kolize/assets after
    // cmake --install), else the source tree's assets/.
    return dataDirectory("KOLIZE_ASSET_DIR", "assets", KZ_ASSET_DIR);
}

fs::path scenarioDirectory() {
    return assetDirectory() / "scenarios";
}

std::vector<std::string> builtinScenarioNames() {
    std::vector<std::string> names;
    try {
        std::error_code ec;
        for (fs::directory_iterator it(scenarioDirectory(), ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code typeError;
            if (it->path().extension() == ".json" && it->is_regular_file(typeError))
                names.push_back(it->path().stem().string());
        }
        std::sort(names.begin(), names.end());
    } catch (const std::exception&) {
        names.clear(); // out of memory: report nothing rather than throw
    }
    return names;
}

namespace scenario_detail {

std::optional<fs::path> findScenarioFile(const std::string& nameOrFile, std::string& error) {
    if (nameOrFile.empty()) {
        error = "(no scenario): give a scenario name or file";
        return std::nullopt;
    }
    std::error_code ec;
    const fs::path asGiven(nameOrFile);
    if (fs::is_regular_file(asGiven, ec)) return asGiven;
    const bool looksLikePath = asGiven.has_parent_path() || asGiven.extension() == ".json";
    if (!looksLikePath) {
        const fs::path builtin = scenarioDirectory() / (nameOrFile + ".json");
        if (fs::is_regular_file(builtin, ec)) return builtin;
    }
    std::string known;
    for (const std::string& name : builtinScenarioNames())
        known += (known.empty() ? "" : ", ") + name;
    error = nameOrFile + ": no such file or built-in scenario (built-in: " +
            (known.empty() ? "none found in " + scenarioDirectory().string() : known) + ")";
    return std::nullopt;
}

} // namespace scenario_detail

ScenarioResult resolveScenario(const std::string& nameOrFile) {
    try {
        std::string error;
        const std::optional<fs::path> file = scenario_detail::findScenarioFile(nameOrFile, error);
        if (!file) return {std::nullopt, error};
        return loadScenarioFile(*file);
    } catch (const std::exception& e) {
        return {std::nullopt, oneLine(nameOrFile + ": " + e.what())};
    }
}

} // namespace kz
