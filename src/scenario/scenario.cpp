// Loading a scenario file (format: docs/scenarios.md).
//
// Two passes over the text: a SAX pass that only checks syntax, finite numbers and duplicate
// keys (json_syntax.cpp: it knows the line, column and JSON pointer of the failure), then the
// DOM, read key by key (read_scenario.cpp, with the value readers of json_values.cpp). Every
// failure inside the reader throws LoadError, caught once here and turned into one line
// "<file>: <JSON pointer>: <what is wrong>".
#include "scenario.hpp"

#include "body_checks.hpp"
#include "json_syntax.hpp"
#include "json_values.hpp"
#include "mesh_files.hpp"
#include "read_scenario.hpp"
#include "scenario_files.hpp"

#include <fstream>
#include <system_error>

namespace kz {

namespace {

using scenario_detail::json;
using scenario_detail::MeshFiles;
using scenario_detail::oneLine;
namespace fs = std::filesystem;

std::string tooLarge(const std::string& source) {
    return oneLine(source + ": is larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB (" +
                   std::to_string(kMaxScenarioBytes) + " bytes), the limit for scenario files");
}

/// The scenario in `jsonText`, its mesh files loaded through `meshes`.
ScenarioResult parseWith(std::string_view jsonText, const std::string& sourceName, MeshFiles& meshes) {
    try {
        if (jsonText.size() > kMaxScenarioBytes) return {std::nullopt, tooLarge(sourceName)};
        if (const auto error = scenario_detail::checkSyntax(jsonText))
            return {std::nullopt, oneLine(sourceName + ": " + *error)};
        const json doc = json::parse(jsonText.begin(), jsonText.end(), nullptr, false);
        if (doc.is_discarded()) return {std::nullopt, sourceName + ": not valid JSON"};

        Scenario s = scenario_detail::readScenario(doc, meshes);
        s.source = sourceName;
        if (std::string error = scenario_detail::checkListedBodies(s); !error.empty())
            return {std::nullopt, oneLine(sourceName + ": " + error)};
        return {std::move(s), {}};
    } catch (const scenario_detail::LoadError& e) {
        return {std::nullopt, scenario_detail::errorLine(sourceName, e.pointer, e.what)};
    } catch (const std::exception& e) {
        return {std::nullopt, oneLine(sourceName + ": " + e.what())};
    }
}

/// The bytes of the scenario file `file`; empty with `error` set (one line) when it cannot be read
/// or is over kMaxScenarioBytes.
std::optional<std::string> readScenarioFile(const fs::path& file, std::string& error) {
    const std::string source = file.string();
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        error = source + ": no such file";
        return std::nullopt;
    }
    if (fs::is_directory(file, ec)) {
        error = source + ": is a directory, not a scenario file";
        return std::nullopt;
    }
    // Reads at most one byte past the limit, so a huge file or an endless device costs nothing.
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        error = source + ": cannot read the file";
        return std::nullopt;
    }
    std::string text(kMaxScenarioBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) {
        error = source + ": cannot read the file";
        return std::nullopt;
    }
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxScenarioBytes) {
        error = tooLarge(source);
        return std::nullopt;
    }
    return text;
}

} // namespace

ScenarioResult parseScenario(std::string_view jsonText, const std::string& sourceName) {
    try {
        MeshFiles meshes(sourceName);
        return parseWith(jsonText, sourceName, meshes);
    } catch (const std::exception& e) {
        return {std::nullopt, oneLine(sourceName + ": " + e.what())};
    }
}

ScenarioResult parseScenarioText(const ScenarioText& text) {
    MeshFiles meshes(text.meshes);
    return parseWith(text.json, text.source, meshes);
}

ScenarioResult loadScenarioFile(const fs::path& file) {
    const std::string source = file.string();
    try {
        std::string error;
        const std::optional<std::string> text = readScenarioFile(file, error);
        if (!text) return {std::nullopt, error};
        return parseScenario(*text, source);
    } catch (const std::exception& e) {
        return {std::nullopt, oneLine(source + ": " + e.what())};
    }
}

ScenarioTextResult readScenarioText(const std::string& nameOrFile) {
    try {
        std::string error;
        const std::optional<fs::path> file = scenario_detail::findScenarioFile(nameOrFile, error);
        if (!file) return {std::nullopt, std::nullopt, error};
        const std::string source = file->string();
        std::optional<std::string> json = readScenarioFile(*file, error);
        if (!json) return {std::nullopt, std::nullopt, error};
        ScenarioText text{source, std::move(*json), {}};
        MeshFiles meshes(source, &text.meshes);
        ScenarioResult parsed = parseWith(text.json, source, meshes);
        if (!parsed.scenario) return {std::nullopt, std::nullopt, parsed.error};
        return {std::move(text), std::move(parsed.scenario), {}};
    } catch (const std::exception& e) {
        return {std::nullopt, std::nullopt, oneLine(nameOrFile + ": " + e.what())};
    }
}

} // namespace kz
