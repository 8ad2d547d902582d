// The command-line programs' exit codes and one-line error, shared by kolize and the tools in
// src/tools (target kz_cli): a script reads the same codes and the same "program: message"
// line from each of them.
#pragma once

#include <iostream>
#include <string>
#include <string_view>

namespace kz::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1; ///< The run itself failed (non-finite numbers, a write error).
constexpr int kExitUsage = 2;   ///< Cannot start: bad flags or values, an input that cannot be
                                ///< loaded, or (kolize's window) no display or GL 3.3 context.
/// A headless run stopped by SIGINT (Ctrl-C), its report written for the steps it took: 128 + 2, the
/// code a shell gives a process that SIGINT ended.
constexpr int kExitInterrupted = 130;

/// One line on stderr, "program: message", whatever the message holds (line breaks become spaces,
/// so a script reading stderr line by line sees one error per line).
inline void printError(std::string_view program, std::string message) {
    for (char& c : message) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    std::cerr << program << ": " << message << '\n';
}

} // namespace kz::cli
