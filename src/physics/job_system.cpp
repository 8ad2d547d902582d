#include "job_system.hpp"

#include <algorithm>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace kz {
namespace {

/// How long a worker polls for the next loop before it sleeps: about 50 microseconds, longer
/// than the gaps between a step's loops, far shorter than a frame.
constexpr int kSpinPolls = 4000;
constexpr std::size_t kNoChunk = std::numeric_limits<std::size_t>::max();
// JobSystem::state_: the loop's number, whether it is open to workers, and how many have joined.
constexpr std::uint64_t kJoinedMask = 0xffff;
constexpr std::uint64_t kOpen = std::uint64_t{1} << 16;
constexpr int kNumberShift = 17;

void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

/// The system whose chunk this thread is running, and its slot there (a nested loop runs inline
/// on that slot).
struct Running {
    const JobSystem* system = nullptr;
    int worker = 0;
};
thread_local Running tlsRunning;

} // namespace

struct JobSystem::Loop {
    Loop(std::size_t count_, std::size_t chunkSize_, std::size_t chunks_, Invoke invoke_, void* context_,
         const JobSystem* system_)
        : count(count_), chunkSize(chunkSize_), chunks(chunks_), invoke(invoke_), context(context_),
          system(system_) {}

    const std::size_t count;
    const std::size_t chunkSize;
    const std::size_t chunks;
    const Invoke invoke;
    void* const context;
    const JobSystem* const system;
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> failed{kNoChunk}; ///< The lowest chunk that threw so far.
    std::mutex errorMutex;
    std::exception_ptr error; ///< That chunk's exception.
};

int JobSystem::hardwareThreads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(std::min<unsigned>(n, kMaxThreads));
}

JobSystem::JobSystem(int threads, std::size_t maxChunk) : maxChunk_(maxChunk) {
    const int count = std::clamp(threads, 1, kMaxThreads);
    workers_.reserve(static_cast<std::size_t>(count - 1));
    for (int slot = 1; slot < count; ++slot)
        workers_.emplace_back([this, slot] { workerMain(slot); });
}

