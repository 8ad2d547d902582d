#include "app/cli/long_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace kz::cli {
namespace {

// A signal handler may only store to a lock-free atomic (or a volatile sig_atomic_t).
static_assert(std::atomic<bool>::is_always_lock_free);
std::atomic<bool> gSigintCame{false};

extern "C" void onSigint(int) {
    gSigintCame.store(true, std::memory_order_relaxed);
}

/// "%.1f" of `value`.
std::string oneDecimal(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

} // namespace

std::string groupedDigits(std::uint64_t value) {
    const std::string digits = std::to_string(value);
    std::string grouped;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
        grouped += digits[i];
    }
    return grouped;
}

std::string durationText(double seconds) {
    seconds = std::max(seconds, 0.0);
    // Tenths below 10 s: a short run took 0.4 s, not 0 s.
    if (seconds < 9.95) return oneDecimal(seconds) + " s";
    const auto whole = static_cast<std::uint64_t>(std::llround(seconds));
    if (whole < 60) return std::to_string(whole) + " s";
    char text[64];
    if (whole < 3600) {
        std::snprintf(text, sizeof text, "%u min %02u s", static_cast<unsigned>(whole / 60),
                      static_cast<unsigned>(whole % 60));
    } else {
        std::snprintf(text, sizeof text, "%llu h %02u min", static_cast<unsigned long long>(whole / 3600),
                      static_cast<unsigned>(whole % 3600 / 60));
    }
    return text;
}

std::string progressText(const HeadlessProgress& progress) {
    std::string text = groupedDigits(progress.steps) + " / " + groupedDigits(progress.totalSteps) + " steps";
    if (progress.totalSteps > 0)
        text += " (" +
                oneDecimal(100.0 * static_cast<double>(progress.steps) /
                           static_cast<double>(progress.totalSteps)) +
                "%)";
    text += ", " + oneDecimal(progress.simSeconds) + " s simulated";
    const bool timed = progress.steps > 0 && progress.wallSeconds > 0.0;
    const double rate = timed ? static_cast<double>(progress.steps) / progress.wallSeconds : 0.0;
    if (timed) {
        text += ", " +
                (rate >= 100.0 ? groupedDigits(static_cast<std::uint64_t>(std::llround(rate)))
                               : oneDecimal(rate)) +
                " steps/s";
    }
    if (progress.finished) {
        text += (progress.interrupted ? ", stopped after " : ", took ") + durationText(progress.wallSeconds);
    } else if (timed && progress.totalSteps >= progress.steps) {
        text +=
            ", " + durationText(static_cast<double>(progress.totalSteps - progress.steps) / rate) + " left";
    }
    return text;
}

ProgressLine ProgressLine::onStderr() {
    return ProgressLine(std::cerr, ::isatty(STDERR_FILENO) == 1);
}

void ProgressLine::show(const HeadlessProgress& progress) {
    if (!enabled_ || (progress.finished && !shown_)) return;
    // One write a call: "\r" back to the line's start, "\x1b[K" clears what a longer text left.
    std::string line = "\r" + progressText(progress) + "\x1b[K";
    if (progress.finished) line += '\n';
    out_ << line << std::flush;
    shown_ = !progress.finished;
}

SigintStop::SigintStop() {
    gSigintCame.store(false, std::memory_order_relaxed);
    sigaction(SIGINT, nullptr, &previous_);
    if (!(previous_.sa_flags & SA_SIGINFO) && previous_.sa_handler == SIG_IGN) return;
    struct sigaction action {};
    action.sa_handler = onSigint;
    sigemptyset(&action.sa_mask);
    // SA_RESETHAND: the handler runs once, then SIGINT's default action is back (a second Ctrl-C
    // ends the process). SA_RESTART: a write the signal lands in goes on instead of failing.
    action.sa_flags = SA_RESETHAND | SA_RESTART;
    installed_ = sigaction(SIGINT, &action, nullptr) == 0;
}

SigintStop::~SigintStop() {
    if (installed_) sigaction(SIGINT, &previous_, nullptr);
}

const std::atomic<bool>& SigintStop::requested() const {
    return gSigintCame;
}

} // namespace kz::cli
