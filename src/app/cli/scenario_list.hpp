// `kolize --list-scenarios`: the gallery of built-in scenarios, each with its name (what
// --scenario takes), its title, how many bodies it starts with and what to watch in it (the file's
// "description"). No window, no display.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kz {

/// One built-in scenario as the list shows it.
struct ScenarioListing {
    std::string id;          ///< The file's stem: what --scenario and the panel's list take.
    std::string title;       ///< Its "name".
    std::string description; ///< Its "description"; empty when the file gives none.
    std::size_t bodies = 0;  ///< The bodies its world starts with: listed and random (the file's seed).
    std::size_t meshes = 0;  ///< Its static mesh obstacles.
};

struct ScenarioListResult {
    std::vector<ScenarioListing> scenarios; ///< In builtinScenarioNames()'s order; empty on error.
    std::string error;                      ///< The first scenario that does not load or build; one line.
};

/// Every built-in scenario, each loaded (resolveScenario) and built (instantiate, with its file's
/// seed) as --scenario would. No built-in scenario at all is an error naming the folder looked in.
ScenarioListResult listBuiltinScenarios();

/// `text`'s words in lines of at most `width` characters each counting `indent`, which starts
/// every line; a word longer than a line gets a line of its own. Each line ends in '\n'; an empty
/// text gives "".
std::string wrapText(std::string_view text, std::size_t width, std::string_view indent);

/// The text --list-scenarios prints: a block per scenario, "<id>: <title>, <n> bodies" (", <m>
/// meshes" when it has any), then its description wrapped at `width` characters and indented by
/// two spaces; a blank line between blocks.
std::string scenarioListText(const std::vector<ScenarioListing>& list, std::size_t width = 80);

} // namespace kz
