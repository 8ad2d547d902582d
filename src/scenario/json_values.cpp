#include "json_values.hpp"

#include "body_checks.hpp"
#include "scenario_checks.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <system_error>

namespace kz::scenario_detail {

void fail(std::string pointer, std::string what) {
    throw LoadError{std::move(pointer), std::move(what)};
}

std::string oneLine(std::string s) {
    std::replace_if(
        s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return s;
}

std::string errorLine(const std::string& source, const std::string& pointer, const std::string& what) {
    return oneLine(source + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
}

std::string child(const std::string& pointer, std::string_view key) {
    std::string out = pointer + "/";
    for (const char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string child(const std::string& pointer, std::size_t index) {
    return pointer + "/" + std::to_string(index);
}

std::string str(float v) {
    return formatFloat(v);
}

std::string str(const glm::vec3& v) {
    return "[" + str(v.x) + ", " + str(v.y) + ", " + str(v.z) + "]";
}

std::string got(const json& j) {
    if (j.is_array()) return "got an array";
    if (j.is_object()) return "got an object";
    return "got " + j.dump();
}

void expectObject(const json& j, const std::string& p) {
    if (!j.is_object()) fail(p, "must be an object, " + got(j));
}

void checkKeys(const json& obj, const std::string& p, std::initializer_list<std::string_view> allowed) {
    checkKeys(obj, p, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

void checkKeys(const json& obj, const std::string& p, std::span<const std::string_view> allowed) {
    for (const auto& item : obj.items()) {
        if (std::find(allowed.begin(), allowed.end(), item.key()) != allowed.end()) continue;
        std::string list;
        for (const std::string_view k : allowed)
            list += (list.empty() ? "" : ", ") + std::string(k);
        fail(child(p, item.key()), "unknown key (allowed here: " + list + ")");
    }
}

const json* find(const json& obj, const char* key) {
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const json& require(const json& obj, const std::string& p, const char* key) {
    const json* j = find(obj, key);
    if (!j) fail(child(p, key), "required key is missing");
    return *j;
}

float readFloat(const json& j, const std::string& p) {
    if (!j.is_number()) fail(p, "must be a number, " + got(j));
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(p, "must be a finite number, " + got(j));
    const float f = static_cast<float>(v);
    if (!std::isfinite(f)) fail(p, "must fit a float (|x| < 3.4e38), " + got(j));
    return f;
}

std::string str(const Limit& limit) {
    return "[" + str(limit.lo) + ", " + str(limit.hi) + "]" + (*limit.unit ? " " : "") + limit.unit;
}

void checkLimit(double v, const std::string& p, const Limit& limit, const char* what) {
    if (!(v >= limit.lo && v <= limit.hi))
        fail(p, std::string(what) + "must be in " + str(limit) + ", got " + str(static_cast<float>(v)));
}

float readPositive(const json& j, const std::string& p, const Limit& limit) {
    const float v = readFloat(j, p);
    checkPositive(v, p, limit);
    return v;
}

float readUnitInterval(const json& j, const std::string& p) {
    const float v = readFloat(j, p);
    checkUnitInterval(v, p);
    return v;
}

float readCoefficient(const json& j, const std::string& p, const Limit& limit) {
    const float v = readFloat(j, p);
    checkCoefficient(v, p, limit);
    return v;
}

glm::vec3 readVec3(const json& j, const std::string& p) {
    const auto a = readNumbers<3>(j, p);
    return {a[0], a[1], a[2]};
}

glm::vec3 readPositiveVec3(const json& j, const std::string& p, const Limit& limit) {
    const glm::vec3 v = readVec3(j, p);
    checkPositiveVec3(v, p, limit);
    return v;
}

glm::vec3 readVec3WithLength(const json& j, const std::string& p, const Limit& limit) {
    const glm::vec3 v = readVec3(j, p);
    checkVec3WithLength(v, p, limit);
    return v;
}

glm::vec2 readRange(const json& j, const std::string& p, bool strictlyPositive, const Limit& limit) {
    const auto a = readNumbers<2>(j, p);
    const glm::vec2 range(a[0], a[1]);
    checkRange(range, p, strictlyPositive, limit);
    return range;
}

std::string readName(const json& j, const std::string& p) {
    if (!j.is_string()) fail(p, "must be a string, " + got(j));
    std::string s = j.get<std::string>();
    checkName(s, p);
    return s;
}

std::string readDescription(const json& j, const std::string& p) {
    if (!j.is_string()) fail(p, "must be a string, " + got(j));
    std::string s = j.get<std::string>();
    if (s.empty()) fail(p, "must not be empty (leave the key out for none)");
    checkDescription(s, p);
    return s;
}

std::uint32_t readColor(const json& j, const std::string& p) {
    const auto bad = [&] { fail(p, "must be a colour \"#rrggbb\", " + got(j)); };
    if (!j.is_string()) bad();
    const std::string s = j.get<std::string>();
    if (s.size() != 7 || s[0] != '#') bad();
    std::uint32_t rgb = 0;
    const auto [end, ec] = std::from_chars(s.data() + 1, s.data() + s.size(), rgb, 16);
    if (ec != std::errc{} || end != s.data() + s.size() || s[1] == '+' || s[1] == '-') bad();
    return rgb;
}

glm::quat readQuaternion(const json& j, const std::string& p) {
    const auto a = readNumbers<4>(j, p);
    const glm::quat q(a[0], a[1], a[2], a[3]);
    checkQuaternion(q, p);
    return q / glm::length(q);
}

glm::quat readEulerDeg(const json& j, const std::string& p) {
    const glm::vec3 deg = readVec3(j, p);
    const glm::vec3 rad = glm::radians(deg);
    return glm::angleAxis(rad.z, glm::vec3(0, 0, 1)) * glm::angleAxis(rad.y, glm::vec3(0, 1, 0)) *
           glm::angleAxis(rad.x, glm::vec3(1, 0, 0));
}

glm::quat readOrientation(const json& j, const std::string& p) {
    const json* orientation = find(j, "orientation");
    const json* euler = find(j, "euler_deg");
    if (orientation && euler) fail(child(p, "euler_deg"), "give orientation or euler_deg, not both");
    if (orientation) return readQuaternion(*orientation, child(p, "orientation"));
    if (euler) return readEulerDeg(*euler, child(p, "euler_deg"));
    return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
}

} // namespace kz::scenario_detail
