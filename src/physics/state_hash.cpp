#include "state_hash.hpp"

#include "geom/fnv1a.hpp"

#include <bit>
#include <cstring>
#include <sstream>
#include <type_traits>

namespace kz {
namespace {

/// A float's bits into the hash, least significant byte first (whatever the machine's byte order).
void mix(std::uint64_t& hash, float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    for (int byte = 0; byte < 4; ++byte)
        fnv1aByte(hash, static_cast<unsigned char>(bits >> (8 * byte)));
}

/// Compares values bit for bit and keeps the first difference.
class Differ {
public:
    /// Numbers, enums, GLM vectors and quaternions (no padding): compared by their bytes.
    template <class T>
    void operator()(const char* what, const T& x, const T& y) {
        static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_same_v<T, glm::vec3> ||
                      std::is_same_v<T, glm::quat>);
        if (!first_.empty() || std::memcmp(&x, &y, sizeof(T)) == 0) return;
        std::ostringstream out;
        out << where_ << what << ": " << text(x) << " vs " << text(y);
        first_ = out.str();
    }
    void operator()(const char* what, const std::string& x, const std::string& y) {
        if (first_.empty() && x != y) first_ = where_ + what + ": '" + x + "' vs '" + y + "'";
    }
    /// What the next values are of ("body 3 ").
    void at(std::string where) { where_ = std::move(where); }
    bool found() const { return !first_.empty(); }
    const std::string& first() const { return first_; }

private:
    template <class T>
    static std::string text(const T& v) {
        std::ostringstream out;
        out.precision(9);
        if constexpr (std::is_same_v<T, glm::vec3>) {
            out << '(' << v.x << ", " << v.y << ", " << v.z << ')';
        } else if constexpr (std::is_same_v<T, glm::quat>) {
            out << '(' << v.w << ", " << v.x << ", " << v.y << ", " << v.z << ')';
        } else if constexpr (std::is_enum_v<T>) {
            out << static_cast<long long>(v);
        } else {
            out << v;
        }
        return out.str();
    }

    std::string where_;
    std::string first_;
};

void compareBodies(Differ& d, const Body& x, const Body& y) {
    d("shape", x.shape, y.shape);
    d("radius", x.radius, y.radius);
    d("half extents", x.halfExtents, y.halfExtents);
    d("half height", x.halfHeight, y.halfHeight);
    const std::size_t vx = x.hull ? x.hull->vertices.size() : 0, vy = y.hull ? y.hull->vertices.size() : 0;
    d("hull vertices", vx, vy);
    for (std::size_t i = 0; i < vx && vx == vy; ++i)
        d("hull vertex", x.hull->vertices[i], y.hull->vertices[i]);
    d("mass", x.mass, y.mass);
    d("inverse mass", x.invMass, y.invMass);
    d("inertia", x.inertiaLocal, y.inertiaLocal);
    d("position", x.position, y.position);
    d("orientation", x.orientation, y.orientation);
    d("velocity", x.velocity, y.velocity);
    d("angular velocity", x.angularVelocity, y.angularVelocity);
    d("angular momentum", x.angularMomentum, y.angularMomentum);
    d("restitution", x.restitution, y.restitution);
    d("friction", x.friction, y.friction);
    d("rolling resistance", x.rollingResistance, y.rollingResistance);
    d("color", x.color, y.color);
    d("name", x.name, y.name);
}

void compareContacts(Differ& d, const ContactInfo& x, const ContactInfo& y) {
    d("body a", x.bodyA, y.bodyA);
    d("body b", x.bodyB, y.bodyB);
    d("wall", x.wall, y.wall);
    d("obstacle", x.obstacle, y.obstacle);
    d("triangle", x.triangle, y.triangle);
    d("point", x.point, y.point);
    d("normal", x.normal, y.normal);
    d("depth", x.depth, y.depth);
}

void compareBodyStates(Differ& d, const std::string& who, const ImpactBodyState& x,
                       const ImpactBodyState& y) {
    d.at(who);
    d(" position", x.position, y.position);
    d(" orientation", x.orientation, y.orientation);
    d(" velocity", x.velocity, y.velocity);
    d(" angular velocity", x.angularVelocity, y.angularVelocity);
    d(" angular momentum", x.angularMomentum, y.angularMomentum);
    d(" spin energy", x.spinEnergy, y.spinEnergy);
}

void comparePoses(Differ& d, const ImpactPose& x, const ImpactPose& y) {
    d(" position", x.position, y.position);
    d(" orientation", x.orientation, y.orientation);
    d(" velocity before", x.velocityBefore, y.velocityBefore);
    d(" velocity after", x.velocityAfter, y.velocityAfter);
}

void compareImpacts(Differ& d, const std::string& where, const ImpactRecord& x, const ImpactRecord& y) {
    d("step", x.step, y.step);
    d("time", x.time, y.time);
    d("body", x.body, y.body);
    d("partner kind", x.partner.kind, y.partner.kind);
    d("partner", x.partner.index, y.partner.index);
    d("triangle", x.triangle, y.triangle);
    d("point", x.point, y.point);
    d("normal", x.normal, y.normal);
    d("speed before", x.speedBefore, y.speedBefore);
    d("speed after", x.speedAfter, y.speedAfter);
    d("impulse", x.impulse, y.impulse);
    d("method", x.method, y.method);
    d.at(where + "body pose");
    comparePoses(d, x.bodyPose, y.bodyPose);
    d.at(where + "partner pose");
    comparePoses(d, x.partnerPose, y.partnerPose);
    d.at(where + "search ");
    d("time", x.search.time, y.search.time);
    d("remaining", x.search.remaining, y.search.remaining);
    compareBodyStates(d, where + "search body", x.search.body, y.search.body);
    compareBodyStates(d, where + "search partner", x.search.partner, y.search.partner);
}

} // namespace

