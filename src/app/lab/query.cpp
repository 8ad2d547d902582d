#include "app/lab/query.hpp"

#include <cmath>

namespace kz {

std::optional<float> LabResult::number(const std::string& key) const {
    for (const LabNumber& n : numbers) {
        if (n.key == key) return n.value;
    }
    return std::nullopt;
}

LabResult runLabQuery(const LabScene& scene) {
    LabResult result = labQueryInfo(scene.query).run(scene);
    result.trace = traceLabQuery(scene);
    // A number that is not finite (degenerate input) is left out, never shown or logged.
    std::erase_if(result.numbers, [](const LabNumber& n) { return !std::isfinite(n.value); });
    return result;
}

void logLabResult(EventLog& events, std::uint64_t frame, const char* query, const LabResult& result) {
    events.lab(frame, query, result.verdictKey(), result.positive, result.numbers);
}

} // namespace kz
