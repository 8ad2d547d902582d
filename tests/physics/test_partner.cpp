// Tests for physics/partner.hpp: the tagged partner index, its pair key, and ContactInfo's view
// of its bodyB / wall / obstacle fields as a Partner.
#include "physics/partner.hpp"
#include "physics/world.hpp"

#include <gtest/gtest.h>

namespace {

using kz::Partner;

TEST(Partner, EachKindNamesItsOwnList) {
    EXPECT_TRUE(Partner::body(3).isBody());
    EXPECT_TRUE(Partner::wall(3).isWall());
    EXPECT_TRUE(Partner::obstacle(3).isObstacle());
    EXPECT_NE(Partner::body(3), Partner::wall(3));
    EXPECT_NE(Partner::wall(3), Partner::obstacle(3));
    EXPECT_EQ(Partner::obstacle(3), Partner::obstacle(3));
}

TEST(Partner, PairKeysDifferByKindAndIndexAndSortByTheFirstBody) {
    EXPECT_NE(kz::pairKey(1, Partner::body(2)), kz::pairKey(1, Partner::wall(2)));
    EXPECT_NE(kz::pairKey(1, Partner::wall(2)), kz::pairKey(1, Partner::obstacle(2)));
    EXPECT_NE(kz::pairKey(1, Partner::body(2)), kz::pairKey(1, Partner::body(3)));
    EXPECT_LT(kz::pairKey(1, Partner::wall(5)), kz::pairKey(2, Partner::body(3)));
}

TEST(Partner, AContactInfoNamesItsPartnerByWhichFieldIsSet) {
    kz::ContactInfo c{};
    c.bodyA = 0;
    c.bodyB = 4;
    c.wall = -1;
    EXPECT_EQ(c.partner(), Partner::body(4));
    c.bodyB = -1;
    c.wall = 2;
    EXPECT_EQ(c.partner(), Partner::wall(2));
    c.wall = -1;
    c.obstacle = 1;
    EXPECT_EQ(c.partner(), Partner::obstacle(1));
}

} // namespace
