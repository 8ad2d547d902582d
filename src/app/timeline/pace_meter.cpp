#include "app/timeline/pace_meter.hpp"

#include <cmath>

namespace kz {

void PaceMeter::restart() {
    wall_ = sim_ = physics_ = 0.0;
    runningSeconds_ = 0.0;
    runningFrames_ = 0;
    behind_ = false;
}

void PaceMeter::add(const PaceFrame& frame) {
    if (!frame.running || !(frame.wallSeconds > 0.0)) {
        if (!frame.running) restart();
        return;
    }
    const double keep = std::exp(-frame.wallSeconds / kSmoothingSeconds);
    wall_ = wall_ * keep + frame.wallSeconds;
    sim_ = sim_ * keep + frame.simSeconds;
    physics_ = physics_ * keep + frame.physicsSeconds;
    requested_ = frame.requestedScale;
    runningSeconds_ += frame.wallSeconds;
    ++runningFrames_;
    if (!settled()) return;
    const double pace = effectiveScale() / requested_;
    if (behind_) {
        // Caught up, or no longer held back by the physics.
        behind_ = pace < kCaughtUpAt && physicsLoad() > kPhysicsBound;
    } else {
        behind_ = pace < kBehindBelow && physicsLoad() > kPhysicsBound;
    }
}

} // namespace kz
