// The simulation's pace against the wall clock, for the panel's Simulation section: how many
// simulated seconds each wall second brings (the effective time scale), and whether the physics is
// what holds it back below the time scale asked for.
//
// Each frame adds its wall time, the simulated time its steps covered, and the wall time the steps
// took. Sums decayed exponentially with the frames' wall time (time constant kSmoothingSeconds)
// make the smoothed rates: effective scale = simulated / wall, physics load = physics wall time per
// simulated second times the scale asked for (1: the physics alone takes all of real time). A frame
// in which the world is not meant to move (paused, the timeline on a past step, the lab) restarts
// the meter.
#pragma once

namespace kz {

/// One frame as the pace meter sees it.
struct PaceFrame {
    double wallSeconds = 0.0;    ///< The frame's real time (not clamped).
    double simSeconds = 0.0;     ///< Steps taken times the time step.
    double physicsSeconds = 0.0; ///< Wall time the steps took.
    double requestedScale = 1.0; ///< The world's time scale.
    bool running = true;         ///< The world is meant to move (not paused, not showing the past).
};

class PaceMeter {
public:
    static constexpr double kSmoothingSeconds = 1.0;
    /// Behind once the effective scale is under this fraction of the scale asked for...
    static constexpr double kBehindBelow = 0.9;
    /// ...and caught up again at this fraction (the gap keeps the warning from flickering).
    static constexpr double kCaughtUpAt = 0.97;
    /// The physics holds the pace back when, at the scale asked for, it needs more than this
    /// fraction of real time (the rest goes to drawing; a stall elsewhere, say a scenario load,
    /// slows the pace without loading the physics).
    static constexpr double kPhysicsBound = 0.5;
    /// Running wall time and frames seen before the meter judges (one long frame is not a trend).
    static constexpr double kSettleSeconds = 0.5;
    static constexpr int kSettleFrames = 5;

    void add(const PaceFrame& frame);

    /// Simulated seconds per wall second, smoothed; 0 before any running frame.
    double effectiveScale() const { return wall_ > 0.0 ? sim_ / wall_ : 0.0; }
    /// Physics wall time per simulated second times the scale asked for, smoothed: above 1, the
    /// machine cannot step the world as fast as asked even with nothing else to do.
    double physicsLoad() const { return sim_ > 0.0 ? physics_ / sim_ * requested_ : 0.0; }
    /// The physics cannot keep up: settled, the effective scale under kBehindBelow of the one asked
    /// for (until it reaches kCaughtUpAt again) and the physics load over kPhysicsBound (until it
    /// falls back to it).
    bool behind() const { return behind_; }
    /// Whether the meter has seen kSettleSeconds and kSettleFrames of running frames since it
    /// (re)started.
    bool settled() const { return runningSeconds_ >= kSettleSeconds && runningFrames_ >= kSettleFrames; }

private:
    void restart();

    double wall_ = 0.0, sim_ = 0.0, physics_ = 0.0; ///< Decayed sums.
    double requested_ = 1.0;
    double runningSeconds_ = 0.0;
    int runningFrames_ = 0;
    bool behind_ = false;
};

} // namespace kz
