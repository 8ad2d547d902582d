// The query lab's answers: each query's fast path (src/geom) run on the lab's scene, its verdict
// and key numbers (for the panel and the `lab` event) and what the picture draws of it. Each
// query's run, idea and controls are its unit's (lab/queries/unit.hpp, labQueryInfo).
// No SDL, GL or ImGui: tested without a display (tests/app/test_lab.cpp).
#pragma once

#include "app/cli/events.hpp"
#include "app/lab/queries/unit.hpp"
#include "app/lab/scene.hpp"
#include "app/lab/trace.hpp"
#include "geom/contact.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kz {

/// A named number of a result: "t", "depth", "distance", "separation", "s"; its key is the
/// panel's label and the lab event's key.
using LabNumber = EventNumber;

/// One run of a lab query.
struct LabResult {
    bool positive = false;          ///< The verdict: the ray hits, the pair overlaps, the sweep touches.
    bool isHit = false;             ///< The verdict is a hit (rays, the sweep), else an overlap (pairs).
    std::vector<LabNumber> numbers; ///< Key numbers in the order shown: t for a hit; depth for an overlap;
                                    ///< distance (exact) or separation (the SAT bound) when apart.
    std::optional<RayHit> rayHit;   ///< Ray queries that hit: t (1 at the end handle), point, normal.
    std::optional<std::uint32_t> meshTriangle; ///< ray-mesh: the triangle hit.
    std::optional<Manifold> manifold;          ///< Pairs that overlap: the contact points, normal (from B
                                               ///< toward A) and depth.
    /// The closest points of A and B (a point of A first) when they are apart and the query knows
    /// them (spheres, sphere-box, sphere-triangle, box-plane), and of the two segments always.
    std::optional<std::pair<glm::vec3, glm::vec3>> closest;
    std::optional<glm::vec3> impactCentre; ///< The sweep: the sphere's centre when it first touches.
    LabTrace trace; ///< The query's steps (traceLabQuery), for the construction and the panel.

    /// The verdict's key in the lab event: "hit" or "overlap".
    const char* verdictKey() const { return isHit ? "hit" : "overlap"; }
    /// The number named `key`, if the result has it.
    std::optional<float> number(const std::string& key) const;
};

/// Runs the scene's query (its unit's run, lab/queries/unit.hpp) and its trace (traceLabQuery). The ray
/// queries run with tMax = 1: the ray ends at its end handle. Segments closer than kLabSegmentTouch count
/// as touching.
LabResult runLabQuery(const LabScene& scene);

inline constexpr float kLabSegmentTouch = 0.01f;

/// The `lab` event of `result` for `query`: EventLog::lab with its verdict's key, the verdict and
/// its numbers.
void logLabResult(EventLog& events, std::uint64_t frame, const char* query, const LabResult& result);

} // namespace kz
