// Test support: the golden state hashes, shared by the golden-state test (tests/scenario), which
// steps each built-in scenario in-process, and the golden-report test (tests/app), whose reports
// carry the same hash as their state_hash: every built-in scenario's stateHash after 2,000 steps
// with its own seed. A change meant to move them records the new values and says why.
#pragma once

#include <map>
#include <string>

namespace kz::test {

inline const std::map<std::string, std::string> kGoldenStates = {
    {"boxes", "03e3580c8eda9825"},        {"deterministic", "fbcf27aa4afe9f94"},
    {"gravity-pile", "e96b1d858bef4ce0"}, {"high-speed", "e6a5f38446895cac"},
    {"lamp-arch", "e900669459cdfaec"},    {"mesh-playground", "a26dce8b05e5d11e"},
    {"mixed-100", "4ebb872825b3048e"},    {"random", "27f9474276df5df7"},
    {"slanted-room", "d2e775524714747c"}, {"two-balls", "c612aba85b9900e4"},
};

} // namespace kz::test
