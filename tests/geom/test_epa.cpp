// Tests for geom/epa.hpp: penetration depth, normal and witness points. Boxes against the exact
// separating-axis depth of the existing box-box test (separationObbObb), hulls and boxes against a
// separating-axis reference in double (convex_reference.hpp's support functions over every face
// normal and edge-edge axis), round shapes against closed forms, and every pair of kinds against
// the defining properties: moving A by normal * depth separates the shapes, and no direction
// separates them with less (the support function of A - B along sampled directions).
#include "geom/convex_reference.hpp"
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/geom_reference.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace kz;
using namespace kz::test;

constexpr unsigned kSeed = 3434u;
const glm::mat3 kIdentity(1.0f);

bool allFinite(const EpaResult& r) {
    return std::isfinite(r.depth) && isFinite(r.normal) && isFinite(r.pointA) && isFinite(r.pointB);
}

/// How far A - B reaches along unit u: hA(u) + hB(-u). Its minimum over directions is the
/// penetration depth (the origin's distance to the boundary of A - B).
double refReach(const ConvexShape& a, const ConvexShape& b, const glm::dvec3& u) {
    return glm::dot(refSupport(a, u), u) + glm::dot(refSupport(b, -u), -u);
}

/// Face normals and edge directions of a box or test hull, in world space.
void refFeatures(const TestShape& t, std::vector<glm::dvec3>& normals, std::vector<glm::dvec3>& edges) {
    if (const auto* box = std::get_if<Obb>(&t.shape)) {
        for (int i = 0; i < 3; ++i) {
            normals.emplace_back(box->axes[i]);
            edges.emplace_back(box->axes[i]);
        }
        return;
    }
    const auto& posed = std::get<PosedHull>(t.shape);
    const glm::dmat3 r(posed.orientation);
    const auto world = [&](int i) { return r * glm::dvec3(posed.hull->vertices[std::size_t(i)]); };
    for (const auto& tri : t.hull->triangles) {
        normals.push_back(glm::cross(world(tri[1]) - world(tri[0]), world(tri[2]) - world(tri[0])));
        for (int e = 0; e < 3; ++e)
            edges.push_back(world(tri[std::size_t((e + 1) % 3)]) - world(tri[std::size_t(e)]));
    }
}

/// The exact penetration depth of two polytopes (boxes, test hulls) by separating axes in double:
/// the least reach of A - B over both signs of every face normal and edge-edge cross product.
double refSatDepth(const TestShape& a, const TestShape& b) {
    std::vector<glm::dvec3> normals, edgesA, edgesB;
    refFeatures(a, normals, edgesA);
    refFeatures(b, normals, edgesB);
    std::vector<glm::dvec3> axes = normals;
    for (const auto& ea : edgesA)
        for (const auto& eb : edgesB)
            axes.push_back(glm::cross(ea, eb));
    double depth = INFINITY;
    for (const glm::dvec3& axis : axes) {
        const double length = glm::length(axis);
        if (!(length > 1e-9 * glm::dot(axes[0], axes[0]) + 1e-300)) continue; // parallel edges
        for (const double sign : {1.0, -1.0})
            depth = std::min(depth, refReach(a.shape, b.shape, sign * axis / length));
    }
    return depth;
}

/// The properties every answer has: "" or what is wrong. tol in world units.
std::string checkPenetration(const TestShape& a, const TestShape& b, const EpaResult& r, double tol) {
    std::ostringstream why;
    why.precision(9);
    if (!allFinite(r)) why << "non-finite field; ";
    if (std::abs(glm::length(r.normal) - 1.0f) > 1e-5f) why << "normal not unit; ";
    if (r.depth < 0.0f) why << "negative depth; ";
    const glm::dvec3 n(r.normal);
    // Along its normal A - B reaches exactly the depth (so moving A by normal * depth separates).
    const double reach = refReach(a.shape, b.shape, -n);
    if (std::abs(reach - double(r.depth)) > tol)
        why << "A - B reaches " << reach << " along -normal, depth " << r.depth << "; ";
    // No direction reaches less (sampled): the depth is the least.
    std::mt19937 rng(7u);
    for (int k = 0; k < 300; ++k) {
        const glm::dvec3 u = randomUnit(rng);
        if (refReach(a.shape, b.shape, u) < double(r.depth) - tol) {
            why << "A - B reaches only " << refReach(a.shape, b.shape, u) << " along " << str(u) << "; ";
            break;
        }
    }
    const glm::dvec3 offset = glm::dvec3(r.pointA) - glm::dvec3(r.pointB) + double(r.depth) * n;
    if (glm::length(offset) > tol)
        why << "pointA - pointB != -depth * normal (off by " << glm::length(offset) << "); ";
    if (refDistance(a, glm::dvec3(r.pointA)) > tol) why << "pointA off A; ";
    if (refDistance(b, glm::dvec3(r.pointB)) > tol) why << "pointB off B; ";
    return why.str();
}

