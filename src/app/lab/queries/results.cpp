#include "app/lab/queries/results.hpp"

namespace kz::lab_parts {

LabResult rayResult(const std::optional<RayHit>& hit) {
    LabResult result;
    result.isHit = true;
    result.positive = hit.has_value();
    result.rayHit = hit;
    if (hit) result.numbers.push_back({"t", hit->t});
    return result;
}

LabResult pairResult(const std::optional<Manifold>& manifold) {
    LabResult result;
    result.positive = manifold.has_value();
    result.manifold = manifold;
    if (manifold) result.numbers.push_back({"depth", manifold->depth});
    return result;
}

void addGap(LabResult& result, const glm::vec3& a, const glm::vec3& b) {
    result.closest = std::pair{a, b};
    result.numbers.push_back({"distance", glm::distance(a, b)});
}

glm::vec3 towardOf(const Sphere& s, const glm::vec3& p) {
    const glm::vec3 toward = p - s.center;
    const float length = glm::length(toward);
    return length > 0.0f ? s.center + toward * (s.radius / length) : s.center;
}

LabResult sphereResult(const Sphere& a, const std::optional<Manifold>& contact, const glm::vec3& nearestOfB) {
    LabResult result = pairResult(contact);
    if (!result.positive) addGap(result, towardOf(a, nearestOfB), nearestOfB);
    return result;
}

LabResult separatedResult(const std::optional<Manifold>& contact, float separation) {
    LabResult result = pairResult(contact);
    if (!result.positive) result.numbers.push_back({"separation", separation});
    return result;
}

} // namespace kz::lab_parts
