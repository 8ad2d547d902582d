// Tests for geom/contact.hpp. Every manifold is checked for: a unit normal, 1..4 points,
// non-negative depths, depth = the largest point depth, and the push-out property: moving A by
// normal * (depth + 1e-4) separates the shapes (normal points from B toward A).
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"
#include "support/geom_reference.hpp"
#include "support/same_bits.hpp"
#include "support/thin_triangles.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>

namespace {

using kz::Manifold;
using kz::Obb;
using kz::Plane;
using kz::Sphere;
using kz::Triangle;
using namespace kz::test;
using kz::test::str; // overloaded by str(Manifold) below, which would hide it

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr double kPi = std::numbers::pi;
constexpr unsigned kSeed = 777u;
constexpr float kPush = 1e-4f; // extra push-out beyond the depth
const glm::mat3 kIdentity(1.0f);

std::string str(const Manifold& m) {
    std::ostringstream os;
    os.precision(9);
    os << "Manifold{normal " << str(glm::dvec3(m.normal)) << " depth " << m.depth << " count " << m.count;
    for (int i = 0; i < std::clamp(m.count, 0, 4); ++i)
        os << " [" << str(glm::dvec3(m.points[std::size_t(i)].position)) << " d "
           << m.points[std::size_t(i)].depth << "]";
    os << "}";
    return os.str();
}

Obb moved(Obb b, const glm::vec3& offset) {
    b.center += offset;
    return b;
}

// ------------------------------------------------------------------ double references

double refDistObb(const glm::dvec3& p, const Obb& box) {
    const glm::dvec3 local = refLocal(p, box);
    const glm::dvec3 q = glm::clamp(local, -glm::dvec3(box.half), glm::dvec3(box.half));
    return glm::length(glm::dmat3(box.axes) * (local - q));
}

// max_i (|u_i| - half_i) in the box frame: 0 on the surface, < 0 inside, > 0 outside.
double refSurfaceOffset(const glm::dvec3& p, const Obb& box) {
    const glm::dvec3 local = refLocal(p, box);
    double m = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < 3; ++i)
        m = std::max(m, std::abs(local[i]) - double(box.half[i]));
    return m;
}

// ------------------------------------------------------------------ manifold invariants

::testing::AssertionResult wellFormed(const Manifold& m) {
    if (std::abs(glm::length(glm::dvec3(m.normal)) - 1.0) > 1e-5)
        return ::testing::AssertionFailure() << "normal not unit: " << str(m);
    if (m.count < 1 || m.count > 4) return ::testing::AssertionFailure() << "bad count: " << str(m);
    if (!(m.depth >= 0.0f)) return ::testing::AssertionFailure() << "negative depth: " << str(m);
    float deepest = 0.0f;
    for (int i = 0; i < m.count; ++i) {
        const auto& p = m.points[std::size_t(i)];
        if (!kz::isFinite(p.position)) return ::testing::AssertionFailure() << "non-finite point: " << str(m);
        if (!(p.depth >= 0.0f)) return ::testing::AssertionFailure() << "negative point depth: " << str(m);
        deepest = std::max(deepest, p.depth);
    }
    if (std::abs(deepest - m.depth) > 1e-5f * (1.0f + m.depth))
        return ::testing::AssertionFailure() << "depth is not the largest point depth: " << str(m);
    return ::testing::AssertionSuccess();
}

// Does the manifold hold a point at `want` (within tol), with point depth `depth`?
bool hasPoint(const Manifold& m, const glm::vec3& want, float depth, float tol) {
    for (int i = 0; i < m.count; ++i) {
        const auto& p = m.points[std::size_t(i)];
        if (glm::distance(p.position, want) <= tol && std::abs(p.depth - depth) <= tol) return true;
    }
    return false;
}

// Contact queries wrapped with the checks every manifold must pass, for the hand-made cases
// (the random tests check the same and more themselves).
std::optional<Manifold> checkedSpherePlane(const Sphere& a, const Plane& b) {
    auto m = kz::contactSpherePlane(a, b);
    if (m) {
        EXPECT_TRUE(wellFormed(*m));
        const Sphere pushed{a.center + m->normal * (m->depth + kPush), a.radius};
        EXPECT_FALSE(kz::testSpherePlane(pushed, b)) << "push-out does not separate: " << str(*m);
    }
    return m;
}

std::optional<Manifold> checkedSphereSphere(const Sphere& a, const Sphere& b) {
    auto m = kz::contactSphereSphere(a, b);
    if (m) {
        EXPECT_TRUE(wellFormed(*m));
        const Sphere pushed{a.center + m->normal * (m->depth + kPush), a.radius};
        EXPECT_FALSE(kz::testSphereSphere(pushed, b)) << "push-out does not separate: " << str(*m);
    }
    return m;
}

std::optional<Manifold> checkedSphereObb(const Sphere& a, const Obb& b) {
    auto m = kz::contactSphereObb(a, b);
    if (m) {
        EXPECT_TRUE(wellFormed(*m));
        const Sphere pushed{a.center + m->normal * (m->depth + kPush), a.radius};
        EXPECT_FALSE(kz::testSphereObb(pushed, b)) << "push-out does not separate: " << str(*m);
        EXPECT_GE(refDistObb(glm::dvec3(pushed.center), b), double(a.radius)) << str(*m);
    }
    return m;
}

std::optional<Manifold> checkedObbPlane(const Obb& a, const Plane& b) {
    auto m = kz::contactObbPlane(a, b);
    if (m) {
        EXPECT_TRUE(wellFormed(*m));
        EXPECT_FALSE(kz::testObbPlane(moved(a, m->normal * (m->depth + kPush)), b))
            << "push-out does not separate: " << str(*m);
        for (int i = 0; i < m->count; ++i)
            EXPECT_NEAR(refDistPlane(glm::dvec3(m->points[std::size_t(i)].position), b), 0.0, 1e-5)
                << "point off the plane: " << str(*m);
    }
    return m;
}

std::optional<Manifold> checkedSphereTriangle(const Sphere& a, const Triangle& b) {
    auto m = kz::contactSphereTriangle(a, b);
    if (m) {
        EXPECT_TRUE(wellFormed(*m));
        const glm::dvec3 pushed = glm::dvec3(a.center + m->normal * (m->depth + kPush));
        EXPECT_GE(glm::distance(pushed, refClosestTriangle(pushed, b)), double(a.radius))
            << "push-out does not separate: " << str(*m);
    }
    return m;
}

// ================================================================== sphere vs plane

TEST(ContactSpherePlane, CentreInFrontAndBehind) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    auto m = checkedSpherePlane({{1.0f, 0.5f, 2.0f}, 1.0f}, ground);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.5f, 1e-6f);
    ASSERT_EQ(m->count, 1);
    expectVecNear(m->points[0].position, {1.0f, 0.0f, 2.0f}, 1e-6f);
    EXPECT_NEAR(m->points[0].depth, 0.5f, 1e-6f);
    // Centre behind the plane: still pushed out along the normal.
    m = checkedSpherePlane({{0.0f, -0.5f, 0.0f}, 1.0f}, ground);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 1.5f, 1e-6f);
    expectVecNear(m->points[0].position, {0.0f, 0.0f, 0.0f}, 1e-6f);
    // Entirely inside the solid half-space.
    m = checkedSpherePlane({{3.0f, -5.0f, 0.0f}, 1.0f}, ground);
    ASSERT_TRUE(m.has_value());
    EXPECT_NEAR(m->depth, 6.0f, 1e-5f);
    expectVecNear(m->points[0].position, {3.0f, 0.0f, 0.0f}, 1e-5f);
}

TEST(ContactSpherePlane, TouchingSeparatedAndScaledNormal) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    auto m = checkedSpherePlane({{0.0f, 1.0f, 0.0f}, 1.0f}, ground);
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    EXPECT_NEAR(m->depth, 0.0f, 1e-7f);
    EXPECT_FALSE(checkedSpherePlane({{0.0f, 1.01f, 0.0f}, 1.0f}, ground).has_value());
    // y = 1 written as 3y - 3 = 0.
    m = checkedSpherePlane({{0.0f, 1.5f, 0.0f}, 1.0f}, Plane{{0.0f, 3.0f, 0.0f}, -3.0f});
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.5f, 1e-6f);
    expectVecNear(m->points[0].position, {0.0f, 1.0f, 0.0f}, 1e-6f);
}

TEST(ContactSpherePlane, InvalidIsEmpty) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    EXPECT_FALSE(checkedSpherePlane({{0.0f, 0.0f, 0.0f}, -1.0f}, ground).has_value());
    EXPECT_FALSE(checkedSpherePlane({{kNaN, 0.0f, 0.0f}, 1.0f}, ground).has_value());
    EXPECT_FALSE(checkedSpherePlane({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{0.0f, 0.0f, 0.0f}, 0.0f}).has_value());
    EXPECT_FALSE(checkedSpherePlane({{0.0f, 0.0f, 0.0f}, 1.0f}, Plane{{0.0f, 1.0f, 0.0f}, kNaN}).has_value());
}