// ------------------------------------------------------------------ boxes and hulls: exact SAT

TEST(Epa, BoxBoxDepthMatchesTheSeparatingAxisDepth) {
    std::mt19937 rng(kSeed);
    int compared = 0;
    for (int i = 0; i < 4000; ++i) {
        const bool far = i % 4 == 3;
        const glm::vec3 base = far ? glm::vec3(randomUnit(rng) * 1e3) : glm::vec3(0.0f);
        Obb a = randomObb(rng, 0.8f, 0.1f, 1.5f), b = randomObb(rng, 0.8f, 0.1f, 1.5f);
        if (i % 3 == 0)
            b.axes = a.axes * glm::mat3(rotationAbout(randomUnit(rng), 1e-4)); // near-parallel faces
        a.center += base;
        b.center += base;
        if (!testObbObb(a, b)) continue;
        const EpaResult r = penetrationConvexConvex(a, b);
        ASSERT_TRUE(r.overlap) << str(a) << " " << str(b) << " i " << i;
        const double sat = -double(separationObbObb(a, b)); // the least penetration over the 15 axes
        ASSERT_NEAR(r.depth, sat, 1e-4)
            << str(a) << " " << str(b) << " i " << i << " status " << int(r.status);
        const double tol = 1e-4 + 4e-7 * glm::length(glm::dvec3(base));
        ASSERT_EQ(checkPenetration({a, nullptr}, {b, nullptr}, r, tol), "") << "i " << i;
        EXPECT_NE(r.status, EpaStatus::IterationCap);
        ++compared;
    }
    EXPECT_GT(compared, 1500);
}

TEST(Epa, PolytopePairsMatchTheSeparatingAxisDepth) {
    std::mt19937 rng(kSeed);
    int compared = 0;
    for (int i = 0; i < 3000; ++i) {
        const Kind ka = i % 2 ? Kind::Hull : Kind::Box, kb = i % 3 ? Kind::Hull : Kind::Box;
        const TestShape a = randomShape(rng, ka, uniform(rng, 0.3f, 1.5f), randomPoint(rng, 0.5f), i % 4);
        const TestShape b = randomShape(rng, kb, uniform(rng, 0.3f, 1.5f), randomPoint(rng, 0.8f), i / 4 % 4);
        if (!testConvexConvex(a.shape, b.shape)) continue;
        const EpaResult r = penetrationConvexConvex(a.shape, b.shape);
        ASSERT_TRUE(r.overlap) << "i " << i;
        const double size = std::max(refSize(a.shape), refSize(b.shape));
        const double sat = refSatDepth(a, b);
        ASSERT_NEAR(r.depth, sat, 1e-4 * size) << str(a.shape) << "\n"
                                               << str(b.shape) << " i " << i << " status " << int(r.status);
        ASSERT_EQ(checkPenetration(a, b, r, 1e-4 * size), "") << "i " << i;
        ++compared;
    }
    EXPECT_GT(compared, 1000);
}

// ------------------------------------------------------------------ round shapes: closed forms

TEST(Epa, SpheresAreExact) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 2000; ++i) {
        const Sphere a{randomPoint(rng, 1.0f), uniform(rng, 0.0f, 1.0f)},
            b{randomPoint(rng, 1.0f), uniform(rng, 0.0f, 1.0f)};
        const double gap = glm::length(glm::dvec3(a.center) - glm::dvec3(b.center));
        const EpaResult r = penetrationConvexConvex(a, b);
        const auto contact = contactSphereSphere(a, b);
        ASSERT_EQ(r.overlap, contact.has_value()) << "i " << i;
        if (!r.overlap) continue;
        EXPECT_NEAR(r.depth, double(a.radius) + double(b.radius) - gap, 1e-6) << "i " << i;
        if (gap > 1e-3) expectVecNear(r.normal, contact->normal, 1e-5f);
        EXPECT_EQ(r.status, gap > 1e-6 ? EpaStatus::WithinRadii : EpaStatus::Flat);
    }
}

