// Tests for geom/explain_gjk.hpp: the GJK trace gives closestPtConvexConvex's answer (and, in its
// overlap mode, testConvexConvex's, the boolean GJK's for shapes without radii) to the bit on thousands of
// random pairs of every kind pair, touching, deep, far from the origin, of size ratio 1e-4 and coincident
// included, at every iteration cap; its iterations are consistent (the lower bound never falls, the upper
// bound only falls, lower <= upper, simplices of 1 to 4 points whose kept points carry the positive weights,
// each direction the previous nearest point reversed). The ray cast's trace gives raycastConvex's answer to
// the bit, with t never moving back. Invalid input gives a trace with InvalidInput and no iterations.
#include "geom/convex_trace_support.hpp"

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace {

using namespace kz;
using namespace kz::test;

constexpr unsigned kSeed = 3434u;

/// The trace's own consistency; returns "" or what is wrong.
std::string checkGjkTrace(const GjkTrace& t) {
    std::ostringstream why;
    if (int(t.iterations.size()) != t.result.iterations) why << "iteration count; ";
    if (t.iterations.empty() || int(t.iterations.size()) > t.maxIterations)
        why << "no or too many iterations; ";
    double lower = 0.0, upper = INFINITY;
    const GjkIteration* previous = nullptr;
    for (std::size_t k = 0; k < t.iterations.size(); ++k) {
        const GjkIteration& it = t.iterations[k];
        why << [&] {
            std::ostringstream at;
            if (!sameBits(it.w, it.supportA - it.supportB)) at << "w != a - b; ";
            if (previous && !sameBits(it.direction, -previous->v)) at << "direction != -previous v; ";
            if (it.lowerBound < lower || it.lowerBound < 0.0) at << "lower bound fell; ";
            if (it.lowerBound < it.gap) at << "lower bound below this gap; ";
            if (t.boolean) {
                // The boolean GJK: no upper bound, the points kept by the regions, no weights.
                if (it.upperBound != INFINITY && k + 1 != t.iterations.size()) at << "an upper bound; ";
                if (!it.weights.empty()) at << "weights; ";
                if (it.updated) {
                    if (it.tried.empty() || it.tried.size() > 4)
                        at << "tried size " << it.tried.size() << "; ";
                    if (it.simplex.size() != it.kept.size() || it.simplex.empty()) at << "kept; ";
                    for (std::size_t i = 0; i < it.kept.size() && i < it.simplex.size(); ++i)
                        if (!sameBits(it.tried[std::size_t(it.kept[i])].w, it.simplex[i].w))
                            at << "kept point " << i << "; ";
                    if (it.kept.empty() || it.kept.back() + 1 != int(it.tried.size()))
                        at << "the new point not kept last; ";
                } else if (k + 1 != t.iterations.size()) {
                    at << "only the last iteration may stop before its simplex; ";
                }
                return at.str();
            }
            if (it.upperBound > upper || (it.updated && !(it.upperBound < upper))) at << "upper bound rose; ";
            // The two bounds cross only by rounding, within the gap that ends the iteration.
            if (it.lowerBound - it.upperBound > std::max(kGjkTolerance * it.upperBound, t.tolerance))
                at << "lower " << it.lowerBound << " > upper " << it.upperBound << "; ";
            if (it.updated) {
                if (it.tried.empty() || it.tried.size() > 4) at << "tried size " << it.tried.size() << "; ";
                if (it.weights.size() != it.tried.size()) at << "weights; ";
                if (it.simplex.size() != it.kept.size() || it.simplex.empty()) at << "kept; ";
                double sum = 0.0;
                for (std::size_t i = 0; i < it.weights.size(); ++i) {
                    sum += it.weights[i];
                    if (it.weights[i] < 0.0) at << "negative weight; ";
                }
                if (std::abs(sum - 1.0) > 1e-9) at << "weights sum " << sum << "; ";
                for (std::size_t i = 0; i < it.kept.size() && i < it.simplex.size(); ++i) {
                    const GjkTracePoint& p = it.tried[std::size_t(it.kept[i])];
                    if (!(it.weights[std::size_t(it.kept[i])] > 0.0) || !sameBits(p.w, it.simplex[i].w))
                        at << "kept point " << i << "; ";
                }
                if (!sameBits(it.tried.back().w, it.w)) at << "tried's last point is not w; ";
                if (std::abs(glm::length(it.v) - it.upperBound) > 1e-12 * (1.0 + it.upperBound))
                    at << "|v| != upper bound; ";
            } else if (k + 1 != t.iterations.size()) {
                at << "only the last iteration may stop before its simplex; ";
            }
            return at.str();
        }();
        if (!why.str().empty()) {
            why << "at iteration " << k + 1;
            return why.str();
        }
        lower = it.lowerBound;
        upper = it.upperBound;
        previous = &it;
    }
    if (t.simplex.empty() || t.simplex.size() > 4) why << "final simplex size " << t.simplex.size() << "; ";
    if (!(t.lowerBound <= t.upperBound)) why << "final lower > upper; ";
    if (gjkStatusName(t.status) == gjkStatusName(GjkStatus::InvalidInput)) why << "invalid status; ";
    return why.str();
}

TEST(ExplainGjk, AgreesWithClosestPtConvexConvexToTheBitOnEveryPair) {
    const int perPair = convexPairCount(420);
    std::map<GjkStatus, int> statuses;
    forRandomPairs(perPair, kSeed, [&](const ConvexShape& a, const ConvexShape& b, const std::string& what) {
        const GjkTrace t = explainGjk(a, b);
        const GjkResult fast = closestPtConvexConvex(a, b);
        EXPECT_TRUE(sameBits(t.result, fast)) << what;
        EXPECT_EQ(t.overlap, fast.overlap) << what;
        EXPECT_EQ(t.status, fast.status) << what;
        EXPECT_EQ(checkGjkTrace(t), "") << what;
        ++statuses[t.status];
    });
    for (const auto& [status, count] : statuses)
        std::printf("%-18s %d\n", std::string(gjkStatusName(status)).c_str(), count);
    // The pairs reach both ends of a distance query (exact convergence on polytopes ends there
    // rather than on a repeated support point).
    EXPECT_GT(statuses[GjkStatus::Converged], 0);
    EXPECT_GT(statuses[GjkStatus::Overlapping], 0);
}

TEST(ExplainGjk, OverlapModeAgreesWithTestConvexConvex) {
    const int perPair = convexPairCount(200);
    std::map<GjkStatus, int> statuses;
    int boolean = 0, handedOver = 0;
    forRandomPairs(perPair, kSeed + 1000u,
                   [&](const ConvexShape& a, const ConvexShape& b, const std::string& what) {
                       const GjkTrace t = explainGjk(a, b, kGjkMaxIterations, GjkQuery::Overlap);
                       EXPECT_EQ(t.overlap, testConvexConvex(a, b)) << what;
                       EXPECT_EQ(t.query, GjkQuery::Overlap);
                       EXPECT_EQ(checkGjkTrace(t), "") << what;
                       EXPECT_EQ(t.overlap, closestPtConvexConvex(a, b).overlap) << what;
                       ++statuses[t.status];
                       ++(t.boolean ? boolean : handedOver);
                   });
    // The overlap test's own early exits are reached.
    EXPECT_GT(statuses[GjkStatus::SeparatingAxis], 0);
    EXPECT_GT(statuses[GjkStatus::WithinRadii], 0);
    // Shapes without radii run the boolean GJK; round ones (and touching pairs) the distance's.
    EXPECT_GT(boolean, 0);
    EXPECT_GT(handedOver, 0);
}

TEST(ExplainGjk, BooleanOverlapTestDecidesApartAndDeepAndHandsOverWhenTouching) {
    const Obb a{{0, 0, 0}, {1, 1, 1}, glm::mat3(1.0f)};
    const auto at = [](float x) { return Obb{{x, 0.3f, -0.2f}, {1, 1, 1}, glm::mat3(1.0f)}; };
    // 1e-3 apart: a support plane separates them, found by the boolean GJK itself.
    const GjkTrace apart = explainGjk(a, at(2.001f), kGjkMaxIterations, GjkQuery::Overlap);
    EXPECT_TRUE(apart.boolean);
    EXPECT_FALSE(apart.overlap);
    EXPECT_EQ(apart.status, GjkStatus::SeparatingAxis);
    EXPECT_GT(apart.lowerBound, apart.touching);
    // Deep: a tetrahedron of the difference around the origin, and a point both boxes contain.
    const GjkTrace deep = explainGjk(a, at(0.7f), kGjkMaxIterations, GjkQuery::Overlap);
    EXPECT_TRUE(deep.boolean);
    EXPECT_TRUE(deep.overlap);
    EXPECT_EQ(deep.status, GjkStatus::Overlapping);
    EXPECT_EQ(deep.iterations.back().simplex.size(), 4u);
    const glm::vec3 p = deep.result.pointA;
    EXPECT_LE(std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}), 1.0f + 1e-5f);
    EXPECT_LE(std::max({std::abs(p.x - 0.7f), std::abs(p.y - 0.3f), std::abs(p.z + 0.2f)}), 1.0f + 1e-5f);
    // Face to face, touching: exactly (the origin on a face of the difference: the boolean GJK
    // finds it on its simplex), or one float step apart (no plane separates them by more than the
    // tolerance and no simplex holds the origin: the distance iteration decides; touching counts).
    EXPECT_FALSE(explainGjk(a, at(std::nextafter(2.0f, 3.0f)), kGjkMaxIterations, GjkQuery::Overlap).boolean);
    // A lower cap steps the distance iteration's overlap mode, within that cap.
    const GjkTrace capped = explainGjk(a, at(0.7f), 2, GjkQuery::Overlap);
    EXPECT_FALSE(capped.boolean);
    EXPECT_LE(capped.iterations.size(), 2u);
    EXPECT_EQ(checkGjkTrace(capped), "");
    for (const float x : {2.0f, std::nextafter(2.0f, 3.0f)}) {
        const GjkTrace touching = explainGjk(a, at(x), kGjkMaxIterations, GjkQuery::Overlap);
        EXPECT_EQ(touching.overlap, closestPtConvexConvex(a, at(x)).overlap) << x;
        EXPECT_EQ(touching.overlap, testConvexConvex(a, at(x))) << x;
        EXPECT_TRUE(touching.overlap) << x;
        EXPECT_EQ(checkGjkTrace(touching), "") << x;
    }
}

