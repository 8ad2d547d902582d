// The ray queries of `kolize explain`: their fast results and the keys of their traces
// (src/geom/explain_ray.hpp), for the table of queries.cpp. Internal to kz_explain.
#pragma once

#include "app/explain/shapes.hpp"

#include <nlohmann/json.hpp>

namespace kz::explain_steps {

using Json = nlohmann::ordered_json;

Json raySphereResult(const ExplainInput& input);
void raySphereSteps(const ExplainInput& input, Json& out);
Json rayBoxResult(const ExplainInput& input);
void rayBoxSteps(const ExplainInput& input, Json& out);
Json rayPlaneResult(const ExplainInput& input);
void rayPlaneSteps(const ExplainInput& input, Json& out);
Json rayTriangleResult(const ExplainInput& input);
void rayTriangleSteps(const ExplainInput& input, Json& out);
Json rayMeshResult(const ExplainInput& input);
void rayMeshSteps(const ExplainInput& input, Json& out);

} // namespace kz::explain_steps
