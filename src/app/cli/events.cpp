#include "app/cli/events.hpp"

#include "app/cli/json_text.hpp"
#include "physics/state_hash.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iostream>

namespace kz {
namespace {

using Json = nlohmann::ordered_json;

Json header(std::uint64_t frame, const char* event) {
    Json line;
    line["frame"] = frame;
    line["event"] = event;
    return line;
}

} // namespace

bool EventLog::open(const std::string& target, std::string& error) {
    if (target == "-") {
        toStdout_ = true;
        return true;
    }
    file_.open(target, std::ios::out | std::ios::trunc);
    if (!file_) {
        error = "--events: cannot write '" + target + "': " + std::strerror(errno);
        return false;
    }
    return true;
}

void EventLog::write(const Json& line) {
    if (!enabled()) return;
    // A non-finite number would be written as null: write the line anyway (the event happened).
    std::ostream& out = toStdout_ ? std::cout : static_cast<std::ostream&>(file_);
    out << jsonText(line) << '\n';
    out.flush();
}

void EventLog::pick(std::uint64_t frame, const Body* body, const RayHit* hit) {
    if (!enabled()) return;
    Json line = header(frame, "pick");
    if (body == nullptr || hit == nullptr) {
        line["body"] = nullptr;
    } else {
        line["body"] = body->name;
        line["shape"] = shapeName(body->shape);
        line["t"] = shortestDouble(hit->t);
        line["point"] = toJson(hit->point);
        line["normal"] = toJson(hit->normal);
    }
    write(line);
}

void EventLog::pickObstacle(std::uint64_t frame, const Obstacle& obstacle, const PickHit& hit) {
    if (!enabled()) return;
    Json line = header(frame, "pick");
    line["body"] = nullptr; // not a body: the "obstacle" key says what was hit
    line["obstacle"] = obstacle.name;
    line["obstacle_index"] = hit.obstacle;
    line["shape"] = "mesh";
    line["mesh"] = obstacle.mesh ? obstacle.mesh->source : std::string();
    line["triangle"] = hit.triangle;
    line["u"] = shortestDouble(hit.u);
    line["v"] = shortestDouble(hit.v);
    line["t"] = shortestDouble(hit.hit.t);
    line["point"] = toJson(hit.hit.point);
    line["normal"] = toJson(hit.hit.normal);
    write(line);
}

void EventLog::reset(std::uint64_t frame, const std::string& scenario, std::uint64_t seed) {
    if (!enabled()) return;
    Json line = header(frame, "reset");
    line["scenario"] = scenario;
    line["seed"] = seed;
    write(line);
}

void EventLog::switched(std::uint64_t frame, const char* event, bool on) {
    if (!enabled()) return;
    Json line = header(frame, event);
    line["on"] = on;
    write(line);
}

void EventLog::cameraSpin(std::uint64_t frame, bool on) {
    switched(frame, "camera_spin", on);
}

void EventLog::shadows(std::uint64_t frame, bool on) {
    switched(frame, "shadows", on);
}

void EventLog::card(std::uint64_t frame, const std::optional<glm::vec4>& rect) {
    if (!enabled()) return;
    Json line = header(frame, "card");
    line["open"] = rect.has_value();
    if (rect) {
        line["rect"] = Json::array({shortestDouble(rect->x), shortestDouble(rect->y), shortestDouble(rect->z),
                                    shortestDouble(rect->w)});
    }
    write(line);
}

void EventLog::view(std::uint64_t frame, glm::ivec2 window, glm::vec2 freeMin, glm::vec2 freeSize) {
    if (!enabled()) return;
    Json line = header(frame, "view");
    line["window"] = Json::array({window.x, window.y});
    line["free"] = Json::array({shortestDouble(freeMin.x), shortestDouble(freeMin.y),
                                shortestDouble(freeSize.x), shortestDouble(freeSize.y)});
    write(line);
}

void EventLog::drag(std::uint64_t frame, bool start, const std::string& body) {
    if (!enabled()) return;
    Json line = header(frame, start ? "drag_start" : "drag_end");
    line["body"] = body;
    write(line);
}

void EventLog::screenshot(std::uint64_t frame, const std::string& file) {
    if (!enabled()) return;
    Json line = header(frame, "screenshot");
    line["file"] = file;
    write(line);
}

void EventLog::lab(std::uint64_t frame, const char* query, const char* verdictKey, bool verdict,
                   std::span<const EventNumber> numbers) {
    if (!enabled()) return;
    Json line = header(frame, "lab");
    line["query"] = query;
    line[verdictKey] = verdict;
    for (const EventNumber& number : numbers)
        line[number.key] = shortestDouble(number.value);
    write(line);
}

void EventLog::quit(std::uint64_t frame, std::uint64_t stateHash, std::uint64_t tick) {
    if (!enabled()) return;
    Json line = header(frame, "quit");
    line["tick"] = tick;
    line["state_hash"] = stateHashText(stateHash);
    write(line);
}

void EventLog::replayEnd(std::uint64_t frame, std::uint64_t tick, std::uint64_t stateHash, bool matches) {
    if (!enabled()) return;
    Json line = header(frame, "replay_end");
    line["tick"] = tick;
    line["state_hash"] = stateHashText(stateHash);
    line["matches"] = matches;
    write(line);
}

void EventLog::timeline(std::uint64_t frame, const char* event, std::uint64_t tick, std::uint64_t stateHash,
                        bool live) {
    if (!enabled()) return;
    Json line = header(frame, event);
    line["tick"] = tick;
    line["state_hash"] = stateHashText(stateHash);
    line["live"] = live;
    write(line);
}

void EventLog::impactLine(std::uint64_t frame, const char* event, const World& world, const ImpactRecord& r) {
    if (!enabled()) return;
    Json line = header(frame, event);
    line["step"] = r.step;
    line["time"] = r.time;
    const auto bodies = world.bodies();
    const auto obstacles = world.obstacles();
    const auto name = [](const auto& items, int i, const char* kind) {
        return i >= 0 && i < static_cast<int>(items.size()) ? items[static_cast<std::size_t>(i)].name
                                                            : std::string(kind) + " " + std::to_string(i);
    };
    line["body"] = name(bodies, r.body, "body");
    line["body_index"] = r.body;
    const int i = r.partner.index;
    line["partner"] = r.partner.isBody()       ? name(bodies, i, "body")
                      : r.partner.isObstacle() ? name(obstacles, i, "obstacle")
                                               : "wall " + std::to_string(i);
    line["partner_kind"] = r.partner.isBody() ? "body" : r.partner.isObstacle() ? "obstacle" : "wall";
    line["partner_index"] = i;
    if (r.partner.isObstacle()) line["triangle"] = r.triangle;
    line["point"] = toJson(r.point);
    line["normal"] = toJson(r.normal);
    line["speed_before"] = shortestDouble(r.speedBefore);
    line["speed_after"] = shortestDouble(r.speedAfter);
    line["impulse"] = shortestDouble(r.impulse);
    write(line);
}

void EventLog::impact(std::uint64_t frame, const World& world, const ImpactRecord& record) {
    impactLine(frame, "impact", world, record);
}

void EventLog::jumpToImpact(std::uint64_t frame, const World& world, const ImpactRecord& record) {
    impactLine(frame, "jump_to_impact", world, record);
}

void EventLog::pace(std::uint64_t frame, bool behind, double effectiveScale, double askedScale,
                    double physicsLoad, int threads) {
    if (!enabled()) return;
    Json line = header(frame, "pace");
    line["behind"] = behind;
    line["time_scale"] = shortestDouble(static_cast<float>(effectiveScale));
    line["asked"] = shortestDouble(static_cast<float>(askedScale));
    line["physics_load"] = shortestDouble(static_cast<float>(physicsLoad));
    line["threads"] = threads;
    write(line);
}

void EventLog::simple(std::uint64_t frame, const char* event) {
    if (!enabled()) return;
    write(header(frame, event));
}

} // namespace kz
