// Pass 1 of loading a scenario: the JSON text's syntax, number range, duplicate keys and nesting
// depth, checked by a SAX pass that builds nothing and knows where each failure is (line and
// column, or JSON pointer). Internal to kz_scenario.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kz::scenario_detail {

/// Empty when `text` is one valid JSON document with finite numbers, no duplicate key and no
/// nesting deeper than kMaxScenarioDepth; otherwise "<where>: <what>", e.g. "line 3, column 5:
/// not valid JSON: ..." or "/bodies/0: duplicate key".
std::optional<std::string> checkSyntax(std::string_view text);

} // namespace kz::scenario_detail
