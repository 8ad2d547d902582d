// The App's impact log: each step's impacts into the log (the panel's Impacts section) and the
// event log, with the session's tick as their step (it runs on across resets, as the timeline's),
// the log kept to the steps the session has been through, and the jump to an impact when the
// user clicks its row: the timeline goes to its step (app_internal.hpp).
#include "app/window/app_internal.hpp"

namespace kz {

void App::logStepImpacts() {
    const std::uint64_t tick = session_->tick();
    // A shown impact of this step or later belongs to a future the session left (a rewind).
    if (shownImpact_ && shownImpact_->record.step >= tick) shownImpact_.reset();
    const World& stepped = session_->world();
    stepImpacts_.assign(stepped.impacts().begin(), stepped.impacts().end());
    for (ImpactRecord& record : stepImpacts_)
        record.step = tick;
    impactLog_.add(stepImpacts_, tick);
    for (const ImpactRecord& record : stepImpacts_)
        events_.impact(frame_, stepped, record);
}

void App::keepImpactsInStep() {
    const std::uint64_t tick = session_->tick();
    impactLog_.forgetAfter(tick);
    if (shownImpact_ && shownImpact_->record.step > tick) shownImpact_.reset();
}

void App::jumpToImpact(const ImpactRecord& record) {
    if (lab_ || record.body < 0) return;
    // The state right after the impact's step, from the timeline (paused there); a step the
    // history no longer keeps is shown where the session is.
    if (history_.covers(record.step)) {
        seek(record.step);
    } else if (!world().paused()) {
        pause();
    }
    if (record.body >= static_cast<int>(world().bodies().size())) return;
    // The impact's body, or its partner body when that is the one selected (the list filtered by
    // it keeps showing the same body's impacts); the normal then points toward it.
    const int selected = interaction_.picks().selectedBody();
    const bool partner = selected != record.body && involvesBody(record, selected);
    PickHit hit{partner ? selected : record.body,
                RayHit{0.0f, record.point, partner ? -record.normal : record.normal}};
    interaction_.select(world(), hit, frame_);
    shownImpact_ = ShownImpact{record, world().explainImpact(record)};
    events_.jumpToImpact(frame_, world(), record);
}

void App::applyImpactRequests(const UiRequests& requests) {
    if (requests.hideImpact) shownImpact_.reset();
    if (requests.jumpToImpact) jumpToImpact(*requests.jumpToImpact);
}

void App::impactFrameInfo(UiFrameInfo& info) const {
    info.impacts = &impactLog_;
    info.shownImpact = shownImpact_ ? &*shownImpact_ : nullptr;
}

void App::drawShownImpact(LabCanvas& canvas) const {
    if (shownImpact_) drawImpact(world(), shownImpact_->record, canvas);
}

} // namespace kz