TEST(Epa, SphereBoxMatchesTheContactQuery) {
    std::mt19937 rng(kSeed);
    int compared = 0;
    for (int i = 0; i < 3000; ++i) {
        const Sphere a{randomPoint(rng, 2.0f), uniform(rng, 0.05f, 1.0f)};
        const Obb b = randomObb(rng, 0.5f, 0.2f, 1.5f);
        const auto contact = contactSphereObb(a, b);
        const EpaResult r = penetrationConvexConvex(a, b);
        ASSERT_EQ(r.overlap, contact.has_value()) << "i " << i;
        if (!contact) continue;
        ASSERT_NEAR(r.depth, contact->depth, 2e-5f) << str(b) << " i " << i;
        expectVecNear(r.normal, contact->normal, 1e-3f);
        ASSERT_EQ(checkPenetration({a, nullptr}, {b, nullptr}, r, 2e-5), "") << "i " << i;
        ++compared;
    }
    EXPECT_GT(compared, 500);
}

TEST(Epa, CrossingCapsulesPushApartByBothRadii) {
    // The segments cross: their difference is a flat parallelogram through the origin, and the
    // least push is along its normal (the segments' cross product) by the sum of the radii.
    const Capsule a{{-1, 0, 0}, {1, 0, 0}, 0.25f}, b{{0, 0, -1}, {0, 0, 1}, 0.5f};
    const EpaResult r = penetrationConvexConvex(a, b);
    ASSERT_TRUE(r.overlap);
    EXPECT_EQ(r.status, EpaStatus::Flat);
    EXPECT_FLOAT_EQ(r.depth, 0.75f);
    EXPECT_FLOAT_EQ(std::abs(r.normal.y), 1.0f);
    // Parallel overlapping capsules: the push is across the axes.
    const Capsule c{{0, 0.1f, 0}, {2, 0.1f, 0}, 0.5f};
    const EpaResult s = penetrationConvexConvex(c, a);
    ASSERT_TRUE(s.overlap);
    EXPECT_NEAR(s.depth, 0.65f, 1e-6f);
    expectVecNear(s.normal, {0, 1, 0}, 1e-6f);
}

// ------------------------------------------------------------------ every pair: properties

TEST(Epa, EveryPairOfShapesHasTheLeastPushOut) {
    for (int ka = 0; ka < 5; ++ka) {
        for (int kb = 0; kb < 5; ++kb) {
            std::mt19937 rng(kSeed + unsigned(10 * ka + kb));
            int overlaps = 0, maxIterations = 0;
            const int count = convexPairCount(400);
            for (int i = 0; i < count; ++i) {
                const bool far = i % 4 == 3;
                const glm::vec3 base = far ? glm::vec3(randomUnit(rng) * 1e3) : glm::vec3(0.0f);
                const TestShape a = randomShape(rng, Kind(ka), uniform(rng, 0.3f, 1.5f),
                                                base + randomPoint(rng, 0.3f), i % 4);
                const TestShape b = randomShape(rng, Kind(kb), uniform(rng, 0.3f, 1.5f),
                                                base + randomPoint(rng, 0.8f), i / 4 % 4);
                const EpaResult r = penetrationConvexConvex(a.shape, b.shape);
                ASSERT_EQ(r.overlap, testConvexConvex(a.shape, b.shape)) << "i " << i;
                if (!r.overlap) continue;
                ++overlaps;
                maxIterations = std::max(maxIterations, r.iterations);
                const double size = std::max(refSize(a.shape), refSize(b.shape));
                // Cylinders' round rims are approached by EPA's polytope: 1e-3 of the size.
                const bool round = Kind(ka) == Kind::Cylinder || Kind(kb) == Kind::Cylinder;
                const double tol = (round ? 1e-3 : 1e-4) * size + 4e-7 * glm::length(glm::dvec3(base));
                ASSERT_EQ(checkPenetration(a, b, r, tol), "")
                    << kKindNames[std::size_t(ka)] << "-" << kKindNames[std::size_t(kb)] << " i " << i
                    << "\n A " << str(a.shape) << "\n B " << str(b.shape) << "\n depth " << r.depth
                    << " status " << int(r.status);
            }
            std::printf("%-8s %-8s %3d overlapping pairs, at most %d EPA iterations\n",
                        kKindNames[std::size_t(ka)], kKindNames[std::size_t(kb)], overlaps, maxIterations);
        }
    }
}

