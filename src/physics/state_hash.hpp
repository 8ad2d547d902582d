// A fingerprint of the world's exact state, for determinism checks (golden tests, replays).
#pragma once

#include "world.hpp"

#include <cstdint>
#include <string>

namespace kz {

/// 64-bit FNV-1a over the exact bits of every body's position, orientation (w, x, y, z),
/// velocity and angular velocity, in body order. Equal hashes mean (but for a 2^-64 chance)
/// bit-identical states; one flipped bit in any of them changes it. -0 and +0 hash apart,
/// and so do NaNs with different payloads: it compares bits, not values.
std::uint64_t stateHash(const World& world);

/// A state hash as the reports, the event log and recordings write it: 16 lowercase hex digits.
std::string stateHashText(std::uint64_t hash);

} // namespace kz
