// Private to kz_physics: free flight of a body between impacts.
//
// Free flight keeps each body's world angular momentum and turns it with the symplectic
// splitting of Dullweber, Leimkuhler and McLachlan (1997): rotations about the principal axes,
// projected back onto the body's rotational energy, so a tumbling box neither gains nor loses
// energy over time. A body's flight from one impulse to the next is flown once, into a
// FlightPath, and every pose of it is read from there: the step's searches, the step's flight of
// the body to an impact and to the step's end all take the same path, whatever the order.
#pragma once

#include "body.hpp"
#include "impact_record.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace kz {

/// The radius of the body's bounding sphere about its centre.
inline float boundingRadius(const Body& b) {
    return b.shape == ShapeType::Box ? glm::length(b.halfExtents) : b.radius;
}

/// 1/2 L_b . I^-1 L_b with L_b the body-frame angular momentum, in double precision.
double rotationalEnergy(const glm::quat& orientation, const glm::vec3& momentum, const glm::vec3& inertia);

/// The free flight of a body from the state it starts in, for `horizon` seconds: a straight line,
/// and its orientation after each DLM sub-step (each turn at most 0.1 rad, kMaxSubSteps at most),
/// kept at nodes (every sub-step's, or every few sub-steps' when there are more than
/// kMaxFlightNodes); the pose at the horizon is projected onto the energy level. The pose at a
/// time between nodes is the sub-steps from the node before it, the last of them short: O(1), and
/// the same time gives the same bits, whichever pose was read before, so a chain of short flights
/// and one long one end at the same place.
class FlightPath {
public:
    /// Flies `start` for `horizon` seconds, keeping `spinEnergy`: the rotational energy the world
    /// stores per body and updates only when an impulse changes the angular momentum, so rounding
    /// in one flight cannot shift the level the next one aims at. A sphere or a body of equal
    /// moments turns at its constant angular velocity, exactly.
    void fly(const Body& start, double spinEnergy, float horizon);

    /// Writes the pose after t seconds (0 <= t <= horizon) into b: its position, orientation and
    /// angular velocity (the one the angular momentum gives at that orientation). At t = 0 the
    /// start's position and orientation, at t = horizon the projected end of the flight, bit for
    /// bit (flown from the last node on each read: the step reads it once, at its end). Beyond the
    /// horizon, sub-steps from the last node before it.
    void poseAt(float t, Body& b) const;
    /// The same position and orientation as poseAt, without the angular velocity (a search's
    /// gauges need only where the body is).
    void placeAt(float t, Body& b) const;

    float horizon() const { return horizon_; }
    /// The state it was flown from (what fly() read of the body), begun `flightStart` s into the step.
    ImpactBodyState start(double flightStart) const {
        return {position_,  nodes_.front().orientation, velocity_, startSpin_, momentum_, spinEnergy_,
                flightStart};
    }
    std::size_t memoryBytes() const { return nodes_.capacity() * sizeof(Node); }

private:
    glm::vec3 position_{0.0f}, velocity_{0.0f}, momentum_{0.0f}, inertia_{1.0f};
    glm::vec3 startSpin_{0.0f}; ///< The start's angular velocity.
    double spinEnergy_ = 0.0;   ///< The rotational energy it keeps.
    glm::vec3 spin_{0.0f};      ///< Constant angular velocity (world) of an isotropic body.
    bool isotropic_ = true;     ///< A sphere or equal moments: one turn at spin_, no nodes.
    float horizon_ = 0.0f;
    int intervals_ = 1;     ///< Between nodes, the last of them ending at the horizon.
    float subTime_ = 0.0f;  ///< A sub-step (s).
    int stride_ = 1;        ///< Sub-steps between nodes.
    float nodeTime_ = 0.0f; ///< Between nodes (s).
    glm::vec3 invInertia_{1.0f};
    struct Node {
        glm::quat orientation;
        glm::vec3 momentum; ///< Body frame (not kept for an isotropic body).
    };
    std::vector<Node> nodes_; ///< At k * nodeTime_, k = 0 .. intervals_ - 1.

    /// The orientation at the horizon: the last interval's sub-steps from the last node, projected
    /// onto the energy level.
    glm::quat flyToEnd() const;
    /// poseAt, with its angular velocity when kSpin.
    template <bool kSpin>
    void pose(float t, Body& b) const;
};

