// Shared helpers of the `kolize explain` test suites (test_explain.cpp,
// test_explain_contact_steps.cpp): run a query on shapes text and read its output.
#pragma once

#include "app/explain/explain.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kz::explaintest {

using Json = nlohmann::json;

inline const char* const kUnitBox =
    R"("b": {"shape": "box", "half_extents": [1, 1, 1], "position": [0, 0, 0]})";
inline const char* const kCornerTriangle =
    R"({"shape": "triangle", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]})";

/// The output of a query that must succeed, parsed.
inline Json explain(const std::string& query, const std::string& shapes) {
    const kz::ExplainOutcome outcome = kz::explainText(query, shapes, "shapes.json");
    EXPECT_EQ(outcome.exitCode, 0) << outcome.error;
    EXPECT_TRUE(outcome.error.empty());
    if (outcome.exitCode != 0) return Json::object();
    const Json out = Json::parse(outcome.json);
    EXPECT_EQ(out["query"], query);
    return out;
}

/// The error line of a query that must fail: exit code 2, no output, one line.
inline std::string explainError(const std::string& query, const std::string& shapes) {
    const kz::ExplainOutcome outcome = kz::explainText(query, shapes, "shapes.json");
    EXPECT_EQ(outcome.exitCode, 2);
    EXPECT_TRUE(outcome.json.empty());
    EXPECT_EQ(outcome.error.find('\n'), std::string::npos);
    return outcome.error;
}

/// `v` sorted.
inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

/// The object's keys, sorted.
inline std::vector<std::string> keysOf(const Json& j) {
    std::vector<std::string> keys;
    for (const auto& item : j.items())
        keys.push_back(item.key());
    return sorted(std::move(keys));
}

inline void expectVec(const Json& j, double x, double y, double z, double tol = 1e-6) {
    ASSERT_TRUE(j.is_array()) << j;
    ASSERT_EQ(j.size(), 3u) << j;
    EXPECT_NEAR(j[0].get<double>(), x, tol) << j;
    EXPECT_NEAR(j[1].get<double>(), y, tol) << j;
    EXPECT_NEAR(j[2].get<double>(), z, tol) << j;
}

} // namespace kz::explaintest
