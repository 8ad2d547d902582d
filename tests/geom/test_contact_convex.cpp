// Tests for geom/contact_convex.hpp: contactConvexConvex against the closed forms where the shapes
// are those (contactObbObb on shallow box pairs, contactSphereSphere, contactSphereObb), resting
// scenes whose manifold is known (boxes, cylinders, capsules, hulls), and on random overlapping
// pairs of every kind the defining properties: a unit normal, 1 to 4 points, depths >= 0 and at
// most the manifold's, no NaN, and every point on both shapes (GJK distances of the point on B and
// of the matching point on A, pointB - depth * normal, within 1e-4 of the size, and outside each
// shape a step further along the normal).
#include "geom/convex_reference.hpp"
#include "geom/geom.hpp"
#include "support/geom_print.hpp"
#include "support/geom_random.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace kz;
using namespace kz::test;

constexpr unsigned kSeed = 3435u;
const glm::mat3 kIdentity(1.0f);

std::string str(const Manifold& m) {
    std::ostringstream os;
    os << "normal " << kz::test::str(glm::dvec3(m.normal)) << " depth " << m.depth << " count " << m.count;
    for (int i = 0; i < m.count; ++i)
        os << "\n  " << kz::test::str(glm::dvec3(m.points[std::size_t(i)].position)) << " depth "
           << m.points[std::size_t(i)].depth;
    return os.str();
}
using kz::test::str;

/// An upper bound on the shape's extent from its centre (the tolerances' unit).
float sizeOf(const ConvexShape& s) {
    if (const auto* q = std::get_if<Sphere>(&s)) return q->radius;
    if (const auto* q = std::get_if<Obb>(&s)) return glm::length(q->half);
    if (const auto* q = std::get_if<Capsule>(&s)) return 0.5f * glm::length(q->b - q->a) + q->radius;
    if (const auto* q = std::get_if<Cylinder>(&s)) return 0.5f * glm::length(q->b - q->a) + q->radius;
    const auto& h = std::get<PosedHull>(s);
    float r = 0.0f;
    for (const glm::vec3& v : h.hull->vertices)
        r = std::max(r, glm::length(h.orientation * v));
    return r;
}

ConvexShape moved(const ConvexShape& s, const glm::vec3& offset) {
    ConvexShape out = s;
    if (auto* sphere = std::get_if<Sphere>(&out))
        sphere->center += offset;
    else if (auto* box = std::get_if<Obb>(&out))
        box->center += offset;
    else if (auto* capsule = std::get_if<Capsule>(&out))
        capsule->a += offset, capsule->b += offset;
    else if (auto* cylinder = std::get_if<Cylinder>(&out))
        cylinder->a += offset, cylinder->b += offset;
    else
        std::get<PosedHull>(out).position += offset;
    return out;
}

double pointDistance(const glm::vec3& p, const ConvexShape& s) {
    return closestPtConvexConvex(Sphere{p, 0.0f}, s).distance;
}

/// The properties every manifold has; `tolerance` in units of the larger shape's size.
void expectSane(const ConvexShape& a, const ConvexShape& b, const Manifold& m, double tolerance = 1e-4) {
    const double size = std::max(sizeOf(a), sizeOf(b));
    ASSERT_TRUE(isFinite(m.normal) && std::isfinite(m.depth));
    EXPECT_NEAR(glm::length(m.normal), 1.0f, 1e-5f);
    ASSERT_GE(m.count, 1);
    ASSERT_LE(m.count, 4);
    EXPECT_GE(m.depth, 0.0f);
    float deepest = 0.0f;
    for (int i = 0; i < m.count; ++i) {
        const ContactPoint& p = m.points[std::size_t(i)];
        ASSERT_TRUE(isFinite(p.position) && std::isfinite(p.depth));
        EXPECT_GE(p.depth, 0.0f);
        deepest = std::max(deepest, p.depth);
        // On B's surface, and its partner pointB - depth * normal on A's: inside (or on) each
        // shape, and outside it a step further out along the normal (a step in of B, out of A).
        const glm::vec3 onA = p.position - p.depth * m.normal;
        const float step = 0.01f * float(size);
        EXPECT_LE(pointDistance(p.position, b), tolerance * size) << "point " << i << " off B";
        EXPECT_LE(pointDistance(onA, a), tolerance * size) << "point " << i << " - depth * normal off A";
        EXPECT_GE(pointDistance(p.position + step * m.normal, b), 0.1 * step) << "point " << i << " inside B";
        EXPECT_GE(pointDistance(onA - step * m.normal, a), 0.1 * step) << "point " << i << " inside A";
    }
    EXPECT_EQ(m.depth, deepest);
    const EpaResult epa = penetrationConvexConvex(a, b);
    EXPECT_NEAR(m.depth, epa.depth, tolerance * size) << "the deepest point is EPA's depth";
}

