// The mouse probe without a window (src/app/lab/probe.hpp): each mode's answer along one ray (the
// nearest hit, the sphere cast, every hit nearest first), what it draws, and the names it shows.
#include "app/lab/probe.hpp"

#include <gtest/gtest.h>

namespace {

using kz::ProbeMode;
using kz::Ray;

kz::World twoBalls() {
    kz::World world(kz::boxRoom(glm::vec3(10.0f)));
    kz::BodyDesc near, far;
    near.name = "near";
    near.position = {0.0f, 0.0f, 1.0f};
    near.radius = 0.5f;
    far.name = "far";
    far.position = {0.0f, 0.6f, -2.0f};
    far.radius = 0.5f;
    world.addBody(far);
    world.addBody(near);
    return world;
}

const Ray kRay{{0.0f, 0.0f, 4.0f}, {0.0f, 0.0f, -1.0f}};

TEST(Probe, TheRayModeFindsTheNearestHitAndDrawsItsPointAndNormal) {
    const kz::World world = twoBalls();
    const kz::ProbeResult probe = kz::runProbe(world, kRay, ProbeMode::Ray, 0.3f);
    ASSERT_TRUE(probe.nearest);
    EXPECT_EQ(kz::probeName(world, *probe.nearest), "near");
    EXPECT_FLOAT_EQ(probe.nearest->hit.t, 2.5f);
    kz::LabCanvas canvas;
    kz::drawProbe(probe, canvas);
    EXPECT_FALSE(canvas.topLines.empty());
}

TEST(Probe, TheSphereCastTouchesWhatTheRayPassesByAndDrawsTheSphereThere) {
    kz::World world = twoBalls();
    world.setBodyPosition(1, {0.0f, 0.0f, -6.0f}); // out of the way: the ray alone misses the far ball
    const kz::ProbeResult thin = kz::runProbe(world, kRay, ProbeMode::Ray, 0.3f);
    ASSERT_TRUE(thin.ray);
    EXPECT_FALSE(thin.nearest && thin.nearest->body == 0);
    const kz::ProbeResult cast = kz::runProbe(world, kRay, ProbeMode::SphereCast, 0.3f);
    ASSERT_TRUE(cast.cast);
    EXPECT_EQ(kz::probeName(world, *cast.cast), "far");
    EXPECT_NEAR(glm::distance(cast.cast->center, world.bodies()[0].position), 0.8f, 1e-5f);
    kz::LabCanvas canvas;
    kz::drawProbe(cast, canvas);
    EXPECT_GT(canvas.lines.size(), 100u); // the wire sphere's circles
    // The radius follows the slider's range.
    EXPECT_FLOAT_EQ(kz::runProbe(world, kRay, ProbeMode::SphereCast, 50.0f).radius, kz::kProbeMaxRadius);
}

TEST(Probe, AllHitsListsEveryBodyNearestFirstAndOffDoesNothing) {
    const kz::World world = twoBalls();
    const Ray slanted{{0.0f, 0.0f, 4.0f}, {0.0f, 0.1f, -1.0f}};
    const kz::ProbeResult all = kz::runProbe(world, slanted, ProbeMode::AllHits, 0.3f);
    ASSERT_EQ(all.all.size(), 2u);
    EXPECT_EQ(kz::probeName(world, all.all[0]), "near");
    EXPECT_EQ(kz::probeName(world, all.all[1]), "far");
    EXPECT_LT(all.all[0].hit.t, all.all[1].hit.t);

    const kz::ProbeResult off = kz::runProbe(world, kRay, ProbeMode::Off, 0.3f);
    EXPECT_FALSE(off.ray || off.nearest || off.cast);
    kz::LabCanvas canvas;
    kz::drawProbe(off, canvas);
    EXPECT_TRUE(canvas.lines.empty() && canvas.topLines.empty());
    EXPECT_STREQ(kz::probeModeName(ProbeMode::SphereCast), "sphere cast");
}

} // namespace
