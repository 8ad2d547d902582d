// Helpers shared by kz_session's files: std::visit over SessionInput with one lambda per kind, and
// a float as the shortest decimal that reads back as it. Internal to kz_session.
#pragma once

#include <charconv>
#include <string>

namespace kz::session_detail {

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

/// `value` as the shortest decimal that reads back as it (std::to_chars): 0.1f is "0.1".
inline std::string shortest(float value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

} // namespace kz::session_detail