/// Sets b's motion (position, orientation, velocity, angular velocity and momentum) to `state`'s:
/// a body where a recorded flight began (its shape and mass stay b's).
inline void setMotion(Body& b, const ImpactBodyState& state) {
    b.position = state.position;
    b.orientation = state.orientation;
    b.velocity = state.velocity;
    b.angularVelocity = state.angularVelocity;
    b.angularMomentum = state.angularMomentum;
}

/// The pose of `start` after a whole flight of `horizon` seconds into `out` (its position,
/// orientation and angular velocity): the same bits as FlightPath::fly then poseAt(horizon), with
/// no path kept. `out` may be `start`.
void flyToHorizon(const Body& start, double spinEnergy, float horizon, Body& out);

/// The length of a body's free flight that begins `start` seconds into a step of `timeStep`: to
/// the step's end (a search reads it no further; a step cut short ends it sooner).
inline float flightHorizon(float timeStep, double start) {
    return static_cast<float>(static_cast<double>(timeStep) - start);
}

/// Whether the flight of `start` for `horizon` seconds is one sub-step long or turns evenly (a
/// sphere, equal moments, no spin): then every pose of it follows from the start alone, as cheaply
/// as from a path (PathView), and no path need be flown for it.
bool fliesInOne(const Body& start, float horizon);

/// A flight as a search reads it: its path, or for a flight that fliesInOne, the body where it
/// begins (its poses the same bits as the path's); `since` s into it.
struct PathView {
    const FlightPath* path = nullptr;
    const Body* start = nullptr; ///< When there is no path.
    double spinEnergy = 0.0;
    float horizon = 0.0f;
    float since = 0.0f; ///< How far into the flight the search starts.

    /// The position and orientation after t seconds of the flight (as FlightPath::placeAt).
    void placeAt(float t, Body& b) const;
};

/// A body's flight as a search reads it (SearchStart): a path flown already, `since` s into it; or
/// the world's flight of body `start`, which began at `*flightStart` in a step of `timeStep`: its
/// path flown by the first search that reads it, while any other that needs it then waits, so a
/// path that no search reads past its first tests is never flown (the searches run on several
/// threads at once), and a flight that fliesInOne read from its start. Nothing of the world's is
/// read until then (most searches end at their first test).
struct SharedPath {
    FlightPath* path = nullptr;
    float since = 0.0f; ///< A path flown already (no `flown`).
    /// 0: not flown yet, 1: flown, 2: being flown (atomic); none: `path` is flown already.
    char* flown = nullptr;
    const Body* start = nullptr; ///< Where the flight begins (the body, until its path is flown).
    const double* spinEnergy = nullptr;
    const double* flightStart = nullptr;
    double now = 0.0; ///< When the search starts.
    float timeStep = 0.0f;

    /// The flight, its path flown first when it needs one and is not yet.
    PathView read() const;
};

/// At most this many DLM sub-steps in one flight: each turns at most 0.1 rad up to 49,000 rad/s in
/// a 1/120 s step; a body spinning faster turns further per sub-step.
inline constexpr int kMaxSubSteps = 4096;
/// At most this many nodes kept of one flight (memory: 28 bytes a node); a pose between them is at
/// most kMaxSubSteps / kMaxFlightNodes sub-steps from the node before it.
inline constexpr int kMaxFlightNodes = 256;

/// Upper bound of the speed at which rotation moves any surface point of `b` in free flight (0 for
/// a sphere, whose surface does not move when it spins): the farthest point's distance
/// (boundingRadius) times the largest angular speed free flight can reach. With body-frame momentum
/// m, |w|^2 = sum m_i^2 / I_i^2, at most |L|^2 / I_min^2 and at most 2 E / I_min (E = sum m_i^2 /
/// 2 I_i, the rotational energy `spinEnergy`, which free flight keeps to far better than the 2%
/// slack given it here).
inline float rotationSpeedBound(const Body& b, double spinEnergy) {
    if (b.shape == ShapeType::Sphere) return 0.0f;
    const float least = std::min(b.inertiaLocal.x, std::min(b.inertiaLocal.y, b.inertiaLocal.z));
    const float byMomentum = glm::length(b.angularMomentum) / least;
    const float byEnergy = static_cast<float>(std::sqrt(2.0 * spinEnergy / static_cast<double>(least)));
    return 1.001f * std::min(byMomentum, 1.01f * byEnergy) * boundingRadius(b);
}

// Each body's clock and flight path within the step (World::syncBody) is in world_impl.hpp.

} // namespace kz