/// A pair touching along u (A moved from B's centre along u until it just touches B), then
/// pushed back into B by `depth` along u.
ConvexShape placedAgainst(const ConvexShape& a, const ConvexShape& b, const glm::vec3& from,
                          const glm::dvec3& u, double depth) {
    double lo = 0.0, hi = 4.0 * double(sizeOf(a) + sizeOf(b));
    for (int i = 0; i < 60; ++i) {
        const double mid = 0.5 * (lo + hi);
        (testConvexConvex(moved(a, from + glm::vec3(mid * u)), b) ? lo : hi) = mid;
    }
    return moved(a, from + glm::vec3((lo - depth) * u));
}

/// The box's shape centred at the origin, for placedAgainst.
glm::vec3 centreOf(const ConvexShape& s) {
    if (const auto* q = std::get_if<Sphere>(&s)) return q->center;
    if (const auto* q = std::get_if<Obb>(&s)) return q->center;
    if (const auto* q = std::get_if<Capsule>(&s)) return 0.5f * (q->a + q->b);
    if (const auto* q = std::get_if<Cylinder>(&s)) return 0.5f * (q->a + q->b);
    return std::get<PosedHull>(s).position;
}

/// The least-penetrated of the 15 separating axes of two boxes (in double, each gap divided by
/// its axis's length), the runner-up's separation, and whether the best is a face axis.
struct LeastAxis {
    glm::dvec3 axis; ///< Unit, from B toward A.
    double separation;
    double runnerUp;
    bool face;
};

LeastAxis leastAxis(const Obb& a, const Obb& b) {
    std::vector<std::pair<glm::dvec3, bool>> axes;
    for (int i = 0; i < 3; ++i) {
        axes.emplace_back(glm::dvec3(a.axes[i]), true);
        axes.emplace_back(glm::dvec3(b.axes[i]), true);
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const glm::dvec3 c = glm::cross(glm::dvec3(a.axes[i]), glm::dvec3(b.axes[j]));
            if (glm::length(c) > 1e-3) axes.emplace_back(glm::normalize(c), false);
        }
    const auto radius = [](const Obb& o, const glm::dvec3& l) {
        double r = 0.0;
        for (int k = 0; k < 3; ++k)
            r += double(o.half[k]) * std::abs(glm::dot(glm::dvec3(o.axes[k]), l));
        return r;
    };
    LeastAxis best{{}, -INFINITY, -INFINITY, false};
    const glm::dvec3 t = glm::dvec3(a.center) - glm::dvec3(b.center);
    for (const auto& [l, face] : axes) {
        const double separation = std::abs(glm::dot(t, l)) - radius(a, l) - radius(b, l);
        if (separation > best.separation) {
            best.runnerUp = best.separation;
            best = {glm::dot(t, l) < 0.0 ? -l : l, separation, best.runnerUp, face};
        } else {
            best.runnerUp = std::max(best.runnerUp, separation);
        }
    }
    return best;
}

/// Whether every point of `m` has a point of `ref` within `tolerance` (position and depth).
bool samePoints(const Manifold& m, const Manifold& ref, float tolerance) {
    if (m.count != ref.count) return false;
    for (int i = 0; i < m.count; ++i) {
        bool found = false;
        for (int j = 0; j < ref.count; ++j) {
            const ContactPoint &p = m.points[std::size_t(i)], &q = ref.points[std::size_t(j)];
            found = found || (glm::length(p.position - q.position) <= tolerance &&
                              std::abs(p.depth - q.depth) <= tolerance);
        }
        if (!found) return false;
    }
    return true;
}