TEST(Epa, OrderOfTheShapesDoesNotChangeTheDepth) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 2000; ++i) {
        const TestShape a = randomShape(rng, Kind(i % 5), 1.0f, randomPoint(rng, 0.3f), i % 4);
        const TestShape b = randomShape(rng, Kind(i / 5 % 5), 1.0f, randomPoint(rng, 0.8f), i / 7 % 4);
        const EpaResult ab = penetrationConvexConvex(a.shape, b.shape),
                        ba = penetrationConvexConvex(b.shape, a.shape);
        ASSERT_EQ(ab.overlap, ba.overlap) << "i " << i;
        if (!ab.overlap) continue;
        const bool round =
            std::holds_alternative<Cylinder>(a.shape) || std::holds_alternative<Cylinder>(b.shape);
        ASSERT_NEAR(ab.depth, ba.depth, round ? 1e-3f : 2e-5f) << str(a.shape) << "\n"
                                                               << str(b.shape) << " i " << i;
    }
}

TEST(Epa, TouchingShapesHaveZeroDepth) {
    std::mt19937 rng(kSeed);
    for (int i = 0; i < 1000; ++i) {
        const TestShape a = randomShape(rng, Kind(i % 5), 1.0f, randomPoint(rng, 0.3f), i % 4);
        TestShape b = randomShape(rng, Kind(i / 5 % 5), 1.0f, randomPoint(rng, 2.0f), i / 25 % 4);
        const glm::dvec3 n = randomUnit(rng);
        b.shape = translated(b.shape, glm::vec3(refSupport(a.shape, -n) - refSupport(b.shape, n)));
        const EpaResult r = penetrationConvexConvex(a.shape, b.shape);
        EXPECT_TRUE(allFinite(r)) << "i " << i;
        if (r.overlap) {
            EXPECT_LE(r.depth, 1e-5f) << str(a.shape) << "\n" << str(b.shape) << " i " << i;
        }
    }
}

TEST(Epa, ApartShapesHaveNoPenetration) {
    const EpaResult r =
        penetrationConvexConvex(Sphere{{0, 0, 0}, 1.0f}, Obb{{3, 0, 0}, {1, 1, 1}, kIdentity});
    EXPECT_FALSE(r.overlap);
    EXPECT_EQ(r.status, EpaStatus::Separated);
    EXPECT_EQ(r.depth, 0.0f);
    EXPECT_EQ(penetrationConvexConvex(Sphere{{0, 0, 0}, -1.0f}, Sphere{{0, 0, 0}, 1.0f}).status,
              EpaStatus::InvalidInput);
}

TEST(Epa, CoincidentShapesPushOutByTheirSmallestExtent) {
    const Obb box{{1, 2, 3}, {0.5f, 2.0f, 1.0f}, kIdentity};
    const EpaResult r = penetrationConvexConvex(box, box);
    ASSERT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 1.0f, 1e-6f);
    EXPECT_NEAR(std::abs(r.normal.x), 1.0f, 1e-6f);
    const ConvexHull hull = boxHull({0.5f, 2.0f, 1.0f})->hull;
    const EpaResult h = penetrationConvexConvex(PosedHull{&hull, {1, 2, 3}, kIdentity}, box);
    EXPECT_NEAR(h.depth, 1.0f, 1e-6f);
    // Coincident centres of round shapes: the depth is the radii, the normal +y as contactSphereSphere's.
    const EpaResult s = penetrationConvexConvex(Sphere{{1, 2, 3}, 2.0f}, Sphere{{1, 2, 3}, 2.0f});
    EXPECT_EQ(s.depth, 4.0f);
    EXPECT_EQ(s.normal, glm::vec3(0, 1, 0));
}

