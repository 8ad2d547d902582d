// Numbers as the app's JSON outputs (reports, event lines) write them.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

namespace kz {

/// How a float enters the app's JSON outputs: the double nearest the shortest decimal that reads
/// back as `v`, which jsonText (app/json_text.hpp) writes as exactly that decimal, 0.1f as 0.1,
/// not 0.10000000149011612. Non-finite values pass through (callers report them).
inline double shortestDouble(float v) {
    if (!std::isfinite(v)) return static_cast<double>(v);
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, v);
    double result = static_cast<double>(v);
    std::from_chars(text, written.ptr, result);
    return result;
}

/// The median; with an even count, the mean of the two middle values. 0 for no values.
template <typename T>
double median(std::vector<T> values) {
    if (values.empty()) return 0.0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    const auto upper = static_cast<double>(*middle);
    if (values.size() % 2 == 1) return upper;
    // The lower middle value is the largest of the lower half.
    return 0.5 * (static_cast<double>(*std::max_element(values.begin(), middle)) + upper);
}

} // namespace kz
