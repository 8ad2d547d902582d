// Helpers shared by kz_session's files: std::visit over SessionInput with one lambda per kind, the
// names a recording's line can hold, and a float as the shortest decimal that reads back as it.
// Internal to kz_session.
#pragma once

#include <charconv>
#include <string>
#include <string_view>

namespace kz::session_detail {

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

/// Whether `name` (a scenario key or a mesh file name) can stand on a recording's line: not empty,
/// no control characters (line ends, NUL, tabs).
inline bool lineSafeName(std::string_view name) {
    if (name.empty()) return false;
    for (const char c : name) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) return false;
    }
    return true;
}

/// `value` as the shortest decimal that reads back as it (std::to_chars): 0.1f is "0.1".
inline std::string shortest(float value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

} // namespace kz::session_detail
