// Free flight's path (src/physics/free_flight.hpp): against Euler's equations integrated finely,
// its poses without jumps across nodes, within the spin bound the searches take, and the same
// bits whatever order its poses are read in.
#include "physics/free_flight.hpp"

#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <random>

namespace {

using namespace kz;

/// A box of half extents 0.1, 0.2 and 0.4 m (1 kg) turned and spinning at `spin` rad/s about a
/// random axis.
Body tumblingBox(std::mt19937& rng, float spin) {
    std::normal_distribution<float> n(0.0f, 1.0f);
    Body b;
    b.shape = ShapeType::Box;
    b.halfExtents = {0.1f, 0.2f, 0.4f};
    b.mass = 1.0f;
    const glm::vec3 e = b.halfExtents;
    b.inertiaLocal =
        b.mass / 3.0f * glm::vec3(e.y * e.y + e.z * e.z, e.x * e.x + e.z * e.z, e.x * e.x + e.y * e.y);
    b.orientation = glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
    b.position = {n(rng), n(rng), n(rng)};
    b.velocity = {n(rng), n(rng), n(rng)};
    const glm::vec3 w = spin * glm::normalize(glm::vec3(n(rng), n(rng), n(rng)));
    b.angularMomentum = b.orientation * (b.inertiaLocal * (glm::inverse(b.orientation) * w));
    b.angularVelocity = w;
    return b;
}

double energyOf(const Body& b) {
    return rotationalEnergy(b.orientation, b.angularMomentum, b.inertiaLocal);
}

/// The angle (rad) of the turn between two orientations, in double precision (an arc cosine of
/// their dot product loses small angles to rounding).
float angleBetween(const glm::quat& p, const glm::quat& q) {
    const glm::dquat d = glm::normalize(glm::dquat(q)) * glm::conjugate(glm::normalize(glm::dquat(p)));
    return static_cast<float>(2.0 * std::atan2(glm::length(glm::dvec3(d.x, d.y, d.z)), std::abs(d.w)));
}

/// The orientation after t seconds by classical Runge-Kutta on q' = 1/2 w q, w = R I^-1 R^T L,
/// in double precision with steps of at most 1e-3 rad: the reference.
glm::dquat reference(const Body& b, double t) {
    glm::dquat q(b.orientation);
    const glm::dvec3 L(b.angularMomentum), inertia(b.inertiaLocal);
    const auto rate = [&](const glm::dquat& x) {
        const glm::dquat u = glm::normalize(x);
        const glm::dvec3 w = u * ((glm::inverse(u) * L) / inertia);
        return 0.5 * (glm::dquat(0.0, w) * x);
    };
    const int steps = static_cast<int>(std::ceil(glm::length(glm::dvec3(b.angularVelocity)) * t / 1e-3)) + 1;
    const double h = t / steps;
    for (int k = 0; k < steps; ++k) {
        const glm::dquat k1 = rate(q), k2 = rate(q + (0.5 * h) * k1), k3 = rate(q + (0.5 * h) * k2),
                         k4 = rate(q + h * k3);
        q = glm::normalize(q + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4));
    }
    return q;
}

TEST(FreeFlight, FollowsEulersEquationsToASmallPartOfARadian) {
    // Boxes tumbling at 6 to 300 rad/s for a 1/60 s step: every pose within 5e-3 rad of the
    // reference (the splitting's error, 0.1 rad sub-steps), the centre on its straight line.
    std::mt19937 rng(41u);
    float worst = 0.0f;
    for (int i = 0; i < 60; ++i) {
        const float spin = i % 3 == 0 ? 300.0f : i % 3 == 1 ? 60.0f : 6.0f;
        const Body start = tumblingBox(rng, spin);
        FlightPath path;
        const float horizon = 1.0f / 60.0f;
        path.fly(start, energyOf(start), horizon);
        for (int j = 1; j <= 16; ++j) {
            const float t = horizon * static_cast<float>(j) / 16.0f;
            Body b = start;
            path.poseAt(t, b);
            const float off = angleBetween(b.orientation, glm::quat(reference(start, t)));
            worst = std::max(worst, off);
            ASSERT_LT(off, 5e-3f) << "case " << i << ", spin " << spin << ", t " << t;
            EXPECT_EQ(b.position, start.position + start.velocity * t);
        }
    }
    std::printf("farthest from the reference: %g rad\n", static_cast<double>(worst));
}

