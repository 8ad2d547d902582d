// The impact log as the app shows it (the panel's Impacts section, ui/impacts_panel.cpp): the records of
// the last steps in a ring (ImpactLog), each row's text, the "Why here?" lines of a record's
// search, and the picture of a shown impact. The records themselves are the physics'
// (World::impacts(), physics/impact_record.hpp). No SDL, GL or ImGui: tested without a display.
#pragma once

#include "app/lab/draw.hpp"
#include "physics/explain_advancement.hpp"
#include "physics/world.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace kz {

/// The impacts of the last steps, newest first: a ring of the last kCapacity records (older ones
/// drop out), filled step by step from World::impacts().
class ImpactLog {
public:
    static constexpr std::size_t kCapacity = 2000;

    /// A step's records (World::impacts() right after step `step`). Records of that step or later
    /// are forgotten first: the world was reset or rewound, and its steps come again.
    void add(std::span<const ImpactRecord> records, std::uint64_t step);
    /// Forgets the records of the steps after `step` (the world now at that step: a reset to 0, or
    /// a rewind).
    void forgetAfter(std::uint64_t step);
    void clear();

    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    /// The i-th newest record (0: the newest), i < size().
    const ImpactRecord& newest(std::size_t i) const;
    /// Records that dropped out of the ring (added beyond kCapacity) since the last clear.
    std::uint64_t dropped() const { return dropped_; }

private:
    std::vector<ImpactRecord> ring_; ///< Grows to kCapacity, then wraps.
    std::size_t start_ = 0;          ///< The oldest record's slot.
    std::size_t count_ = 0;
    std::uint64_t dropped_ = 0;
};

/// Whether body `body` took part in the impact (as its body or its partner body).
bool involvesBody(const ImpactRecord& record, int body);

/// The record's body's name, or "body N" when the index is not in the world.
std::string impactBodyName(const World& world, const ImpactRecord& record);
/// The partner's name: the other body's or the obstacle's ("lamp, triangle 12"), or "wall N".
std::string impactPartnerName(const World& world, const ImpactRecord& record);

/// A shown impact: the record and its "Why here?" (World::explainImpact).
struct ShownImpact {
    ImpactRecord record;
    AdvancementTrace why;
};

/// "Why here?": how the record's time was found, with the numbers, a line each (at most about 50
/// characters, for the panel). The method; where the search started (its time in the step, the
/// time left); then for the linear root (sphere and
/// wall) d0, the approach speed and t = d0 / approach; for the quadratic (two spheres) a, b, c, the
/// discriminant and the root c / (-b + sqrt(b^2 - a c)); for the sweep over a mesh the triangles
/// near the path, the triangle and feature that won and its time; for conservative advancement
/// d0, the target gap, the speed bound and each iteration's time, distance bound and advance. The
/// last line: the impact's time in the step = start + the search's time.
std::vector<std::string> whyHereLines(const ShownImpact& shown);

/// The picture of an impact, in the colours below: the point (a cross) and the normal (an arrow
/// from it), the body where it was at the impact (outlined) with its velocity before and after as
/// arrows from its centre, and the partner's feature: the wall's polygon, the other body outlined
/// where it was, or the mesh triangle. Indices out of range draw nothing of theirs.
void drawImpact(const World& world, const ImpactRecord& record, LabCanvas& canvas);

inline constexpr glm::vec3 kImpactPointColor{1.0f, 1.0f, 1.0f};
inline constexpr glm::vec3 kImpactNormalColor{0.25f, 0.95f, 1.0f};
inline constexpr glm::vec3 kImpactBeforeColor{1.0f, 0.55f, 0.15f}; ///< Velocity before (orange).
inline constexpr glm::vec3 kImpactAfterColor{0.3f, 1.0f, 0.35f};   ///< Velocity after (green).
inline constexpr glm::vec3 kImpactBodyColor{1.0f, 0.9f, 0.3f};     ///< The body's outline at the impact.
inline constexpr glm::vec3 kImpactPartnerColor{1.0f, 0.3f, 0.85f}; ///< The partner's feature (magenta).
/// Seconds of motion a velocity arrow shows (its length: speed times this, at least 0.25 m).
inline constexpr float kImpactArrowSeconds = 0.25f;

} // namespace kz