TEST(ContactConvexConvex, BoxPairsMatchContactObbObbOnShallowOverlaps) {
    std::mt19937 rng(kSeed);
    int compared = 0, faceCompared = 0;
    constexpr int kPairs = 4000;
    for (int i = 0; i < kPairs; ++i) {
        const Obb b = randomObb(rng, 2.0f, 0.2f, 2.0f);
        Obb a = randomObb(rng, 0.0f, 0.2f, 2.0f);
        const float minHalf = std::min({a.half.x, a.half.y, a.half.z, b.half.x, b.half.y, b.half.z});
        const double depth = double(uniform(rng, 0.002f, 0.1f) * minHalf);
        a = std::get<Obb>(placedAgainst(a, b, b.center, randomUnit(rng), depth));
        const float size = std::max(glm::length(a.half), glm::length(b.half));
        const auto m = contactConvexConvex(a, b);
        const auto ref = contactObbObb(a, b);
        ASSERT_TRUE(m && ref) << "pair " << i;
        expectSane(a, b, *m);
        // Compare where contactObbObb picks the least-penetrated axis and no other axis is as good.
        const LeastAxis least = leastAxis(a, b);
        if (least.separation - least.runnerUp < 1e-3 * size) continue;
        if (glm::dot(glm::dvec3(ref->normal), least.axis) < 1.0 - 1e-8) continue;
        ++compared;
        EXPECT_GT(glm::dot(glm::dvec3(m->normal), least.axis), 0.0) << "pair " << i;
        EXPECT_LT(glm::length(glm::cross(glm::dvec3(m->normal), least.axis)), 1e-4) << "pair " << i;
        if (!least.face) continue;
        ++faceCompared;
        EXPECT_TRUE(samePoints(*m, *ref, 1e-4f * size)) << "pair " << i << "\n"
                                                        << str(*m) << "\nvs contactObbObb\n"
                                                        << str(*ref);
    }
    std::printf("compared %d of %d pairs (%d face contacts)\n", compared, kPairs, faceCompared);
    EXPECT_GT(compared, kPairs / 2);
    EXPECT_GT(faceCompared, kPairs / 4);
}

TEST(ContactConvexConvex, SpherePairsMatchTheClosedForm) {
    std::mt19937 rng(kSeed + 1);
    for (int i = 0; i < 3000; ++i) {
        const Sphere b{randomPoint(rng, 5.0f), uniform(rng, 0.1f, 3.0f)};
        const Sphere a{b.center + glm::vec3(randomUnit(rng)) * uniform(rng, 0.05f, 0.999f) * 2.0f *
                                      std::min(b.radius, 1.0f),
                       uniform(rng, 0.1f, 3.0f)};
        const auto m = contactConvexConvex(a, b);
        const auto ref = contactSphereSphere(a, b);
        ASSERT_EQ(m.has_value(), ref.has_value()) << "pair " << i;
        if (!ref) continue;
        const float size = std::max(a.radius, b.radius);
        ASSERT_EQ(m->count, 1);
        EXPECT_LT(glm::length(m->normal - ref->normal), 1e-5f) << "pair " << i;
        EXPECT_NEAR(m->depth, ref->depth, 1e-5f * size);
        EXPECT_LT(glm::length(m->points[0].position - ref->points[0].position), 1e-5f * size);
        expectSane(a, b, *m);
    }
}

