// Long headless runs: the progress line's text and its writing, Ctrl-C as a stop request
// (SigintStop), runHeadless and runHeadlessReplay stopped by their control, then the kolize binary
// interrupted by SIGINT as a user would: on a pseudo-terminal (its progress line, a typed Ctrl-C)
// and with stderr in a file (no progress text). Nothing here needs a display.
#include "app/cli/long_run.hpp"
#include "physics/state_hash.hpp"
#include "session/recording.hpp"
#include "support/small_world.hpp"
#include "support/temp_dir.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <termios.h>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef KOLIZE_EXE
#error "KOLIZE_EXE (the path of the built kolize binary) must be defined"
#endif

extern char** environ;

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// The longest any wait below lasts before the test gives up (it never waits that long when kolize
/// behaves: each wait ends on what it waits for).
constexpr auto kPatience = std::chrono::seconds(60);

kz::HeadlessProgress progressAt(std::uint64_t steps, std::uint64_t total, double simSeconds,
                                double wallSeconds) {
    kz::HeadlessProgress progress;
    progress.steps = steps;
    progress.totalSteps = total;
    progress.simSeconds = simSeconds;
    progress.wallSeconds = wallSeconds;
    return progress;
}

// ---------------------------------------------------------------- the progress line's text

TEST(ProgressText, ShowsStepsSimulatedTimeRateAndTimeLeft) {
    // 9,880,000 steps left at 12,000 steps/s: 823.3 s.
    EXPECT_EQ(kz::cli::progressText(progressAt(120000, 10000000, 1000.0, 10.0)),
              "120,000 / 10,000,000 steps (1.2%), 1000.0 s simulated, 12,000 steps/s, 13 min 43 s left");
}

TEST(ProgressText, ASlowRunShowsItsRateWithADecimal) {
    // 91 steps left at 4.5 steps/s: 20.2 s.
    EXPECT_EQ(kz::cli::progressText(progressAt(9, 100, 0.075, 2.0)),
              "9 / 100 steps (9.0%), 0.1 s simulated, 4.5 steps/s, 20 s left");
}

TEST(ProgressText, OnceFinishedItSaysHowLongTheRunTookOrThatItWasStopped) {
    kz::HeadlessProgress done = progressAt(1200, 1200, 10.0, 0.5);
    done.finished = true;
    EXPECT_EQ(kz::cli::progressText(done),
              "1,200 / 1,200 steps (100.0%), 10.0 s simulated, 2,400 steps/s, took 0.5 s");
    kz::HeadlessProgress stopped = progressAt(600, 1200, 5.0, 75.0);
    stopped.finished = true;
    stopped.interrupted = true;
    EXPECT_EQ(kz::cli::progressText(stopped),
              "600 / 1,200 steps (50.0%), 5.0 s simulated, 8.0 steps/s, stopped after 1 min 15 s");
}

TEST(ProgressText, WithoutATimedStepThereIsNoRateAndNoTimeLeft) {
    EXPECT_EQ(kz::cli::progressText(progressAt(0, 500, 0.0, 0.0)), "0 / 500 steps (0.0%), 0.0 s simulated");
    EXPECT_EQ(kz::cli::progressText(progressAt(0, 0, 0.0, 0.0)), "0 / 0 steps, 0.0 s simulated");
}

TEST(ProgressText, DigitsAreGroupedByThousands) {
    EXPECT_EQ(kz::cli::groupedDigits(0), "0");
    EXPECT_EQ(kz::cli::groupedDigits(999), "999");
    EXPECT_EQ(kz::cli::groupedDigits(1000), "1,000");
    EXPECT_EQ(kz::cli::groupedDigits(123456), "123,456");
    EXPECT_EQ(kz::cli::groupedDigits(10000000), "10,000,000");
    EXPECT_EQ(kz::cli::groupedDigits(std::numeric_limits<std::uint64_t>::max()),
              "18,446,744,073,709,551,615");
}

