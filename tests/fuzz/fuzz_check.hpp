// Fuzz harness support: the harnesses' own checks (beyond the sanitizers') abort with one line,
// so libFuzzer keeps the input as a crash and the regression test (replay_inputs.cpp) fails.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kz::fuzz {

/// Aborts with "fuzz check failed: <what>" on stderr unless `ok`.
inline void check(bool ok, const std::string& what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::abort();
}

/// A rejected input's message follows the loaders' contract: one line, starting with the name.
inline void checkErrorLine(const std::string& error, const std::string& name) {
    check(error.starts_with(name) && error.find_first_of("\r\n") == std::string::npos,
          "the error is not one line starting with '" + name + "': " + error);
}

} // namespace kz::fuzz
