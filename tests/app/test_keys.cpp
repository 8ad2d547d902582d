// The key table (src/app/ui/keys.hpp): the key handling and the Help read it, so what the Help lists
// is what the keys do. Here: every key is bound once, every action has a key, and each binding is
// found by its key.
#include "app/ui/keys.hpp"

#include <gtest/gtest.h>
#include <set>
#include <string>

namespace {

using kz::KeyAction;

TEST(KeyTable, EveryKeyIsBoundOnceAndEveryActionHasAKey) {
    std::set<SDL_Keycode> keys;
    std::set<KeyAction> actions;
    for (const kz::KeyRow& row : kz::keyTable()) {
        for (const kz::KeyBinding& binding : row.bindings) {
            EXPECT_TRUE(keys.insert(binding.key).second) << row.keys << " binds a key twice";
            actions.insert(binding.action);
            if (binding.shifted) actions.insert(*binding.shifted);
        }
    }
    EXPECT_EQ(actions.size(), static_cast<std::size_t>(KeyAction::StepForward10) + 1);
}

TEST(KeyTable, FindKeyReturnsTheRowsBindingAndNullForAnUnboundKey) {
    const kz::KeyBinding* space = kz::findKey(SDLK_SPACE);
    ASSERT_NE(space, nullptr);
    EXPECT_EQ(space->action, KeyAction::TogglePause);
    EXPECT_FALSE(space->repeats);
    const kz::KeyBinding* step = kz::findKey(SDLK_n);
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->action, KeyAction::SingleStep);
    EXPECT_TRUE(step->repeats); // held N steps on: the only key that repeats
    EXPECT_EQ(kz::findKey(SDLK_z), nullptr);
}

TEST(KeyTable, TheHelpListsTheKeysThenTheMouse) {
    const auto& table = kz::keyTable();
    ASSERT_FALSE(table.empty());
    EXPECT_EQ(std::string(table.front().keys), "Esc");
    EXPECT_EQ(std::string(table.back().keys), "wheel");
    EXPECT_TRUE(table.back().bindings.empty()); // mouse lines: the interaction handles them
}

TEST(KeyTable, KeyLabelNamesTheKeysAButtonShows) {
    EXPECT_EQ(std::string(kz::keyLabel(KeyAction::Pause)), "P");
    EXPECT_EQ(std::string(kz::keyLabel(KeyAction::ResetView)), "Home");
    EXPECT_EQ(std::string(kz::keyLabel(KeyAction::Screenshot)), "F12");
}

} // namespace