TEST(FreeFlight, KeepsItsMomentumAndEndsOnItsEnergyLevel) {
    std::mt19937 rng(42u);
    for (int i = 0; i < 50; ++i) {
        const Body start = tumblingBox(rng, 100.0f);
        const double energy = energyOf(start);
        FlightPath path;
        path.fly(start, energy, 0.05f);
        Body b = start;
        path.poseAt(0.05f, b);
        EXPECT_NEAR(energyOf(b) / energy, 1.0, 1e-6) << "case " << i;
        // The angular velocity is the one the (unchanged) momentum gives at the orientation.
        const glm::vec3 w =
            b.orientation * ((glm::inverse(b.orientation) * start.angularMomentum) / b.inertiaLocal);
        EXPECT_LT(glm::length(b.angularVelocity - w), 1e-4f * glm::length(w));
        EXPECT_EQ(b.angularMomentum, start.angularMomentum);
    }
}

TEST(FreeFlight, APoseIsTheSameWhateverWasReadBeforeAndTheStartIsAsGiven) {
    std::mt19937 rng(43u);
    const Body start = tumblingBox(rng, 200.0f);
    FlightPath path;
    path.fly(start, energyOf(start), 1.0f / 120.0f);
    Body first = start, again = start;
    path.poseAt(0.003f, first);
    path.poseAt(0.007f, again);
    path.poseAt(0.001f, again);
    path.poseAt(0.003f, again);
    EXPECT_EQ(first.orientation, again.orientation);
    EXPECT_EQ(first.position, again.position);
    Body atStart = start;
    atStart.orientation = glm::quat(1, 0, 0, 0);
    path.poseAt(0.0f, atStart);
    EXPECT_EQ(atStart.orientation, start.orientation);
    EXPECT_EQ(atStart.position, start.position);
}

TEST(FreeFlight, TurnsWithoutJumpsAndWithinTheSpinBoundTheSearchesTake) {
    // Sampled every 1/64 of a sub-step, also across nodes and at 20,000 rad/s (several sub-steps
    // between nodes): no two poses farther apart than the spin bound allows for their time apart.
    std::mt19937 rng(44u);
    for (const float spin : {5.0f, 80.0f, 900.0f, 20000.0f}) {
        for (int i = 0; i < 10; ++i) {
            const Body start = tumblingBox(rng, spin);
            const double energy = energyOf(start);
            FlightPath path;
            const float horizon = 1.0f / 120.0f;
            path.fly(start, energy, horizon);
            const float rate = rotationSpeedBound(start, energy) / glm::length(start.halfExtents);
            const int samples = 64 * std::max(1, static_cast<int>(std::ceil(spin * horizon / 0.1f)));
            Body before = start;
            path.poseAt(0.0f, before);
            for (int k = 1; k <= samples; ++k) {
                const float dt = horizon / static_cast<float>(samples);
                Body now = start;
                path.poseAt(dt * static_cast<float>(k), now);
                ASSERT_LE(angleBetween(before.orientation, now.orientation), rate * dt * 1.01f + 2e-6f)
                    << "spin " << spin << ", case " << i << ", sample " << k;
                before = now;
            }
            EXPECT_LE(path.memoryBytes(), (kMaxFlightNodes + 1) * 32u);
        }
    }
}

