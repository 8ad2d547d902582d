// Tests for physics/job_system.hpp: every item once, chunks fixed by the grain alone, worker slots
// never shared by chunks running at once, the lowest throwing chunk's exception, nested loops and
// loops from two threads at once, and many short loops in a row (the hand-over between loops).
#include "physics/job_system.hpp"

#include <algorithm>
#include <atomic>
#include <gtest/gtest.h>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

using kz::JobChunk;
using kz::JobSystem;

/// The chunks a loop ran, sorted by index.
std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> chunksOf(JobSystem& jobs, std::size_t count,
                                                                        std::size_t grain) {
    std::mutex mutex;
    std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> seen;
    jobs.parallelFor(count, grain, [&](const JobChunk& chunk) {
        std::lock_guard<std::mutex> lock(mutex);
        seen.emplace_back(chunk.index, chunk.begin, chunk.end);
    });
    std::sort(seen.begin(), seen.end());
    return seen;
}

TEST(JobSystem, ThreadCountsAreClampedToAtLeastOne) {
    EXPECT_EQ(JobSystem(0).threads(), 1);
    EXPECT_EQ(JobSystem(-3).threads(), 1);
    EXPECT_EQ(JobSystem(3).threads(), 3);
    EXPECT_GE(JobSystem::hardwareThreads(), 1);
}

TEST(JobSystem, ZeroItemsRunNoChunk) {
    for (int threads : {1, 2, 4}) {
        JobSystem jobs(threads);
        int calls = 0;
        jobs.parallelFor(0, 16, [&](const JobChunk&) { ++calls; });
        EXPECT_EQ(calls, 0);
        EXPECT_EQ(jobs.chunkCount(0, 16), 0u);
    }
    int calls = 0;
    kz::parallelFor(nullptr, 0, 16, [&](const JobChunk&) { ++calls; });
    EXPECT_EQ(calls, 0);
}

TEST(JobSystem, EveryItemRunsOnceInChunksThatDependOnTheGrainAloneNotOnTheThreads) {
    const std::size_t count = 1003;
    const auto expected = [&](std::size_t size) {
        std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> chunks;
        for (std::size_t begin = 0, index = 0; begin < count; begin += size, ++index)
            chunks.emplace_back(index, begin, std::min(begin + size, count));
        return chunks;
    };
    for (std::size_t grain : {1u, 7u, 64u, 5000u}) {
        for (int threads : {1, 2, 3, 4, 8}) {
            SCOPED_TRACE("grain " + std::to_string(grain) + ", " + std::to_string(threads) + " threads");
            JobSystem jobs(threads);
            EXPECT_EQ(chunksOf(jobs, count, grain), expected(grain));
            std::vector<std::atomic<int>> visits(count);
            jobs.parallelFor(count, grain, [&](const JobChunk& chunk) {
                for (std::size_t i = chunk.begin; i < chunk.end; ++i)
                    visits[i].fetch_add(1);
            });
            for (std::size_t i = 0; i < count; ++i)
                ASSERT_EQ(visits[i].load(), 1) << "item " << i;
        }
    }
}

TEST(JobSystem, MaxChunkCapsTheChunksOfEveryLoop) {
    JobSystem jobs(2, 3);
    EXPECT_EQ(jobs.chunkSize(100), 3u);
    EXPECT_EQ(jobs.chunkSize(2), 2u);
    EXPECT_EQ(jobs.chunkCount(10, 100), 4u);
    const auto chunks = chunksOf(jobs, 10, 100);
    ASSERT_EQ(chunks.size(), 4u);
    EXPECT_EQ(chunks.back(), std::make_tuple(std::size_t{3}, std::size_t{9}, std::size_t{10}));
}

TEST(JobSystem, MoreThreadsThanItemsRunEachItemOnce) {
    JobSystem jobs(8);
    std::vector<std::atomic<int>> visits(3);
    jobs.parallelFor(3, 1, [&](const JobChunk& chunk) { visits[chunk.begin].fetch_add(1); });
    for (const auto& v : visits)
        EXPECT_EQ(v.load(), 1);
}

