// Tests for physics/obstacle.hpp and the obstacles in World and picking: placed meshes (rotation
// and non-uniform scale) against exact references (an oriented box for a cube mesh), spheres and
// boxes colliding with triangles (faces, edges, corners, shared edges without ghost bumps, no
// tunnelling at 200 m/s), energy over long runs, and the pick query's order and early exit.
// Random set-ups use fixed seeds, printed on failure.
#include "geom/closest.hpp"
#include "geom/raycast.hpp"
#include "physics/pick.hpp"
#include "physics/world.hpp"
#include "support/grid_mesh.hpp"

#include <array>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace kz;
using kz::test::cubeMesh;
using kz::test::gridMesh;

constexpr float kStep = 1.0f / 120.0f;
constexpr std::uint32_t kSeed = 0x6d657368u;

std::string str(const glm::vec3& v) {
    std::ostringstream os;
    os.precision(9);
    os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return os.str();
}

Obstacle place(std::shared_ptr<const MeshShape> mesh, const glm::vec3& position, const glm::quat& orientation,
               const glm::vec3& scale) {
    std::string error;
    ObstacleDesc d;
    d.name = "obstacle";
    d.mesh = std::move(mesh);
    d.position = position;
    d.orientation = orientation;
    d.scale = scale;
    auto o = makeObstacle(d, error);
    EXPECT_TRUE(o) << error;
    return *o;
}

BodyDesc sphereDesc(const glm::vec3& position, const glm::vec3& velocity, float radius = 0.25f) {
    BodyDesc d;
    d.name = "ball";
    d.shape = ShapeType::Sphere;
    d.radius = radius;
    d.position = position;
    d.velocity = velocity;
    d.mass = 1.0f;
    return d;
}

BodyDesc boxDesc(const glm::vec3& position, const glm::vec3& velocity, const glm::vec3& half) {
    BodyDesc d;
    d.name = "box";
    d.shape = ShapeType::Box;
    d.halfExtents = half;
    d.position = position;
    d.velocity = velocity;
    d.mass = 1.0f;
    return d;
}

std::array<glm::vec3, 8> cornersOf(const Obb& box) {
    std::array<glm::vec3, 8> out;
    corners(box, out.data());
    return out;
}

glm::quat randomRotation(std::mt19937& rng) {
    std::normal_distribution<float> n(0.0f, 1.0f);
    return glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
}

// =============================================================================================
// Meshes and placement

TEST(MeshShape, BadIndicesAreAOneLineErrorPrefixedByTheSource) {
    std::string error;
    EXPECT_FALSE(MeshShape::make("lamp.obj", {glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(0, 1, 0)},
                                 {0, 1, 5}, error));
    EXPECT_EQ(error.rfind("lamp.obj: ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(MeshShape, AMeshOfOnlyDegenerateTrianglesIsRejected) {
    std::string error;
    EXPECT_FALSE(MeshShape::make("flat.obj", {glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(2, 0, 0)},
                                 {0, 1, 2}, error));
    EXPECT_NE(error.find("flat.obj"), std::string::npos) << error;
}

TEST(Obstacle, InvalidPlacementsAreRejectedWithAReason) {
    std::string error;
    ObstacleDesc d;
    EXPECT_FALSE(makeObstacle(d, error)); // no mesh
    EXPECT_FALSE(error.empty());
    d.mesh = cubeMesh();
    for (const glm::vec3& scale :
         {glm::vec3(0, 1, 1), glm::vec3(1, -1, 1), glm::vec3(1, NAN, 1), glm::vec3(INFINITY)}) {
        d.scale = scale;
        EXPECT_FALSE(makeObstacle(d, error)) << str(scale);
        EXPECT_NE(error.find("scale"), std::string::npos) << error;
    }
    d.scale = glm::vec3(1.0f);
    d.orientation = glm::quat(0, 0, 0, 0);
    EXPECT_FALSE(makeObstacle(d, error));
    d.orientation = glm::quat(1, 0, 0, 0);
    d.position = glm::vec3(NAN);
    EXPECT_FALSE(makeObstacle(d, error));
    d.position = glm::vec3(1.0f);
    EXPECT_TRUE(makeObstacle(d, error)) << error;
}

TEST(Obstacle, WorldAndLocalTransformsAreInversesAndTheBoundsHoldTheMesh) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 200; ++i) {
        std::uniform_real_distribution<float> s(0.2f, 3.0f), p(-4.0f, 4.0f);
        const Obstacle o =
            place(cubeMesh(), {p(rng), p(rng), p(rng)}, randomRotation(rng), {s(rng), s(rng), s(rng)});
        for (const glm::vec3& v : o.mesh->vertices) {
            const glm::vec3 w = o.toWorld(v);
            EXPECT_LT(glm::length(o.toLocal(w) - v), 1e-5f);
            EXPECT_TRUE(glm::all(glm::lessThanEqual(o.bounds.min, w)) &&
                        glm::all(glm::lessThanEqual(w, o.bounds.max)));
        }
        // The local box of a world box holds the images of the world box's corners.
        const glm::vec3 centre(p(rng), p(rng), p(rng));
        const Aabb world{centre - 0.5f, centre + glm::vec3(0.5f, 1.0f, 1.5f)};
        const Aabb local = o.localBox(world);
        for (int c = 0; c < 8; ++c) {
            const glm::vec3 corner((c & 1) ? world.max.x : world.min.x, (c & 2) ? world.max.y : world.min.y,
                                   (c & 4) ? world.max.z : world.min.z);
            const glm::vec3 l = o.toLocal(corner);
            EXPECT_TRUE(glm::all(glm::lessThanEqual(local.min - 1e-4f, l)) &&
                        glm::all(glm::lessThanEqual(l, local.max + 1e-4f)));
        }
    }
}

