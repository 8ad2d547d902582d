#include "app/explain/explain.hpp"

#include "app/cli/errors.hpp"
#include "app/cli/json_text.hpp"
#include "app/explain/shapes.hpp"
#include "app/lab/queries/unit.hpp"
#include "scenario/scenario.hpp"

#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

namespace kz {

namespace {

ExplainOutcome failure(std::string error) {
    for (char& c : error)
        if (c == '\n' || c == '\r') c = ' ';
    return {cli::kExitUsage, {}, std::move(error)};
}

/// Reads at most kMaxScenarioBytes + 1 bytes, so an endless input costs nothing; false on a read error.
bool readLimited(std::istream& in, std::string& text) {
    text.assign(kMaxScenarioBytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (in.bad()) return false;
    text.resize(static_cast<std::size_t>(in.gcount()));
    return true;
}

ExplainOutcome unknownQuery(const std::string& query) {
    std::string list;
    for (const LabQueryUnit* q : labQueryUnits())
        list += (list.empty() ? "" : ", ") + std::string(q->name);
    return failure("explain: unknown query '" + query + "' (the queries: " + list + ")");
}

} // namespace

std::vector<std::string> explainQueryNames() {
    std::vector<std::string> names;
    for (const LabQueryUnit* q : labQueryUnits())
        names.emplace_back(q->name);
    return names;
}

ExplainOutcome explainText(const std::string& query, std::string_view shapesText,
                           const std::string& sourceName) {
    try {
        const LabQueryUnit* q = findLabQueryUnit(query);
        if (!q) return unknownQuery(query);
        std::string error;
        const auto input = readExplainInput(shapesText, sourceName, q->explainNeeds, error);
        if (!input) return failure(error);
        nlohmann::ordered_json out{{"query", q->name}, {"result", q->explainResult(*input)}};
        q->explainSteps(*input, out);
        return {cli::kExitOk, jsonText(out, 2), {}};
    } catch (const std::exception& e) {
        return failure(sourceName + ": " + e.what());
    }
}

ExplainOutcome explainFile(const std::string& query, const std::string& shapesPath,
                           std::istream& standardInput) {
    try {
        if (!findLabQueryUnit(query)) return unknownQuery(query);
        std::string text;
        if (shapesPath == "-") {
            if (!readLimited(standardInput, text)) return failure("stdin: cannot read the shapes");
            return explainText(query, text, "stdin");
        }
        std::error_code ec;
        if (!std::filesystem::exists(shapesPath, ec)) return failure(shapesPath + ": no such file");
        if (std::filesystem::is_directory(shapesPath, ec))
            return failure(shapesPath + ": is a directory, not a shapes file");
        std::ifstream in(shapesPath, std::ios::binary);
        if (!in || !readLimited(in, text)) return failure(shapesPath + ": cannot read the file");
        return explainText(query, text, shapesPath);
    } catch (const std::exception& e) {
        return failure(shapesPath + ": " + e.what());
    }
}

} // namespace kz
