// Free flight: a body's flight path (the DLM splitting projected onto the rotational energy, flown
// once per flight) and its poses. Each body's clock within the step (World::syncBody) is inline in
// world_impl.hpp.
#include "free_flight.hpp"

#include <atomic>
#include <cmath>
#include <thread>

namespace kz {

double rotationalEnergy(const glm::quat& orientation, const glm::vec3& momentum, const glm::vec3& inertia) {
    const glm::dvec3 bodyMomentum(glm::inverse(glm::dquat(orientation)) * glm::dvec3(momentum));
    return 0.5 * glm::dot(bodyMomentum, bodyMomentum / glm::dvec3(inertia));
}

namespace {

/// One DLM sub-step of dt: the orientation q and the body-frame momentum m turned together.
/// A turn by angle a about body axis i, with the rotation in Cayley form (no trigonometry):
/// q_i = (1, (a/2) e_i) / norm turns the body by 2 atan(a/2) = a - a^3/12 + ..., and the
/// body-frame momentum turns back by exactly the same rotation, so L stays exact. The orientation
/// is multiplied by (1, (a/2) e_i) unnormalised, written out (the other two vector components are
/// 0), and normalised once per sub-step: the same rotation.
[[gnu::always_inline]] inline void subStep(glm::quat& q, glm::vec3& m, const glm::vec3& invInertia,
                                           float dt) {
    const auto turn = [&](int axis, float t) {
        const float half = 0.5f * t * m[axis] * invInertia[axis];
        const float inv = 1.0f / (1.0f + half * half);
        const float cosine = (1.0f - half * half) * inv, sine = 2.0f * half * inv;
        const int j = (axis + 1) % 3, k = (axis + 2) % 3;
        // (w, v) (1, h e_i) = (w - h v_i, v + w h e_i + h v x e_i); v x e_i = v_k e_j - v_j e_k.
        const float w = q.w, vi = q[axis], vj = q[j], vk = q[k];
        q.w = w - half * vi;
        q[axis] = vi + w * half;
        q[j] = vj + half * vk;
        q[k] = vk - half * vj;
        const float mj = m[j], mk = m[k];
        m[j] = cosine * mj + sine * mk; // rotate by -angle about the axis
        m[k] = -sine * mj + cosine * mk;
    };
    turn(0, 0.5f * dt);
    turn(1, 0.5f * dt);
    turn(2, dt);
    turn(1, 0.5f * dt);
    turn(0, 0.5f * dt);
    q = q * (1.0f / std::sqrt(glm::dot(q, q)));
}

/// The splitting keeps L exactly but the energy only to O((w t)^2). Projects q back onto the
/// energy level (Hairer, Lubich, Wanner, Geometric Numerical Integration IV.4): turning the body by
/// a small d changes the energy by -d . (L x w), and turning about L not at all. In the body frame,
/// with m its momentum there: d = excess / |m x w|^2 (m x w), w = m / I.
/// The energy is measured in double precision (rotationalEnergy).
/// The correction is an error of the splitting's turns, so far smaller than the flight's own turn
/// (|w| `horizon`): one larger than a tenth of it is not made. Only a momentum close to a principal
/// axis asks for one, where the gradient nearly vanishes and a rounding-sized excess (1e-8 of the
/// energy) asked for turns of up to 2.3 rad (high-speed's boxes), or stood a lying cylinder 2
/// degrees up; the flight is then left as flown.
void projectOntoLevel(glm::quat& q, const glm::vec3& momentum, const glm::vec3& inertia,
                      const glm::vec3& invInertia, double energy, float horizon) {
    const glm::vec3 m = glm::inverse(q) * momentum;
    const glm::vec3 w = m * invInertia;
    const glm::vec3 gradient = glm::cross(m, w);
    const float gradientSq = glm::dot(gradient, gradient);
    const double excess = rotationalEnergy(q, momentum, inertia) - energy;
    if (gradientSq > 1e-20f && std::abs(excess) < 1e-2 * energy) {
        const glm::vec3 d = static_cast<float>(excess / gradientSq) * gradient;
        const float angle = glm::length(d);
        if (angle > 0.0f && angle <= 0.1f * glm::length(w) * horizon)
            q = glm::normalize(q * glm::angleAxis(angle, d / angle));
    }
}

/// A flight's sub-steps: each turns the body at most 0.1 rad (at most kMaxSubSteps of them), a node
/// kept every `stride` of them (kMaxFlightNodes at most), `intervals` between nodes.
struct Plan {
    int stride;
    int intervals;
    float subTime;
};

/// The largest turn of one sub-step: 0.1 rad for spheres and boxes; for capsules, cylinders and
/// hulls, 0.1 rad times I_min / I_max, since the splitting's energy error grows with the body's
/// elongation (a capsule twice as long as wide, I_min / I_max = 0.18, was 7% off its energy level
/// after one 1/120 s step at 2,000 rad/s in 0.1 rad turns, beyond what projectOntoLevel corrects).
[[gnu::always_inline]] inline float maxTurn(const Body& b) {
    if (!isConvexShape(b.shape)) return 0.1f;
    const glm::vec3& i = b.inertiaLocal;
    const float least = std::min(i.x, std::min(i.y, i.z)), most = std::max(i.x, std::max(i.y, i.z));
    return most > 0.0f ? 0.1f * (least / most) : 0.1f;
}

[[gnu::always_inline]] inline Plan planFlight(const Body& start, float horizon) {
    // Sub-steps keep every turn small (<= 0.1 rad) even for a box spinning at hundreds of rad/s.
    // Clamped as a float: a NaN or huge spin must not reach the conversion to int.
    const glm::vec3& angularVelocity = start.angularVelocity;
    const float turns = std::ceil(glm::length(angularVelocity) * horizon / maxTurn(start));
    const int subSteps =
        turns >= 1.0f ? (turns < static_cast<float>(kMaxSubSteps) ? static_cast<int>(turns) : kMaxSubSteps)
                      : 1;
    const int stride = subSteps <= kMaxFlightNodes ? 1 : (subSteps + kMaxFlightNodes - 1) / kMaxFlightNodes;
    const int intervals = stride == 1 ? subSteps : (subSteps + stride - 1) / stride;
    return {stride, intervals, horizon / static_cast<float>(intervals * stride)};
}

/// A sphere, a body of equal moments or one with no spin: it turns at a constant angular velocity.
bool turnsEvenly(const Body& b) {
    return b.shape == ShapeType::Sphere || b.angularMomentum == glm::vec3(0.0f) ||
           (b.inertiaLocal.x == b.inertiaLocal.y && b.inertiaLocal.y == b.inertiaLocal.z);
}

/// The orientation of a body turning evenly at `spin` (rad/s), t seconds after q.
[[gnu::always_inline]] inline glm::quat turnedEvenly(const glm::quat& q, const glm::vec3& spin, float t) {
    const float speed = glm::length(spin);
    if (speed > 0.0f && t != 0.0f) return glm::normalize(glm::angleAxis(speed * t, spin / speed) * q);
    return q;
}

/// The angular velocity the world momentum gives at orientation q.
[[gnu::always_inline]] inline glm::vec3 spinAt(const glm::quat& q, const glm::vec3& momentum,
                                               const glm::vec3& inertia) {
    return q * ((glm::inverse(q) * momentum) / inertia);
}

/// The end of a flight's sub-steps: normalised and projected onto the energy level.
glm::quat endOfFlight(glm::quat q, const glm::vec3& momentum, const glm::vec3& inertia,
                      const glm::vec3& invInertia, double energy, float horizon) {
    q = glm::normalize(q);
    projectOntoLevel(q, momentum, inertia, invInertia, energy, horizon);
    return q;
}

} // namespace

void flyToHorizon(const Body& start, double spinEnergy, float horizon, Body& out) {
    out.position = start.position + start.velocity * horizon;
    if (turnsEvenly(start)) {
        const glm::vec3 spin =
            start.angularMomentum == glm::vec3(0.0f) ? glm::vec3(0.0f) : start.angularVelocity;
        out.orientation = turnedEvenly(start.orientation, spin, horizon);
        out.angularVelocity = spin;
        return;
    }
    const glm::vec3& momentum = start.angularMomentum;
    if (horizon == 0.0f) {
        out.orientation = start.orientation;
    } else {
        // FlightPath::fly's sub-steps, every one of them, then its end (flyToEnd).
        const Plan plan = planFlight(start, horizon);
        const glm::vec3 invInertia = 1.0f / start.inertiaLocal;
        glm::quat q = start.orientation;
        glm::vec3 bodyMomentum = glm::inverse(q) * momentum;
        for (int k = plan.intervals * plan.stride; k > 0; --k)
            subStep(q, bodyMomentum, invInertia, plan.subTime);
        out.orientation = endOfFlight(q, momentum, start.inertiaLocal, invInertia, spinEnergy, horizon);
    }
    out.angularVelocity = spinAt(out.orientation, momentum, start.inertiaLocal);
}

void FlightPath::fly(const Body& start, double spinEnergy, float horizon) {
    position_ = start.position;
    velocity_ = start.velocity;
    momentum_ = start.angularMomentum;
    inertia_ = start.inertiaLocal;
    startSpin_ = start.angularVelocity;
    spinEnergy_ = spinEnergy;
    horizon_ = horizon;
    isotropic_ = turnsEvenly(start);
    if (isotropic_) {
        // Isotropic inertia (or no spin): the angular velocity is constant, the rotation exact.
        spin_ = momentum_ == glm::vec3(0.0f) ? glm::vec3(0.0f) : start.angularVelocity;
        nodeTime_ = subTime_ = horizon;
        stride_ = intervals_ = 1;
        nodes_.resize(1);
        nodes_.front() = {start.orientation, glm::vec3(0.0f)};
        return;
    }
    const Plan plan = planFlight(start, horizon);
    stride_ = plan.stride;
    const int intervals = plan.intervals;
    subTime_ = plan.subTime;
    nodeTime_ = subTime_ * static_cast<float>(stride_);
    // The world angular momentum never changes in free flight; only its body-frame image turns.
    glm::quat q = start.orientation;
    glm::vec3 bodyMomentum = glm::inverse(q) * momentum_;
    // Nodes 0 .. intervals - 1; the pose at the horizon is flown when it is read (flyToEnd): most
    // paths are read before it, and a path an impulse ends never reaches it. A slow body's path
    // (one interval) costs nothing until then.
    intervals_ = intervals;
    nodes_.resize(static_cast<std::size_t>(intervals));
    Node* node = nodes_.data();
    node[0] = {q, bodyMomentum};
    invInertia_ = 1.0f / inertia_;
    for (int k = 1; k < intervals; ++k) {
        for (int j = 0; j < stride_; ++j)
            subStep(q, bodyMomentum, invInertia_, subTime_);
        node[k] = {q, bodyMomentum};
    }
}

glm::quat FlightPath::flyToEnd() const {
    // The last interval's sub-steps, normalised and projected onto the energy level.
    glm::quat q = nodes_.back().orientation;
    glm::vec3 bodyMomentum = nodes_.back().momentum;
    for (int j = 0; j < stride_; ++j)
        subStep(q, bodyMomentum, invInertia_, subTime_);
    return endOfFlight(q, momentum_, inertia_, invInertia_, spinEnergy_, horizon_);
}

void FlightPath::poseAt(float t, Body& b) const {
    pose<true>(t, b);
}

void FlightPath::placeAt(float t, Body& b) const {
    pose<false>(t, b);
}

template <bool kSpin>
void FlightPath::pose(float t, Body& b) const {
    b.position = position_ + velocity_ * t;
    if (isotropic_) {
        b.orientation = turnedEvenly(nodes_.front().orientation, spin_, t);
        if (kSpin) b.angularVelocity = spin_;
        return;
    }
    if (t == 0.0f) {
        b.orientation = nodes_.front().orientation; // the start, as it was given
    } else if (t == horizon_) {
        b.orientation = flyToEnd();
    } else {
        // From the node before t, whole sub-steps and one of the rest.
        const auto intervals = static_cast<std::size_t>(intervals_);
        const float at = t / nodeTime_;
        // Clamped as a float: a NaN, negative or huge time must not reach the conversion.
        const std::size_t k =
            at >= 1.0f ? (at < static_cast<float>(intervals) ? static_cast<std::size_t>(at) : intervals - 1)
                       : 0;
        const float into = t - static_cast<float>(k) * nodeTime_;
        glm::quat q = nodes_[k].orientation;
        glm::vec3 bodyMomentum = nodes_[k].momentum;
        float rest = into;
        for (int j = 1; j < stride_ && rest > subTime_; ++j) {
            subStep(q, bodyMomentum, invInertia_, subTime_);
            rest -= subTime_;
        }
        if (rest != 0.0f) subStep(q, bodyMomentum, invInertia_, rest);
        b.orientation = q;
        if (kSpin) b.angularVelocity = q * (bodyMomentum * invInertia_);
        return;
    }
    if (kSpin) b.angularVelocity = spinAt(b.orientation, momentum_, inertia_);
}

bool fliesInOne(const Body& start, float horizon) {
    return turnsEvenly(start) || planFlight(start, horizon).intervals == 1;
}

void PathView::placeAt(float t, Body& b) const {
    if (path) {
        path->placeAt(t, b);
        return;
    }
    // FlightPath::fly then poseAt, for a flight of one sub-step or an even turn: node 0 is the
    // start, and a pose within the flight is one sub-step of t from it.
    const Body& s = *start;
    if (turnsEvenly(s) || t == 0.0f || t == horizon) {
        flyToHorizon(s, spinEnergy, t, b);
        return;
    }
    b.position = s.position + s.velocity * t;
    glm::quat q = s.orientation;
    glm::vec3 bodyMomentum = glm::inverse(q) * s.angularMomentum;
    const glm::vec3 invInertia = 1.0f / s.inertiaLocal;
    subStep(q, bodyMomentum, invInertia, t);
    b.orientation = q;
}

PathView SharedPath::read() const {
    if (!flown) return {path, nullptr, 0.0, 0.0f, since};
    // At the step's start every body is where its flight begins (an impulse then begins it again
    // there): a flight in one needs nothing more of the world's.
    if (now == 0.0 && fliesInOne(*start, timeStep)) return {nullptr, start, *spinEnergy, timeStep, 0.0f};
    const float horizon = flightHorizon(timeStep, *flightStart);
    const auto sinceStart = static_cast<float>(now - *flightStart);
    std::atomic_ref<char> state(*flown);
    char seen = state.load(std::memory_order_acquire);
    // Not flown yet: the body is where its flight begins.
    if (seen == 0 && fliesInOne(*start, horizon)) return {nullptr, start, *spinEnergy, horizon, sinceStart};
    if (seen == 0 && state.compare_exchange_strong(seen, 2, std::memory_order_acq_rel)) {
        path->fly(*start, *spinEnergy, horizon);
        state.store(1, std::memory_order_release);
        return {path, nullptr, 0.0, 0.0f, sinceStart};
    }
    while (state.load(std::memory_order_acquire) != 1) // another search flies it: at most 4,096 sub-steps
        std::this_thread::yield();
    return {path, nullptr, 0.0, 0.0f, sinceStart};
}

} // namespace kz
