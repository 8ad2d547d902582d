// The impact log as the window runs it: each step's impacts into the log (the panel's Impacts)
// and the event log, with the session's tick as their step (it runs on across resets, as the
// timeline's); the log kept to the steps the session has been through; the panel's filters; and
// the impact a click on its row shows, drawn and explained ("Why here?"). No SDL, GL or ImGui.
#pragma once

#include "app/cli/events.hpp"
#include "app/lab/draw.hpp"
#include "app/timeline/impact_log.hpp"
#include "physics/world.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace kz {

class Impacts {
public:
    /// What the panel's list shows: only the selected body's impacts, and only those closing at
    /// least `minSpeed` fast (m/s, 0 to 2; hides the small impacts of settling bodies).
    struct Filter {
        bool selectedOnly = false;
        float minSpeed = 0.0f;
    };

    /// After each step of the session (live, replayed, or `.`): `stepped`'s impacts (the last
    /// step's, World::impacts()) into the log and the event log, their step `tick`, the session's.
    void onStep(const World& stepped, std::uint64_t tick, EventLog& events, std::uint64_t frame);
    /// The session is back at step `tick` (a rewind): the impacts of later steps are forgotten.
    void keepTo(std::uint64_t tick);

    /// Shows `record` (of `world`, the state right after its step): drawn and explained.
    void show(const World& world, const ImpactRecord& record);
    void hide() { shown_.reset(); }
    const ShownImpact* shown() const { return shown_ ? &*shown_ : nullptr; }
    /// The shown impact's picture (drawImpact), if one is shown.
    void draw(const World& world, LabCanvas& canvas) const;

    const ImpactLog& log() const { return log_; }
    Filter& filter() { return filter_; }
    const Filter& filter() const { return filter_; }

private:
    ImpactLog log_;
    std::vector<ImpactRecord> stepImpacts_; ///< A step's records with the session's tick as step.
    std::optional<ShownImpact> shown_;      ///< The impact a click on its row drew and explained.
    Filter filter_;
};

} // namespace kz
