// Random numbers shared by the benchmarks: one fixed engine and the few distributions they draw.
#pragma once

#include <cmath>
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>

namespace kz::bench {

using Rng = std::mt19937;

inline float uniform(Rng& rng, float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
}

/// Uniform on the unit sphere: a normalised 3D Gaussian.
inline glm::vec3 randUnit(Rng& rng) {
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    for (;;) {
        const glm::vec3 v(gauss(rng), gauss(rng), gauss(rng));
        const float len2 = glm::dot(v, v);
        if (len2 > 1e-6f) return v / std::sqrt(len2);
    }
}

/// A uniformly random rotation: a normalised 4D Gaussian as a unit quaternion.
inline glm::quat randRotation(Rng& rng) {
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    for (;;) {
        const glm::quat q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
        const float len2 = glm::dot(q, q);
        if (len2 > 1e-6f) return q / std::sqrt(len2);
    }
}

} // namespace kz::bench
