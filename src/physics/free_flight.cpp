// Free flight: drift (the DLM splitting projected onto the rotational energy) and the cheaper
// look-ahead of the conservative advancement (lookAhead). Each body's clock within the step
// (World::syncBody) is inline in world_impl.hpp.
#include "free_flight.hpp"

#include <cmath>

namespace kz {
namespace {

/// The pose after t seconds of free flight at the current angular velocity: the conservative
/// advancement's look-ahead. It differs from drift() (which keeps the angular momentum) only by
/// O((w t)^2), far inside the advancement's tolerance, and needs one rotation instead of many. The
/// angular velocity is then the one the angular momentum gives at the new orientation, so a chain
/// of look-aheads follows a tumbling box's precession (held fixed, a search's path at 60 rad/s
/// ended 0.4 mm from the path the step flies).
void predict(const Body& b, float t, Body& out) {
    out.position = b.position + b.velocity * t;
    const float speed = glm::length(b.angularVelocity);
    out.orientation =
        speed > 0.0f ? glm::angleAxis(speed * t, b.angularVelocity / speed) * b.orientation : b.orientation;
    if (speed > 0.0f) {
        out.angularVelocity =
            out.orientation * ((glm::inverse(out.orientation) * b.angularMomentum) / b.inertiaLocal);
    }
}

} // namespace

double rotationalEnergy(const glm::quat& orientation, const glm::vec3& momentum, const glm::vec3& inertia) {
    const glm::dvec3 bodyMomentum(glm::inverse(glm::dquat(orientation)) * glm::dvec3(momentum));
    return 0.5 * glm::dot(bodyMomentum, bodyMomentum / glm::dvec3(inertia));
}

void drift(Body& b, float t, double spinEnergy) {
    b.position += b.velocity * t;
    if (b.angularMomentum == glm::vec3(0.0f)) return;
    if (b.shape == ShapeType::Sphere ||
        (b.inertiaLocal.x == b.inertiaLocal.y && b.inertiaLocal.y == b.inertiaLocal.z)) {
        // Isotropic inertia: the angular velocity is constant, the rotation exact.
        const float speed = glm::length(b.angularVelocity);
        if (speed > 0.0f) {
            b.orientation =
                glm::normalize(glm::angleAxis(speed * t, b.angularVelocity / speed) * b.orientation);
        }
        return;
    }
    // The world angular momentum never changes in free flight; only its body-frame image turns.
    glm::vec3 bodyMomentum = glm::inverse(b.orientation) * b.angularMomentum;
    // A turn by angle a about body axis i, with the rotation in Cayley form (no trigonometry):
    // q_i = (1, (a/2) e_i) / norm turns the body by 2 atan(a/2) = a - a^3/12 + ..., and the
    // body-frame momentum turns back by exactly the same rotation, so L stays exact.
    // The orientation is multiplied by (1, (a/2) e_i) unnormalised, written out (the other two
    // vector components are 0), and normalised once per sub-step: the same rotation.
    glm::quat& q = b.orientation;
    const glm::vec3 invInertia = 1.0f / b.inertiaLocal;
    const auto turn = [&](int axis, float dt) {
        const float half = 0.5f * dt * bodyMomentum[axis] * invInertia[axis];
        const float inv = 1.0f / (1.0f + half * half);
        const float cosine = (1.0f - half * half) * inv, sine = 2.0f * half * inv;
        const int j = (axis + 1) % 3, k = (axis + 2) % 3;
        // (w, v) (1, h e_i) = (w - h v_i, v + w h e_i + h v x e_i); v x e_i = v_k e_j - v_j e_k.
        const float w = q.w, vi = q[axis], vj = q[j], vk = q[k];
        q.w = w - half * vi;
        q[axis] = vi + w * half;
        q[j] = vj + half * vk;
        q[k] = vk - half * vj;
        const float mj = bodyMomentum[j], mk = bodyMomentum[k];
        bodyMomentum[j] = cosine * mj + sine * mk; // rotate by -angle about the axis
        bodyMomentum[k] = -sine * mj + cosine * mk;
    };
    const double energy = spinEnergy;
    // Sub-steps keep every turn small (<= 0.1 rad) even for a box spinning at hundreds of rad/s.
    const float spin = glm::length(b.angularVelocity) * t;
    // Clamped as a float: a NaN or huge spin must not reach the conversion to int.
    const float turns = std::ceil(spin / 0.1f);
    const int substeps = turns >= 1.0f ? (turns < 4096.0f ? static_cast<int>(turns) : 4096) : 1;
    const float dt = t / static_cast<float>(substeps);
    for (int k = 0; k < substeps; ++k) {
        turn(0, 0.5f * dt);
        turn(1, 0.5f * dt);
        turn(2, dt);
        turn(1, 0.5f * dt);
        turn(0, 0.5f * dt);
        q = q * (1.0f / std::sqrt(glm::dot(q, q)));
    }
    b.orientation = glm::normalize(b.orientation);
    b.angularVelocity = b.orientation * (bodyMomentum / b.inertiaLocal);

    // The splitting keeps L exactly but the energy only to O((w t)^2). Project back onto the
    // energy level (Hairer, Lubich, Wanner, Geometric Numerical Integration IV.4): turning the
    // body by a small d changes the energy by -d . (L x w), and turning about L not at all.
    const glm::vec3 gradient = glm::cross(b.angularMomentum, b.angularVelocity);
    const float gradientSq = glm::dot(gradient, gradient);
    const double excess = rotationalEnergy(b.orientation, b.angularMomentum, b.inertiaLocal) - energy;
    if (gradientSq > 1e-20f && std::abs(excess) < 1e-2 * energy) {
        const glm::vec3 d = static_cast<float>(excess / gradientSq) * gradient;
        const float angle = glm::length(d);
        if (angle > 0.0f) {
            b.orientation = glm::normalize(glm::angleAxis(angle, d / angle) * b.orientation);
            b.angularVelocity =
                b.orientation * ((glm::inverse(b.orientation) * b.angularMomentum) / b.inertiaLocal);
        }
    }
}

void lookAhead(Body& state, float dt, double spinEnergy) {
    // A slow spin: one rotation at the current angular velocity is within the advancement's
    // tolerance of the true path. A fast one (a box at hundreds of rad/s precesses visibly
    // within a step): the same free flight as drift(), so the look-ahead follows the path taken.
    if (glm::length(state.angularVelocity) * dt <= 0.02f) {
        predict(state, dt, state);
        return;
    }
    drift(state, dt, spinEnergy);
}

} // namespace kz