JobSystem::~JobSystem() {
    {
        std::lock_guard<std::mutex> lock(sleepMutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_)
        t.join();
}

std::size_t JobSystem::chunkSize(std::size_t grain) const {
    const std::size_t size = std::max<std::size_t>(grain, 1);
    return maxChunk_ > 0 ? std::min(size, maxChunk_) : size;
}

std::size_t JobSystem::chunkCount(std::size_t count, std::size_t grain) const {
    const std::size_t size = chunkSize(grain);
    return count / size + (count % size != 0 ? 1 : 0);
}

void JobSystem::work(Loop& loop, int worker) {
    const Running outer = tlsRunning;
    tlsRunning = {loop.system, worker};
    while (true) {
        const std::size_t c = loop.next.fetch_add(1, std::memory_order_relaxed);
        // Chunks are taken in order, so every chunk below a failed one has been taken and runs.
        if (c >= loop.chunks || c > loop.failed.load(std::memory_order_relaxed)) break;
        const std::size_t begin = c * loop.chunkSize;
        const JobChunk chunk{c, begin, std::min(begin + loop.chunkSize, loop.count), worker};
        try {
            loop.invoke(loop.context, chunk);
        } catch (...) {
            std::lock_guard<std::mutex> lock(loop.errorMutex);
            if (c < loop.failed.load(std::memory_order_relaxed)) {
                loop.failed.store(c, std::memory_order_relaxed);
                loop.error = std::current_exception();
            }
        }
    }
    tlsRunning = outer;
}

bool JobSystem::publish(Loop& loop) {
    bool expected = false;
    if (workers_.empty() || !running_.compare_exchange_strong(expected, true, std::memory_order_acquire))
        return false;
    loop_ = &loop;
    bool sleepers = false;
    {
        std::lock_guard<std::mutex> lock(sleepMutex_);
        const std::uint64_t number = (state_.load(std::memory_order_relaxed) >> kNumberShift) + 1;
        state_.store((number << kNumberShift) | kOpen, std::memory_order_release);
        sleepers = sleepers_ > 0;
    }
    if (sleepers) wake_.notify_all();
    return true;
}

void JobSystem::close() {
    // Closed: no worker joins from now on; the ones that joined still hold chunks (or are about to
    // find none left). A worker that has not woken yet is not waited for.
    state_.fetch_and(~kOpen, std::memory_order_acq_rel);
    for (int polls = 0; (state_.load(std::memory_order_acquire) & kJoinedMask) != 0; ++polls) {
        if (polls < kSpinPolls) {
            cpuRelax();
        } else {
            std::this_thread::yield();
        }
    }
    loop_ = nullptr;
    running_.store(false, std::memory_order_release);
}

void JobSystem::run(std::size_t count, std::size_t grain, Invoke invoke, void* context) {
    if (count == 0) return;
    Loop loop(count, chunkSize(grain), chunkCount(count, grain), invoke, context, this);
    const bool nested = tlsRunning.system == this;
    if (loop.chunks == 1 || nested || !publish(loop)) {
        // In order on this thread (the slot it runs on in this system, if any).
        work(loop, nested ? tlsRunning.worker : 0);
    } else {
        work(loop, 0);
        close();
    }
    if (loop.error) std::rethrow_exception(loop.error);
}

JobSystem::Background JobSystem::startLoop(std::size_t count, std::size_t grain, Invoke invoke,
                                           void* context) {
    Background background;
    if (count == 0) return background;
    background.system_ = this;
    background.loop_ =
        std::make_unique<Loop>(count, chunkSize(grain), chunkCount(count, grain), invoke, context, this);
    background.published_ = tlsRunning.system != this && publish(*background.loop_);
    return background;
}

JobSystem::Background::Background() = default;
JobSystem::Background::Background(Background&&) noexcept = default;

JobSystem::Background& JobSystem::Background::operator=(Background&& other) noexcept {
    if (this != &other) {
        try {
            wait();
        } catch (...) { // as the destructor: the exception of a loop nobody waited for is dropped
        }
        system_ = other.system_;
        loop_ = std::move(other.loop_);
        published_ = other.published_;
        other.system_ = nullptr;
        other.published_ = false;
    }
    return *this;
}

JobSystem::Background::~Background() {
    try {
        wait();
    } catch (...) { // a destructor does not throw: wait() first to see it
    }
}

void JobSystem::Background::wait() {
    if (!loop_) return;
    const bool nested = tlsRunning.system == system_;
    work(*loop_, nested ? tlsRunning.worker : 0);
    if (published_) system_->close();
    published_ = false;
    const std::unique_ptr<Loop> loop = std::move(loop_);
    if (loop->error) std::rethrow_exception(loop->error);
}

void JobSystem::workerMain(int slot) {
    std::uint64_t seen = 0; // the number of the last loop this worker looked at
    const auto number = [](std::uint64_t state) { return state >> kNumberShift; };
    while (true) {
        std::uint64_t state = state_.load(std::memory_order_acquire);
        for (int polls = 0; number(state) == seen && polls < kSpinPolls; ++polls) {
            cpuRelax();
            state = state_.load(std::memory_order_acquire);
        }
        if (number(state) == seen) {
            std::unique_lock<std::mutex> lock(sleepMutex_);
            ++sleepers_;
            wake_.wait(lock,
                       [&] { return stopping_ || number(state_.load(std::memory_order_acquire)) != seen; });
            --sleepers_;
            if (stopping_) return;
            state = state_.load(std::memory_order_acquire);
        }
        seen = number(state);
        // Join while the loop is open: the caller then waits for this worker, so loop_ stays valid.
        bool joined = false;
        while ((state & kOpen) != 0 && number(state) == seen && !joined) {
            joined = state_.compare_exchange_weak(state, state + 1, std::memory_order_acquire);
        }
        if (!joined) continue;
        work(*loop_, slot);
        state_.fetch_sub(1, std::memory_order_release);
    }
}

} // namespace kz
