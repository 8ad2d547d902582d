// The impact log as the panel shows it, without a window (src/app/timeline/impact_log.hpp): the ring keeps
// the last 2,000 records newest first and forgets the steps a reset or rewind undoes; rows name
// bodies, walls and mesh triangles; "Why here?" gives each method's numbers; the picture has the
// point, the normal, both velocities and the partner's feature.
#include "app/timeline/impact_log.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using namespace kz;

ImpactRecord recordAt(std::uint64_t step, int body = 0, Partner partner = Partner::wall(0)) {
    ImpactRecord r{};
    r.step = step;
    r.body = body;
    r.partner = partner;
    return r;
}

TEST(ImpactLog, KeepsTheLastTwoThousandNewestFirst) {
    ImpactLog log;
    for (std::uint64_t step = 1; step <= 2500; ++step) {
        const ImpactRecord r = recordAt(step);
        log.add({&r, 1}, step);
    }
    ASSERT_EQ(log.size(), ImpactLog::kCapacity);
    EXPECT_EQ(log.dropped(), 500u);
    EXPECT_EQ(log.newest(0).step, 2500u);
    EXPECT_EQ(log.newest(1).step, 2499u);
    EXPECT_EQ(log.newest(ImpactLog::kCapacity - 1).step, 501u);
}

TEST(ImpactLog, AStepAddedAgainReplacesItsRecordsAndLaterOnes) {
    // A reset (back to step 0) or a rewind: the steps come again, so their old records go.
    ImpactLog log;
    for (std::uint64_t step = 1; step <= 10; ++step) {
        const ImpactRecord two[2] = {recordAt(step, 0), recordAt(step, 1)};
        log.add(two, step);
    }
    ASSERT_EQ(log.size(), 20u);
    const ImpactRecord again = recordAt(7, 5);
    log.add({&again, 1}, 7);
    ASSERT_EQ(log.size(), 13u);
    EXPECT_EQ(log.newest(0).body, 5);
    EXPECT_EQ(log.newest(1).step, 6u);
    log.forgetAfter(3);
    EXPECT_EQ(log.size(), 6u);
    EXPECT_EQ(log.newest(0).step, 3u);
    log.forgetAfter(0);
    EXPECT_TRUE(log.empty());
    // A full ring that forgets its newest refills the freed slots in order.
    for (std::uint64_t step = 1; step <= 2100; ++step) {
        const ImpactRecord r = recordAt(step);
        log.add({&r, 1}, step);
    }
    log.forgetAfter(2050);
    for (std::uint64_t step = 2051; step <= 2060; ++step) {
        const ImpactRecord r = recordAt(step, 9);
        log.add({&r, 1}, step);
    }
    ASSERT_EQ(log.size(), 1960u); // steps 101 to 2060
    EXPECT_EQ(log.newest(log.size() - 1).step, 101u);
    for (std::size_t i = 0; i + 1 < log.size(); ++i)
        ASSERT_EQ(log.newest(i).step, log.newest(i + 1).step + 1) << i;
    EXPECT_EQ(log.newest(0).body, 9);
}

/// A ball 1 cm from the wall x = 5 at 2 m/s, a second ball and a box far away: one step.
World wallWorld() {
    World world(boxRoom(glm::vec3(10.0f)));
    BodyDesc d;
    d.name = "red ball";
    d.position = {4.49f, 0, 0};
    d.velocity = {2, 0, 0};
    d.mass = 1.0f;
    world.addBody(d);
    d.name = "crate";
    d.shape = ShapeType::Box;
    d.position = {-4.489f, 2, 0};
    d.velocity = {-2, 0, 0};
    world.addBody(d);
    return world;
}

TEST(ImpactView, RowsNameTheBodyAndTheWallOrTheOtherBody) {
    World world = wallWorld();
    world.step();
    ASSERT_EQ(world.impacts().size(), 2u);
    const ImpactRecord& ball = world.impacts()[0].body == 0 ? world.impacts()[0] : world.impacts()[1];
    EXPECT_EQ(impactBodyName(world, ball), "red ball");
    EXPECT_EQ(impactPartnerName(world, ball), "wall " + std::to_string(ball.partner.index));
    EXPECT_TRUE(involvesBody(ball, 0));
    EXPECT_FALSE(involvesBody(ball, 1));
    EXPECT_FALSE(involvesBody(ball, -1));
    const ImpactRecord pair = recordAt(1, 0, Partner::body(1));
    EXPECT_EQ(impactPartnerName(world, pair), "crate");
    EXPECT_TRUE(involvesBody(pair, 1));
    EXPECT_EQ(impactPartnerName(world, recordAt(1, 0, Partner::body(7))), "body 7");
    EXPECT_EQ(impactBodyName(world, recordAt(1, 9)), "body 9");
}

bool anyLineHas(const std::vector<std::string>& lines, const std::string& text) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

