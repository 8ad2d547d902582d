// Private to kz_physics: scratch that a copy does not take.
#pragma once

#include <utility>

namespace kz {

/// A value that a copy leaves behind: the copy starts default-constructed. For the scratch of the
/// step's parallel loops, which each loop rebuilds before reading, so that a copy of a world (a
/// History keyframe) neither pays for it nor depends on it. Moves move it.
template <class T>
struct Uncopied {
    T value;

    Uncopied() = default;
    Uncopied(const Uncopied&) {}
    Uncopied& operator=(const Uncopied&) { return *this; }
    Uncopied(Uncopied&&) noexcept = default;
    Uncopied& operator=(Uncopied&&) noexcept = default;
};

} // namespace kz