TEST(JobSystem, ChunksRunningAtOnceNeverShareAWorkerSlot) {
    JobSystem jobs(4);
    std::vector<std::atomic<int>> inUse(4);
    std::atomic<int> clashes{0}, outOfRange{0};
    std::set<int> slots;
    std::mutex mutex;
    for (int round = 0; round < 50; ++round) {
        jobs.parallelFor(400, 1, [&](const JobChunk& chunk) {
            if (chunk.worker < 0 || chunk.worker >= 4) {
                outOfRange.fetch_add(1);
                return;
            }
            if (inUse[chunk.worker].fetch_add(1) != 0) clashes.fetch_add(1);
            volatile double sink = 0.0; // a little work, so chunks overlap
            for (int k = 0; k < 200; ++k)
                sink = sink + k;
            inUse[chunk.worker].fetch_sub(1);
            std::lock_guard<std::mutex> lock(mutex);
            slots.insert(chunk.worker);
        });
    }
    EXPECT_EQ(outOfRange.load(), 0);
    EXPECT_EQ(clashes.load(), 0);
    EXPECT_TRUE(slots.count(0)) << "the caller takes chunks too";
}

TEST(JobSystem, TheLowestThrowingChunksExceptionReachesTheCallerAndEveryChunkBeforeItRan) {
    for (int threads : {1, 2, 4}) {
        JobSystem jobs(threads);
        for (int round = 0; round < 20; ++round) {
            SCOPED_TRACE(std::to_string(threads) + " threads, round " + std::to_string(round));
            std::vector<std::atomic<int>> ran(40);
            try {
                jobs.parallelFor(40, 1, [&](const JobChunk& chunk) {
                    ran[chunk.index].fetch_add(1);
                    if (chunk.index == 31) throw std::runtime_error("chunk 31");
                    if (chunk.index == 17) throw std::runtime_error("chunk 17");
                });
                ADD_FAILURE() << "no exception";
            } catch (const std::runtime_error& e) {
                EXPECT_STREQ(e.what(), "chunk 17");
            }
            for (std::size_t i = 0; i <= 17; ++i)
                EXPECT_EQ(ran[i].load(), 1) << "chunk " << i;
            for (std::size_t i = 18; i < 40; ++i)
                EXPECT_LE(ran[i].load(), 1) << "chunk " << i;
        }
        // The system is still good for the next loop.
        std::atomic<int> sum{0};
        jobs.parallelFor(
            100, 3, [&](const JobChunk& chunk) { sum.fetch_add(static_cast<int>(chunk.end - chunk.begin)); });
        EXPECT_EQ(sum.load(), 100);
    }
}

TEST(JobSystem, ANestedLoopRunsInOrderOnItsChunksThread) {
    JobSystem jobs(4);
    std::vector<std::atomic<int>> visits(64 * 50);
    std::atomic<int> wrongSlot{0}, outOfOrder{0};
    jobs.parallelFor(64, 1, [&](const JobChunk& outer) {
        std::size_t last = 0;
        bool first = true;
        jobs.parallelFor(50, 7, [&](const JobChunk& inner) {
            if (inner.worker != outer.worker) wrongSlot.fetch_add(1);
            if (!first && inner.begin != last) outOfOrder.fetch_add(1);
            first = false;
            last = inner.end;
            for (std::size_t i = inner.begin; i < inner.end; ++i)
                visits[outer.index * 50 + i].fetch_add(1);
        });
    });
    EXPECT_EQ(wrongSlot.load(), 0);
    EXPECT_EQ(outOfOrder.load(), 0);
    for (const auto& v : visits)
        ASSERT_EQ(v.load(), 1);
}

TEST(JobSystem, LoopsFromTwoThreadsAtOnceBothFinishWithEveryItem) {
    JobSystem jobs(3);
    const auto run = [&](std::atomic<long>& total) {
        for (int round = 0; round < 300; ++round) {
            jobs.parallelFor(257, 8, [&](const JobChunk& chunk) {
                long sum = 0;
                for (std::size_t i = chunk.begin; i < chunk.end; ++i)
                    sum += static_cast<long>(i);
                total.fetch_add(sum);
            });
        }
    };
    std::atomic<long> a{0}, b{0};
    std::thread other([&] { run(b); });
    run(a);
    other.join();
    EXPECT_EQ(a.load(), 300L * (256L * 257L / 2));
    EXPECT_EQ(b.load(), 300L * (256L * 257L / 2));
}