TEST(ImpactView, WhyHereGivesTheRootOfABallAndTheIterationsOfABox) {
    World world = wallWorld();
    world.step();
    ASSERT_EQ(world.impacts().size(), 2u);
    const ImpactRecord& ball = world.impacts()[0].body == 0 ? world.impacts()[0] : world.impacts()[1];
    const ImpactRecord& crate = world.impacts()[0].body == 1 ? world.impacts()[0] : world.impacts()[1];

    const std::vector<std::string> root = whyHereLines({ball, world.explainImpact(ball)});
    EXPECT_TRUE(anyLineHas(root, "exact linear root")) << root.front();
    EXPECT_TRUE(anyLineHas(root, "v = 2.0000 m/s"));
    EXPECT_TRUE(anyLineHas(root, "t = 5.000")) << root.back();
    EXPECT_TRUE(anyLineHas(root, "ms into step 1"));

    const std::vector<std::string> box = whyHereLines({crate, world.explainImpact(crate)});
    EXPECT_TRUE(anyLineHas(box, "conservative advancement"));
    EXPECT_TRUE(anyLineHas(box, "closing speed bound 2.0000 m/s"));
    EXPECT_TRUE(anyLineHas(box, "converged"));
    // The iterations' table: its header and one row per iteration.
    const auto header = std::find_if(box.begin(), box.end(), [](const std::string& l) {
        return l.find("advance (ms)") != std::string::npos;
    });
    ASSERT_NE(header, box.end());
    EXPECT_EQ(std::count_if(
                  header + 1, box.end(),
                  [](const std::string& l) { return l.rfind("  1 ", 0) == 0 || l.rfind("  2 ", 0) == 0; }),
              2);

    // A record of bodies this world does not have explains nothing.
    World empty(boxRoom(glm::vec3(10.0f)));
    EXPECT_EQ(whyHereLines({ball, empty.explainImpact(ball)}).size(), 1u);
}

bool hasColour(const std::vector<LabVertex>& lines, const glm::vec3& colour) {
    return std::any_of(lines.begin(), lines.end(), [&](const LabVertex& v) { return v.color == colour; });
}

TEST(ImpactView, ThePictureHasThePointTheNormalBothVelocitiesAndTheWall) {
    World world = wallWorld();
    world.step();
    const ImpactRecord& ball = world.impacts()[0].body == 0 ? world.impacts()[0] : world.impacts()[1];
    LabCanvas canvas;
    canvas.eye = {0, 0, 14};
    drawImpact(world, ball, canvas);
    for (const glm::vec3& colour : {kImpactPointColor, kImpactNormalColor, kImpactBeforeColor,
                                    kImpactAfterColor, kImpactPartnerColor}) {
        EXPECT_TRUE(hasColour(canvas.topLines, colour)) << colour.x << " " << colour.y << " " << colour.z;
    }
    EXPECT_TRUE(hasColour(canvas.lines, kImpactBodyColor)); // the ball where it was
    // The wall's polygon: its four edges lie in the plane x = 5.
    int wallVertices = 0;
    for (const LabVertex& v : canvas.topLines) {
        if (v.color != kImpactPartnerColor) continue;
        EXPECT_FLOAT_EQ(v.position.x, 5.0f);
        ++wallVertices;
    }
    EXPECT_EQ(wallVertices, 8);
    // The velocity before points at the wall, after away from it.
    for (const LabVertex& v : canvas.topLines) {
        if (v.color == kImpactBeforeColor) {
            EXPECT_GE(v.position.x, ball.bodyPose.position.x - 1e-3f);
        }
        if (v.color == kImpactAfterColor) {
            EXPECT_LE(v.position.x, ball.bodyPose.position.x + 1e-3f);
        }
    }
    // Out of range: nothing.
    LabCanvas none;
    drawImpact(world, recordAt(1, 5), none);
    EXPECT_TRUE(none.lines.empty() && none.topLines.empty());
}

TEST(ImpactView, ThePictureOfTwoBallsOutlinesThePartnerWhereItWas) {
    World world(boxRoom(glm::vec3(10.0f)));
    BodyDesc d;
    d.position = {-0.51f, 0, 0};
    d.velocity = {2, 0, 0};
    world.addBody(d);
    d.position = {0.51f, 0, 0};
    d.velocity = {-2, 0, 0};
    world.addBody(d);
    world.step();
    ASSERT_EQ(world.impacts().size(), 1u);
    LabCanvas canvas;
    drawImpact(world, world.impacts()[0], canvas);
    float nearest = INFINITY; // the partner's outline lies on its sphere at the impact, centre x = 0.5
    for (const LabVertex& v : canvas.lines) {
        if (v.color != kImpactPartnerColor) continue;
        nearest = std::min(nearest, std::abs(glm::distance(v.position, glm::vec3(0.5f, 0, 0)) - 0.5f));
    }
    EXPECT_LT(nearest, 1e-3f);
}

} // namespace
