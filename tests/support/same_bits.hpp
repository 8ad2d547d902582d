// Test support: bit-for-bit equality of query results, for the tests that check a trace against
// its fast query (a trace runs the query's own code, so nothing less than the same bits will do).
#pragma once

#include "geom/closest.hpp"
#include "geom/contact.hpp"

#include <bit>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

namespace kz::test {

inline bool sameBits(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}
inline bool sameBits(const glm::vec3& a, const glm::vec3& b) {
    return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z);
}
inline bool sameBits(const std::optional<float>& a, const std::optional<float>& b) {
    return a.has_value() == b.has_value() && (!a || sameBits(*a, *b));
}

/// Same presence, count, normal, depth and used points, to the bit.
inline bool sameBits(const std::optional<Manifold>& a, const std::optional<Manifold>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    if (a->count != b->count || !sameBits(a->normal, b->normal) || !sameBits(a->depth, b->depth))
        return false;
    for (int i = 0; i < a->count && i < 4; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (!sameBits(a->points[k].position, b->points[k].position) ||
            !sameBits(a->points[k].depth, b->points[k].depth)) {
            return false;
        }
    }
    return true;
}

inline bool sameBits(const std::optional<ClosestPoints>& a, const std::optional<ClosestPoints>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    return sameBits(a->s, b->s) && sameBits(a->t, b->t) && sameBits(a->p1, b->p1) && sameBits(a->p2, b->p2) &&
           sameBits(a->sqDist, b->sqDist) && a->parallel == b->parallel;
}

/// "seed S, case I" for a failure message: enough to replay one random case.
inline std::string caseLabel(unsigned seed, int index) {
    std::ostringstream os;
    os << "seed " << seed << ", case " << index;
    return os.str();
}

} // namespace kz::test
