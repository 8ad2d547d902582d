// The text of the app's JSON outputs (event lines, reports): nlohmann builds the values, jsonText
// writes them, so that every number with a fraction is its shortest round-trip decimal.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace kz {

/// The text of `value` as nlohmann's dump(indent) lays it out (compact for a negative indent, else
/// one member or element a line, `indent` more spaces a level; keys in the object's order), except
/// that a number with a fraction is written by jsonNumberText instead of nlohmann's Grisu2, which
/// is not the shortest for every double (it writes -0.000605667 as -0.0006056669999999999).
std::string jsonText(const nlohmann::ordered_json& value, int indent = -1);

/// A non-integer JSON number: the shortest decimal that reads back to the same double
/// (std::to_chars), with ".0" added when that has neither a point nor an exponent, so that it
/// reads back as a float; null for NaN and infinities, as nlohmann writes them. A float put in as
/// shortestDouble(f) is thus written exactly as std::to_chars(f) writes f.
std::string jsonNumberText(double v);

/// A vector or quaternion as the app's JSON outputs write it: an array of its components, each
/// float as shortestDouble gives it (report_numbers.hpp), a quaternion w first.
nlohmann::ordered_json toJson(const glm::vec3& v);
nlohmann::ordered_json toJson(const glm::dvec3& v);
nlohmann::ordered_json toJson(const glm::quat& q);

} // namespace kz
