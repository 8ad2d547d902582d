// What the user has picked and what is under the cursor: one record, filled by the interaction
// (interaction.hpp) and read by the panel (ui.hpp), the selected label and the renderer.
#pragma once

#include "geom/types.hpp"
#include "physics/pick.hpp"

#include <cstdint>
#include <optional>

namespace kz {

struct PickState {
    /// The last click's ray, kept for the pick-ray overlay (also after a click on empty space).
    std::optional<Ray> ray;
    /// The picked body or obstacle and where the click met it (t, point, normal; an obstacle's
    /// triangle, u, v). Empty: nothing picked (a click on empty space clears it).
    std::optional<PickHit> selection;
    /// The body or obstacle under the cursor this frame. Empty over empty space, over the panel and
    /// outside the window.
    std::optional<PickHit> hover;

    int selectedBody() const { return selection ? selection->body : -1; }         ///< Or -1.
    int selectedObstacle() const { return selection ? selection->obstacle : -1; } ///< Or -1.
    int hoveredBody() const { return hover ? hover->body : -1; }                  ///< Or -1.
    int hoveredObstacle() const { return hover ? hover->obstacle : -1; }          ///< Or -1.
};

} // namespace kz
