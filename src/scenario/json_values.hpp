// Reading the values of a scenario's JSON document (pass 2 of loading): typed readers that check
// each value's type and documented range, and fail with a LoadError at the value's JSON pointer.
// Internal to kz_scenario.
#pragma once

#include "physics/limits.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

namespace kz::scenario_detail {

using json = nlohmann::json;

/// A failure at a JSON pointer ("" is the whole document). Thrown by every reader, caught once at
/// the API boundary (parseScenario) and turned into one line.
struct LoadError {
    std::string pointer;
    std::string what;
};

[[noreturn]] void fail(std::string pointer, std::string what);

/// One line, whatever the message holds.
std::string oneLine(std::string s);

/// "<source>: <pointer>: <what>" on one line; the whole document's pointer "" is written "/".
std::string errorLine(const std::string& source, const std::string& pointer, const std::string& what);

/// RFC 6901: "~" is written "~0" and "/" is written "~1".
std::string child(const std::string& pointer, std::string_view key);
std::string child(const std::string& pointer, std::size_t index);

/// formatFloat(v), and "[x, y, z]" for a vector.
std::string str(float v);
std::string str(const glm::vec3& v);

/// "got ..." text for a value of the wrong type or range.
std::string got(const json& j);

void expectObject(const json& j, const std::string& p);

/// Rejects any key not in `allowed` (listed in the message).
void checkKeys(const json& obj, const std::string& p, std::initializer_list<std::string_view> allowed);
/// The same for a list made at run time.
void checkKeys(const json& obj, const std::string& p, std::span<const std::string_view> allowed);

/// The value of `key`, or nullptr when the object has none.
const json* find(const json& obj, const char* key);

/// The value of `key`; fails when it is missing.
const json& require(const json& obj, const std::string& p, const char* key);

/// A finite number that fits a float.
float readFloat(const json& j, const std::string& p);

/// A documented range (physics/limits.hpp) and its unit, for messages.
struct Limit {
    float lo;
    float hi;
    const char* unit; ///< "" for none.
};

inline constexpr Limit kRoomSizeLimit{limits::kMinRoomSize, 2.0f * limits::kMaxRoomExtent, "m"};
inline constexpr Limit kBodySizeLimit{limits::kMinBodySize, limits::kMaxBodySize, "m"};
inline constexpr Limit kMassLimit{limits::kMinMass, limits::kMaxMass, "kg"};
inline constexpr Limit kSpeedLimit{0.0f, limits::kMaxSpeed, "m/s"};
inline constexpr Limit kAngularSpeedLimit{0.0f, limits::kMaxAngularSpeed, "rad/s"};
inline constexpr Limit kGravityLimit{0.0f, limits::kMaxGravity, "m/s^2"};
inline constexpr Limit kFrictionLimit{0.0f, limits::kMaxFriction, ""};
inline constexpr Limit kRollingResistanceLimit{0.0f, limits::kMaxRollingResistance, ""};
inline constexpr Limit kMeshScaleLimit{limits::kMinMeshScale, limits::kMaxMeshScale, ""};
/// A random block's shape weight (relative: only their ratios count).
inline constexpr Limit kShapeWeightLimit{0.0f, 1000.0f, ""};

/// "[lo, hi] unit".
std::string str(const Limit& limit);

/// Fails unless lo <= v <= hi; `what` (e.g. "its length ") starts the message.
void checkLimit(double v, const std::string& p, const Limit& limit, const char* what = "");

/// A number > 0 within `limit`.
float readPositive(const json& j, const std::string& p, const Limit& limit);

/// A number in [0, 1].
float readUnitInterval(const json& j, const std::string& p);

/// A material coefficient: >= 0 (said first, as before the limits), then within `limit`.
float readCoefficient(const json& j, const std::string& p, const Limit& limit);

/// An array of exactly N numbers.
template <std::size_t N>
std::array<float, N> readNumbers(const json& j, const std::string& p) {
    if (!j.is_array() || j.size() != N)
        fail(p, "must be an array of " + std::to_string(N) + " numbers, " +
                    (j.is_array() ? "got " + std::to_string(j.size()) + " elements" : got(j)));
    std::array<float, N> out{};
    for (std::size_t i = 0; i < N; ++i)
        out[i] = readFloat(j[i], child(p, i));
    return out;
}

glm::vec3 readVec3(const json& j, const std::string& p);

/// Three numbers, each > 0 and within `limit`.
glm::vec3 readPositiveVec3(const json& j, const std::string& p, const Limit& limit);

/// A vector whose length (computed in double: no overflow) lies in the limit.
glm::vec3 readVec3WithLength(const json& j, const std::string& p, const Limit& limit);

/// [min, max] with lowest <= min <= max <= limit.hi (min > 0 when strictlyPositive).
glm::vec2 readRange(const json& j, const std::string& p, bool strictlyPositive, const Limit& limit);

/// A non-empty string.
std::string readName(const json& j, const std::string& p);

/// A non-empty string that checkDescription accepts.
std::string readDescription(const json& j, const std::string& p);

/// "#rrggbb" as 0xRRGGBB.
std::uint32_t readColor(const json& j, const std::string& p);

/// [w, x, y, z], not zero; normalised.
glm::quat readQuaternion(const json& j, const std::string& p);

/// Degrees about the world x, then y, then z axis: q = qz * qy * qx.
glm::quat readEulerDeg(const json& j, const std::string& p);

/// The object's "orientation" (a quaternion) or "euler_deg" (not both); identity when neither.
glm::quat readOrientation(const json& j, const std::string& p);

} // namespace kz::scenario_detail
