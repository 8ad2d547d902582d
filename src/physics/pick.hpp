// Picking: which body a ray meets first.
#pragma once

#include "geom/raycast.hpp"
#include "world.hpp"

#include <optional>
#include <vector>

namespace kz {

/// A body hit by a picking ray.
struct PickHit {
    int body;   ///< Index into World::bodies().
    RayHit hit; ///< Where: t in units of the ray's dir, world point, unit normal (see raycast).
};

/// The nearest body along the ray (0 <= t <= tMax), tested in its current pose: spheres exactly,
/// boxes as oriented boxes (the ray moved into the box's frame). A ray starting inside a body hits
/// it at t = 0. Candidates are first culled and ordered by their bounding spheres, and the exact
/// tests stop once the next candidate's bounding sphere starts beyond the best hit (the Ogre scene
/// query done right: nearest wins, not first in container order). Empty for an invalid ray.
std::optional<PickHit> pickBody(const World& world, const Ray& ray, float tMax = INFINITY);

/// Every body the ray meets, nearest first.
std::vector<PickHit> pickAll(const World& world, const Ray& ray, float tMax = INFINITY);

} // namespace kz
