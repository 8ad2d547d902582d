// The queries of `kolize explain`, one table entry each: the shapes it reads, its fast query's
// result, and the hook that adds its trace's steps.
//
// Adding a trace to a query: write `void <query>Steps(const ExplainInput&, Json& out)` that runs
// the trace and adds its keys to `out` beside "query" and "result" (ray_steps.cpp and
// contact_steps.cpp hold the thirteen), and set it as the entry's `steps` in
// explainQueries() (queries.cpp). Document the keys in docs/command-line.md.
#pragma once

#include "app/explain/shapes.hpp"

#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

namespace kz {

/// One query of `kolize explain`.
struct ExplainQuery {
    const char* name;   ///< As typed on the command line: "ray-box".
    ExplainNeeds needs; ///< The shapes its file must hold.
    /// The fast query's answer, the output's "result" object.
    nlohmann::ordered_json (*result)(const ExplainInput& input);
    /// Adds the trace's keys to the output (after "query" and "result"); nullptr while the query
    /// has no trace, when the output is "query" and "result" only.
    void (*steps)(const ExplainInput& input, nlohmann::ordered_json& out);
};

/// Every query, in the order of docs/command-line.md: the five ray queries, then the contacts, the
/// sweep and the closest points.
std::span<const ExplainQuery> explainQueries();

/// The query named `name`, or nullptr.
const ExplainQuery* findExplainQuery(std::string_view name);

} // namespace kz
