// Test support: the golden state hashes, shared by the golden-state test (tests/scenario), which
// steps each built-in scenario in-process, and the golden-report test (tests/app), whose reports
// carry the same hash as their state_hash: every built-in scenario's stateHash after 2,000 steps
// with its own seed. A change meant to move them records the new values and says why.
#pragma once

#include <map>
#include <string>

namespace kz::test {

inline const std::map<std::string, std::string> kGoldenStates = {
    {"boxes", "80a8aed9d77a3b3f"},        {"deterministic", "fbcf27aa4afe9f94"},
    {"gravity-pile", "a988b9cba364dfdf"}, {"high-speed", "2dff8b8ce9e17009"},
    {"lamp-arch", "e900669459cdfaec"},    {"mesh-playground", "6e91739995988c93"},
    {"mixed-100", "789f129803e10c0a"},    {"random", "95fc8e1c5b6d13d7"},
    {"slanted-room", "9c72529a2b87c0a4"}, {"two-balls", "c612aba85b9900e4"},
};

} // namespace kz::test
