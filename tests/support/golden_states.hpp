// Test support: the golden state hashes, shared by the golden-state test (tests/scenario), which
// steps each built-in scenario in-process, and the golden-report test (tests/app), whose reports
// carry the same hash as their state_hash: every built-in scenario's stateHash after 2,000 steps
// with its own seed. A change meant to move them records the new values and says why.
#pragma once

#include <map>
#include <string>

namespace kz::test {

inline const std::map<std::string, std::string> kGoldenStates = {
    {"boxes", "3d35bb9b762ec026"},        {"deterministic", "fbcf27aa4afe9f94"},
    {"gravity-pile", "62043e3e0c091967"}, {"high-speed", "6ebc6acefce794f8"},
    {"lamp-arch", "e900669459cdfaec"},    {"mesh-playground", "a2fb4c7125e06708"},
    {"mixed-100", "14427057cbf8f21c"},    {"random", "4e7df2debe337a99"},
    {"slanted-room", "2cf5e312471212d9"}, {"two-balls", "c612aba85b9900e4"},
};

} // namespace kz::test