TEST(ProgressText, DurationsAreSecondsMinutesOrHours) {
    EXPECT_EQ(kz::cli::durationText(0.0), "0.0 s");
    EXPECT_EQ(kz::cli::durationText(-3.0), "0.0 s");
    EXPECT_EQ(kz::cli::durationText(0.44), "0.4 s");
    EXPECT_EQ(kz::cli::durationText(7.0), "7.0 s");
    EXPECT_EQ(kz::cli::durationText(9.94), "9.9 s");
    EXPECT_EQ(kz::cli::durationText(9.96), "10 s");
    EXPECT_EQ(kz::cli::durationText(59.4), "59 s");
    EXPECT_EQ(kz::cli::durationText(59.6), "1 min 00 s");
    EXPECT_EQ(kz::cli::durationText(3599.0), "59 min 59 s");
    EXPECT_EQ(kz::cli::durationText(3600.0), "1 h 00 min");
    EXPECT_EQ(kz::cli::durationText(7500.0), "2 h 05 min");
}

// ---------------------------------------------------------------- the progress line

TEST(ProgressLine, RewritesOneLineInPlaceAndEndsItWhenTheRunEnds) {
    std::ostringstream out;
    kz::cli::ProgressLine line(out, true);
    line.show(progressAt(10, 100, 0.1, 1.0));
    line.show(progressAt(20, 100, 0.2, 2.0));
    kz::HeadlessProgress last = progressAt(100, 100, 1.0, 10.0);
    last.finished = true;
    line.show(last);
    EXPECT_EQ(out.str(), "\r" + kz::cli::progressText(progressAt(10, 100, 0.1, 1.0)) + "\x1b[K" + "\r" +
                             kz::cli::progressText(progressAt(20, 100, 0.2, 2.0)) + "\x1b[K" + "\r" +
                             kz::cli::progressText(last) + "\x1b[K\n");
}

TEST(ProgressLine, ARunThatShowedNoLineWritesNothingAtItsEnd) {
    std::ostringstream out;
    kz::cli::ProgressLine line(out, true);
    kz::HeadlessProgress last = progressAt(5, 5, 0.1, 0.01);
    last.finished = true;
    line.show(last);
    EXPECT_EQ(out.str(), "");
}

TEST(ProgressLine, DisabledItWritesNothingAtAll) {
    std::ostringstream out;
    kz::cli::ProgressLine line(out, false);
    line.show(progressAt(10, 100, 0.1, 1.0));
    kz::HeadlessProgress last = progressAt(100, 100, 1.0, 10.0);
    last.finished = true;
    line.show(last);
    EXPECT_EQ(out.str(), "");
}

// ---------------------------------------------------------------- SigintStop

std::atomic<int> gTestHandlerCalls{0};
extern "C" void countingHandler(int) {
    gTestHandlerCalls.fetch_add(1, std::memory_order_relaxed);
}

/// SIGINT's action now.
struct sigaction sigintAction() {
    struct sigaction action {};
    sigaction(SIGINT, nullptr, &action);
    return action;
}

/// Sets SIGINT's handler for the scope, and puts back the test process's own at its end.
class SigintHandlerForTest {
public:
    explicit SigintHandlerForTest(void (*handler)(int)) {
        struct sigaction action {};
        action.sa_handler = handler;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &saved_);
    }
    ~SigintHandlerForTest() { sigaction(SIGINT, &saved_, nullptr); }

private:
    struct sigaction saved_ {};
};

TEST(SigintStop, TheFirstSigintIsAStopRequestThenTheDefaultActionIsBack) {
    const SigintHandlerForTest outer(countingHandler);
    gTestHandlerCalls = 0;
    {
        const kz::cli::SigintStop stop;
        EXPECT_TRUE(stop.installed());
        EXPECT_FALSE(stop.requested().load());
        ASSERT_EQ(std::raise(SIGINT), 0);
        EXPECT_TRUE(stop.requested().load());
        EXPECT_EQ(gTestHandlerCalls.load(), 0);
        // A second Ctrl-C would end the process: SIGINT's default action.
        EXPECT_EQ(sigintAction().sa_handler, SIG_DFL);
    }
    // The handler found at construction is back.
    EXPECT_EQ(sigintAction().sa_handler, &countingHandler);
    ASSERT_EQ(std::raise(SIGINT), 0);
    EXPECT_EQ(gTestHandlerCalls.load(), 1);
}

