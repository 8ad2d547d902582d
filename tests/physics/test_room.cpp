// Tests for physics/room.hpp: makeRoom on closed rooms (cube, slanted ceiling, wedge,
// tetrahedron) with their exact wall polygons, the rejection of open, empty and invalid plane
// sets, insideRoom and boxRoom. Every valid room is also checked for closure by the divergence
// theorem: its volume is (1/3) sum(area_i * distance from an inside point to plane_i).
#include "geom/closest.hpp"
#include "geom/plane.hpp"
#include "physics/room.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

using kz::Plane;
using kz::Room;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

std::string str(const glm::vec3& v) {
    std::ostringstream os;
    os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return os.str();
}

/// Inside is dot(n, x) + d >= 0; the normal is normalised here.
Plane inwardPlane(const glm::vec3& normal, float d) {
    const float length = glm::length(normal);
    return {normal / length, d / length};
}

/// The cube [-h, h]^3: -x face first, then +x, -y, +y, -z, +z.
std::vector<Plane> cubePlanes(float h) {
    return {{{1, 0, 0}, h},  {{-1, 0, 0}, h}, {{0, 1, 0}, h},
            {{0, -1, 0}, h}, {{0, 0, 1}, h},  {{0, 0, -1}, h}};
}

/// The cube [-5, 5]^3 with the ceiling replaced by y = 3 + 0.2 x (it rises toward +x).
std::vector<Plane> slantedPlanes() {
    std::vector<Plane> planes = cubePlanes(5.0f);
    planes[3] = inwardPlane({0.2f, -1.0f, 0.0f}, 3.0f); // 3 + 0.2 x - y >= 0
    return planes;
}

/// A triangular prism: floor y >= 0, roof slopes y <= 1 - x and y <= 1 + x, ends z = +-2.
std::vector<Plane> wedgePlanes() {
    return {{{0, 1, 0}, 0.0f},
            inwardPlane({-1.0f, -1.0f, 0.0f}, 1.0f),
            inwardPlane({1.0f, -1.0f, 0.0f}, 1.0f),
            {{0, 0, 1}, 2.0f},
            {{0, 0, -1}, 2.0f}};
}

/// Every wall: on its plane, inside the room, counter-clockwise seen from inside (its Newell
/// normal equals the inward plane normal), convex and non-degenerate.
testing::AssertionResult wallsAreConsistent(const Room& room) {
    if (room.walls.size() != room.planes.size())
        return testing::AssertionFailure()
               << room.walls.size() << " walls for " << room.planes.size() << " planes";
    for (std::size_t i = 0; i < room.walls.size(); ++i) {
        const auto& wall = room.walls[i];
        const Plane& plane = room.planes[i];
        if (std::abs(glm::length(plane.normal) - 1.0f) > 1e-6f)
            return testing::AssertionFailure()
                   << "plane " << i << " normal is not unit: " << str(plane.normal);
        if (wall.empty()) continue;
        if (wall.size() < 3) return testing::AssertionFailure() << "wall " << i << " has " << wall.size();
        for (const glm::vec3& v : wall) {
            if (std::abs(kz::signedDistance(plane, v)) > 1e-4f)
                return testing::AssertionFailure()
                       << "wall " << i << " vertex " << str(v) << " is off its plane";
            if (!kz::insideRoom(room, v, 1e-4f))
                return testing::AssertionFailure() << "wall " << i << " vertex " << str(v) << " is outside";
        }
        const auto normal = kz::polygonNormal(wall);
        if (!normal) return testing::AssertionFailure() << "wall " << i << " has no normal";
        if (glm::dot(*normal, plane.normal) < 1.0f - 1e-5f)
            return testing::AssertionFailure()
                   << "wall " << i << " normal " << str(*normal) << " != plane normal " << str(plane.normal)
                   << " (not counter-clockwise from inside)";
        // Convex, same turn everywhere: every corner turns left about the inward normal.
        for (std::size_t k = 0; k < wall.size(); ++k) {
            const glm::vec3& a = wall[k];
            const glm::vec3& b = wall[(k + 1) % wall.size()];
            const glm::vec3& c = wall[(k + 2) % wall.size()];
            if (glm::dot(glm::cross(b - a, c - b), plane.normal) <= 0.0f)
                return testing::AssertionFailure() << "wall " << i << " turns the wrong way at " << str(b);
        }
    }
    return testing::AssertionSuccess();
}