TEST(ExplainGjk, EveryIterationCapGivesTheCappedAnswerToTheBit) {
    std::mt19937 rng(kSeed + 7u);
    for (int i = 0; i < 500; ++i) {
        const auto [a, b] = randomPair(rng, Kind(i % 5), Kind(i / 5 % 5), i);
        const int full = closestPtConvexConvex(a.shape, b.shape).iterations;
        for (int cap = 1; cap <= full; ++cap) {
            const GjkTrace t = explainGjk(a.shape, b.shape, cap);
            ASSERT_TRUE(sameBits(t.result, closestPtConvexConvex(a.shape, b.shape, cap)))
                << "i " << i << " cap " << cap;
            ASSERT_LE(int(t.iterations.size()), cap);
            ASSERT_EQ(t.maxIterations, cap);
            ASSERT_EQ(checkGjkTrace(t), "") << "i " << i << " cap " << cap;
        }
    }
}

TEST(ExplainGjk, SpheresApartConvergeOnTheSecondSupportPoint) {
    // Point cores: the first support pair is the centres, the second repeats it with a gap equal
    // to the distance, which converges.
    const GjkTrace t = explainGjk(Sphere{{0, 0, 0}, 1.0f}, Sphere{{5, 0, 0}, 0.5f});
    ASSERT_EQ(t.iterations.size(), 2u);
    EXPECT_EQ(t.iterations[0].direction, glm::dvec3(5, 0, 0)); // from A's core toward B's
    EXPECT_EQ(t.iterations[0].w, glm::dvec3(-5, 0, 0));
    EXPECT_EQ(t.iterations[0].gap, 5.0);
    EXPECT_TRUE(t.iterations[0].updated);
    EXPECT_EQ(t.iterations[0].upperBound, 5.0);
    EXPECT_FALSE(t.iterations[1].updated);
    EXPECT_EQ(t.status, GjkStatus::Converged);
    EXPECT_EQ(t.radiusA, 1.0);
    EXPECT_EQ(t.radiusB, 0.5);
    EXPECT_EQ(std::get<Sphere>(t.coreA).radius, 0.0f);
    EXPECT_EQ(t.result.distance, 3.5f);
    EXPECT_EQ(t.result.pointA, glm::vec3(1, 0, 0));
    EXPECT_EQ(t.result.pointB, glm::vec3(4.5f, 0, 0));
}