TEST(Obstacle, RaycastOfAPlacedCubeMeshMatchesTheEquivalentOrientedBox) {
    // A unit cube mesh rotated by R and scaled by s is the box with half extents s / 2 and axes
    // R: t, point and normal must agree (t in world units of dir, not the local frame's).
    std::mt19937 rng(kSeed + 1);
    std::uniform_real_distribution<float> s(0.3f, 3.0f), p(-2.0f, 2.0f), u(-1.0f, 1.0f);
    int hits = 0;
    for (int i = 0; i < 20000; ++i) {
        const glm::vec3 scale(s(rng), s(rng), s(rng));
        const Obstacle o = place(cubeMesh(), {p(rng), p(rng), p(rng)}, randomRotation(rng), scale);
        const Obb box{o.position, 0.5f * scale, glm::mat3_cast(o.orientation)};
        const glm::vec3 origin = o.position + 6.0f * glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
        const glm::vec3 aim = o.position + glm::vec3(u(rng), u(rng), u(rng)) * 1.5f;
        const Ray ray{origin, (aim - origin) * s(rng)}; // not unit: t is in units of dir
        const auto got = raycast(ray, o);
        const auto ref = raycast(ray, box);
        ASSERT_EQ(got.has_value(), ref.has_value()) << "seed " << kSeed + 1 << " case " << i;
        if (!got) continue;
        ++hits;
        ASSERT_NEAR(got->t, ref->t, 1e-4f * (1.0f + ref->t)) << "case " << i;
        ASSERT_LT(glm::length(got->point - ref->point), 1e-3f) << "case " << i;
        // Hits near a box edge may pick either face's normal; elsewhere the normals agree.
        const glm::vec3 localPoint = glm::transpose(box.axes) * (ref->point - box.center) / box.half;
        const int onFaces = (std::abs(std::abs(localPoint.x) - 1) < 1e-3f) +
                            (std::abs(std::abs(localPoint.y) - 1) < 1e-3f) +
                            (std::abs(std::abs(localPoint.z) - 1) < 1e-3f);
        if (onFaces == 1) {
            ASSERT_LT(glm::length(got->normal - ref->normal), 1e-4f) << "case " << i;
        }
        ASSERT_NEAR(glm::length(got->normal), 1.0f, 1e-5f);
        ASSERT_LE(glm::dot(got->normal, ray.dir), 0.0f); // faces the origin
        ASSERT_LT(got->triangle, 12u);
    }
    EXPECT_GT(hits, 5000);
}