/// Volume by the divergence theorem, from a point inside.
double volume(const Room& room, const glm::vec3& inside) {
    double sum = 0.0;
    for (std::size_t i = 0; i < room.walls.size(); ++i) {
        sum += static_cast<double>(kz::polygonArea(room.walls[i])) *
               static_cast<double>(kz::signedDistance(room.planes[i], inside));
    }
    return sum / 3.0;
}

bool sameVertexSet(const std::vector<glm::vec3>& wall, const std::vector<glm::vec3>& expected, float tol) {
    if (wall.size() != expected.size()) return false;
    for (const glm::vec3& e : expected) {
        bool found = false;
        for (const glm::vec3& v : wall)
            found = found || glm::length(v - e) <= tol;
        if (!found) return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// Closed rooms

TEST(Room, CubeHasSixSquareWallsCounterClockwiseFromInside) {
    const std::vector<Plane> planes = cubePlanes(5.0f);
    const kz::RoomResult result = kz::makeRoom(planes);
    ASSERT_TRUE(result.room) << result.error;
    EXPECT_TRUE(result.error.empty());
    const Room& room = *result.room;
    ASSERT_EQ(room.planes.size(), 6u);
    ASSERT_EQ(room.walls.size(), 6u);
    EXPECT_TRUE(wallsAreConsistent(room));
    for (std::size_t i = 0; i < 6; ++i) {
        SCOPED_TRACE("wall " + std::to_string(i));
        const auto& wall = room.walls[i];
        ASSERT_EQ(wall.size(), 4u);
        EXPECT_NEAR(kz::polygonArea(wall), 100.0f, 1e-3f);
        for (std::size_t k = 0; k < 4; ++k) {
            EXPECT_NEAR(glm::length(wall[(k + 1) % 4] - wall[k]), 10.0f, 1e-4f); // a square of side 10
            for (int axis = 0; axis < 3; ++axis)
                EXPECT_NEAR(std::abs(wall[k][axis]), 5.0f, 1e-4f) << str(wall[k]); // corners of the cube
        }
        EXPECT_NEAR(glm::length(wall[2] - wall[0]), glm::length(wall[3] - wall[1]), 1e-4f);
        EXPECT_EQ(room.planes[i].normal, planes[i].normal);
        EXPECT_EQ(room.planes[i].d, 5.0f);
    }
    EXPECT_NEAR(volume(room, glm::vec3(0.0f)), 1000.0, 1e-2);
    EXPECT_NEAR(volume(room, glm::vec3(1.0f, -2.0f, 3.0f)), 1000.0, 1e-2);
    EXPECT_NEAR(glm::length(room.bounds.min - glm::vec3(-5.0f)), 0.0f, 1e-4f);
    EXPECT_NEAR(glm::length(room.bounds.max - glm::vec3(5.0f)), 0.0f, 1e-4f);
}

TEST(Room, SlantedCeilingRoomHasTrapezoidSidesAndATiltedRectangleCeiling) {
    const std::vector<Plane> planes = slantedPlanes();
    const kz::RoomResult result = kz::makeRoom(planes);
    ASSERT_TRUE(result.room) << result.error;
    const Room& room = *result.room;
    EXPECT_TRUE(wallsAreConsistent(room));
    ASSERT_EQ(room.walls.size(), 6u);
    // -x wall 7 high, +x wall 9 high, floor 10 x 10, ceiling 10 x sqrt(104), z walls trapezoids.
    const float expectedArea[6] = {70.0f, 90.0f, 100.0f, 10.0f * std::sqrt(104.0f), 80.0f, 80.0f};
    for (std::size_t i = 0; i < 6; ++i) {
        SCOPED_TRACE("wall " + std::to_string(i));
        ASSERT_EQ(room.walls[i].size(), 4u);
        EXPECT_NEAR(kz::polygonArea(room.walls[i]), expectedArea[i], 1e-3f);
    }
    EXPECT_TRUE(sameVertexSet(room.walls[3], {{5, 4, 5}, {5, 4, -5}, {-5, 2, -5}, {-5, 2, 5}}, 1e-4f));
    EXPECT_TRUE(sameVertexSet(room.walls[0], {{-5, -5, 5}, {-5, -5, -5}, {-5, 2, -5}, {-5, 2, 5}}, 1e-4f));
    EXPECT_NEAR(volume(room, glm::vec3(0.0f)), 800.0, 1e-2); // floor 100 x mean height 8
    EXPECT_NEAR(glm::length(room.bounds.min - glm::vec3(-5.0f)), 0.0f, 1e-4f);
    EXPECT_NEAR(glm::length(room.bounds.max - glm::vec3(5.0f, 4.0f, 5.0f)), 0.0f, 1e-4f);
}

TEST(Room, WedgeOfFivePlanesHasThreeRectanglesAndTwoTriangles) {
    const std::vector<Plane> planes = wedgePlanes();
    const kz::RoomResult result = kz::makeRoom(planes);
    ASSERT_TRUE(result.room) << result.error;
    const Room& room = *result.room;
    EXPECT_TRUE(wallsAreConsistent(room));
    ASSERT_EQ(room.walls.size(), 5u);
    const std::size_t expectedCount[5] = {4, 4, 4, 3, 3};
    const float expectedArea[5] = {8.0f, 4.0f * std::sqrt(2.0f), 4.0f * std::sqrt(2.0f), 1.0f, 1.0f};
    for (std::size_t i = 0; i < 5; ++i) {
        SCOPED_TRACE("wall " + std::to_string(i));
        EXPECT_EQ(room.walls[i].size(), expectedCount[i]);
        EXPECT_NEAR(kz::polygonArea(room.walls[i]), expectedArea[i], 1e-4f);
    }
    EXPECT_TRUE(sameVertexSet(room.walls[3], {{-1, 0, -2}, {1, 0, -2}, {0, 1, -2}}, 1e-5f));
    EXPECT_TRUE(sameVertexSet(room.walls[4], {{-1, 0, 2}, {1, 0, 2}, {0, 1, 2}}, 1e-5f));
    EXPECT_NEAR(volume(room, glm::vec3(0.0f, 0.3f, 0.5f)), 4.0, 1e-4); // triangle 1 x length 4
    EXPECT_NEAR(glm::length(room.bounds.min - glm::vec3(-1.0f, 0.0f, -2.0f)), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(room.bounds.max - glm::vec3(1.0f, 1.0f, 2.0f)), 0.0f, 1e-5f);
}

TEST(Room, TetrahedronOfFourPlanesIsTheSmallestClosedRoom) {
    // x >= 0, y >= 0, z >= 0, x + y + z <= 3.
    const std::vector<Plane> planes = {
        {{1, 0, 0}, 0.0f}, {{0, 1, 0}, 0.0f}, {{0, 0, 1}, 0.0f}, inwardPlane({-1.0f, -1.0f, -1.0f}, 3.0f)};
    const kz::RoomResult result = kz::makeRoom(planes);
    ASSERT_TRUE(result.room) << result.error;
    const Room& room = *result.room;
    EXPECT_TRUE(wallsAreConsistent(room));
    for (const auto& wall : room.walls)
        EXPECT_EQ(wall.size(), 3u);
    EXPECT_NEAR(kz::polygonArea(room.walls[0]), 4.5f, 1e-4f);
    EXPECT_NEAR(kz::polygonArea(room.walls[3]), 4.5f * std::sqrt(3.0f), 1e-4f);
    EXPECT_NEAR(volume(room, glm::vec3(0.5f)), 4.5, 1e-4); // 3^3 / 6
}

TEST(Room, NonUnitNormalsAreNormalisedWithTheirOffsets) {
    std::vector<Plane> planes = cubePlanes(5.0f);
    for (std::size_t i = 0; i < planes.size(); ++i) {
        const float scale = 0.25f + static_cast<float>(i); // 0.25 .. 5.25
        planes[i].normal *= scale;
        planes[i].d *= scale;
    }
    const kz::RoomResult result = kz::makeRoom(planes);
    ASSERT_TRUE(result.room) << result.error;
    EXPECT_TRUE(wallsAreConsistent(*result.room));
    const std::vector<Plane> unit = cubePlanes(5.0f);
    for (std::size_t i = 0; i < unit.size(); ++i) {
        EXPECT_NEAR(glm::length(result.room->planes[i].normal - unit[i].normal), 0.0f, 1e-6f);
        EXPECT_NEAR(result.room->planes[i].d, 5.0f, 1e-5f);
        EXPECT_NEAR(kz::polygonArea(result.room->walls[i]), 100.0f, 1e-3f);
    }
}

TEST(Room, RedundantPlaneOutsideTheRoomGetsNoWall) {
    std::vector<Plane> planes = cubePlanes(5.0f);
    planes.push_back({{1, 0, 0}, 100.0f}); // x >= -100: never reached
    const kz::RoomResult result = kz::makeRoom(planes);
    ASSERT_TRUE(result.room) << result.error;
    ASSERT_EQ(result.room->walls.size(), 7u);
    EXPECT_TRUE(result.room->walls[6].empty());
    EXPECT_TRUE(wallsAreConsistent(*result.room));
    EXPECT_NEAR(volume(*result.room, glm::vec3(0.0f)), 1000.0, 1e-2);
}

TEST(Room, PlaneTouchingTheRoomOnlyAlongAnEdgeGetsNoWall) {
    std::vector<Plane> planes = cubePlanes(5.0f);
    planes.push_back(inwardPlane({-1.0f, -1.0f, 0.0f}, 10.0f)); // x + y <= 10: the edge x = y = 5
    const kz::RoomResult result = kz::makeRoom(planes);
    ASSERT_TRUE(result.room) << result.error;
    EXPECT_TRUE(result.room->walls[6].empty());
    EXPECT_TRUE(wallsAreConsistent(*result.room));
    EXPECT_NEAR(volume(*result.room, glm::vec3(0.0f)), 1000.0, 1e-2);
}

// ---------------------------------------------------------------------------------------------
// Rejected plane sets

TEST(Room, FiveCubePlanesLeaveTheRoomOpenAndAreRejected) {
    for (std::size_t missing = 0; missing < 6; ++missing) {
        SCOPED_TRACE("without plane " + std::to_string(missing));
        std::vector<Plane> planes = cubePlanes(5.0f);
        planes.erase(planes.begin() + static_cast<std::ptrdiff_t>(missing));
        const kz::RoomResult result = kz::makeRoom(planes);
        EXPECT_FALSE(result.room);
        EXPECT_FALSE(result.error.empty());
    }
}

TEST(Room, FourPlanesOfAnOpenTubeAreRejected) {
    const std::vector<Plane> planes = {
        {{1, 0, 0}, 1.0f}, {{-1, 0, 0}, 1.0f}, {{0, 1, 0}, 1.0f}, {{0, -1, 0}, 1.0f}};
    const kz::RoomResult result = kz::makeRoom(planes);
    EXPECT_FALSE(result.room);
    EXPECT_FALSE(result.error.empty());
}

TEST(Room, ContradictingPlanesEncloseNothingAndAreRejected) {
    {
        SCOPED_TRACE("x >= 6 inside a cube of half size 5");
        std::vector<Plane> planes = cubePlanes(5.0f);
        planes.push_back({{1, 0, 0}, -6.0f});
        const kz::RoomResult result = kz::makeRoom(planes);
        EXPECT_FALSE(result.room);
        EXPECT_FALSE(result.error.empty());
    }
    {
        SCOPED_TRACE("x <= -5 and x >= 5");
        std::vector<Plane> planes = cubePlanes(5.0f);
        planes[0] = {{-1, 0, 0}, -5.0f};
        planes[1] = {{1, 0, 0}, -5.0f};
        const kz::RoomResult result = kz::makeRoom(planes);
        EXPECT_FALSE(result.room);
        EXPECT_FALSE(result.error.empty());
    }
    {
        SCOPED_TRACE("a flat room: x >= 0 and x <= 0");
        std::vector<Plane> planes = cubePlanes(5.0f);
        planes[0] = {{1, 0, 0}, 0.0f};
        planes[1] = {{-1, 0, 0}, 0.0f};
        const kz::RoomResult result = kz::makeRoom(planes);
        EXPECT_FALSE(result.room);
        EXPECT_FALSE(result.error.empty());
    }
}

TEST(Room, ZeroOrNonFiniteNormalsAndOffsetsAreRejected) {
    const Plane bad[] = {{{0, 0, 0}, 5.0f}, {{kNaN, 0, 0}, 5.0f}, {{0, kInf, 0}, 5.0f},
                         {{0, 0, 1}, kNaN}, {{0, 0, 1}, kInf},    {{1e-30f, 0, 0}, 5.0f}};
    for (const Plane& plane : bad) {
        SCOPED_TRACE("bad plane normal " + str(plane.normal) + " d " + std::to_string(plane.d));
        std::vector<Plane> planes = cubePlanes(5.0f);
        planes[2] = plane;
        const kz::RoomResult result = kz::makeRoom(planes);
        EXPECT_FALSE(result.room);
        EXPECT_FALSE(result.error.empty());
    }
}

TEST(Room, FewerThanFourPlanesAreRejected) {
    const std::vector<Plane> planes = cubePlanes(5.0f);
    for (std::size_t count = 0; count < 4; ++count) {
        SCOPED_TRACE(std::to_string(count) + " planes");
        const kz::RoomResult result = kz::makeRoom(std::span<const Plane>(planes.data(), count));
        EXPECT_FALSE(result.room);
        EXPECT_FALSE(result.error.empty());
    }
}

// ---------------------------------------------------------------------------------------------
// insideRoom, boxRoom

TEST(Room, PointsInsideOnTheBoundaryAndOutside) {
    const Room room = kz::boxRoom(glm::vec3(10.0f));
    EXPECT_TRUE(kz::insideRoom(room, glm::vec3(0.0f)));
    EXPECT_TRUE(kz::insideRoom(room, {4.99f, -4.99f, 4.99f}));
    EXPECT_TRUE(kz::insideRoom(room, {5.0f, 0.0f, 0.0f}));   // on a wall counts as inside
    EXPECT_TRUE(kz::insideRoom(room, {5.0f, 5.0f, -5.0f}));  // a corner too
    EXPECT_FALSE(kz::insideRoom(room, {5.01f, 0.0f, 0.0f})); // just outside one wall
    EXPECT_FALSE(kz::insideRoom(room, {0.0f, -5.01f, 0.0f}));
    EXPECT_FALSE(kz::insideRoom(room, {0.0f, 0.0f, 100.0f}));
    EXPECT_TRUE(kz::insideRoom(room, {5.01f, 0.0f, 0.0f}, 0.02f)); // within the tolerance
    EXPECT_FALSE(kz::insideRoom(room, {5.03f, 0.0f, 0.0f}, 0.02f));

    const kz::RoomResult slanted = kz::makeRoom(slantedPlanes());
    ASSERT_TRUE(slanted.room);
    EXPECT_TRUE(kz::insideRoom(*slanted.room, {4.0f, 3.7f, 0.0f}));   // under the high end (3.8)
    EXPECT_FALSE(kz::insideRoom(*slanted.room, {-4.0f, 3.7f, 0.0f})); // above the low end (2.2)
}

TEST(Room, NonFinitePointIsNotInside) {
    // The contract: inside when dot(n, x) + d >= -tolerance for every plane, false for NaN.
    const Room room = kz::boxRoom(glm::vec3(10.0f));
    EXPECT_FALSE(kz::insideRoom(room, {kNaN, 0.0f, 0.0f}));
    EXPECT_FALSE(kz::insideRoom(room, {kInf, 0.0f, 0.0f}));
}

TEST(Room, BoxRoomHasSixWallsOfTheGivenSize) {
    const Room room = kz::boxRoom({2.0f, 4.0f, 6.0f});
    ASSERT_EQ(room.planes.size(), 6u);
    ASSERT_EQ(room.walls.size(), 6u);
    EXPECT_TRUE(wallsAreConsistent(room));
    for (std::size_t i = 0; i < 6; ++i) {
        const glm::vec3 n = room.planes[i].normal;
        const int axis = std::abs(n.x) > 0.5f ? 0 : (std::abs(n.y) > 0.5f ? 1 : 2);
        const float expectedArea[3] = {24.0f, 12.0f, 8.0f}; // y z, x z, x y
        EXPECT_NEAR(std::abs(n[axis]), 1.0f, 0.0f);
        EXPECT_EQ(room.walls[i].size(), 4u);
        EXPECT_NEAR(kz::polygonArea(room.walls[i]), expectedArea[axis], 1e-4f);
        EXPECT_NEAR(room.planes[i].d, glm::vec3(1.0f, 2.0f, 3.0f)[axis], 1e-6f);
    }
    EXPECT_NEAR(glm::length(room.bounds.min - glm::vec3(-1.0f, -2.0f, -3.0f)), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(room.bounds.max - glm::vec3(1.0f, 2.0f, 3.0f)), 0.0f, 1e-5f);
    EXPECT_NEAR(volume(room, glm::vec3(0.0f)), 48.0, 1e-4);
    EXPECT_TRUE(kz::insideRoom(room, {0.9f, 1.9f, 2.9f}));
    EXPECT_FALSE(kz::insideRoom(room, {1.1f, 0.0f, 0.0f}));
}

} // namespace
