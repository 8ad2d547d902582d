#include "app/cli/json_text.hpp"

#include "app/cli/report_numbers.hpp"

#include <charconv>
#include <cmath>

namespace kz {
namespace {

using Json = nlohmann::ordered_json;

void append(std::string& out, const Json& value, int indent, int depth) {
    const bool pretty = indent >= 0;
    const auto newLine = [&](int level) {
        if (!pretty) return;
        out += '\n';
        out.append(static_cast<std::size_t>(indent) * static_cast<std::size_t>(level), ' ');
    };
    if (value.is_object() && !value.empty()) {
        out += '{';
        bool first = true;
        for (const auto& [key, member] : value.items()) {
            if (!first) out += ',';
            first = false;
            newLine(depth + 1);
            out += Json(key).dump(); // nlohmann's string escaping
            out += pretty ? ": " : ":";
            append(out, member, indent, depth + 1);
        }
        newLine(depth);
        out += '}';
    } else if (value.is_array() && !value.empty()) {
        out += '[';
        bool first = true;
        for (const Json& element : value) {
            if (!first) out += ',';
            first = false;
            newLine(depth + 1);
            append(out, element, indent, depth + 1);
        }
        newLine(depth);
        out += ']';
    } else if (value.is_number_float()) {
        out += jsonNumberText(value.get<double>());
    } else {
        out += value.dump(); // strings, integers, booleans, null, {} and []
    }
}

} // namespace

std::string jsonText(const nlohmann::ordered_json& value, int indent) {
    std::string out;
    append(out, value, indent, 0);
    return out;
}

std::string jsonNumberText(double v) {
    if (!std::isfinite(v)) return "null";
    char text[32];
    const auto written = std::to_chars(text, text + sizeof text, v);
    std::string out(text, written.ptr);
    if (out.find_first_of(".e") == std::string::npos) out += ".0";
    return out;
}

Json toJson(const glm::vec3& v) {
    return Json::array({shortestDouble(v.x), shortestDouble(v.y), shortestDouble(v.z)});
}

Json toJson(const glm::dvec3& v) {
    return Json::array({v.x, v.y, v.z});
}

Json toJson(const glm::quat& q) {
    return Json::array({shortestDouble(q.w), shortestDouble(q.x), shortestDouble(q.y), shortestDouble(q.z)});
}

} // namespace kz
