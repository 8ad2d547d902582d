// The room: a closed, bounded convex set of planes whose normals point inward.
#pragma once

#include "geom/types.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kz {

struct Room {
    std::vector<Plane> planes; ///< Unit normals pointing into the room: inside is dot(n, x) + d >= 0.
    std::vector<std::vector<glm::vec3>>
        walls;   ///< Per plane, its finite wall polygon (the plane clipped by all others), counter-clockwise
                 ///< seen from inside; empty if the plane does not bound the room.
    Aabb bounds; ///< The room's bounding box (of all wall vertices).
};

/// A room from planes, or an error message when they do not bound a closed, non-empty region
/// (a plane with a zero or non-finite normal, an open side, or no interior).
struct RoomResult {
    std::optional<Room> room;
    std::string error;
};
RoomResult makeRoom(std::span<const Plane> planes);

/// The six walls of a box room centred on the origin with the given full size. Throws
/// std::invalid_argument when the size does not make a room (a size that is not finite, or not
/// large enough for walls of non-zero area: below about 1e-4); any larger finite size works.
Room boxRoom(const glm::vec3& size);

/// Area of a planar polygon.
float polygonArea(std::span<const glm::vec3> polygon);

/// Whether a point is inside the room (dot(n, x) + d >= -tolerance for every plane).
bool insideRoom(const Room& room, const glm::vec3& p, float tolerance = 0.0f);

} // namespace kz