TEST(ContactConvexConvex, SphereBoxPairsMatchTheClosedFormInBothOrders) {
    std::mt19937 rng(kSeed + 2);
    int compared = 0;
    for (int i = 0; i < 3000; ++i) {
        const Obb box = randomObb(rng, 3.0f, 0.2f, 2.0f);
        Sphere sphere{{}, uniform(rng, 0.1f, 2.0f)};
        sphere = std::get<Sphere>(placedAgainst(sphere, box, box.center, randomUnit(rng),
                                                double(uniform(rng, 0.001f, 1.5f) * sphere.radius)));
        // The closed form's direction is centre minus closest point, in float: skip centres near
        // the surface (where that difference is mostly rounding) and, inside the box, near-ties of
        // two faces (where either face is right).
        const glm::vec3 local = glm::transpose(box.axes) * (sphere.center - box.center);
        const glm::vec3 gaps = box.half - glm::abs(local);
        const float boxSize = glm::length(box.half);
        if (glm::all(glm::greaterThan(gaps, glm::vec3(0.0f)))) {
            std::array<float, 3> g{gaps.x, gaps.y, gaps.z};
            std::sort(g.begin(), g.end());
            if (g[1] - g[0] < 1e-3f * boxSize || g[0] < 0.05f * boxSize) continue;
        } else if (glm::length(glm::max(-gaps, glm::vec3(0.0f))) < 0.05f * boxSize) {
            continue;
        }
        const auto ref = contactSphereObb(sphere, box);
        const auto m = contactConvexConvex(sphere, box);
        const auto swapped = contactConvexConvex(box, sphere);
        ASSERT_TRUE(ref && m && swapped) << "pair " << i;
        ++compared;
        const float size = std::max(sphere.radius, glm::length(box.half));
        ASSERT_EQ(m->count, 1);
        EXPECT_LT(glm::length(m->normal - ref->normal), 1e-4f) << "pair " << i;
        EXPECT_NEAR(m->depth, ref->depth, 1e-5f * size);
        EXPECT_LT(glm::length(m->points[0].position - ref->points[0].position), 1e-4f * size);
        expectSane(sphere, box, *m);
        // Box against sphere: the opposite normal, the point on the sphere (A's point of the other).
        ASSERT_EQ(swapped->count, 1);
        EXPECT_LT(glm::length(swapped->normal + ref->normal), 1e-4f) << "pair " << i;
        EXPECT_NEAR(swapped->depth, ref->depth, 1e-5f * size);
        const glm::vec3 onSphere = ref->points[0].position - ref->depth * ref->normal;
        EXPECT_LT(glm::length(swapped->points[0].position - onSphere), 1e-4f * size);
        expectSane(box, sphere, *swapped);
    }
    EXPECT_GT(compared, 2000);
}

/// Whether the manifold holds a point within 1e-5 of `p` with depth `depth`.
bool hasPoint(const Manifold& m, const glm::vec3& p, float depth) {
    for (int i = 0; i < m.count; ++i) {
        const ContactPoint& q = m.points[std::size_t(i)];
        if (glm::length(q.position - p) < 1e-5f && std::abs(q.depth - depth) < 1e-5f) return true;
    }
    return false;
}

TEST(ContactConvexConvex, BoxRestingFlatOnABoxHasItsFourBottomCorners) {
    const Obb floor{{0.0f, -1.0f, 0.0f}, {5.0f, 1.0f, 5.0f}, kIdentity};
    const Obb box{{0.5f, 0.49f, -0.25f}, {0.5f, 0.5f, 0.5f}, kIdentity};
    const auto m = contactConvexConvex(box, floor);
    ASSERT_TRUE(m);
    expectSane(box, floor, *m);
    EXPECT_EQ(m->normal, glm::vec3(0.0f, 1.0f, 0.0f));
    ASSERT_EQ(m->count, 4);
    EXPECT_NEAR(m->depth, 0.01f, 1e-6f);
    for (const float x : {0.0f, 1.0f})
        for (const float z : {-0.75f, 0.25f})
            EXPECT_TRUE(hasPoint(*m, {x, 0.0f, z}, 0.01f)) << x << " " << z << "\n" << str(*m);
    // The same boxes the other way round: the normal flips, the points lie on the box's bottom.
    const auto flipped = contactConvexConvex(floor, box);
    ASSERT_TRUE(flipped);
    EXPECT_EQ(flipped->normal, glm::vec3(0.0f, -1.0f, 0.0f));
    ASSERT_EQ(flipped->count, 4);
    EXPECT_TRUE(hasPoint(*flipped, {0.0f, -0.01f, -0.75f}, 0.01f)) << str(*flipped);
}

TEST(ContactConvexConvex, TouchingBoxesGiveFourPointsOfDepthZero) {
    const Obb floor{{0.0f, -1.0f, 0.0f}, {5.0f, 1.0f, 5.0f}, kIdentity};
    const Obb box{{0.0f, 0.5f, 0.0f}, {0.5f, 0.5f, 0.5f}, kIdentity};
    const auto m = contactConvexConvex(box, floor);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->count, 4);
    EXPECT_EQ(m->depth, 0.0f);
    expectSane(box, floor, *m);
    EXPECT_FALSE(contactConvexConvex(moved(box, {0.0f, 1e-3f, 0.0f}), floor));
}

