// The query lab's mouse, as a state machine with plain inputs (no SDL, GL or ImGui; tested without
// a display in tests/app/test_lab.cpp): a left press grabs the shape or handle under the cursor
// and it follows the cursor in the plane facing the camera (ScreenCamera::pointAtDepth, as a
// dragged body does); a right press on a shape (or a left press with Shift) grabs it to turn it:
// the cursor's motion turns it about the camera's up axis (x) and right axis (y), so the side
// facing the camera moves with the cursor. A right press on empty space grabs nothing: the app
// orbits the camera then.
#pragma once

#include "app/lab/scene.hpp"
#include "app/view/interaction.hpp"

#include <optional>

namespace kz {

enum class LabButton { Left, Right };

class LabInteraction {
public:
    static constexpr float kRadiansPerPixel = 0.01f; ///< How fast a turned shape turns.

    /// A press at `pos` (SDL window coordinates). Returns whether it grabbed an item; a press over
    /// the panel grabs nothing.
    bool press(const LabScene& scene, const ScreenCamera& screen, glm::vec2 pos, LabButton button, bool shift,
               bool panelWantsMouse);
    /// Once per frame: the grabbed item follows the cursor, or turns by the cursor's motion since
    /// the last call. The grabbing button found up (released outside the window, unseen) ends the
    /// grab.
    void drag(LabScene& scene, const ScreenCamera& screen, const Pointer& pointer);
    /// A release of `button`: ends a grab it made.
    void release(LabButton button);
    /// Once per frame: the item under the cursor (none when the pointer is not over the scene).
    void hover(const LabScene& scene, const ScreenCamera& screen, const Pointer& pointer);
    /// A new scene: forgets the grab and the hover.
    void forget();

    std::optional<LabItem> grabbed() const;
    bool turning() const { return grab_ && grab_->turn; }
    std::optional<LabItem> hovered() const { return hover_; }

private:
    struct Grab {
        LabItem item;     ///< The shape or handle held.
        LabButton button; ///< The button that grabbed it; its release ends the grab.
        bool turn;        ///< Turning (a shape), else moving.
        glm::vec3 offset; ///< Item position minus the grabbed point (moving).
        float depth;      ///< The grabbed point's depth along the camera's forward axis.
        glm::vec2 last;   ///< The cursor at the last drag (turning).
    };
    std::optional<Grab> grab_;
    std::optional<LabItem> hover_;
};

} // namespace kz
