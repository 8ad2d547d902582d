// Pass 2 of loading a scenario: the JSON document read key by key into a Scenario (the room,
// settings, camera, listed bodies and mesh obstacles, random bodies), every value checked, and
// the time step checked against the fastest body. Internal to kz_scenario; kz_explain (src/app)
// reads the shapes of `kolize explain` with the body, obstacle and plane readers below.
#pragma once

#include "geom/types.hpp"
#include "json_values.hpp"
#include "physics/body.hpp"
#include "physics/obstacle.hpp"
#include "scenario.hpp"

#include <string>

namespace kz::scenario_detail {

class MeshFiles;

/// The scenario `doc` describes; throws LoadError at the first invalid value. Mesh files come
/// through `meshes` (beside the scenario file, then in the asset root; or the texts given with
/// it). Listed bodies are not yet checked against the room and each other (checkListedBodies does
/// that).
Scenario readScenario(const json& doc, MeshFiles& meshes);

/// A listed body ("shape" "sphere", "box", "capsule", "cylinder" or "hull") at JSON pointer `p`,
/// its keys read in a fixed order (the first invalid one is the one reported); `index` names it by
/// default (defaultBodyName) and picks its default colour, `s` gives its default material. A
/// hull's "mesh" file comes through `meshes` (none: the key is refused); a hull body is placed at
/// its centre of mass, turned to its principal axes (makeHullBody).
BodyDesc readBody(const json& j, const std::string& p, std::size_t index, const Scenario& s,
                  MeshFiles* meshes = nullptr);

/// A mesh obstacle entry ("shape": "mesh") at `p`: its keys, its mesh file (loaded through
/// `meshes`), name, position, orientation, scale and colour; not yet placed or checked against a
/// room.
ObstacleDesc readObstacleDesc(const json& j, const std::string& p, MeshFiles& meshes);

/// The plane of an object's "normal" (not zero) and "d", normalised (normal / |normal|,
/// d / |normal|). The object's other keys are the caller's to check.
Plane readPlaneValues(const json& plane, const std::string& p);

} // namespace kz::scenario_detail
