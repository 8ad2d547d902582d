// Settings that stay between runs of the window, the way desktop tools on Linux keep them: one JSON
// file, $XDG_CONFIG_HOME/kolize/settings.json (by default ~/.config/kolize/settings.json), read when
// the window starts and written when it quits. Flags win over it; --no-config ignores it; headless
// runs never read or write it. A file that cannot be read or makes no sense is one warning line
// and the defaults, never a refusal to start; a key of the wrong type or out of range takes its
// default, the others are kept; keys it does not know (a newer Kolize's) are ignored. No SDL, GL or
// ImGui here: the window (window/app.cpp) gathers what it keeps.
#pragma once

#include <filesystem>
#include <glm/glm.hpp>
#include <optional>
#include <string>

namespace kz {

/// What the window keeps. Each unset value is "no setting": the flag's default applies.
struct Settings {
    std::optional<glm::ivec2> windowSize;     ///< Logical size (SDL points), each side 1 to 16384.
    std::optional<glm::ivec2> windowPosition; ///< The window's top-left on the desktop, in points.
    std::string panelLayout;                  ///< Dear ImGui's ini text: where the panel and windows sit.
    std::optional<bool> shadows;
    std::optional<int> msaaSamples;             ///< As --msaa: 0 to 16 samples per pixel.
    std::optional<bool> spin;                   ///< The camera spins when the scenario sets no view.
    std::optional<float> spinSpeedDegPerSecond; ///< The panel's spin speed, -45 to 45.
    std::optional<std::string> scenario; ///< The last scenario: a built-in name or a file's absolute path.
    std::optional<std::string> labQuery; ///< The last lab query opened (a lab query's name).
    bool labOpen = false;                ///< The window quit showing the lab (on labQuery).
    bool firstRunCardDismissed = false;  ///< The "Try this" card was closed once.
};

/// The settings file: $XDG_CONFIG_HOME/kolize/settings.json when XDG_CONFIG_HOME is an absolute path
/// (the XDG base directory rule: a relative one is ignored), else $HOME/.config/kolize/settings.json;
/// empty when neither is set. The arguments are those variables' values (null: unset).
std::optional<std::filesystem::path> settingsFile(const char* xdgConfigHome, const char* home);

/// settingsFile of this process's environment.
std::optional<std::filesystem::path> settingsFileFromEnvironment();

struct SettingsRead {
    Settings settings;
    /// One line when something was wrong (the file's path, where and what, and that defaults are
    /// used); empty when the file was fine or there was none (a first run).
    std::string warning;
};

/// Reads `file`. A missing file gives the defaults and no warning; an unreadable one (a folder, no
/// permission, over 1 MiB), one that is not JSON or not an object gives the defaults and a warning;
/// a key of the wrong type or out of range gives that key's default and a warning naming it.
SettingsRead readSettings(const std::filesystem::path& file);

/// Writes `settings` to `file`, making its folder: a temporary file next to it, then renamed over it,
/// so a crash never leaves half a file. False with `error` (one line naming the file) when it cannot.
bool writeSettings(const std::filesystem::path& file, const Settings& settings, std::string& error);

} // namespace kz