TEST(SigintStop, EachStopStartsUnrequestedAndPutsBackTheHandlerItFound) {
    const SigintHandlerForTest outer(countingHandler);
    {
        const kz::cli::SigintStop first;
        ASSERT_EQ(std::raise(SIGINT), 0);
        EXPECT_TRUE(first.requested().load());
    }
    const kz::cli::SigintStop second;
    EXPECT_FALSE(second.requested().load());
    EXPECT_NE(sigintAction().sa_handler, SIG_DFL);
    EXPECT_NE(sigintAction().sa_handler, &countingHandler);
}

TEST(SigintStop, AnIgnoredSigintStaysIgnored) {
    const SigintHandlerForTest outer(SIG_IGN);
    {
        const kz::cli::SigintStop stop;
        EXPECT_FALSE(stop.installed());
        EXPECT_EQ(sigintAction().sa_handler, SIG_IGN);
        ASSERT_EQ(std::raise(SIGINT), 0);
        EXPECT_FALSE(stop.requested().load());
    }
    EXPECT_EQ(sigintAction().sa_handler, SIG_IGN);
}

// ---------------------------------------------------------------- runHeadless stopped

using kz::test::smallWorld;

/// A control whose progress callback (called after every step) records each call and sets the stop
/// flag once `stopAt` steps are taken.
struct StopAtStep {
    std::atomic<bool> stop{false};
    std::vector<kz::HeadlessProgress> calls;

    kz::HeadlessControl control(std::uint64_t stopAt) {
        kz::HeadlessControl result;
        result.stop = &stop;
        result.progress = [this, stopAt](const kz::HeadlessProgress& progress) {
            calls.push_back(progress);
            if (progress.steps == stopAt) stop = true;
        };
        result.progressInterval = Clock::duration::zero();
        return result;
    }
};

/// The report without its timing, and without "interrupted": what two runs of the same steps share.
Json withoutTimingAndInterrupted(Json report) {
    report.erase("ms_per_step_median");
    report.erase("interrupted");
    return report;
}

TEST(RunHeadlessStopped, ReportsTheStepsTakenAsARunOfThatManyStepsWouldAndSaysItWasInterrupted) {
    StopAtStep watch;
    kz::World world = smallWorld();
    const Json report = kz::runHeadless(world, {"small", 0, 120, watch.control(37)});
    EXPECT_EQ(world.stepCount(), 37u);
    EXPECT_EQ(report["steps"], 37u);
    ASSERT_TRUE(report.contains("interrupted"));
    EXPECT_EQ(report["interrupted"], true);
    // Right after "steps".
    std::vector<std::string> keys;
    for (const auto& item : report.items())
        keys.push_back(item.key());
    ASSERT_GT(keys.size(), 3u);
    EXPECT_EQ(keys[2], "steps");
    EXPECT_EQ(keys[3], "interrupted");

    kz::World fresh = smallWorld();
    const Json whole = kz::runHeadless(fresh, {"small", 0, 37});
    EXPECT_FALSE(whole.contains("interrupted"));
    EXPECT_EQ(report["state_hash"], whole["state_hash"]);
    EXPECT_EQ(withoutTimingAndInterrupted(report), withoutTimingAndInterrupted(whole));
}

TEST(RunHeadlessStopped, ItsProgressCountsEveryStepThenTheFinishedCallSaysInterrupted) {
    StopAtStep watch;
    kz::World world = smallWorld();
    kz::runHeadless(world, {"small", 0, 120, watch.control(30)});
    ASSERT_EQ(watch.calls.size(), 31u);
    for (std::uint64_t i = 0; i < 30; ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(watch.calls[i].steps, i + 1);
        EXPECT_EQ(watch.calls[i].totalSteps, 120u);
        EXPECT_FALSE(watch.calls[i].finished);
    }
    const kz::HeadlessProgress& last = watch.calls.back();
    EXPECT_EQ(last.steps, 30u);
    EXPECT_EQ(last.simSeconds, 0.25); // 30 steps of 1/120 s
    EXPECT_TRUE(last.finished);
    EXPECT_TRUE(last.interrupted);
}

