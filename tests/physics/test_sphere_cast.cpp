// The sphere cast (src/physics/sphere_cast.hpp): scenarios for each kind of thing it touches (a
// ball, a turned box, a wall, a placed mesh), ties, a start that touches, a start outside the
// room, bad input; and a property test on random worlds against an independent reference: for
// each body, wall and triangle the distance from the moving centre is convex in t, so its first
// touch is a ternary search and a bisection in double precision (support/geom_reference.hpp); and
// the hierarchy's answers against the scan of every body (sphereCastByScan), bit for bit, over
// random worlds, rays and radii, as built, through steps and with ties.
#include "physics/pick.hpp"
#include "physics/sphere_cast.hpp"
#include "support/geom_reference.hpp"
#include "support/random_worlds.hpp"
#include "support/same_bits.hpp"

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using kz::BodyDesc;
using kz::Ray;
using kz::ShapeType;
using kz::World;
using kz::test::refFirstTouch;

BodyDesc sphere(glm::vec3 position, float radius) {
    BodyDesc d;
    d.position = position;
    d.radius = radius;
    return d;
}

BodyDesc box(glm::vec3 position, glm::vec3 half, glm::quat orientation = {1, 0, 0, 0}) {
    BodyDesc d;
    d.shape = ShapeType::Box;
    d.position = position;
    d.halfExtents = half;
    d.orientation = orientation;
    return d;
}

/// A square of two triangles in the mesh's x-y plane, [-1, 1]^2, placed by the obstacle.
std::shared_ptr<const kz::MeshShape> squareMesh() {
    std::string error;
    auto mesh = kz::MeshShape::make("square", {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}},
                                    {0, 1, 2, 0, 2, 3}, error);
    EXPECT_TRUE(mesh) << error;
    return mesh;
}

kz::Obstacle placed(std::shared_ptr<const kz::MeshShape> mesh, glm::vec3 position, glm::quat orientation,
                    glm::vec3 scale) {
    kz::ObstacleDesc desc;
    desc.mesh = std::move(mesh);
    desc.position = position;
    desc.orientation = orientation;
    desc.scale = scale;
    std::string error;
    auto obstacle = kz::makeObstacle(desc, error);
    EXPECT_TRUE(obstacle) << error;
    return *obstacle;
}

TEST(SphereCast, TheNearerBallIsTouchedAtTheSumOfTheRadii) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(sphere({0, 0, -6}, 1.0f));
    world.addBody(sphere({0.0f, 0.6f, -2.0f}, 0.5f));
    const auto hit = kz::sphereCast(world, Ray{{0, 0, 5}, {0, 0, -1}}, 0.5f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, 1);
    // Offset 0.6 sideways, reach 0.5 + 0.5: touching sqrt(1 - 0.36) = 0.8 before the ball's centre.
    EXPECT_NEAR(hit->t, 7.0f - 0.8f, 1e-5f);
    EXPECT_NEAR(glm::distance(hit->center, glm::vec3(0.0f, 0.6f, -2.0f)), 1.0f, 1e-5f);
    EXPECT_NEAR(glm::distance(hit->point, glm::vec3(0.0f, 0.6f, -2.0f)), 0.5f, 1e-5f);
    EXPECT_NEAR(glm::length(hit->normal), 1.0f, 1e-5f);
}

TEST(SphereCast, ATurnedBoxIsTouchedByItsEdgeBeforeTheRayWouldHitIt) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    // A cube turned 45 degrees about y shows an edge toward +z, at z = sqrt(2) * 0.5.
    world.addBody(box({0, 0, 0}, glm::vec3(0.5f), glm::angleAxis(glm::radians(45.0f), glm::vec3(0, 1, 0))));
    const auto hit = kz::sphereCast(world, Ray{{0, 0, 5}, {0, 0, -2}}, 0.25f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, 0);
    EXPECT_NEAR(hit->t, (5.0f - 0.25f - std::sqrt(0.5f)) / 2.0f, 1e-5f);
    EXPECT_NEAR(hit->point.z, std::sqrt(0.5f), 1e-5f);
    EXPECT_NEAR(hit->normal.z, 1.0f, 1e-5f);
}

