#include "state_hash.hpp"

#include <bit>

namespace kz {
namespace {

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

void mix(std::uint64_t& hash, float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    for (int byte = 0; byte < 4; ++byte) {
        hash ^= (bits >> (8 * byte)) & 0xffu;
        hash *= kFnvPrime;
    }
}

} // namespace

std::uint64_t stateHash(const World& world) {
    std::uint64_t hash = kFnvOffset;
    for (const Body& b : world.bodies()) {
        for (int i = 0; i < 3; ++i)
            mix(hash, b.position[i]);
        mix(hash, b.orientation.w);
        mix(hash, b.orientation.x);
        mix(hash, b.orientation.y);
        mix(hash, b.orientation.z);
        for (int i = 0; i < 3; ++i)
            mix(hash, b.velocity[i]);
        for (int i = 0; i < 3; ++i)
            mix(hash, b.angularVelocity[i]);
    }
    return hash;
}

std::string stateHashText(std::uint64_t hash) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int i = 15; i >= 0; --i, hash >>= 4)
        text[static_cast<std::size_t>(i)] = kDigits[hash & 0xfu];
    return text;
}

} // namespace kz
