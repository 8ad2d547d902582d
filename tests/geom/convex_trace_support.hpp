// Test support for test_explain_gjk.cpp and test_explain_epa.cpp: bit-for-bit equality of the
// convex queries' answers (a trace runs the query's own code, so nothing less will do), and the
// random pairs of shapes both files run on, in the set-ups where GJK and EPA are fragile.
#pragma once

#include "geom/convex_reference.hpp"
#include "geom/geom.hpp"
#include "support/same_bits.hpp"

#include <bit>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <string>

namespace kz::test {

inline bool sameBits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
inline bool sameBits(const glm::dvec3& a, const glm::dvec3& b) {
    return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}

inline bool sameBits(const GjkResult& a, const GjkResult& b) {
    return a.overlap == b.overlap && sameBits(a.distance, b.distance) && sameBits(a.pointA, b.pointA) &&
           sameBits(a.pointB, b.pointB) && sameBits(a.normal, b.normal) &&
           sameBits(a.lowerBound, b.lowerBound) && a.iterations == b.iterations && a.status == b.status;
}

inline bool sameBits(const EpaResult& a, const EpaResult& b) {
    return a.overlap == b.overlap && sameBits(a.depth, b.depth) && sameBits(a.normal, b.normal) &&
           sameBits(a.pointA, b.pointA) && sameBits(a.pointB, b.pointB) && a.iterations == b.iterations &&
           a.status == b.status;
}

inline bool sameBits(const ConvexRayCast& a, const ConvexRayCast& b) {
    if (a.hit.has_value() != b.hit.has_value() || a.iterations != b.iterations || a.status != b.status)
        return false;
    return !a.hit || (sameBits(a.hit->t, b.hit->t) && sameBits(a.hit->point, b.hit->point) &&
                      sameBits(a.hit->normal, b.hit->normal));
}

/// How a random pair is placed.
enum class PairPlacement {
    Apart,      ///< B anywhere within reach of A: apart or overlapping.
    Deep,       ///< B's centre near A's: overlapping, often deeply.
    Touching,   ///< B moved so that its support point meets A's: touching.
    Far,        ///< Both 1000 units from the origin.
    SizeRatio,  ///< One shape 1e-4 as large as the other.
    Coincident, ///< B is A.
    Count
};

/// The i-th random pair of kinds ka and kb (the placement cycles with i).
inline std::pair<TestShape, TestShape> randomPair(std::mt19937& rng, Kind ka, Kind kb, int i) {
    const auto placement = PairPlacement(i % int(PairPlacement::Count));
    float sizeA = uniform(rng, 0.2f, 2.0f), sizeB = uniform(rng, 0.2f, 2.0f);
    if (placement == PairPlacement::SizeRatio) (i % 2 ? sizeA : sizeB) *= 1e-4f;
    const glm::vec3 base =
        placement == PairPlacement::Far ? glm::vec3(randomUnit(rng) * 1e3) : glm::vec3(0.0f);
    const TestShape a = randomShape(rng, ka, sizeA, base + randomPoint(rng, 0.5f), i / 7 % 4);
    const float reach = placement == PairPlacement::Deep ? 0.3f * sizeA : 1.2f * (sizeA + sizeB);
    TestShape b = randomShape(rng, kb, sizeB, base + randomPoint(rng, reach), i / 11 % 4);
    if (placement == PairPlacement::Touching) {
        const glm::dvec3 n = randomUnit(rng);
        b.shape = translated(b.shape, glm::vec3(refSupport(a.shape, -n) - refSupport(b.shape, n)));
    }
    if (placement == PairPlacement::Coincident) b = a;
    return {a, b};
}

/// Calls check(a, b, what) on perPair random pairs (randomPair) of each of the 25 kind pairs, the
/// pair (ka, kb) from the seed `seed + 10 ka + kb`; `what` names the pair for failure messages
/// (kinds, seed, index and both shapes). Stops at the first failure of the test.
template <class Check>
void forRandomPairs(int perPair, unsigned seed, Check&& check) {
    for (int ka = 0; ka < 5; ++ka) {
        for (int kb = 0; kb < 5; ++kb) {
            const unsigned pairSeed = seed + unsigned(10 * ka + kb);
            std::mt19937 rng(pairSeed);
            for (int i = 0; i < perPair; ++i) {
                const auto [a, b] = randomPair(rng, Kind(ka), Kind(kb), i);
                const std::string what = std::string(kKindNames[std::size_t(ka)]) + "-" +
                                         kKindNames[std::size_t(kb)] + " seed " + std::to_string(pairSeed) +
                                         " i " + std::to_string(i) + "\n A " + str(a.shape) + "\n B " +
                                         str(b.shape);
                check(a.shape, b.shape, what);
                if (::testing::Test::HasFailure()) return;
            }
        }
    }
}

} // namespace kz::test