TEST(Obstacle, InvalidRaysMissWithoutNaN) {
    const Obstacle o = place(cubeMesh(), glm::vec3(0.0f), glm::quat(1, 0, 0, 0), glm::vec3(2.0f));
    EXPECT_FALSE(raycast(Ray{glm::vec3(0, 0, -5), glm::vec3(0.0f)}, o));
    EXPECT_FALSE(raycast(Ray{glm::vec3(NAN), glm::vec3(0, 0, 1)}, o));
    EXPECT_FALSE(raycast(Ray{glm::vec3(0, 0, -5), glm::vec3(0, 0, 1)}, o, NAN));
    EXPECT_FALSE(raycast(Ray{glm::vec3(0, 0, -5), glm::vec3(0, 0, 1)}, o, 3.9f)); // the face is at t = 4
    const auto hit = raycast(Ray{glm::vec3(0, 0, -5), glm::vec3(0, 0, 0.5f)}, o);
    ASSERT_TRUE(hit);
    EXPECT_FLOAT_EQ(hit->t, 8.0f);
}

// =============================================================================================
// Picking

World roomWorld(float half = 10.0f) {
    return World(boxRoom(glm::vec3(half)));
}

TEST(PickObstacle, AClickBetweenTheLegsOfAnArchPicksTheBallBehindItNotTheArch) {
    // Two cube legs of one mesh, 2 m apart: the mesh's bounds span the gap, its triangles do not.
    std::vector<glm::vec3> v;
    std::vector<std::uint32_t> idx;
    const auto cube = cubeMesh();
    for (float x : {-1.5f, 1.5f}) {
        const auto base = static_cast<std::uint32_t>(v.size());
        for (const glm::vec3& c : cube->vertices)
            v.push_back(c + glm::vec3(x, 0, 0));
        for (std::uint32_t i : cube->indices)
            idx.push_back(base + i);
    }
    std::string error;
    auto legs = MeshShape::make("legs", v, idx, error);
    ASSERT_TRUE(legs) << error;
    World world = roomWorld();
    world.addObstacle(place(legs, glm::vec3(0.0f), glm::quat(1, 0, 0, 0), glm::vec3(1.0f)));
    world.addBody(sphereDesc({0, 0, 3}, glm::vec3(0.0f), 0.5f));
    const auto between = pickNearest(world, Ray{glm::vec3(0, 0, -5), glm::vec3(0, 0, 1)});
    ASSERT_TRUE(between);
    EXPECT_EQ(between->body, 0);
    EXPECT_EQ(between->obstacle, -1);
    EXPECT_FLOAT_EQ(between->hit.t, 7.5f);
    const auto leg = pickNearest(world, Ray{glm::vec3(1.5f, 0, -5), glm::vec3(0, 0, 1)});
    ASSERT_TRUE(leg);
    EXPECT_EQ(leg->body, -1);
    EXPECT_EQ(leg->obstacle, 0);
    EXPECT_FLOAT_EQ(leg->hit.t, 4.5f);
    EXPECT_LT(leg->triangle, 24u);
    EXPECT_GE(leg->u, 0.0f);
    EXPECT_GE(leg->v, 0.0f);
    EXPECT_LE(leg->u + leg->v, 1.0f);
    // The barycentrics name the hit point on the triangle.
    const Triangle t = world.obstacles()[0].worldTriangle(leg->triangle);
    const glm::vec3 fromBary = (1.0f - leg->u - leg->v) * t.a + leg->u * t.b + leg->v * t.c;
    EXPECT_LT(glm::length(fromBary - leg->hit.point), 1e-5f);
}

TEST(PickObstacle, TheNearerOfABodyAndAnObstacleWinsWhicheverComesFirstInItsList) {
    World world = roomWorld();
    world.addBody(sphereDesc({0, 0, 4}, glm::vec3(0.0f), 0.5f));
    world.addObstacle(place(cubeMesh(), {0, 0, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1.0f)));
    world.addObstacle(place(cubeMesh(), {0, 0, -3}, glm::quat(1, 0, 0, 0), glm::vec3(0.5f, 0.5f, 0.1f)));
    const auto hit = pickNearest(world, Ray{glm::vec3(0, 0, -8), glm::vec3(0, 0, 2)});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->obstacle, 1);
    EXPECT_NEAR(hit->hit.t, (8.0f - 3.05f) / 2.0f, 1e-5f);
    const auto all = pickAll(world, Ray{glm::vec3(0, 0, -8), glm::vec3(0, 0, 1)});
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].obstacle, 1);
    EXPECT_EQ(all[1].obstacle, 0);
    EXPECT_EQ(all[2].body, 0);
    // From behind, the ball is first.
    const auto back = pickNearest(world, Ray{glm::vec3(0, 0, 8), glm::vec3(0, 0, -1)});
    ASSERT_TRUE(back);
    EXPECT_EQ(back->body, 0);
}

