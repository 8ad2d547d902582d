// Test support: the golden state hashes, shared by the golden-state test (tests/scenario), which
// steps each built-in scenario in-process, and the golden-report test (tests/app), whose reports
// carry the same hash as their state_hash: every built-in scenario's stateHash after 2,000 steps
// with its own seed. A change meant to move them records the new values and says why.
// boxes, gravity-pile, high-speed and mesh-playground moved when free flight's energy projection
// stopped turning a body by more than a tenth of its flight's own turn (up to 2.3 rad in
// high-speed) to correct energy errors of at most 1e-6 of the level (projectOntoLevel).
#pragma once

#include <map>
#include <string>

namespace kz::test {

inline const std::map<std::string, std::string> kGoldenStates = {
    {"boxes", "b5f487d42793c4a5"},        {"deterministic", "fbcf27aa4afe9f94"},
    {"gravity-pile", "a30a8d028c306613"}, {"high-speed", "feef55c4247c517c"},
    {"lamp-arch", "e900669459cdfaec"},    {"mesh-playground", "97bef171baaecf4c"},
    {"mixed-100", "14427057cbf8f21c"},    {"mixed-pile", "ef40d13a8c1fdafc"},
    {"rolling-race", "da7dc19ddb7bd568"}, {"tumbling-hull", "1170dbb8f17a94bb"},
    {"random", "4e7df2debe337a99"},       {"slanted-room", "2cf5e312471212d9"},
    {"two-balls", "c612aba85b9900e4"},
};

} // namespace kz::test