TEST(Epa, IterationCapReturnsTheNearestFaceSoFar) {
    const Obb a{{0.3f, 0.2f, 0.1f}, {1.0f, 0.7f, 0.5f}, glm::mat3(rotationAbout({1, 2, 3}, 0.7))};
    const Obb b{{0, 0, 0}, {0.8f, 0.9f, 0.6f}, glm::mat3(rotationAbout({-2, 1, 0.5}, 1.1))};
    const EpaResult full = penetrationConvexConvex(a, b);
    ASSERT_EQ(full.status, EpaStatus::Converged);
    ASSERT_GT(full.iterations, 2);
    EXPECT_NEAR(full.depth, -separationObbObb(a, b), 1e-5f);
    for (int cap = 1; cap < full.iterations; ++cap) {
        const EpaResult r = penetrationConvexConvex(a, b, cap);
        EXPECT_EQ(r.status, EpaStatus::IterationCap) << "cap " << cap;
        EXPECT_EQ(r.iterations, cap);
        EXPECT_TRUE(allFinite(r));
        EXPECT_TRUE(r.overlap);
        EXPECT_LE(r.depth, full.depth + 1e-6f) << "cap " << cap; // a lower bound
        EXPECT_NEAR(glm::length(r.normal), 1.0f, 1e-6f);
    }
}

// ------------------------------------------------------------------ ported cases

TEST(EpaPorted, JoltSpheresAgainstBoxes) {
    // Jolt's EPATests "TestEPASphereBox": spheres just missing and just penetrating a box's face,
    // edge and vertex, in the identity pose and turned and moved at random.
    struct Case {
        Aabb box;
        Sphere sphere;
        bool overlaps;
    };
    const Case cases[] = {{{{-2, -3, -4}, {2, 3, 4}}, {{4, 0, 0}, 1.99f}, false},
                          {{{-2, -3, -4}, {2, 3, 4}}, {{4, 0, 0}, 2.01f}, true},
                          {{{-2, -3, -4}, {2, 3, 4}}, {{3, 0, 0}, 2.0f}, true},
                          {{{1, 1, -2}, {2, 2, 2}}, {{4, 4, 0}, std::sqrt(8.0f) - 0.01f}, false},
                          {{{1, 1, -2}, {2, 2, 2}}, {{4, 4, 0}, std::sqrt(8.0f) + 0.01f}, true},
                          {{{1, 1, 1}, {2, 2, 2}}, {{4, 4, 4}, std::sqrt(12.0f) - 0.01f}, false},
                          {{{1, 1, 1}, {2, 2, 2}}, {{4, 4, 4}, std::sqrt(12.0f) + 0.01f}, true}};
    std::mt19937 rng(kSeed);
    for (int pose = 0; pose < 11; ++pose) {
        const glm::mat3 turn = pose == 0 ? kIdentity : glm::mat3(randomRotation(rng));
        const glm::vec3 move = pose == 0 ? glm::vec3(0.0f) : randomPoint(rng, 1.0f);
        for (const Case& c : cases) {
            Obb box = toObb(c.box);
            box.center = turn * box.center + move;
            box.axes = turn;
            const Sphere sphere{turn * c.sphere.center + move, c.sphere.radius};
            const EpaResult r = penetrationConvexConvex(box, sphere);
            ASSERT_EQ(r.overlap, c.overlaps) << "pose " << pose;
            if (!r.overlap) continue;
            // Analytical: the box's point nearest the centre; the normal from the sphere to it.
            const glm::vec3 nearest = closestPtPointObb(sphere.center, box);
            const glm::vec3 away = sphere.center - nearest;
            const float depth = sphere.radius - glm::length(away);
            EXPECT_NEAR(r.depth, depth, 1e-5f) << "pose " << pose;
            expectVecNear(r.normal, -glm::normalize(away), 1e-4f);
            expectVecNear(r.pointA, nearest, 1e-4f);
        }
    }
}