TEST(ExplainGjk, OverlappingBoxesEndOnASimplexAroundTheOrigin) {
    const glm::mat3 turn = glm::mat3(glm::rotate(glm::mat4(1.0f), 0.3f, glm::vec3(1, 2, 3)));
    const GjkTrace t =
        explainGjk(Obb{{0, 0, 0}, {1, 1, 1}, glm::mat3(1.0f)}, Obb{{0.5f, 0.2f, 0.1f}, {1, 1, 1}, turn});
    EXPECT_EQ(t.status, GjkStatus::Overlapping);
    EXPECT_TRUE(t.overlap);
    ASSERT_EQ(checkGjkTrace(t), "");
    EXPECT_EQ(t.simplex.size(), 4u);
    EXPECT_EQ(t.iterations.back().v, glm::dvec3(0.0));
    EXPECT_EQ(t.iterations.back().upperBound, 0.0);
    EXPECT_EQ(t.upperBound, 0.0);
}

TEST(ExplainGjk, CoincidentAndTouchingShapesOverlap) {
    const ConvexShape shapes[] = {Sphere{{1, 2, 3}, 1.0f}, Sphere{{1, 2, 3}, 0.0f},
                                  Obb{{1, 2, 3}, {1, 1, 1}, glm::mat3(1.0f)},
                                  Capsule{{0, 0, 0}, {0, 5, 0}, 0.5f}, Cylinder{{0, 0, 0}, {0, 1, 0}, 0.0f}};
    for (const ConvexShape& s : shapes) {
        const GjkTrace t = explainGjk(s, s);
        EXPECT_TRUE(t.overlap) << str(s);
        EXPECT_TRUE(sameBits(t.result, closestPtConvexConvex(s, s)));
        EXPECT_EQ(checkGjkTrace(t), "") << str(s);
    }
    // Two unit boxes face to face.
    const Obb a{{0, 0, 0}, {0.5f, 0.5f, 0.5f}, glm::mat3(1.0f)},
        b{{1, 0.25f, 0}, {0.5f, 0.5f, 0.5f}, glm::mat3(1.0f)};
    const GjkTrace t = explainGjk(a, b);
    EXPECT_TRUE(t.overlap);
    EXPECT_EQ(t.result.distance, 0.0f);
    EXPECT_TRUE(sameBits(t.result, closestPtConvexConvex(a, b)));
    EXPECT_EQ(checkGjkTrace(t), "");
}