TEST(RunHeadlessStopped, AStopAfterTheLastStepIsNoInterruption) {
    StopAtStep watch;
    kz::World world = smallWorld();
    const Json report = kz::runHeadless(world, {"small", 0, 40, watch.control(40)});
    EXPECT_EQ(report["steps"], 40u);
    EXPECT_FALSE(report.contains("interrupted"));
    ASSERT_FALSE(watch.calls.empty());
    EXPECT_TRUE(watch.calls.back().finished);
    EXPECT_FALSE(watch.calls.back().interrupted);
}

TEST(RunHeadlessStopped, AStopBeforeTheFirstStepTakesNone) {
    std::atomic<bool> stop{true};
    kz::World world = smallWorld();
    const kz::World untouched = smallWorld();
    const Json report = kz::runHeadless(world, {"small", 0, 40, {&stop}});
    EXPECT_EQ(report["steps"], 0u);
    EXPECT_EQ(report["interrupted"], true);
    EXPECT_EQ(report["state_hash"], kz::stateHashText(kz::stateHash(untouched)));
}

TEST(RunHeadlessStopped, ProgressComesAtMostOnceAnIntervalThenOnceAtTheEnd) {
    std::vector<kz::HeadlessProgress> calls;
    kz::HeadlessControl control;
    control.progress = [&](const kz::HeadlessProgress& progress) { calls.push_back(progress); };
    control.progressInterval = std::chrono::hours(1);
    kz::World world = smallWorld();
    kz::runHeadless(world, {"small", 0, 50, control});
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_TRUE(calls[0].finished);
    EXPECT_FALSE(calls[0].interrupted);
    EXPECT_EQ(calls[0].steps, 50u);
}

// ---------------------------------------------------------------- runHeadlessReplay stopped

/// A session on two-balls whose inputs come at ticks 10, 60 and 90, stepped to `ticks`.
kz::Session twoBallsSession(std::uint64_t ticks) {
    std::string error;
    std::optional<kz::Session> session = kz::Session::start(
        kz::loadWithSeed(kz::readSessionScenario("two-balls", error), std::nullopt), error);
    EXPECT_TRUE(session) << error;
    for (std::uint64_t tick = 0; tick < ticks; ++tick) {
        std::string applied;
        if (tick == 10) applied = session->apply(kz::SetBodyVelocity{0, {3.0f, 1.0f, 0.5f}, {}});
        if (tick == 60) applied = session->apply(kz::SetGravity{{0.0f, -9.81f, 0.0f}});
        if (tick == 90) applied = session->apply(kz::SetBodyVelocity{1, {-2.0f, 0.0f, 1.0f}, {}});
        EXPECT_EQ(applied, "") << "tick " << tick;
        session->step();
    }
    return std::move(*session);
}

TEST(RunHeadlessReplayStopped, IsTheWorldAfterItsLastStepBeforeThatTicksInputsAndIsNotVerified) {
    kz::Recording recording = kz::recordingOf(twoBallsSession(120));
    // A replay that ran to its end would diverge from this hash; stopped, it is not checked.
    recording.stateHash ^= 1;
    StopAtStep watch;
    const kz::HeadlessReplay replay = kz::runHeadlessReplay(recording, nullptr, watch.control(60));
    ASSERT_EQ(replay.error, "");
    EXPECT_TRUE(replay.interrupted);
    EXPECT_EQ(replay.verdict, "");
    EXPECT_EQ(replay.report["steps"], 60u);
    EXPECT_EQ(replay.report["interrupted"], true);
    // Tick 60's gravity is not applied: the state is the session's after 60 steps.
    EXPECT_EQ(replay.report["state_hash"], kz::stateHashText(kz::stateHash(twoBallsSession(60).world())));
    ASSERT_FALSE(watch.calls.empty());
    EXPECT_EQ(watch.calls.front().totalSteps, 120u);

    const kz::HeadlessReplay whole = kz::runHeadlessReplay(recording);
    EXPECT_FALSE(whole.interrupted);
    EXPECT_FALSE(whole.report.contains("interrupted"));
    EXPECT_EQ(whole.verdict.rfind("(recording): replay diverged: state_hash ", 0), 0u) << whole.verdict;
}

