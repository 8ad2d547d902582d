// Turning a Scenario into a World, with its seeded random bodies.
#include "body_checks.hpp"
#include "scenario.hpp"
#include "scenario_checks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <string>

namespace kz {

namespace {

using scenario_detail::bodiesOverlap;
using scenario_detail::boundingRadius;

/// Tries at a free position per random body before the room counts as too full.
constexpr int kPlacementAttempts = 1000;

/// Uniform numbers from std::mt19937_64 through a fixed mapping: one seed gives the same bits
/// on every run and every standard library (std::uniform_real_distribution's output is
/// implementation-defined). Each draw is its own statement, so the order never depends on the
/// compiler's order of evaluating arguments.
class Draws {
public:
    explicit Draws(std::uint64_t seed) : rng_(seed) {}

    /// [0, 1): the top 53 bits of one 64-bit draw.
    double unit() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }

    /// [lo, hi]: lo + (hi - lo) u in double, rounded once to float.
    float between(float lo, float hi) {
        const double u = unit();
        return static_cast<float>(static_cast<double>(lo) + (static_cast<double>(hi) - lo) * u);
    }

    /// A uniformly distributed unit vector: rejection sampling in the cube [-1, 1]^3, keeping
    /// points inside the unit ball (and not too near its centre), then normalising. No
    /// trigonometry, so no dependence on libm.
    glm::vec3 direction() {
        for (int i = 0; i < 1000; ++i) {
            const double x = 2.0 * unit() - 1.0;
            const double y = 2.0 * unit() - 1.0;
            const double z = 2.0 * unit() - 1.0;
            const double len2 = x * x + y * y + z * z;
            if (len2 > 1e-6 && len2 <= 1.0) {
                const double inv = 1.0 / std::sqrt(len2);
                return {static_cast<float>(x * inv), static_cast<float>(y * inv),
                        static_cast<float>(z * inv)};
            }
        }
        return {1.0f, 0.0f, 0.0f}; // 1000 rejections in a row: probability below 1e-300
    }

