// The "Try this" card: what to try first, shown over the scene on the first run (until it is
// dismissed) and from Help after that. Its button opens the query lab.
#pragma once

#include "app/lab/scene.hpp"
#include "app/view/framing.hpp"

#include <optional>

namespace kz {

/// The card's state between frames.
struct FirstRunCard {
    bool open = false;      ///< Shown this frame.
    bool dismissed = false; ///< Closed once (by its button or its close box): the settings keep it.
    LabQuery labQuery = LabQuery::BoxBox; ///< What its "Open the lab" button opens (the last one used).
    /// The card's rectangle in the last UI frame (window points); empty while it is closed.
    std::optional<ScreenRect> rect;
};

/// What the card asked for this frame.
struct CardRequests {
    bool openLab = false; ///< "Open the lab": the lab on card.labQuery (the card is then dismissed).
};

/// Draws the card (when open) in the top-right corner of the window, `uiScale` times its size;
/// "Got it" or the close box dismiss it.
CardRequests drawFirstRunCard(FirstRunCard& card, float uiScale);

} // namespace kz
