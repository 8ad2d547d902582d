// Private to kz_physics: the heap bytes a copy of a container holds, for World::memoryBytes (the
// cost of a History keyframe).
#pragma once

#include <cstddef>
#include <vector>

namespace kz {

/// The bytes of a vector's elements as a copy holds them (its size, not its capacity).
template <class T>
std::size_t vectorBytes(const std::vector<T>& v) {
    return v.size() * sizeof(T);
}

/// The same for a vector of vectors: the outer array and each inner one.
template <class T>
std::size_t vectorBytes(const std::vector<std::vector<T>>& v) {
    std::size_t bytes = v.size() * sizeof(std::vector<T>);
    for (const std::vector<T>& inner : v)
        bytes += vectorBytes(inner);
    return bytes;
}

} // namespace kz
