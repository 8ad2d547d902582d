// Fuzz target: `kolize explain`'s shapes files (src/app/explain, the lab's query units), the JSON a
// user hands to `kolize explain QUERY --shapes FILE`, with the convex shapes' keys (capsule,
// cylinder, hull points: the hull builder). An input is the query's name, a newline, then the
// file's text. Every input must give either a JSON object (exit 0) or one line naming the file
// (exit 2), whatever the query: never a crash or a hang.
#include "app/explain/explain.hpp"
#include "fuzz_check.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = input.find('\n');
    const std::string query(input.substr(0, newline == std::string_view::npos ? 0 : newline));
    const std::string_view text = newline == std::string_view::npos ? input : input.substr(newline + 1);
    const kz::ExplainOutcome out = kz::explainText(query, text, "fuzz.json");
    if (out.exitCode == 0) {
        kz::fuzz::check(out.json.starts_with("{") && out.error.empty(), "a success without a JSON object");
        return 0;
    }
    kz::fuzz::check(out.exitCode == 2 && out.json.empty(),
                    "a failure with exit code " + std::to_string(out.exitCode));
    const bool named = out.error.starts_with("fuzz.json") || out.error.starts_with("explain: unknown query");
    kz::fuzz::check(named, "the error names neither the file nor the query: " + out.error);
    kz::fuzz::check(out.error.find_first_of("\r\n") == std::string::npos,
                    "the error is not one line: " + out.error);
    return 0;
}