TEST(PickObstacle, ARotatedNonUniformlyScaledMeshIsPickedWhereItsTrianglesAre) {
    std::mt19937 rng(kSeed + 2);
    std::uniform_real_distribution<float> s(0.3f, 2.0f), u(-1.0f, 1.0f);
    for (int i = 0; i < 2000; ++i) {
        World world = roomWorld();
        const glm::vec3 scale(s(rng), s(rng), s(rng));
        world.addObstacle(place(cubeMesh(), glm::vec3(0.0f), randomRotation(rng), scale));
        const Obstacle& o = world.obstacles()[0];
        const Obb box{o.position, 0.5f * scale, glm::mat3_cast(o.orientation)};
        const glm::vec3 origin = 5.0f * glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
        const Ray ray{origin, glm::vec3(u(rng), u(rng), u(rng)) * 1.2f - origin};
        const auto got = pickNearest(world, ray);
        const auto ref = raycast(ray, box);
        ASSERT_EQ(got.has_value(), ref.has_value()) << "seed " << kSeed + 2 << " case " << i;
        if (got) {
            ASSERT_NEAR(got->hit.t, ref->t, 1e-4f);
        }
    }
}

// =============================================================================================
// Collisions

TEST(ObstacleCollision, ABallDroppedOnAFaceBouncesStraightBackUpElastically) {
    World world(boxRoom(glm::vec3(10.0f)), WorldSettings{glm::vec3(0.0f)});
    world.addObstacle(place(cubeMesh(), {0, -2, 0}, glm::quat(1, 0, 0, 0), glm::vec3(4.0f, 2.0f, 4.0f)));
    world.addBody(sphereDesc({0.3f, 0.0f, -0.2f}, {0, -5, 0}));
    for (int i = 0; i < 40; ++i)
        world.step();
    const Body& b = world.bodies()[0];
    EXPECT_NEAR(b.velocity.y, 5.0f, 1e-4f);
    EXPECT_NEAR(b.velocity.x, 0.0f, 1e-5f);
    EXPECT_NEAR(b.velocity.z, 0.0f, 1e-5f);
    // Flew 0.75 m down to the face (y = -1, so the centre stops at -0.75), then back up for the
    // rest of the 40 steps at 5 m/s: the exact time of impact leaves no gap.
    EXPECT_NEAR(b.position.y, -0.75f + (40 * kStep * 5.0f - 0.75f), 1e-4f);
}

TEST(ObstacleCollision, ABallHittingACubeCornerBouncesAlongTheCornerToCentreDirection) {
    // The corner (1, 1, 1) of a 2 m cube at the origin; a ball moving along -x hits it off
    // centre. At the impact the normal is (centre - corner) / r; the elastic bounce reflects the
    // velocity about it.
    World world(boxRoom(glm::vec3(10.0f)));
    world.addObstacle(place(cubeMesh(), glm::vec3(0.0f), glm::quat(1, 0, 0, 0), glm::vec3(2.0f)));
    const float r = 0.5f;
    const glm::vec3 offset = glm::normalize(glm::vec3(0.0f, 0.3f, 0.2f)) * 0.3f; // off the axis line
    world.addBody(sphereDesc(glm::vec3(4.0f, 1.0f, 1.0f) + offset, {-3, 0, 0}, r));
    // Where the centre meets the corner at distance r: x = 1 + sqrt(r^2 - |offset|^2).
    const glm::vec3 atImpact(1.0f + std::sqrt(r * r - 0.09f), 1.0f + offset.y, 1.0f + offset.z);
    const glm::vec3 n = (atImpact - glm::vec3(1.0f)) / r;
    const glm::vec3 v(-3, 0, 0);
    const glm::vec3 expected = v - 2.0f * glm::dot(v, n) * n;
    for (int i = 0; i < 150; ++i)
        world.step();
    EXPECT_LT(glm::length(world.bodies()[0].velocity - expected), 2e-3f)
        << str(world.bodies()[0].velocity) << " vs " << str(expected);
}

