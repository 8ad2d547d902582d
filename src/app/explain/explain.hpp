// `kolize explain QUERY --shapes FILE|-`: one query of the geometry core run on the shapes of a
// JSON file, printed as one JSON object with its result and, for the queries that have a trace, its
// steps (docs/command-line.md, "The explain command"). The library kz_explain; main.cpp only parses
// the command line. Needs no display.
#pragma once

#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace kz {

/// What `kolize explain` prints and returns.
struct ExplainOutcome {
    int exitCode;      ///< kExitOk, or kExitUsage for any bad input (app/cli_errors.hpp).
    std::string json;  ///< The JSON object's text, two-space indented; empty on error.
    std::string error; ///< One line naming the file and the JSON pointer; empty on success.
};

/// The query names, in the order of docs/command-line.md.
std::vector<std::string> explainQueryNames();

/// Runs `query` on the shapes text; `sourceName` names the text in errors ("shapes.json: /b/radius:
/// ...") and is where mesh files are looked up from (its folder, then the asset root). Never throws.
ExplainOutcome explainText(const std::string& query, std::string_view shapesText,
                           const std::string& sourceName);

/// Runs `query` on the shapes file `shapesPath`, or on `standardInput` for "-" (named "stdin" in
/// errors, mesh files looked up from the current folder). A file or input larger than the scenario
/// limit (kMaxScenarioBytes) is refused after reading at most one byte more. Never throws.
ExplainOutcome explainFile(const std::string& query, const std::string& shapesPath,
                           std::istream& standardInput);

} // namespace kz