TEST(SphereCast, AWallIsTouchedWhenTheSphereReachesItFromInside) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    const auto hit = kz::sphereCast(world, Ray{{1, 2, 0}, {0, -1, 0}}, 0.5f);
    ASSERT_TRUE(hit);
    ASSERT_GE(hit->wall, 0);
    EXPECT_EQ(world.room().planes[static_cast<std::size_t>(hit->wall)].normal, glm::vec3(0, 1, 0));
    EXPECT_FLOAT_EQ(hit->t, 6.5f);
    EXPECT_EQ(hit->point, glm::vec3(1, -5, 0));
    EXPECT_EQ(hit->normal, glm::vec3(0, 1, 0));
}

TEST(SphereCast, WallsTheOriginLiesBehindAreSkippedLikeTheHiddenWallsOnScreen) {
    World world(kz::boxRoom(glm::vec3(10.0f)));
    world.addBody(sphere({0, 0, 0}, 1.0f));
    // From outside the room, through the +z wall (hidden from there), to the ball.
    const auto hit = kz::sphereCast(world, Ray{{0, 0, 12}, {0, 0, -1}}, 0.5f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, 0);
    EXPECT_FLOAT_EQ(hit->t, 10.5f);
    // Beside the ball, the far wall's inside is touched.
    const auto wall = kz::sphereCast(world, Ray{{3, 0, 12}, {0, 0, -1}}, 0.5f);
    ASSERT_TRUE(wall);
    EXPECT_GE(wall->wall, 0);
    EXPECT_FLOAT_EQ(wall->t, 16.5f);
}

TEST(SphereCast, APlacedMeshIsTouchedOnItsTrianglesInItsRotatedScaledPose) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    // The square stretched 3x along x, turned to face +x, at x = -2: its face is the plane x = -2.
    world.addObstacle(
        placed(squareMesh(), {-2, 0, 0}, glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0)), {3, 1, 1}));
    const auto hit = kz::sphereCast(world, Ray{{3, 0.5f, 2.5f}, {-1, 0, 0}}, 0.4f);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->obstacle, 0);
    EXPECT_NEAR(hit->t, 5.0f - 0.4f, 1e-5f);
    EXPECT_NEAR(hit->point.x, -2.0f, 1e-5f);
    // Beyond the stretched square's end (z = 3): past it to the wall behind.
    const auto past = kz::sphereCast(world, Ray{{3, 0.5f, 3.5f}, {-1, 0, 0}}, 0.4f);
    ASSERT_TRUE(past);
    EXPECT_EQ(past->obstacle, -1);
    EXPECT_GE(past->wall, 0);
}

TEST(SphereCast, AStartThatTouchesIsAHitAtZeroAndAPointCastAgreesWithPicking) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(sphere({0, 0, 0}, 1.0f));
    world.addBody(box({4, 0, 0}, glm::vec3(0.5f)));
    const auto touching = kz::sphereCast(world, Ray{{0, 1.2f, 0}, {0, 1, 0}}, 0.3f);
    ASSERT_TRUE(touching);
    EXPECT_EQ(touching->body, 0);
    EXPECT_EQ(touching->t, 0.0f);
    const Ray ray{{4.2f, 0.1f, 5}, {0, 0, -0.5f}};
    const auto point = kz::sphereCast(world, ray, 0.0f);
    const auto pick = kz::pickNearest(world, ray);
    ASSERT_TRUE(point && pick);
    EXPECT_EQ(point->body, pick->body);
    EXPECT_NEAR(point->t, pick->hit.t, 1e-5f);
}

