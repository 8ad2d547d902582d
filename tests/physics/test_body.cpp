// Tests for physics/body.hpp: world-frame inertia tensors and kinetic energy against independent
// double-precision formulas, shapes at a pose, and the mass and inertia World::addBody derives.
#include "physics/body.hpp"
#include "physics/world.hpp"

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <numbers>
#include <random>
#include <string>

namespace {

using kz::Body;

Body makeBox(const glm::vec3& half, float mass, const glm::quat& q) {
    Body b{};
    b.shape = kz::ShapeType::Box;
    b.halfExtents = half;
    b.radius = glm::length(half);
    b.mass = mass;
    b.invMass = 1.0f / mass;
    const glm::vec3 s = 4.0f * half * half; // full sizes squared
    b.inertiaLocal = (mass / 12.0f) * glm::vec3(s.y + s.z, s.x + s.z, s.x + s.y);
    b.position = {1.0f, 2.0f, 3.0f};
    b.orientation = q;
    return b;
}

glm::quat randomRotation(std::mt19937& rng) {
    std::normal_distribution<float> g(0.0f, 1.0f);
    return glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
}

/// I_world = sum_k I_k a_k a_k^T over the rotated principal axes a_k, in double.
glm::dmat3 referenceInertia(const Body& b) {
    glm::dmat3 sum(0.0);
    for (int k = 0; k < 3; ++k) {
        glm::vec3 e(0.0f);
        e[k] = 1.0f;
        const glm::dvec3 a(b.orientation * e);
        sum += static_cast<double>(b.inertiaLocal[k]) * glm::outerProduct(a, a);
    }
    return sum;
}

TEST(Body, WorldInertiaIsTheRotatedPrincipalTensorAndItsInverse) {
    const unsigned seed = 11u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 100; ++trial) {
        const Body b = makeBox({0.1f, 0.3f, 0.7f}, 2.5f, randomRotation(rng));
        const glm::mat3 inertia = kz::inertiaWorld(b);
        const glm::mat3 inverse = kz::inverseInertiaWorld(b);
        const glm::dmat3 expected = referenceInertia(b);
        const glm::mat3 product = inertia * inverse;
        for (int c = 0; c < 3; ++c) {
            for (int r = 0; r < 3; ++r) {
                EXPECT_NEAR(inertia[c][r], expected[c][r], 1e-6);
                EXPECT_NEAR(inertia[c][r], inertia[r][c], 1e-6); // symmetric
                EXPECT_NEAR(product[c][r], c == r ? 1.0f : 0.0f, 1e-4f);
            }
        }
    }
}

TEST(Body, KineticEnergyIsTranslationalPlusRotational) {
    const unsigned seed = 12u;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-3.0f, 3.0f);
    for (int trial = 0; trial < 100; ++trial) {
        Body b = makeBox({0.2f, 0.5f, 0.3f}, 4.0f, randomRotation(rng));
        b.velocity = {u(rng), u(rng), u(rng)};
        b.angularVelocity = {u(rng), u(rng), u(rng)};
        const glm::dvec3 v(b.velocity), w(b.angularVelocity);
        const double expected = 0.5 * 4.0 * glm::dot(v, v) + 0.5 * glm::dot(w, referenceInertia(b) * w);
        EXPECT_NEAR(kz::kineticEnergy(b), expected, 1e-5 * expected);
    }
}

TEST(Body, ShapesAtThePoseUseTheBodysFields) {
    const glm::quat q = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1.0f, 2.0f, 3.0f)));
    const Body b = makeBox({0.1f, 0.2f, 0.3f}, 1.0f, q);
    const kz::Obb box = kz::obbOf(b);
    EXPECT_EQ(box.center, b.position);
    EXPECT_EQ(box.half, b.halfExtents);
    for (int k = 0; k < 3; ++k) {
        glm::vec3 e(0.0f);
        e[k] = 1.0f;
        EXPECT_NEAR(glm::length(box.axes[k] - q * e), 0.0f, 1e-6f);
    }
    const kz::Sphere sphere = kz::sphereOf(b);
    EXPECT_EQ(sphere.center, b.position);
    EXPECT_EQ(sphere.radius, b.radius);
}

TEST(Body, AddedBodiesGetMassFromDensityAndTextbookInertia) {
    kz::World world(kz::boxRoom(glm::vec3(10.0f)));
    kz::BodyDesc sphere;
    sphere.shape = kz::ShapeType::Sphere;
    sphere.radius = 0.5f;
    sphere.density = 1000.0f;
    sphere.angularVelocity = {0.0f, 2.0f, 0.0f};
    const std::size_t sphereIndex = static_cast<std::size_t>(world.addBody(sphere));
    const Body& s = world.bodies()[sphereIndex];
    const double sphereMass = 1000.0 * 4.0 / 3.0 * std::numbers::pi * 0.125;
    EXPECT_NEAR(s.mass, sphereMass, 1e-3);
    EXPECT_NEAR(s.invMass, 1.0 / sphereMass, 1e-8);
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(s.inertiaLocal[k], 0.4 * sphereMass * 0.25, 1e-3); // 2/5 m r^2
    EXPECT_NEAR(glm::length(s.angularMomentum - glm::vec3(0.0f, 2.0f * s.inertiaLocal.y, 0.0f)), 0.0f, 1e-4f);

    kz::BodyDesc box;
    box.shape = kz::ShapeType::Box;
    box.halfExtents = {0.5f, 1.0f, 1.5f};
    box.mass = 6.0f;
    box.orientation = glm::quat(2.0f, 0.0f, 0.0f, 0.0f); // not unit: normalised on add
    const std::size_t boxIndex = static_cast<std::size_t>(world.addBody(box));
    const Body& b = world.bodies()[boxIndex];
    EXPECT_EQ(b.mass, 6.0f);
    EXPECT_NEAR(b.radius, std::sqrt(0.25f + 1.0f + 2.25f), 1e-6f); // bounding sphere
    // m/12 (b^2 + c^2) with full sizes 1, 2, 3.
    EXPECT_NEAR(b.inertiaLocal.x, 0.5f * (4.0f + 9.0f), 1e-5f);
    EXPECT_NEAR(b.inertiaLocal.y, 0.5f * (1.0f + 9.0f), 1e-5f);
    EXPECT_NEAR(b.inertiaLocal.z, 0.5f * (1.0f + 4.0f), 1e-5f);
    EXPECT_NEAR(glm::length(b.orientation), 1.0f, 1e-6f);
    EXPECT_EQ(b.restitution, 1.0f);
    EXPECT_EQ(b.friction, 0.0f);
}

} // namespace