// ---------------------------------------------------------------- the kolize binary

/// A kolize process, killed (SIGKILL) and reaped if the test leaves before it ended.
class Child {
public:
    explicit Child(pid_t pid) : pid_(pid) {}
    ~Child() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    pid_t pid() const { return pid_; }

    /// Its exit code once it exits (within kPatience), or -1 (killed by a signal, or still running:
    /// then killed).
    int exitCode() {
        const auto deadline = Clock::now() + kPatience;
        int status = 0;
        while (::waitpid(pid_, &status, WNOHANG) == 0) {
            if (Clock::now() > deadline) return -1; // the destructor kills it
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

private:
    pid_t pid_;
};

/// kolize with `args`, stdout to /dev/null and stderr to `stderrFile`.
pid_t spawnKolize(const std::vector<std::string>& args, const fs::path& stderrFile) {
    std::vector<std::string> words = {KOLIZE_EXE};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    // SIGINT's default action and no blocked signal, whatever this process has: kolize catches it.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t signals;
    sigemptyset(&signals);
    posix_spawnattr_setsigmask(&attributes, &signals);
    sigaddset(&signals, SIGINT);
    posix_spawnattr_setsigdefault(&attributes, &signals);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrFile.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = -1;
    const int failed = posix_spawn(&pid, KOLIZE_EXE, &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return failed == 0 ? pid : -1;
}

/// Runs kolize with `args` to its end (stdout to /dev/null); its exit code.
int runKolize(const std::vector<std::string>& args, const fs::path& stderrFile) {
    Child child(spawnKolize(args, stderrFile));
    return child.pid() > 0 ? child.exitCode() : -1;
}

/// Whether process `pid` catches SIGINT (its SigCgt mask in /proc/PID/status).
bool catchesSigint(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("SigCgt:", 0) == 0)
            return (std::stoull(line.substr(7), nullptr, 16) >> (SIGINT - 1)) & 1;
    }
    return false;
}

/// The CPU time process `pid` has used, seconds (/proc/PID/stat's utime and stime).
double cpuSeconds(pid_t pid) {
    std::ifstream statFile("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(statFile)), std::istreambuf_iterator<char>());
    // The fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    std::string field;
    double ticks = 0.0;
    for (int number = 3; number <= 15 && fields >> field; ++number) {
        if (number >= 14) ticks += std::stod(field);
    }
    return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

/// Waits until `pid` catches SIGINT (its run has begun: kolize installs the handler just before the
/// first step), then until it has stepped for `seconds` of CPU time on its one thread. False when
/// that does not come within kPatience.
bool waitUntilStepping(pid_t pid, double seconds) {
    const auto deadline = Clock::now() + kPatience;
    while (!catchesSigint(pid)) {
        if (Clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const double begun = cpuSeconds(pid);
    while (cpuSeconds(pid) < begun + seconds) {
        if (Clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

/// kolize on a pseudo-terminal (its stdin, stdout and stderr, and its controlling terminal): what
/// it writes is read through the terminal's master side, and a typed Ctrl-C is a SIGINT.
class PtyKolize {
public:
    explicit PtyKolize(const std::vector<std::string>& args) {
        std::vector<std::string> words = {KOLIZE_EXE};
        words.insert(words.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& word : words)
            argv.push_back(word.data());
        argv.push_back(nullptr);
        const pid_t pid = ::forkpty(&master_, nullptr, nullptr, nullptr);
        if (pid == 0) {
            // No echo: a typed Ctrl-C's "^C" would land at an unknown place among kolize's lines.
            termios modes{};
            ::tcgetattr(STDIN_FILENO, &modes);
            modes.c_lflag &= ~static_cast<tcflag_t>(ECHO);
            ::tcsetattr(STDIN_FILENO, TCSANOW, &modes);
            sigset_t none;
            sigemptyset(&none);
            ::sigprocmask(SIG_SETMASK, &none, nullptr);
            ::signal(SIGINT, SIG_DFL);
            ::execv(KOLIZE_EXE, argv.data());
            ::_exit(127);
        }
        child_.emplace(pid);
    }
    ~PtyKolize() {
        child_.reset();
        if (master_ >= 0) ::close(master_);
    }

    bool started() const { return child_ && child_->pid() > 0; }
    const std::string& output() const { return output_; }

    /// Reads until the output holds `text`; false if it does not within kPatience (or at the end).
    bool readUntil(const std::string& text) {
        const auto deadline = Clock::now() + kPatience;
        while (output_.find(text) == std::string::npos) {
            if (Clock::now() > deadline || !readSome(deadline)) return false;
        }
        return true;
    }
    /// Reads until the terminal closes (kolize has exited), within kPatience.
    void readToEnd() {
        const auto deadline = Clock::now() + kPatience;
        while (Clock::now() < deadline && readSome(deadline)) {
        }
    }
    /// Types `keys` on the terminal.
    bool type(const std::string& keys) {
        return ::write(master_, keys.data(), keys.size()) == static_cast<ssize_t>(keys.size());
    }
    int exitCode() { return child_->exitCode(); }

private:
    /// One read of what is there; false at the end (the terminal closed) or past `deadline`.
    bool readSome(Clock::time_point deadline) {
        pollfd entry{master_, POLLIN, 0};
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0 || ::poll(&entry, 1, static_cast<int>(left.count())) <= 0) return false;
        char buffer[4096];
        const ssize_t got = ::read(master_, buffer, sizeof buffer);
        if (got <= 0) return false; // EIO on Linux once the child's side is closed
        output_.append(buffer, static_cast<std::size_t>(got));
        return true;
    }

    int master_ = -1;
    std::optional<Child> child_;
    std::string output_;
};

Json readJson(const fs::path& file) {
    std::ifstream in(file);
    return Json::parse(in, nullptr, false);
}

TEST(KolizeLongRun, SigintWritesAValidReportOfTheStepsTakenAndExits130WithoutProgressOffATerminal) {
    const kz::test::TempDir dir;
    const fs::path report = dir.path() / "report.json";
    const fs::path err = dir.path() / "stderr.txt";
    Child child(spawnKolize({"--headless", "--scenario", "mixed-100", "--steps", "10000000", "--threads", "1",
                             "--report", report.string()},
                            err));
    ASSERT_GT(child.pid(), 0);
    // A second of stepping: a terminal would have had its progress line refreshed several times.
    ASSERT_TRUE(waitUntilStepping(child.pid(), 1.0)) << kz::test::readBytes(err);
    ASSERT_EQ(::kill(child.pid(), SIGINT), 0);
    ASSERT_EQ(child.exitCode(), 130) << kz::test::readBytes(err);

    const Json stopped = readJson(report);
    ASSERT_TRUE(stopped.is_object()) << kz::test::readBytes(report);
    EXPECT_EQ(stopped["interrupted"], true);
    const std::uint64_t steps = stopped["steps"].get<std::uint64_t>();
    EXPECT_GT(steps, 0u);
    EXPECT_LT(steps, 10000000u);
    // stderr is a file: no progress text, only the line that says what happened.
    EXPECT_EQ(kz::test::readBytes(err), "kolize: interrupted (SIGINT) after " + std::to_string(steps) +
                                            " of 10000000 steps; the report is the world's after them\n");

    // A fresh run of exactly that many steps (on two threads) ends in the same world, bit for bit.
    const fs::path freshReport = dir.path() / "fresh.json";
    ASSERT_EQ(runKolize({"--headless", "--scenario", "mixed-100", "--steps", std::to_string(steps),
                         "--threads", "2", "--report", freshReport.string()},
                        dir.path() / "fresh_stderr.txt"),
              0);
    const Json fresh = readJson(freshReport);
    ASSERT_TRUE(fresh.is_object());
    EXPECT_FALSE(fresh.contains("interrupted"));
    EXPECT_EQ(stopped["state_hash"], fresh["state_hash"]);
    EXPECT_EQ(withoutTimingAndInterrupted(stopped), withoutTimingAndInterrupted(fresh));
}

TEST(KolizeLongRun, OnATerminalItShowsItsProgressAndCtrlCStopsItAfterTheCurrentStep) {
    const kz::test::TempDir dir;
    const fs::path report = dir.path() / "report.json";
    PtyKolize kolize({"--headless", "--scenario", "mixed-100", "--steps", "10000000", "--threads", "2",
                      "--report", report.string()});
    ASSERT_TRUE(kolize.started());
    ASSERT_TRUE(kolize.readUntil(" steps/s")) << kolize.output();
    ASSERT_TRUE(kolize.type("\x03")); // Ctrl-C, as typed: the terminal sends SIGINT
    kolize.readToEnd();
    EXPECT_EQ(kolize.exitCode(), 130) << kolize.output();

    const std::string& out = kolize.output();
    EXPECT_EQ(out.rfind("\r", 0), 0u) << out; // the line is rewritten from its start
    EXPECT_NE(out.find(" / 10,000,000 steps ("), std::string::npos) << out;
    EXPECT_NE(out.find(" s simulated, "), std::string::npos) << out;
    EXPECT_NE(out.find(" left\x1b[K"), std::string::npos) << out;
    // The last progress line, ended; then the line that says what happened, on a line of its own
    // (the terminal writes each line end as "\r\n").
    const std::size_t stopped = out.find(", stopped after ");
    ASSERT_NE(stopped, std::string::npos) << out;
    const std::size_t said = out.find("\x1b[K\r\nkolize: interrupted (SIGINT) after ", stopped);
    EXPECT_NE(said, std::string::npos) << out;
    EXPECT_EQ(out.find('\r', said + 5), out.size() - 2) << out; // nothing after it but its line end

    const Json written = readJson(report);
    ASSERT_TRUE(written.is_object()) << kz::test::readBytes(report);
    EXPECT_EQ(written["interrupted"], true);
    EXPECT_GT(written["steps"].get<std::uint64_t>(), 0u);
    EXPECT_LT(written["steps"].get<std::uint64_t>(), 10000000u);
}

TEST(KolizeLongRun, AnInterruptedReplayWritesItsReportAndIsNotCalledADivergence) {
    const kz::test::TempDir dir;
    // A recording of mixed-100 whose end is far away, with a state hash it would not end on.
    std::string error;
    std::optional<kz::Session> session = kz::Session::start(
        kz::loadWithSeed(kz::readSessionScenario("mixed-100", error), std::nullopt), error);
    ASSERT_TRUE(session) << error;
    kz::Recording recording = kz::recordingOf(*session);
    recording.endTick = 10000000;
    recording.stateHash ^= 1;
    const fs::path file = dir.path() / "long.kzr";
    ASSERT_TRUE(kz::saveRecording(file, recording, error)) << error;

    const fs::path report = dir.path() / "report.json";
    PtyKolize kolize(
        {"--headless", "--replay", file.string(), "--threads", "1", "--report", report.string()});
    ASSERT_TRUE(kolize.started());
    ASSERT_TRUE(kolize.readUntil(" steps/s")) << kolize.output();
    ASSERT_TRUE(kolize.type("\x03"));
    kolize.readToEnd();
    EXPECT_EQ(kolize.exitCode(), 130) << kolize.output();
    EXPECT_NE(
        kolize.output().find("; the replay did not reach its end, so its end state was not checked\r\n"),
        std::string::npos)
        << kolize.output();
    EXPECT_EQ(kolize.output().find("diverged"), std::string::npos) << kolize.output();
    const Json written = readJson(report);
    ASSERT_TRUE(written.is_object()) << kz::test::readBytes(report);
    EXPECT_EQ(written["interrupted"], true);
    EXPECT_GT(written["steps"].get<std::uint64_t>(), 0u);
}

} // namespace
