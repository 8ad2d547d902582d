// The window's mouse interaction, as a state machine with plain inputs (no SDL, GL or ImGui types,
// tested without a display in tests/app/test_interaction.cpp): a left click picks the nearest body
// or obstacle along the ray through the pixel (a click on empty space clears the pick); the
// cursor's hover is picked the same way every frame; a left press on a body grabs it, and once the
// mouse has moved a few pixels the body follows the cursor (drag returns the velocity input that
// takes it there); releasing it leaves it the velocity it had (a throw). Obstacles are static: picked, never
// dragged. Every click and drag is logged.
#pragma once

#include "app/cli/events.hpp"
#include "app/view/pick_state.hpp"
#include "physics/world.hpp"
#include "session/session_input.hpp"

#include <cstdint>
#include <optional>

namespace kz {

/// The picture the cursor points into: the matrices the frame on screen was drawn with, the
/// window's two sizes, and where the camera is now.
struct ScreenCamera {
    glm::ivec2 windowSize{1, 1};   ///< SDL window size in points (mouse coordinates), >= 1.
    glm::ivec2 drawableSize{1, 1}; ///< The framebuffer in physical pixels (high-DPI aware), >= 1.
    glm::mat4 view{1.0f};          ///< Of the frame on screen: a click picks what the user sees.
    glm::mat4 proj{1.0f};
    glm::vec3 eye{0.0f};    ///< The camera now: a dragged point keeps its depth along
    glm::vec3 target{0.0f}; ///< forward = normalize(target - eye).

    /// The ray through the centre of the SDL pixel at `windowPos`, scaled to physical pixels.
    Ray rayAt(glm::vec2 windowPos) const;
    /// The distance of p along the camera's forward axis (from the eye): a dragged point's depth.
    float depthOf(const glm::vec3& p) const;
    /// The point under `windowPos` in the plane facing the camera at `depth` (the plane a dragged
    /// point moves in); empty when the ray through it runs (nearly) parallel to that plane.
    std::optional<glm::vec3> pointAtDepth(glm::vec2 windowPos, float depth) const;
};

/// The mouse this frame.
struct Pointer {
    glm::vec2 pos{0.0f};    ///< SDL window coordinates.
    bool leftDown = false;  ///< The left button is held.
    bool rightDown = false; ///< The right button is held.
    bool overScene = false; ///< In the window and not over the panel: what it points at is hovered.
};

class Interaction {
public:
    static constexpr float kMaxDragSpeed = 50.0f;       ///< m/s: a dragged body never outruns this.
    static constexpr float kDragAngularDamping = 0.9f;  ///< Per frame, so a dragged body stops tumbling.
    static constexpr float kDragThresholdPixels = 3.0f; ///< A press that moves less than this is a click.

    /// Events (picks, drag start and end) go to `events`, which must outlive this.
    explicit Interaction(EventLog& events) : events_(events) {}

    /// A left press at `pos` (SDL window coordinates): picks the nearest body or obstacle along the
    /// ray through it and logs the pick; a body is also grabbed for a drag. Ignored when the panel
    /// wants the mouse (a click on the panel never picks through it).
    void press(const World& world, const ScreenCamera& screen, glm::vec2 pos, bool panelWantsMouse,
               std::uint64_t frame);
    /// A left release: ends the drag. The body keeps the velocity the drag gave it: a throw.
    void release(const World& world, std::uint64_t frame);
    /// A left release at `pos` in a frame of `frameSeconds`: when the cursor moved on from where
    /// the last drag() aimed (the last move and the release came in one frame, as a quick flick
    /// does at a low frame rate), the body first gets the velocity of that move, returned as
    /// drag() returns it, so the throw follows the flick; then release().
    std::optional<SetBodyVelocity> releaseAt(const World& world, const ScreenCamera& screen, glm::vec2 pos,
                                             float frameSeconds, std::uint64_t frame);
    /// Once per frame after the clicks: a grabbed body starts following the cursor when it has moved
    /// kDragThresholdPixels from the press, then is given the velocity that takes the grabbed point
    /// to the cursor (in the plane facing the camera at the grab depth) in one frame, so the solver
    /// still collides it: returned as the input that sets it (the caller applies it through its
    /// session, which records it). Nothing moves while the world is paused. A button released where
    /// no release was seen (outside the window) ends the drag.
    std::optional<SetBodyVelocity> drag(const World& world, const ScreenCamera& screen,
                                        const Pointer& pointer, float frameSeconds, std::uint64_t frame);
    /// Once per frame: the body or obstacle under the cursor (none when it is not over the scene).
    void hover(const World& world, const ScreenCamera& screen, const Pointer& pointer);
    /// Selects what `hit` names without a click (the impact log's jump to an impact): ends a drag
    /// (logged) and forgets the last click's ray. Logs no pick: the caller logs why.
    void select(const World& world, const PickHit& hit, std::uint64_t frame);
    /// The world is about to be replaced: ends a drag (logged) and forgets every pick.
    void forget(const World& world, std::uint64_t frame);

    const PickState& picks() const { return picks_; }
    /// A body is following the cursor.
    bool dragging() const { return drag_ && drag_->active; }

private:
    /// A left press that hit a body: a drag once the mouse moves far enough.
    struct Drag {
        int body;
        glm::vec2 pressPos;   ///< SDL window coordinates of the press.
        glm::vec3 grabOffset; ///< Body centre minus the grabbed surface point.
        float depth;          ///< The grabbed point's distance along the camera's forward axis.
        bool active = false;  ///< Moved beyond the threshold: the body follows the mouse.
        glm::vec2 aimedAt;    ///< Where the last velocity took the grabbed point (at first, the press).
    };

    void endDrag(const World& world, std::uint64_t frame);

    EventLog& events_;
    PickState picks_;
    std::optional<Drag> drag_;
};

} // namespace kz