TEST(ContactSpherePlane, RandomPushOut) {
    const unsigned seed = kSeed;
    std::mt19937 rng(seed);
    int failures = 0, contacts = 0;
    for (int i = 0; i < 20000; ++i) {
        const float scale = uniform(rng, 0.2f, 5.0f);
        const Plane plane{glm::vec3(randomUnit(rng)) * scale, uniform(rng, -3.0f, 3.0f) * scale};
        const Sphere s{randomPoint(rng, 4.0f), uniform(rng, 0.0f, 3.0f)};
        const double dist = refDistPlane(glm::dvec3(s.center), plane);
        const auto m = kz::contactSpherePlane(s, plane);
        if (std::abs(dist - double(s.radius)) < 1e-4) continue;
        const bool want = dist <= double(s.radius);
        std::string why;
        if (m.has_value() != want)
            why = "contact presence";
        else if (m.has_value()) {
            ++contacts;
            const glm::dvec3 n(m->normal), wantN = glm::normalize(glm::dvec3(plane.normal));
            const glm::dvec3 pushed = glm::dvec3(s.center) + (double(m->depth) + double(kPush)) * n;
            if (auto w = wellFormed(*m); !w)
                why = w.message();
            else if (glm::distance(n, wantN) > 1e-5)
                why = "normal is not the plane normal";
            else if (std::abs(double(m->depth) - (double(s.radius) - dist)) > 1e-4)
                why = "depth";
            else if (std::abs(refDistPlane(glm::dvec3(m->points[0].position), plane)) > 1e-4)
                why = "point off plane";
            else if (refDistPlane(pushed, plane) <= double(s.radius))
                why = "push-out does not separate";
            else if (kz::testSpherePlane({glm::vec3(pushed), s.radius}, plane))
                why = "testSpherePlane after push";
        }
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; sphere "
                          << str(glm::dvec3(s.center)) << " r " << s.radius << ", plane n "
                          << str(glm::dvec3(plane.normal)) << " d " << plane.d;
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GT(contacts, 1000);
}

// ================================================================== sphere vs sphere

TEST(ContactSphereSphere, Basic) {
    auto m = checkedSphereSphere({{0.0f, 1.5f, 0.0f}, 1.0f}, {{0.0f, 0.0f, 0.0f}, 1.0f});
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.5f, 1e-6f);
    ASSERT_EQ(m->count, 1);
    expectVecNear(m->points[0].position, {0.0f, 1.0f, 0.0f}, 1e-6f); // on B's surface
    // A below B: the normal points down (from B toward A).
    m = checkedSphereSphere({{0.0f, 0.0f, 0.0f}, 2.0f}, {{3.0f, 0.0f, 4.0f}, 4.0f});
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {-0.6f, 0.0f, -0.8f}, 1e-6f);
    EXPECT_NEAR(m->depth, 1.0f, 1e-5f);
    expectVecNear(m->points[0].position, {3.0f - 2.4f, 0.0f, 4.0f - 3.2f}, 1e-5f);
}

TEST(ContactSphereSphere, CoincidentTouchingSeparated) {
    auto m = checkedSphereSphere({{1.0f, 2.0f, 3.0f}, 1.0f}, {{1.0f, 2.0f, 3.0f}, 0.5f});
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 0.0f); // documented fallback +y
    EXPECT_NEAR(m->depth, 1.5f, 1e-6f);
    m = checkedSphereSphere({{0.0f, 0.0f, 0.0f}, 1.0f}, {{3.0f, 0.0f, 0.0f}, 2.0f});
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
    expectVecNear(m->normal, {-1.0f, 0.0f, 0.0f}, 1e-6f);
    EXPECT_FALSE(checkedSphereSphere({{0.0f, 0.0f, 0.0f}, 1.0f}, {{3.01f, 0.0f, 0.0f}, 2.0f}).has_value());
    EXPECT_FALSE(checkedSphereSphere({{0.0f, 0.0f, 0.0f}, -1.0f}, {{0.0f, 0.0f, 0.0f}, 2.0f}).has_value());
    EXPECT_FALSE(checkedSphereSphere({{0.0f, 0.0f, 0.0f}, 1.0f}, {{0.0f, kNaN, 0.0f}, 2.0f}).has_value());
}

TEST(ContactSphereSphere, RandomPushOut) {
    const unsigned seed = kSeed + 1;
    std::mt19937 rng(seed);
    int failures = 0, contacts = 0;
    for (int i = 0; i < 20000; ++i) {
        const Sphere a{randomPoint(rng, 3.0f), uniform(rng, 0.05f, 3.0f)};
        const Sphere b{randomPoint(rng, 3.0f), uniform(rng, 0.05f, 3.0f)};
        const glm::dvec3 ca(a.center), cb(b.center);
        const double dist = glm::distance(ca, cb), sumR = double(a.radius) + double(b.radius);
        if (std::abs(dist - sumR) < 1e-4 || dist < 1e-3) continue;
        const auto m = kz::contactSphereSphere(a, b);
        std::string why;
        if (m.has_value() != (dist <= sumR))
            why = "contact presence";
        else if (m.has_value()) {
            ++contacts;
            const glm::dvec3 n(m->normal);
            const glm::dvec3 pushed = ca + (double(m->depth) + double(kPush)) * n;
            const glm::dvec3 shy = ca + (double(m->depth) - 1e-3) * n;
            if (auto w = wellFormed(*m); !w)
                why = w.message();
            else if (glm::distance(n, (ca - cb) / dist) > 1e-5)
                why = "normal";
            else if (std::abs(double(m->depth) - (sumR - dist)) > 1e-4)
                why = "depth";
            else if (std::abs(glm::distance(glm::dvec3(m->points[0].position), cb) - double(b.radius)) > 1e-4)
                why = "point not on B's surface";
            else if (glm::distance(pushed, cb) <= sumR)
                why = "push-out does not separate";
            else if (kz::testSphereSphere({glm::vec3(pushed), a.radius}, b))
                why = "testSphereSphere after push";
            else if (m->depth > 1e-3f && glm::distance(shy, cb) > sumR)
                why = "depth too large";
        }
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; A " << str(ca) << " r "
                          << a.radius << ", B " << str(cb) << " r " << b.radius;
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GT(contacts, 1000);
}

// ================================================================== sphere vs OBB

TEST(ContactSphereObb, CentreOutside) {
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    auto m = checkedSphereObb({{0.0f, 1.5f, 0.0f}, 1.0f}, box);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.5f, 1e-6f);
    ASSERT_EQ(m->count, 1);
    expectVecNear(m->points[0].position, {0.0f, 1.0f, 0.0f}, 1e-6f);
    // Corner region.
    m = checkedSphereObb({{1.5f, 1.5f, 1.5f}, 1.0f}, box);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    const float s = 1.0f / std::sqrt(3.0f);
    expectVecNear(m->normal, {s, s, s}, 1e-6f);
    EXPECT_NEAR(m->depth, 1.0f - std::sqrt(0.75f), 1e-6f);
    expectVecNear(m->points[0].position, {1.0f, 1.0f, 1.0f}, 1e-6f);
    // Rotated box: 45 degrees about z, the +x extreme is an edge at x = sqrt 2.
    const Obb rotated{
        {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0))};
    m = checkedSphereObb({{2.0f, 0.0f, 0.5f}, 1.0f}, rotated);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {1.0f, 0.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(m->depth, 1.0f - (2.0f - std::sqrt(2.0f)), 1e-5f);
    expectVecNear(m->points[0].position, {std::sqrt(2.0f), 0.0f, 0.5f}, 1e-5f);
}

TEST(ContactSphereObb, CentreInside) {
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    auto m = checkedSphereObb({{0.0f, 0.8f, 0.0f}, 0.5f}, box);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.7f, 1e-6f); // r + distance to the nearest face
    expectVecNear(m->points[0].position, {0.0f, 1.0f, 0.0f}, 1e-6f);
    m = checkedSphereObb({{-0.9f, 0.1f, 0.2f}, 0.25f}, box);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {-1.0f, 0.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.35f, 1e-6f);
    expectVecNear(m->points[0].position, {-1.0f, 0.1f, 0.2f}, 1e-6f);
    // Non-cubic box: the nearest face is the thin one.
    const Obb slab{{0.0f, 0.0f, 0.0f}, {3.0f, 0.5f, 3.0f}, kIdentity};
    m = checkedSphereObb({{0.0f, -0.25f, 0.0f}, 1.0f}, slab);
    ASSERT_TRUE(m.has_value());
    expectVecNear(m->normal, {0.0f, -1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 1.25f, 1e-6f);
}

TEST(ContactSphereObb, TouchingSeparatedInvalid) {
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    const auto m = checkedSphereObb({{0.0f, 0.0f, 2.0f}, 1.0f}, box);
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
    expectVecNear(m->normal, {0.0f, 0.0f, 1.0f}, 1e-6f);
    EXPECT_FALSE(checkedSphereObb({{0.0f, 0.0f, 2.01f}, 1.0f}, box).has_value());
    EXPECT_FALSE(checkedSphereObb({{0.0f, 0.0f, 0.0f}, -1.0f}, box).has_value());
    EXPECT_FALSE(
        checkedSphereObb({{0.0f, 0.0f, 0.0f}, 1.0f}, Obb{{0.0f, 0.0f, 0.0f}, {1.0f, -1.0f, 1.0f}, kIdentity})
            .has_value());
    EXPECT_FALSE(checkedSphereObb({{0.0f, 0.0f, 0.0f}, 1.0f},
                                  Obb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(0.0f)})
                     .has_value());
}