    /// A uniformly distributed rotation: the same rejection sampling in 4D gives a uniform
    /// point on the unit 3-sphere, i.e. a uniform unit quaternion (w, x, y, z).
    glm::quat orientation() {
        for (int i = 0; i < 1000; ++i) {
            const double w = 2.0 * unit() - 1.0;
            const double x = 2.0 * unit() - 1.0;
            const double y = 2.0 * unit() - 1.0;
            const double z = 2.0 * unit() - 1.0;
            const double len2 = w * w + x * x + y * y + z * z;
            if (len2 > 1e-6 && len2 <= 1.0) {
                const double inv = 1.0 / std::sqrt(len2);
                return {static_cast<float>(w * inv), static_cast<float>(x * inv), static_cast<float>(y * inv),
                        static_cast<float>(z * inv)};
            }
        }
        return {1.0f, 0.0f, 0.0f, 0.0f};
    }

private:
    std::mt19937_64 rng_;
};

bool overlapsAny(const BodyDesc& body, const std::vector<BodyDesc>& others,
                 const std::vector<ListedObstacle>& obstacles) {
    if (scenario_detail::touchedObstacle(body, obstacles)) return true;
    const float r = boundingRadius(body);
    return std::any_of(others.begin(), others.end(), [&](const BodyDesc& other) {
        const glm::vec3 d = other.position - body.position;
        const float reach = r + boundingRadius(other);
        return glm::dot(d, d) <= reach * reach && bodiesOverlap(body, other); // bounding spheres first
    });
}

/// A random body's shape: a box with probability boxFraction, else a sphere; or, with a "shapes"
/// table, each shape with its weight's share. One draw either way.
ShapeType drawShape(const RandomDesc& r, Draws& draw) {
    const double u = draw.unit();
    if (!r.shapeWeights) return u < r.boxFraction ? ShapeType::Box : ShapeType::Sphere;
    const auto& w = *r.shapeWeights;
    const double total = double(w[0]) + w[1] + w[2] + w[3];
    double below = 0.0;
    constexpr ShapeType kShapes[] = {ShapeType::Sphere, ShapeType::Box, ShapeType::Capsule,
                                     ShapeType::Cylinder};
    for (int i = 0; i < 3; ++i) {
        below += w[std::size_t(i)];
        if (u * total < below) return kShapes[i];
    }
    return ShapeType::Cylinder;
}

/// Appends the scenario's random bodies to `bodies`. Draw order per body, fixed: shape; size
/// (radius, or half extents x, y, z, or radius and half height); a box's, capsule's or cylinder's
/// orientation; then per placement attempt the
/// position x, y, z; then direction and speed. Returns "<pointer>: <what>" on failure.
std::string addRandomBodies(const Scenario& s, std::uint64_t seed, std::vector<BodyDesc>& bodies) {
    const RandomDesc& r = *s.random;

    Draws draw(seed);
    for (int k = 0; k < r.count; ++k) {
        BodyDesc body;
        body.shape = drawShape(r, draw);
        if (body.shape == ShapeType::Box) {
            body.halfExtents.x = draw.between(r.boxHalf.x, r.boxHalf.y);
            body.halfExtents.y = draw.between(r.boxHalf.x, r.boxHalf.y);
            body.halfExtents.z = draw.between(r.boxHalf.x, r.boxHalf.y);
            body.orientation = draw.orientation();
        } else if (body.shape == ShapeType::Sphere) {
            body.radius = draw.between(r.sphereRadius.x, r.sphereRadius.y);
        } else {
            body.radius = draw.between(r.sphereRadius.x, r.sphereRadius.y);
            body.halfHeight = draw.between(r.halfHeight.x, r.halfHeight.y);
            body.orientation = draw.orientation();
        }
        body.name = scenario_detail::defaultBodyName(body.shape, bodies.size());

        // Positions are drawn in the room's bounds shrunk by the bounding radius, and kept when
        // the bounding sphere is inside every wall and the body touches no other body.
        const float margin = boundingRadius(body);
        const glm::vec3 lo = s.room.bounds.min + margin;
        const glm::vec3 hi = s.room.bounds.max - margin;
        if (!(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z))
            return "/random: random body " + body.name + " (bounding radius " +
                   scenario_detail::formatFloat(margin) + ") is larger than the room";
        bool placed = false;
        for (int attempt = 0; attempt < kPlacementAttempts && !placed; ++attempt) {
            body.position.x = draw.between(lo.x, hi.x);
            body.position.y = draw.between(lo.y, hi.y);
            body.position.z = draw.between(lo.z, hi.z);
            placed = insideRoom(s.room, body.position, -margin) && !overlapsAny(body, bodies, s.obstacles);
        }
        if (!placed)
            return "/random/count: the room is too full: placed " + std::to_string(k) + " of " +
                   std::to_string(r.count) + " random bodies, then " + body.name +
                   " found no free place in " + std::to_string(kPlacementAttempts) +
                   " tries (lower count or sizes, or enlarge the room)";

        const glm::vec3 dir = draw.direction();
        body.velocity = dir * draw.between(r.speed.x, r.speed.y);
        body.mass = 0.0f; // from the default density
        body.restitution = s.restitution;
        body.friction = s.friction;
        body.rollingResistance = s.rollingResistance;
        body.color = scenario_detail::kBodyPalette[bodies.size() % scenario_detail::kBodyPalette.size()];
        bodies.push_back(std::move(body));
    }
    return {};
}

} // namespace

InstantiateResult instantiate(const Scenario& scenario, std::optional<std::uint64_t> seedOverride) {
    InstantiateResult result{std::nullopt, {}, 0};
    const std::string source = scenario.source.empty() ? std::string("(scenario)") : scenario.source;
    try {
        // A Scenario built in code gets the loader's checks (a loaded one passes them again).
        scenario_detail::checkScenario(scenario);
        if (std::string error = scenario_detail::checkListedBodies(scenario); !error.empty()) {
            result.error = source + ": " + error;
            return result;
        }
        std::vector<BodyDesc> bodies = scenario.bodies;
        if (scenario.random) {
            result.seed = seedOverride.value_or(scenario.random->seed);
            if (std::string error = addRandomBodies(scenario, result.seed, bodies); !error.empty()) {
                result.error = source + ": " + error;
                return result;
            }
        } else {
            result.seed = seedOverride.value_or(0);
        }
        World& world = result.world.emplace(scenario.room, scenario.settings);
        for (const ListedObstacle& listed : scenario.obstacles)
            world.addObstacle(listed.obstacle);
        for (const BodyDesc& body : bodies)
            world.addBody(body);
    } catch (const scenario_detail::LoadError& e) {
        result.world.reset();
        result.error = scenario_detail::errorLine(source, e.pointer, e.what);
    } catch (const std::exception& e) {
        result.world.reset();
        result.error = scenario_detail::oneLine(source + ": " + e.what());
    }
    return result;
}

} // namespace kz
