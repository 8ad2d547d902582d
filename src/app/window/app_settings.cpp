#include "app/cli/errors.hpp"
#include "app/window/app_internal.hpp"

#include <algorithm>
#include <filesystem>

namespace kz {
namespace {

/// A scenario key as the next run finds it: a built-in name as it is, a file by its absolute path
/// (the next run may start in another folder).
std::string lastingScenarioKey(const std::string& key, const std::vector<std::string>& builtins) {
    if (std::find(builtins.begin(), builtins.end(), key) != builtins.end()) return key;
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(key, ec);
    return ec ? key : absolute.lexically_normal().string();
}

bool sameRect(const ScreenRect& a, const ScreenRect& b) {
    return a.min == b.min && a.max == b.max;
}

} // namespace

Settings App::settingsNow() const {
    Settings settings = options_.settings;
    const WindowSizes sizes = platform_.sizes();
    settings.windowSize = sizes.window;
    settings.windowPosition = platform_.position();
    settings.panelLayout = platform_.ini();
    settings.shadows = ui_.shadows;
    settings.msaaSamples = options_.msaaSamples;
    settings.spin = spinWanted_;
    settings.spinSpeedDegPerSecond = ui_.spinSpeedDegPerSecond;
    // A replay's scenarios are the recording's, not a choice of the user's: the last one stays.
    if (options_.replay.empty())
        settings.scenario = lastingScenarioKey(session_->scenario().key, ui_.scenarioNames);
    if (labOpened_ || !options_.lastLabQuery.empty()) settings.labQuery = labQueryName(ui_.card.labQuery);
    settings.labOpen = lab_.isOpen();
    settings.firstRunCardDismissed = options_.settings.firstRunCardDismissed || ui_.card.dismissed;
    return settings;
}

void App::saveSettings() {
    if (!options_.settingsFile || !renderer_) return; // no window was opened: nothing to keep
    std::string error;
    if (!writeSettings(*options_.settingsFile, settingsNow(), error))
        cli::printError("kolize", "warning: " + error);
}

void App::logCard() {
    const std::optional<ScreenRect>& rect = ui_.card.rect;
    // Dear ImGui sizes a window in its first frame or two: the event waits for the same size twice.
    const bool settled = rect && cardLastFrame_ && sameRect(*rect, *cardLastFrame_);
    cardLastFrame_ = rect;
    if (settled && (!cardLogged_ || !sameRect(*cardLogged_, *rect))) {
        events_.card(frame_, glm::vec4(rect->min, rect->size()));
        cardLogged_ = rect;
    } else if (!rect && cardLogged_) {
        events_.card(frame_, std::nullopt);
        cardLogged_.reset();
    }
}

} // namespace kz