TEST(ContactConvexConvex, CylinderStandingOnABoxHasFourRimPointsSpanningItsCap) {
    const Obb floor{{0.0f, -1.0f, 0.0f}, {5.0f, 1.0f, 5.0f}, kIdentity};
    const Cylinder cylinder = cylinderFromPose({1.0f, 0.99f, 2.0f}, kIdentity, 1.0f, 0.5f);
    const auto m = contactConvexConvex(cylinder, floor);
    ASSERT_TRUE(m);
    expectSane(cylinder, floor, *m);
    EXPECT_EQ(m->normal, glm::vec3(0.0f, 1.0f, 0.0f));
    ASSERT_EQ(m->count, 4);
    for (int i = 0; i < 4; ++i) {
        const glm::vec3 p = m->points[std::size_t(i)].position;
        EXPECT_NEAR(p.y, 0.0f, 1e-6f);
        EXPECT_NEAR(glm::length(glm::vec2(p.x - 1.0f, p.z - 2.0f)), 0.5f, 1e-5f);
        EXPECT_NEAR(m->points[std::size_t(i)].depth, 0.01f, 1e-5f);
        // A square on the rim: each point has two neighbours at r sqrt 2 and one at 2r.
        for (int j = i + 1; j < 4; ++j)
            EXPECT_GT(glm::length(p - m->points[std::size_t(j)].position), 0.7f);
    }
    // On its other cap (upside down), and with the box as A.
    const Cylinder flipped{cylinder.b, cylinder.a, cylinder.radius};
    EXPECT_EQ(contactConvexConvex(flipped, floor)->count, 4);
    const auto swapped = contactConvexConvex(floor, cylinder);
    ASSERT_TRUE(swapped);
    EXPECT_EQ(swapped->count, 4);
    EXPECT_EQ(swapped->normal, glm::vec3(0.0f, -1.0f, 0.0f));
    expectSane(floor, cylinder, *swapped);
}

TEST(ContactConvexConvex, TiltedCylinderOnABoxTouchesAtItsDeepestRimPoint) {
    const Obb floor{{0.0f, -1.0f, 0.0f}, {5.0f, 1.0f, 5.0f}, kIdentity};
    const glm::mat3 tilt(rotationAbout({1.0, 0.0, 0.3}, 0.4));
    const Cylinder cylinder = std::get<Cylinder>(
        placedAgainst(cylinderFromPose({}, tilt, 1.0f, 0.5f), floor, floor.center, {0.0, 1.0, 0.0}, 0.005));
    const auto m = contactConvexConvex(cylinder, floor);
    ASSERT_TRUE(m);
    expectSane(cylinder, floor, *m);
    ASSERT_EQ(m->count, 1) << str(*m);
    EXPECT_NEAR(m->depth, 0.005f, 1e-5f);
}

TEST(ContactConvexConvex, CylinderLyingOnABoxHasTwoPointsAlongItsSide) {
    const Obb floor{{0.0f, -1.0f, 0.0f}, {5.0f, 1.0f, 5.0f}, kIdentity};
    const Cylinder cylinder{{-1.0f, 0.49f, 0.5f}, {1.0f, 0.49f, 0.5f}, 0.5f};
    for (const bool swap : {false, true}) {
        const auto m = swap ? contactConvexConvex(floor, cylinder) : contactConvexConvex(cylinder, floor);
        ASSERT_TRUE(m);
        swap ? expectSane(floor, cylinder, *m) : expectSane(cylinder, floor, *m);
        ASSERT_EQ(m->count, 2) << str(*m);
        const float onB = swap ? -0.01f : 0.0f; // on the cylinder's side, or on the box's face
        EXPECT_TRUE(hasPoint(*m, {-1.0f, onB, 0.5f}, 0.01f)) << str(*m);
        EXPECT_TRUE(hasPoint(*m, {1.0f, onB, 0.5f}, 0.01f)) << str(*m);
    }
}

