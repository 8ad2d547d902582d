// Loading a scenario file (format: README.md, "Writing a scenario").
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
#include "read_scenario.hpp"

#include <fstream>
#include <system_error>

namespace kz {

namespace {

using scenario_detail::json;
using scenario_detail::oneLine;
namespace fs = std::filesystem;

std::string tooLarge(const std::string& source) {
    return oneLine(source + ": is larger than " + std::to_string(kMaxScenarioBytes >> 20) + " MiB (" +
                   std::to_string(kMaxScenarioBytes) + " bytes), the limit for scenario files");
}

} // namespace

ScenarioResult parseScenario(std::string_view jsonText, const std::string& sourceName) {
    try {
        if (jsonText.size() > kMaxScenarioBytes) return {std::nullopt, tooLarge(sourceName)};
        if (const auto error = scenario_detail::checkSyntax(jsonText))
            return {std::nullopt, oneLine(sourceName + ": " + *error)};
        const json doc = json::parse(jsonText.begin(), jsonText.end(), nullptr, false);
        if (doc.is_discarded()) return {std::nullopt, sourceName + ": not valid JSON"};

        Scenario s = scenario_detail::readScenario(doc, sourceName);
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

ScenarioResult loadScenarioFile(const fs::path& file) {
    const std::string source = file.string();
    try {
        std::error_code ec;
        if (!fs::exists(file, ec)) return {std::nullopt, source + ": no such file"};
        if (fs::is_directory(file, ec))
            return {std::nullopt, source + ": is a directory, not a scenario file"};
        // Reads at most one byte past the limit, so a huge file or an endless device costs nothing.
        std::ifstream in(file, std::ios::binary);
        if (!in) return {std::nullopt, source + ": cannot read the file"};
        std::string text(kMaxScenarioBytes + 1, '\0');
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        if (in.bad()) return {std::nullopt, source + ": cannot read the file"};
        text.resize(static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxScenarioBytes) return {std::nullopt, tooLarge(source)};
        return parseScenario(text, source);
    } catch (const std::exception& e) {
        return {std::nullopt, oneLine(source + ": " + e.what())};
    }
}

} // namespace kz
