// An allocator for MeshBvh's large arrays (private to src/geom): an array of 2 MiB or more is
// placed on 2 MiB boundaries and marked for transparent huge pages (Linux: madvise), so that the
// random accesses of ray traversal over a large tree miss the TLB far less (as Embree allocates
// its trees). Only a hint: where the system gives no huge pages, the memory behaves as usual.
// Smaller arrays use the ordinary aligned operator new, on a 64-byte boundary at least.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace kz::detail {

template <class T>
struct LargeArrayAllocator {
    using value_type = T;
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;
    /// Every array starts on a cache line (MeshBvh's nodes lie in an array of words).
    static constexpr std::size_t kAlign = alignof(T) > 64 ? alignof(T) : 64;

    LargeArrayAllocator() = default;
    template <class U>
    LargeArrayAllocator(const LargeArrayAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePage) return static_cast<T*>(::operator new (bytes, std::align_val_t{kAlign}));
        const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void* p = std::aligned_alloc(kHugePage, rounded);
        if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, rounded, MADV_HUGEPAGE);
#endif
        return static_cast<T*>(p);
    }

    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kHugePage) {
            ::operator delete (p, std::align_val_t{kAlign});
        } else {
            std::free(p);
        }
    }

    template <class U>
    bool operator==(const LargeArrayAllocator<U>&) const noexcept {
        return true;
    }
};

} // namespace kz::detail
