// Test support: the golden state hashes, shared by the golden-state test (tests/scenario), which
// steps each built-in scenario in-process, and the golden-report test (tests/app), whose reports
// carry the same hash as their state_hash: every built-in scenario's stateHash after 2,000 steps
// with its own seed. A change meant to move them records the new values and says why.
#pragma once

#include <map>
#include <string>

namespace kz::test {

inline const std::map<std::string, std::string> kGoldenStates = {
    {"boxes", "ba73bf3d78f071f2"},        {"deterministic", "fbcf27aa4afe9f94"},
    {"gravity-pile", "6b431436b3c35f9f"}, {"high-speed", "cb6414252e4aad0b"},
    {"lamp-arch", "e900669459cdfaec"},    {"mesh-playground", "171b5b7b27a24e6a"},
    {"mixed-100", "58e0d63b4c278876"},    {"random", "b40517989ec9d5b5"},
    {"slanted-room", "dbb79efbb6f4641c"}, {"two-balls", "c612aba85b9900e4"},
};

} // namespace kz::test
