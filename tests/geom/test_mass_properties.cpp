// Tests for geom/mass_properties.hpp: every closed form and the hull's tetrahedra against a fine
// numerical integration (the midpoints of a 240^3 grid over the shape's bounds, 160^3 for hulls,
// each counted when inside: volume, centre of mass and inertia tensor within 0.5%), a box built as a
// hull against the box's closed form (to rounding), and the principal axes of random tensors.
#include "geom/geom.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace {

using namespace kz;

/// Mass properties by the midpoint rule over an n^3 grid of [lo, hi]: every cell whose centre is
/// inside counts whole.
MassProperties integrate(const std::function<bool(const glm::dvec3&)>& inside, glm::dvec3 lo, glm::dvec3 hi,
                         int n = 240) {
    const glm::dvec3 cell = (hi - lo) / double(n);
    const double dv = cell.x * cell.y * cell.z;
    double volume = 0.0;
    glm::dvec3 moment(0.0);
    glm::dmat3 covariance(0.0);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) {
                const glm::dvec3 x = lo + (glm::dvec3(i, j, k) + 0.5) * cell;
                if (!inside(x)) continue;
                volume += dv;
                moment += dv * x;
                covariance += dv * glm::outerProduct(x, x);
            }
    MassProperties m;
    m.volume = volume;
    m.centroid = moment / volume;
    const glm::dmat3 c = covariance - volume * glm::outerProduct(m.centroid, m.centroid);
    m.inertia = glm::dmat3(c[0][0] + c[1][1] + c[2][2]) - c;
    return m;
}

/// Volume and every tensor entry within `rel` (of the volume, of the largest moment), the centroid
/// within `rel` of the extent.
void expectNear(const MassProperties& got, const MassProperties& want, double extent, double rel) {
    EXPECT_NEAR(got.volume, want.volume, rel * want.volume);
    for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(got.centroid[i], want.centroid[i], rel * extent) << "centroid " << i;
    const double scale = std::max({want.inertia[0][0], want.inertia[1][1], want.inertia[2][2]});
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_NEAR(got.inertia[i][j], want.inertia[i][j], rel * scale) << "inertia " << i << j;
}

double segmentDistance(const glm::dvec3& x, double h) {
    const glm::dvec3 onAxis(0.0, std::clamp(x.y, -h, h), 0.0);
    return glm::length(x - onAxis);
}

TEST(MassProperties, CapsulesMatchANumericalIntegration) {
    for (const auto& [r, h] : {std::pair{0.5, 1.0}, std::pair{0.3, 0.05}, std::pair{0.2, 2.0}}) {
        SCOPED_TRACE(::testing::Message() << "r " << r << " h " << h);
        const auto inside = [r, h](const glm::dvec3& x) { return segmentDistance(x, h) <= r; };
        const glm::dvec3 half(r, h + r, r);
        expectNear(massPropertiesOfCapsule(r, h), integrate(inside, -half, half), h + r, 5e-3);
    }
}

TEST(MassProperties, CylindersMatchANumericalIntegration) {
    for (const auto& [r, h] : {std::pair{0.5, 1.0}, std::pair{1.0, 0.1}, std::pair{0.2, 2.0}}) {
        SCOPED_TRACE(::testing::Message() << "r " << r << " h " << h);
        const auto inside = [r, h](const glm::dvec3& x) {
            return std::abs(x.y) <= h && x.x * x.x + x.z * x.z <= r * r;
        };
        const glm::dvec3 half(r, h, r);
        expectNear(massPropertiesOfCylinder(r, h), integrate(inside, -half, half), std::max(r, h), 5e-3);
    }
}

TEST(MassProperties, SpheresAndBoxesMatchANumericalIntegration) {
    const auto ball = [](const glm::dvec3& x) { return glm::dot(x, x) <= 0.49; };
    expectNear(massPropertiesOfSphere(0.7), integrate(ball, glm::dvec3(-0.7), glm::dvec3(0.7)), 0.7, 5e-3);
    const glm::dvec3 half(0.3, 1.2, 0.7);
    const auto box = [](const glm::dvec3&) { return true; };
    expectNear(massPropertiesOfBox(half), integrate(box, -half, half, 60), 1.2, 5e-3);
}

/// Random points in a tilted, shifted ellipsoid-ish cloud: a hull whose centroid is off the origin
/// and whose tensor has off-diagonal terms.
ConvexHull randomHull(unsigned seed, int count) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    std::uniform_real_distribution<float> unit(0.3f, 1.0f);
    std::vector<glm::vec3> points;
    const glm::mat3 shear(1.0f, 0.4f, 0.1f, 0.0f, 0.6f, 0.3f, 0.2f, 0.0f, 1.3f);
    for (int i = 0; i < count; ++i) {
        glm::vec3 d(normal(rng), normal(rng), normal(rng));
        points.push_back(glm::vec3(0.4f, -1.1f, 2.0f) + shear * (unit(rng) * glm::normalize(d)));
    }
    auto built = buildConvexHull(points);
    EXPECT_TRUE(built.hull) << built.error;
    return *built.hull;
}

