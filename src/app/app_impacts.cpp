// The App's impact log: each step's impacts into the log (the panel's Impacts section) and the
// event log, the log kept to the steps the world has been through, and the jump to an impact
// when the user clicks its row (app_internal.hpp).
#include "app/app_internal.hpp"

namespace kz {

int App::stepWorld(float frameSeconds) {
    const int steps = world_->dueSteps(frameSeconds);
    for (int i = 0; i < steps; ++i) {
        world_->step();
        logStepImpacts();
    }
    return steps;
}

void App::logStepImpacts() {
    const std::uint64_t step = world_->stepCount();
    // A shown impact of this step or later belongs to a world that was reset (or rewound).
    if (shownImpact_ && shownImpact_->record.step >= step) shownImpact_.reset();
    impactLog_.add(world_->impacts(), step);
    for (const ImpactRecord& record : world_->impacts())
        events_.impact(frame_, *world_, record);
}

void App::keepImpactsInStep() {
    const std::uint64_t step = world_->stepCount();
    impactLog_.forgetAfter(step);
    if (shownImpact_ && shownImpact_->record.step > step) shownImpact_.reset();
}

void App::jumpToImpact(const ImpactRecord& record) {
    if (lab_ || record.body < 0 || record.body >= static_cast<int>(world_->bodies().size()) ||
        record.step > world_->stepCount())
        return;
    // The timeline's hook: once the world can go back in time, this is where it goes to the state
    // right after the record's step (World::stepCount() == record.step). Until then it stays
    // where it is, paused, and the impact is drawn where it happened.
    if (!world_->paused()) pause();
    // The impact's body, or its partner body when that is the one selected (the list filtered by
    // it keeps showing the same body's impacts); the normal then points toward it.
    const int selected = interaction_.picks().selectedBody();
    const bool partner = selected != record.body && involvesBody(record, selected);
    PickHit hit{partner ? selected : record.body,
                RayHit{0.0f, record.point, partner ? -record.normal : record.normal}};
    interaction_.select(*world_, hit, frame_);
    shownImpact_ = ShownImpact{record, world_->explainImpact(record)};
    events_.jumpToImpact(frame_, *world_, record);
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
    if (shownImpact_) drawImpact(*world_, shownImpact_->record, canvas);
}

} // namespace kz
