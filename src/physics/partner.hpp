// Who a body meets in a candidate pair or a contact: another body, a wall or an obstacle.
#pragma once

#include <cstdint>

namespace kz {

/// The other side of a pair whose first side is a body: one tagged index, where the step used to
/// carry a (body, wall, obstacle) triple with -1 for "not this one". Walls and obstacles are
/// static (infinite mass); only a Body partner moves.
struct Partner {
    enum class Kind : std::uint8_t {
        Body,     ///< index into World::bodies().
        Wall,     ///< index into Room::planes (and Room::walls).
        Obstacle, ///< index into World::obstacles().
    };
    Kind kind;
    int index;

    static Partner body(int i) { return {Kind::Body, i}; }
    static Partner wall(int i) { return {Kind::Wall, i}; }
    static Partner obstacle(int i) { return {Kind::Obstacle, i}; }
    bool isBody() const { return kind == Kind::Body; }
    bool isWall() const { return kind == Kind::Wall; }
    bool isObstacle() const { return kind == Kind::Obstacle; }
    bool operator==(const Partner&) const = default;
};

/// One key per pair of body a and a partner, ordered by a first (the warm-start cache and the
/// per-pair contact filter sort on it).
inline std::uint64_t pairKey(int a, Partner partner) {
    const std::uint32_t tag = partner.kind == Partner::Kind::Body       ? 0u
                              : partner.kind == Partner::Kind::Obstacle ? 0x20000000u
                                                                        : 0x40000000u;
    return (static_cast<std::uint64_t>(a) << 32) |
           static_cast<std::uint64_t>(tag | static_cast<std::uint32_t>(partner.index));
}

} // namespace kz