bool insideHull(const ConvexHull& hull, const glm::dvec3& x) {
    for (const ConvexHull::Face& f : hull.faces)
        if (glm::dot(glm::dvec3(f.normal), x) > double(f.offset)) return false;
    return true;
}

TEST(MassProperties, HullsMatchANumericalIntegration) {
    for (const auto& [seed, count] : {std::pair{11u, 8}, std::pair{12u, 40}, std::pair{13u, 300}}) {
        SCOPED_TRACE(::testing::Message() << "seed " << seed << " points " << count);
        const ConvexHull hull = randomHull(seed, count);
        glm::dvec3 lo(INFINITY), hi(-INFINITY);
        for (const glm::vec3& v : hull.vertices)
            lo = glm::min(lo, glm::dvec3(v)), hi = glm::max(hi, glm::dvec3(v));
        const auto inside = [&hull](const glm::dvec3& x) { return insideHull(hull, x); };
        const MassProperties got = massPropertiesOfHull(hull);
        expectNear(got, integrate(inside, lo, hi, 160), glm::length(hi - lo), 5e-3);
        EXPECT_GT(std::abs(got.inertia[0][1]) + std::abs(got.inertia[0][2]) + std::abs(got.inertia[1][2]),
                  1e-3)
            << "the test hull should have products of inertia";
    }
}

TEST(MassProperties, ABoxBuiltAsAHullGivesTheBoxsClosedForm) {
    const glm::vec3 half(0.3f, 1.25f, 0.5f), centre(2.0f, -1.0f, 0.5f);
    std::vector<glm::vec3> corners;
    for (int i = 0; i < 8; ++i)
        corners.push_back(centre + glm::vec3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1) * half);
    const auto built = buildConvexHull(corners);
    ASSERT_TRUE(built.hull) << built.error;
    const MassProperties got = massPropertiesOfHull(*built.hull);
    MassProperties want = massPropertiesOfBox(glm::dvec3(half));
    want.centroid = glm::dvec3(centre);
    expectNear(got, want, 2.5, 1e-6); // the corners are floats
}

TEST(MassProperties, AFlatHandMadeHullHasNoVolume) {
    ConvexHull flat;
    flat.vertices = {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f)};
    flat.edges = {{0, 1, 2, 0}, {1, 0, 5, 1}, {1, 3, 4, 0}, {2, 2, 1, 1}, {2, 5, 0, 0}, {0, 4, 3, 1}};
    flat.faces = {{glm::vec3(0, 0, 1), 0.0f, 0}, {glm::vec3(0, 0, -1), 0.0f, 1}};
    const MassProperties m = massPropertiesOfHull(flat);
    EXPECT_EQ(m.volume, 0.0);
    EXPECT_EQ(m.inertia, glm::dmat3(0.0));
    EXPECT_EQ(massPropertiesOfHull(ConvexHull{}).volume, 0.0);
}

TEST(MassProperties, PrincipalAxesOfRandomTensorsGiveThemBack) {
    std::mt19937 rng(77u);
    std::uniform_real_distribution<double> u(-1.0, 1.0), m(0.1, 3.0);
    for (int trial = 0; trial < 200; ++trial) {
        const glm::dvec3 axis = glm::normalize(glm::dvec3(u(rng), u(rng), u(rng)) + glm::dvec3(1e-3));
        const glm::dmat3 r = glm::mat3_cast(glm::angleAxis(3.0 * u(rng), axis));
        glm::dvec3 d(m(rng), m(rng), m(rng));
        if (trial % 4 == 0) d.y = d.x; // a symmetric top: any axis in that plane will do
        const glm::dmat3 tensor = r * glm::dmat3(d.x, 0, 0, 0, d.y, 0, 0, 0, d.z) * glm::transpose(r);
        const PrincipalAxes p = principalAxes(tensor);
        glm::dvec3 sorted = d;
        std::sort(&sorted[0], &sorted[0] + 3);
        EXPECT_NEAR(glm::determinant(p.axes), 1.0, 1e-12);
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(p.moments[k], sorted[k], 1e-12 * 3.0) << trial;
            EXPECT_LE(p.moments[k], k < 2 ? p.moments[k + 1] : INFINITY);
        }
        const glm::dmat3 back = p.axes * glm::dmat3(p.moments.x, 0, 0, 0, p.moments.y, 0, 0, 0, p.moments.z) *
                                glm::transpose(p.axes);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                EXPECT_NEAR(back[i][j], tensor[i][j], 1e-11) << trial;
    }
}

} // namespace
