// Free flight: a body's flight path (the DLM splitting projected onto the rotational energy, flown
// once per flight) and its poses. Each body's clock within the step (World::syncBody) is inline in
// world_impl.hpp.
#include "free_flight.hpp"

#include <cmath>

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
inline void subStep(glm::quat& q, glm::vec3& m, const glm::vec3& invInertia, float dt) {
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
void projectOntoLevel(glm::quat& q, const glm::vec3& momentum, const glm::vec3& inertia,
                      const glm::vec3& invInertia, double energy) {
    const glm::vec3 m = glm::inverse(q) * momentum;
    const glm::vec3 w = m * invInertia;
    const glm::vec3 gradient = glm::cross(m, w);
    const float gradientSq = glm::dot(gradient, gradient);
    const double excess = rotationalEnergy(q, momentum, inertia) - energy;
    if (gradientSq > 1e-20f && std::abs(excess) < 1e-2 * energy) {
        const glm::vec3 d = static_cast<float>(excess / gradientSq) * gradient;
        const float angle = glm::length(d);
        if (angle > 0.0f) q = glm::normalize(q * glm::angleAxis(angle, d / angle));
    }
}

} // namespace

void FlightPath::fly(const Body& start, double spinEnergy, float horizon) {
    position_ = start.position;
    velocity_ = start.velocity;
    momentum_ = start.angularMomentum;
    inertia_ = start.inertiaLocal;
    startSpin_ = start.angularVelocity;
    spinEnergy_ = spinEnergy;
    horizon_ = horizon;
    isotropic_ = start.shape == ShapeType::Sphere || momentum_ == glm::vec3(0.0f) ||
                 (inertia_.x == inertia_.y && inertia_.y == inertia_.z);
    if (isotropic_) {
        // Isotropic inertia (or no spin): the angular velocity is constant, the rotation exact.
        spin_ = momentum_ == glm::vec3(0.0f) ? glm::vec3(0.0f) : start.angularVelocity;
        nodeTime_ = subTime_ = horizon;
        stride_ = 1;
        nodes_.resize(1);
        nodes_.front() = {start.orientation, glm::vec3(0.0f)};
        return;
    }
    // Sub-steps keep every turn small (<= 0.1 rad) even for a box spinning at hundreds of rad/s.
    // Clamped as a float: a NaN or huge spin must not reach the conversion to int.
    const float turns = std::ceil(glm::length(start.angularVelocity) * horizon / 0.1f);
    const int subSteps =
        turns >= 1.0f ? (turns < static_cast<float>(kMaxSubSteps) ? static_cast<int>(turns) : kMaxSubSteps)
                      : 1;
    // A node every `stride` sub-steps, kMaxFlightNodes at most.
    stride_ = subSteps <= kMaxFlightNodes ? 1 : (subSteps + kMaxFlightNodes - 1) / kMaxFlightNodes;
    const int intervals = stride_ == 1 ? subSteps : (subSteps + stride_ - 1) / stride_;
    subTime_ = horizon / static_cast<float>(intervals * stride_);
    nodeTime_ = subTime_ * static_cast<float>(stride_);
    // The world angular momentum never changes in free flight; only its body-frame image turns.
    glm::quat q = start.orientation;
    glm::vec3 bodyMomentum = glm::inverse(q) * momentum_;
    nodes_.resize(static_cast<std::size_t>(intervals) + 1);
    Node* node = nodes_.data();
    node[0] = {q, bodyMomentum};
    invInertia_ = 1.0f / inertia_;
    for (int k = 1; k <= intervals; ++k) {
        for (int j = 0; j < stride_; ++j)
            subStep(q, bodyMomentum, invInertia_, subTime_);
        node[k] = {q, bodyMomentum};
    }
    // The last node's momentum is never read (a pose at the horizon is that node's orientation).
    glm::quat& last = node[intervals].orientation;
    last = glm::normalize(last);
    projectOntoLevel(last, momentum_, inertia_, invInertia_, spinEnergy);
}

void FlightPath::poseAt(float t, Body& b) const {
    b.position = position_ + velocity_ * t;
    if (isotropic_) {
        const float speed = glm::length(spin_);
        b.orientation = nodes_.front().orientation;
        if (speed > 0.0f && t != 0.0f)
            b.orientation =
                glm::normalize(glm::angleAxis(speed * t, spin_ / speed) * nodes_.front().orientation);
        b.angularVelocity = spin_;
        return;
    }
    if (t == 0.0f) {
        b.orientation = nodes_.front().orientation; // the start, as it was given
    } else if (t == horizon_) {
        b.orientation = nodes_.back().orientation;
    } else {
        // From the node before t, whole sub-steps and one of the rest.
        const std::size_t intervals = nodes_.size() - 1;
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
        b.angularVelocity = q * (bodyMomentum * invInertia_);
        return;
    }
    b.angularVelocity = b.orientation * ((glm::inverse(b.orientation) * momentum_) / inertia_);
}

} // namespace kz