TEST(SphereCast, BadInputCastsNothing) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(sphere({0, 0, 0}, 1.0f));
    const float nan = std::nanf("");
    EXPECT_FALSE(kz::sphereCast(world, Ray{{0, 0, 5}, {0, 0, 0}}, 0.5f));
    EXPECT_FALSE(kz::sphereCast(world, Ray{{0, 0, nan}, {0, 0, -1}}, 0.5f));
    EXPECT_FALSE(kz::sphereCast(world, Ray{{0, 0, 5}, {0, 0, -1}}, -0.5f));
    EXPECT_FALSE(kz::sphereCast(world, Ray{{0, 0, 5}, {0, 0, -1}}, nan));
    EXPECT_FALSE(kz::sphereCast(world, Ray{{0, 0, 5}, {0, 0, -1}}, INFINITY));
    EXPECT_FALSE(kz::sphereCast(world, Ray{{0, 0, 5}, {0, 0, -1}}, 0.5f, -1.0f));
    EXPECT_FALSE(kz::sphereCast(world, Ray{{0, 0, 5}, {0, 0, -1}}, 0.5f, 3.0f)); // touches at 3.5
}

// ------------------------------------------------------------------ against the reference

/// What the reference found first: its kind and index, and when.
struct Touch {
    double t = INFINITY;
    int body = -1, wall = -1, obstacle = -1;
    std::uint32_t triangle = 0;
    double margin = INFINITY; ///< The smallest |closest approach - r| of any thing: small means grazing.
};

Touch referenceCast(const World& world, const glm::dvec3& o, const glm::dvec3& d, double r, double tMax) {
    Touch best;
    const auto consider = [&](const auto& distance, int body, int wall, int obstacle, std::uint32_t tri) {
        const auto touch = refFirstTouch(distance, tMax, r);
        best.margin = std::min({best.margin, std::abs(touch.closest - r), std::abs(touch.start - r)});
        if (touch.closest <= r && touch.t < best.t) best = {touch.t, body, wall, obstacle, tri, best.margin};
    };
    const auto bodies = world.bodies();
    for (int i = 0; i < static_cast<int>(bodies.size()); ++i) {
        const kz::Body& b = bodies[static_cast<std::size_t>(i)];
        if (b.shape == ShapeType::Sphere) {
            consider([&](double t) { return glm::distance(o + t * d, glm::dvec3(b.position)) - b.radius; }, i,
                     -1, -1, 0);
        } else {
            consider([&](double t) { return kz::test::refDistObb(o + t * d, kz::obbOf(b)); }, i, -1, -1, 0);
        }
    }
    const auto& planes = world.room().planes;
    for (int w = 0; w < static_cast<int>(planes.size()); ++w) {
        // From inside the room the distance to the wall is the distance to its plane.
        consider(
            [&](double t) {
                return std::max(kz::test::refDistPlane(o + t * d, planes[std::size_t(w)]), 0.0);
            },
            -1, w, -1, 0);
    }
    const kz::Obstacle& mesh = world.obstacles()[0];
    for (std::uint32_t i = 0; i < mesh.mesh->triangleCount(); ++i) {
        const kz::Triangle tri = mesh.worldTriangle(i);
        consider(
            [&](double t) { return glm::distance(o + t * d, kz::test::refClosestTriangle(o + t * d, tri)); },
            -1, -1, 0, i);
    }
    return best;
}

/// A crumpled sheet of 2 n^2 triangles over [-1, 1]^2 (heights from the seed).
std::shared_ptr<const kz::MeshShape> crumpledSheet(std::mt19937& rng, int n) {
    std::uniform_real_distribution<float> height(-0.3f, 0.3f);
    std::vector<glm::vec3> v;
    std::vector<std::uint32_t> idx;
    for (int j = 0; j <= n; ++j) {
        for (int i = 0; i <= n; ++i)
            v.push_back(
                {-1.0f + 2.0f * float(i) / float(n), -1.0f + 2.0f * float(j) / float(n), height(rng)});
    }
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            const auto a = std::uint32_t(j * (n + 1) + i), b = a + 1, c = a + std::uint32_t(n + 1), e = c + 1;
            idx.insert(idx.end(), {a, b, e, a, e, c});
        }
    }
    std::string error;
    return kz::MeshShape::make("sheet", std::move(v), std::move(idx), error);
}