TEST(ContactSphereObb, RandomPushOut) {
    const unsigned seed = kSeed + 2;
    std::mt19937 rng(seed);
    int failures = 0, contacts = 0, inside = 0;
    for (int i = 0; i < 20000; ++i) {
        const Obb box = randomObb(rng, 1.0f, 0.2f, 2.0f);
        const Sphere s{randomPoint(rng, 3.5f), uniform(rng, 0.05f, 2.0f)};
        const glm::dvec3 c(s.center);
        const double dist = refDistObb(c, box), surface = refSurfaceOffset(c, box);
        if (std::abs(dist - double(s.radius)) < 1e-4 || std::abs(surface) < 1e-3) continue;
        const auto m = kz::contactSphereObb(s, box);
        std::string why;
        if (m.has_value() != (dist <= double(s.radius)))
            why = "contact presence";
        else if (m.has_value()) {
            ++contacts;
            inside += surface < 0.0;
            const glm::dvec3 n(m->normal);
            const glm::dvec3 pushed = c + (double(m->depth) + double(kPush)) * n;
            const glm::dvec3 shy = c + (double(m->depth) - 1e-3) * n;
            const glm::dvec3 point(m->points[0].position);
            if (auto w = wellFormed(*m); !w)
                why = w.message();
            else if (m->count != 1)
                why = "count";
            else if (std::abs(refSurfaceOffset(point, box)) > 1e-4)
                why = "point not on B's surface";
            else if (surface > 0.0 && glm::distance(n, (c - point) / glm::distance(c, point)) > 1e-3)
                why = "normal is not from the closest point to the centre";
            else if (surface > 0.0 && std::abs(double(m->depth) - (double(s.radius) - dist)) > 1e-4)
                why = "depth (centre outside)";
            else if (refDistObb(pushed, box) < double(s.radius))
                why = "push-out does not separate";
            else if (kz::testSphereObb({glm::vec3(pushed), s.radius}, box))
                why = "testSphereObb after push";
            else if (m->depth > 1e-3f && refDistObb(shy, box) > double(s.radius))
                why = "depth too large";
        }
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; sphere " << str(c) << " r "
                          << s.radius << ", " << str(box) << (m ? "; got " + str(*m) : std::string());
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GT(contacts, 1000);
    EXPECT_GT(inside, 100);
}

// ================================================================== OBB vs plane

TEST(ContactObbPlane, RestingFaceGivesFourPoints) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    const auto m = checkedObbPlane({{0.0f, 0.9f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, ground);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-6f);
    ASSERT_EQ(m->count, 4);
    for (const float x : {-1.0f, 1.0f})
        for (const float z : {-1.0f, 1.0f})
            EXPECT_TRUE(hasPoint(*m, {x, 0.0f, z}, 0.1f, 1e-5f)) << x << ", " << z << ": " << str(*m);
}

TEST(ContactObbPlane, EdgeGivesTwoPoints) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    const Obb box{{0.0f, float(std::sqrt(2.0) - 0.1), 0.0f},
                  {1.0f, 1.0f, 1.0f},
                  glm::mat3(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0))};
    const auto m = checkedObbPlane(box, ground);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    ASSERT_EQ(m->count, 2);
    EXPECT_TRUE(hasPoint(*m, {0.0f, 0.0f, 1.0f}, 0.1f, 1e-5f)) << str(*m);
    EXPECT_TRUE(hasPoint(*m, {0.0f, 0.0f, -1.0f}, 0.1f, 1e-5f)) << str(*m);
}

TEST(ContactObbPlane, CornerGivesOnePoint) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    // Turn the (1, 1, 1) diagonal up: corner (-1, -1, -1) points straight down, sqrt 3 below.
    const glm::dmat3 rot = rotationBetween(glm::normalize(glm::dvec3(1.0)), {0.0, 1.0, 0.0});
    const Obb box{{2.0f, float(std::sqrt(3.0) - 0.1), -1.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(rot)};
    const auto m = checkedObbPlane(box, ground);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    ASSERT_EQ(m->count, 1);
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    expectVecNear(m->points[0].position, {2.0f, 0.0f, -1.0f}, 1e-5f);
}