TEST(ContactConvexConvex, CapsuleLyingFlatHasTwoPointsAndStandingOne) {
    const Obb floor{{0.0f, -1.0f, 0.0f}, {5.0f, 1.0f, 5.0f}, kIdentity};
    const Capsule lying{{0.0f, 0.28f, -1.0f}, {0.0f, 0.28f, 1.0f}, 0.3f};
    const auto m = contactConvexConvex(lying, floor);
    ASSERT_TRUE(m);
    expectSane(lying, floor, *m);
    ASSERT_EQ(m->count, 2) << str(*m);
    EXPECT_TRUE(hasPoint(*m, {0.0f, 0.0f, -1.0f}, 0.02f)) << str(*m);
    EXPECT_TRUE(hasPoint(*m, {0.0f, 0.0f, 1.0f}, 0.02f)) << str(*m);

    const Capsule standing = capsuleFromPose({0.5f, 1.28f, 0.0f}, kIdentity, 1.0f, 0.3f);
    const auto s = contactConvexConvex(standing, floor);
    ASSERT_TRUE(s);
    expectSane(standing, floor, *s);
    ASSERT_EQ(s->count, 1);
    EXPECT_TRUE(hasPoint(*s, {0.5f, 0.0f, 0.0f}, 0.02f)) << str(*s);

    // Two parallel capsules side by side: the line where they press, two points.
    const Capsule beside{{0.55f, 0.28f, -0.5f}, {0.55f, 0.28f, 1.5f}, 0.3f};
    const auto pair = contactConvexConvex(beside, lying);
    ASSERT_TRUE(pair);
    expectSane(beside, lying, *pair);
    EXPECT_EQ(pair->count, 2) << str(*pair);
    EXPECT_TRUE(hasPoint(*pair, {0.3f, 0.28f, -0.5f}, 0.05f)) << str(*pair);
    EXPECT_TRUE(hasPoint(*pair, {0.3f, 0.28f, 1.0f}, 0.05f)) << str(*pair);
}

/// The hull of `points`, kept alive by the caller.
std::shared_ptr<ConvexHull> hullOf(const std::vector<glm::vec3>& points) {
    auto built = buildConvexHull(points);
    EXPECT_TRUE(built.hull) << built.error;
    return std::make_shared<ConvexHull>(std::move(*built.hull));
}

/// A prism of `sides` corners round the y axis, radius r, from y = -h to h.
std::vector<glm::vec3> prismPoints(int sides, float r, float h) {
    std::vector<glm::vec3> points;
    for (int i = 0; i < sides; ++i) {
        const double angle = 2.0 * std::numbers::pi * i / sides;
        for (const float y : {-h, h})
            points.emplace_back(r * float(std::cos(angle)), y, r * float(std::sin(angle)));
    }
    return points;
}

TEST(ContactConvexConvex, HullOnHullFaceContact) {
    const auto slab = hullOf(prismPoints(4, 4.0f, 1.0f));
    const auto hexagon = hullOf(prismPoints(6, 0.5f, 0.5f));
    const PosedHull floor{slab.get(), {0.0f, -1.0f, 0.0f}, kIdentity};
    const PosedHull piece{hexagon.get(), {0.2f, 0.48f, 0.1f}, kIdentity};
    const auto m = contactConvexConvex(piece, floor);
    ASSERT_TRUE(m);
    expectSane(piece, floor, *m);
    EXPECT_LT(glm::length(m->normal - glm::vec3(0.0f, 1.0f, 0.0f)), 1e-6f);
    ASSERT_EQ(m->count, 4) << str(*m); // 6 corners reduced to 4
    for (int i = 0; i < 4; ++i) {
        const glm::vec3 p = m->points[std::size_t(i)].position;
        EXPECT_NEAR(p.y, 0.0f, 1e-5f);
        EXPECT_NEAR(glm::length(glm::vec2(p.x - 0.2f, p.z - 0.1f)), 0.5f, 1e-5f);
        EXPECT_NEAR(m->points[std::size_t(i)].depth, 0.02f, 1e-5f);
    }
    // Scaled by 2 and mirrored in x: the faces follow the orientation.
    const PosedHull mirrored{hexagon.get(),
                             {0.2f, 0.98f, 0.1f},
                             glm::mat3(glm::vec3(-2.0f, 0, 0), glm::vec3(0, 2.0f, 0), glm::vec3(0, 0, 2.0f))};
    const auto big = contactConvexConvex(mirrored, floor);
    ASSERT_TRUE(big);
    expectSane(mirrored, floor, *big);
    EXPECT_EQ(big->count, 4) << str(*big);
    EXPECT_NEAR(big->depth, 0.02f, 1e-5f);
}

