// The key table: every key the window answers to, with the action it runs and its line in the
// Help. The key handling (App::pollEvents and App::runKeyAction) and the Help (ui.cpp) both read
// this one table, so they cannot disagree. To add a key: add a KeyAction, a row in keyTable
// (keys.cpp) and its case in App::runKeyAction (app_actions.cpp).
#pragma once

#include <SDL_keycode.h>
#include <optional>
#include <vector>

namespace kz {

/// What a key does; each runs the same code as its panel button, if it has one.
enum class KeyAction {
    Quit,
    Pause,
    Resume,
    TogglePause,
    SingleStep,
    StopSpin,
    StartSpin,
    ResetRandom,
    ResetFixed,
    ResetView,
    TogglePanel,
    Screenshot,
    ToggleHelp,
    ToggleShadows,
    ToggleBvhBoxes,
    BvhLevelUp,
    BvhLevelDown,
    StepBack,      ///< The timeline one step back (Shift: 10), pausing first.
    StepForward,   ///< One step forward (Shift: 10): along the kept steps, else a new step.
    StepBack10,    ///< Shift + StepBack's key.
    StepForward10, ///< Shift + StepForward's key.
};

/// A key and the action it runs. Modifiers are not looked at (Shift+P pauses like P), except
/// by a binding with `shifted`, which runs instead of the plain one while Shift is held.
struct KeyBinding {
    SDL_Keycode key;
    KeyAction action;
    bool repeats = false; ///< Held down, it runs again at the keyboard's repeat rate.
    std::optional<KeyAction> shifted = std::nullopt; ///< Run instead while Shift is held.
};

/// One line of the Help: the keys or mouse gesture as shown, what they do, and the keys' bindings
/// (none for the mouse lines, which the interaction handles).
struct KeyRow {
    const char* keys;
    const char* action;
    std::vector<KeyBinding> bindings;
};

/// The Help's lines in order, keys first, then the mouse.
const std::vector<KeyRow>& keyTable();

/// The keys of the Help line that binds `action`, as shown ("P", "Home"); the panel's buttons name
/// their shortcut with it.
const char* keyLabel(KeyAction action);

/// The binding of `key`, or null when the window does not answer to it.
const KeyBinding* findKey(SDL_Keycode key);

} // namespace kz
