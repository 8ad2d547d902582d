// A small pool of worker threads for the world step's data-parallel loops (std::thread, no
// dependency). A loop is split into chunks of consecutive items whose bounds depend on the item
// count and the loop's grain only, never on how many threads run them, so a loop that writes each
// item's result to its own slot, or each chunk's to its own buffer merged in chunk order, gives
// the same bits at any thread count.
//
// The calling thread takes chunks too; workers wait for work spinning briefly (a step's loops
// follow each other within microseconds), then sleeping. One loop runs at a time: a loop started
// from inside a chunk (nested), from another thread while a loop runs, or while a background loop
// (start) is under way, runs on its caller's thread, in order.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace kz {

/// One chunk of a loop.
struct JobChunk {
    std::size_t index; ///< Chunk number, 0 to chunkCount - 1, in item order.
    std::size_t begin; ///< First item.
    std::size_t end;   ///< One past the last item (> begin).
    int worker;        ///< The running thread's slot, 0 to threads() - 1 (0: the loop's caller): per-thread
                       ///< scratch. Two chunks that run at once never share a slot.
};

class JobSystem {
public:
    /// `threads` threads run each loop, the caller's included (clamped to [1, kMaxThreads]).
    /// `maxChunk` > 0 caps every loop's chunks at that many items, whatever grain the loop asks for:
    /// tests use it to split even a small world's work into many chunks, as a large world's is.
    explicit JobSystem(int threads, std::size_t maxChunk = 0);
    ~JobSystem();
    JobSystem(const JobSystem&) = delete;
    JobSystem& operator=(const JobSystem&) = delete;

    static constexpr int kMaxThreads = 256;
    /// std::thread::hardware_concurrency(), or 1 when it is unknown.
    static int hardwareThreads();

    int threads() const { return static_cast<int>(workers_.size()) + 1; }
    std::size_t maxChunk() const { return maxChunk_; }
    /// The items per chunk of a loop asking for `grain` (at least 1).
    std::size_t chunkSize(std::size_t grain) const;
    /// How many chunks a loop of `count` items asking for `grain` has.
    std::size_t chunkCount(std::size_t count, std::size_t grain) const;

    /// Calls body(chunk) for every chunk of [0, count) (chunkSize(grain) items each, the last maybe
    /// fewer) on up to threads() threads, and returns when all have run. Zero items: no call. If
    /// chunks throw, the chunks after the first (lowest-numbered) one that throws may not run, and
    /// that one's exception is rethrown here once no chunk is running.
    template <class Body>
    void parallelFor(std::size_t count, std::size_t grain, Body&& body) {
        using Callable = std::remove_reference_t<Body>;
        run(
            count, grain,
            [](void* context, const JobChunk& chunk) { (*static_cast<Callable*>(context))(chunk); },
            const_cast<void*>(static_cast<const void*>(&body)));
    }

private:
    using Invoke = void (*)(void* context, const JobChunk& chunk);
    struct Loop;

public:
    /// A loop the workers take up while its caller goes on with other work (start).
    class Background {
    public:
        Background();
        Background(Background&&) noexcept;
        Background& operator=(Background&&) noexcept;
        /// Waits as wait() does, but drops the exception.
        ~Background();
        /// Runs the chunks no worker has taken yet on the calling thread, waits for the ones under
        /// way, and rethrows the lowest throwing chunk's exception, as parallelFor does. Once;
        /// nothing after that (or on an empty Background).
        void wait();

    private:
        friend class JobSystem;
        JobSystem* system_ = nullptr;
        std::unique_ptr<Loop> loop_;
        bool published_ = false; ///< The workers may take its chunks.
    };

    /// parallelFor's loop, started on the workers while the caller goes on; Background::wait runs
    /// what they have not taken. Meanwhile the caller's own loops run inline. With no worker to
    /// give it to (one thread, a loop under way, a call from inside a chunk) nothing runs until
    /// wait(), which then runs it all. `body` must outlive the wait.
    template <class Body>
    Background start(std::size_t count, std::size_t grain, Body& body) {
        return startLoop(
            count, grain, [](void* context, const JobChunk& chunk) { (*static_cast<Body*>(context))(chunk); },
            const_cast<void*>(static_cast<const void*>(&body)));
    }

private:
    void run(std::size_t count, std::size_t grain, Invoke invoke, void* context);
    Background startLoop(std::size_t count, std::size_t grain, Invoke invoke, void* context);
    /// Hands `loop` to the workers; false when it cannot (another loop is under way).
    bool publish(Loop& loop);
    /// Closes the published loop to workers and waits for the ones that joined it.
    void close();
    /// Takes chunks of `loop` until none is left (or one has thrown).
    static void work(Loop& loop, int worker);
    void workerMain(int slot);

    std::size_t maxChunk_;
    std::vector<std::thread> workers_;
    std::atomic<bool> running_{false}; ///< A loop is under way (the next one runs inline).
    Loop* loop_ = nullptr;             ///< The current loop: read by the workers that joined it.
    /// The current loop's number (bits 17 and up), whether workers may still join it (bit 16), and
    /// how many have joined and not yet left (bits 0 to 15): one word, so that joining is one
    /// compare-and-swap against the loop's closing.
    std::atomic<std::uint64_t> state_{0};
    std::mutex sleepMutex_;
    std::condition_variable wake_;
    int sleepers_ = 0;      ///< Workers waiting on wake_ (under sleepMutex_).
    bool stopping_ = false; ///< Under sleepMutex_.
};

/// The same loop on `jobs`, or without one all of [0, count) as one chunk on the calling thread.
template <class Body>
void parallelFor(JobSystem* jobs, std::size_t count, std::size_t grain, Body&& body) {
    if (jobs) {
        jobs->parallelFor(count, grain, body);
    } else if (count > 0) {
        body(JobChunk{0, 0, count, 0});
    }
}

/// chunkCount on `jobs`, or 1 (0 for no items) without one.
inline std::size_t chunkCount(const JobSystem* jobs, std::size_t count, std::size_t grain) {
    return jobs ? jobs->chunkCount(count, grain) : (count > 0 ? 1 : 0);
}

} // namespace kz
