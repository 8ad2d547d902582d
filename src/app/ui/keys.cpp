#include "app/ui/keys.hpp"

namespace kz {

const std::vector<KeyRow>& keyTable() {
    using A = KeyAction;
    static const std::vector<KeyRow> table = {
        {"Esc", "quit", {{SDLK_ESCAPE, A::Quit}}},
        {"P", "pause", {{SDLK_p, A::Pause}}},
        {"O", "resume", {{SDLK_o, A::Resume}}},
        {"Space", "pause / resume", {{SDLK_SPACE, A::TogglePause}}},
        {"N", "single step (pauses first)", {{SDLK_n, A::SingleStep, true}}},
        {"S", "stop the camera", {{SDLK_s, A::StopSpin}}},
        {"R", "rotate the camera", {{SDLK_r, A::StartSpin}}},
        {"F", "reset: random bodies, new seed", {{SDLK_f, A::ResetRandom}}},
        {"D", "reset: the fixed set-up", {{SDLK_d, A::ResetFixed}}},
        {"Home", "reset the view", {{SDLK_HOME, A::ResetView}}},
        {"Tab", "hide / show the panel", {{SDLK_TAB, A::TogglePanel}}},
        {"F12", "screenshot", {{SDLK_F12, A::Screenshot}}},
        {"H", "this help", {{SDLK_h, A::ToggleHelp}}},
        {"L", "shadows on / off", {{SDLK_l, A::ToggleShadows}}},
        {"V", "BVH boxes on / off", {{SDLK_v, A::ToggleBvhBoxes}}},
        {"[ / ]",
         "BVH boxes: one level up / down",
         {{SDLK_LEFTBRACKET, A::BvhLevelUp}, {SDLK_RIGHTBRACKET, A::BvhLevelDown}}},
        {", / .",
         "timeline: one step back / forward (Shift: 10), pausing first",
         {{SDLK_COMMA, A::StepBack, true, A::StepBack10},
          {SDLK_PERIOD, A::StepForward, true, A::StepForward10}}},
        {"left click", "pick a body or a mesh (empty space clears)", {}},
        {"left drag", "move the picked body, release throws", {}},
        {"right drag", "orbit", {}},
        {"middle drag", "pan", {}},
        {"wheel", "zoom", {}},
    };
    return table;
}

const char* keyLabel(KeyAction action) {
    for (const KeyRow& row : keyTable()) {
        for (const KeyBinding& binding : row.bindings) {
            if (binding.action == action) return row.keys;
        }
    }
    return "";
}

const KeyBinding* findKey(SDL_Keycode key) {
    for (const KeyRow& row : keyTable()) {
        for (const KeyBinding& binding : row.bindings) {
            if (binding.key == key) return &binding;
        }
    }
    return nullptr;
}

} // namespace kz
