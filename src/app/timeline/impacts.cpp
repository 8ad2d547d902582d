#include "app/timeline/impacts.hpp"

namespace kz {

void Impacts::onStep(const World& stepped, std::uint64_t tick, EventLog& events, std::uint64_t frame) {
    // A shown impact of this step or later belongs to a future the session left (a rewind).
    if (shown_ && shown_->record.step >= tick) shown_.reset();
    stepImpacts_.assign(stepped.impacts().begin(), stepped.impacts().end());
    for (ImpactRecord& record : stepImpacts_)
        record.step = tick;
    log_.add(stepImpacts_, tick);
    for (const ImpactRecord& record : stepImpacts_)
        events.impact(frame, stepped, record);
}

void Impacts::keepTo(std::uint64_t tick) {
    log_.forgetAfter(tick);
    if (shown_ && shown_->record.step > tick) shown_.reset();
}

void Impacts::show(const World& world, const ImpactRecord& record) {
    shown_ = ShownImpact{record, world.explainImpact(record)};
}

void Impacts::draw(const World& world, LabCanvas& canvas) const {
    if (shown_) drawImpact(world, shown_->record, canvas);
}

} // namespace kz