TEST(JobSystem, ManyShortLoopsInARowLoseNoChunk) {
    // The hand-over from loop to loop: workers that are spinning, asleep, or still leaving the
    // last loop when the next one starts.
    JobSystem jobs(4);
    long total = 0;
    for (int round = 0; round < 20000; ++round) {
        std::atomic<int> items{0};
        jobs.parallelFor(static_cast<std::size_t>(round % 9), 1, [&](const JobChunk& chunk) {
            items.fetch_add(static_cast<int>(chunk.end - chunk.begin));
        });
        ASSERT_EQ(items.load(), round % 9) << "round " << round;
        total += items.load();
        if (round % 5000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2)); // let them sleep
    }
    EXPECT_GT(total, 0);
}

TEST(JobSystem, WithoutASystemTheWholeRangeIsOneChunkOnTheCaller) {
    std::vector<JobChunk> seen;
    kz::parallelFor(nullptr, 10, 3, [&](const JobChunk& chunk) { seen.push_back(chunk); });
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].begin, 0u);
    EXPECT_EQ(seen[0].end, 10u);
    EXPECT_EQ(seen[0].worker, 0);
    EXPECT_EQ(kz::chunkCount(nullptr, 10, 3), 1u);
}

TEST(JobSystem, ABackgroundLoopRunsEveryChunkOnceWhileTheCallerGoesOnWithItsOwnLoops) {
    for (const int threads : {1, 2, 4}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        JobSystem jobs(threads);
        std::vector<std::atomic<int>> visits(5000);
        const auto body = [&](const JobChunk& chunk) {
            for (std::size_t i = chunk.begin; i < chunk.end; ++i)
                visits[i].fetch_add(1);
        };
        for (int round = 0; round < 50; ++round) {
            JobSystem::Background background = jobs.start(visits.size(), 64, body);
            // Meanwhile the caller's loops run, inline (the workers belong to the background loop).
            std::vector<std::size_t> order;
            jobs.parallelFor(100, 10, [&](const JobChunk& chunk) { order.push_back(chunk.index); });
            for (std::size_t k = 0; k < order.size(); ++k)
                ASSERT_EQ(order[k], k) << "the caller's loop ran in order on the caller";
            background.wait();
            background.wait(); // once only
        }
        for (const auto& v : visits)
            ASSERT_EQ(v.load(), 50);
    }
}

TEST(JobSystem, ABackgroundLoopsExceptionComesAtTheWaitAndTheDestructorWaitsToo) {
    JobSystem jobs(3);
    const auto throwing = [](const JobChunk& chunk) {
        if (chunk.index == 7) throw std::runtime_error("chunk 7");
    };
    JobSystem::Background background = jobs.start(100, 1, throwing);
    EXPECT_THROW(background.wait(), std::runtime_error);
    std::atomic<int> items{0};
    const auto counting = [&](const JobChunk& chunk) {
        items.fetch_add(static_cast<int>(chunk.end - chunk.begin));
    };
    { JobSystem::Background unwaited = jobs.start(1000, 5, counting); }
    EXPECT_EQ(items.load(), 1000) << "destroyed: every chunk has run";
    { JobSystem::Background dropped = jobs.start(100, 1, throwing); } // the destructor drops the exception
    JobSystem::Background empty;
    empty.wait();
    // Started from inside a chunk of the same system: it runs at the wait, on that thread.
    jobs.parallelFor(4, 1, [&](const JobChunk&) {
        JobSystem::Background nested = jobs.start(10, 1, counting);
        nested.wait();
    });
    EXPECT_EQ(items.load(), 1040);
}

TEST(JobSystem, ASystemWhoseWorkersSleepShutsDown) {
    auto jobs = std::make_unique<JobSystem>(4);
    jobs->parallelFor(100, 1, [](const JobChunk&) {});
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // past the workers' spinning
    jobs.reset();
    SUCCEED();
}

} // namespace
