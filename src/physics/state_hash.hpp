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

/// Where two worlds' states first differ, bit for bit, as one line ("body 3 velocity: ..."), or
/// empty when they are the same: the step count, the halted body, each body (every field: shape,
/// mass and material, pose, velocities, angular momentum), the last step's contacts and its impact
/// records (every field), the impact event count. What the hash leaves out (the angular momentum,
/// the contacts, the impact log) is compared too; the step's caches are not (they show in the
/// states of the steps that follow).
std::string stateDifference(const World& a, const World& b);

/// A state hash as the reports, the event log and recordings write it: 16 lowercase hex digits.
std::string stateHashText(std::uint64_t hash);

} // namespace kz
