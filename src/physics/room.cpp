#include "room.hpp"

#include "geom/plane.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>

namespace kz {
namespace {

/// Keeps the part of a convex polygon with dot(n, x) + d >= 0 (Sutherland-Hodgman).
std::vector<glm::dvec3> clipToHalfSpace(const std::vector<glm::dvec3>& polygon, const glm::dvec3& n,
                                        double d) {
    std::vector<glm::dvec3> out;
    const std::size_t count = polygon.size();
    for (std::size_t i = 0; i < count; ++i) {
        const glm::dvec3& p = polygon[i];
        const glm::dvec3& q = polygon[(i + 1) % count];
        const double dp = glm::dot(n, p) + d;
        const double dq = glm::dot(n, q) + d;
        if (dp >= 0.0) out.push_back(p);
        if ((dp > 0.0 && dq < 0.0) || (dp < 0.0 && dq > 0.0)) out.push_back(p + (dp / (dp - dq)) * (q - p));
    }
    return out;
}

} // namespace

RoomResult makeRoom(std::span<const Plane> planes) {
    if (planes.size() < 4)
        return {std::nullopt, "a closed room needs at least 4 planes, got " + std::to_string(planes.size())};
    Room room;
    std::vector<glm::dvec3> normals;
    std::vector<double> offsets;
    for (std::size_t i = 0; i < planes.size(); ++i) {
        if (!isValid(planes[i]))
            return {std::nullopt, "plane " + std::to_string(i) + " has a zero or non-finite normal"};
        const double length = glm::length(glm::dvec3(planes[i].normal));
        normals.push_back(glm::dvec3(planes[i].normal) / length);
        offsets.push_back(static_cast<double>(planes[i].d) / length);
        room.planes.push_back({glm::vec3(normals.back()), static_cast<float>(offsets.back())});
    }

    // Each wall: a huge square on its plane, clipped by every other plane's inside half-space.
    // A vertex of the huge square surviving means the room is open on that side. The square
    // grows with the planes' offsets, so a closed room of any finite size is closed here too.
    double farthest = 0.0;
    for (const double offset : offsets)
        farthest = std::max(farthest, std::abs(offset));
    const double squareHalf = std::max(1e6, 8.0 * farthest);
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    int bounding = 0;
    for (std::size_t i = 0; i < planes.size(); ++i) {
        const glm::dvec3 n = normals[i];
        const glm::dvec3 helper = std::abs(n.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
        const glm::dvec3 u = glm::normalize(glm::cross(helper, n));
        const glm::dvec3 v =
            glm::cross(n, u); // u, v, n right-handed: counter-clockwise seen from inside (from +n)
        const glm::dvec3 centre = -offsets[i] * n;
        std::vector<glm::dvec3> polygon = {centre + squareHalf * (-u - v), centre + squareHalf * (u - v),
                                           centre + squareHalf * (u + v), centre + squareHalf * (-u + v)};
        for (std::size_t j = 0; j < planes.size() && !polygon.empty(); ++j) {
            if (j != i) polygon = clipToHalfSpace(polygon, normals[j], offsets[j]);
        }
        std::vector<glm::vec3> wall;
        for (const glm::dvec3& p : polygon) {
            if (glm::length(p - centre) > 0.5 * squareHalf) {
                return {std::nullopt,
                        "the planes do not close the room (plane " + std::to_string(i) + " is unbounded)"};
            }
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
            wall.push_back(glm::vec3(p));
        }
        // A wall of zero area (touching the room only along an edge or a corner) bounds nothing.
        if (wall.size() >= 3 && polygonArea(wall) > 1e-9f) {
            ++bounding;
        } else {
            wall.clear();
        }
        room.walls.push_back(std::move(wall));
    }
    if (bounding < 4 || !(hi.x - lo.x > 0.0 && hi.y - lo.y > 0.0 && hi.z - lo.z > 0.0)) {
        return {std::nullopt, "the planes enclose no space (the inside is empty or flat)"};
    }
    room.bounds = {glm::vec3(lo), glm::vec3(hi)};
    return {std::move(room), {}};
}

float polygonArea(std::span<const glm::vec3> polygon) {
    glm::vec3 sum(0.0f);
    for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
        sum += glm::cross(polygon[i] - polygon[0], polygon[i + 1] - polygon[0]);
    }
    return 0.5f * glm::length(sum);
}

Room boxRoom(const glm::vec3& size) {
    const glm::vec3 h = 0.5f * size;
    const Plane planes[6] = {{{1, 0, 0}, h.x},  {{-1, 0, 0}, h.x}, {{0, 1, 0}, h.y},
                             {{0, -1, 0}, h.y}, {{0, 0, 1}, h.z},  {{0, 0, -1}, h.z}};
    RoomResult result = makeRoom(planes);
    if (!result.room)
        throw std::invalid_argument("boxRoom: size " + std::to_string(size.x) + " x " +
                                    std::to_string(size.y) + " x " + std::to_string(size.z) + ": " +
                                    result.error);
    return std::move(*result.room);
}

bool insideRoom(const Room& room, const glm::vec3& p, float tolerance) {
    for (const Plane& plane : room.planes) {
        if (!(signedDistance(plane, p) >= -tolerance)) return false; // a NaN is not inside
    }
    return true;
}

} // namespace kz