TEST(FreeFlight, ABodySpinningAlmostAboutAPrincipalAxisEndsItsFlightWithoutAJump) {
    // Near a principal axis the energy's gradient along a turn vanishes, so a rounding-sized energy
    // error once asked the projection for a turn of up to 2.3 rad (high-speed's boxes): the end of
    // a flight must stay within the spin bound of its start, as every pose of it does.
    std::mt19937 rng(45u);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    int cases = 0;
    for (const float spin : {3.0f, 30.0f, 300.0f}) {
        for (int axis = 0; axis < 3; ++axis) {
            for (const float off : {1e-8f, 1e-7f, 1e-6f, 1e-5f, 1e-4f}) {
                for (int i = 0; i < 20; ++i, ++cases) {
                    Body start = tumblingBox(rng, 1.0f);
                    glm::vec3 local(off * u(rng), off * u(rng), off * u(rng));
                    local[axis] = spin;
                    const glm::vec3 w = start.orientation * local;
                    start.angularMomentum = start.orientation * (start.inertiaLocal * local);
                    start.angularVelocity = w;
                    const double energy = energyOf(start);
                    const float horizon = 1.0f / 120.0f;
                    const float bound = rotationSpeedBound(start, energy) / glm::length(start.halfExtents);
                    Body end = start;
                    flyToHorizon(start, energy, horizon, end);
                    ASSERT_LE(angleBetween(start.orientation, end.orientation),
                              bound * horizon * 1.01f + 2e-6f)
                        << "spin " << spin << " about body axis " << axis << ", off by " << off << ", case "
                        << i;
                }
            }
        }
    }
    EXPECT_EQ(cases, 900);
}

TEST(FreeFlight, AnIsotropicBodyTurnsAtItsConstantAngularVelocity) {
    Body ball;
    ball.shape = ShapeType::Sphere;
    ball.radius = 0.5f;
    ball.inertiaLocal = glm::vec3(0.1f);
    ball.orientation = glm::quat(1, 0, 0, 0);
    ball.angularVelocity = {0.0f, 0.0f, 10.0f};
    ball.angularMomentum = 0.1f * ball.angularVelocity;
    FlightPath path;
    path.fly(ball, energyOf(ball), 0.1f);
    Body b = ball;
    path.poseAt(0.1f, b);
    EXPECT_NEAR(angleBetween(b.orientation, glm::angleAxis(1.0f, glm::vec3(0, 0, 1))), 0.0f, 1e-5f);
    EXPECT_EQ(b.angularVelocity, ball.angularVelocity);
}

TEST(FreeFlight, TheWholeFlightAndAOneSubStepFlightsStartGiveThePathsBits) {
    // flyToHorizon (the step's end without a path), placeAt and a PathView over the start (a
    // search's poses of a slow or evenly turning body) must be the path's poses bit for bit: the
    // search's poses and the step's flight are then the same.
    std::mt19937 rng(45u);
    const float horizon = 1.0f / 120.0f;
    for (const float spin : {0.0f, 2.0f, 11.0f, 60.0f, 20000.0f}) {
        for (int i = 0; i < 20; ++i) {
            Body start = tumblingBox(rng, spin);
            if (i % 4 == 3) { // a sphere, which turns evenly
                start.shape = ShapeType::Sphere;
                start.inertiaLocal = glm::vec3(0.02f);
                start.angularMomentum = 0.02f * start.angularVelocity;
            }
            const double energy = energyOf(start);
            FlightPath path;
            path.fly(start, energy, horizon);
            Body fromPath = start, whole = start;
            path.poseAt(horizon, fromPath);
            flyToHorizon(start, energy, horizon, whole);
            EXPECT_EQ(whole.position, fromPath.position) << spin << " " << i;
            EXPECT_EQ(whole.orientation, fromPath.orientation) << spin << " " << i;
            EXPECT_EQ(whole.angularVelocity, fromPath.angularVelocity) << spin << " " << i;
            const bool inOne = fliesInOne(start, horizon);
            EXPECT_EQ(inOne, spin * horizon <= 0.1f || start.shape == ShapeType::Sphere) << spin << " " << i;
            if (!inOne) continue;
            const PathView view{nullptr, &start, energy, horizon, 0.0f};
            for (const float t : {0.0f, 1e-4f, 0.3f * horizon, 0.99f * horizon, horizon, 2.0f * horizon}) {
                Body a = start, b = start, placed = start;
                path.poseAt(t, a);
                view.placeAt(t, b);
                path.placeAt(t, placed);
                EXPECT_EQ(a.position, b.position) << spin << " " << i << " " << t;
                EXPECT_EQ(a.orientation, b.orientation) << spin << " " << i << " " << t;
                EXPECT_EQ(a.position, placed.position) << spin << " " << i << " " << t;
                EXPECT_EQ(a.orientation, placed.orientation) << spin << " " << i << " " << t;
            }
        }
    }
}

} // namespace
