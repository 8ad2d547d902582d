// The panel's Impacts section (ImGui; kolize only): the impact log's rows, newest first, and the
// shown impact's "Why here?". What it shows lives in kz_timeline (timeline/impact_log.hpp).
#pragma once

#include "app/ui/panel.hpp"

namespace kz {

/// The Impacts section: a "selected body only" filter and a minimum closing speed (to hide the
/// small impacts of settling bodies), a scrolling list of the log's records
/// (step, time in the step, body with its colour, partner, normal speed before -> after,
/// impulse), each row a button that asks for App::jumpToImpact (requests.jumpToImpact); then the
/// shown impact and its "Why here?" lines, with a button to hide it.
void impactsSection(const UiFrameInfo& info, UiRequests& requests);

} // namespace kz
