// Long headless runs on a terminal: a progress line on stderr and Ctrl-C as "stop and report".
// The headless loop (headless.hpp) only reads a stop flag and calls a progress callback between
// steps; the terminal and the signal are here, in the app's command-line code, never in the
// physics.
#pragma once

#include "app/cli/headless.hpp"

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <signal.h>
#include <string>

namespace kz::cli {

/// The progress line's text, without a line end:
/// "120,000 / 10,000,000 steps (1.2%), 1000.0 s simulated, 11,950 steps/s, 13 min 47 s left".
/// Once finished, the time left gives way to "took 10 s", or "stopped after 10 s" when
/// interrupted. The rate is the steps so far over the wall time so far; the time left is the steps
/// left at that rate (left out while no step has been timed).
std::string progressText(const HeadlessProgress& progress);

/// `value` with a comma between each group of three digits: 10000000 as "10,000,000".
std::string groupedDigits(std::uint64_t value);

/// A duration as a person reads it: "0.4 s", "7.0 s" (tenths below 10 s), "12 s", "13 min 47 s",
/// "2 h 05 min" (rounded).
std::string durationText(double seconds);

/// A single line on `out` rewritten in place: each show() writes '\r', the text and "ESC[K" (the
/// rest of the line cleared); the run's last (finished) call writes the final text and a line end,
/// only when a line was shown before, so a short run writes nothing and later output starts on a
/// line of its own. Disabled, it writes nothing at all.
class ProgressLine {
public:
    ProgressLine(std::ostream& out, bool enabled) : out_(out), enabled_(enabled) {}

    /// On stderr, enabled when stderr is a terminal (isatty): not on a pipe, a file or in CI.
    static ProgressLine onStderr();

    void show(const HeadlessProgress& progress);
    /// show() as a HeadlessControl::progress callback (the line must outlive the run).
    auto callback() {
        return [this](const HeadlessProgress& progress) { show(progress); };
    }

private:
    std::ostream& out_;
    bool enabled_ = false;
    bool shown_ = false; ///< A line is on the screen, not yet ended.
};

/// Ctrl-C as a request to stop, while this lives (one at a time). The first SIGINT sets
/// requested() (a headless run then ends after its current step) and puts back SIGINT's default
/// action, so a second one ends the process at once; the destructor puts back the action found at
/// construction. When SIGINT was ignored (a job started in the background by a shell without job
/// control, or under nohup), it stays ignored and requested() stays false.
class SigintStop {
public:
    SigintStop();
    ~SigintStop();
    SigintStop(const SigintStop&) = delete;
    SigintStop& operator=(const SigintStop&) = delete;

    /// True once SIGINT came; for HeadlessControl::stop. Set from the signal handler.
    const std::atomic<bool>& requested() const;
    /// False when SIGINT was ignored and left so.
    bool installed() const { return installed_; }

private:
    struct sigaction previous_ {};
    bool installed_ = false;
};

} // namespace kz::cli