TEST(ExplainGjk, InvalidInputGivesNoIterations) {
    const float nan = std::nanf("");
    const std::pair<ConvexShape, ConvexShape> cases[] = {
        {Sphere{{nan, 0, 0}, 1.0f}, Sphere{{0, 0, 0}, 1.0f}},
        {Capsule{{0, 0, 0}, {1, 0, 0}, -1.0f}, Sphere{{0, 0, 0}, 1.0f}},
        {Sphere{{0, 0, 0}, 1.0f}, Cylinder{{0, 0, 0}, {0, 0, 0}, 1.0f}}};
    for (const auto& [a, b] : cases) {
        for (const GjkQuery query : {GjkQuery::Distance, GjkQuery::Overlap}) {
            const GjkTrace t = explainGjk(a, b, kGjkMaxIterations, query);
            EXPECT_EQ(t.status, GjkStatus::InvalidInput);
            EXPECT_TRUE(t.iterations.empty());
            EXPECT_TRUE(t.simplex.empty());
            EXPECT_FALSE(t.overlap);
            EXPECT_TRUE(sameBits(t.result, closestPtConvexConvex(a, b)));
            EXPECT_EQ(gjkStatusName(t.status), "invalid_input");
        }
    }
}

TEST(ExplainGjk, StatusesHaveDistinctNames) {
    std::set<std::string_view> gjk, ray;
    for (int s = 0; s <= int(GjkStatus::InvalidInput); ++s)
        gjk.insert(gjkStatusName(GjkStatus(s)));
    for (int s = 0; s <= int(RayCastStatus::InvalidInput); ++s)
        ray.insert(rayCastStatusName(RayCastStatus(s)));
    EXPECT_EQ(gjk.size(), 8u);
    EXPECT_EQ(ray.size(), 5u);
    EXPECT_EQ(gjkStatusName(GjkStatus::SeparatingAxis), "separating_axis");
    EXPECT_EQ(rayCastStatusName(RayCastStatus::StartsInside), "starts_inside");
}

