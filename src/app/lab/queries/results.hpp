// The results the lab queries' units share (LabQueryUnit::run): a ray's hit or miss, a pair's
// overlap or gap, with the numbers the panel and the lab event show.
#pragma once

#include "app/lab/query.hpp"

namespace kz::lab_parts {

/// A ray query's result: hit or miss, and t for a hit.
LabResult rayResult(const std::optional<RayHit>& hit);

/// An overlap's manifold and depth (no numbers when apart: the caller adds the gap's).
LabResult pairResult(const std::optional<Manifold>& manifold);

/// Apart: the exact distance between the closest points a (on A) and b (on B).
void addGap(LabResult& result, const glm::vec3& a, const glm::vec3& b);

/// The point of sphere `s` nearest an outside point p.
glm::vec3 towardOf(const Sphere& s, const glm::vec3& p);

/// Sphere A against B: the contact, else the gap between A and B's point nearest A's centre.
LabResult sphereResult(const Sphere& a, const std::optional<Manifold>& contact, const glm::vec3& nearestOfB);

/// Box A against B: the contact, else only their separation over the separating axes (a lower
/// bound of their distance; no closest points).
LabResult separatedResult(const std::optional<Manifold>& contact, float separation);

} // namespace kz::lab_parts