TEST(SphereCastPropertyTest, AgreesWithAConvexDistanceSearchOverEveryThingInDoublePrecision) {
    const std::uint32_t seed = 0x5ca57u;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const auto in = [&](float h) { return glm::vec3(unit(rng), unit(rng), unit(rng)) * h; };
    int compared = 0, bodies = 0, walls = 0, meshes = 0;
    for (int world = 0; world < 40; ++world) {
        World w(kz::boxRoom(glm::vec3(8.0f)));
        for (int i = 0; i < 6; ++i) {
            const glm::vec3 p = in(2.5f);
            if (i % 2 == 0) {
                w.addBody(sphere(p, 0.2f + 0.5f * std::abs(unit(rng))));
            } else {
                const glm::quat q = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
                w.addBody(box(p, glm::abs(in(0.6f)) + glm::vec3(0.1f), q));
            }
        }
        const glm::quat q = glm::normalize(glm::quat(unit(rng), unit(rng), unit(rng), unit(rng)));
        w.addObstacle(placed(crumpledSheet(rng, 4), in(1.5f), q, glm::abs(in(1.2f)) + glm::vec3(0.4f)));
        for (int c = 0; c < 50; ++c) {
            // Half the casts aimed near a body or the mesh, the others anywhere.
            const glm::vec3 origin = in(3.5f);
            const std::size_t target = std::size_t(c / 2) % 7;
            const glm::vec3 aim = target < 6 ? w.bodies()[target].position : w.obstacles()[0].position;
            const Ray ray{origin,
                          c % 2 == 0 ? (aim + in(0.5f) - origin) * (0.3f + std::abs(unit(rng))) : in(2.0f)};
            const float r = 0.05f + 0.45f * std::abs(unit(rng));
            const float tMax = c % 5 == 0 ? 1.0f : INFINITY;
            if (glm::length(ray.dir) < 0.05f) continue;
            const auto got = kz::sphereCast(w, ray, r, tMax);
            // Without tMax the reference looks far enough to cross the room: every cast meets a wall.
            const double tLook = tMax == INFINITY ? 20.0 / double(glm::length(ray.dir)) : double(tMax);
            const Touch want = referenceCast(w, glm::dvec3(ray.origin), glm::dvec3(ray.dir), r, tLook);
            const std::string where = "seed " + std::to_string(seed) + " world " + std::to_string(world) +
                                      " cast " + std::to_string(c);
            if (want.margin < 1e-4) continue; // grazing: float rounding decides
            ++compared;
            if (want.t == INFINITY) {
                EXPECT_FALSE(got) << where << ": got t " << got->t;
                continue;
            }
            ASSERT_TRUE(got) << where << ": want t " << want.t;
            EXPECT_NEAR(got->t, want.t, 1e-4 * (1.0 + glm::length(glm::dvec3(ray.dir)))) << where;
            EXPECT_EQ(got->body, want.body) << where;
            EXPECT_EQ(got->wall, want.wall) << where;
            EXPECT_EQ(got->obstacle, want.obstacle) << where;
            // A later touch is at distance r; a start that touches already is closer.
            if (got->t > 0.0f) {
                EXPECT_NEAR(glm::distance(got->point, got->center), r, 1e-3f) << where;
            }
            bodies += got->body >= 0;
            walls += got->wall >= 0;
            meshes += got->obstacle >= 0;
        }
    }
    EXPECT_GT(compared, 1800);
    EXPECT_GT(bodies, 500);
    EXPECT_GT(walls, 500);
    EXPECT_GT(meshes, 150);
}