// ------------------------------------------------------------------ the ray cast

/// The ray-cast trace's own consistency; returns "" or what is wrong.
std::string checkRayTrace(const RayCastTrace& t) {
    std::ostringstream why;
    if (int(t.iterations.size()) != t.result.iterations) why << "iteration count; ";
    double tPrevious = 0.0;
    for (std::size_t k = 0; k < t.iterations.size(); ++k) {
        const RayCastIteration& it = t.iterations[k];
        if (it.t < tPrevious) why << "t moved back at " << k + 1 << "; ";
        // moved: the height above the plane exceeded the tolerance (compared times |v|).
        if (it.moved ? !(it.planeHeight > 0.0) : it.planeHeight > 2.0 * t.tolerance)
            why << "moved " << it.moved << " with the plane " << it.planeHeight << " below x at " << k + 1
                << "; ";
        if (!it.moved && it.t != tPrevious) why << "t moved without a plane at " << k + 1 << "; ";
        if (it.updated && (it.simplex.empty() || it.simplex.size() > 4))
            why << "simplex size " << it.simplex.size() << " at " << k + 1 << "; ";
        if (!it.updated && k + 1 != t.iterations.size()) why << "only the last may miss; ";
        if (k > 0 && t.iterations[k - 1].updated && !sameBits(it.direction, t.iterations[k - 1].v))
            why << "direction is not the previous v at " << k + 1 << "; ";
        tPrevious = it.t;
    }
    if (t.result.hit && t.result.status != RayCastStatus::StartsInside &&
        t.result.hit->t != float(t.iterations.back().t))
        why << "hit t is not the last t; ";
    return why.str();
}

TEST(ExplainRaycastConvex, AgreesWithRaycastConvexToTheBit) {
    std::mt19937 rng(kSeed + 99u);
    std::map<RayCastStatus, int> statuses;
    for (int i = 0; i < convexPairCount(10000); ++i) {
        const float size = i % 9 == 4 ? 1e-3f : uniform(rng, 0.2f, 2.0f);
        const glm::vec3 base = i % 9 == 5 ? glm::vec3(randomUnit(rng) * 1e3) : glm::vec3(0.0f);
        const glm::vec3 center = base + randomPoint(rng, 0.5f);
        const TestShape s = randomShape(rng, Kind(i % 5), size, center, i / 5 % 4);
        // From outside, mostly toward the shape; sometimes from inside, or aimed anywhere.
        const glm::vec3 from = center + randomPoint(rng, i % 9 == 1 ? 0.3f * size : 4.0f * size);
        const glm::vec3 to = center + randomPoint(rng, i % 9 == 2 ? 10.0f * size : 0.3f * size);
        const Ray ray{from, (to - from) * uniform(rng, 0.1f, 10.0f)};
        const float tMax = i % 9 == 3 ? uniform(rng, 0.0f, 1.0f) : INFINITY;
        const RayCastTrace t = explainRaycastConvex(ray, s.shape, tMax);
        ASSERT_TRUE(sameBits(t.result, raycastConvex(ray, s.shape, tMax)))
            << "i " << i << " " << str(s.shape);
        ASSERT_EQ(checkRayTrace(t), "") << "i " << i << " " << str(s.shape);
        ++statuses[t.result.status];
    }
    for (const auto& [status, count] : statuses)
        std::printf("%-14s %d\n", std::string(rayCastStatusName(status)).c_str(), count);
    EXPECT_GT(statuses[RayCastStatus::Hit], 0);
    EXPECT_GT(statuses[RayCastStatus::StartsInside], 0);
    EXPECT_GT(statuses[RayCastStatus::Miss], 0);
}

