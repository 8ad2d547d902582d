#include "app/cli/scenario_list.hpp"

#include "scenario/scenario.hpp"

#include <algorithm>

namespace kz {

namespace {

/// Characters (Unicode code points) in UTF-8 text: the bytes that are not continuation bytes.
std::size_t characters(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(
        text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0u) != 0x80u; }));
}

std::string counted(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

ScenarioListResult listBuiltinScenarios() {
    const std::vector<std::string> names = builtinScenarioNames();
    if (names.empty()) return {{}, "no built-in scenarios in " + scenarioDirectory().string()};
    ScenarioListResult result;
    for (const std::string& name : names) {
        ScenarioResult loaded = resolveScenario(name);
        if (!loaded.scenario) return {{}, loaded.error};
        const InstantiateResult built = instantiate(*loaded.scenario);
        if (!built.world) return {{}, built.error};
        result.scenarios.push_back({name, loaded.scenario->name, loaded.scenario->description,
                                    built.world->bodies().size(), built.world->obstacles().size()});
    }
    return result;
}

std::string wrapText(std::string_view text, std::size_t width, std::string_view indent) {
    std::string out;
    std::string line;
    std::size_t lineChars = 0;
    const auto endLine = [&] {
        if (line.empty()) return;
        out += std::string(indent) + line + '\n';
        line.clear();
        lineChars = 0;
    };
    const std::size_t room = width > characters(indent) ? width - characters(indent) : 1;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t start = text.find_first_not_of(' ', at);
        if (start == std::string_view::npos) break;
        const std::size_t end = std::min(text.find(' ', start), text.size());
        const std::string_view word = text.substr(start, end - start);
        const std::size_t wordChars = characters(word);
        if (!line.empty() && lineChars + 1 + wordChars > room) endLine();
        if (!line.empty()) {
            line += ' ';
            ++lineChars;
        }
        line += word;
        lineChars += wordChars;
        at = end;
    }
    endLine();
    return out;
}

std::string scenarioListText(const std::vector<ScenarioListing>& list, std::size_t width) {
    std::string out;
    for (const ScenarioListing& s : list) {
        if (!out.empty()) out += '\n';
        out += s.id + ": " + s.title + ", " + counted(s.bodies, "body", "bodies");
        if (s.meshes > 0) out += ", " + counted(s.meshes, "mesh", "meshes");
        out += '\n';
        out += wrapText(s.description, width, "  ");
    }
    return out;
}

} // namespace kz