// ------------------------------------------------------------------ the hierarchy against the scan

bool sameCast(const kz::SphereCastHit& a, const kz::SphereCastHit& b) {
    using kz::test::sameBits;
    return a.body == b.body && a.wall == b.wall && a.obstacle == b.obstacle && a.triangle == b.triangle &&
           sameBits(a.t, b.t) && sameBits(a.center, b.center) && sameBits(a.point, b.point) &&
           sameBits(a.normal, b.normal);
}

std::string describe(const std::optional<kz::SphereCastHit>& hit) {
    if (!hit) return "nothing";
    std::ostringstream os;
    os.precision(9);
    os << (hit->body >= 0   ? "body "
           : hit->wall >= 0 ? "wall "
                            : "obstacle ")
       << std::max({hit->body, hit->wall, hit->obstacle}) << " t " << hit->t;
    return os.str();
}

/// A cast radius: a point (0), tiny, the probe's range (kProbeMinRadius to kProbeMaxRadius), or
/// larger than most bodies.
float randomRadius(std::mt19937& rng) {
    std::uniform_real_distribution<float> u01(0.0f, 1.0f);
    const float kind = u01(rng);
    return kind < 0.1f    ? 0.0f
           : kind < 0.2f  ? 1e-3f * std::pow(10.0f, u01(rng))
           : kind < 0.85f ? 0.02f + 1.98f * u01(rng)
                          : 2.0f + 18.0f * u01(rng);
}

struct CastTally {
    int casts = 0, bodies = 0, others = 0, misses = 0, ties = 0;
};

/// sphereCast against sphereCastByScan on `casts` random rays and radii: the same answers to the
/// bit. A tie is counted when the body touched first has an exact copy of higher index (the same
/// shape, size and pose), which it beats by its index.
void expectCastsSameAsScan(const World& world, std::mt19937& rng, int casts, const std::string& label,
                           CastTally& tally) {
    for (int k = 0; k < casts; ++k) {
        const float r = randomRadius(rng);
        const auto nearestT = [r](const World& w, const Ray& ray) -> std::optional<float> {
            if (const auto hit = kz::sphereCastByScan(w, ray, r)) return hit->t;
            return std::nullopt;
        };
        const auto [ray, tMax] = kz::test::randomRay(rng, world, nearestT);
        const std::string where = label + ", cast " + std::to_string(k) + ": " +
                                  kz::test::describe(ray, tMax) + ", radius " + std::to_string(r);
        const auto want = kz::sphereCastByScan(world, ray, r, tMax);
        const auto got = kz::sphereCast(world, ray, r, tMax);
        ASSERT_EQ(got.has_value(), want.has_value())
            << where << ": " << describe(got) << ", want " << describe(want);
        ++tally.casts;
        if (!want) {
            ++tally.misses;
            continue;
        }
        ASSERT_TRUE(sameCast(*got, *want)) << where << ": " << describe(got) << ", want " << describe(want);
        if (want->body < 0) {
            ++tally.others;
            continue;
        }
        ++tally.bodies;
        const auto bodies = world.bodies();
        const kz::Body& first = bodies[static_cast<std::size_t>(want->body)];
        for (std::size_t i = static_cast<std::size_t>(want->body) + 1; i < bodies.size(); ++i) {
            const kz::Body& b = bodies[i];
            if (b.shape == first.shape && b.position == first.position &&
                b.halfExtents == first.halfExtents && b.orientation == first.orientation) {
                ++tally.ties;
                break;
            }
        }
    }
}