TEST(ObstacleCollision, ABallRollingAcrossAFlatGridOfTrianglesFeelsNoInternalEdges) {
    // Gravity holds a ball on a 10 x 10 grid (200 triangles, 320 shared edges); it slides
    // across diagonally. A ghost contact with a shared edge would kick it up or sideways.
    World world(boxRoom(glm::vec3(10.0f)), WorldSettings{glm::vec3(0, -9.81f, 0)});
    world.addObstacle(place(gridMesh(10), {0, -2, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1.0f)));
    BodyDesc d = sphereDesc({-4, -2 + 0.25f, -3}, {3, 0, 2.2f});
    d.restitution = 0.0f;
    world.addBody(d);
    float highest = -INFINITY, lowest = INFINITY;
    for (int i = 0; i < 200; ++i) {
        world.step();
        const Body& b = world.bodies()[0];
        highest = std::max(highest, b.position.y);
        lowest = std::min(lowest, b.position.y);
        ASSERT_NEAR(b.velocity.x, 3.0f, 1e-3f) << "step " << i;
        ASSERT_NEAR(b.velocity.z, 2.2f, 1e-3f) << "step " << i;
    }
    EXPECT_LT(highest - (-1.75f), 2e-3f);
    EXPECT_GT(lowest - (-1.75f), -0.0025f);        // rests on the grid, not in it (1% of the radius)
    EXPECT_GT(world.bodies()[0].position.x, 0.0f); // it travelled 5 m
}

/// Whether the straight move from p to q crosses the sheet (the plane through the origin with
/// unit normal n, |local x|, |local z| < limit) from one side to the other.
bool crossesSheet(const glm::vec3& p, const glm::vec3& q, const glm::quat& rot, float limit) {
    const glm::mat3 axes = glm::mat3_cast(rot);
    const glm::vec3 n = axes[1];
    const float dp = glm::dot(p, n), dq = glm::dot(q, n);
    if ((dp > 0.0f) == (dq > 0.0f)) return false;
    const glm::vec3 x = p + (q - p) * (dp / (dp - dq));
    const glm::vec3 local = glm::transpose(axes) * x;
    return std::abs(local.x) < limit && std::abs(local.z) < limit;
}

TEST(ObstacleCollision, FastBallsNeverTunnelThroughAThinSheet) {
    // A single 4 x 4 m quad (two triangles, zero thickness), balls at up to 200 m/s from random
    // directions: no step moves a ball through the sheet (it may go round its edge).
    std::mt19937 rng(kSeed + 3);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), speed(20.0f, 200.0f);
    int bounced = 0;
    for (int trial = 0; trial < 40; ++trial) {
        World world(boxRoom(glm::vec3(10.0f)));
        const glm::quat rot = randomRotation(rng);
        world.addObstacle(place(gridMesh(1), glm::vec3(0.0f), rot, glm::vec3(4.0f, 1.0f, 4.0f)));
        const glm::vec3 normal = glm::mat3_cast(rot) * glm::vec3(0, 1, 0);
        const float side = u(rng) < 0.0f ? -1.0f : 1.0f;
        const glm::vec3 start = side * normal * 1.0f + glm::mat3_cast(rot) * glm::vec3(u(rng), 0, u(rng));
        const glm::vec3 velocity = -side * normal * speed(rng) + glm::vec3(u(rng), u(rng), u(rng));
        world.addBody(sphereDesc(start, velocity, 0.05f));
        for (int i = 0; i < 20; ++i) {
            const glm::vec3 before = world.bodies()[0].position;
            world.step();
            const glm::vec3 after = world.bodies()[0].position;
            ASSERT_FALSE(crossesSheet(before, after, rot, 1.8f))
                << "seed " << kSeed + 3 << " trial " << trial << " step " << i << ": " << str(before)
                << " -> " << str(after);
            ASSERT_LT(world.maxPenetration(), 1e-3f) << "trial " << trial << " step " << i;
        }
        bounced += glm::dot(world.bodies()[0].velocity, velocity) < 0.0f ? 1 : 0;
    }
    EXPECT_GT(bounced, 0);
}

