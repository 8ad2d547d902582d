// Tests for the orbit camera (src/app/view/camera.hpp): pure GLM, no display.
#include "app/view/camera.hpp"
#include "scenario/scenario.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace {

const kz::Aabb kRoom{{-5.0f, -5.0f, -5.0f}, {5.0f, 5.0f, 5.0f}};

void expectNear(const glm::vec3& a, const glm::vec3& b, float tolerance) {
    EXPECT_NEAR(a.x, b.x, tolerance);
    EXPECT_NEAR(a.y, b.y, tolerance);
    EXPECT_NEAR(a.z, b.z, tolerance);
}

/// Where a world point lands in normalised device coordinates.
glm::vec3 ndc(const kz::OrbitCamera& camera, const glm::vec3& p, float aspect) {
    const glm::vec4 clip = camera.projMatrix(aspect) * camera.viewMatrix() * glm::vec4(p, 1.0f);
    return glm::vec3(clip) / clip.w;
}

TEST(OrbitCamera, ScenarioCameraGivesItsEyeAndTargetAndDoesNotSpin) {
    const kz::CameraDesc desc{{3.0f, 2.0f, 14.0f}, {0.5f, -1.0f, 0.0f}, 45.0f};
    const kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, desc);
    expectNear(camera.eye(), desc.eye, 1e-4f);
    expectNear(camera.view().target, desc.target, 0.0f);
    EXPECT_EQ(camera.view().fovDeg, 45.0f);
    EXPECT_FALSE(camera.spinning());
    EXPECT_TRUE(camera.hasScenarioView());
}

TEST(OrbitCamera, ScenarioViewMatchesLookAtFromTheFile) {
    const kz::CameraDesc desc{{0.0f, 0.0f, 14.0f}, {0.0f, 0.0f, 0.0f}, 45.0f};
    const kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, desc);
    const glm::mat4 expected = glm::lookAt(desc.eye, desc.target, glm::vec3(0.0f, 1.0f, 0.0f));
    const glm::mat4 actual = camera.viewMatrix();
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            EXPECT_NEAR(actual[c][r], expected[c][r], 1e-5f) << c << "," << r;
}

TEST(OrbitCamera, WithoutAScenarioViewTheWholeRoomIsInSightAndItSpins) {
    const kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    EXPECT_TRUE(camera.spinning());
    EXPECT_FALSE(camera.hasScenarioView());
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p{corner & 1 ? 5.0f : -5.0f, corner & 2 ? 5.0f : -5.0f, corner & 4 ? 5.0f : -5.0f};
        const glm::vec3 n = ndc(camera, p, 1.0f);
        EXPECT_LT(std::abs(n.x), 1.0f) << corner;
        EXPECT_LT(std::abs(n.y), 1.0f) << corner;
        EXPECT_LT(std::abs(n.z), 1.0f) << corner;
    }
}

TEST(OrbitCamera, SpinTurnsOnlyWhileSpinning) {
    kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    const float yaw = camera.view().yaw;
    camera.update(1.0f);
    EXPECT_NEAR(camera.view().yaw, yaw + camera.spinSpeed(), 1e-6f);
    camera.setSpinning(false);
    const glm::vec3 eye = camera.eye();
    camera.update(1.0f);
    expectNear(camera.eye(), eye, 0.0f);
}

TEST(OrbitCamera, OrbitKeepsTheDistanceAndNeverFlipsOverThePole) {
    kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    const float distance = glm::length(camera.eye() - camera.view().target);
    camera.orbit(120.0f, 1e6f);
    EXPECT_NEAR(glm::length(camera.eye() - camera.view().target), distance, 1e-3f);
    EXPECT_LE(camera.view().pitch, kz::OrbitCamera::kMaxPitch);
    camera.orbit(0.0f, -1e7f);
    EXPECT_GE(camera.view().pitch, -kz::OrbitCamera::kMaxPitch);
    EXPECT_TRUE(std::isfinite(camera.viewMatrix()[0][0]));
}

TEST(OrbitCamera, ZoomIsClampedAndHomeResets) {
    kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    const glm::vec3 home = camera.eye();
    camera.zoom(1000.0f);
    EXPECT_GT(camera.view().distance, 0.0f);
    EXPECT_LT(camera.view().distance, camera.home().distance);
    camera.zoom(-10000.0f);
    EXPECT_TRUE(std::isfinite(camera.view().distance));
    camera.pan(50.0f, -20.0f, 720.0f);
    camera.reset();
    expectNear(camera.eye(), home, 0.0f);
}

TEST(OrbitCamera, PanMovesTheTargetInTheViewPlane) {
    kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    camera.setSpinning(false);
    const glm::vec3 forward = glm::normalize(camera.view().target - camera.eye());
    const glm::vec3 before = camera.view().target;
    camera.pan(100.0f, 40.0f, 720.0f);
    const glm::vec3 moved = camera.view().target - before;
    EXPECT_GT(glm::length(moved), 0.0f);
    EXPECT_NEAR(glm::dot(moved, forward), 0.0f, 1e-4f);
    // A degenerate viewport moves nothing.
    const glm::vec3 target = camera.view().target;
    camera.pan(100.0f, 40.0f, 0.0f);
    expectNear(camera.view().target, target, 0.0f);
}

TEST(OrbitCamera, ProjectionSurvivesADegenerateAspect) {
    const kz::OrbitCamera camera = kz::OrbitCamera::forRoom(kRoom, std::nullopt);
    for (const float aspect : {0.0f, -1.0f, NAN, INFINITY, 1.0f / 720.0f}) {
        const glm::mat4 proj = camera.projMatrix(aspect);
        for (int c = 0; c < 4; ++c)
            EXPECT_TRUE(std::isfinite(proj[c][0]) && std::isfinite(proj[c][1])) << aspect;
    }
}

} // namespace