TEST(SphereCastProperty, TheHierarchysAnswersAreTheScansBitForBitOverRandomWorldsRaysAndRadii) {
    const unsigned seed = 0x63617374u;
    std::mt19937 rng(seed);
    CastTally tally;
    for (int w = 0; w < 200; ++w) {
        const int bodies = w < 4 ? w : static_cast<int>(rng() % 400u);
        const World world = kz::test::randomWorld(rng, bodies, static_cast<int>(rng() % 4u));
        expectCastsSameAsScan(world, rng, 200,
                              "seed " + std::to_string(seed) + ", world " + std::to_string(w), tally);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(tally.bodies, tally.casts / 4);
    EXPECT_GT(tally.others, tally.casts / 40) << "walls and meshes";
    EXPECT_GT(tally.misses, tally.casts / 50) << "tMax 0 or short";
    EXPECT_GT(tally.ties, tally.casts / 20) << "copies of a body touched first: the lower index wins";
}

TEST(SphereCastProperty, TheHierarchysAnswersStayTheScansThroughSteps) {
    const unsigned seed = 0x73746570u;
    std::mt19937 rng(seed);
    CastTally tally;
    for (int w = 0; w < 8; ++w) {
        const std::string label = "seed " + std::to_string(seed) + ", world " + std::to_string(w);
        World world =
            kz::test::movingWorld(rng, 50 + static_cast<int>(rng() % 300u), static_cast<int>(rng() % 3u));
        for (int s = 0; s < 4; ++s) {
            for (int i = 0; i < 15; ++i)
                world.step();
            expectCastsSameAsScan(world, rng, 60, label + " after " + std::to_string(15 * (s + 1)) + " steps",
                                  tally);
            if (HasFatalFailure()) return;
        }
    }
    EXPECT_GT(tally.bodies, tally.casts / 4);
}

TEST(SphereCast, CopiesTouchedAtTheSameTimeGoToTheLowestIndexWhateverTheHierarchysOrder) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    std::mt19937 rng(7u);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    const std::vector<int> copies = {9, 23, 41};
    for (int i = 0; i < 50; ++i) {
        const bool copy = std::find(copies.begin(), copies.end(), i) != copies.end();
        world.addBody(copy ? box({0, 0, 0}, glm::vec3(0.5f))
                           : sphere({unit(rng) * 15.0f, unit(rng) * 15.0f, 10.0f + unit(rng)}, 0.3f));
    }
    for (const Ray& ray :
         {Ray{{0, 0, -15}, {0, 0, 1}}, Ray{{0.3f, -12, 0.2f}, {0, 1, 0}}, Ray{{9, 9, 0}, {-1, -1, 0.01f}}}) {
        const auto got = kz::sphereCast(world, ray, 0.25f);
        ASSERT_TRUE(got);
        EXPECT_EQ(got->body, 9);
        const auto want = kz::sphereCastByScan(world, ray, 0.25f);
        ASSERT_TRUE(want);
        EXPECT_TRUE(sameCast(*got, *want)) << describe(got) << ", want " << describe(want);
    }
}

TEST(SphereCast, ABodyPickingSkipsIsNeverTouchedNorHidesWhatIsBehindIt) {
    World world(kz::boxRoom(glm::vec3(20.0f)));
    world.addBody(sphere({0, 0, 0}, INFINITY));
    world.addBody(sphere({0, 0, 2}, -1.0f));
    world.addBody(sphere({0, 0, std::numeric_limits<float>::quiet_NaN()}, 1.0f));
    world.addBody(box({0, 0, 4}, glm::vec3(INFINITY, 1.0f, 1.0f)));
    world.addBody(sphere({0, 0, -5}, 1.0f));
    const Ray ray{{0, 0, 8}, {0, 0, -1}};
    for (const float r : {0.0f, 0.5f}) {
        const auto got = kz::sphereCast(world, ray, r);
        const auto want = kz::sphereCastByScan(world, ray, r);
        ASSERT_TRUE(got && want);
        EXPECT_EQ(got->body, 4) << "radius " << r;
        EXPECT_FLOAT_EQ(got->t, 12.0f - r) << "radius " << r;
        EXPECT_TRUE(sameCast(*got, *want)) << describe(got) << ", want " << describe(want);
    }
}

} // namespace