TEST(ObstacleCollision, FastSpinningBoxesNeverTunnelThroughAThinSheet) {
    std::mt19937 rng(kSeed + 4);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), speed(20.0f, 200.0f);
    const glm::quat flat(1, 0, 0, 0);
    for (int trial = 0; trial < 20; ++trial) {
        World world(boxRoom(glm::vec3(10.0f)));
        world.addObstacle(place(gridMesh(2), glm::vec3(0.0f), flat, glm::vec3(2.0f, 1.0f, 2.0f)));
        BodyDesc d =
            boxDesc({u(rng), 1.0f, u(rng)}, {u(rng), -speed(rng), u(rng)}, glm::vec3(0.1f, 0.05f, 0.08f));
        d.orientation = randomRotation(rng);
        d.angularVelocity = glm::vec3(u(rng), u(rng), u(rng)) * 20.0f;
        world.addBody(d);
        for (int i = 0; i < 20; ++i) {
            const glm::vec3 before = world.bodies()[0].position;
            world.step();
            const glm::vec3 after = world.bodies()[0].position;
            ASSERT_FALSE(crossesSheet(before, after, flat, 1.8f))
                << "seed " << kSeed + 4 << " trial " << trial << " step " << i;
            ASSERT_LT(world.maxPenetration(), 0.01f) << "trial " << trial << " step " << i;
        }
    }
}

TEST(ObstacleCollision, ABoxDroppedOnATriangleGridComesToRestFlatWithoutSinking) {
    World world(boxRoom(glm::vec3(10.0f)), WorldSettings{glm::vec3(0, -9.81f, 0)});
    world.addObstacle(place(gridMesh(6), {0, -2, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1.0f)));
    BodyDesc d = boxDesc({0.2f, 0.0f, 0.1f}, glm::vec3(0.0f), glm::vec3(0.4f, 0.2f, 0.3f));
    d.orientation = glm::angleAxis(0.5f, glm::normalize(glm::vec3(1, 2, 0.5f)));
    d.restitution = 0.2f;
    d.friction = 0.5f;
    world.addBody(d);
    for (int i = 0; i < 600; ++i)
        world.step();
    const Body& b = world.bodies()[0];
    EXPECT_LT(glm::length(b.velocity), 0.02f);
    EXPECT_LT(glm::length(b.angularVelocity), 0.05f);
    // Resting on a face: the lowest corner at the grid's height (not sunk into it).
    float lowest = INFINITY;
    for (const glm::vec3& c : cornersOf(obbOf(b)))
        lowest = std::min(lowest, c.y);
    EXPECT_NEAR(lowest, -2.0f, 0.004f);
    EXPECT_LT(world.maxPenetration(), 0.004f);
}

TEST(ObstacleCollision, BallsAndBoxesBouncingAroundAPlacedMeshKeepTheirEnergyAndStayOutOfIt) {
    World world(boxRoom(glm::vec3(8.0f)));
    const glm::quat rot = glm::angleAxis(0.6f, glm::normalize(glm::vec3(1, 1, 0)));
    world.addObstacle(place(cubeMesh(), glm::vec3(0.0f), rot, glm::vec3(2.0f, 1.0f, 3.0f)));
    std::mt19937 rng(kSeed + 5);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int i = 0; i < 30; ++i) {
        // Two layers (z = +-3) of 3 x 5 places 1.2 m apart, clear of the mesh and each other.
        const int slot = i % 15;
        const glm::vec3 pos(-2.4f + 1.2f * static_cast<float>(slot % 5),
                            -1.2f + 1.2f * static_cast<float>(slot / 5),
                            (i < 15 ? 3.0f : -3.0f) + 0.1f * u(rng));
        const glm::vec3 vel = glm::vec3(u(rng), u(rng), u(rng)) * 4.0f;
        if (i % 3 == 0) {
            BodyDesc d = boxDesc(pos, vel, glm::vec3(0.15f, 0.1f, 0.12f));
            d.orientation = randomRotation(rng);
            world.addBody(d);
        } else {
            world.addBody(sphereDesc(pos, vel, 0.15f));
        }
    }
    // Start only where nothing touches (a pair too close would not be a valid set-up).
    ASSERT_EQ(world.maxPenetration(), 0.0f);
    const double e0 = world.kineticEnergy();
    const Obb solid{glm::vec3(0.0f), glm::vec3(1.0f, 0.5f, 1.5f), glm::mat3_cast(rot)};
    bool touched = false;
    for (int i = 0; i < 3000; ++i) {
        world.step();
        for (const ContactInfo& c : world.contacts())
            touched = touched || c.obstacle == 0;
        if (i % 50 == 0) {
            for (const Body& b : world.bodies())
                ASSERT_GT(sqDistPointObb(b.position, solid), 0.0f)
                    << b.name << " inside the mesh at step " << i;
        }
    }
    EXPECT_TRUE(touched);
    EXPECT_NEAR(world.kineticEnergy() / e0, 1.0, 1e-3);
    EXPECT_LT(world.maxPenetration(), 0.01f);
    EXPECT_EQ(world.escapedCount(), 0);
}