TEST(ContactObbPlane, DeepTouchingSeparatedScaledInvalid) {
    const Plane ground{{0.0f, 1.0f, 0.0f}, 0.0f};
    // All 8 corners behind: the 4 deepest.
    auto m = checkedObbPlane({{0.0f, -5.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, ground);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    ASSERT_EQ(m->count, 4);
    EXPECT_NEAR(m->depth, 6.0f, 1e-5f);
    for (const float x : {-1.0f, 1.0f})
        for (const float z : {-1.0f, 1.0f})
            EXPECT_TRUE(hasPoint(*m, {x, 0.0f, z}, 6.0f, 1e-5f)) << str(*m);
    // Resting exactly: four points of depth 0.
    m = checkedObbPlane({{0.0f, 1.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, ground);
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    EXPECT_EQ(m->count, 4);
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
    EXPECT_FALSE(checkedObbPlane({{0.0f, 1.01f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, ground).has_value());
    // y = 2 written as -2y + 4 = 0: the front is below, the solid above; the box pokes up into it.
    m = checkedObbPlane({{0.0f, 1.25f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity},
                        Plane{{0.0f, -2.0f, 0.0f}, 4.0f});
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, -1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.25f, 1e-5f);
    EXPECT_EQ(m->count, 4);
    EXPECT_TRUE(hasPoint(*m, {1.0f, 2.0f, -1.0f}, 0.25f, 1e-5f)) << str(*m);
    // Invalid.
    EXPECT_FALSE(checkedObbPlane({{0.0f, 0.0f, 0.0f}, {1.0f, -1.0f, 1.0f}, kIdentity}, ground).has_value());
    EXPECT_FALSE(
        checkedObbPlane({{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, Plane{{0.0f, 0.0f, 0.0f}, 0.0f})
            .has_value());
}

TEST(ContactObbPlane, RandomAgainstCorners) {
    const unsigned seed = kSeed + 3;
    std::mt19937 rng(seed);
    int failures = 0, contacts = 0, compared = 0;
    for (int i = 0; i < 20000; ++i) {
        const Obb box = randomObb(rng, 2.0f, 0.0f, 2.0f);
        const float scale = uniform(rng, 0.2f, 5.0f);
        const Plane plane{glm::vec3(randomUnit(rng)) * scale, uniform(rng, -3.0f, 3.0f) * scale};
        const auto corners = refCorners(box, 0.0);
        std::array<double, 8> dist{};
        for (std::size_t k = 0; k < 8; ++k)
            dist[k] = refDistPlane(corners[k], plane);
        if (std::any_of(dist.begin(), dist.end(), [](double d) { return std::abs(d) < 1e-4; })) continue;
        ++compared;
        const int behind = int(std::count_if(dist.begin(), dist.end(), [](double d) { return d < 0.0; }));
        const double deepest = -*std::min_element(dist.begin(), dist.end());
        const auto m = kz::contactObbPlane(box, plane);
        std::string why;
        if (m.has_value() != (behind > 0))
            why = "contact presence";
        else if (m.has_value()) {
            ++contacts;
            const glm::dvec3 n(m->normal);
            if (auto w = wellFormed(*m); !w)
                why = w.message();
            else if (glm::distance(n, glm::normalize(glm::dvec3(plane.normal))) > 1e-5)
                why = "normal";
            else if (m->count != std::min(behind, 4))
                why = "count";
            else if (std::abs(double(m->depth) - deepest) > 1e-4)
                why = "depth";
            else if (kz::testObbPlane(moved(box, m->normal * (m->depth + kPush)), plane))
                why = "push-out does not separate";
            for (int k = 0; why.empty() && k < m->count; ++k) {
                const auto& p = m->points[std::size_t(k)];
                if (std::abs(refDistPlane(glm::dvec3(p.position), plane)) > 1e-4) why = "point off the plane";
                // The point is a corner projected onto the plane: corner = point - n * depth.
                const glm::dvec3 corner = glm::dvec3(p.position) - n * double(p.depth);
                bool found = false;
                for (const auto& c : corners)
                    found = found || glm::distance(c, corner) < 1e-4;
                if (!found) why = "point is not a projected corner";
            }
        }
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; " << str(box)
                          << ", plane n " << str(glm::dvec3(plane.normal)) << " d " << plane.d
                          << (m ? "; got " + str(*m) : std::string());
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, 18000);
    EXPECT_GT(contacts, 1000);
}

// ================================================================== OBB vs OBB

// Unit cubes with crossed edges: A turned 45 degrees about z (edge along z at x = sqrt 2), B turned
// 45 degrees about y (edge along y at x = c - sqrt 2). gap < 0 interpenetrates by -gap along x.
std::pair<Obb, Obb> crossedEdges(double gap) {
    const Obb a{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0))};
    const Obb b{{float(2.0 * std::sqrt(2.0) + gap), 0.0f, 0.0f},
                {1.0f, 1.0f, 1.0f},
                glm::mat3(rotationAbout({0.0, 1.0, 0.0}, kPi / 4.0))};
    return {a, b};
}

// Checks the manifold invariants, the push-out and that every point is on B's surface.
::testing::AssertionResult goodObbManifold(const Manifold& m, const Obb& a, const Obb& b) {
    if (auto w = wellFormed(m); !w) return w;
    const Obb pushed = moved(a, m.normal * (m.depth + kPush));
    if (refObbOverlap(pushed, b, 0.0))
        return ::testing::AssertionFailure() << "push-out does not separate (reference): " << str(m);
    if (kz::testObbObb(pushed, b))
        return ::testing::AssertionFailure() << "push-out does not separate (testObbObb): " << str(m);
    for (int i = 0; i < m.count; ++i) {
        const glm::dvec3 p(m.points[std::size_t(i)].position);
        const double off = refSurfaceOffset(p, b);
        if (std::abs(off) > 1e-3)
            return ::testing::AssertionFailure()
                   << "point " << i << " is " << off << " off B's surface: " << str(m);
    }
    return ::testing::AssertionSuccess();
}

TEST(ContactObbObb, FaceFaceStacked) {
    const Obb b{{0.0f, 0.0f, 0.0f}, {2.0f, 1.0f, 2.0f}, kIdentity};
    const Obb a{{0.5f, 1.9f, 0.3f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    auto m = kz::contactObbObb(a, b);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(goodObbManifold(*m, a, b));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    ASSERT_EQ(m->count, 4);
    for (const float x : {-0.5f, 1.5f})
        for (const float z : {-0.7f, 1.3f})
            EXPECT_TRUE(hasPoint(*m, {x, 1.0f, z}, 0.1f, 1e-4f)) << x << ", " << z << ": " << str(*m);
    // Roles swapped: the small box is B, on top; the normal points down, points on B's bottom.
    m = kz::contactObbObb(b, a);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(goodObbManifold(*m, b, a));
    expectVecNear(m->normal, {0.0f, -1.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    ASSERT_EQ(m->count, 4);
    for (const float x : {-0.5f, 1.5f})
        for (const float z : {-0.7f, 1.3f})
            EXPECT_TRUE(hasPoint(*m, {x, 0.9f, z}, 0.1f, 1e-4f)) << x << ", " << z << ": " << str(*m);
}

TEST(ContactObbObb, FaceFaceEqualAndLargerTop) {
    const Obb b{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    // Equal boxes exactly aligned (coincident side planes).
    const Obb same{{0.0f, 1.9f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    auto m = kz::contactObbObb(same, b);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(goodObbManifold(*m, same, b));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    ASSERT_EQ(m->count, 4);
    for (const float x : {-1.0f, 1.0f})
        for (const float z : {-1.0f, 1.0f})
            EXPECT_TRUE(hasPoint(*m, {x, 1.0f, z}, 0.1f, 1e-4f)) << str(*m);
    // A bigger box on top: the contact region is B's whole top face.
    const Obb big{{0.0f, 1.9f, 0.0f}, {3.0f, 1.0f, 3.0f}, kIdentity};
    m = kz::contactObbObb(big, b);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(goodObbManifold(*m, big, b));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    ASSERT_EQ(m->count, 4);
    for (const float x : {-1.0f, 1.0f})
        for (const float z : {-1.0f, 1.0f})
            EXPECT_TRUE(hasPoint(*m, {x, 1.0f, z}, 0.1f, 1e-4f)) << str(*m);
    // Rotated about the contact normal by 45 degrees (an eight-sided overlap, reduced to 4 points).
    const Obb turned{
        {0.0f, 1.9f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(rotationAbout({0.0, 1.0, 0.0}, kPi / 4.0))};
    m = kz::contactObbObb(turned, b);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(goodObbManifold(*m, turned, b));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    EXPECT_EQ(m->count, 4);
}

TEST(ContactObbObb, RotatedBoxOnAnEdge) {
    // A turned 45 degrees about z rests its lowest edge (along z) 0.1 into B's top face.
    const Obb b{{0.0f, 0.0f, 0.0f}, {2.0f, 1.0f, 2.0f}, kIdentity};
    const Obb a{{0.0f, float(1.0 + std::sqrt(2.0) - 0.1), 0.0f},
                {1.0f, 1.0f, 1.0f},
                glm::mat3(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0))};
    const auto m = kz::contactObbObb(a, b);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(goodObbManifold(*m, a, b));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    ASSERT_EQ(m->count, 2) << str(*m);
    EXPECT_TRUE(hasPoint(*m, {0.0f, 1.0f, 1.0f}, 0.1f, 1e-4f)) << str(*m);
    EXPECT_TRUE(hasPoint(*m, {0.0f, 1.0f, -1.0f}, 0.1f, 1e-4f)) << str(*m);
}

TEST(ContactObbObb, EdgeEdgeCrossedBoxes) {
    const auto [a, b] = crossedEdges(-0.1);
    const auto m = kz::contactObbObb(a, b);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(goodObbManifold(*m, a, b));
    expectVecNear(m->normal, {-1.0f, 0.0f, 0.0f}, 1e-5f); // B is at +x: push A toward -x
    EXPECT_NEAR(m->depth, 0.1f, 1e-5f);
    ASSERT_EQ(m->count, 1) << str(*m);
    // On B's edge, where it is closest to A's edge.
    expectVecNear(m->points[0].position, {float(std::sqrt(2.0) - 0.1), 0.0f, 0.0f}, 1e-3f);
    EXPECT_NEAR(m->points[0].depth, 0.1f, 1e-5f);
    // Swapped roles: the normal flips.
    const auto r = kz::contactObbObb(b, a);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(goodObbManifold(*r, b, a));
    expectVecNear(r->normal, {1.0f, 0.0f, 0.0f}, 1e-5f);
    EXPECT_NEAR(r->depth, 0.1f, 1e-5f);
    EXPECT_EQ(r->count, 1);
}

TEST(ContactObbObb, SeparatedTouchingInvalid) {
    const auto [a, b] = crossedEdges(0.1); // separated only by an edge-edge axis
    EXPECT_FALSE(kz::contactObbObb(a, b).has_value());
    EXPECT_FALSE(kz::contactObbObb(b, a).has_value());
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    EXPECT_FALSE(kz::contactObbObb(Obb{{0.0f, 2.01f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, box).has_value());
    const Obb touching{{0.5f, 2.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    const auto m = kz::contactObbObb(touching, box);
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    EXPECT_TRUE(goodObbManifold(*m, touching, box));
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
    EXPECT_FALSE(kz::contactObbObb(Obb{{0.0f, 0.0f, 0.0f}, {1.0f, -1.0f, 1.0f}, kIdentity}, box).has_value());
    EXPECT_FALSE(kz::contactObbObb(box, Obb{{kNaN, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}).has_value());
    EXPECT_FALSE(
        kz::contactObbObb(box, Obb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(0.0f)}).has_value());
}

TEST(ContactObbObb, RandomAgainstReference) {
    const unsigned seed = kSeed + 4;
    std::mt19937 rng(seed);
    int failures = 0, contacts = 0, compared = 0;
    constexpr int kPairs = 20000;
    for (int i = 0; i < kPairs; ++i) {
        const Obb a = randomObb(rng, 2.0f, 0.2f, 1.5f), b = randomObb(rng, 2.0f, 0.2f, 1.5f);
        const bool grown = refObbOverlap(a, b, 1e-4), shrunk = refObbOverlap(a, b, -1e-4);
        if (grown != shrunk) continue;
        ++compared;
        const auto m = kz::contactObbObb(a, b);
        std::string why;
        if (m.has_value() != grown)
            why = "contact presence";
        else if (m.has_value()) {
            ++contacts;
            if (auto g = goodObbManifold(*m, a, b); !g)
                why = g.message();
            else if (glm::dot(glm::dvec3(m->normal), glm::dvec3(a.center) - glm::dvec3(b.center)) < -1e-4)
                why = "normal points from A toward B";
        }
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; A " << str(a) << " B "
                          << str(b);
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kPairs * 9 / 10);
    EXPECT_GT(contacts, kPairs / 5);
}

TEST(ContactObbObb, RandomRestingBoxes) {
    // Boxes resting on a big ground box with random yaw, small tilts and penetrations: the
    // common physics case; face contacts should give several points.
    const unsigned seed = kSeed + 5;
    std::mt19937 rng(seed);
    int failures = 0;
    const Obb ground{{0.0f, -1.0f, 0.0f}, {20.0f, 1.0f, 20.0f}, kIdentity};
    for (int i = 0; i < 5000; ++i) {
        const bool flat = i % 2 == 0; // pure yaw: the whole bottom face is in contact
        const double tilt = flat ? 0.0 : double(uniform(rng, 0.0f, 0.02f));
        const glm::dmat3 rot = rotationAbout(randomUnit(rng), tilt) *
                               rotationAbout({0.0, 1.0, 0.0}, double(uniform(rng, 0.0f, 6.28f)));
        Obb a{{uniform(rng, -5.0f, 5.0f), 0.0f, uniform(rng, -5.0f, 5.0f)},
              {uniform(rng, 0.2f, 2.0f), uniform(rng, 0.2f, 2.0f), uniform(rng, 0.2f, 2.0f)},
              glm::mat3(rot)};
        // Lowest point of A at -penetration.
        double lowest = std::numeric_limits<double>::infinity();
        for (const auto& c : refCorners(a, 0.0))
            lowest = std::min(lowest, c.y);
        const double penetration = double(uniform(rng, 0.001f, 0.1f));
        a.center.y = float(double(a.center.y) - lowest - penetration);
        const auto m = kz::contactObbObb(a, ground);
        std::string why;
        if (!m.has_value())
            why = "no contact";
        else if (auto g = goodObbManifold(*m, a, ground); !g)
            why = g.message();
        else if (glm::dot(m->normal, glm::vec3(0.0f, 1.0f, 0.0f)) < 0.999f)
            why = "normal not up";
        else if (std::abs(double(m->depth) - penetration) > 1e-4)
            why = "depth";
        else if (flat && m->count != 4)
            why = "a resting face should give 4 points";
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; A " << str(a)
                          << " penetration " << penetration << (m ? "; got " + str(*m) : std::string());
    }
    EXPECT_EQ(failures, 0);
}

// ================================================================== sphere vs triangle

TEST(ContactSphereTriangle, FaceRegionBothSides) {
    const Triangle t{{0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}};
    auto m = checkedSphereTriangle({{0.5f, 0.5f, 0.5f}, 1.0f}, t);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 0.0f, 1.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.5f, 1e-6f);
    ASSERT_EQ(m->count, 1);
    expectVecNear(m->points[0].position, {0.5f, 0.5f, 0.0f}, 1e-6f);
    // Two-sided: from below the normal points down.
    m = checkedSphereTriangle({{0.5f, 0.5f, -0.25f}, 1.0f}, t);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 0.0f, -1.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.75f, 1e-6f);
}

TEST(ContactSphereTriangle, EdgeAndVertexRegions) {
    const Triangle t{{0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}};
    // Edge bc: closest point (1, 1, 0), normal along (1, 1, 0).
    auto m = checkedSphereTriangle({{1.5f, 1.5f, 0.0f}, 1.0f}, t);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    const float h = std::sqrt(0.5f);
    expectVecNear(m->normal, {h, h, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 1.0f - h, 1e-6f);
    expectVecNear(m->points[0].position, {1.0f, 1.0f, 0.0f}, 1e-6f);
    // Edge ab, from above and outside: normal tilted, not the face normal.
    m = checkedSphereTriangle({{1.0f, -0.3f, 0.4f}, 1.0f}, t);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, -0.6f, 0.8f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.5f, 1e-6f);
    expectVecNear(m->points[0].position, {1.0f, 0.0f, 0.0f}, 1e-6f);
    // Vertex a.
    m = checkedSphereTriangle({{-0.5f, -0.5f, 0.5f}, 1.0f}, t);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    const float s = 1.0f / std::sqrt(3.0f);
    expectVecNear(m->normal, {-s, -s, s}, 1e-6f);
    EXPECT_NEAR(m->depth, 1.0f - std::sqrt(0.75f), 1e-6f);
    expectVecNear(m->points[0].position, {0.0f, 0.0f, 0.0f}, 1e-6f);
}

TEST(ContactSphereTriangle, CentreOnTriangle) {
    const Triangle t{{0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}};
    auto m = checkedSphereTriangle({{0.5f, 0.5f, 0.0f}, 0.5f}, t);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 0.0f, 1.0f}, 1e-6f); // (b - a) x (c - a)
    EXPECT_NEAR(m->depth, 0.5f, 1e-6f);
    expectVecNear(m->points[0].position, {0.5f, 0.5f, 0.0f}, 1e-6f);
    // Opposite winding: opposite normal.
    m = checkedSphereTriangle({{0.5f, 0.5f, 0.0f}, 0.5f}, Triangle{t.a, t.c, t.b});
    ASSERT_TRUE(m.has_value());
    expectVecNear(m->normal, {0.0f, 0.0f, -1.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.5f, 1e-6f);
    // On an edge of the triangle.
    m = checkedSphereTriangle({{1.0f, 0.0f, 0.0f}, 0.25f}, t);
    ASSERT_TRUE(m.has_value());
    EXPECT_TRUE(wellFormed(*m));
    expectVecNear(m->normal, {0.0f, 0.0f, 1.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.25f, 1e-6f);
}

TEST(ContactSphereTriangle, TouchingSeparatedDegenerate) {
    const Triangle t{{0.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}, {0.0f, 2.0f, 0.0f}};
    const auto m = checkedSphereTriangle({{0.5f, 0.5f, 1.0f}, 1.0f}, t);
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
    EXPECT_FALSE(checkedSphereTriangle({{0.5f, 0.5f, 1.01f}, 1.0f}, t).has_value());
    EXPECT_FALSE(checkedSphereTriangle({{3.0f, 3.0f, 0.0f}, 1.0f}, t).has_value());
    // Zero-area triangles give no contact, even when the sphere covers them.
    const Triangle line{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}};
    EXPECT_FALSE(checkedSphereTriangle({{1.0f, 0.0f, 0.0f}, 1.0f}, line).has_value());
    const Triangle point{{1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
    EXPECT_FALSE(checkedSphereTriangle({{1.0f, 1.0f, 1.0f}, 1.0f}, point).has_value());
    EXPECT_FALSE(checkedSphereTriangle({{0.5f, 0.5f, 0.0f}, -1.0f}, t).has_value());
    EXPECT_FALSE(checkedSphereTriangle({{0.5f, kNaN, 0.0f}, 1.0f}, t).has_value());
}

TEST(ContactSphereTriangle, RandomPushOut) {
    const unsigned seed = kSeed + 6;
    std::mt19937 rng(seed);
    int failures = 0, contacts = 0;
    for (int i = 0; i < 20000; ++i) {
        const Triangle t{randomPoint(rng, 2.0f), randomPoint(rng, 2.0f), randomPoint(rng, 2.0f)};
        if (glm::length(glm::cross(glm::dvec3(t.b - t.a), glm::dvec3(t.c - t.a))) < 0.05) continue;
        const Sphere s{randomPoint(rng, 3.0f), uniform(rng, 0.05f, 2.0f)};
        const glm::dvec3 c(s.center);
        const glm::dvec3 closest = refClosestTriangle(c, t);
        const double dist = glm::distance(c, closest);
        if (std::abs(dist - double(s.radius)) < 1e-4 || dist < 1e-3) continue;
        const auto m = kz::contactSphereTriangle(s, t);
        std::string why;
        if (m.has_value() != (dist <= double(s.radius)))
            why = "contact presence";
        else if (m.has_value()) {
            ++contacts;
            const glm::dvec3 n(m->normal);
            const glm::dvec3 pushed = c + (double(m->depth) + double(kPush)) * n;
            const glm::dvec3 shy = c + (double(m->depth) - 1e-3) * n;
            if (auto w = wellFormed(*m); !w)
                why = w.message();
            else if (m->count != 1)
                why = "count";
            else if (glm::distance(glm::dvec3(m->points[0].position), closest) > 1e-4)
                why = "point";
            else if (glm::distance(n, (c - closest) / dist) > 1e-4)
                why = "normal";
            else if (std::abs(double(m->depth) - (double(s.radius) - dist)) > 1e-4)
                why = "depth";
            else if (glm::distance(pushed, refClosestTriangle(pushed, t)) < double(s.radius))
                why = "push-out does not separate";
            else if (m->depth > 1e-3f && glm::distance(shy, refClosestTriangle(shy, t)) > double(s.radius))
                why = "depth too large";
        }
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; sphere " << str(c) << " r "
                          << s.radius << ", triangle " << str(glm::dvec3(t.a)) << " " << str(glm::dvec3(t.b))
                          << " " << str(glm::dvec3(t.c)) << (m ? "; got " + str(*m) : std::string());
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GT(contacts, 1000);
}

// The same contact for every vertex order of a long thin triangle, and close to the double
// reference: the point within two float resolutions of the triangle's size, the normal within
// that over the distance, the depth within that plus a rounding of the radius.
TEST(ContactSphereTriangle, LongThinTrianglesGiveTheSameContactForAllSixVertexOrders) {
    using kz::thintest::ThinKind;
    for (const ThinKind kind : {ThinKind::Sliver, ThinKind::Needle}) {
        const unsigned seed = kSeed + (kind == ThinKind::Sliver ? 20 : 21);
        std::mt19937 rng(seed);
        int failures = 0;
        double worstPoint = 0.0, worstNormal = 0.0, worstDepth = 0.0; // in float resolutions
        for (int i = 0; i < 5000; ++i) {
            const kz::thintest::ThinCase c = kz::thintest::randomThinCase(rng, kind);
            const glm::dvec3 centre(c.p), closest = refClosestTriangle(centre, c.tri);
            const double dist = glm::distance(centre, closest);
            if (dist < 0.05) continue; // the normal is only as good as the closest point over dist
            const Sphere s{c.p, float(1.5 * dist) + 0.01f};
            const double resolution = kz::thintest::floatResolution(c);
            const auto first = kz::contactSphereTriangle(s, c.tri);
            for (const Triangle& order : kz::thintest::allVertexOrders(c.tri)) {
                const auto m = kz::contactSphereTriangle(s, order);
                std::string why;
                if (!m || m->count != 1) {
                    why = "no single-point contact";
                } else {
                    const double point =
                        glm::distance(glm::dvec3(m->points[0].position), closest) / resolution;
                    const double normal =
                        glm::distance(glm::dvec3(m->normal), (centre - closest) / dist) * dist / resolution;
                    const double depth = std::abs(double(m->depth) - (double(s.radius) - dist)) / resolution;
                    worstPoint = std::max(worstPoint, point);
                    worstNormal = std::max(worstNormal, normal);
                    worstDepth = std::max(worstDepth, depth);
                    if (point > 2.0)
                        why = "point";
                    else if (normal > 2.0 + double(FLT_EPSILON) * dist / resolution)
                        why = "normal";
                    else if (depth > 2.0 + double(FLT_EPSILON * s.radius) / resolution)
                        why = "depth";
                    else if (m->points[0].position != first->points[0].position ||
                             m->normal != first->normal || m->depth != first->depth)
                        why = "differs from the first vertex order";
                }
                if (!why.empty() && ++failures <= 5)
                    ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; sphere "
                                  << str(centre) << " r " << s.radius << ", triangle "
                                  << str(glm::dvec3(order.a)) << " " << str(glm::dvec3(order.b)) << " "
                                  << str(glm::dvec3(order.c)) << (m ? "; got " + str(*m) : std::string())
                                  << "; want point " << str(closest);
            }
        }
        std::cout << "seed " << seed << ": worst point " << worstPoint << ", normal " << worstNormal
                  << ", depth " << worstDepth << " float resolutions, " << failures << " failures\n";
        EXPECT_EQ(failures, 0);
    }
}

// ================================================================== OBB vs triangle

// Distance between segments [p0, p1] and [q0, q1] (Ericson 5.1.9, in double).
double refSegmentDistance(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& q0,
                          const glm::dvec3& q1) {
    const glm::dvec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
    const double a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r), c = glm::dot(d1, r);
    const double b = glm::dot(d1, d2), denom = a * e - b * b;
    double s = denom > 1e-300 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
    double t = (b * s + f) / e;
    if (t < 0.0 || t > 1.0) {
        t = std::clamp(t, 0.0, 1.0);
        s = std::clamp((b * t - c) / a, 0.0, 1.0);
    }
    return glm::distance(p0 + s * d1, q0 + t * d2);
}

// Segment [p0, p1] meets the triangle (boundary included).
bool refSegmentHitsTriangle(const glm::dvec3& p0, const glm::dvec3& p1, const Triangle& t) {
    const glm::dvec3 a(t.a), b(t.b), c(t.c);
    const glm::dvec3 n = glm::cross(b - a, c - a);
    const double d0 = glm::dot(n, p0 - a), d1 = glm::dot(n, p1 - a);
    if ((d0 > 0.0 && d1 > 0.0) || (d0 < 0.0 && d1 < 0.0)) return false;
    const auto inside = [&](const glm::dvec3& q) {
        return glm::dot(glm::cross(b - a, q - a), n) >= 0.0 && glm::dot(glm::cross(c - b, q - b), n) >= 0.0 &&
               glm::dot(glm::cross(a - c, q - c), n) >= 0.0;
    };
    if (d0 == d1) { // in the plane: an end inside, or touching an edge
        return inside(p0) || inside(p1) || refSegmentDistance(p0, p1, a, b) == 0.0 ||
               refSegmentDistance(p0, p1, b, c) == 0.0 || refSegmentDistance(p0, p1, c, a) == 0.0;
    }
    return inside(p0 + (d0 / (d0 - d1)) * (p1 - p0));
}

// Box (grown by `grow` on every half extent) and triangle overlap iff a triangle edge meets
// the solid box or a box edge meets the triangle (a triangle inside the box has its edges in it;
// a box piercing the triangle crosses it with some edge).
bool refObbTriangleOverlap(const Obb& box, const Triangle& t, double grow) {
    const glm::dvec3 v[3] = {glm::dvec3(t.a), glm::dvec3(t.b), glm::dvec3(t.c)};
    for (int i = 0; i < 3; ++i)
        if (refSegmentHitsBox(v[i], v[(i + 1) % 3], box, grow)) return true;
    const auto c = refCorners(box, grow);
    for (int i = 0; i < 8; ++i)
        for (const int bit : {1, 2, 4})
            if ((i & bit) == 0 && refSegmentHitsTriangle(c[std::size_t(i)], c[std::size_t(i | bit)], t))
                return true;
    return false;
}

// The exact distance of box and triangle (0 when they overlap): the closest pair of two convex
// polytopes includes a vertex of one (against the whole other shape) or a point on an edge of
// each, so the minimum over triangle corners to the box, box corners to the triangle and the
// 12 x 3 edge pairs is the distance, up to double rounding.
double refObbTriangleDistance(const Obb& box, const Triangle& t) {
    if (refObbTriangleOverlap(box, t, 0.0)) return 0.0;
    const glm::dvec3 v[3] = {glm::dvec3(t.a), glm::dvec3(t.b), glm::dvec3(t.c)};
    double best = std::numeric_limits<double>::infinity();
    for (const glm::dvec3& p : v)
        best = std::min(best, refDistObb(p, box));
    const auto c = refCorners(box, 0.0);
    for (const glm::dvec3& p : c)
        best = std::min(best, glm::distance(p, refClosestTriangle(p, t)));
    for (int i = 0; i < 8; ++i)
        for (const int bit : {1, 2, 4})
            if ((i & bit) == 0)
                for (int j = 0; j < 3; ++j)
                    best = std::min(best, refSegmentDistance(c[std::size_t(i)], c[std::size_t(i | bit)], v[j],
                                                             v[(j + 1) % 3]));
    return best;
}

// Distance from p to the box's surface (inside or out).
double refDistObbSurface(const glm::dvec3& p, const Obb& box) {
    const double offset = refSurfaceOffset(p, box);
    return offset > 0.0 ? refDistObb(p, box) : -offset;
}

std::string str(const Triangle& t) {
    return "Triangle{" + str(glm::dvec3(t.a)) + " " + str(glm::dvec3(t.b)) + " " + str(glm::dvec3(t.c)) + "}";
}

// Checks the manifold invariants, the push-out (by the reference and by separationObbTriangle),
// and that every point is on the triangle and within its depth of the box's surface.
::testing::AssertionResult goodObbTriangleManifold(const Manifold& m, const Obb& a, const Triangle& b) {
    if (auto w = wellFormed(m); !w) return w;
    const Obb pushed = moved(a, m.normal * (m.depth + kPush));
    if (refObbTriangleOverlap(pushed, b, 0.0))
        return ::testing::AssertionFailure() << "push-out does not separate (reference): " << str(m);
    if (!(kz::separationObbTriangle(pushed, b) > 0.0f))
        return ::testing::AssertionFailure() << "push-out does not separate (separationObbTriangle "
                                             << kz::separationObbTriangle(pushed, b) << "): " << str(m);
    for (int i = 0; i < m.count; ++i) {
        const auto& point = m.points[std::size_t(i)];
        const glm::dvec3 p(point.position);
        const double offTriangle = glm::distance(p, refClosestTriangle(p, b));
        if (offTriangle > 1e-4)
            return ::testing::AssertionFailure()
                   << "point " << i << " is " << offTriangle << " off the triangle: " << str(m);
        const double offBox = refDistObbSurface(p, a);
        if (offBox > double(point.depth) + 1e-4)
            return ::testing::AssertionFailure()
                   << "point " << i << " is " << offBox
                   << " from the box's surface, deeper than its depth: " << str(m);
    }
    return ::testing::AssertionSuccess();
}

std::optional<Manifold> checkedObbTriangle(const Obb& a, const Triangle& b) {
    auto m = kz::contactObbTriangle(a, b);
    const float separation = kz::separationObbTriangle(a, b);
    EXPECT_EQ(m.has_value(), separation <= 0.0f) << "separation " << separation;
    if (m) {
        EXPECT_TRUE(goodObbTriangleManifold(*m, a, b)) << str(a) << " " << str(b);
        EXPECT_NEAR(m->depth, -separation, 1e-5f);
    }
    return m;
}

// A big triangle in the plane y = 0 (normal +y by its winding).
const Triangle kGround{{-10.0f, 0.0f, 10.0f}, {10.0f, 0.0f, 10.0f}, {0.0f, 0.0f, -10.0f}};

TEST(ContactObbTriangle, BoxRestingOnABigTriangleGivesItsFourBottomCorners) {
    const Obb box{{0.5f, 0.9f, 0.3f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    const auto m = checkedObbTriangle(box, kGround);
    ASSERT_TRUE(m.has_value());
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.1f, 1e-6f);
    ASSERT_EQ(m->count, 4) << str(*m);
    for (const float x : {-0.5f, 1.5f})
        for (const float z : {-0.7f, 1.3f})
            EXPECT_TRUE(hasPoint(*m, {x, 0.0f, z}, 0.1f, 1e-5f)) << x << ", " << z << ": " << str(*m);
    // Turned about the normal and tilted triangle: still the face normal and four points.
    const glm::mat3 tilt(rotationAbout({1.0, 0.0, 2.0}, 0.3));
    const Triangle tilted{tilt * kGround.a, tilt * kGround.b, tilt * kGround.c};
    const glm::vec3 up = tilt * glm::vec3(0.0f, 1.0f, 0.0f);
    const Obb turned{up * 0.4f, {0.5f, 0.5f, 0.5f}, tilt * glm::mat3(rotationAbout({0.0, 1.0, 0.0}, 0.7))};
    const auto r = checkedObbTriangle(turned, tilted);
    ASSERT_TRUE(r.has_value());
    expectVecNear(r->normal, up, 1e-5f);
    EXPECT_NEAR(r->depth, 0.1f, 1e-5f);
    EXPECT_EQ(r->count, 4) << str(*r);
}

TEST(ContactObbTriangle, SmallTriangleUnderABoxFaceGivesItsCorners) {
    const Triangle small{{-0.5f, 0.0f, -0.5f}, {0.5f, 0.0f, -0.25f}, {0.0f, 0.0f, 0.75f}};
    const Obb box{{0.1f, 0.9f, 0.0f}, {2.0f, 1.0f, 2.0f}, kIdentity};
    const auto m = checkedObbTriangle(box, small);
    ASSERT_TRUE(m.has_value());
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f); // toward the box, whatever the winding
    EXPECT_NEAR(m->depth, 0.1f, 1e-6f);
    ASSERT_EQ(m->count, 3) << str(*m);
    for (const glm::vec3& corner : {small.a, small.b, small.c})
        EXPECT_TRUE(hasPoint(*m, corner, 0.1f, 1e-5f)) << str(*m);
}

TEST(ContactObbTriangle, BoxCornerPressingIntoTheTriangleFaceGivesOnePoint) {
    // The box's (-1, -1, -1) corner turned to point straight down, 0.05 below the plane.
    const glm::mat3 corner(rotationBetween(glm::normalize(glm::dvec3(1.0)), {0.0, 1.0, 0.0}));
    const Obb box{{0.2f, float(std::sqrt(3.0) - 0.05), -0.1f}, {1.0f, 1.0f, 1.0f}, corner};
    const auto m = checkedObbTriangle(box, kGround);
    ASSERT_TRUE(m.has_value());
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.05f, 1e-5f);
    ASSERT_EQ(m->count, 1) << str(*m);
    expectVecNear(m->points[0].position, {0.2f, 0.0f, -0.1f}, 1e-5f);
}

TEST(ContactObbTriangle, TriangleCornerPokingIntoABoxFaceUsesTheBoxFaceNormal) {
    // The corner (0.2, 0.9, 0.3) is 0.1 inside the top face; the rest of the triangle is above.
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    const Triangle t{{0.2f, 0.9f, 0.3f}, {-2.0f, 3.0f, -1.0f}, {2.0f, 3.5f, -1.5f}};
    const auto m = checkedObbTriangle(box, t);
    ASSERT_TRUE(m.has_value());
    expectVecNear(m->normal, {0.0f, -1.0f, 0.0f}, 1e-6f); // from the triangle (above) toward the box
    EXPECT_NEAR(m->depth, 0.1f, 1e-6f);
    ASSERT_EQ(m->count, 1) << str(*m);
    expectVecNear(m->points[0].position, t.a, 1e-6f);
    // A turned box: the same in its frame.
    const glm::mat3 rot(rotationAbout({1.0, 2.0, 3.0}, 1.1));
    const glm::vec3 centre(3.0f, -1.0f, 2.0f);
    const Obb turned{centre, box.half, rot};
    const Triangle moved{centre + rot * t.a, centre + rot * t.b, centre + rot * t.c};
    const auto r = checkedObbTriangle(turned, moved);
    ASSERT_TRUE(r.has_value());
    expectVecNear(r->normal, -rot[1], 1e-5f);
    EXPECT_NEAR(r->depth, 0.1f, 1e-5f);
    ASSERT_EQ(r->count, 1) << str(*r);
    expectVecNear(r->points[0].position, moved.a, 1e-5f);
}

TEST(ContactObbTriangle, EdgeEdgeCrossingGivesOnePointOnTheTriangleEdge) {
    // The box turned 45 degrees about z has an edge along z at x = sqrt 2; the triangle's edge
    // along y at x = sqrt 2 - 0.1 crosses it, the triangle rising away toward +x.
    const double edgeX = std::sqrt(2.0) - 0.1;
    const Obb box{
        {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0))};
    const Triangle t{
        {float(edgeX), -1.0f, 0.0f}, {float(edgeX), 1.0f, 0.0f}, {float(edgeX + 2.0), 0.0f, 1.0f}};
    const auto m = checkedObbTriangle(box, t);
    ASSERT_TRUE(m.has_value());
    expectVecNear(m->normal, {-1.0f, 0.0f, 0.0f}, 1e-6f); // the triangle is at +x
    EXPECT_NEAR(m->depth, 0.1f, 1e-6f);
    ASSERT_EQ(m->count, 1) << str(*m);
    expectVecNear(m->points[0].position, {float(edgeX), 0.0f, 0.0f}, 1e-6f);
}

TEST(ContactObbTriangle, TheOtherSideOfTheTriangleFlipsTheNormal) {
    const glm::mat3 tilt(rotationAbout({3.0, 1.0, -1.0}, 0.6));
    const Triangle t{tilt * kGround.a, tilt * kGround.b, tilt * kGround.c};
    const glm::vec3 up = tilt * glm::vec3(0.0f, 1.0f, 0.0f);
    const glm::mat3 axes = tilt * glm::mat3(rotationAbout({0.0, 1.0, 0.0}, 0.4));
    const auto above = checkedObbTriangle({up * 0.75f, {1.0f, 0.8f, 0.6f}, axes}, t);
    const auto below = checkedObbTriangle({-up * 0.75f, {1.0f, 0.8f, 0.6f}, axes}, t);
    ASSERT_TRUE(above.has_value());
    ASSERT_TRUE(below.has_value());
    expectVecNear(above->normal, up, 1e-5f);
    expectVecNear(below->normal, -up, 1e-5f);
    EXPECT_NEAR(above->depth, 0.05f, 1e-5f);
    EXPECT_NEAR(below->depth, 0.05f, 1e-5f);
    EXPECT_EQ(above->count, 4);
    EXPECT_EQ(below->count, 4);
    // Centre exactly on the plane: pushed along (b - a) x (c - a), so the winding decides.
    const Obb flat{{0.0f, 0.0f, 0.0f}, {1.0f, 0.25f, 1.0f}, kIdentity};
    const auto onPlane = checkedObbTriangle(flat, kGround);
    ASSERT_TRUE(onPlane.has_value());
    expectVecNear(onPlane->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(onPlane->depth, 0.25f, 1e-6f);
    const auto reversed = checkedObbTriangle(flat, Triangle{kGround.a, kGround.c, kGround.b});
    ASSERT_TRUE(reversed.has_value());
    expectVecNear(reversed->normal, {0.0f, -1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(reversed->depth, 0.25f, 1e-6f);
}

TEST(ContactObbTriangle, SeparatedIsNoContactAndTouchingIsDepthZero) {
    const Obb box{{0.5f, 1.001f, 0.3f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    EXPECT_FALSE(checkedObbTriangle(box, kGround).has_value());
    EXPECT_NEAR(kz::separationObbTriangle(box, kGround), 1e-3f, 1e-6f);
    // Exactly touching, face on.
    const Obb touching{{0.5f, 1.0f, 0.3f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    auto m = checkedObbTriangle(touching, kGround);
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    expectVecNear(m->normal, {0.0f, 1.0f, 0.0f}, 1e-6f);
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
    EXPECT_EQ(m->count, 4);
    EXPECT_EQ(kz::separationObbTriangle(touching, kGround), 0.0f);
    // Edge on edge: the crossing edges 1e-3 apart, then touching.
    const double edgeX = std::sqrt(2.0);
    const Obb turned{
        {0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(rotationAbout({0.0, 0.0, 1.0}, kPi / 4.0))};
    const auto crossing = [](double x) {
        return Triangle{{float(x), -1.0f, 0.0f}, {float(x), 1.0f, 0.0f}, {float(x + 2.0), 0.0f, 1.0f}};
    };
    EXPECT_FALSE(checkedObbTriangle(turned, crossing(edgeX + 1e-3)).has_value());
    EXPECT_NEAR(kz::separationObbTriangle(turned, crossing(edgeX + 1e-3)), 1e-3f, 1e-6f);
    m = checkedObbTriangle(turned, crossing(edgeX));
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
    // A triangle corner touching a box face.
    const Triangle corner{{0.2f, 1.0f, 0.3f}, {-2.0f, 3.0f, -1.0f}, {2.0f, 3.5f, -1.5f}};
    m = checkedObbTriangle(Obb{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity}, corner);
    ASSERT_TRUE(m.has_value()) << "touching is a contact";
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
    expectVecNear(m->points[0].position, corner.a, 1e-6f);
}

TEST(ContactObbTriangle, InvalidInputIsNoContactAndNeverCollides) {
    const Obb box{{0.0f, 0.5f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const Triangle degenerate[] = {
        {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {2.0f, 0.0f, 0.0f}}, // collinear
        {{0.5f, 0.0f, 0.5f}, {0.5f, 0.0f, 0.5f}, {0.5f, 0.0f, 0.5f}}, // a point
        {{kNaN, 0.0f, 0.0f}, kGround.b, kGround.c},
        {kGround.a, {0.0f, kInf, 0.0f}, kGround.c},
    };
    for (const Triangle& t : degenerate) {
        EXPECT_FALSE(kz::contactObbTriangle(box, t).has_value()) << str(t);
        EXPECT_EQ(kz::separationObbTriangle(box, t), kInf) << str(t);
    }
    const Obb badBoxes[] = {
        {{0.0f, 0.5f, 0.0f}, {1.0f, -1.0f, 1.0f}, kIdentity},
        {{kNaN, 0.5f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity},
        {{0.0f, 0.5f, 0.0f}, {1.0f, kInf, 1.0f}, kIdentity},
        {{0.0f, 0.5f, 0.0f}, {1.0f, 1.0f, 1.0f}, glm::mat3(0.0f)},
    };
    for (const Obb& b : badBoxes) {
        EXPECT_FALSE(kz::contactObbTriangle(b, kGround).has_value()) << str(b);
        EXPECT_EQ(kz::separationObbTriangle(b, kGround), kInf) << str(b);
    }
    // Coordinates so large that the axis products overflow: no contact, never collides.
    const Triangle huge{{-1e30f, 0.0f, 1e30f}, {1e30f, 0.0f, 1e30f}, {0.0f, 1e30f, -1e30f}};
    EXPECT_FALSE(kz::contactObbTriangle(box, huge).has_value());
    EXPECT_EQ(kz::separationObbTriangle(box, huge), kInf);
    // A zero half extent is a flat box (valid, as for every Obb query): a square on the ground.
    const Obb square{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 1.0f}, kIdentity};
    const auto m = checkedObbTriangle(square, kGround);
    ASSERT_TRUE(m.has_value());
    EXPECT_NEAR(m->depth, 0.0f, 1e-6f);
}

TEST(ContactObbTriangle, RandomAgainstReference) {
    // Properties over random poses, against double-precision references built differently:
    // overlap by edge-against-solid tests, distance from vertex and edge-pair distances.
    const unsigned seed = kSeed + 7;
    std::mt19937 rng(seed);
    int failures = 0, contacts = 0, compared = 0, apart = 0, exactDepth = 0;
    constexpr int kPoses = 20000;
    for (int i = 0; i < kPoses; ++i) {
        const Obb a = randomObb(rng, 1.5f, 0.2f, 1.5f);
        Triangle t;
        if (i % 2 == 0) { // big triangles, mesh-like
            t = {randomPoint(rng, 3.0f), randomPoint(rng, 3.0f), randomPoint(rng, 3.0f)};
        } else { // small ones near the box
            const glm::vec3 c = randomPoint(rng, 2.0f);
            const float size = uniform(rng, 0.2f, 1.5f);
            t = {c + randomPoint(rng, size), c + randomPoint(rng, size), c + randomPoint(rng, size)};
        }
        const double area = glm::length(glm::cross(glm::dvec3(t.b - t.a), glm::dvec3(t.c - t.a)));
        if (area < 0.01) continue;
        const float separation = kz::separationObbTriangle(a, t);
        const auto m = kz::contactObbTriangle(a, t);
        const bool grown = refObbTriangleOverlap(a, t, 1e-4), shrunk = refObbTriangleOverlap(a, t, -1e-4);
        const double distance = refObbTriangleDistance(a, t);
        std::string why;
        if (m.has_value() != (separation <= 0.0f))
            why = "contact presence disagrees with separationObbTriangle";
        else if (double(separation) > distance + 1e-5)
            why = "separation " + std::to_string(separation) + " above the distance " +
                  std::to_string(distance);
        else if (grown == shrunk && m.has_value() != grown)
            why = "contact presence disagrees with the reference";
        else if (!grown && !(separation > 0.0f))
            why = "apart, but separation is not positive";
        if (why.empty() && grown == shrunk) ++compared;
        if (why.empty() && !grown) ++apart;
        if (why.empty() && m.has_value()) {
            ++contacts;
            // The depth is the least penetration, unless the triangle normal or a box face was
            // kept over an axis that penetrates a little less (by up to 5% + 0.005 * the largest
            // half extent); it never exceeds the overlap along its own normal. (With those
            // tolerances at zero every depth here equals -separation.)
            const double least = -double(separation);
            const double band = (least + 0.005 * double(std::max({a.half.x, a.half.y, a.half.z}))) / 0.95;
            const double tol = 1e-4 * std::max(1.0, least);
            const glm::dvec3 n(m->normal);
            const glm::dmat3 axes(a.axes);
            const double radius = double(a.half.x) * std::abs(glm::dot(axes[0], n)) +
                                  double(a.half.y) * std::abs(glm::dot(axes[1], n)) +
                                  double(a.half.z) * std::abs(glm::dot(axes[2], n));
            const double alongNormal = std::max({glm::dot(glm::dvec3(t.a), n), glm::dot(glm::dvec3(t.b), n),
                                                 glm::dot(glm::dvec3(t.c), n)}) -
                                       (glm::dot(glm::dvec3(a.center), n) - radius);
            if (std::abs(double(m->depth) - least) <= tol) ++exactDepth;
            if (auto g = goodObbTriangleManifold(*m, a, t); !g)
                why = g.message();
            else if (double(m->depth) < least - tol || double(m->depth) > band + tol)
                why = "depth " + std::to_string(m->depth) + " outside [" + std::to_string(least) + ", " +
                      std::to_string(band) + "]";
            else if (double(m->depth) > alongNormal + tol)
                why = "depth " + std::to_string(m->depth) + " beyond the overlap along the normal " +
                      std::to_string(alongNormal);
        }
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; A " << str(a) << " B "
                          << str(t) << (m ? "; got " + str(*m) : std::string());
    }
    EXPECT_EQ(failures, 0);
    EXPECT_GE(compared, kPoses * 9 / 10);
    EXPECT_GT(contacts, kPoses / 5);
    EXPECT_GT(apart, kPoses / 5);
    EXPECT_GE(exactDepth, contacts * 9 / 10) << "the depth should mostly be the least penetration";
}

TEST(ContactObbTriangle, RandomRestingBoxesKeepTheTriangleNormal) {
    // Boxes resting on a big tilted triangle with random yaw, small tilts and penetrations: the
    // mesh-ground case; the triangle's normal wins and a resting face gives four points.
    const unsigned seed = kSeed + 8;
    std::mt19937 rng(seed);
    int failures = 0;
    for (int i = 0; i < 5000; ++i) {
        const glm::dmat3 ground = rotationAbout(randomUnit(rng), double(uniform(rng, 0.0f, 0.5f)));
        // kGround scaled by 4, so no box overhangs an edge.
        const Triangle t{glm::mat3(ground) * (4.0f * kGround.a), glm::mat3(ground) * (4.0f * kGround.b),
                         glm::mat3(ground) * (4.0f * kGround.c)};
        const glm::dvec3 up = ground * glm::dvec3(0.0, 1.0, 0.0);
        const bool flat = i % 2 == 0;
        const double tilt = flat ? 0.0 : double(uniform(rng, 0.0f, 0.02f));
        const glm::dmat3 rot = ground * rotationAbout(randomUnit(rng), tilt) *
                               rotationAbout({0.0, 1.0, 0.0}, double(uniform(rng, 0.0f, 6.28f)));
        Obb a{glm::mat3(ground) * glm::vec3(uniform(rng, -3.0f, 3.0f), 0.0f, uniform(rng, -3.0f, 3.0f)),
              {uniform(rng, 0.2f, 2.0f), uniform(rng, 0.2f, 2.0f), uniform(rng, 0.2f, 2.0f)},
              glm::mat3(rot)};
        double lowest = std::numeric_limits<double>::infinity();
        for (const auto& c : refCorners(a, 0.0))
            lowest = std::min(lowest, glm::dot(c, up));
        const double penetration = double(uniform(rng, 0.001f, 0.1f));
        a.center = glm::vec3(glm::dvec3(a.center) - (lowest + penetration) * up);
        const auto m = kz::contactObbTriangle(a, t);
        std::string why;
        if (!m.has_value())
            why = "no contact";
        else if (auto g = goodObbTriangleManifold(*m, a, t); !g)
            why = g.message();
        else if (glm::dot(glm::dvec3(m->normal), up) < 0.99999)
            why = "normal is not the triangle's";
        else if (std::abs(double(m->depth) - penetration) > 1e-4)
            why = "depth";
        else if (flat && m->count != 4)
            why = "a resting face should give 4 points";
        if (!why.empty() && ++failures <= 10)
            ADD_FAILURE() << "seed " << seed << " case " << i << ": " << why << "; A " << str(a)
                          << " penetration " << penetration << (m ? "; got " + str(*m) : std::string());
    }
    EXPECT_EQ(failures, 0);
}

// ------------------------------------------------------------------ separationObbObb

TEST(SeparationObbObb, BoxesSideBySideAreTheirFacesGapApart) {
    const Obb a{{0, 0, 0}, {0.5f, 0.5f, 0.5f}, kIdentity};
    EXPECT_FLOAT_EQ(kz::separationObbObb(a, {{2.0f, 0, 0}, {0.5f, 0.5f, 0.5f}, kIdentity}), 1.0f);
    EXPECT_FLOAT_EQ(kz::separationObbObb(a, {{0, -1.5f, 0}, {0.5f, 1.0f, 0.5f}, kIdentity}), 0.0f);
}

TEST(SeparationObbObb, OverlappingBoxesGiveMinusTheLeastPenetration) {
    const Obb a{{0, 0, 0}, {0.5f, 0.5f, 0.5f}, kIdentity};
    EXPECT_NEAR(kz::separationObbObb(a, {{0.8f, 0.1f, 0}, {0.5f, 0.5f, 0.5f}, kIdentity}), -0.2f, 1e-6f);
}

TEST(SeparationObbObb, ABoxTurnedOnItsEdgeIsSeparatedByItsFaceDiagonal) {
    // B turned 45 degrees about z: its edge along z points at A's +x face, sqrt(2) / 2 from its centre.
    const Obb a{{0, 0, 0}, {0.5f, 0.5f, 0.5f}, kIdentity};
    const Obb b{
        {2.0f, 0, 0}, {0.5f, 0.5f, 0.5f}, glm::mat3(rotationAbout({0, 0, 1}, std::numbers::pi / 4.0))};
    EXPECT_NEAR(kz::separationObbObb(a, b), 1.5f - std::sqrt(0.5f), 1e-5f);
}

// The reference: every axis of the 15 (edge axes built by a double cross product, skipped when
// within sin^2 1e-6 of parallel), normalised, with both boxes' 8 corners projected on it.
// nearlyParallel: some edge axis has sin^2 < 1e-3, whose float length sqrt(1 - R_ij^2) is then
// only good to about a percent.
double refSeparationObbObb(const Obb& a, const Obb& b, bool& nearSkipThreshold, bool& nearlyParallel) {
    glm::vec3 ca[8], cb[8];
    kz::corners(a, ca);
    kz::corners(b, cb);
    const auto gapAlong = [&](const glm::dvec3& axis) {
        double loA = INFINITY, hiA = -INFINITY, loB = INFINITY, hiB = -INFINITY;
        for (int k = 0; k < 8; ++k) {
            const double pa = glm::dot(axis, glm::dvec3(ca[k])), pb = glm::dot(axis, glm::dvec3(cb[k]));
            loA = std::min(loA, pa), hiA = std::max(hiA, pa);
            loB = std::min(loB, pb), hiB = std::max(hiB, pb);
        }
        return std::max(loB - hiA, loA - hiB);
    };
    double best = -INFINITY;
    nearSkipThreshold = false;
    nearlyParallel = false;
    for (int i = 0; i < 3; ++i) {
        best = std::max(best, gapAlong(glm::normalize(glm::dvec3(a.axes[i]))));
        best = std::max(best, gapAlong(glm::normalize(glm::dvec3(b.axes[i]))));
        for (int j = 0; j < 3; ++j) {
            const glm::dvec3 axis = glm::cross(glm::dvec3(a.axes[i]), glm::dvec3(b.axes[j]));
            const double lengthSq = glm::dot(axis, axis);
            nearSkipThreshold = nearSkipThreshold || std::abs(lengthSq - 1e-6) < 1e-6;
            nearlyParallel = nearlyParallel || lengthSq < 1e-3;
            if (lengthSq < 1e-6) continue;
            best = std::max(best, gapAlong(axis / std::sqrt(lengthSq)));
        }
    }
    return best;
}

TEST(SeparationObbObbPropertyTest, AgreesWithCornerProjectionsAndNeverExceedsTheDistance) {
    const unsigned seed = kSeed + 40;
    std::mt19937 rng(seed);
    int apart = 0, overlapping = 0;
    for (int i = 0; i < 20000; ++i) {
        const Obb a = randomObb(rng, 2.0f, 0.1f, 1.0f), b = randomObb(rng, 2.0f, 0.1f, 1.0f);
        bool nearSkip = false, nearlyParallel = false;
        const double want = refSeparationObbObb(a, b, nearSkip, nearlyParallel);
        if (nearSkip) continue;
        const float got = kz::separationObbObb(a, b);
        ASSERT_NEAR(got, want, 1e-4 + (nearlyParallel ? 1e-2 * std::abs(want) : 0.0))
            << "seed " << seed << " case " << i;
        if (nearlyParallel) continue;
        if (want <= 0.0) {
            ++overlapping;
            continue;
        }
        ++apart;
        // A lower bound of the distance, which no corner of either box undercuts.
        glm::vec3 ca[8], cb[8];
        kz::corners(a, ca);
        kz::corners(b, cb);
        double upper = INFINITY;
        for (int k = 0; k < 8; ++k)
            upper = std::min({upper, refDistObb(glm::dvec3(ca[k]), b), refDistObb(glm::dvec3(cb[k]), a)});
        ASSERT_LE(got, upper + 1e-5) << "seed " << seed << " case " << i;
    }
    EXPECT_GT(apart, 3000);
    EXPECT_GT(overlapping, 2000);
}

TEST(SeparationObbObbPropertyTest, TheAxisPointsFromAToBAndTheBoxesAreSeparatedAlongItByTheValue) {
    // Conservative advancement projects the relative velocity on this axis: the boxes' corners
    // projected on it must be the value apart, B beyond A.
    const unsigned seed = kSeed + 41;
    std::mt19937 rng(seed);
    for (int i = 0; i < 20000; ++i) {
        const Obb a = randomObb(rng, 2.0f, 0.1f, 1.0f), b = randomObb(rng, 2.0f, 0.1f, 1.0f);
        glm::vec3 axis;
        const float got = kz::separationObbObb(a, b, axis);
        ASSERT_TRUE(kz::test::sameBits(got, kz::separationObbObb(a, b))) << "seed " << seed << " case " << i;
        ASSERT_NEAR(glm::length(axis), 1.0f, 1e-5f) << "seed " << seed << " case " << i;
        glm::vec3 ca[8], cb[8];
        kz::corners(a, ca);
        kz::corners(b, cb);
        double hiA = -INFINITY, loB = INFINITY;
        for (int k = 0; k < 8; ++k) {
            hiA = std::max(hiA, glm::dot(glm::dvec3(axis), glm::dvec3(ca[k])));
            loB = std::min(loB, glm::dot(glm::dvec3(axis), glm::dvec3(cb[k])));
        }
        ASSERT_NEAR(loB - hiA, got, 1e-4 * (1.0 + std::abs(got))) << "seed " << seed << " case " << i;
    }
}

} // namespace
