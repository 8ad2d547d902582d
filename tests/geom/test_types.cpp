// Validity rules and box helpers shared by every query (src/geom/types.hpp).
#include "geom/geom.hpp"

#include <cfloat>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>
#include <limits>

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(Types, RayWithFiniteNonZeroDirectionIsValid) {
    EXPECT_TRUE(kz::isValid(kz::Ray{glm::vec3(1, 2, 3), glm::vec3(0, 0, 1e-10f)}));
    EXPECT_TRUE(kz::isValid(kz::Ray{glm::vec3(0), glm::vec3(1e18f, 0, 0)}));
}

TEST(Types, RayWithZeroNonFiniteOrUnderflowingDirectionIsInvalid) {
    EXPECT_FALSE(kz::isValid(kz::Ray{glm::vec3(0), glm::vec3(0)}));
    EXPECT_FALSE(kz::isValid(kz::Ray{glm::vec3(0), glm::vec3(1e-30f, 0, 0)})); // |dir|^2 underflows
    EXPECT_FALSE(kz::isValid(kz::Ray{glm::vec3(0), glm::vec3(1e30f, 0, 0)}));  // |dir|^2 overflows
    EXPECT_FALSE(kz::isValid(kz::Ray{glm::vec3(kNaN, 0, 0), glm::vec3(1, 0, 0)}));
    EXPECT_FALSE(kz::isValid(kz::Ray{glm::vec3(0), glm::vec3(0, kInf, 0)}));
}

TEST(Types, SphereNeedsFiniteNonNegativeRadius) {
    EXPECT_TRUE(kz::isValid(kz::Sphere{glm::vec3(0), 0.0f}));
    EXPECT_FALSE(kz::isValid(kz::Sphere{glm::vec3(0), -0.5f}));
    EXPECT_FALSE(kz::isValid(kz::Sphere{glm::vec3(0), kNaN}));
    EXPECT_FALSE(kz::isValid(kz::Sphere{glm::vec3(0, kInf, 0), 1.0f}));
}

TEST(Types, AabbAllowsFlatButNotInvertedBoxes) {
    EXPECT_TRUE(kz::isValid(kz::Aabb{glm::vec3(0), glm::vec3(1, 0, 1)}));
    EXPECT_FALSE(kz::isValid(kz::Aabb{glm::vec3(0), glm::vec3(1, -0.001f, 1)}));
    EXPECT_FALSE(kz::isValid(kz::Aabb{glm::vec3(0), glm::vec3(kNaN)}));
}

TEST(Types, ObbRejectsNegativeHalfExtentsAndNonFiniteOrZeroAxes) {
    EXPECT_TRUE(kz::isValid(kz::Obb{glm::vec3(0), glm::vec3(1, 0, 1), glm::mat3(1.0f)}));
    EXPECT_FALSE(kz::isValid(kz::Obb{glm::vec3(0), glm::vec3(1, -1, 1), glm::mat3(1.0f)}));
    glm::mat3 axes(1.0f);
    axes[1] = glm::vec3(kNaN);
    EXPECT_FALSE(kz::isValid(kz::Obb{glm::vec3(0), glm::vec3(1), axes}));
    axes[1] = glm::vec3(0);
    EXPECT_FALSE(kz::isValid(kz::Obb{glm::vec3(0), glm::vec3(1), axes}));
}

TEST(Types, TriangleNeedsNonZeroArea) {
    EXPECT_TRUE(kz::isValid(kz::Triangle{glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(0, 1, 0)}));
    EXPECT_FALSE(kz::isValid(kz::Triangle{glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(2, 0, 0)}));
    EXPECT_FALSE(kz::isValid(kz::Triangle{glm::vec3(0), glm::vec3(0), glm::vec3(0)}));
    EXPECT_FALSE(kz::isValid(kz::Triangle{glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(0, kInf, 0)}));
}

TEST(Types, PlaneNeedsNonZeroFiniteNormal) {
    EXPECT_TRUE(kz::isValid(kz::Plane{glm::vec3(0, 2, 0), -1.0f}));
    EXPECT_FALSE(kz::isValid(kz::Plane{glm::vec3(0), 1.0f}));
    EXPECT_FALSE(kz::isValid(kz::Plane{glm::vec3(0, 1, 0), kNaN}));
}

TEST(Types, ObbCornersFollowTheBitPatternAndBoundsCoverThem) {
    const glm::mat3 axes = glm::mat3_cast(glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 2, 3))));
    const kz::Obb box{glm::vec3(1, -2, 3), glm::vec3(0.5f, 1.0f, 2.0f), axes};
    glm::vec3 out[8];
    kz::corners(box, out);
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 local = glm::transpose(axes) * (out[i] - box.center);
        EXPECT_NEAR(local.x, (i & 1) ? 0.5f : -0.5f, 1e-5f) << "corner " << i;
        EXPECT_NEAR(local.y, (i & 2) ? 1.0f : -1.0f, 1e-5f) << "corner " << i;
        EXPECT_NEAR(local.z, (i & 4) ? 2.0f : -2.0f, 1e-5f) << "corner " << i;
    }
    const kz::Aabb aabb = kz::bounds(box);
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (const glm::vec3& c : out) {
        lo = glm::min(lo, c);
        hi = glm::max(hi, c);
    }
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(aabb.min[k], lo[k], 1e-5f);
        EXPECT_NEAR(aabb.max[k], hi[k], 1e-5f);
    }
}

TEST(Types, AabbConvertsToAnAxisAlignedObb) {
    const kz::Obb box = kz::toObb(kz::Aabb{glm::vec3(-1, 0, 2), glm::vec3(3, 4, 2)});
    EXPECT_EQ(box.center, glm::vec3(1, 2, 2));
    EXPECT_EQ(box.half, glm::vec3(2, 2, 0));
    EXPECT_EQ(box.axes, glm::mat3(1.0f));
}

} // namespace
