#include "app/timeline/timeline.hpp"

#include <algorithm>
#include <utility>

namespace kz {

void Timeline::attach(Session& session, HistorySettings settings) {
    history_.setSettings(settings);
    session.attachHistory(&history_);
}

bool Timeline::show(std::uint64_t tick, const Session& session, std::string& error) {
    error.clear();
    if (tick == session.tick()) {
        past_.reset();
        return true;
    }
    std::optional<SessionState> landed = history_.at(tick, session.inputs(), &error);
    if (!landed) return false;
    landed->world.setPaused(true); // the past stands still (the pause is not part of the state)
    past_ = std::move(landed);
    return true;
}

bool Timeline::goOnFromPast(Session& session) {
    if (!past_) return false;
    session.rewindTo(std::move(*past_));
    past_.reset();
    return true;
}

TimelinePlots timelinePlots(const History& history, int maxPoints) {
    TimelinePlots plots;
    if (history.empty()) return plots;
    plots.first = history.first();
    const std::uint64_t steps = history.last() - history.first() + 1;
    const std::uint64_t points = static_cast<std::uint64_t>(std::max(maxPoints, 1));
    plots.stepsPerPoint = (steps + points - 1) / points;
    const std::size_t count =
        static_cast<std::size_t>((steps + plots.stepsPerPoint - 1) / plots.stepsPerPoint);
    plots.kineticEnergy.assign(count, 0.0f);
    plots.momentum.assign(count, 0.0f);
    plots.contacts.assign(count, 0.0f);
    plots.msPerStep.assign(count, 0.0f);
    plots.impacts.assign(count, 0);
    for (std::uint64_t tick = history.first(); tick <= history.last(); ++tick) {
        const StepSample& s = history.sample(tick);
        const auto i = static_cast<std::size_t>(plots.pointOf(tick));
        plots.kineticEnergy[i] = std::max(plots.kineticEnergy[i], static_cast<float>(s.kineticEnergy));
        plots.momentum[i] = std::max(plots.momentum[i], static_cast<float>(s.momentum));
        plots.contacts[i] = std::max(plots.contacts[i], static_cast<float>(s.contacts));
        plots.msPerStep[i] = std::max(plots.msPerStep[i], s.msPerStep);
        plots.impacts[i] += s.impacts;
    }
    return plots;
}

std::uint64_t timelineStep(const History& history, std::uint64_t tick, int delta) {
    if (history.empty()) return tick;
    const std::uint64_t from = std::clamp(tick, history.first(), history.last());
    if (delta < 0) {
        const auto back = static_cast<std::uint64_t>(-static_cast<std::int64_t>(delta));
        return from - std::min(back, from - history.first());
    }
    return from + std::min(static_cast<std::uint64_t>(delta), history.last() - from);
}

double timelineSeconds(const History& history, float timeStep) {
    if (history.empty()) return 0.0;
    return static_cast<double>(history.last() - history.first()) * static_cast<double>(timeStep);
}

} // namespace kz