TEST(ExplainRaycastConvex, RayAtASphereMovesToItsSurfaceInOneStep) {
    const RayCastTrace t = explainRaycastConvex(Ray{{0, 0, 0}, {1, 0, 0}}, Sphere{{5, 0, 0}, 1.0f});
    ASSERT_EQ(t.iterations.size(), 1u);
    const RayCastIteration& it = t.iterations[0];
    EXPECT_EQ(it.direction, glm::dvec3(-5, 0, 0)); // x minus the centre
    EXPECT_EQ(it.support, glm::dvec3(5, 0, 0));
    EXPECT_EQ(it.planeHeight, 4.0);
    EXPECT_TRUE(it.moved);
    EXPECT_EQ(it.t, 4.0);
    EXPECT_EQ(it.x, glm::dvec3(4, 0, 0));
    EXPECT_EQ(it.simplex.size(), 1u);
    EXPECT_EQ(it.distance, 1.0);
    EXPECT_EQ(t.radius, 1.0);
    EXPECT_EQ(t.result.status, RayCastStatus::Hit);
    ASSERT_TRUE(t.result.hit);
    EXPECT_EQ(t.result.hit->t, 4.0f);
}

TEST(ExplainRaycastConvex, RayBeyondTMaxMissesWithTheTItReached) {
    const RayCastTrace t =
        explainRaycastConvex(Ray{{0, 0, 0}, {1, 0, 0}}, Obb{{5, 0, 0}, {1, 1, 1}, glm::mat3(1.0f)}, 2.0f);
    EXPECT_EQ(t.result.status, RayCastStatus::Miss);
    ASSERT_FALSE(t.iterations.empty());
    EXPECT_FALSE(t.iterations.back().updated);
    EXPECT_EQ(t.iterations.back().t, 4.0);
}

TEST(ExplainRaycastConvex, RaysTouchingABoxAgreeToTheBit) {
    const Obb box{{0, 0, 0}, {1, 1, 1}, glm::mat3(1.0f)};
    const Ray rays[] = {{{1, 0, 0}, {1, 0, 0}},   // on a face, leaving: hit at 0
                        {{2, 0, 0}, {0, 1, 0}},   // passing by
                        {{-3, 1, 0}, {1, 0, 0}},  // grazing a face
                        {{-3, 1, 1}, {1, 0, 0}}}; // along an edge
    for (const Ray& ray : rays) {
        const RayCastTrace t = explainRaycastConvex(ray, box);
        EXPECT_TRUE(sameBits(t.result, raycastConvex(ray, box)));
        EXPECT_EQ(checkRayTrace(t), "");
        EXPECT_FALSE(t.iterations.empty());
    }
    EXPECT_EQ(explainRaycastConvex(rays[0], box).result.status, RayCastStatus::StartsInside);
    EXPECT_EQ(explainRaycastConvex(rays[1], box).result.status, RayCastStatus::Miss);
    EXPECT_EQ(explainRaycastConvex(rays[2], box).result.status, RayCastStatus::Hit);
}

TEST(ExplainRaycastConvex, InsideStartAndInvalidInput) {
    const RayCastTrace inside =
        explainRaycastConvex(Ray{{0, 0, 0}, {0, 1, 0}}, Capsule{{0, -1, 0}, {0, 1, 0}, 0.5f});
    EXPECT_EQ(inside.result.status, RayCastStatus::StartsInside);
    EXPECT_EQ(checkRayTrace(inside), "");
    ASSERT_FALSE(inside.iterations.empty());
    EXPECT_EQ(inside.iterations.back().t, 0.0);
    const RayCastTrace invalid = explainRaycastConvex(Ray{{0, 0, 0}, {0, 0, 0}}, Sphere{{0, 0, 0}, 1.0f});
    EXPECT_EQ(invalid.result.status, RayCastStatus::InvalidInput);
    EXPECT_TRUE(invalid.iterations.empty());
    const RayCastTrace badTMax =
        explainRaycastConvex(Ray{{0, 0, 0}, {1, 0, 0}}, Sphere{{3, 0, 0}, 1.0f}, -1.0f);
    EXPECT_EQ(badTMax.result.status, RayCastStatus::InvalidInput);
    EXPECT_TRUE(badTMax.iterations.empty());
}

} // namespace