TEST(EpaPorted, JoltSpheresOverlappingExactlyAndNearly) {
    // Jolt's "TestEPASphereSphereOverlapping" and "...NearOverlapping" (Jolt's polytope answer is
    // within 0.14 and 0.06; with the centres as cores these are exact).
    const Sphere s{{1, 2, 3}, 2.0f};
    const EpaResult same = penetrationConvexConvex(s, s);
    EXPECT_FLOAT_EQ(same.depth, 4.0f);
    const Sphere s1{{1, 2, 3}, 2.0f}, s2{{1.1f, 2, 3}, 1.8f};
    const EpaResult near = penetrationConvexConvex(s1, s2);
    EXPECT_NEAR(near.depth, 3.8f - 0.1f, 1e-6f);
    expectVecNear(near.normal, {-1, 0, 0}, 1e-6f);
    EXPECT_NEAR(glm::length(near.pointA - s1.center), 2.0f, 1e-6f);
    EXPECT_NEAR(glm::length(near.pointB - s2.center), 1.8f, 1e-6f);
}

TEST(EpaPorted, LibccdRotatedBoxesMatchTheSeparatingAxisDepth) {
    // libccd's testsuite "boxboxPenetration" (configurations "Pen 6" to "Pen 8", which it only
    // prints) and "boxboxPenetration2" (a small box on a large flat one: the contact lies under the
    // small box). libccd's sizes are full extents.
    const auto turn = [](double angle, glm::dvec3 axis) {
        return glm::angleAxis(angle, glm::normalize(axis));
    };
    const double quarter = 3.14159265358979323846 / 4.0;
    struct Case {
        glm::dquat rotation;
        glm::vec3 pos1, pos2;
    };
    const Case cases[] = {
        {turn(quarter, {0, 1, 1}), {-0.5f, 0.1f, 0.4f}, {0.1f, 0, 0}},
        {turn(quarter, {0, 1, 1}) * turn(quarter, {1, 1, 1}), {-0.5f, 0.1f, 0.4f}, {0.1f, 0, 0}},
        {turn(quarter, {0, 0, 1}) * turn(quarter, {1, 0, 0}), {-1.3f, 0, 0}, {0, 0, 0}},
    };
    for (const Case& c : cases) {
        const Obb box1{c.pos1, {0.5f, 0.5f, 0.5f}, glm::mat3(glm::mat3_cast(c.rotation))};
        const Obb box2{c.pos2, {0.5f, 0.5f, 0.5f}, kIdentity};
        const EpaResult r = penetrationConvexConvex(box1, box2);
        ASSERT_TRUE(r.overlap) << str(box1);
        EXPECT_NEAR(r.depth, -separationObbObb(box1, box2), 1e-5f) << str(box1);
        EXPECT_EQ(checkPenetration({box1, nullptr}, {box2, nullptr}, r, 1e-5), "") << str(box1);
    }
    const Obb large{{0, 0, 0}, {10.0f, 0.05f, 10.0f}, kIdentity};
    const Obb small{{0, 0.1f, 0}, {0.1f, 0.075f, 0.1f}, kIdentity};
    const EpaResult r = penetrationConvexConvex(large, small);
    ASSERT_TRUE(r.overlap);
    EXPECT_NEAR(r.depth, 0.025f, 1e-6f);
    expectVecNear(r.normal, {0, -1, 0}, 1e-6f);
    EXPECT_LT(std::abs(r.pointA.x), 0.2f);
    EXPECT_LT(std::abs(r.pointB.x), 0.2f);
}

TEST(EpaPorted, LibccdBoxesPenetratingAlongX) {
    // libccd's "boxboxPenetration"-style sweep: box 1 (1 x 2 x 1) through box 2 (2 x 1 x 2) along
    // x; while they overlap the depth is 1.5 - |x| (the face axis x) unless the y overlap is less.
    const Obb box2{{0, 0, 0}, {1.0f, 0.5f, 1.0f}, kIdentity};
    for (int i = 36; i < 65; ++i) {
        const float x = -5.0f + 0.1f * float(i);
        const Obb box1{{x, 0.1f, 0.0f}, {0.5f, 1.0f, 0.5f}, kIdentity};
        const EpaResult r = penetrationConvexConvex(box1, box2);
        ASSERT_TRUE(r.overlap) << "step " << i;
        const double want = std::min({1.5 - std::abs(double(x)), 1.5 - 0.1, 1.5});
        EXPECT_NEAR(r.depth, want, 1e-5) << "step " << i;
    }
}

} // namespace