std::string stateDifference(const World& a, const World& b) {
    Differ d;
    d("step count", a.stepCount(), b.stepCount());
    d("halted body", a.haltedBody(), b.haltedBody());
    d("impact events", a.lastStepImpacts(), b.lastStepImpacts());
    d("bodies", a.bodies().size(), b.bodies().size());
    for (std::size_t i = 0; i < a.bodies().size() && !d.found(); ++i) {
        d.at("body " + std::to_string(i) + " ");
        compareBodies(d, a.bodies()[i], b.bodies()[i]);
    }
    d.at("");
    d("contacts", a.contacts().size(), b.contacts().size());
    for (std::size_t i = 0; i < a.contacts().size() && !d.found(); ++i) {
        d.at("contact " + std::to_string(i) + " ");
        compareContacts(d, a.contacts()[i], b.contacts()[i]);
    }
    d.at("");
    d("impacts", a.impacts().size(), b.impacts().size());
    for (std::size_t i = 0; i < a.impacts().size() && !d.found(); ++i) {
        const std::string where = "impact " + std::to_string(i) + " ";
        d.at(where);
        compareImpacts(d, where, a.impacts()[i], b.impacts()[i]);
    }
    return d.first();
}

std::uint64_t stateHash(const World& world) {
    std::uint64_t hash = kFnvOffset;
    for (const Body& b : world.bodies()) {
        for (int i = 0; i < 3; ++i)
            mix(hash, b.position[i]);
        mix(hash, b.orientation.w);
        mix(hash, b.orientation.x);
        mix(hash, b.orientation.y);
        mix(hash, b.orientation.z);
        for (int i = 0; i < 3; ++i)
            mix(hash, b.velocity[i]);
        for (int i = 0; i < 3; ++i)
            mix(hash, b.angularVelocity[i]);
    }
    return hash;
}

std::string stateHashText(std::uint64_t hash) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text(16, '0');
    for (int i = 15; i >= 0; --i, hash >>= 4)
        text[static_cast<std::size_t>(i)] = kDigits[hash & 0xfu];
    return text;
}

} // namespace kz