TEST(ObstacleCollision, ContactsNameTheObstacleAndTheTriangle) {
    World world(boxRoom(glm::vec3(10.0f)), WorldSettings{glm::vec3(0, -9.81f, 0)});
    world.addObstacle(place(gridMesh(2), {0, -1, 0}, glm::quat(1, 0, 0, 0), glm::vec3(1.0f)));
    BodyDesc d = sphereDesc({0.3f, -0.75f, 0.6f}, glm::vec3(0.0f));
    d.restitution = 0.0f;
    world.addBody(d);
    for (int i = 0; i < 10; ++i)
        world.step();
    ASSERT_EQ(world.contacts().size(), 1u);
    const ContactInfo& c = world.contacts()[0];
    EXPECT_EQ(c.obstacle, 0);
    EXPECT_EQ(c.bodyB, -1);
    EXPECT_EQ(c.wall, -1);
    EXPECT_LT(c.triangle, 8u);
    EXPECT_LT(glm::length(c.normal - glm::vec3(0, 1, 0)), 1e-5f);
    const Triangle t = world.obstacles()[0].worldTriangle(c.triangle);
    EXPECT_LT(glm::length(closestPtPointTriangle(c.point, t) - c.point), 1e-5f);
}

TEST(ObstacleCollision, ACopiedWorldWithObstaclesContinuesBitIdentically) {
    World world(boxRoom(glm::vec3(5.0f)));
    world.addObstacle(
        place(cubeMesh(), glm::vec3(0.0f), glm::angleAxis(0.3f, glm::vec3(0, 0, 1)), glm::vec3(1.5f)));
    world.addBody(sphereDesc({-3, 0.2f, 0}, {5, 0.1f, 0}));
    world.addBody(boxDesc({3, -0.3f, 0.1f}, {-4, 0, 0.2f}, glm::vec3(0.2f)));
    for (int i = 0; i < 30; ++i)
        world.step();
    World copy = world;
    for (int i = 0; i < 300; ++i) {
        world.step();
        copy.step();
    }
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(world.bodies()[i].position, copy.bodies()[i].position);
        EXPECT_EQ(world.bodies()[i].velocity, copy.bodies()[i].velocity);
    }
}

TEST(ObstacleCollision, TheImpactPreviewStopsAtAMeshInFrontOfTheWall) {
    World world(boxRoom(glm::vec3(10.0f)));
    world.addObstacle(place(cubeMesh(), glm::vec3(0.0f), glm::quat(1, 0, 0, 0), glm::vec3(2.0f)));
    world.addBody(sphereDesc({-4, 0.3f, 0.2f}, {2, 0, 0}, 0.25f));
    world.addBody(sphereDesc({-4, 3.0f, 0.2f}, {2, 0, 0}, 0.25f)); // passes above the cube
    const auto preview = world.impactPreview(0);
    ASSERT_TRUE(preview);
    EXPECT_EQ(preview->obstacle, 0);
    EXPECT_EQ(preview->wall, -1);
    EXPECT_LT(preview->triangle, 12u);
    EXPECT_LT(glm::length(preview->point - glm::vec3(-1, 0.3f, 0.2f)), 1e-5f);
    EXPECT_NEAR(preview->centreDistance, 3.0f, 1e-5f);
    EXPECT_NEAR(preview->timeToImpact, (3.0f - 0.25f) / 2.0f, 1e-5f);
    const auto above = world.impactPreview(1);
    ASSERT_TRUE(above);
    EXPECT_EQ(above->obstacle, -1);
    EXPECT_GE(above->wall, 0);
    EXPECT_NEAR(above->point.x, 5.0f, 1e-5f);
}

} // namespace
