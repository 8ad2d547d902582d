// Test support: SDL video on a real display, or a skip (a failure when KZ_REQUIRE_DISPLAY is set, as
// in scripts/test.sh), for the tests that open a window.
#pragma once

#include <SDL.h>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

namespace kz::test {

/// SDL video, or a skip (a failure when KZ_REQUIRE_DISPLAY is set, as in scripts/test.sh).
/// SDL falls back to its "offscreen" or "dummy" drivers when there is no display: those are
/// not a display either.
inline bool initVideoOrSkip() {
    std::string reason;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        reason = std::string("no display: ") + SDL_GetError();
    } else {
        const std::string driver = SDL_GetCurrentVideoDriver();
        if (driver != "offscreen" && driver != "dummy") return true;
        reason = "no display: SDL fell back to the '" + driver + "' video driver";
        SDL_Quit();
    }
    if (std::getenv("KZ_REQUIRE_DISPLAY") != nullptr) {
        ADD_FAILURE() << reason << " (KZ_REQUIRE_DISPLAY is set)";
    }
    return false;
}

} // namespace kz::test