TEST(ContactConvexConvex, HullFaceOfManyCornersIsReadAtEvenlySpacedOnes) {
    // A 100-sided prism standing on a box: its bottom face has more than kMaxSupportingFaceVertices
    // corners; 64 of them, all on the rim, are clipped, and 4 spanning it are kept.
    static_assert(kMaxSupportingFaceVertices < 100);
    const auto prism = hullOf(prismPoints(100, 0.5f, 0.5f));
    ASSERT_EQ(prism->faces.size(), 102u);
    const Obb floor{{0.0f, -1.0f, 0.0f}, {5.0f, 1.0f, 5.0f}, kIdentity};
    const PosedHull standing{prism.get(), {0.0f, 0.49f, 0.0f}, kIdentity};
    const auto m = contactConvexConvex(standing, floor);
    ASSERT_TRUE(m);
    expectSane(standing, floor, *m);
    ASSERT_EQ(m->count, 4) << str(*m);
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(glm::length(m->points[std::size_t(i)].position), 0.5f, 1e-5f);
        for (int j = i + 1; j < 4; ++j)
            EXPECT_GT(glm::length(m->points[std::size_t(i)].position - m->points[std::size_t(j)].position),
                      0.65f);
    }
}

TEST(ContactConvexConvex, CrossedCapsulesOrCylindersTouchAtOnePoint) {
    const Capsule under{{-1.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 0.3f};
    const Capsule over{{0.0f, 0.55f, -1.0f}, {0.0f, 0.55f, 1.0f}, 0.3f};
    const auto m = contactConvexConvex(over, under);
    ASSERT_TRUE(m);
    expectSane(over, under, *m);
    ASSERT_EQ(m->count, 1);
    EXPECT_LT(glm::length(m->points[0].position - glm::vec3(0.0f, 0.3f, 0.0f)), 1e-6f) << str(*m);
    EXPECT_NEAR(m->depth, 0.05f, 1e-6f);
    const Cylinder lower{under.a, under.b, 0.3f}, upper{over.a, over.b, 0.3f};
    const auto c = contactConvexConvex(upper, lower);
    ASSERT_TRUE(c);
    expectSane(upper, lower, *c);
    EXPECT_EQ(c->count, 1) << str(*c);
}

TEST(ContactConvexConvex, InvalidInputOrShapesApartGiveNoManifold) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Obb box{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, kIdentity};
    EXPECT_FALSE(contactConvexConvex(Sphere{{nan, 0.0f, 0.0f}, 1.0f}, box));
    EXPECT_FALSE(contactConvexConvex(Sphere{{0.0f, 0.0f, 0.0f}, -1.0f}, box));
    EXPECT_FALSE(contactConvexConvex(box, Cylinder{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, 1.0f}));
    EXPECT_FALSE(contactConvexConvex(box, Capsule{{0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, INFINITY}));
    EXPECT_FALSE(contactConvexConvex(box, PosedHull{nullptr, {}, kIdentity}));
    EXPECT_FALSE(contactConvexConvex(box, Obb{{3.0f, 0.0f, 0.0f}, {0.5f, 0.5f, 0.5f}, kIdentity}));
}

/// A random shape of kind k (0 sphere, 1 box, 2 capsule, 3 cylinder, 4 hull), centred at the origin.
ConvexShape randomShape(std::mt19937& rng, int kind, std::vector<std::shared_ptr<ConvexHull>>& hulls,
                        std::optional<glm::mat3> pose = std::nullopt) {
    const glm::mat3 axes = pose ? *pose : glm::mat3(randomRotation(rng));
    const float r = uniform(rng, 0.1f, 1.5f), h = uniform(rng, 0.05f, 1.5f);
    switch (kind) {
    case 0:
        return Sphere{{}, r};
    case 1:
        return Obb{{}, {r, h, uniform(rng, 0.1f, 1.5f)}, axes};
    case 2:
        return capsuleFromPose({}, axes, h, r);
    case 3:
        return cylinderFromPose({}, axes, h, r);
    default: {
        std::vector<glm::vec3> points;
        const int n = 4 + int(rng() % 30);
        for (int i = 0; i < n; ++i)
            points.push_back(glm::vec3(randomUnit(rng)) * uniform(rng, 0.3f, 1.5f));
        // Centred on the points' mean (inside the hull), which placedAgainst starts from.
        glm::vec3 mean(0.0f);
        for (const glm::vec3& p : points)
            mean += p / float(n);
        for (glm::vec3& p : points)
            p -= mean;
        hulls.push_back(hullOf(points));
        return PosedHull{hulls.back().get(), {}, axes};
    }
    }
}

TEST(ContactConvexConvex, RandomOverlapsOfEveryKindGiveSaneManifolds) {
    std::mt19937 rng(kSeed + 3);
    std::vector<std::shared_ptr<ConvexHull>> hulls;
    std::array<int, 5> multiPoint{};
    for (int i = 0; i < 5000; ++i) {
        const int kindA = i % 5, kindB = (i / 5) % 5;
        const ConvexShape b = moved(randomShape(rng, kindB, hulls), randomPoint(rng, 3.0f));
        const ConvexShape a0 = randomShape(rng, kindA, hulls);
        const double depth = (i % 3 == 0 ? 0.0 : double(uniform(rng, 0.0f, 0.3f))) * sizeOf(a0);
        const ConvexShape a = placedAgainst(a0, b, centreOf(b), randomUnit(rng), depth);
        const auto m = contactConvexConvex(a, b);
        if (!m)
            std::printf("pair %d: overlap test %d, EPA overlap %d, GJK distance %g\n", i,
                        int(testConvexConvex(a, b)), int(penetrationConvexConvex(a, b).overlap),
                        double(closestPtConvexConvex(a, b).distance));
        ASSERT_TRUE(m) << "pair " << i << ": " << str(a) << " against " << str(b);
        SCOPED_TRACE("pair " + std::to_string(i));
        expectSane(a, b, *m);
        if (m->count > 1) ++multiPoint[std::size_t(kindA)];
        if (HasFailure()) {
            std::printf("%s\nagainst %s\n%s\n", str(a).c_str(), str(b).c_str(), str(*m).c_str());
            break;
        }
    }
    std::printf("multi-point manifolds per kind of A: %d %d %d %d %d\n", multiPoint[0], multiPoint[1],
                multiPoint[2], multiPoint[3], multiPoint[4]);
}

TEST(ContactConvexConvex, NearlyRestingPairsOfEveryKindGiveSaneManifolds) {
    // A turned as B, then tilted by up to 0.02 rad (exactly 0 for a third), one in four lying on
    // its side, pressed into B along B's local y axis: faces meet faces, the multi-point cases.
    std::mt19937 rng(kSeed + 4);
    std::vector<std::shared_ptr<ConvexHull>> hulls;
    int multiPoint = 0, polytopePairs = 0;
    for (int i = 0; i < 5000; ++i) {
        const int kindA = i % 5, kindB = (i / 5) % 5;
        const glm::dmat3 turn = randomRotation(rng);
        const glm::vec3 offset = randomPoint(rng, i % 7 == 0 ? 1000.0f : 3.0f);
        const ConvexShape b = moved(randomShape(rng, kindB, hulls, glm::mat3(turn)), offset);
        glm::dmat3 tilt =
            i % 3 == 0 ? glm::dmat3(1.0) : rotationAbout(randomUnit(rng), double(uniform(rng, 0.0f, 0.02f)));
        if (i % 4 == 1) tilt = tilt * rotationAbout({1.0, 0.0, 0.0}, std::numbers::pi / 2);
        const ConvexShape a0 = randomShape(rng, kindA, hulls, glm::mat3(turn * tilt));
        const double depth = double(uniform(rng, 0.0f, 0.05f)) * sizeOf(a0);
        const ConvexShape a = placedAgainst(a0, b, centreOf(b), turn[1], depth);
        const auto m = contactConvexConvex(a, b);
        ASSERT_TRUE(m) << "pair " << i << ": " << str(a) << " against " << str(b);
        SCOPED_TRACE("pair " + std::to_string(i));
        // Far from the origin, float coordinates of 1000 round at 6e-5: the tolerance follows.
        expectSane(a, b, *m, i % 7 == 0 ? 2e-4 : 1e-4);
        if (kindA != 0 && kindB != 0) ++polytopePairs, multiPoint += m->count > 1;
        if (HasFailure()) {
            std::printf("%s\nagainst %s\n%s\n", str(a).c_str(), str(b).c_str(), str(*m).c_str());
            break;
        }
    }
    std::printf("multi-point manifolds: %d of %d pairs without a sphere\n", multiPoint, polytopePairs);
    EXPECT_GT(multiPoint, polytopePairs / 3);
}

} // namespace
