// The query lab as the window runs it (kolize --lab, the panel's Lab): closed (the window shows
// the scenarios) or open on one query, with its scene as the mouse left it, this frame's answer,
// the mouse, and the camera the scenarios get back when it closes. What the picture draws (its
// layers, the SAT axis, the BVH step) is kept from one query to the next. Plain inputs, no SDL,
// GL or ImGui: the window passes it the clicks, the pointer and the camera.
#pragma once

#include "app/cli/events.hpp"
#include "app/lab/draw.hpp"
#include "app/lab/mouse.hpp"
#include "app/lab/query.hpp"
#include "app/lab/trace.hpp"
#include "app/view/camera.hpp"
#include "physics/world.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace kz {

class Lab {
public:
    bool isOpen() const { return open_.has_value(); }
    /// The query on screen; empty while the lab is closed.
    std::optional<LabQuery> query() const;

    /// Opens `query` on its start scene (another query open already: replaced), drawing its own
    /// answer; `camera` turns to the lab's view, the scenarios' kept for close().
    void open(LabQuery query, OrbitCamera& camera);
    /// Back to the scenarios: `camera` as it was before the lab opened. Nothing when closed.
    void close(OrbitCamera& camera);

    // The mouse, while open. A press at `pos` returns whether it grabbed a shape or a handle.
    bool press(const ScreenCamera& screen, glm::vec2 pos, LabButton button, bool shift, bool panelWantsMouse);
    void release(LabButton button);
    /// Once a frame, while open: the drag and the hover under `pointer`, then the query on the
    /// scene as it now is, and the `lab` event when its verdict changed.
    void update(const ScreenCamera& screen, const Pointer& pointer, EventLog& events, std::uint64_t frame);
    /// Shape `index` becomes a `kind` (one of the convex kinds) of the lab's usual size, where it
    /// was and turned as it was, when the open query takes any convex shape (gjk, epa,
    /// ray-convex). Returns whether it did.
    bool setShapeKind(int index, LabShapeKind kind);

    // What the panel and the picture show, while open.
    const LabScene& scene() const { return open_->scene; }
    const LabResult& result() const { return open_->result; }
    /// What the cursor holds, else what it is over, as the panel says it ("box A (drag: move,
    /// right-drag: turn)"); empty when nothing.
    std::string hoverText() const;
    /// The layers, SAT axis and BVH step the panel's steps choose (kept while closed).
    LabView& view() { return view_; }
    const LabView& view() const { return view_; }
    /// The construction's lines for the picture (as view() draws it).
    void drawConstruction(LabCanvas& canvas) const;

    /// The scene as a world the renderer draws, and which of its bodies gets the selection's rim
    /// (what the mouse holds, else what it is over; -1: none) and which obstacle (a shape's).
    struct Picture {
        World world;
        int outlinedBody = -1;
        int selectedObstacle = -1;
    };
    Picture picture() const;

private:
    struct Open {
        LabScene scene;                    ///< The shapes and handles as the mouse left them.
        LabResult result;                  ///< The query's answer this frame.
        LabInteraction mouse;              ///< What the mouse holds or is over.
        std::optional<bool> loggedVerdict; ///< The verdict the event log last got (empty: none yet).
        OrbitCamera scenarioCamera;        ///< The scenarios' camera, restored when the lab closes.
    };
    std::optional<LabItem> heldOrHovered() const;

    std::optional<Open> open_;
    LabView view_;
};

} // namespace kz
