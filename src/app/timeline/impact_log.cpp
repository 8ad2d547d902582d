#include "app/timeline/impact_log.hpp"

#include "physics/room.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <glm/gtc/constants.hpp>

namespace kz {
namespace {

constexpr float kNormalLength = 0.6f;

/// printf into a std::string (the lines are short).
[[gnu::format(printf, 1, 2)]] std::string format(const char* pattern, ...) {
    char buffer[256];
    va_list args;
    va_start(args, pattern);
    std::vsnprintf(buffer, sizeof buffer, pattern, args);
    va_end(args);
    return buffer;
}

double ms(double seconds) {
    return 1000.0 * seconds;
}

double d(float v) {
    return static_cast<double>(v);
}

const char* featureName(const SphereTriangleSweepTrace& sweep) {
    static const char* const edges[] = {"edge ab", "edge bc", "edge ca"};
    static const char* const corners[] = {"corner a", "corner b", "corner c"};
    const int i = std::clamp(sweep.winnerIndex, 0, 2);
    switch (sweep.winner) {
    case SweepFeature::InitialOverlap:
        return "touching already";
    case SweepFeature::Face:
        return "face";
    case SweepFeature::Edge:
        return edges[i];
    case SweepFeature::Corner:
        return corners[i];
    case SweepFeature::None:
        break;
    }
    return "none";
}

const char* advancementEnd(AdvancementEnd end) {
    switch (end) {
    case AdvancementEnd::Converged:
        return "converged: within the tolerance";
    case AdvancementEnd::BeyondRemaining:
        return "the next advance passes the time left: no impact";
    case AdvancementEnd::IterationLimit:
        return "advances used up without converging: the time reached";
    }
    return "";
}

void rootLines(const AdvancementTrace& why, std::vector<std::string>& out) {
    if (why.method == ImpactMethod::SpherePlaneRoot) {
        const SpherePlaneSweepTrace& p = why.plane;
        out.push_back("the surface's distance to the wall is linear in t:");
        out.push_back("  d(t) = d0 - v t = gap,  t = (d0 - gap) / v");
        out.push_back(format("  d0 = %.6f m, gap = %.6f m", d(p.distance), d(p.gap)));
        out.push_back(format("  v = %.4f m/s (approach speed)", d(p.approach)));
        out.push_back(format("  t = %.6f ms", ms(d(p.root))));
        return;
    }
    const SphereSphereSweepTrace& q = why.spheres;
    out.push_back("the centres' distance reaches rA + rB + gap:");
    out.push_back("  |dp + dv t| = R:  a t^2 + 2 b t + c = 0");
    out.push_back(format("  dp = (%.4f, %.4f, %.4f) m", d(q.offset.x), d(q.offset.y), d(q.offset.z)));
    out.push_back(format("  dv = (%.4f, %.4f, %.4f) m/s", d(q.relativeVelocity.x), d(q.relativeVelocity.y),
                         d(q.relativeVelocity.z)));
    out.push_back(format("  R = %.6f m", d(q.reach)));
    out.push_back(format("  a = dv.dv = %.6g, b = dp.dv = %.6g", d(q.a), d(q.b)));
    out.push_back(format("  c = dp.dp - R^2 = %.6g", d(q.c)));
    out.push_back(format("  b^2 - a c = %.6g", d(q.discriminant)));
    out.push_back(format("  t = c / (-b + sqrt(b^2 - a c)) = %.6f ms", ms(d(q.root))));
}

void advancementLines(const AdvancementTrace& why, std::vector<std::string>& out) {
    out.push_back("fly (d - target) / bound until d <= target + tolerance:");
    out.push_back(format("  d0 = %.6f m, target %.6f m", d(why.initialDistance), d(why.target)));
    out.push_back(format("  tolerance %.6f m", d(why.tolerance)));
    out.push_back(format("  closing speed bound %.4f m/s (along the gap's axis, plus spin),", d(why.bound)));
    out.push_back("  measured again at each iteration:");
    out.push_back("  #   time (ms)   distance (m)  bound (m/s)  advance (ms)");
    for (int k = 0; k < why.stepCount; ++k) {
        const AdvancementStep& s = why.steps[static_cast<std::size_t>(k)];
        out.push_back(format("  %-2d  %9.4f   %11.6f  %11.4f  %11.4f", k + 1, ms(d(s.time)), d(s.distance),
                             d(s.bound), ms(d(s.advance))));
        if (k == why.jumpStep)
            out.push_back("      (to where the bounding spheres could first reach the target)");
    }
    out.push_back(std::string("  ") + advancementEnd(why.end));
}

/// The 12 edges of a box at a pose.
void boxOutline(LabCanvas& canvas, const glm::vec3& half, const glm::vec3& centre,
                const glm::quat& orientation, const glm::vec3& color) {
    const glm::mat3 axes = glm::mat3_cast(orientation);
    const auto corner = [&](int bits) {
        glm::vec3 p = centre;
        for (int k = 0; k < 3; ++k)
            p += ((bits >> k) & 1 ? 1.0f : -1.0f) * half[k] * axes[k];
        return p;
    };
    for (int bits = 0; bits < 8; ++bits) {
        for (int k = 0; k < 3; ++k) {
            if (!((bits >> k) & 1)) canvas.line(corner(bits), corner(bits | 1 << k), color);
        }
    }
}

/// A capsule's or cylinder's wire: its two end circles and four lines along its side; a capsule's
/// ends also get their half circles across the axis.
void roundOutline(LabCanvas& canvas, const Body& body, const ImpactPose& pose, const glm::vec3& color) {
    const glm::mat3 axes = glm::mat3_cast(pose.orientation);
    const float r = roundRadius(body), h = body.halfHeight;
    const glm::vec3 up = axes[1];
    for (const float end : {-1.0f, 1.0f})
        canvas.circle(pose.position + end * h * up, up, r, color);
    for (const glm::vec3& across : {axes[0], -axes[0], axes[2], -axes[2]})
        canvas.line(pose.position - h * up + r * across, pose.position + h * up + r * across, color);
    if (body.shape != ShapeType::Capsule) return;
    constexpr int kArc = 12;
    for (const float end : {-1.0f, 1.0f}) {
        const glm::vec3 centre = pose.position + end * h * up;
        for (const glm::vec3& across : {axes[0], axes[2]}) {
            for (int k = 0; k < kArc; ++k) {
                const auto at = [&](int i) {
                    const float a = glm::pi<float>() * static_cast<float>(i) / kArc;
                    return centre + r * (std::cos(a) * across + end * std::sin(a) * up);
                };
                canvas.line(at(k), at(k + 1), color);
            }
        }
    }
}

/// A hull's edges, each once.
void hullOutline(LabCanvas& canvas, const ConvexHull& hull, const ImpactPose& pose, const glm::vec3& color) {
    const glm::mat3 axes = glm::mat3_cast(pose.orientation);
    for (std::size_t e = 0; e < hull.edges.size(); e += 2) {
        const std::uint32_t a = hull.edges[e].origin,
                            b = e + 1 < hull.edges.size() ? hull.edges[e + 1].origin : a;
        if (a >= hull.vertices.size() || b >= hull.vertices.size()) continue;
        canvas.line(pose.position + axes * hull.vertices[a], pose.position + axes * hull.vertices[b], color);
    }
}

void bodyOutline(LabCanvas& canvas, const Body& body, const ImpactPose& pose, const glm::vec3& color) {
    switch (body.shape) {
    case ShapeType::Sphere:
        canvas.sphere(pose.position, body.radius, color);
        return;
    case ShapeType::Box:
        boxOutline(canvas, body.halfExtents, pose.position, pose.orientation, color);
        return;
    case ShapeType::Capsule:
    case ShapeType::Cylinder:
        roundOutline(canvas, body, pose, color);
        return;
    case ShapeType::Hull:
        if (body.hull) hullOutline(canvas, *body.hull, pose, color);
        return;
    }
}

/// An arrow from `from` along v, speed x kImpactArrowSeconds long (at least 0.25 m); none for v = 0.
void velocityArrow(LabCanvas& canvas, const glm::vec3& from, const glm::vec3& v, const glm::vec3& color) {
    const float speed = glm::length(v);
    if (!(speed > 0.0f)) return;
    canvas.arrow(from, from + v / speed * std::max(speed * kImpactArrowSeconds, 0.25f), color, true);
}

} // namespace

// ------------------------------------------------------------------ the ring

void ImpactLog::add(std::span<const ImpactRecord> records, std::uint64_t step) {
    forgetAfter(step == 0 ? 0 : step - 1);
    for (const ImpactRecord& record : records) {
        if (count_ < ring_.size()) { // a slot freed by forgetAfter
            ring_[(start_ + count_) % ring_.size()] = record;
            ++count_;
        } else if (ring_.size() < kCapacity) { // still growing: start_ is 0
            ring_.push_back(record);
            ++count_;
        } else { // full: the oldest makes room
            ring_[start_] = record;
            start_ = (start_ + 1) % kCapacity;
            ++dropped_;
        }
    }
}

void ImpactLog::forgetAfter(std::uint64_t step) {
    while (count_ > 0 && newest(0).step > step)
        --count_;
    if (count_ == 0) {
        ring_.clear();
        start_ = 0;
    }
}

void ImpactLog::clear() {
    ring_.clear();
    start_ = count_ = 0;
    dropped_ = 0;
}

const ImpactRecord& ImpactLog::newest(std::size_t i) const {
    return ring_[(start_ + count_ - 1 - i) % ring_.size()];
}

// ------------------------------------------------------------------ rows

bool involvesBody(const ImpactRecord& record, int body) {
    return body >= 0 && (record.body == body || (record.partner.isBody() && record.partner.index == body));
}

std::string impactBodyName(const World& world, const ImpactRecord& record) {
    const auto bodies = world.bodies();
    if (record.body < 0 || record.body >= static_cast<int>(bodies.size()))
        return format("body %d", record.body);
    return bodies[static_cast<std::size_t>(record.body)].name;
}

std::string impactPartnerName(const World& world, const ImpactRecord& record) {
    const int i = record.partner.index;
    if (record.partner.isWall()) return format("wall %d", i);
    if (record.partner.isBody()) {
        const auto bodies = world.bodies();
        if (i < 0 || i >= static_cast<int>(bodies.size())) return format("body %d", i);
        return bodies[static_cast<std::size_t>(i)].name;
    }
    const auto obstacles = world.obstacles();
    const std::string name = i >= 0 && i < static_cast<int>(obstacles.size())
                                 ? obstacles[static_cast<std::size_t>(i)].name
                                 : format("obstacle %d", i);
    return name + format(", triangle %" PRIu32, record.triangle);
}

// ------------------------------------------------------------------ "Why here?"

std::vector<std::string> whyHereLines(const ShownImpact& shown) {
    const ImpactRecord& r = shown.record;
    const AdvancementTrace& why = shown.why;
    std::vector<std::string> out;
    if (!why.valid) {
        out.push_back("not in this world: its bodies are gone");
        return out;
    }
    static const char* const methods[] = {
        "the bounding spheres stay apart",
        "a sphere and a wall: the exact linear root",
        "two spheres: the exact quadratic root",
        "a sphere and a mesh: the earliest sweep over the triangles near its path",
        "not approaching",
        "a box: conservative advancement",
        "touching at the step start, closing: bounced by the step's first solve",
    };
    out.push_back(methods[static_cast<int>(why.method)]);
    out.push_back(format("searched at %.4f ms, %.4f ms left", ms(r.search.time), ms(d(r.search.remaining))));
    switch (why.method) {
    case ImpactMethod::SpherePlaneRoot:
    case ImpactMethod::SphereSphereRoot:
        rootLines(why, out);
        break;
    case ImpactMethod::SphereTriangleSweep:
        out.push_back(format("%d triangles near the path, each swept (sphere grown by %.6f m)",
                             why.nearTriangles, d(why.target)));
        if (why.triangle >= 0) {
            out.push_back(
                format("first touch: triangle %" PRId64 ", its %s", why.triangle, featureName(why.sweep)));
            out.push_back(format("  t = %.6f ms", ms(d(why.sweep.time.value_or(INFINITY)))));
        }
        break;
    case ImpactMethod::Conservative:
        if (why.nearTriangles > 0)
            out.push_back(format("over the %d mesh triangles near the path", why.nearTriangles));
        advancementLines(why, out);
        break;
    case ImpactMethod::TouchingAtStepStart:
        out.push_back(format("the last step ended with the gap at %.6f m, within the %.6f m",
                             d(why.initialDistance), d(why.target)));
        out.push_back("a solve takes as touching: no search, the impact is at the step's start");
        break;
    case ImpactMethod::BoundingSpheresApart:
    case ImpactMethod::NotApproaching:
        break;
    }
    out.push_back(format("impact at %.4f + %.4f = %.4f ms into step %" PRIu64, ms(r.search.time),
                         ms(d(why.time)), ms(r.search.time + d(why.time)), r.step));
    return out;
}

// ------------------------------------------------------------------ the picture

void drawImpact(const World& world, const ImpactRecord& record, LabCanvas& canvas) {
    const auto bodies = world.bodies();
    if (record.body < 0 || record.body >= static_cast<int>(bodies.size())) return;
    canvas.cross(record.point, kImpactPointColor, true);
    canvas.arrow(record.point, record.point + kNormalLength * record.normal, kImpactNormalColor, true);
    bodyOutline(canvas, bodies[static_cast<std::size_t>(record.body)], record.bodyPose, kImpactBodyColor);
    velocityArrow(canvas, record.bodyPose.position, record.bodyPose.velocityBefore, kImpactBeforeColor);
    velocityArrow(canvas, record.bodyPose.position, record.bodyPose.velocityAfter, kImpactAfterColor);

    const int i = record.partner.index;
    if (record.partner.isWall()) {
        const auto& walls = world.room().walls;
        if (i < 0 || i >= static_cast<int>(walls.size())) return;
        const std::vector<glm::vec3>& polygon = walls[static_cast<std::size_t>(i)];
        for (std::size_t k = 0; k < polygon.size(); ++k)
            canvas.line(polygon[k], polygon[(k + 1) % polygon.size()], kImpactPartnerColor, true);
    } else if (record.partner.isBody()) {
        if (i < 0 || i >= static_cast<int>(bodies.size())) return;
        bodyOutline(canvas, bodies[static_cast<std::size_t>(i)], record.partnerPose, kImpactPartnerColor);
    } else {
        const auto obstacles = world.obstacles();
        if (i < 0 || i >= static_cast<int>(obstacles.size())) return;
        const Obstacle& obstacle = obstacles[static_cast<std::size_t>(i)];
        if (record.triangle >= obstacle.mesh->triangleCount()) return;
        const Triangle t = obstacle.worldTriangle(record.triangle);
        canvas.line(t.a, t.b, kImpactPartnerColor, true);
        canvas.line(t.b, t.c, kImpactPartnerColor, true);
        canvas.line(t.c, t.a, kImpactPartnerColor, true);
    }
}

} // namespace kz
